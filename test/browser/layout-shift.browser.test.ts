// Cumulative layout shift (CLS) of the pages whose islands replace server markup: the checkout
// page (a cart's and a gift card's), the cart page and a product page, with a tee in the cart,
// at 1280x800 and 390x844. Each must stay below 0.1, the seed's (and Google's) "good" bound.
// CLS is a layout measure (how much of the window moved, how far), not a timing: the page's
// own 'layout-shift' entries, buffered from the navigation on, summed without those after
// input, read once the page has settled (islands hydrated, the checkout's view shown).
import type { Page } from 'playwright-core';
import { describe, expect, inject, test } from 'vitest';
import { VIEWPORTS, viewportShot, type ViewportName } from './support/chromium.ts';
import { useBrowserTier } from './support/tier.ts';
import { addTeeToCart, visit, waitForBoot } from './support/visit.ts';

const chromiumPath = inject('chromiumPath');

interface Shift {
  value: number;
  sources: string[];
}

/**
 * The page's layout shifts so far (those after input left out), each with the elements it
 * moved (rectangles before → after), read after two frames so the last render's shift is in.
 */
function layoutShifts(page: Page): Promise<Shift[]> {
  // A string, not a function: the page runs it as written, with nothing the test's compiler added.
  return page.evaluate(`new Promise((resolve) => {
    const seen = [];
    const name = (node) => node instanceof Element ? node.tagName.toLowerCase() + (typeof node.className === 'string' && node.className.trim() ? '.' + node.className.trim().split(/\\s+/).join('.') : '') : 'gone';
    const rect = (r) => Math.round(r.x) + ',' + Math.round(r.y) + ' ' + Math.round(r.width) + 'x' + Math.round(r.height);
    requestAnimationFrame(() => requestAnimationFrame(() => {
      // observe() with buffered puts the entries so far in the observer's own list at once, and
      // takeRecords() hands them over: no callback to wait for, nor a page that never shifted.
      const observer = new PerformanceObserver(() => undefined);
      observer.observe({ type: 'layout-shift', buffered: true });
      for (const entry of observer.takeRecords()) {
        if (!entry.hadRecentInput) seen.push({ value: entry.value, sources: entry.sources.map((s) => name(s.node) + ' ' + rect(s.previousRect) + ' -> ' + rect(s.currentRect)) });
      }
      observer.disconnect();
      resolve(seen);
    }));
  })`);
}

const total = (shifts: Shift[]) => shifts.reduce((sum, s) => sum + s.value, 0);

describe.skipIf(!chromiumPath)(`layout shift in Chromium${chromiumPath ? '' : ` (skipped: ${inject('browserSkipReason')})`}`, () => {
  const tier = useBrowserTier(chromiumPath!);

  /** A tee in the visitor's cart, added on its product page; the cart's id. */
  async function cartWithTee(page: Page): Promise<string> {
    await addTeeToCart(page, 'S');
    return (await page.context().cookies()).find((c) => c.name === 'CART')!.value;
  }

  /** Opens `path` (a new document, so its own shifts alone) and returns its shifts once it has settled. */
  async function shiftsOf(page: Page, viewport: ViewportName, path: string, ready: (page: Page) => Promise<void>): Promise<Shift[]> {
    await page.setViewportSize(VIEWPORTS[viewport]);
    await page.goto(path, { waitUntil: 'load' });
    await waitForBoot(page);
    await ready(page);
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    const shifts = await layoutShifts(page);
    await viewportShot(page, `cls-${path.split('?')[0]!.replace(/\W+/g, '-').replace(/^-|-$/g, '')}-${viewport}`);
    return shifts;
  }

  const checkoutReady = async (page: Page) => {
    await page.locator('[data-island="checkout"][data-checkout-state="ready"]').waitFor();
    // The first option's quote, when there is one, has answered.
    await page.locator('.sf-checkout-totals[aria-busy="false"]').waitFor();
  };
  const nothing = async () => undefined;

  for (const viewport of ['desktop', 'phone'] as const) {
    test(`checkout, cart and product pages on a ${viewport}: CLS below 0.1`, async () => {
      const v = await tier.newVisitor();
      const cartId = await cartWithTee(v.page);
      const pages: Array<[string, (page: Page) => Promise<void>]> = [
        [`/checkout?cartToken=${encodeURIComponent(cartId)}`, checkoutReady],
        // No address and no shipping: the island draws fewer sections, and the server as many.
        ['/checkout/gift-card?itemId=gift-card&sku=GC-50', checkoutReady],
        ['/cart', nothing],
        ['/shop/tee', nothing],
      ];
      const report: Record<string, { cls: number; shifts: Shift[] }> = {};
      for (const [path, ready] of pages) {
        const shifts = await shiftsOf(v.page, viewport, path, ready);
        report[path] = { cls: total(shifts), shifts };
      }
      for (const [path, { cls, shifts }] of Object.entries(report)) expect(cls, `${path}: ${JSON.stringify(shifts)}`).toBeLessThan(0.1);
    });
  }
});
