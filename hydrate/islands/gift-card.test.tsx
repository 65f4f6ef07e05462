// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { alertText, choose, click, createPage, type Page } from '../test-support/page.ts';
import { contextProducts, money, product, productPage, variant } from '../test-support/products.ts';

let page: Page;
beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  page?.cleanup();
  vi.useRealTimers();
});

const giftCard = (variants = [variant('GC-25', { Amount: '$25.00' }, { priceMoney: money('25.00') }), variant('GC-50', { Amount: '$50.00' }, { priceMoney: money('50.00') })]) =>
  product({ id: 'gc', productType: 4, options: ['Amount'], variants });

async function open(item = giftCard()) {
  page = createPage({ body: productPage(item), context: { products: contextProducts(item) } });
  await page.boot();
}
const button = () => document.querySelector<HTMLElement>('.sqs-add-to-cart-button')!;
const label = () => document.querySelector('.sqs-add-to-cart-button-inner')!.textContent;

describe('A8 gift-card purchase', () => {
  test('GC-1 no denomination chosen', async () => {
    await open();
    const before = page.fetch.calls.length;
    await page.act(() => click(button()));
    expect(alertText()).toEqual({ title: 'Unable to purchase Gift Card', message: 'Select a denomination for the Gift Card' });
    expect(page.navigate).not.toHaveBeenCalled();
    expect(page.fetch.calls.length).toBe(before);
  });

  test('GC-2 a chosen denomination goes to the gift-card checkout, label unchanged', async () => {
    await open();
    await page.act(() => choose(document.querySelector('select')!, '$50.00'));
    await page.act(() => click(button()));
    expect(page.navigate).toHaveBeenCalledWith('/checkout/gift-card?itemId=gc&sku=GC-50');
    expect(label()).toBe('Add To Cart');
  });

  test('GC-2 a single denomination goes straight there', async () => {
    await open(giftCard([variant('GC-10', {})]));
    await page.act(() => click(button()));
    expect(page.navigate).toHaveBeenCalledWith('/checkout/gift-card?itemId=gc&sku=GC-10');
  });

  test('GC-3 (island side) gift cards get no quantity input', async () => {
    await open();
    expect(document.querySelector('.product-quantity-input')).toBeNull();
  });

  test('GC-4 no cart entry POST is ever made', async () => {
    await open();
    await page.act(() => click(button()));
    await page.act(() => choose(document.querySelector('select')!, '$25.00'));
    await page.act(() => click(button()));
    expect(page.fetch.callsTo('/api/commerce/shopping-cart/entries')).toHaveLength(0);
  });

  test('GC-6 a radio choice works like the dropdown', async () => {
    await open();
    await page.act(() => document.querySelector<HTMLInputElement>('input.variant-radiobtn[value="$50.00"]')!.click());
    await page.act(() => click(button()));
    expect(page.navigate).toHaveBeenCalledWith('/checkout/gift-card?itemId=gc&sku=GC-50');
  });
});
