// The pill's cart drawer (hydrate/islands/cart-drawer.tsx) in Debian's Chromium against the real
// server on the demo site, its minimum order subtotal set to $50 (one $25 tee is below it): opened
// by mouse and by keys, a quantity changed and lines removed down to the empty cart, the
// catalogue's failure texts with the API cut off (route interception), focus back on the pill,
// and the dialog over the window at 1280x800, 390x844 and 640x400 (200% zoom).
import type { Page } from 'playwright-core';
import { describe, expect, inject, test } from 'vitest';
import { viewportShot } from './support/chromium.ts';
import { axeViolations } from './support/axe.ts';
import { useBrowserTier } from './support/tier.ts';
import { addTeeToCart, settle } from './support/visit.ts';

const chromiumPath = inject('chromiumPath');
const ENTRIES = '/api/commerce/shopping-cart/entries/';

/** The drawer open, its lines (or its message) in, its slide-in over. */
async function drawerShown(page: Page): Promise<void> {
  await page.locator('.sf-cart-drawer .sf-cart-drawer-body:not([aria-busy])').waitFor();
  await page.locator('.sf-cart-drawer-panel').evaluate((el) => Promise.all(el.getAnimations().map((a) => a.finished)));
}

/** Where the drawer's parts are, against the window. */
const drawerLayout = (page: Page) =>
  page.evaluate(() => {
    const box = (el: Element | null) => {
      if (!el) return null;
      const r = el.getBoundingClientRect();
      return { left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height };
    };
    const onTop = (selector: string) => {
      const el = document.querySelector(selector);
      const r = el?.getBoundingClientRect();
      const hit = r ? document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) : null;
      return !!el && !!hit && el.contains(hit);
    };
    const body = document.querySelector('.sf-cart-drawer-body')!;
    return {
      window: { width: innerWidth, height: innerHeight },
      root: box(document.querySelector('.sf-cart-drawer')),
      panel: box(document.querySelector('.sf-cart-drawer-panel')),
      closeOnTop: onTop('.sf-cart-drawer-close'),
      viewCartOnTop: onTop('.sf-cart-drawer-view'),
      sideways: body.scrollWidth - body.clientWidth,
      pageOverflow: getComputedStyle(document.documentElement).overflow,
    };
  });

/** Controls in the drawer smaller than 24 x 24 px (WCAG 2.5.8), inline links in a sentence aside. */
const smallTargets = (page: Page) =>
  page.evaluate(() => {
    const small: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>('.sf-cart-drawer :is(a[href], button, input, select, textarea)')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      if (r.width < 24 || r.height < 24) small.push(`${el.tagName.toLowerCase()} "${(el.getAttribute('aria-label') || el.textContent || '').trim()}" ${Math.round(r.width)}x${Math.round(r.height)}`);
    }
    return small;
  });

const focusedIn = (page: Page, selector: string) => page.evaluate((s) => !!document.activeElement?.closest(s), selector);
const focusedName = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return (el?.getAttribute('aria-label') || el?.textContent || el?.tagName || '').trim();
  });

