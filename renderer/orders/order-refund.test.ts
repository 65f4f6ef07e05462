import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SeedData } from '../store/seed.ts';
import type { SqlStore } from '../store/store.ts';
import type { CommerceSettings } from '../store/types.ts';
import { acceptanceSeed, adminHeaders, freshHarness, json, withCrumb, type Harness } from '../test-support/api-harness.ts';
import { onEachStore, type OpenedStore } from '../test-support/store-backends.ts';
import { REFUND_FAILS_CARD, REFUND_REFUSED, testCardProvider, testRefunds } from './payment-providers.ts';
import { REFUND_CLAIM_MS } from './order-status.ts';
import { ownerRefundKey } from './order-refund.ts';
import { hashSecret } from '../admin/owner-auth.ts';
import { orderRefundedMail } from '../mail/order-refunded.ts';
import { createOutboxWorker, smtpTransport } from '../mail/outbox-worker.ts';
import { startSmtpSink } from '../test-support/smtp-sink.ts';

// The owner's refunds without a cancel (order-refund.ts, README.md "Refunds") through the API,
// on PGlite and PostgreSQL: amounts and their bound, the statuses they lead to, the books' rows,
// the buyer's mail and look-up, at most once per key, and two refunds at once.

const COMMERCE: CommerceSettings = {
  storeName: 'Test Shop',
  paymentProviders: ['test', 'manual'],
  shippingOptions: [{ id: 'standard', name: 'Standard', costCents: 500 }],
};

async function refundSeed(): Promise<SeedData> {
  const seed = await acceptanceSeed();
  seed.site.settings = { ...seed.site.settings, commerce: COMMERCE };
  return seed;
}

const NY = { firstName: 'Ada', lastName: 'Lovelace', line1: '1 Main St', city: 'New York', region: 'NY', postalCode: '10001', country: 'US' };
const VISA = { provider: 'test', cardNumber: '4242 4242 4242 4242', expMonth: 12, expYear: 2030, cvc: '123' };

