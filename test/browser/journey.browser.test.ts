// A visitor's whole journey, start to finish, in Debian's Chromium against the real server on
// the demo site: home, the shop grid, the tee (a size chosen), add to cart, the pill cart, the
// cart page (a quantity changed, a line removed), checkout (the empty form's errors, then
// filled), the order's confirmation and the order status page. JOURNEY-1 walks it with the
// keyboard only at a desktop width: every step by Tab, Shift+Tab, arrows, Enter and Escape, each
// focused control with a visible focus ring, focus never dropped to <body> by an island's
// render. JOURNEY-2 walks it on a phone (390x844), at 320x640 (reflow) and at 200% zoom of a
// 1280x800 window (640x400 CSS px): no page scrolls sideways, controls big enough to touch,
// pop-ups over the window, no sticky part over the focused field. JOURNEY-3 opens Quick View by
// keys in short windows (640x400, 844x390: a zoomed laptop, a phone held sideways): its title,
// price and Add To Cart in sight as it opens, Tab kept inside, Escape back to the card, a taller
// panel scrolling under its x; the alert, the pay-later modal, the engraving lightbox and the
// journal's popup overlay in the window. Axe at every step. Nothing here reads a clock: every
// wait is for a state (the overlay's delay runs on the page's fake clock).
import type { Page } from 'playwright-core';
import { describe, expect, inject, test } from 'vitest';
import { axeViolations } from './support/axe.ts';
import { viewportShot } from './support/chromium.ts';
import { useBrowserTier } from './support/tier.ts';
import { fillCheckout, settle, visit, waitForBoot } from './support/visit.ts';

const chromiumPath = inject('chromiumPath');
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const NARROW = { width: 320, height: 640 };
// A 1280x800 window zoomed to 200% lays the page out in 640x400 CSS px.
const ZOOMED = { width: 640, height: 400 };
// A phone held sideways: short and wide.
const LANDSCAPE = { width: 844, height: 390 };

/** The focused element as a visitor meets it: its name, whether it shows a focus ring, where it is. */
interface Focused {
  tag: string;
  name: string;
  ring: boolean;
  inViewport: boolean;
  onTop: boolean;
}

const focusedNow = (page: Page): Promise<Focused> =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body || el === document.documentElement) return { tag: 'body', name: '', ring: false, inViewport: false, onTop: false };
    const label = (el as HTMLInputElement).labels?.[0]?.textContent ?? '';
    const name = (el.getAttribute('aria-label') || label || el.textContent || (el as HTMLInputElement).value || '').replace(/\s+/g, ' ').trim();
    // A ring: an outline (Chromium's own focus-visible ring is `auto`), a box shadow, or a
    // ring drawn by the control's label (a visually hidden radio's label carries it).
    const shows = (node: Element | null) => {
      if (!node) return false;
      const s = getComputedStyle(node);
      return (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0) || s.boxShadow !== 'none';
    };
    const r = el.getBoundingClientRect();
    const inViewport = r.width > 0 && r.height > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight + 1 && r.right <= innerWidth + 1;
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    const labelFor = el.id ? document.querySelector(`label[for="${CSS.escape(el.id)}"]`) : null;
    return {
      tag: el.tagName.toLowerCase(),
      name,
      ring: shows(el) || shows(labelFor),
      inViewport,
      onTop: hit !== null && (el.contains(hit) || hit.contains(el) || (labelFor !== null && labelFor.contains(hit))),
    };
  });

/**
 * Presses Tab (or Shift+Tab) until the focused control's name matches `name`, checking each
 * control passed on the way: never <body>, a visible focus ring, scrolled into the window and
 * not covered by another element (a sticky bar, the pill). Returns the controls passed.
 */
async function tabTo(page: Page, name: RegExp, options: { back?: boolean; limit?: number } = {}): Promise<string[]> {
  const passed: string[] = [];
  for (let i = 0; i < (options.limit ?? 80); i++) {
    await page.keyboard.press(options.back ? 'Shift+Tab' : 'Tab');
    const now = await focusedNow(page);
    expect(now.tag, `Tab ${i + 1} after ${passed.join(' | ')}`).not.toBe('body');
    expect(now, `the focus ring of "${now.name}" (${new URL(page.url()).pathname})`).toMatchObject({ ring: true, inViewport: true, onTop: true });
    passed.push(now.name);
    if (name.test(now.name)) return passed;
  }
  throw new Error(`no control named ${name} within ${passed.length} Tabs: ${passed.join(' | ')}`);
}

