// Product state as a visitor sees it (issue 16), in Debian's Chromium against the real server on
// the demo site: a sold-out product or variant has no active Add To Cart, the sale mark follows
// the chosen variant, and combinations no variant has are marked unavailable in the selectors.
import type { Page } from 'playwright-core';
import { describe, expect, inject, test } from 'vitest';
import { axeViolations } from './support/axe.ts';
import { VIEWPORTS, type ViewportName, viewportShot } from './support/chromium.ts';
import { useBrowserTier } from './support/tier.ts';
import { visit } from './support/visit.ts';

const chromiumPath = inject('chromiumPath');

const button = (page: Page) => page.locator('.sf-product .sqs-add-to-cart-button');
const buttonState = async (page: Page) => ({
  label: await button(page).locator('.sqs-add-to-cart-button-inner').textContent(),
  disabled: await button(page).getAttribute('aria-disabled'),
});
const optionTexts = (page: Page, name: string) =>
  page.locator(`.sf-product select[data-variant-option-name="${name}"] option`).evaluateAll((options) =>
    (options as HTMLOptionElement[]).map((o) => `${o.textContent}${o.disabled ? ' [disabled]' : ''}`),
  );

describe.skipIf(!chromiumPath)(`product state in Chromium${chromiumPath ? '' : ` (skipped: ${inject('browserSkipReason')})`}`, () => {
  const tier = useBrowserTier(chromiumPath!);

  test('PS-1 a sold-out product reads Sold Out on load; a sold-out variant once chosen; an in-stock one brings Add To Cart back', async () => {
    const v = await tier.newVisitor();
    await visit(v.page, '/shop/vinyl');
    // The formatter's markup says Add To Cart; the island relabels it once hydrated.
    await expect.poll(() => buttonState(v.page)).toEqual({ label: 'Sold Out', disabled: 'true' });
    await v.screenshot('product-state-1-vinyl-sold-out');

    await visit(v.page, '/shop/tee');
    expect(await buttonState(v.page)).toEqual({ label: 'Add To Cart', disabled: null });
    await v.page.selectOption('.sf-product select[data-variant-option-name="Size"]', 'L');
    await expect.poll(() => buttonState(v.page)).toEqual({ label: 'Sold Out', disabled: 'true' });
    expect(await v.page.getByRole('button', { name: 'Sold Out' }).getAttribute('aria-disabled')).toBe('true');
    // Activating it still says why, and nothing is added.
    let posts = 0;
    v.page.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/commerce/shopping-cart/entries') posts += 1;
    });
    await button(v.page).focus();
    await v.page.keyboard.press('Enter');
    await expect.poll(() => v.page.locator('.sf-alert-message').textContent()).toBe('Sorry, we do not have enough of that item available.');
    await v.screenshot('product-state-2-tee-l-sold-out');
    await v.page.keyboard.press('Escape');
    await v.page.selectOption('.sf-product select[data-variant-option-name="Size"]', 'S');
    await expect.poll(() => buttonState(v.page)).toEqual({ label: 'Add To Cart', disabled: null });
    expect(posts).toBe(0);
    expect(await axeViolations(v.page)).toEqual([]);
  });

  test('PS-2 the SALE mark follows the chosen variant', async () => {
    const v = await tier.newVisitor();
    await visit(v.page, '/shop/tee');
    const marks = () => v.page.locator('.sf-product .sf-product-status .product-mark').allTextContents();
    expect(await marks()).toEqual(['sale']);
    await v.page.selectOption('.sf-product select[data-variant-option-name="Size"]', 'S');
    await expect.poll(marks).toEqual([]);
    expect(await v.page.locator('.sf-product .product-price').textContent()).toContain('25.00');
    await v.screenshot('product-state-3-tee-s-no-sale');
    await v.page.selectOption('.sf-product select[data-variant-option-name="Size"]', 'M');
    await expect.poll(marks).toEqual(['sale']);
    expect(await v.page.locator('.sf-product .product-price .original-price').textContent()).toContain('25.00');
    await v.page.selectOption('.sf-product select[data-variant-option-name="Size"]', 'L');
    await expect.poll(marks).toEqual(['sold out']);
  });

  test('PS-3 the hoodie in S offers no Sand, and Sand offers no S: marked (unavailable) and disabled', async () => {
    const v = await tier.newVisitor();
    await visit(v.page, '/shop/hoodie');
    expect(await optionTexts(v.page, 'Color')).toEqual(['Select Color', 'Navy', 'Sand']);
    await v.page.selectOption('.sf-product select[data-variant-option-name="Size"]', 'S');
    await expect.poll(() => optionTexts(v.page, 'Color')).toEqual(['Select Color', 'Navy', 'Sand (unavailable) [disabled]']);
    await v.screenshot('product-state-4-hoodie-s');
    await v.page.selectOption('.sf-product select[data-variant-option-name="Size"]', '');
    await v.page.selectOption('.sf-product select[data-variant-option-name="Color"]', 'Sand');
    await expect.poll(() => optionTexts(v.page, 'Size')).toEqual(['Select Size', 'S (unavailable) [disabled]', 'M', 'L']);
    // Sand in M exists but is sold out: offered, and the button says so.
    await v.page.selectOption('.sf-product select[data-variant-option-name="Size"]', 'M');
    await expect.poll(() => buttonState(v.page)).toEqual({ label: 'Sold Out', disabled: 'true' });
    expect(await axeViolations(v.page)).toEqual([]);
  });

  test('PS-5 the About section\'s On sale / In stock / Sold out chips follow the chosen variant', async () => {
    const v = await tier.newVisitor();
    await visit(v.page, '/shop/tee');
    // What the visitor can see (hidden chips are not visible), in order.
    const chips = () => v.page.locator('.demo-pd-badges .demo-badge:visible').allTextContents();
    // Nothing chosen: the product as a whole (M is on sale, S and M are in stock).
    expect(await chips()).toEqual(['On sale', 'In stock', 'Price varies by option']);
    await v.page.selectOption('.sf-product select[data-variant-option-name="Size"]', 'S');
    await expect.poll(chips).toEqual(['In stock', 'Price varies by option']);
    await v.page.locator('.demo-pd-badges').scrollIntoViewIfNeeded();
    await viewportShot(v.page, 'product-state-5-tee-s-chips');
    await v.page.selectOption('.sf-product select[data-variant-option-name="Size"]', 'L');
    await expect.poll(chips).toEqual(['Sold out', 'Price varies by option']);
    await viewportShot(v.page, 'product-state-6-tee-l-chips');
    await v.page.selectOption('.sf-product select[data-variant-option-name="Size"]', 'M');
    await expect.poll(chips).toEqual(['On sale', 'In stock', 'Price varies by option']);
    await v.page.selectOption('.sf-product select[data-variant-option-name="Size"]', '');
    await expect.poll(chips).toEqual(['On sale', 'In stock', 'Price varies by option']);
    // A product with every variant sold out says so.
    await visit(v.page, '/shop/vinyl');
    expect(await chips()).toEqual(['Sold out', 'Price varies by option']);
    expect(await axeViolations(v.page)).toEqual([]);
  });

  test('PS-7 a theme that shows the radio buttons: the value labels carry no role (axe finds nothing, of any impact), the radio group is one tab stop and its arrows choose the size', async () => {
    const v = await tier.newVisitor();
    const page = v.page;
    await visit(page, '/shop/tee');
    // The demo hides the radios behind the dropdown; a theme may show them instead.
    await page.addStyleTag({ content: '.variant-radiobtn-wrapper { display: block !important; }' });
    const group = page.locator('.sf-product .variant-radiobtn-wrapper');
    await group.waitFor({ state: 'visible' });
    // The labels were role="button" tabindex="0": a role ARIA forbids on <label> (axe
    // aria-allowed-role, minor), and one more tab stop per size beside the radio group's own.
    expect(await group.locator('label[role], label[tabindex]').count()).toBe(0);
    expect(await axeViolations(page, '.sf-product .product-variants', { everyImpact: true })).toEqual([]);
    // Keyboard: from the dropdown, Tab reaches the radio group once; the arrows choose, and the
    // dropdown, the price and Add To Cart follow; the next Tab leaves the group.
    const select = page.locator('.sf-product select[data-variant-option-name="Size"]');
    await select.focus();
    await page.keyboard.press('Tab');
    const focused = () => page.evaluate(() => document.activeElement?.id ?? document.activeElement?.className ?? '');
    expect(await focused()).toBe('variant-option-Size-S');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => select.inputValue()).toBe('M');
    expect(await page.locator('#variant-option-Size-M').isChecked()).toBe(true);
    await expect.poll(() => page.locator('.sf-product .product-price .original-price').count()).toBe(1);
    await page.keyboard.press('Tab');
    expect(await focused()).not.toMatch(/^variant-option-/);
    await viewportShot(page, 'product-state-7-tee-radios');
  });

  for (const viewport of Object.keys(VIEWPORTS) as ViewportName[]) {
    test(`PS-6 (${viewport}) Quick View buttons named per product; Quick View carries the pay-later line and, for a sold-out variant, the restock box instead of it: captcha, sign-up kept by the server`, async () => {
      const v = await tier.newVisitor();
      await v.page.setViewportSize(VIEWPORTS[viewport]);
      await visit(v.page, '/shop');
      // Each card's Quick View button is named after its product (its own words first), so the
      // grid's buttons are told apart by a screen reader's list of buttons.
      const names = await v.page.locator('.sqs-product-quick-view-button').evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label')));
      expect(names.length).toBeGreaterThan(1);
      expect(new Set(names).size).toBe(names.length);
      expect(names.every((n) => n?.startsWith('Quick View, '))).toBe(true);
      expect(await v.page.getByRole('button', { name: 'Quick View, Harbor Hoodie', exact: true }).count()).toBe(1);
      // The shop page has no captcha provider of its own.
      expect(await v.page.locator('script[src="/assets/captcha-local.js"]').count()).toBe(0);
      await v.page.locator('.sf-product-card[data-item-id="hoodie"] .sqs-product-quick-view-button').click();
      const dialog = v.page.locator('.sf-quick-view');
      await expect.poll(() => dialog.locator('.sf-quick-view-close').evaluate((el) => el === document.activeElement)).toBe(true);
      // The pay-later line of the product page, for its lowest price ($55.00 / 4).
      await expect.poll(() => dialog.locator('.sf-bnpl-text').textContent()).toBe('or 4 interest-free payments of $13.75 with');
      const box = dialog.locator('.product-restock-notification[data-variant-id="hoodie-m-sand"]');
      expect(await box.isHidden()).toBe(true);
      await dialog.locator('select[data-variant-option-name="Size"]').selectOption('M');
      await dialog.locator('select[data-variant-option-name="Color"]').selectOption('Sand');
      await box.waitFor({ state: 'visible' });
      await expect.poll(() => dialog.locator('.sqs-add-to-cart-button-inner').textContent()).toBe('Sold Out');
      // A sold-out variant cannot be bought, so it is offered no payment terms.
      await expect.poll(() => dialog.locator('.sf-bnpl').getAttribute('data-state')).toBe('hidden');
      expect(await dialog.locator('.sf-bnpl-text').count()).toBe(0);
      // The captcha provider came with the product page's parts.
      await box.locator('.captcha-container input.sf-captcha-local').waitFor({ state: 'visible' });
      await box.scrollIntoViewIfNeeded();
      await viewportShot(v.page, `dlg-quick-view-restock-${viewport}`);
      expect(await axeViolations(v.page)).toEqual([]);
      await box.locator('input[name="email"]').fill(`quick-${viewport}@example.com`);
      await box.locator('.captcha-container input.sf-captcha-local').check();
      await box.locator('input[type="submit"]').click();
      await expect.poll(() => box.locator('.product-restock-success').textContent()).toBe('Signed up!');
      const signUps = await tier.server.store.read.listAllRestockSignUps();
      expect(signUps.filter((s) => s.productId === 'hoodie' && s.variantId === 'hoodie-m-sand').map((s) => s.siteVisitorEmail)).toContain(`quick-${viewport}@example.com`);
      // Escape still closes the dialog, focus back on the card's button.
      await v.page.keyboard.press('Escape');
      await expect.poll(() => dialog.count()).toBe(0);
    });
  }
});