function refundSuite(name: string, open: () => Promise<OpenedStore>) {
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
      h = await freshHarness(store, { seed: await refundSeed() });
    });

    /** A paid (card) or unpaid (offline) order of one T-shirt: $25.00 + $5.00 shipping. */
    async function placeOrder(payment: Record<string, unknown> = VISA): Promise<{ orderId: string; orderNumber: number }> {
      const cart = await h.inject(withCrumb({ method: 'POST', url: '/api/commerce/shopping-cart/entries', payload: { itemId: 'p1', sku: 'SQ-1', quantity: 1 } }));
      const cartToken = json(cart).shoppingCart.id;
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
    const refund = (orderId: string, amountCents: unknown, key = `refund-key-${++keys}`, reason?: string): Promise<LightMyRequestResponse> =>
      h.inject({ method: 'POST', url: `/api/commerce/orders/${orderId}/refunds`, headers: adminHeaders(), payload: { amountCents, idempotencyKey: key, ...(reason === undefined ? {} : { reason }) } });
    const status = (orderId: string, value: string) => h.inject({ method: 'POST', url: `/api/commerce/orders/${orderId}/status`, headers: adminHeaders(), payload: { status: value } });
    const owner = async (orderId: string) => json(await h.inject({ method: 'GET', url: `/api/commerce/orders/${orderId}`, headers: adminHeaders() }));
    const refundMails = async () => (await store.read.listOutbox()).filter((mail) => /refund/i.test(mail.subject));

    it('a part, then the rest: partially refunded with what is left, then refunded; each refund recorded once, in the order and the books', async () => {
      const { orderId, orderNumber } = await placeOrder();
      const placed = await owner(orderId);
      expect(placed).toMatchObject({ status: 'paid', grandTotal: 3000, refundedCents: 0, refundableCents: 3000, refunds: [] });

      const first = await refund(orderId, 1000, 'returned-tee-1', '  Returned: wrong size ');
      expect(first.statusCode, first.body).toBe(200);
      expect(json(first)).toMatchObject({
        status: 'partially-refunded',
        refundedCents: 1000,
        refundableCents: 2000,
        refunds: [{ kind: 'refunded', amountCents: 1000, label: 'Visa ending 4242 (test)', reference: expect.stringMatching(/^test_refund_/), by: 'API', reason: 'Returned: wrong size', key: 'returned-tee-1' }],
      });
      expect(testRefunds.get(ownerRefundKey(orderId, 'returned-tee-1'))).toMatchObject({ amountCents: 1000 });

      // The buyer's look-up says it, without the reference, who gave it or the owner's note.
      const lookup = json(await h.inject(withCrumb({ method: 'POST', url: '/api/commerce/order-status', payload: { orderNumber, email: 'buyer@example.com' } })));
      expect(lookup.order).toMatchObject({ status: 'partially-refunded', refundedCents: 1000 });
      expect(lookup.order.refunds).toEqual([{ kind: 'refunded', amountCents: 1000, label: 'Visa ending 4242 (test)', on: expect.any(String) }]);
      expect(lookup.order).not.toHaveProperty('refundableCents');

      // The rest is still sent: a partly refunded order may be marked fulfilled, and refunded again from there.
      expect(json(await status(orderId, 'fulfilled')).status).toBe('fulfilled');
      h.clock.now += 60_000;
      const rest = json(await refund(orderId, 2000));
      expect(rest).toMatchObject({ status: 'refunded', refundedCents: 3000, refundableCents: 0 });
      expect(rest.refunds.map((entry: { amountCents: number }) => entry.amountCents)).toEqual([1000, 2000]);
      expect((await store.read.orders.listRefunds(orderId)).map((row) => [row.amountCents, row.kind, row.by])).toEqual([
        [1000, 'refunded', 'API'],
        [2000, 'refunded', 'API'],
      ]);
      // Refunded in full, it is done: no status moves, no more refunds.
      expect(json(await status(orderId, 'cancelled')).code).toBe('INVALID_ORDER_STATUS');
      const more = await refund(orderId, 1);
      expect([more.statusCode, json(more)]).toEqual([409, { code: 'NOTHING_TO_REFUND', error: `Nothing is left to refund on order #${orderNumber}.` }]);

      // One mail per refund, to the buyer, saying how much and how much so far.
      const mails = await refundMails();
      expect(mails.map((mail) => [mail.to, mail.subject])).toEqual([
        ['buyer@example.com', `A refund of $10.00 for your order #${orderNumber} from Test Shop`],
        ['buyer@example.com', `Your order #${orderNumber} from Test Shop is refunded`],
      ]);
      expect(mails[0]!.body).toContain('Test Shop refunded $10.00 to Visa ending 4242 (test). This was a test order: no real money moved.');
      expect(mails[0]!.body).toContain("$10.00 of your order's $30.00 is refunded so far.");
      expect(mails[1]!.body).toContain(`Your order #${orderNumber} is now refunded in full ($30.00).`);
      // The owner's CSV keeps each refund, with its date and the provider's reference.
      const csv = (await h.inject({ method: 'GET', url: '/api/admin/orders/export?status=refunded', headers: adminHeaders() })).body;
      expect(csv).toContain(`Refunded 10.00 to Visa ending 4242 (test) on ${new Date(h.clock.now - 60_000).toISOString()} (${rest.refunds[0].reference}); Refunded 20.00 to Visa ending 4242 (test)`);
      expect(csv).toContain('"buyer@example.com","refunded",');
      // Never the provider's reference, the owner's note or who gave it.
      for (const mail of mails) {
        for (const secret of [...rest.refunds.map((entry: { reference: string }) => entry.reference), 'wrong size', 'API']) expect(`${mail.body}${mail.html}`).not.toContain(secret);
      }
    });

    it("a refund made with an API key records the key by its name and prefix (the admin's API keys panel), not the bare 'API' the operator's token leaves", async () => {
      const { orderId } = await placeOrder();
      const secret = 'qk_refund_script_key_0123456789abcdef';
      await store.read.admin.insertApiKey({ id: 'key_refunds', name: 'Returns desk', prefix: secret.slice(0, 8), keyHash: hashSecret(secret), createdBy: null, createdAt: h.clock.now, lastUsedAt: null });
      const made = await h.inject({ method: 'POST', url: `/api/commerce/orders/${orderId}/refunds`, headers: { authorization: `Bearer ${secret}` }, payload: { amountCents: 500, idempotencyKey: 'by-api-key-1' } });
      expect(made.statusCode, made.body).toBe(200);
      expect(json(made).refunds.map((entry: { by: string }) => entry.by)).toEqual(['API key "Returns desk" (qk_refun…)']);
      expect(JSON.stringify(json(made))).not.toContain(secret);
    });

    it('bounds: more than is left is 422 REFUND_TOO_LARGE naming what is left; a bad amount or key is 400; an unknown order 404', async () => {
      const { orderId } = await placeOrder();
      const over = await refund(orderId, 3001);
      expect([over.statusCode, json(over)]).toEqual([422, { code: 'REFUND_TOO_LARGE', error: 'At most $30.00 is left to refund on this order.' }]);
      expect(json(await refund(orderId, 2500)).refundableCents).toBe(500);
      expect(json(await refund(orderId, 501))).toEqual({ code: 'REFUND_TOO_LARGE', error: 'At most $5.00 is left to refund on this order.' });
      for (const amount of [0, -5, 12.5, '100', null]) {
        const bad = await refund(orderId, amount);
        expect([bad.statusCode, json(bad).code], String(amount)).toEqual([400, 'BAD_REQUEST']);
      }
      expect(json(await refund(orderId, 100, 'short')).code).toBe('BAD_REQUEST');
      expect(json(await refund(orderId, 100, 'has spaces in it')).code).toBe('BAD_REQUEST');
      expect(json(await refund(orderId, 100, undefined, 'x'.repeat(501))).code).toBe('BAD_REQUEST');
      expect(json(await refund('nope', 100)).code).toBe('ORDER_NOT_FOUND');
      // Nothing of the refused ones was asked or booked.
      expect((await store.read.orders.listRefunds(orderId)).map((row) => row.amountCents)).toEqual([2500]);
      expect((await h.inject({ method: 'POST', url: `/api/commerce/orders/${orderId}/refunds`, payload: { amountCents: 1, idempotencyKey: 'no-admin-1' } })).statusCode).toBe(401);
    });

    it('an order awaiting payment is 409 ORDER_NOT_PAID; a cancelled one NOTHING_TO_REFUND; paid offline, the refund is the owner\'s by hand', async () => {
      const offline = await placeOrder({ provider: 'manual' });
      const unpaid = await refund(offline.orderId, 100);
      expect([unpaid.statusCode, json(unpaid)]).toEqual([409, { code: 'ORDER_NOT_PAID', error: `Order #${offline.orderNumber} is not paid yet, so nothing can be refunded. Cancel it instead.` }]);
      expect(json(await status(offline.orderId, 'paid')).status).toBe('paid');
      const byHand = json(await refund(offline.orderId, 1200));
      expect(byHand).toMatchObject({ status: 'partially-refunded', refunds: [{ kind: 'by-hand', amountCents: 1200, reference: null, label: 'Bank transfer or pay on pickup' }] });
      const [mail] = await refundMails();
      expect(mail!.body).toContain('You paid $30.00 (Bank transfer or pay on pickup); Test Shop will pay $12.00 back to you directly.');
      // Not yet given back when the mail goes: it does not say it was.
      expect(mail!.body.startsWith('Test Shop is refunding $12.00 of your order #')).toBe(true);
      expect(mail!.body).not.toContain('has refunded');

      const card = await placeOrder();
      expect(json(await status(card.orderId, 'cancelled')).status).toBe('cancelled');
      expect(json(await refund(card.orderId, 100)).code).toBe('NOTHING_TO_REFUND');
    });

    it('the same key again answers the first refund: no second provider call, row or mail', async () => {
      const { orderId } = await placeOrder();
      const ask = vi.spyOn(testCardProvider, 'refund');
      try {
        const first = json(await refund(orderId, 700, 'same-key-123'));
        const again = json(await refund(orderId, 700, 'same-key-123'));
        expect(again).toEqual(first);
        expect(ask).toHaveBeenCalledTimes(1);
      } finally {
        ask.mockRestore();
      }
      expect(await store.read.orders.listRefunds(orderId)).toHaveLength(1);
      expect(await refundMails()).toHaveLength(1);
    });

    it('two refunds at once: while the provider is asked the second is 409 REFUND_PENDING, so the order is refunded once', async () => {
      const { orderId } = await placeOrder();
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
        const firstPress = refund(orderId, 3000, 'press-one-1');
        await askedOnce;
        const second = await refund(orderId, 3000, 'press-two-2');
        expect([second.statusCode, json(second).code]).toEqual([409, 'REFUND_PENDING']);
        // Nor may the order move meanwhile.
        expect(json(await status(orderId, 'cancelled')).code).toBe('REFUND_PENDING');
        release();
        expect(json(await firstPress)).toMatchObject({ status: 'refunded', refundedCents: 3000 });
        // Pressed again after the answer, with a new key: nothing is left.
        expect(json(await refund(orderId, 3000, 'press-two-2')).code).toBe('NOTHING_TO_REFUND');
        expect(ask).toHaveBeenCalledTimes(1);
      } finally {
        release();
        ask.mockRestore();
      }
      expect((await store.read.orders.listRefunds(orderId)).map((row) => row.amountCents)).toEqual([3000]);
    });

    it('two refunds racing without a stall: the sum never passes the total', async () => {
      const { orderId } = await placeOrder();
      const answers = await Promise.all([refund(orderId, 2000), refund(orderId, 2000), refund(orderId, 2000)]);
      const codes = answers.map((answer) => (answer.statusCode === 200 ? 'ok' : json(answer).code)).sort();
      expect(codes.filter((code) => code === 'ok')).toHaveLength(1);
      expect(codes.every((code) => ['ok', 'REFUND_PENDING', 'REFUND_TOO_LARGE'].includes(code))).toBe(true);
      expect((await store.read.orders.listRefunds(orderId)).map((row) => row.amountCents)).toEqual([2000]);
      expect(await owner(orderId)).toMatchObject({ status: 'partially-refunded', refundedCents: 2000, refundableCents: 1000 });
    });

    it('a refused refund changes nothing (502 REFUND_FAILED); an unknown answer holds the order until the same amount is asked again (same provider key)', async () => {
      const refused = await placeOrder({ ...VISA, cardNumber: REFUND_FAILS_CARD });
      const failed = await refund(refused.orderId, 500);
      expect([failed.statusCode, json(failed)]).toEqual([502, { code: 'REFUND_FAILED', error: `The refund failed, so nothing was refunded: ${REFUND_REFUSED}` }]);
      expect(await owner(refused.orderId)).toMatchObject({ status: 'paid', refundPending: false, refunds: [] });

      const { orderId } = await placeOrder();
      const ask = vi.spyOn(testCardProvider, 'refund').mockRejectedValueOnce(new Error('socket hang up'));
      try {
        expect(json(await refund(orderId, 800, 'first-try-1')).error).toBe('The refund failed, so nothing was refunded: the payment provider could not be reached.');
        expect(await owner(orderId)).toMatchObject({ status: 'paid', refundPending: true, pendingRefundCents: 800 });
        // The money may be gone: no other amount, no status move, no cancel until it is finished.
        const unfinished = 'A refund of $8.00 of this order did not finish: ask for the same refund again (the same amount and items) to finish it before anything else.';
        expect(json(await refund(orderId, 900))).toEqual({ code: 'REFUND_UNFINISHED', error: unfinished });
        // One code, one text, whatever was refused: a status move or a cancel says the same.
        expect(json(await status(orderId, 'fulfilled'))).toEqual({ code: 'REFUND_UNFINISHED', error: unfinished });
        expect(json(await status(orderId, 'cancelled'))).toEqual({ code: 'REFUND_UNFINISHED', error: unfinished });
        h.clock.now += REFUND_CLAIM_MS + 1;
        const finished = json(await refund(orderId, 800, 'second-try-2'));
        expect(finished).toMatchObject({ status: 'partially-refunded', refundedCents: 800, refundPending: false, pendingRefundCents: null, refunds: [{ key: 'first-try-1' }] });
        expect(ask.mock.calls.map((call) => call[2])).toEqual([ownerRefundKey(orderId, 'first-try-1'), ownerRefundKey(orderId, 'first-try-1')]);
      } finally {
        ask.mockRestore();
      }
    });

    it("a cancel's refund with an unknown answer holds the order: a refund is 409 CANCEL_REFUND_UNFINISHED (not REFUND_PENDING's 'wait'), and only the cancel asked again finishes it", async () => {
      const { orderId } = await placeOrder();
      const ask = vi.spyOn(testCardProvider, 'refund').mockRejectedValueOnce(new Error('socket hang up'));
      try {
        expect(json(await status(orderId, 'cancelled')).code).toBe('REFUND_FAILED');
        const held = { code: 'CANCEL_REFUND_UNFINISHED', error: "This order's cancel did not finish its refund: cancel it again to finish it before anything else." };
        expect([(await refund(orderId, 500)).statusCode, json(await refund(orderId, 500))]).toEqual([409, held]);
        expect(json(await status(orderId, 'fulfilled'))).toEqual(held);
        expect(json(await status(orderId, 'cancelled'))).toMatchObject({ status: 'cancelled', refundPending: false, refund: { kind: 'refunded' } });
      } finally {
        ask.mockRestore();
      }
    });

    it('a full refund closes the download links; a partial one keeps them', async () => {
      const { orderId } = await placeOrder();
      await store.transaction(async (repo) => {
        const order = (await repo.orders.get(orderId, { lock: true }))!;
        await repo.orders.update({ ...order, downloadToken: 'A'.repeat(32) });
      });
      expect((await owner(orderId)).downloadsOpen).toBe(true);
      expect((await refund(orderId, 100)).statusCode).toBe(200);
      expect((await owner(orderId)).downloadsOpen).toBe(true);
      expect((await refund(orderId, 2900)).statusCode).toBe(200);
      expect(await owner(orderId)).toMatchObject({ status: 'refunded', downloadsOpen: false });
    });

    it("a gift card's balance stays through a partial refund and is emptied by a full one", async () => {
      const made = json(await h.inject(withCrumb({ method: 'POST', url: '/api/commerce/checkout/gift-card', payload: { itemId: 'gc', sku: 'GC-50' } })));
      const placed = await h.inject(
        withCrumb({ method: 'POST', url: '/api/commerce/checkout/place', payload: { cartToken: made.cartToken, email: 'buyer@example.com', payment: VISA, idempotencyKey: `place-${++keys}-000` } }),
      );
      expect(placed.statusCode, placed.body).toBe(200);
      const { orderId } = json(placed);
      const balance = async () => (await store.read.orders.listGiftCards(orderId)).map((card) => card.balanceCents);
      expect(await balance()).toEqual([5000]);
      expect(json(await refund(orderId, 1000)).status).toBe('partially-refunded');
      expect(await balance()).toEqual([5000]);
      expect(json(await refund(orderId, 4000)).status).toBe('refunded');
      expect(await balance()).toEqual([0]);
    });

    it("the buyer's refund mail goes out over SMTP (nodemailer, through the outbox), once", async () => {
      const sink = await startSmtpSink();
      const transport = smtpTransport(sink.url);
      try {
        const { orderId, orderNumber } = await placeOrder();
        expect((await refund(orderId, 1250, 'smtp-refund-1', 'owner note')).statusCode).toBe(200);
        const worker = createOutboxWorker({ store, transport, from: 'Shop <shop@quire.test>', now: () => h.clock.now, log: () => {} });
        expect(await worker.tick()).toEqual({ sent: 2, retried: 0, failed: 0 });
        await worker.stop();
        const mails = await sink.waitFor(2);
        const mail = mails.find((received) => received.subject.startsWith('A refund of'))!;
        expect(mail).toMatchObject({ to: ['buyer@example.com'], subject: `A refund of $12.50 for your order #${orderNumber} from Test Shop` });
        expect(mail.text).toContain('Test Shop refunded $12.50 to Visa ending 4242 (test).');
        expect(mail.text).not.toContain('owner note');
      } finally {
        transport.close();
        await sink.close();
      }
    });

    it('the list filters by the new statuses', async () => {
      const a = await placeOrder();
      await placeOrder();
      await refund(a.orderId, 100);
      const listed = json(await h.inject({ method: 'GET', url: '/api/commerce/orders?status=partially-refunded', headers: adminHeaders() }));
      expect(listed.orders.map((order: { id: string }) => order.id)).toEqual([a.orderId]);
      expect(json(await h.inject({ method: 'GET', url: '/api/commerce/orders?status=refunded', headers: adminHeaders() })).orders).toEqual([]);
    });
  });
}

