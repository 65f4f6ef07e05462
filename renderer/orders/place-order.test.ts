import { describe, expect, it } from 'vitest';
import { type HarnessOptions, acceptanceSeed, json, useApiHarness, withCrumb } from '../test-support/api-harness.ts';
import { MAX_OFFLINE_ORDER_UNITS } from './place-order.ts';

// An order paid offline (`manual`) takes its stock as it is placed and holds it, unpaid, until
// the owner marks it paid or cancels it. One anonymous order of every line at its full stock
// sold a whole shop out; such an order now holds at most MAX_OFFLINE_ORDER_UNITS of stock.

const h = useApiHarness();
const NY = { firstName: 'Ada', lastName: 'Lovelace', line1: '1 Main St', city: 'New York', region: 'NY', postalCode: '10001', country: 'US' };
let keys = 0;

async function offlineShop(commerce: { offlineOrderMaxUnits?: number } = {}, limits: HarnessOptions['limits'] = undefined): Promise<void> {
  const seed = await acceptanceSeed();
  seed.site.settings = { ...seed.site.settings, commerce: { paymentProviders: ['test', 'manual'], shippingOptions: [{ id: 'standard', name: 'Standard', costCents: 500 }], ...commerce } };
  await h.reset({ seed, limits });
}

/** A new anonymous cart holding `lines`; returns its token. */
async function cartWith(...lines: [itemId: string, sku: string, quantity: number][]): Promise<string> {
  let id = '';
  for (const [itemId, sku, quantity] of lines) {
    const response = await h.inject(withCrumb({ method: 'POST', url: '/api/commerce/shopping-cart/entries', payload: { itemId, sku, quantity }, cookies: id ? { CART: id } : {} }));
    expect(response.statusCode, response.body).toBe(200);
    id = json(response).shoppingCart.id;
  }
  return id;
}

const place = (cartToken: string, payment: Record<string, unknown>) =>
  h.inject(
    withCrumb({
      method: 'POST',
      url: '/api/commerce/checkout/place',
      payload: { cartToken, email: 'buyer@example.com', shippingAddress: NY, shippingOptionId: 'standard', payment, idempotencyKey: `key-${++keys}-000` },
    }),
  );
const stockOf = async (productId: string, variantId: string) => (await h.store.read.getProduct(productId))!.variants.find((variant) => variant.id === variantId)!.qtyInStock;