const isFocusedIn = (page: Page, selector: string) =>
  page.evaluate((s) => document.querySelector(s)?.contains(document.activeElement) ?? false, selector);

/** The page scrolls sideways by this many CSS px (0 when it fits the window). */
const sideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/**
 * Visible controls smaller than WCAG 2.5.8's 24x24 CSS px target (links inside a sentence are
 * exempt), as `name WxH` lines.
 */
const smallTargets = (page: Page) =>
  page.evaluate(() => {
    const small: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>('a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"], label[for]')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || getComputedStyle(el).visibility === 'hidden') continue;
      if (el.closest('[hidden], .visually-hidden, .sf-announcer')) continue;
      // A label is a target only for a radio or checkbox (a text field's own box is the target).
      if (el instanceof HTMLLabelElement && !(el.control instanceof HTMLInputElement && (el.control.type === 'radio' || el.control.type === 'checkbox'))) continue;
      // A radio or checkbox is sized with its label, which is the target.
      if (el instanceof HTMLInputElement && (el.type === 'radio' || el.type === 'checkbox') && el.labels?.length) continue;
      const inline = el.tagName === 'A' && getComputedStyle(el).display === 'inline' && (el.parentElement?.textContent ?? '').trim() !== (el.textContent ?? '').trim();
      if (inline) continue;
      if (r.width < 24 || r.height < 24) small.push(`${el.tagName.toLowerCase()} "${(el.getAttribute('aria-label') || el.textContent || '').trim().slice(0, 30)}" ${Math.round(r.width)}x${Math.round(r.height)}`);
    }
    return small;
  });

/**
 * Text cut off by its box: an element whose own text overflows a box that hides the overflow
 * (no ellipsis meant to show it), as `tag "text" scrollWxclientW` lines. Visually hidden text
 * (1 px boxes) is meant to be out of sight.
 */
const clippedText = (page: Page) =>
  page.evaluate(() => {
    const cut: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>('body *')) {
      const s = getComputedStyle(el);
      if (s.display === 'none' || el.clientWidth <= 1 || el.clientHeight <= 1) continue;
      const hides = (v: string) => v === 'hidden' || v === 'clip';
      const ownText = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim() !== '');
      if (!ownText || s.textOverflow === 'ellipsis') continue;
      const wide = hides(s.overflowX) && el.scrollWidth > el.clientWidth + 1;
      const tall = hides(s.overflowY) && el.scrollHeight > el.clientHeight + 1;
      if (wide || tall) cut.push(`${el.tagName.toLowerCase()}.${el.className} "${el.textContent!.trim().slice(0, 30)}" ${el.scrollWidth}x${el.scrollHeight} in ${el.clientWidth}x${el.clientHeight}`);
    }
    return cut;
  });

/**
 * Where a pop-up's panel lies: its top, left and right edges inside the window, and its
 * bottom too or else the panel (or a box around it) scrolls within the window, so that all of
 * it can be reached without scrolling the page behind it.
 */
const popUpPlace = (page: Page, panel: string) =>
  page.locator(panel).first().evaluate((el) => {
    const r = el.getBoundingClientRect();
    let reachable = r.bottom <= innerHeight + 1;
    for (let box: Element | null = el; box && !reachable && box !== document.body; box = box.parentElement) {
      const b = box.getBoundingClientRect();
      const scrolls = ['auto', 'scroll'].includes(getComputedStyle(box).overflowY) && box.scrollHeight > box.clientHeight;
      reachable = scrolls && b.top >= -1 && b.bottom <= innerHeight + 1;
    }
    return { top: r.top >= -1, left: r.left >= -1, right: r.right <= innerWidth + 1, bottom: reachable };
  });
const IN_WINDOW = { top: true, left: true, right: true, bottom: true };

