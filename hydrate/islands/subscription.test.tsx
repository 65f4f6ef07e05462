// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { alertText, choose, click, createPage, type Page } from '../test-support/page.ts';
import { contextProducts, productPage, teeProduct } from '../test-support/products.ts';

let page: Page;
beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  page?.cleanup();
  vi.useRealTimers();
});

const subscribable = (extra: Record<string, unknown> = {}) =>
  teeProduct({ isSubscribable: true, subscriptionPlan: { billingPeriod: { value: 1, unit: 'MONTH' }, numBillingCycles: 0 }, ...extra });

async function open(item = subscribable()) {
  page = createPage({ body: productPage(item), context: { products: contextProducts(item) } });
  await page.boot();
}
const button = () => document.querySelector<HTMLElement>('.sqs-add-to-cart-button')!;
const label = () => document.querySelector('.sqs-add-to-cart-button-inner')!.textContent;
const subPosts = () => page.fetch.callsTo('/api/3/commerce/cart/subscription', 'POST');
async function selectValid() {
  await page.act(() => {
    choose(document.querySelector('select[data-variant-option-name="Size"]')!, 'M');
    choose(document.querySelector('select[data-variant-option-name="Color"]')!, 'Red');
  });
}

describe('A9 subscription purchase', () => {
  test('SUB-1 the idle label is Subscribe', async () => {
    await open();
    expect(page.recoverableErrors).toEqual([]);
    expect(label()).toBe('Subscribe');
  });

  test('SUB-2 and SUB-3 one subscription POST, then checkout', async () => {
    await open();
    page.fetch.on('POST', '/api/3/commerce/cart/subscription', { json: { cartToken: 'abc' } });
    await selectValid();
    await page.act(() => click(button()));
    await page.advance(0);
    expect(subPosts()).toHaveLength(1);
    expect(subPosts()[0]!.body).toBe('{"itemId":"p1","sku":"SQ-1","qty":1,"additionalFields":null}');
    expect(page.fetch.callsTo('/api/commerce/shopping-cart/entries')).toHaveLength(0);
    expect(page.navigate).toHaveBeenCalledWith('/checkout/subscription?cartToken=abc');
    expect(label()).not.toBe('Added!');
  });

  test('SUB-4 a failure alerts and restores Subscribe 1000 ms later', async () => {
    await open();
    page.fetch.on('POST', '/api/3/commerce/cart/subscription', { status: 400, json: { error: 'This item is not available as a subscription.' } });
    await selectValid();
    await page.act(() => click(button()));
    await page.advance(0);
    expect(alertText()).toEqual({ title: 'Unable to Purchase Item', message: 'This item is not available as a subscription.' });
    await page.advance(999);
    expect(label()).toBe('Adding…');
    await page.advance(1);
    expect(label()).toBe('Subscribe');
  });

  test('SUB-5 unselected options use the A1 messages', async () => {
    await open();
    await page.act(() => click(button()));
    expect(alertText()).toEqual({ title: 'Unable to Add Item', message: 'Please select the Size and Color options.' });
    expect(subPosts()).toHaveLength(0);
  });

  test('SUB-7 (island side) no quantity input for subscribable products', async () => {
    await open();
    expect(document.querySelector('.product-quantity-input')).toBeNull();
  });

  test('SUB-8 a second click while Adding… sends nothing', async () => {
    await open();
    page.fetch.on('POST', '/api/3/commerce/cart/subscription', { json: { cartToken: 'abc' }, delayMs: 500 });
    await selectValid();
    await page.act(() => click(button()));
    expect(label()).toBe('Adding…');
    await page.act(() => click(button()));
    await page.advance(500);
    expect(subPosts()).toHaveLength(1);
  });
});

describe('subscription price text (#18, templates seed §3, §4, §8)', () => {
  const price = () => document.querySelector('.product-price')!.textContent;

  test('a selected variant of a subscribable product shows its price with the billing period', async () => {
    await open(subscribable({ subscriptionPlan: { billingPeriod: { value: 2, unit: 'WEEK' }, numBillingCycles: 26 } }));
    await selectValid();
    expect(price()).toBe('25.00 every 2 weeks for 1 year');
    expect(page.recoverableErrors).toEqual([]);
  });

  test('an indefinite monthly plan reads "every month"', async () => {
    await open();
    await selectValid();
    expect(price()).toBe('25.00 every month');
  });

  test('a plan whose period cannot be billed shows Unavailable instead of a price', async () => {
    await open(subscribable({ subscriptionPlan: { billingPeriod: { value: 1, unit: 'DAY' }, numBillingCycles: 0 } }));
    await selectValid();
    expect(price()).toBe('Unavailable');
  });

  test('a one-off product keeps the bare price', async () => {
    await open(teeProduct());
    await selectValid();
    expect(price()).toBe('25.00');
  });
});