describe.skipIf(!chromiumPath)(`cart drawer in Chromium${chromiumPath ? '' : ` (skipped: ${inject('browserSkipReason')})`}`, () => {
  const tier = useBrowserTier(chromiumPath!, {
    seed: (catalog) => {
      const commerce = (catalog.site.settings as { commerce: Record<string, unknown> }).commerce;
      commerce.minimumOrderSubtotalCents = 5000;
      return catalog;
    },
  });

  test('DRAWER-1 by mouse at 1280x800: the pill opens a labelled modal over the page; a quantity changed (B26), lines removed (B27) down to the empty cart, focus kept inside, then given to the header cart link', async () => {
    const v = await tier.newVisitor();
    const { page } = v;
    await page.setViewportSize({ width: 1280, height: 800 });
    await addTeeToCart(page, 'S');
    await addTeeToCart(page, 'M');
    const pill = page.locator('.sf-pill-cart');
    await expect.poll(() => page.locator('.sf-pill-count').textContent()).toBe('2');
    const cartId = (await v.context.cookies()).find((c) => c.name === 'CART')!.value;

    await pill.click();
    const dialog = page.getByRole('dialog', { name: 'Cart' });
    await dialog.waitFor();
    expect(await dialog.getAttribute('aria-modal')).toBe('true');
    await drawerShown(page);
    expect(await focusedName(page)).toBe('Close');
    expect(new URL(page.url()).pathname).toBe('/shop/tee');
    const lines = page.locator('.sf-cart-drawer [data-entry-id]');
    expect(await lines.count()).toBe(2);
    // A $25 tee and a $20 one (M on sale): below the $50 minimum, so no Checkout.
    const minimum = page.locator('.sf-cart-drawer .sf-cart-minimum');
    const checkout = page.locator('.sf-cart-drawer').getByRole('link', { name: 'Checkout' });
    expect(await page.locator('.sf-cart-drawer .sf-cart-subtotal').textContent()).toContain('$45.00');
    expect(await minimum.textContent()).toBe('To check out, your order subtotal must be $50.00 or more.');
    expect(await checkout.count()).toBe(0);
    expect(await page.locator('.sf-cart-drawer').getByRole('link', { name: 'View cart' }).getAttribute('href')).toBe('/cart');
    expect(await axeViolations(page)).toEqual([]);
    await viewportShot(page, 'cart-drawer-1-open');

    // The first line to 3: its total, the subtotal and the pill follow, the server stores it,
    // and the cart is over the minimum: Checkout appears.
    const quantity = lines.first().getByRole('spinbutton');
    await quantity.fill('3');
    const [put] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'PUT' && new URL(r.url()).pathname.startsWith(ENTRIES)), quantity.press('Enter')]);
    expect(put.status()).toBe(200);
    expect(put.request().postDataJSON()).toEqual({ quantity: 3 });
    await expect.poll(() => lines.first().locator('.sf-entry-total').textContent()).toBe('$75.00');
    expect(await page.locator('.sf-cart-drawer .sf-cart-subtotal').textContent()).toContain('$95.00');
    await expect.poll(() => page.locator('.sf-pill-count').textContent()).toBe('4');
    expect((await tier.server.store.read.getCart(cartId))!.entries.map((e) => e.quantity).sort()).toEqual([1, 3]);
    expect(await minimum.count()).toBe(0);
    expect(await checkout.getAttribute('href')).toBe(`/checkout?cartToken=${cartId}`);
    await viewportShot(page, 'cart-drawer-2-checkout');

    // The three tees removed: the $20 one left, below the minimum again.
    await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'DELETE' && new URL(r.url()).pathname.startsWith(ENTRIES)),
      lines.first().getByRole('button', { name: /^Remove/ }).click(),
    ]);
    await expect.poll(() => lines.count()).toBe(1);
    await expect.poll(() => minimum.textContent()).toBe('To check out, your order subtotal must be $50.00 or more.');
    expect(await checkout.count()).toBe(0);
    await expect.poll(() => page.locator('.sf-pill-count').textContent()).toBe('1');
    // Focus moved on to the remaining line's remove button, inside the dialog.
    expect(await focusedIn(page, '.sf-cart-drawer')).toBe(true);

    await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'DELETE' && new URL(r.url()).pathname.startsWith(ENTRIES)),
      lines.first().getByRole('button', { name: /^Remove/ }).click(),
    ]);
    const empty = page.locator('.sf-cart-drawer .sf-cart-empty');
    await empty.waitFor();
    expect(await empty.textContent()).toBe('You have nothing in your shopping cart.');
    await expect.poll(() => focusedIn(page, '.sf-cart-drawer .sf-cart-empty')).toBe(true);
    expect((await tier.server.store.read.getCart(cartId))!.entries).toEqual([]);
    await expect.poll(() => page.locator('.sf-pill-cart-wrapper').getAttribute('data-state')).toBe('hidden');
    expect(await axeViolations(page)).toEqual([]);
    await viewportShot(page, 'cart-drawer-3-empty');

    // Closed by its x: the pill is gone with the cart, so focus goes to the header's cart link.
    await page.locator('.sf-cart-drawer-close').click();
    await dialog.waitFor({ state: 'detached' });
    expect(await focusedIn(page, 'header .sf-cart-link')).toBe(true);
    expect((await drawerLayoutOrNull(page)).pageOverflow).not.toBe('hidden');
  });

  test('DRAWER-2 by keys: Enter on the pill opens it with focus inside, Tab and Shift+Tab stay in it, Escape and the dimmed page close it and focus returns to the pill; Ctrl+click still opens /cart in a new tab', async () => {
    const v = await tier.newVisitor();
    const { page } = v;
    await page.setViewportSize({ width: 1280, height: 800 });
    await addTeeToCart(page, 'S');
    const pill = page.locator('.sf-pill-cart');
    await expect.poll(() => page.locator('.sf-pill-cart-wrapper').getAttribute('data-state')).toBe('visible');
    expect(await pill.getAttribute('aria-haspopup')).toBe('dialog');

    await pill.focus();
    await page.keyboard.press('Enter');
    await drawerShown(page);
    expect(await focusedName(page)).toBe('Close');
    const seen: string[] = [];
    for (let i = 0; i < 10; i++) {
      await page.keyboard.press('Tab');
      expect(await focusedIn(page, '.sf-cart-drawer-panel'), `Tab ${i + 1} after ${seen.join(' | ')}`).toBe(true);
      seen.push(await focusedName(page));
    }
    // Close, the product, its quantity and remove, View cart (one tee is below the minimum: no Checkout), then round again.
    expect(seen.slice(0, 5)).toEqual(['Classic Tee', 'Quantity of Classic Tee', 'Remove Classic Tee', 'View cart', 'Close']);
    await page.keyboard.press('Shift+Tab');
    expect(await focusedName(page)).toBe('View cart');
    await page.keyboard.press('Escape');
    await page.locator('.sf-cart-drawer').waitFor({ state: 'detached' });
    expect(await focusedIn(page, '.sf-pill-cart')).toBe(true);

    // The dimmed page beside the panel closes it too.
    await page.keyboard.press('Enter');
    await drawerShown(page);
    await page.mouse.click(100, 400);
    await page.locator('.sf-cart-drawer').waitFor({ state: 'detached' });
    expect(await focusedIn(page, '.sf-pill-cart')).toBe(true);

    // A click with Ctrl keeps the link's meaning: /cart in a new tab, no drawer here.
    const [tab] = await Promise.all([v.context.waitForEvent('page'), pill.click({ modifiers: ['Control'] })]);
    await tab.waitForURL(/\/cart$/);
    expect(await page.locator('.sf-cart-drawer').count()).toBe(0);
    await tab.close();
  });

  test('DRAWER-3 failures say the catalogue texts: a quantity and a removal with the API cut off or refusing, the cart unread offline', async () => {
    const v = await tier.newVisitor();
    const { page } = v;
    // Requests the test cuts off or refuses are logged by Chromium.
    v.allowConsoleError(/Failed to load resource/);
    await page.setViewportSize({ width: 1280, height: 800 });
    await addTeeToCart(page, 'S');
    await expect.poll(() => page.locator('.sf-pill-cart-wrapper').getAttribute('data-state')).toBe('visible');
    await page.locator('.sf-pill-cart').click();
    await drawerShown(page);
    const line = page.locator('.sf-cart-drawer [data-entry-id]');
    const alert = page.getByRole('alertdialog');

    await page.route(`**${ENTRIES}*`, (route) => (route.request().method() === 'PUT' ? route.abort('internetdisconnected') : route.fallback()));
    const quantity = line.getByRole('spinbutton');
    await quantity.fill('2');
    await quantity.press('Enter');
    await alert.waitFor();
    expect(await alert.locator('.sf-alert-title').textContent()).toBe('Unable to update quantity');
    expect(await alert.locator('.sf-alert-message').textContent()).toBe('Please check your internet connection.');
    await expect.poll(() => quantity.inputValue()).toBe('1');
    await viewportShot(page, 'cart-drawer-4-quantity-failed');
    await page.keyboard.press('Enter');
    await alert.waitFor({ state: 'detached' });
    // The alert closed over the drawer: the drawer stays, focus back inside it.
    expect(await page.locator('.sf-cart-drawer').count()).toBe(1);
    expect(await focusedIn(page, '.sf-cart-drawer')).toBe(true);

    await page.route(`**${ENTRIES}*`, (route) =>
      route.request().method() === 'DELETE' ? route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ error: 'The cart cannot be changed just now.' }) }) : route.fallback(),
    );
    await line.getByRole('button', { name: 'Remove Classic Tee' }).click();
    await alert.waitFor();
    expect(await alert.locator('.sf-alert-title').textContent()).toBe('Unable to remove item');
    expect(await alert.locator('.sf-alert-message').textContent()).toBe('The cart cannot be changed just now.');
    await alert.getByRole('button', { name: 'OK' }).click();
    expect(await line.count()).toBe(1);
    await page.keyboard.press('Escape');
    await page.locator('.sf-cart-drawer').waitFor({ state: 'detached' });

    // The cart itself cannot be read: the drawer says so, and View cart still leads on.
    await page.route('**/cart', (route) => route.abort('internetdisconnected'));
    await page.locator('.sf-pill-cart').click();
    await drawerShown(page);
    const error = page.locator('.sf-cart-drawer').getByRole('alert');
    expect(await error.textContent()).toBe('Please check your internet connection.');
    expect(await page.locator('.sf-cart-drawer-view').getAttribute('href')).toBe('/cart');
    expect(await axeViolations(page)).toEqual([]);
    await viewportShot(page, 'cart-drawer-5-offline');
    await page.keyboard.press('Escape');
    expect(await focusedIn(page, '.sf-pill-cart')).toBe(true);
  });

  for (const [name, size] of [
    ['desktop', { width: 1280, height: 800 }],
    ['phone', { width: 390, height: 844 }],
    ['zoom', { width: 640, height: 400 }],
  ] as const) {
    test(`DRAWER-4 ${name} ${size.width}x${size.height}: over the window at its end edge (not after the footer), the page held still, its close and View cart in sight, nothing sideways, targets of 24 px, axe clean`, async () => {
      const v = await tier.newVisitor();
      const { page } = v;
      await page.setViewportSize(size);
      await addTeeToCart(page, 'S');
      await addTeeToCart(page, 'M');
      await expect.poll(() => page.locator('.sf-pill-cart-wrapper').getAttribute('data-state')).toBe('visible');
      // From the page's foot, where a drawer laid out in the flow would have been.
      await page.evaluate(() => scrollTo(0, document.documentElement.scrollHeight));
      await settle(page);
      const scrolled = await page.evaluate(() => scrollY);
      expect(scrolled).toBeGreaterThan(0);
      await page.locator('.sf-pill-cart').click();
      await drawerShown(page);

      const layout = await drawerLayoutOrNull(page);
      expect(layout.root).toEqual({ left: 0, top: 0, right: size.width, bottom: size.height, width: size.width, height: size.height });
      const panel = layout.panel!;
      expect([panel.top, panel.bottom, panel.right]).toEqual([0, size.height, size.width]);
      if (size.width <= 432) expect(panel.width).toBe(size.width);
      else expect(panel.width).toBeLessThan(size.width);
      expect(layout.closeOnTop).toBe(true);
      expect(layout.viewCartOnTop).toBe(true);
      expect(layout.sideways).toBeLessThanOrEqual(0);
      expect(layout.pageOverflow).toBe('hidden');
      expect(await smallTargets(page)).toEqual([]);
      // The page behind does not move under the wheel.
      await page.mouse.move(size.width / 2, size.height / 2);
      await page.mouse.wheel(0, -600);
      await settle(page);
      expect(await page.evaluate(() => scrollY)).toBe(scrolled);
      // Every line's controls and the totals are reachable: the lines scroll inside the panel.
      const last = page.locator('.sf-cart-drawer .sf-cart-minimum, .sf-cart-drawer .sf-checkout-button').last();
      await last.scrollIntoViewIfNeeded();
      const reach = await last.evaluate((el) => {
        const r = el.getBoundingClientRect();
        const body = el.closest('.sf-cart-drawer-body')!.getBoundingClientRect();
        return r.top >= body.top - 1 && r.bottom <= body.bottom + 1;
      });
      expect(reach).toBe(true);
      expect(await page.evaluate(() => scrollY)).toBe(scrolled);
      expect(await axeViolations(page)).toEqual([]);
      await viewportShot(page, `cart-drawer-6-${name}`);
    });
  }
});

/** The layout, also when the drawer has closed (then only the page's overflow means anything). */
async function drawerLayoutOrNull(page: Page) {
  if ((await page.locator('.sf-cart-drawer').count()) === 0) {
    return { root: null, panel: null, closeOnTop: false, viewCartOnTop: false, sideways: 0, pageOverflow: await page.evaluate(() => getComputedStyle(document.documentElement).overflow) };
  }
  return drawerLayout(page);
}
