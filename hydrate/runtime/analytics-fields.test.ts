// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { createPage, type Page } from '../test-support/page.ts';
import { ANALYTICS_FIELD_NAMES, cartFields, itemFields, productTypeName, visitorFields } from './analytics-fields.ts';
import { normalizePageContext } from './page-context.ts';

// Which of the seed's analytics fields (seed 001 §3) each event carries, event by event.

const VISITOR = ['website_id', 'page_id', 'logged_in'];
const CART = ['cart_id', 'currency_code', 'num_items_in_cart', 'cart_value', 'product_types_list', 'purchase_type_list'];
const ITEM = ['item_id', 'item_type', 'item_title', 'item_price', 'item_quantity'];
const seedFields = (data: Record<string, unknown>) => ANALYTICS_FIELD_NAMES.filter((name) => Object.hasOwn(data, name)).sort();
const sorted = (...lists: string[][]) => lists.flat().sort();

const PRODUCTS = {
  p1: { productType: 1, variants: [{ sku: 'SQ-1', priceMoney: { value: '25.00', currency: 'USD' } }] },
  sub: { productType: 1, isSubscribable: true, variants: [] },
  ebook: { productType: 2, variants: [] },
};
const BASE = {
  websiteId: 'w1',
  pageId: 'pg-1',
  pagePath: '/shop/tee',
  pageTitle: 'Tee',
  siteUser: { authenticated: true, siteUserId: 'u1', xsrfToken: 'x' },
  store: { selectedCurrency: 'EUR' },
  products: PRODUCTS,
  tracking: { skipPageView: null },
};

let page: Page;
beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  page?.cleanup();
  vi.useRealTimers();
});

async function load(context: Record<string, unknown>, body = ''): Promise<void> {
  page = createPage({ body, context: { ...BASE, ...context } });
  await page.boot();
  await page.advance(0);
}
function hit(event: string): Record<string, unknown> {
  const call = page.fetch.callsTo('/api/census/RecordHit', 'POST').find((c) => new URLSearchParams(c.body).get('event') === event);
  if (!call) throw new Error(`no ${event} hit`);
  return JSON.parse(new URLSearchParams(call.body).get('data')!);
}
const censusJson = (path: string) => page.fetch.callsTo(path, 'POST')[0]!.json as Record<string, unknown>;

describe('analytics fields per event (seed 001 §3)', () => {
  test('view: visitor fields', async () => {
    await load({});
    expect(seedFields(hit('view'))).toEqual(sorted(VISITOR));
    expect(hit('view')).toMatchObject({ website_id: 'w1', page_id: 'pg-1', logged_in: true });
  });

  test('commerce_view_product: visitor, cart and item fields; visitor_metric_product_page_visit: visitor and item', async () => {
    await load({ pageType: 50, recordType: 11, itemId: 'p1', flags: { commerceVisitorMetrics: true } });
    const view = hit('commerce_view_product');
    expect(seedFields(view)).toEqual(sorted(VISITOR, CART, ITEM));
    expect(view).toMatchObject({ item_id: 'p1', item_type: 'physical', item_title: 'Tee', item_price: 2500, item_quantity: 1, currency_code: 'EUR', cart_id: null, num_items_in_cart: 0 });
    expect(seedFields(hit('visitor_metric_product_page_visit'))).toEqual(sorted(VISITOR, ITEM));
  });

  test('commerce_add_to_cart: visitor, cart and item fields; visitor_metric_add_to_cart: visitor and item', async () => {
    await load({ flags: { commerceVisitorMetrics: true } });
    const cart = {
      id: 'cart-9',
      entries: [
        { id: 'e1', itemId: 'p1', quantity: 2, productType: 1, title: 'Tee', purchasePriceCents: 2500 },
        { id: 'e2', itemId: 'ebook', quantity: 1, productType: 2 },
        { id: 'e3', itemId: 'sub', quantity: 1, productType: 1 },
      ],
      totalQuantity: 4,
      subtotalCents: 9000,
    };
    await page.act(() => window.dispatchEvent(new CustomEvent('sf:cart-added', { detail: { cart, entry: cart.entries[0], itemId: 'p1', sku: 'SQ-1', quantity: 2 } })));
    await page.advance(0);
    const add = hit('commerce_add_to_cart');
    expect(seedFields(add)).toEqual(sorted(VISITOR, CART, ITEM));
    expect(add).toMatchObject({
      cart_id: 'cart-9', num_items_in_cart: 4, cart_value: 9000, currency_code: 'EUR',
      product_types_list: ['digital', 'physical'], purchase_type_list: ['one-time', 'subscription'],
      item_id: 'p1', item_type: 'physical', item_title: 'Tee', item_price: 2500, item_quantity: 2,
    });
    expect(seedFields(hit('visitor_metric_add_to_cart'))).toEqual(sorted(VISITOR, ITEM));
  });

  test("commerce_purchase: visitor and cart fields, the cart being the order's", async () => {
    const order = { id: 'o1', purchasedCartId: 'c1', websiteId: 'w1', items: [{ sku: 'A', productName: 'Tee', quantity: 3, unitPrice: 2500 }], grandTotal: 7500, shippingTotal: 0, taxTotal: 0, testMode: false };
    await load({ pageType: 202, order });
    const purchase = hit('commerce_purchase');
    expect(seedFields(purchase)).toEqual(sorted(VISITOR, CART));
    expect(purchase).toMatchObject({ cart_id: 'c1', num_items_in_cart: 3, cart_value: 7500, currency_code: 'EUR' });
  });

  test('video_paywall_visit: visitor fields', async () => {
    await load({ itemId: 'v1', flags: { videoPaywall: true }, tracking: { skipPageView: 'video-paywall' } });
    expect(seedFields(hit('video_paywall_visit'))).toEqual(sorted(VISITOR));
  });

  test('census button render and click, form render and overlay: visitor fields', async () => {
    await load({}, '<a href="#" data-census-button="b1">Go</a>');
    expect(seedFields(censusJson('/api/census/button-render').fields as Record<string, unknown>)).toEqual(sorted(VISITOR));
    document.querySelector<HTMLElement>('[data-census-button]')!.click();
    expect(censusJson('/api/census/button-click').fields).toEqual({ website_id: 'w1', page_id: 'pg-1', logged_in: true });
  });
});

describe('field builders', () => {
  const context = normalizePageContext(BASE);
  test('an anonymous visitor without a cart', () => {
    const anonymous = normalizePageContext({ ...BASE, siteUser: null });
    expect(visitorFields(anonymous)).toEqual({ website_id: 'w1', page_id: 'pg-1', logged_in: false });
    expect(cartFields(anonymous, null)).toEqual({ cart_id: null, currency_code: 'EUR', num_items_in_cart: 0, cart_value: 0, product_types_list: [], purchase_type_list: [] });
  });
  test('an item not on the page has no title; unknown product types have no name', () => {
    expect(itemFields(context, 'ebook')).toEqual({ item_id: 'ebook', item_type: 'digital', item_title: null, item_price: null, item_quantity: 1 });
    expect(productTypeName(9)).toBeNull();
    expect([1, 2, 3, 4].map(productTypeName)).toEqual(['physical', 'digital', 'service', 'gift-card']);
  });
});
