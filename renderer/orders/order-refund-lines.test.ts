import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { linesPaidCents, refundedQuantities } from '../../hydrate/shared/order-statuses.ts';
import type { SeedData } from '../store/seed.ts';
import type { SqlStore } from '../store/store.ts';
import type { CommerceSettings } from '../store/types.ts';
import { acceptanceSeed, adminHeaders, freshHarness, json, withCrumb, type Harness } from '../test-support/api-harness.ts';
import { onEachStore, type OpenedStore } from '../test-support/store-backends.ts';
import { REFUND_FAILS_CARD, testCardProvider } from './payment-providers.ts';
import { REFUND_CLAIM_MS } from './order-status.ts';
import { ownerRefundKey } from './order-refund.ts';

// Refunds of returned lines (order-refund.ts, README.md "Refunds": returned goods) through the
// API, on PGlite and PostgreSQL: the amount a line's paid price by default, quantities bounded by
// what was bought less what was refunded, stable codes for bad lines, and the restock: physical
// lines and a limited service's seats (as a cancel frees them) only, exactly once per refund whatever the retries, races or provider answers, and a
// sold-out variant restocked so is back in the restock panel's reach (its sign-ups mailed on B13).

const COMMERCE: CommerceSettings = {
  storeName: 'Test Shop',
  paymentProviders: ['test', 'manual'],
  shippingOptions: [{ id: 'standard', name: 'Standard', costCents: 500 }],
};

async function linesSeed(): Promise<SeedData> {
  const seed = await acceptanceSeed();
  // Two seats of a service in one order (the demo shop allows it), to return one.
  seed.site.settings = { ...seed.site.settings, commerce: COMMERCE, multipleQuantityAllowedForServices: true };
  // The T-shirt takes restock sign-ups, so a returned one can bring its sold-out variant back.
  seed.products = (seed.products ?? []).map((product) => (product.id === 'p1' ? { ...product, restockEnabled: true } : product));
  // The consultation has three seats (a limited service, as the demo's Print Workshop): a returned seat is one to sell again.
  seed.products = seed.products.map((product) => (product.id === 'psvc' ? { ...product, variants: product.variants.map((variant) => ({ ...variant, unlimited: false, qtyInStock: 3 })) } : product));
  return seed;
}

const NY = { firstName: 'Ada', lastName: 'Lovelace', line1: '1 Main St', city: 'New York', region: 'NY', postalCode: '10001', country: 'US' };
const VISA = { provider: 'test', cardNumber: '4242 4242 4242 4242', expMonth: 12, expYear: 2030, cvc: '123' };

describe('linesPaidCents', () => {
  it("shares out what the goods came to (discount and the goods' tax included, shipping not) by list price, rounded down", () => {
    const items = [
      { quantity: 2, unitPrice: 2500, productType: 1 },
      { quantity: 1, unitPrice: 300, productType: 2 },
    ];
    // $53.00 of goods, 10% off ($47.70), 8% tax on it ($3.82), $5.00 shipping: $56.52.
    const order = { items, subtotal: 5300, grandTotal: 5652, shippingTotal: 500 };
    expect(linesPaidCents(order, [{ lineId: 'line-1', quantity: 1 }])).toBe(Math.floor((2500 * 5152) / 5300));
    expect(linesPaidCents(order, [{ lineId: 'line-1', quantity: 2 }, { lineId: 'line-2', quantity: 1 }])).toBe(5152);
    expect(linesPaidCents({ ...order, grandTotal: 5300, shippingTotal: 0 }, [{ lineId: 'line-2', quantity: 1 }])).toBe(300);
    expect(linesPaidCents({ ...order, subtotal: 0 }, [{ lineId: 'line-1', quantity: 1 }])).toBe(0);
    expect(linesPaidCents(order, [{ lineId: 'line-3', quantity: 1 }])).toBe(0);
    // Sums of cents never lose a digit: a billion-cent order still divides exactly.
    expect(linesPaidCents({ items: [{ quantity: 1000, unitPrice: 1_000_000_000, productType: 1 }], subtotal: 1e12, grandTotal: 1e12, shippingTotal: 0 }, [{ lineId: 'line-1', quantity: 999 }])).toBe(999e9);
  });

  it('counts what earlier refunds gave back per line', () => {
    const refunds = [{ lines: [{ lineId: 'line-1', quantity: 1 }] }, {}, { lines: [{ lineId: 'line-1', quantity: 1 }, { lineId: 'line-2', quantity: 3 }] }];
    expect([...refundedQuantities({ refunds })]).toEqual([['line-1', 2], ['line-2', 3]]);
  });
});

