// The cart page's controls (C1 page type 200, B26, B27) in Debian's Chromium against the real
// server on the demo site: add a tee, open /cart, change its quantity, remove it; and the cart
// page following what a second tab adds and removes.
import type { Browser } from 'playwright-core';
import { describe, expect, inject, test } from 'vitest';
import { launchChromium, openVisitor, type VisitorPage } from './support/chromium.ts';
import { useBrowserTier } from './support/tier.ts';
import { addTeeToCart, pageContext, settle, visit, waitForBoot } from './support/visit.ts';

const chromiumPath = inject('chromiumPath');

describe.skipIf(!chromiumPath)(`cart page in Chromium${chromiumPath ? '' : ` (skipped: ${inject('browserSkipReason')})`}`, () => {
  const tier = useBrowserTier(chromiumPath!);

  test('a quantity change updates the totals and the stored cart; removing the only entry empties the cart', async () => {
    const v = await tier.newVisitor();
    await addTeeToCart(v.page, 'S');

    expect(await visit(v.page, '/cart')).toBe(200);
    expect([200, 205]).toContain((await pageContext(v.page)).pageType);
    const island = v.page.locator('[data-island="cart-page"]');
    expect(await island.getAttribute('data-hydrated')).toBe('true');
    const quantity = v.page.getByRole('spinbutton', { name: 'Quantity of Classic Tee' });
    expect(await quantity.inputValue()).toBe('1');
    expect(await v.page.locator('.sf-entry-total').textContent()).toBe('$25.00');
    await v.screenshot('cart-page-1-one-tee');

    const cartId = (await v.context.cookies()).find((c) => c.name === 'CART')!.value;
    await quantity.fill('3');
    const [put] = await Promise.all([
      v.page.waitForResponse((r) => r.request().method() === 'PUT' && new URL(r.url()).pathname.startsWith('/api/commerce/shopping-cart/entries/')),
      quantity.press('Enter'),
    ]);
    expect(put.status()).toBe(200);
    expect(put.request().postDataJSON()).toEqual({ quantity: 3 });
    await expect.poll(() => v.page.locator('.sf-entry-total').textContent()).toBe('$75.00');
    expect(await v.page.locator('.sf-cart-subtotal').textContent()).toContain('$75.00');
    const stored = await tier.server.store.read.getCart(cartId);
    expect(stored!.entries.map((e) => e.quantity)).toEqual([3]);
    await v.screenshot('cart-page-2-three-tees');

    // Keyboard: focus the remove button and press Enter.
    await v.page.getByRole('button', { name: 'Remove Classic Tee' }).focus();
    const [del] = await Promise.all([
      v.page.waitForResponse((r) => r.request().method() === 'DELETE' && new URL(r.url()).pathname.startsWith('/api/commerce/shopping-cart/entries/')),
      v.page.keyboard.press('Enter'),
    ]);
    expect(del.status()).toBe(200);
    const empty = v.page.locator('.sf-cart-empty');
    await empty.waitFor({ state: 'visible' });
    expect(await empty.textContent()).toBe('You have nothing in your shopping cart.');
    expect(await v.page.locator('.sf-cart-entry').count()).toBe(0);
    expect(await v.page.locator('.sf-checkout-button').count()).toBe(0);
    expect((await tier.server.store.read.getCart(cartId))!.entries).toEqual([]);
    await v.screenshot('cart-page-3-empty');
  });

  test("without the site's stylesheet (a site with no .visually-hidden rule) the Remove column's header is still hidden on screen and named for screen readers", async () => {
    const v = await tier.newVisitor();
    await addTeeToCart(v.page, 'S');
    expect(await visit(v.page, '/cart')).toBe(200);
    // The page as a site without its own rule sees it: every site stylesheet gone.
    await v.page.evaluate(() => document.querySelectorAll('link[rel="stylesheet"][href^="/assets/site/"]').forEach((link) => link.remove()));
    await expect.poll(() => v.page.evaluate(() => [...document.styleSheets].filter((sheet) => sheet.href?.includes('/assets/site/')).length)).toBe(0);
    const header = v.page.getByRole('columnheader', { name: 'Remove' });
    // The word stood in the header row, 60-odd pixels wide, over the Remove buttons.
    const box = await header.evaluate((th) => {
      const rect = th.querySelector('.visually-hidden')!.getBoundingClientRect();
      return { width: rect.width, height: rect.height };
    });
    expect(box.width).toBeLessThanOrEqual(1);
    expect(box.height).toBeLessThanOrEqual(1);
    await v.screenshot('cart-page-remove-header-unstyled');
  });

  test('a second tab adds and removes entries: the cart page follows the stored cart', async () => {
    const v = await tier.newVisitor();
    // The change of an entry another tab removed answers 404 (B26), which Chromium logs.
    v.allowConsoleError(/status of 404/);
    await addTeeToCart(v.page, 'S');
    expect(await visit(v.page, '/cart')).toBe(200);
    const rows = v.page.locator('.sf-cart-entry');
    expect(await rows.count()).toBe(1);

    // The other tab adds a cap (on sale, $22.00).
    const other = await v.context.newPage();
    expect(await visit(other, '/shop/cap')).toBe(200);
    await Promise.all([
      other.waitForResponse((r) => new URL(r.url()).pathname === '/api/commerce/shopping-cart/entries' && r.status() === 200),
      other.click('.sqs-add-to-cart-button'),
    ]);

    // Back on the cart page, the header's cart link (which does not reload it) brings the cap's row.
    await v.page.bringToFront();
    await v.page.click('.sf-cart-link');
    await expect.poll(() => rows.count()).toBe(2);
    const cap = v.page.locator('.sf-cart-entry[data-item-id="cap"]');
    expect(await cap.locator('.sf-entry-total').textContent()).toBe('$22.00');
    expect(await v.page.locator('.sf-cart-subtotal').textContent()).toContain('$47.00');
    await v.screenshot('cart-page-4-added-elsewhere');

    // Removing the tee leaves the cap, not the empty cart.
    await Promise.all([
      v.page.waitForResponse((r) => r.request().method() === 'DELETE' && r.status() === 200),
      v.page.getByRole('button', { name: 'Remove Classic Tee' }).click(),
    ]);
    await expect.poll(() => rows.count()).toBe(1);
    expect(await v.page.locator('.sf-cart-empty').count()).toBe(0);
    expect(await v.page.locator('.sf-cart-subtotal').textContent()).toContain('$22.00');

    // The other tab removes the cap; a quantity change here says so and drops the line.
    expect(await visit(other, '/cart')).toBe(200);
    await Promise.all([
      other.waitForResponse((r) => r.request().method() === 'DELETE' && r.status() === 200),
      other.locator('.sf-entry-remove').click(),
    ]);
    await other.close();
    await v.page.bringToFront();
    const quantity = cap.locator('.sf-entry-quantity-input');
    await quantity.fill('2');
    await Promise.all([
      v.page.waitForResponse((r) => r.request().method() === 'PUT' && r.status() === 404),
      quantity.press('Enter'),
    ]);
    const alert = v.page.getByRole('alertdialog');
    await alert.waitFor({ state: 'visible' });
    expect(await alert.locator('.sf-alert-title').textContent()).toBe('Unable to update quantity');
    expect(await alert.locator('.sf-alert-message').textContent()).toBe('Cart entry not found.');
    await expect.poll(() => rows.count()).toBe(0);
    await alert.getByRole('button', { name: 'OK' }).click();
    const empty = v.page.locator('.sf-cart-empty');
    await empty.waitFor({ state: 'visible' });
    expect(await v.page.evaluate(() => document.activeElement?.className)).toBe('sf-cart-empty');
    await v.screenshot('cart-page-5-removed-elsewhere');
  });
  test('a cart page opened with an empty cart shows the entry another tab added once the visitor comes back to it', async () => {
    const v = await tier.newVisitor();
    expect(await visit(v.page, '/cart')).toBe(200);
    expect(await v.page.locator('.sf-cart-empty').textContent()).toBe('You have nothing in your shopping cart.');
    // The server writes the cart-page island only around entries: this page has none.
    expect(await v.page.locator('[data-island="cart-page"]').count()).toBe(0);

    const other = await v.context.newPage();
    await addTeeToCart(other, 'S');
    await other.close();

    // Headless Chromium keeps every tab visible and focused, so the visitor's return to this tab
    // is the window's blur and focus events, which a browser fires when its window is left and
    // picked again. The page reads the cart, finds the tee, and loads itself again.
    const loaded = v.page.waitForEvent('load');
    await v.page.evaluate(() => {
      window.dispatchEvent(new FocusEvent('blur'));
      window.dispatchEvent(new FocusEvent('focus'));
    });
    await loaded;
    await waitForBoot(v.page);
    const rows = v.page.locator('.sf-cart-entry');
    expect(await rows.count()).toBe(1);
    expect(await rows.first().getAttribute('data-item-id')).toBe('tee');
    expect(await v.page.locator('.sf-cart-empty').count()).toBe(0);
    expect(await v.page.getByRole('link', { name: 'Checkout' }).count()).toBe(1);
    await v.screenshot('cart-page-6-empty-then-added-elsewhere');
  });

  /**
   * A visitor whose Back restores pages as Safari does, DOM and all: the browser has the
   * back/forward cache on (Playwright turns it off, see launchChromium) and the pages' no-store
   * is taken off on the way in (Chromium keeps no no-store page there; Safari does). A restored
   * page gets `data-restored="true"` on <html>.
   */
  async function restoringVisitor(browser: Browser): Promise<VisitorPage> {
    const v = await openVisitor(browser, tier.server.url);
    await v.page.route('**/*', async (route) => {
      if (route.request().resourceType() !== 'document') return route.fallback();
      const response = await route.fetch();
      const headers = { ...response.headers() };
      delete headers['cache-control'];
      await route.fulfill({ response, headers });
    });
    await v.page.addInitScript(() => addEventListener('pageshow', (event) => event.persisted && document.documentElement.setAttribute('data-restored', 'true')));
    return v;
  }

  test('Back to the product page after removing its line on /cart: a page restored from the back/forward cache shows the cart as stored', async () => {
    const browser = await launchChromium(chromiumPath!, { backForwardCache: true });
    try {
      const v = await restoringVisitor(browser);
      const { page } = v;
      const header = page.locator('header .sf-cart-link');
      const pill = page.locator('.sf-pill-cart-wrapper');

      await addTeeToCart(page, 'S');
      await expect.poll(() => header.textContent()).toBe('Cart1');
      await expect.poll(() => pill.getAttribute('data-state')).toBe('visible');
      expect(await visit(page, '/cart')).toBe(200);
      await page.getByRole('button', { name: 'Remove Classic Tee' }).click();
      await page.locator('.sf-cart-empty').waitFor({ state: 'visible' });

      await page.goBack({ waitUntil: 'commit' });
      await expect.poll(() => page.evaluate(() => location.pathname + ' ' + document.documentElement.getAttribute('data-restored'))).toBe('/shop/tee true');
      // Before, the restored page still said Cart 1 with the pill at $25.00.
      await expect.poll(() => header.textContent()).toBe('Cart');
      await expect.poll(() => pill.getAttribute('data-state')).toBe('hidden');
      await v.screenshot('cart-page-7-back-after-remove');
      expect(v.problems()).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  test('Back to a product page left while its button said Added!: the restored page shows Add To Cart at rest', async () => {
    // The page clock is paused, so the 2 s of Added! are still to run when the visitor leaves: without the reset
    // the restored button said Added! until they ran out.
    const browser = await launchChromium(chromiumPath!, { backForwardCache: true });
    try {
      const v = await restoringVisitor(browser);
      const { page } = v;
      await page.clock.install();
      expect(await visit(page, '/shop/tee')).toBe(200);
      await page.selectOption('.product-variants select[data-variant-option-name="Size"]', 'S');
      await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
      const label = page.locator('.sqs-add-to-cart-button-inner');
      const button = page.locator('.sqs-add-to-cart-button');
      await Promise.all([
        page.waitForResponse((r) => new URL(r.url()).pathname === '/api/commerce/shopping-cart/entries' && r.status() === 200),
        button.click(),
      ]);
      await expect.poll(() => page.locator('.sf-pill-count').textContent()).toBe('1');
      await page.clock.runFor(1000);
      await expect.poll(() => label.textContent()).toBe('Added!');

      expect(await visit(page, '/cart')).toBe(200);
      await page.goBack({ waitUntil: 'commit' });
      await expect.poll(() => page.evaluate(() => location.pathname + ' ' + document.documentElement.getAttribute('data-restored'))).toBe('/shop/tee true');
      await settle(page);
      expect(await label.textContent()).toBe('Add To Cart');
      expect(await button.getAttribute('data-state')).toBeNull();
      // At rest, so a second add goes through at once.
      await Promise.all([
        page.waitForResponse((r) => new URL(r.url()).pathname === '/api/commerce/shopping-cart/entries' && r.status() === 200),
        button.click(),
      ]);
      await expect.poll(() => label.textContent()).toBe('Adding…');
      await v.screenshot('cart-page-8-back-after-add');
      expect(v.problems()).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
