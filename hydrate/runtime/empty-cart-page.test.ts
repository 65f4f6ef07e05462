// @vitest-environment happy-dom
// A cart page first loaded empty (no cart-page island) and an entry added in another tab: the
// page is loaded again when the visitor comes back to the tab, and only then.
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { createPage, type Page } from '../test-support/page.ts';

let page: Page;
beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  page?.cleanup();
  vi.useRealTimers();
});

const EMPTY_CART_PAGE = `<section class="sf-cart-page" data-cart-id="cart-1"><h1>Your cart</h1>
<p class="sf-cart-empty">You have nothing in your shopping cart.</p>
<p><a href="/shop">Continue Shopping</a></p></section>`;

const TEE = { id: 'e1', itemId: 'tee', quantity: 1, productType: 1, chosenVariant: { sku: 'TEE-S' }, purchasePriceCents: 2500, subTotal: 2500 };
const cartOf = (entries: unknown[]) => ({ id: 'cart-1', entries, subtotalCents: 0, grandTotalCents: 0, totalQuantity: entries.length });

let serverEntries: unknown[] = [];
async function open(options: { pageType?: number; body?: string; cookies?: Record<string, string> } = {}) {
  page = createPage({
    body: options.body ?? EMPTY_CART_PAGE,
    context: { pageType: options.pageType ?? 200, store: { selectedCurrency: 'USD' } },
    cookies: options.cookies ?? { CART: 'cart-1', crumb: 'c' },
  });
  page.fetch.on('GET', '/api/commerce/shopping-cart', () => ({ json: cartOf(serverEntries) }));
  await page.boot();
  await page.advance(0);
}

const cartLoads = () => page.fetch.callsTo('/api/commerce/shopping-cart?', 'GET').length;
function setVisibility(state: 'visible' | 'hidden'): Promise<void> {
  Object.defineProperty(document, 'visibilityState', { value: state, configurable: true });
  return page.act(() => void document.dispatchEvent(new Event('visibilitychange')));
}

describe('an empty cart page and other tabs', () => {
  beforeEach(() => {
    serverEntries = [];
  });

  test('the tab hidden, an entry added elsewhere, the tab visible again: the cart is read and the page loaded again', async () => {
    await open();
    expect(cartLoads()).toBe(1);
    await setVisibility('hidden');
    serverEntries = [TEE];
    await setVisibility('visible');
    await page.advance(0);
    expect(cartLoads()).toBe(2);
    expect(page.reload).toHaveBeenCalledTimes(1);
    // Once asked to load again, the page follows nothing more.
    await setVisibility('hidden');
    await setVisibility('visible');
    await page.advance(0);
    expect(page.reload).toHaveBeenCalledTimes(1);
  });

  test('the window losing focus and getting it back does the same', async () => {
    await open();
    await page.act(() => void window.dispatchEvent(new FocusEvent('blur')));
    serverEntries = [TEE];
    await page.act(() => void window.dispatchEvent(new FocusEvent('focus')));
    await page.advance(0);
    expect(page.reload).toHaveBeenCalledTimes(1);
  });

  test('back on the tab with the cart still empty: the cart is read, the page stays', async () => {
    await open();
    await setVisibility('hidden');
    await setVisibility('visible');
    await page.advance(0);
    expect(cartLoads()).toBe(2);
    expect(page.reload).not.toHaveBeenCalled();
  });

  test('entries in the boot\'s own read, or a focus without having been away, never reload (no loop if the page and the API disagree)', async () => {
    serverEntries = [TEE];
    await open();
    expect(cartLoads()).toBe(1);
    await page.act(() => void window.dispatchEvent(new FocusEvent('focus')));
    await page.advance(0);
    expect(cartLoads()).toBe(1);
    expect(page.reload).not.toHaveBeenCalled();
  });

  test('no cart cookie even after coming back: nothing is asked', async () => {
    await open({ cookies: { crumb: 'c' } });
    await setVisibility('hidden');
    await setVisibility('visible');
    await page.advance(0);
    expect(cartLoads()).toBe(0);
    expect(page.reload).not.toHaveBeenCalled();
  });

  test('another page type, or a cart page with its island (which follows other tabs itself), is left alone', async () => {
    for (const setup of [{ pageType: 2 }, { body: EMPTY_CART_PAGE.replace('<h1>', '<div class="sf-cart-contents" data-island="cart-page"></div><h1>') }]) {
      serverEntries = [];
      await open(setup);
      await setVisibility('hidden');
      serverEntries = [TEE];
      await setVisibility('visible');
      await page.advance(0);
      expect(page.reload).not.toHaveBeenCalled();
      page.cleanup();
    }
  });
});