function linesSuite(name: string, open: () => Promise<OpenedStore>) {
  describe(name, () => {
    let store: SqlStore;
    let close: () => Promise<void>;
    let h: Harness;
    let keys = 0;

    beforeAll(async () => {
      ({ store, close } = await open());
    }, 60_000);
    afterAll(async () => {
      await close?.();
    });
    beforeEach(async () => {
      h = await freshHarness(store, { seed: await linesSeed() });
    });

    /** T-shirts (p1, $25.00 each, 5 in stock) and a wallpaper (digital, $3.00), shipped for $5.00. */
    async function placeOrder(shirts: number, payment: Record<string, unknown> = VISA): Promise<{ orderId: string; orderNumber: number }> {
      const first = await h.inject(withCrumb({ method: 'POST', url: '/api/commerce/shopping-cart/entries', payload: { itemId: 'p1', sku: 'SQ-1', quantity: shirts } }));
      expect(first.statusCode, first.body).toBe(200);
      const cartToken = json(first).shoppingCart.id;
      const second = await h.inject(withCrumb({ method: 'POST', url: '/api/commerce/shopping-cart/entries', cookies: { CART: cartToken }, payload: { itemId: 'pdig', sku: 'DIG-1', quantity: 1 } }));
      expect(second.statusCode, second.body).toBe(200);
      const placed = await h.inject(
        withCrumb({
          method: 'POST',
          url: '/api/commerce/checkout/place',
          payload: { cartToken, email: 'buyer@example.com', shippingAddress: NY, shippingOptionId: 'standard', payment, idempotencyKey: `place-${++keys}-000` },
        }),
      );
      expect(placed.statusCode, placed.body).toBe(200);
      return json(placed);
    }
    const refund = (orderId: string, body: Record<string, unknown>, key = `lines-key-${++keys}`): Promise<LightMyRequestResponse> =>
      h.inject({ method: 'POST', url: `/api/commerce/orders/${orderId}/refunds`, headers: adminHeaders(), payload: { idempotencyKey: key, ...body } });
    const owner = async (orderId: string) => json(await h.inject({ method: 'GET', url: `/api/commerce/orders/${orderId}`, headers: adminHeaders() }));
    const stock = async () => (await store.read.getProduct('p1'))!.variants[0]!.qtyInStock;
    const shirt = (quantity: number) => [{ lineId: 'line-1', quantity }];

    it("a returned line: the amount defaults to its paid price, the owner may lower it, restock puts it back; the line's quantity bounds the next", async () => {
      const { orderId, orderNumber } = await placeOrder(3);
      expect(await stock()).toBe(2);
      const order = await owner(orderId);
      expect(order).toMatchObject({ grandTotal: 8300, items: [{ sku: 'SQ-1', quantity: 3 }, { sku: 'DIG-1', quantity: 1 }] });

      const first = await refund(orderId, { lines: shirt(1), restock: true, reason: 'Returned: too small' });
      expect(first.statusCode, first.body).toBe(200);
      expect(json(first)).toMatchObject({
        status: 'partially-refunded',
        refundedCents: 2500,
        refunds: [{ amountCents: 2500, lines: [{ lineId: 'line-1', quantity: 1 }], restocked: true, reason: 'Returned: too small' }],
      });
      expect(await stock()).toBe(3);

      // Kept by the buyer at a discount: a lower amount, nothing back into stock.
      const lowered = json(await refund(orderId, { lines: shirt(1), amountCents: 1000 }));
      expect(lowered.refunds[1]).toMatchObject({ amountCents: 1000, lines: [{ lineId: 'line-1', quantity: 1 }], restocked: false });
      expect(await stock()).toBe(3);

      // One shirt is left of the line: two is too many, and more than its price too much.
      const tooMany = await refund(orderId, { lines: shirt(2), restock: true });
      expect([tooMany.statusCode, json(tooMany)]).toEqual([422, { code: 'REFUND_QUANTITY_TOO_LARGE', error: 'At most 1 of T-shirt (M) (line-1) is left to refund.' }]);
      const over = await refund(orderId, { lines: shirt(1), amountCents: 2501 });
      expect([over.statusCode, json(over)]).toEqual([422, { code: 'REFUND_TOO_LARGE', error: 'At most $25.00 was paid for those items.' }]);
      expect(json(await refund(orderId, { lines: shirt(1), restock: true })).refundedCents).toBe(6000);
      expect(await stock()).toBe(4);
      expect(json(await refund(orderId, { lines: shirt(1) }))).toEqual({ code: 'REFUND_QUANTITY_TOO_LARGE', error: 'T-shirt (M) (line-1) is already refunded in full.' });

      // The digital line has no stock to return: refunded, nothing restocked. Then the rest (the
      // discount's remainder and the shipping), by amount.
      const file = json(await refund(orderId, { lines: [{ lineId: 'line-2', quantity: 1 }], restock: true }));
      expect(file.refunds[3]).toMatchObject({ amountCents: 300, restocked: false });
      expect(json(await refund(orderId, { amountCents: 2000 }))).toMatchObject({ status: 'refunded', refundedCents: 8300 });
      expect(await stock()).toBe(4);
      expect((await store.read.orders.listRefunds(orderId)).map((row) => row.amountCents)).toEqual([2500, 1000, 2500, 300, 2000]);

      // The buyer's look-up shows the money, not the lines or the restock.
      const lookup = json(await h.inject(withCrumb({ method: 'POST', url: '/api/commerce/order-status', payload: { orderNumber, email: 'buyer@example.com' } })));
      expect(lookup.order.refunds[0]).toEqual({ kind: 'refunded', amountCents: 2500, label: 'Visa ending 4242 (test)', on: expect.any(String) });
    });

    it('bad lines have stable codes and refund nothing: an unknown line 422 REFUND_LINE_NOT_FOUND; a malformed body, a line twice, restock without lines 400', async () => {
      const { orderId, orderNumber } = await placeOrder(1);
      const unknown = await refund(orderId, { lines: [{ lineId: 'line-3', quantity: 1 }] });
      expect([unknown.statusCode, json(unknown)]).toEqual([422, { code: 'REFUND_LINE_NOT_FOUND', error: `Order #${orderNumber} has no line line-3.` }]);
      // Text that is no line id is not repeated back.
      expect(json(await refund(orderId, { lines: [{ lineId: '<b>shirt</b>', quantity: 1 }] }))).toEqual({ code: 'REFUND_LINE_NOT_FOUND', error: `Order #${orderNumber} has no line with that id.` });
      expect(json(await refund(orderId, { lines: [{ lineId: 'line-0', quantity: 1 }] })).code).toBe('REFUND_LINE_NOT_FOUND');
      const bad: [Record<string, unknown>, string][] = [
        [{ lines: [{ lineId: 'line-1', quantity: 0 }] }, 'lines must be 1 to 200 of { lineId, quantity: a whole number from 1 }.'],
        [{ lines: [{ lineId: 'line-1', quantity: 1.5 }] }, 'lines must be 1 to 200 of { lineId, quantity: a whole number from 1 }.'],
        [{ lines: [{ lineId: 'line-1' }] }, 'lines must be 1 to 200 of { lineId, quantity: a whole number from 1 }.'],
        [{ lines: [] }, 'lines must be 1 to 200 of { lineId, quantity: a whole number from 1 }.'],
        [{ lines: 'line-1' }, 'lines must be 1 to 200 of { lineId, quantity: a whole number from 1 }.'],
        [{ lines: [{ lineId: 'line-1', quantity: 1, price: 1 }] }, 'lines must be 1 to 200 of { lineId, quantity: a whole number from 1 }.'],
        [{ lines: [{ lineId: 'line-1', quantity: 1 }, { lineId: 'line-1', quantity: 1 }] }, 'lines must name each line once.'],
        [{ amountCents: 100, restock: true }, 'restock needs lines: name the returned items to put back into stock.'],
        [{ lines: shirt(1), restock: 'yes' }, 'restock must be true or false.'],
        [{}, 'amountCents is required unless lines name the returned items.'],
      ];
      for (const [body, error] of bad) {
        const answer = await refund(orderId, body);
        expect([answer.statusCode, json(answer)], JSON.stringify(body)).toEqual([400, { code: 'BAD_REQUEST', error }]);
      }
      expect(await store.read.orders.listRefunds(orderId)).toEqual([]);
      expect(await stock()).toBe(4);
    });

    it('restocks exactly once per refund: the same key again, two presses while the provider is asked, and a race all put one back', async () => {
      const { orderId } = await placeOrder(3);
      const again = json(await refund(orderId, { lines: shirt(1), restock: true }, 'same-lines-1'));
      expect(json(await refund(orderId, { lines: shirt(1), restock: true }, 'same-lines-1'))).toEqual(again);
      expect(await stock()).toBe(3);

      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let asked!: () => void;
      const askedOnce = new Promise<void>((resolve) => (asked = resolve));
      const real = testCardProvider.refund;
      const ask = vi.spyOn(testCardProvider, 'refund').mockImplementation(async (...args) => {
        asked();
        await released;
        return real.apply(testCardProvider, args);
      });
      try {
        const firstPress = refund(orderId, { lines: shirt(1), restock: true }, 'press-one-1');
        await askedOnce;
        expect(json(await refund(orderId, { lines: shirt(1), restock: true }, 'press-two-2')).code).toBe('REFUND_PENDING');
        release();
        expect((await firstPress).statusCode).toBe(200);
      } finally {
        release();
        ask.mockRestore();
      }
      expect(await stock()).toBe(4);

      // The last shirt, asked three times at once with three keys: one refund, one back in stock.
      const answers = await Promise.all([1, 2, 3].map(() => refund(orderId, { lines: shirt(1), restock: true })));
      const codes = answers.map((answer) => (answer.statusCode === 200 ? 'ok' : json(answer).code));
      expect(codes.filter((code) => code === 'ok')).toHaveLength(1);
      expect(codes.every((code) => ['ok', 'REFUND_PENDING', 'REFUND_QUANTITY_TOO_LARGE'].includes(code))).toBe(true);
      expect(await stock()).toBe(5);
      const stored = await owner(orderId);
      expect(stored.refunds.filter((entry: { restocked?: boolean }) => entry.restocked)).toHaveLength(3);
      expect(await store.read.orders.listRefunds(orderId)).toHaveLength(3);
    });

    it('a refused refund restocks nothing; an unknown answer neither, until the same lines are asked again, which restocks once', async () => {
      const refused = await placeOrder(1, { ...VISA, cardNumber: REFUND_FAILS_CARD });
      expect(await stock()).toBe(4);
      expect(json(await refund(refused.orderId, { lines: shirt(1), restock: true })).code).toBe('REFUND_FAILED');
      expect(await stock()).toBe(4);
      expect(await owner(refused.orderId)).toMatchObject({ status: 'paid', refundPending: false, refunds: [] });

      const { orderId } = await placeOrder(2);
      expect(await stock()).toBe(2);
      const ask = vi.spyOn(testCardProvider, 'refund').mockRejectedValueOnce(new Error('socket hang up'));
      try {
        expect(json(await refund(orderId, { lines: shirt(1), restock: true }, 'unknown-first-1')).code).toBe('REFUND_FAILED');
        // The owner's JSON names its lines and restock choice, which the admin sends again to finish it.
        expect(await owner(orderId)).toMatchObject({ status: 'paid', refundPending: true, pendingRefundCents: 2500, pendingRefundLines: shirt(1), pendingRefundRestock: true });
        expect(await stock()).toBe(2);
        // The same amount for other lines, or without the restock, is another refund: it waits.
        expect(json(await refund(orderId, { amountCents: 2500 }))).toEqual({
          code: 'REFUND_UNFINISHED',
          error: 'A refund of $25.00 of this order did not finish: ask for the same refund again (the same amount and items) to finish it before anything else.',
        });
        expect(json(await refund(orderId, { lines: shirt(1) })).code).toBe('REFUND_UNFINISHED');
        h.clock.now += REFUND_CLAIM_MS + 1;
        const finished = json(await refund(orderId, { lines: shirt(1), restock: true }, 'unknown-second-2'));
        expect(finished).toMatchObject({ refundPending: false, refunds: [{ key: 'unknown-first-1', restocked: true }] });
        expect(ask.mock.calls.map((call) => call[2])).toEqual([ownerRefundKey(orderId, 'unknown-first-1'), ownerRefundKey(orderId, 'unknown-first-1')]);
      } finally {
        ask.mockRestore();
      }
      expect(await stock()).toBe(3);
      expect(json(await refund(orderId, { lines: shirt(1), restock: true }, 'unknown-first-1')).refunds).toHaveLength(1);
      expect(await stock()).toBe(3);
    });

    it('a sold-out variant restocked by a refund is back in stock: the restock panel lists it in stock and its sign-ups are mailed on send', async () => {
      const { orderId } = await placeOrder(5);
      expect(await stock()).toBe(0);
      const signUp = await h.inject(
        withCrumb({ method: 'POST', url: '/api/site-users/account/notifications/restock', payload: { productId: 'p1', variantId: 'v1', siteVisitorEmail: 'waiting@example.com' } }),
      );
      expect(signUp.statusCode, signUp.body).toBe(200);
      const send = () => h.inject({ method: 'POST', url: '/api/site-users/account/notifications/restock/send', headers: adminHeaders(), payload: { productId: 'p1', variantId: 'v1' } });
      expect(json(await send()).code).toBe('OUT_OF_STOCK');

      expect((await refund(orderId, { lines: shirt(1), restock: true })).statusCode).toBe(200);
      expect(await stock()).toBe(1);
      const groups = json(await h.inject({ method: 'GET', url: '/api/site-users/account/notifications/restock/groups', headers: adminHeaders() }));
      expect(groups.signUpGroups).toEqual([expect.objectContaining({ productId: 'p1', variantId: 'v1', pendingCount: 1, inStock: true })]);
      expect(json(await send())).toEqual({ sentCount: 1 });
      expect((await store.read.listOutbox()).filter((mail) => mail.to === 'waiting@example.com').map((mail) => mail.subject)).toEqual(['T-shirt is back in stock']);
    });

    it('paid offline, a returned line is the owner\'s to pay back by hand, and still goes back into stock', async () => {
      const { orderId } = await placeOrder(1, { provider: 'manual' });
      expect(json(await h.inject({ method: 'POST', url: `/api/commerce/orders/${orderId}/status`, headers: adminHeaders(), payload: { status: 'paid' } })).status).toBe('paid');
      expect(json(await refund(orderId, { lines: shirt(1), restock: true })).refunds).toEqual([expect.objectContaining({ kind: 'by-hand', amountCents: 2500, restocked: true })]);
      expect(await stock()).toBe(5);
    });

    it("a refunded seat of a limited service is freed by Restock items, once, as a cancel frees the order's seats", async () => {
      const seats = async () => (await store.read.getProduct('psvc'))!.variants[0]!.qtyInStock;
      const book = async (quantity: number) => {
        const added = await h.inject(withCrumb({ method: 'POST', url: '/api/commerce/shopping-cart/entries', payload: { itemId: 'psvc', sku: 'SVC-1', quantity } }));
        expect(added.statusCode, added.body).toBe(200);
        const placed = await h.inject(
          withCrumb({ method: 'POST', url: '/api/commerce/checkout/place', payload: { cartToken: json(added).shoppingCart.id, email: 'buyer@example.com', payment: VISA, idempotencyKey: `place-${++keys}-000` } }),
        );
        expect(placed.statusCode, placed.body).toBe(200);
        return json(placed).orderId as string;
      };
      const orderId = await book(2);
      expect(await seats()).toBe(1);
      // Left off, the seat stays sold; on, it is freed; the same refund again frees nothing more.
      expect(json(await refund(orderId, { lines: [{ lineId: 'line-1', quantity: 1 }], amountCents: 1000 })).refunds[0]).toMatchObject({ restocked: false });
      expect(await seats()).toBe(1);
      const first = await refund(orderId, { lines: [{ lineId: 'line-1', quantity: 1 }], restock: true }, 'seat-key-1');
      expect(first.statusCode, first.body).toBe(200);
      expect(json(first).refunds[1]).toMatchObject({ lines: [{ lineId: 'line-1', quantity: 1 }], restocked: true });
      expect(await seats()).toBe(2);
      const again = await refund(orderId, { lines: [{ lineId: 'line-1', quantity: 1 }], restock: true }, 'seat-key-1');
      expect(again.statusCode, again.body).toBe(200);
      expect(json(again).refunds).toHaveLength(2);
      expect(await seats()).toBe(2);
      // The analogue: a cancelled booking gives its seats back.
      const other = await book(1);
      expect(await seats()).toBe(1);
      const cancelled = await h.inject({ method: 'POST', url: `/api/commerce/orders/${other}/status`, headers: adminHeaders(), payload: { status: 'cancelled' } });
      expect(cancelled.statusCode, cancelled.body).toBe(200);
      expect(await seats()).toBe(2);
    });
  });
}

await onEachStore('owner refunds of returned lines', 'refund_lines', linesSuite);