describe('an order paid offline', () => {
  it('holding more stock than MAX_OFFLINE_ORDER_UNITS is refused (422 OFFLINE_ORDER_TOO_LARGE), takes nothing, and a card still pays for it', async () => {
    await offlineShop();
    // 5 + 10 + 10 = 25 units of stock: every line of three products at its full stock.
    const token = await cartWith(['p1', 'SQ-1', 5], ['p3', 'HD-S', 10], ['p3', 'HD-M', 10]);
    const refused = await place(token, { provider: 'manual' });
    expect(refused.statusCode).toBe(422);
    expect(json(refused)).toEqual({
      code: 'OFFLINE_ORDER_TOO_LARGE',
      error: `An order paid offline can hold at most ${MAX_OFFLINE_ORDER_UNITS} items from stock; this cart has 25. Remove some, or choose another payment method.`,
    });
    expect([await stockOf('p1', 'v1'), await stockOf('p3', 'v3s'), await stockOf('p3', 'v3m')]).toEqual([5, 10, 10]);
    expect(await h.store.read.orders.list('w1', null, 10)).toEqual([]);
    const paid = await place(token, { provider: 'test', cardNumber: '4242 4242 4242 4242', expMonth: 12, expYear: 2030, cvc: '123' });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(json(paid).status).toBe('paid');
  });

  it('up to the bound is placed awaiting payment; units that hold no stock (downloads, unlimited variants) do not count', async () => {
    await offlineShop();
    const token = await cartWith(['p3', 'HD-S', MAX_OFFLINE_ORDER_UNITS], ['pdig', 'DIG-1', 5], ['p2', 'SQ-2A', 7]);
    const placed = await place(token, { provider: 'manual' });
    expect(placed.statusCode, placed.body).toBe(200);
    expect(json(placed).status).toBe('awaiting-payment');
    expect(await stockOf('p3', 'v3s')).toBe(10 - MAX_OFFLINE_ORDER_UNITS);
  });

  it("holds up to the shop's own bound (catalog.json commerce.offlineOrderMaxUnits), and its refusal names the shop's figure", async () => {
    await offlineShop({ offlineOrderMaxUnits: 25 });
    const wholesale = await place(await cartWith(['p1', 'SQ-1', 5], ['p3', 'HD-S', 10], ['p3', 'HD-M', 10]), { provider: 'manual' });
    expect(wholesale.statusCode, wholesale.body).toBe(200);
    expect(json(wholesale).status).toBe('awaiting-payment');

    await offlineShop({ offlineOrderMaxUnits: 3 });
    const refused = await place(await cartWith(['p3', 'HD-S', 4]), { provider: 'manual' });
    expect(refused.statusCode).toBe(422);
    expect(json(refused)).toEqual({
      code: 'OFFLINE_ORDER_TOO_LARGE',
      error: 'An order paid offline can hold at most 3 items from stock; this cart has 4. Remove some, or choose another payment method.',
    });
    expect(await stockOf('p3', 'v3s')).toBe(10);
  });

  it("the checkout view carries the shop's bound and the cart's units as placing counts them (unlimited variants not counted), from GET and quote alike", async () => {
    await offlineShop({ offlineOrderMaxUnits: 3 });
    // 4 tees of stock + 5 downloads + 7 of an unlimited variant: 4 units of stock.
    const token = await cartWith(['p3', 'HD-S', 2], ['p3', 'HD-M', 2], ['pdig', 'DIG-1', 5], ['p2', 'SQ-2A', 7]);
    const view = await h.inject({ method: 'GET', url: `/api/commerce/checkout?cartToken=${token}` });
    expect(view.statusCode, view.body).toBe(200);
    expect(json(view)).toMatchObject({ offlineOrderMaxUnits: 3, stockUnits: 4, totalQuantity: 16 });
    const quoted = await h.inject({ method: 'POST', url: '/api/commerce/checkout/quote', payload: { cartToken: token, shippingAddress: NY } });
    expect(quoted.statusCode, quoted.body).toBe(200);
    expect(json(quoted)).toMatchObject({ offlineOrderMaxUnits: 3, stockUnits: 4 });
    // The figure the view says is the one placing refuses.
    expect(json(await place(token, { provider: 'manual' })).error).toBe('An order paid offline can hold at most 3 items from stock; this cart has 4. Remove some, or choose another payment method.');

    await offlineShop();
    const unset = await h.inject({ method: 'GET', url: `/api/commerce/checkout?cartToken=${await cartWith(['p3', 'HD-S', 1])}` });
    expect(json(unset)).toMatchObject({ offlineOrderMaxUnits: MAX_OFFLINE_ORDER_UNITS, stockUnits: 1 });
  });

  it("refused as too large, it does not use up the address's offline orders of the day (offlineOrders)", async () => {
    await offlineShop({}, { offlineOrders: { limit: 1, windowMs: 24 * 60 * 60_000 } });
    const tooLarge = await cartWith(['p3', 'HD-S', 6], ['p3', 'HD-M', MAX_OFFLINE_ORDER_UNITS - 5]);
    for (let attempt = 0; attempt < 3; attempt++) expect(json(await place(tooLarge, { provider: 'manual' })).code).toBe('OFFLINE_ORDER_TOO_LARGE');
    const placed = await place(await cartWith(['p3', 'HD-S', 2]), { provider: 'manual' });
    expect(placed.statusCode, placed.body).toBe(200);
    expect(json(placed).status).toBe('awaiting-payment');
    // The one order of the day was placed: the next is refused and takes nothing.
    const limited = await place(await cartWith(['p3', 'HD-S', 1]), { provider: 'manual' });
    expect(limited.statusCode).toBe(429);
    expect(json(limited).code).toBe('RATE_LIMITED');
    expect(await stockOf('p3', 'v3s')).toBe(8);
  });
});