describe('orderRefundedMail', () => {
  it('escapes the shop name in its HTML', () => {
    const order = { orderNumber: 7, currency: 'USD', grandTotal: 1000, status: 'partially-refunded', testMode: false, refunds: [{ amountCents: 300 }] } as never;
    const mail = orderRefundedMail(order, { kind: 'refunded', amountCents: 300, label: 'Visa ending 4242', reference: 're_1', on: 0, key: 'k', by: 'o', reason: null }, { title: '<Shop>' });
    expect(mail.html).toContain('&lt;Shop&gt; has refunded $3.00');
    expect(mail.text).toContain('$3.00 of your order\'s $10.00 is refunded so far.');
    expect(mail.text).not.toContain('these items');
  });

  it('lists the refunded lines, escaped, and says when the goods are back with the shop', () => {
    const items = [
      { productName: 'Linen <Tee>', variantLabel: 'M', quantity: 3, productType: 1 },
      { productName: 'Mug', variantLabel: '', quantity: 1, productType: 1 },
      { productName: 'Poster', variantLabel: '', quantity: 1, productType: 2 },
    ];
    const order = { orderNumber: 7, currency: 'USD', grandTotal: 1000, status: 'partially-refunded', testMode: false, items, refunds: [{ amountCents: 300 }] } as never;
    const refund = { kind: 'refunded', amountCents: 300, label: 'Visa ending 4242', reference: 're_1', on: 0, key: 'k', by: 'o', reason: null } as const;
    const lines = [{ lineId: 'line-1', quantity: 2 }, { lineId: 'line-2', quantity: 1 }, { lineId: 'line-9', quantity: 1 }];
    const kept = orderRefundedMail(order, { ...refund, lines, restocked: true }, { title: 'Shop' });
    expect(kept.text).toContain('This refund is for these items, which are back with us:\n- 2 × Linen <Tee> — M\n- 1 × Mug\n');
    expect(kept.text).not.toContain('line-9');
    expect(kept.html).toContain('<ul><li>2 × Linen &lt;Tee&gt; — M</li><li>1 × Mug</li></ul>');
    const notKept = orderRefundedMail(order, { ...refund, lines: [lines[1]], restocked: false }, { title: 'Shop' });
    expect(notKept.text).toContain('This refund is for these items:\n- 1 × Mug\n');
    // A download refunded with a restocked mug: only the mug is back with the shop.
    const mixed = orderRefundedMail(order, { ...refund, lines: [lines[1]!, { lineId: 'line-3', quantity: 1 }], restocked: true }, { title: 'Shop' });
    expect(mixed.text).toContain('This refund is for these items:\n- 1 × Mug (back with us)\n- 1 × Poster\n');
    expect(mixed.html).toContain('<ul><li>1 × Mug (back with us)</li><li>1 × Poster</li></ul>');
  });
});

await onEachStore('owner refunds', 'refunds', refundSuite);