/**
 * Whether each of `parts` (selectors inside the dialog) is in sight as the dialog opened: all
 * of its box inside the panel's visible box and the window (nothing scrolled, neither the panel
 * nor the page), and on top at its centre (not under the x or the panel's edge).
 */
const inSightInPanel = (page: Page, panel: string, parts: Record<string, string>) =>
  page.evaluate(
    ({ panel, parts }) => {
      const box = document.querySelector(panel)!.getBoundingClientRect();
      const seen: Record<string, boolean> = {};
      for (const [name, selector] of Object.entries(parts)) {
        const el = document.querySelector(panel)!.querySelector(selector);
        const r = el?.getBoundingClientRect();
        const hit = r ? document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) : null;
        seen[name] = !!el && !!r && r.height > 0 && r.top >= Math.max(box.top, 0) - 1 && r.bottom <= Math.min(box.bottom, innerHeight) + 1 && r.left >= Math.max(box.left, 0) - 1 && r.right <= Math.min(box.right, innerWidth) + 1 && hit !== null && el.contains(hit);
      }
      seen.panel = box.top >= 0 && box.left >= 0 && box.bottom <= innerHeight && box.right <= innerWidth;
      return seen;
    },
    { panel, parts },
  );

describe.skipIf(!chromiumPath)(`a visitor's journey in Chromium${chromiumPath ? '' : ` (skipped: ${inject('browserSkipReason')})`}`, () => {
  const tier = useBrowserTier(chromiumPath!);

  test('JOURNEY-1 keyboard only at 1280x800: home, shop, tee by keys, add, pill, cart, checkout errors then order, status', async () => {
    const v = await tier.newVisitor();
    const { page } = v;
    const { keyboard } = page;
    await page.setViewportSize(DESKTOP);
    const step = async (name: string) => {
      expect(await axeViolations(page), name).toEqual([]);
      await viewportShot(page, `journey-1-${name}`);
    };

    // Home: the first Tab is the skip link, shown; Enter moves focus to the page's main part
    // itself (a screen reader reads on from there), and the next Tab goes into it.
    expect(await visit(page, '/')).toBe(200);
    await keyboard.press('Tab');
    expect(await focusedNow(page)).toMatchObject({ name: 'Skip to content', ring: true, inViewport: true, onTop: true });
    await step('home-skip-link');
    await keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
    await keyboard.press('Tab');
    expect(await isFocusedIn(page, 'main')).toBe(true);

    // Back up to the navigation's Shop link, and on to the shop grid.
    await tabTo(page, /^Shop$/, { back: true });
    await Promise.all([page.waitForURL(/\/shop$/), keyboard.press('Enter')]);
    await waitForBoot(page);
    await step('shop');

    // Quick View on the tee's card is a modal dialog: focus goes in, Tab stays in, Escape
    // closes it and gives focus back to its button.
    await tabTo(page, /Quick View/);
    const opener = await page.evaluate(() => document.activeElement!.closest('[data-item-id]')?.getAttribute('data-item-id'));
    expect(opener).toBe('tee');
    await keyboard.press('Enter');
    const dialog = page.locator('.sf-quick-view[aria-modal="true"]');
    await dialog.waitFor();
    await expect.poll(() => isFocusedIn(page, '.sf-quick-view')).toBe(true);
    await waitForBoot(page);
    await step('quick-view');
    for (let i = 0; i < 25; i++) {
      await keyboard.press(i % 5 === 4 ? 'Shift+Tab' : 'Tab');
      expect(await isFocusedIn(page, '.sf-quick-view'), `Tab ${i + 1} in Quick View`).toBe(true);
      expect((await focusedNow(page)).ring).toBe(true);
    }
    await keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await focusedNow(page)).toMatchObject({ name: 'Quick View, Classic Tee', ring: true });
    expect(await isFocusedIn(page, '.sf-product-card[data-item-id="tee"]')).toBe(true);

    // The grid's tee.
    await tabTo(page, /Classic Tee/, { back: true });
    await Promise.all([page.waitForURL(/\/shop\/tee$/), keyboard.press('Enter')]);
    await waitForBoot(page);
    await step('tee');

    // A size chosen with the arrows: the price and stock follow, and are said.
    await tabTo(page, /Size/);
    const size = page.locator('.product-variants select[data-variant-option-name="Size"]');
    await keyboard.press('ArrowDown');
    await expect.poll(() => size.inputValue()).not.toBe('');
    const chosen = await size.inputValue();
    const said = page.locator('.sf-announcer').first();
    await expect.poll(() => said.textContent()).toMatch(/\$\d+\.\d\d/);
    expect(await said.textContent()).toContain(chosen);

    // Add To Cart, then another size added the same way: focus stays on the button through its renders.
    await tabTo(page, /^Add To Cart$/i);
    const added = () => page.waitForResponse((r) => new URL(r.url()).pathname === '/api/commerce/shopping-cart/entries' && r.status() === 200);
    await Promise.all([added(), keyboard.press('Enter')]);
    await expect.poll(() => said.textContent()).toMatch(/added|cart/i);
    expect(await isFocusedIn(page, '.sqs-add-to-cart-button, .sf-add-to-cart')).toBe(true);
    await tabTo(page, /Size/, { back: true });
    await keyboard.press('ArrowDown');
    await expect.poll(() => size.inputValue()).not.toBe(chosen);
    // The button takes a new press once it reads Add To Cart again (after Adding… and Added!).
    const button = page.locator('.sf-product .sqs-add-to-cart-button').first();
    await expect.poll(() => button.textContent()).toMatch(/^\s*Add To Cart\s*$/i);
    await tabTo(page, /^Add To Cart$/i);
    await Promise.all([added(), keyboard.press('Enter')]);
    await settle(page);
    expect((await focusedNow(page)).tag).not.toBe('body');
    await step('tee-added');

    // The pill cart: reached by Tab, it opens the cart page.
    await expect.poll(() => page.locator('.sf-pill-cart-wrapper').getAttribute('data-state')).toBe('visible');
    await tabTo(page, /items? in cart/i, { limit: 120 });
    await Promise.all([page.waitForURL(/\/cart$/), keyboard.press('Enter')]);
    await waitForBoot(page);
    await step('cart');

    // The first line's quantity to 2, the second line removed: focus stays on the page's controls.
    const rows = page.locator('.sf-cart-row, [data-entry-id]');
    await tabTo(page, /quantity/i);
    await keyboard.press('Control+A');
    await keyboard.type('2');
    await Promise.all([page.waitForResponse((r) => /\/api\/commerce\/shopping-cart\/entries/.test(r.url()) && r.request().method() !== 'GET'), keyboard.press('Tab')]);
    await settle(page);
    expect((await focusedNow(page)).tag).not.toBe('body');
    await tabTo(page, /^Remove/);
    const linesBefore = await rows.count();
    await Promise.all([page.waitForResponse((r) => /\/api\/commerce\/shopping-cart\/entries/.test(r.url()) && r.request().method() === 'DELETE'), keyboard.press('Enter')]);
    await expect.poll(() => rows.count()).toBeLessThan(linesBefore);
    await settle(page);
    expect((await focusedNow(page)).tag).not.toBe('body');
    await step('cart-changed');

    // Checkout: Place order on the empty form says what is missing and takes focus to the first field at fault.
    await tabTo(page, /^Checkout$/);
    await Promise.all([page.waitForURL(/\/checkout\?cartToken=/), keyboard.press('Enter')]);
    await waitForBoot(page);
    await page.locator('[data-island="checkout"][data-checkout-state="ready"]').waitFor();
    await step('checkout');
    await tabTo(page, /^Place order$/, { limit: 120 });
    await keyboard.press('Enter');
    await expect.poll(() => focusedNow(page).then((f) => f.name)).toMatch(/^Email/);
    const email = page.getByLabel('Email');
    expect(await email.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await email.getAttribute('aria-describedby')) ?? '';
    const errorText = await page.evaluate((ids) => ids.split(/\s+/).map((id) => document.getElementById(id)?.textContent ?? '').join(' '), describedBy);
    expect(errorText.trim()).not.toBe('');
    await step('checkout-errors');

    // The form by keys, in page order.
    for (const text of ['kay@example.com', 'Kay', 'Board', '2 Key St', '', 'Albany', 'NY', '12207']) {
      if (text) await keyboard.type(text);
      await keyboard.press('Tab');
    }
    await Promise.all([page.waitForResponse((r) => new URL(r.url()).pathname === '/api/commerce/checkout/quote'), (async () => {
      await keyboard.type('United S');
      await keyboard.press('Tab');
    })()]);
    await expect.poll(() => focusedNow(page).then((f) => f.name)).toMatch(/^Standard/);
    await tabTo(page, /^Card number/);
    await keyboard.type('4242424242424242');
    await keyboard.press('Tab');
    await keyboard.type('1234');
    await keyboard.press('Tab');
    await keyboard.type('123');
    await tabTo(page, /^Place order$/);
    await Promise.all([page.waitForURL(/\/commerce\/orders\/[^/]+\/confirmed$/), keyboard.press('Enter')]);
    await waitForBoot(page);
    const number = /Order #(\d+)/.exec((await page.locator('.sf-order-number').textContent()) ?? '')?.[1];
    expect(number).toBeDefined();
    await step('confirmed');
    await tabTo(page, /^Keep shopping$/);

    // The order status page, linked from the confirmation (and the receipt): looked up by keys.
    await tabTo(page, /^Order status$/, { back: true });
    await Promise.all([page.waitForURL(/\/commerce\/orders\/status$/), keyboard.press('Enter')]);
    await waitForBoot(page);
    await tabTo(page, /^Order number/);
    await keyboard.type(number!);
    await tabTo(page, /^Email/);
    await keyboard.type('kay@example.com');
    await tabTo(page, /^Look up order$/);
    await Promise.all([page.waitForURL(/\/commerce\/orders\/status$/), page.waitForResponse((r) => r.request().method() === 'POST'), keyboard.press('Enter')]);
    await waitForBoot(page);
    expect(await page.getByText(`Order #${number}`).first().isVisible()).toBe(true);
    await step('order-status');
  });
  test('JOURNEY-2 on a phone (390x844), at 320x640 and at 200% zoom (640x400): the same walk fits the window, targets touchable, pop-ups over it, nothing covers the focused field', async () => {
    const v = await tier.newVisitor();
    const { page } = v;
    let confirmedUrl = '';
    let orderNumber = '';
    for (const [label, size] of [['phone', PHONE], ['narrow', NARROW], ['zoom', ZOOMED]] as const) {
      await page.setViewportSize(size);
      const check = async (where: string) => {
        // Soft: one walk lists every fault of every step.
        expect.soft(await sideways(page), `${label} ${where}: sideways scroll`).toBeLessThanOrEqual(0);
        expect.soft(await smallTargets(page), `${label} ${where}: small targets`).toEqual([]);
        expect.soft(await clippedText(page), `${label} ${where}: clipped text`).toEqual([]);
        expect.soft(await axeViolations(page), `${label} ${where}: axe`).toEqual([]);
        await viewportShot(page, `journey-2-${label}-${where}`);
      };
      /**
       * Tab from the skip link to the page's end (focus leaves the page): every control on the
       * way shows its ring, is scrolled into the window and is not under a sticky bar or the pill.
       */
      const tabThrough = async (where: string) => {
        await page.locator('.demo-skip-link').focus();
        for (let i = 0; i < 200; i++) {
          await page.keyboard.press('Tab');
          const now = await focusedNow(page);
          if (now.tag === 'body') return;
          expect.soft({ name: now.name, ring: now.ring, inViewport: now.inViewport, onTop: now.onTop }, `${label} ${where}: Tab ${i + 1}`).toEqual({ name: now.name, ring: true, inViewport: true, onTop: true });
        }
        throw new Error(`${label} ${where}: 200 Tabs and still in the page`);
      };

      expect(await visit(page, '/')).toBe(200);
      await check('home');

      expect(await visit(page, '/shop')).toBe(200);
      await check('shop');
      // Quick View over the grid: its box inside the window, wherever the page is scrolled.
      const quick = page.locator('.sf-product-card[data-item-id="tee"] .sqs-product-quick-view-button');
      await quick.scrollIntoViewIfNeeded();
      await quick.click();
      await page.locator('.sf-quick-view[aria-modal="true"]').waitFor();
      await waitForBoot(page);
      expect.soft(await popUpPlace(page, '.sf-quick-view-content'), `${label} Quick View in the window`).toEqual(IN_WINDOW);
      expect(await sideways(page)).toBeLessThanOrEqual(0);
      expect(await axeViolations(page), `${label} quick view: axe`).toEqual([]);
      await viewportShot(page, `journey-2-${label}-quick-view`);
      await page.keyboard.press('Escape');
      await expect.poll(() => page.locator('.sf-quick-view').count()).toBe(0);

      expect(await visit(page, '/shop/tee')).toBe(200);
      // The alert (Add To Cart with no size) and the pay-later modal: over the window, not below it.
      await page.locator('.sf-product .sqs-add-to-cart-button').first().click();
      await page.locator('.sf-alert').waitFor();
      expect.soft(await popUpPlace(page, '.sf-alert'), `${label} alert in the window`).toEqual(IN_WINDOW);
      await viewportShot(page, `journey-2-${label}-alert`);
      await page.locator('.sf-alert-ok').click();
      await page.locator('.sf-alert').waitFor({ state: 'detached' });
      await page.locator('.sf-bnpl-info').first().click();
      await page.locator('.sf-bnpl-modal > .sf-bnpl-modal-content').waitFor();
      expect.soft(await popUpPlace(page, '.sf-bnpl-modal > .sf-bnpl-modal-content'), `${label} pay-later modal in the window`).toEqual(IN_WINDOW);
      expect.soft(await axeViolations(page), `${label} pay-later modal: axe`).toEqual([]);
      await viewportShot(page, `journey-2-${label}-bnpl`);
      await page.keyboard.press('Escape');
      await page.locator('.sf-bnpl-modal').waitFor({ state: 'detached' });
      await page.selectOption('.product-variants select[data-variant-option-name="Size"]', 'M');
      await Promise.all([
        page.waitForResponse((r) => new URL(r.url()).pathname === '/api/commerce/shopping-cart/entries' && r.status() === 200),
        page.locator('.sf-product .sqs-add-to-cart-button').first().click(),
      ]);
      const pill = page.locator('.sf-pill-cart-wrapper');
      await expect.poll(() => pill.getAttribute('data-state')).toBe('visible');
      const pillBox = await pill.evaluate((el) => {
        const r = el.getBoundingClientRect();
        return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight + 1 && r.right <= innerWidth + 1;
      });
      expect(pillBox, `${label} pill in the window`).toBe(true);
      await check('tee-added');
      await tabThrough('tee');

      await Promise.all([page.waitForURL(/\/cart$/), page.locator('.sf-pill-cart').click()]);
      await waitForBoot(page);
      await check('cart');
      await tabThrough('cart');

      await Promise.all([page.waitForURL(/\/checkout\?cartToken=/), page.getByRole('link', { name: 'Checkout' }).click()]);
      await waitForBoot(page);
      await page.locator('[data-island="checkout"][data-checkout-state="ready"]').waitFor();
      await check('checkout');
      await page.getByRole('button', { name: 'Place order' }).click();
      await expect.poll(() => focusedNow(page).then((f) => f.name)).toMatch(/^Email/);
      expect(await focusedNow(page), `${label}: the first invalid field in view`).toMatchObject({ inViewport: true, onTop: true });
      await check('checkout-errors');
      await tabThrough('checkout');

      if (!confirmedUrl) {
        await fillCheckout(page, '4242 4242 4242 4242');
        await Promise.all([page.waitForURL(/\/commerce\/orders\/[^/]+\/confirmed$/), page.getByRole('button', { name: 'Place order' }).click()]);
        await waitForBoot(page);
        confirmedUrl = page.url();
        orderNumber = /Order #(\d+)/.exec((await page.locator('.sf-order-number').textContent()) ?? '')![1]!;
      } else {
        expect(await visit(page, confirmedUrl)).toBe(200);
      }
      await check('confirmed');

      expect(await visit(page, '/commerce/orders/status')).toBe(200);
      await page.getByLabel('Order number').fill(orderNumber);
      await page.getByLabel('Email').fill('ada@example.com');
      await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.getByRole('button', { name: 'Look up order' }).click()]);
      await page.locator('.sf-order-number').waitFor();
      await waitForBoot(page);
      await check('order-status');
    }
  });

  test('JOURNEY-3 short windows (200% zoom 640x400, a phone sideways 844x390): Quick View fits the window with the title, price and Add To Cart in sight, by keys; its x in reach while a taller panel scrolls; the other pop-ups in the window', async () => {
    const v = await tier.newVisitor();
    const { page } = v;
    const { keyboard } = page;
    const added = () => page.waitForResponse((r) => new URL(r.url()).pathname === '/api/commerce/shopping-cart/entries' && r.status() === 200);
    for (const [label, size] of [['zoom', ZOOMED], ['landscape', LANDSCAPE]] as const) {
      await page.setViewportSize(size);
      expect(await visit(page, '/shop')).toBe(200);

      // Opened by keys from the tee's card: focus goes in; the page behind stays where it was.
      const opener = page.locator('.sf-product-card[data-item-id="tee"] .sqs-product-quick-view-button');
      await opener.focus();
      const scrolled = await page.evaluate(() => scrollY);
      await keyboard.press('Enter');
      const dialog = page.locator('.sf-quick-view[aria-modal="true"]');
      await dialog.waitFor();
      await expect.poll(() => isFocusedIn(page, '.sf-quick-view')).toBe(true);
      await waitForBoot(page);
      await dialog.locator('.sqs-add-to-cart-button').first().waitFor();
      // Before, the picture filled the panel's first screen (552 px tall at 640x400) and Add To
      // Cart lay 600 px down inside it; at 844x390 it was cut by the panel's foot.
      expect(await inSightInPanel(page, '.sf-quick-view-content', {
        close: '.sf-quick-view-close',
        title: '.sf-product-title',
        price: '.product-price',
        addToCart: '.sqs-add-to-cart-button',
      }), `${label}: Quick View's parts in sight`).toEqual({ panel: true, close: true, title: true, price: true, addToCart: true });
      expect(await page.evaluate(() => scrollY)).toBe(scrolled);
      expect(await sideways(page)).toBeLessThanOrEqual(0);
      expect(await axeViolations(page), `${label} quick view: axe`).toEqual([]);
      await viewportShot(page, `journey-3-${label}-quick-view`);

      // Tab and Shift+Tab stay in the dialog; every control they reach shows its ring, in the
      // window, not under the x.
      for (let i = 0; i < 20; i++) {
        await keyboard.press(i % 5 === 4 ? 'Shift+Tab' : 'Tab');
        expect(await isFocusedIn(page, '.sf-quick-view'), `${label}: Tab ${i + 1} in Quick View`).toBe(true);
        const now = await focusedNow(page);
        expect(now, `${label}: Tab ${i + 1} in Quick View`).toMatchObject({ ring: true, inViewport: true, onTop: true });
      }
      // A size by keys, then Add To Cart pressed where it is: the entry is stored.
      await dialog.locator('select[data-variant-option-name="Size"]').focus();
      await keyboard.press('ArrowDown');
      await expect.poll(() => dialog.locator('select[data-variant-option-name="Size"]').inputValue()).not.toBe('');
      await tabTo(page, /^Add To Cart$/i);
      await Promise.all([added(), keyboard.press('Enter')]);
      expect(await isFocusedIn(page, '.sf-quick-view')).toBe(true);

      // Escape closes it and gives focus back to the card's button.
      await keyboard.press('Escape');
      await expect.poll(() => dialog.count()).toBe(0);
      expect(await focusedNow(page)).toMatchObject({ name: 'Quick View, Classic Tee', ring: true });

      // The hoodie's sold-out variant adds the restock box: the panel is taller than the window
      // and scrolls inside it; the x stays in reach at its top, and the box's email field Tab
      // reaches is in sight, not under the x.
      await page.locator('.sf-product-card[data-item-id="hoodie"] .sqs-product-quick-view-button').click();
      await dialog.waitFor();
      await waitForBoot(page);
      await dialog.locator('select[data-variant-option-name="Size"]').selectOption('M');
      await dialog.locator('select[data-variant-option-name="Color"]').selectOption('Sand');
      const restock = dialog.locator('.product-restock-notification[data-variant-id="hoodie-m-sand"]');
      await restock.waitFor({ state: 'visible' });
      await tabTo(page, /^Email Address$/);
      expect(await isFocusedIn(page, '.product-restock-notification')).toBe(true);
      expect(await popUpPlace(page, '.sf-quick-view-content'), `${label} Quick View with the restock box`).toEqual(IN_WINDOW);
      expect(await inSightInPanel(page, '.sf-quick-view-content', { close: '.sf-quick-view-close' }), `${label}: the x while the panel is scrolled`).toEqual({ panel: true, close: true });
      expect(await page.evaluate(() => document.querySelector('.sf-quick-view-content')!.scrollTop)).toBeGreaterThan(0);
      expect(await axeViolations(page), `${label} quick view restock: axe`).toEqual([]);
      await viewportShot(page, `journey-3-${label}-quick-view-restock`);
      await keyboard.press('Escape');
      await expect.poll(() => dialog.count()).toBe(0);

      // The product page's pop-ups: the alert, the pay-later modal, the mug's engraving lightbox.
      expect(await visit(page, '/shop/tee')).toBe(200);
      await page.locator('.sf-product .sqs-add-to-cart-button').first().click();
      await page.locator('.sf-alert').waitFor();
      expect(await popUpPlace(page, '.sf-alert'), `${label} alert in the window`).toEqual(IN_WINDOW);
      await page.keyboard.press('Escape');
      await page.locator('.sf-alert').waitFor({ state: 'detached' });
      await page.locator('.sf-bnpl-info').first().click();
      await page.locator('.sf-bnpl-modal > .sf-bnpl-modal-content').waitFor();
      expect(await popUpPlace(page, '.sf-bnpl-modal > .sf-bnpl-modal-content'), `${label} pay-later modal in the window`).toEqual(IN_WINDOW);
      await page.keyboard.press('Escape');
      await page.locator('.sf-bnpl-modal').waitFor({ state: 'detached' });
      expect(await visit(page, '/shop/mug')).toBe(200);
      await page.locator('.sf-product .sqs-add-to-cart-button').first().click();
      await page.locator('.sf-lightbox-content').waitFor();
      expect(await popUpPlace(page, '.sf-lightbox-content'), `${label} engraving lightbox in the window`).toEqual(IN_WINDOW);
      await viewportShot(page, `journey-3-${label}-lightbox`);
      await page.keyboard.press('Escape');
      await page.locator('.sf-lightbox').waitFor({ state: 'detached' });
    }

    // The journal's popup overlay, shown after its delay on the page's fake clock, in a tab of
    // its own (last: a tab behind another runs its timers throttled).
    const tab = await v.context.newPage();
    const start = Date.parse('2026-03-02T10:00:00Z');
    await tab.clock.install({ time: start - 1000 });
    for (const [label, size] of [['zoom', ZOOMED], ['landscape', LANDSCAPE]] as const) {
      await tab.setViewportSize(size);
      // Paused a second ahead of the fake clock (which ran on for axe below).
      await tab.clock.pauseAt(Math.max(start, (await tab.evaluate(() => Date.now()).catch(() => start)) + 1000));
      // Never closed here, so it comes again on the next visit.
      expect(await visit(tab, '/journal')).toBe(200);
      await expect.poll(() => tab.evaluate(() => document.querySelector('.sf-popup-overlay')?.getAttribute('data-overlay-state'))).toBe('waiting');
      await tab.waitForLoadState('networkidle');
      await tab.clock.runFor(4000);
      await tab.locator('.sf-popup-overlay-content').waitFor({ state: 'visible' });
      expect(await popUpPlace(tab, '.sf-popup-overlay-content'), `${label} popup overlay in the window`).toEqual(IN_WINDOW);
      expect(await inSightInPanel(tab, '.sf-popup-overlay-content', { close: '.sf-popup-overlay-close' }), `${label}: the overlay's x`).toMatchObject({ close: true });
      // axe waits on timers: the clock runs again.
      await tab.clock.resume();
      expect(await axeViolations(tab), `${label} popup overlay: axe`).toEqual([]);
      await viewportShot(tab, `journey-3-${label}-overlay`);
    }
    await tab.close();
  });
});
