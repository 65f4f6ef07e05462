// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { createPage, type Page } from '../test-support/page.ts';
import { cartWith } from '../test-support/products.ts';
import { PILL_CART_HTML } from '../test-support/renderer-markup.ts';

let page: Page;
beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  page?.cleanup();
  vi.useRealTimers();
});

const wrapper = () => document.querySelector<HTMLElement>('.sf-pill-cart-wrapper')!;
const link = () => document.querySelector('.sf-pill-cart')!;
const count = () => document.querySelector('.sf-pill-count')!.textContent;
const subtotal = () => document.querySelector('.sf-pill-subtotal')!.textContent;

async function withCart(totalQuantity: number, subtotalCents: number, currency = 'USD') {
  page = createPage({ body: PILL_CART_HTML, cookies: { hasCart: 'true' }, context: { store: { selectedCurrency: currency } } });
  page.fetch.on('GET', '/api/commerce/shopping-cart', { json: cartWith(totalQuantity, subtotalCents) });
  await page.boot();
  await page.advance(0);
}

describe('A2 pill cart', () => {
  test('PILL-1 no cart cookies: hidden, labelled Cart, hydrated cleanly', async () => {
    page = createPage({ body: PILL_CART_HTML });
    await page.boot();
    expect(page.recoverableErrors).toEqual([]);
    expect(wrapper().hasAttribute('hidden')).toBe(true);
    expect(link().getAttribute('aria-label')).toBe('Cart');
    expect(wrapper().getAttribute('data-hydrated')).toBe('true');
  });

  test('PILL-2 an empty loaded cart stays hidden', async () => {
    await withCart(0, 0);
    expect(wrapper().hasAttribute('hidden')).toBe(true);
    expect(wrapper().getAttribute('data-state')).toBe('hidden');
  });

  test('PILL-3 three items', async () => {
    await withCart(3, 4500);
    expect(wrapper().hasAttribute('hidden')).toBe(false);
    expect(wrapper().getAttribute('data-state')).toBe('visible');
    expect(wrapper().classList.contains('sf-fade-in')).toBe(true);
    expect(count()).toBe('3');
    expect(subtotal()).toBe('$45.00');
    expect(link().getAttribute('aria-label')).toBe('3 items in cart');
  });

  test('PILL-4 one item', async () => {
    await withCart(1, 100);
    expect(link().getAttribute('aria-label')).toBe('One item in cart');
    expect(count()).toBe('1');
  });

  test('PILL-5 exactly 100', async () => {
    await withCart(100, 100);
    expect(count()).toBe('100');
    expect(link().getAttribute('aria-label')).toBe('100 items in cart');
  });

  test('PILL-6 above 100', async () => {
    await withCart(101, 100);
    expect(count()).toBe('100+');
    expect(link().getAttribute('aria-label')).toBe('More than 100 items in cart');
  });

  test('PILL-7 a cart update shows the pill without a request', async () => {
    page = createPage({ body: PILL_CART_HTML });
    await page.boot();
    const before = page.fetch.calls.length;
    await page.act(() => window.dispatchEvent(new CustomEvent('sf:cart-updated', { detail: cartWith(2, 300) })));
    expect(wrapper().hasAttribute('hidden')).toBe(false);
    expect(count()).toBe('2');
    expect(page.fetch.calls.length).toBe(before);
  });

  test('PILL-8 JPY and DKK subtotals', async () => {
    await withCart(1, 123456, 'JPY');
    expect(subtotal()).toBe('¥123,456');
    page.cleanup();
    await withCart(1, 10000, 'DKK');
    expect(subtotal()).toBe('100.00 kr');
  });

  test.each([
    { name: 'page type 200', context: { pageType: 200 } },
    { name: 'page type 205', context: { pageType: 205 } },
    { name: 'page type 201', context: { pageType: 201 } },
    { name: 'custom cart', context: { store: { customCart: true } } },
    { name: 'express checkout', context: { store: { expressCheckout: true } } },
  ])('PILL-9 (island side) $name: the island leaves the markup alone', async ({ context }) => {
    page = createPage({ body: PILL_CART_HTML, cookies: { hasCart: 'true' }, context });
    page.fetch.on('GET', '/api/commerce/shopping-cart', { json: cartWith(3, 300) });
    await page.boot();
    await page.advance(0);
    expect(wrapper().hasAttribute('data-hydrated')).toBe(false);
    expect(wrapper().hasAttribute('hidden')).toBe(true);
  });

  test('PILL-10 the link goes to /cart', async () => {
    await withCart(2, 200);
    expect(link().getAttribute('href')).toBe('/cart');
  });

  test('PILL-11 back to zero hides the pill', async () => {
    await withCart(2, 200);
    await page.act(() => window.dispatchEvent(new CustomEvent('sf:cart-updated', { detail: cartWith(0, 0) })));
    expect(wrapper().hasAttribute('hidden')).toBe(true);
    expect(wrapper().getAttribute('data-state')).toBe('hidden');
    expect(link().getAttribute('aria-label')).toBe('Cart');
  });
});
