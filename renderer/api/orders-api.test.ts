import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createOutboxWorker, smtpTransport } from '../mail/outbox-worker.ts';
import type { SeedData } from '../store/seed.ts';
import { syncSiteContent } from '../store/site-sync.ts';
import type { SqlStore } from '../store/store.ts';
import type { CommerceSettings } from '../store/types.ts';
import { REFUND_FAILS_CARD, REFUND_REFUSED, testCardProvider, testRefunds } from '../orders/payment-providers.ts';
import { REFUND_CLAIM_MS, refundKey } from '../orders/order-status.ts';
import { DOWNLOAD_LIMIT, DOWNLOAD_TOKEN, DOWNLOADABLE_STATUSES } from '../orders/digital-downloads.ts';
import { formatMoney } from '../pages/money.ts';
import { DEFAULT_LIMITS } from './context.ts';
import { START, USER_PASSWORD, acceptanceSeed, adminHeaders, cookieOf, freshHarness, json, withCrumb, type Harness } from '../test-support/api-harness.ts';
import { onEachStore, type OpenedStore } from '../test-support/store-backends.ts';
import { startSmtpSink, type SmtpSink } from '../test-support/smtp-sink.ts';

// The orders contract end to end through the API (renderer/orders/README.md): totals,
// payment, placement, idempotency, the race for the last item, the owner's list and status
// changes, the buyer's look-up, and the receipt reaching an SMTP server once. Every case runs
// on PGlite and on PostgreSQL (when 127.0.0.1:5432 answers).

const COMMERCE: CommerceSettings = {
  storeName: 'Test Shop',
  minimumOrderSubtotalCents: 1000,
  paymentProviders: ['test', 'manual'],
  shippingOptions: [
    { id: 'standard', name: 'Standard', costCents: 500, freeOverCents: 10000 },
    { id: 'express', name: 'Express', costCents: 1500 },
  ],
  taxRules: [{ name: 'NY sales tax', ratePercent: 8.875, country: 'US', regions: ['NY'] }],
  coupons: [
    { code: 'WELCOME10', description: '10% off', percentOff: 10 },
    { code: 'FIVEOFF', description: '$5 off', amountOffCents: 500 },
    // Lapses an hour after the harness's start: applied, then the buyer pays too late.
    { code: 'HOURLY', description: '20% off this hour', percentOff: 20, expiresOn: START + 60 * 60_000 },
  ],
};

async function ordersSeed(): Promise<SeedData> {
  const seed = await acceptanceSeed();
  seed.site.settings = { ...seed.site.settings, commerce: COMMERCE };
  seed.products!.push({ id: 'plast', title: 'Last one', variants: [{ id: 'vlast', sku: 'LAST-1', priceCents: 3000, qtyInStock: 1 }] });
  // The T-shirt's price, so a swap in another tab keeps the total.
  seed.products!.push({ id: 'ptwin', title: 'Tank top', variants: [{ id: 'vtwin', sku: 'TWIN-1', priceCents: 2500, qtyInStock: 5 }] });
  return seed;
}

const money = (cents: number) => formatMoney(cents, 'USD');
const NY = { firstName: 'Ada', lastName: 'Lovelace', line1: '1 Main St', city: 'New York', region: 'NY', postalCode: '10001', country: 'US' };
const CA = { ...NY, city: 'San Francisco', region: 'CA', postalCode: '94105' };
const VISA = { provider: 'test', cardNumber: '4242 4242 4242 4242', expMonth: 12, expYear: 2030, cvc: '123' };
const DECLINED = { ...VISA, cardNumber: '4000000000000002' };

function ordersSuite(name: string, open: () => Promise<OpenedStore>) {
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
      h = await freshHarness(store, { seed: await ordersSeed() });
    });

    /** A new anonymous cart holding `lines`; returns its token. */
    async function cartWith(...lines: [itemId: string, sku: string, quantity: number][]): Promise<string> {
      let cookie: string | undefined;
      let id = '';
      for (const [itemId, sku, quantity] of lines) {
        const response = await h.inject(
          withCrumb({ method: 'POST', url: '/api/commerce/shopping-cart/entries', payload: { itemId, sku, quantity }, cookies: cookie ? { CART: cookie } : {} }),
        );
        expect(response.statusCode, response.body).toBe(200);
        id = json(response).shoppingCart.id;
        cookie = id;
      }
      return id;
    }

    const quote = (payload: Record<string, unknown>) => h.inject({ method: 'POST', url: '/api/commerce/checkout/quote', payload });
    const place = (cartToken: string, extra: Record<string, unknown> = {}): Promise<LightMyRequestResponse> =>
      h.inject(
        withCrumb({
          method: 'POST',
          url: '/api/commerce/checkout/place',
          payload: { cartToken, email: 'buyer@example.com', shippingAddress: NY, shippingOptionId: 'standard', payment: VISA, idempotencyKey: `key-${++keys}-000`, ...extra },
        }),
      );
    const stockOf = async (productId: string, variantId: string) =>
      (await store.read.getProduct(productId))!.variants.find((variant) => variant.id === variantId)!.qtyInStock;
    const orderCount = async () => (await store.read.orders.list('w1', null, 100)).length;

    describe('totals', () => {
      it('GET shows the lines, the options priced, the first option chosen, no tax before an address', async () => {
        const token = await cartWith(['p1', 'SQ-1', 2]);
        const response = await h.inject({ method: 'GET', url: `/api/commerce/checkout?cartToken=${token}` });
        expect(response.statusCode).toBe(200);
        const view = json(response);
        expect(view).toMatchObject({
          cartToken: token, websiteId: 'w1', currency: 'USD', subtotalCents: 5000, requiresShipping: true, purelyDigital: false,
          selectedShippingOption: 'standard', shippingCostCents: 500, taxCents: 0, discountCents: 0, grandTotalCents: 5500,
          minimumSubtotalCents: 1000, belowMinimum: false, minimumMessage: null, isPurchased: false, orderId: null,
        });
        expect(view.entries).toEqual([
          { itemId: 'p1', productId: 'p1', sku: 'SQ-1', productName: 'T-shirt', variantLabel: 'M', quantity: 2, unitPriceCents: 2500, lineTotalCents: 5000, productType: 1, fieldValues: [] },
        ]);
        expect(view.shippingOptions).toEqual([{ id: 'standard', name: 'Standard', costCents: 500 }, { id: 'express', name: 'Express', costCents: 1500 }]);
        expect(view.paymentProviders.map((p: { id: string }) => p.id)).toEqual(['test', 'manual']);
        expect(view.paymentProviders[1].label).toBe('Pay offline (bank transfer or on pickup)');
      });

      it('quote: tax by the address, express shipping, free standard shipping over $100', async () => {
        const token = await cartWith(['p1', 'SQ-1', 2]);
        expect(json(await quote({ cartToken: token, shippingAddress: NY, shippingOptionId: 'express' }))).toMatchObject({
          applicableTaxRules: [{ name: 'NY sales tax', ratePercent: 8.875 }], taxCents: 444, shippingCostCents: 1500, grandTotalCents: 6944,
        });
        expect(json(await quote({ cartToken: token, shippingAddress: CA }))).toMatchObject({ applicableTaxRules: [], taxCents: 0, grandTotalCents: 5500 });
        const big = await cartWith(['p3', 'HD-S', 3]);
        expect(json(await quote({ cartToken: big, shippingAddress: CA, shippingOptionId: 'standard' }))).toMatchObject({ subtotalCents: 12000, shippingCostCents: 0, grandTotalCents: 12000 });
      });

      it('quote: valid and invalid coupons, the discount in the totals and in the placed order', async () => {
        const token = await cartWith(['p1', 'SQ-1', 2]);
        const view = json(await quote({ cartToken: token, shippingAddress: CA, couponCodes: ['welcome10', 'BOGUS'] }));
        expect(view).toMatchObject({
          coupons: ['WELCOME10', 'BOGUS'], validCoupons: [{ code: 'WELCOME10', description: '10% off', discountCents: 500 }],
          invalidCoupons: [{ code: 'BOGUS', reason: 'This coupon code is not valid.' }], discountCents: 500, grandTotalCents: 5000,
        });
        const placed = await place(token, { shippingAddress: CA, couponCodes: ['WELCOME10', 'BOGUS'] });
        expect(placed.statusCode, placed.body).toBe(200);
        const order = (await store.read.orders.get(json(placed).orderId))!;
        expect(order).toMatchObject({ subtotal: 5000, discountTotal: 500, shippingTotal: 500, taxTotal: 0, grandTotal: 5000, couponCodes: ['WELCOME10'] });
      });

      it("minimum subtotal: the seed's text in the view, and placing is refused with 422", async () => {
        const token = await cartWith(['pdig', 'DIG-1', 1]);
        expect(json(await h.inject({ method: 'GET', url: `/api/commerce/checkout?cartToken=${token}` }))).toMatchObject({
          subtotalCents: 300, belowMinimum: true, minimumMessage: 'To check out, your order subtotal must be $10.00 or more.',
          requiresShipping: false, shippingOptions: [], purelyDigital: true,
          // Nothing to collect: offline payment offers no pickup.
          paymentProviders: [expect.objectContaining({ id: 'test' }), { id: 'manual', label: 'Pay offline (bank transfer)', kind: 'offline' }],
        });
        const response = await place(token, { shippingAddress: null, shippingOptionId: null });
        expect(response.statusCode).toBe(422);
        expect(json(response)).toEqual({ code: 'BELOW_MINIMUM_SUBTOTAL', error: 'To check out, your order subtotal must be $10.00 or more.' });
        expect(await orderCount()).toBe(0);
      });

      it('an unknown or expired cart token is a 404, a bad query a 400', async () => {
        expect(json(await h.inject({ method: 'GET', url: '/api/commerce/checkout?cartToken=nope' })).code).toBe('CART_NOT_FOUND');
        expect((await h.inject({ method: 'GET', url: '/api/commerce/checkout' })).statusCode).toBe(400);
      });
      it("a signed-in visitor's cart asked for with no session (signed out in another tab) says so: 401, never a bare not-found; no order", async () => {
        const anonymous = await cartWith(['p1', 'SQ-1', 1]);
        const login = await h.inject(withCrumb({ method: 'POST', url: '/api/site-users/account/session', payload: { email: 'alice@example.com', password: USER_PASSWORD }, cookies: { CART: anonymous } }));
        expect(login.statusCode, login.body).toBe(200);
        const session = cookieOf(login, 'SiteUserSecureAuthToken')!.value;
        // The signed-in checkout works.
        expect((await h.inject({ method: 'GET', url: `/api/commerce/checkout?cartToken=${anonymous}`, cookies: { SiteUserSecureAuthToken: session } })).statusCode).toBe(200);
        const signedOut = { code: 'NOT_AUTHENTICATED', error: 'You are signed out. Sign in again to check out this cart.' };
        const view = await h.inject({ method: 'GET', url: `/api/commerce/checkout?cartToken=${anonymous}` });
        expect(view.statusCode).toBe(401);
        expect(json(view)).toEqual(signedOut);
        expect(json(await quote({ cartToken: anonymous, shippingAddress: NY }))).toEqual(signedOut);
        const placed = await place(anonymous);
        expect(placed.statusCode).toBe(401);
        expect(json(placed)).toEqual(signedOut);
        expect(await orderCount()).toBe(0);
        // A session that has ended counts as none.
        await h.inject(withCrumb({ method: 'DELETE', url: '/api/site-users/account/session', cookies: { SiteUserSecureAuthToken: session } }));
        expect(json(await h.inject({ method: 'GET', url: `/api/commerce/checkout?cartToken=${anonymous}`, cookies: { SiteUserSecureAuthToken: session } }))).toEqual(signedOut);
      });
    });

    describe('placing', () => {
      it('the test card pays: order #1 then #2, stock down, cart purchased with its orderId, receipt queued', async () => {
        const token = await cartWith(['p1', 'SQ-1', 2], ['p2', 'SQ-2A', 1]);
        const response = await place(token);
        expect(response.statusCode, response.body).toBe(200);
        const body = json(response);
        expect(body).toMatchObject({ orderNumber: 1, status: 'paid', testMode: true, confirmationUrl: `/commerce/orders/${body.orderId}/confirmed` });
        expect(await stockOf('p1', 'v1')).toBe(3);
        const cart = (await store.read.getCart(token))!;
        expect(cart).toMatchObject({ isPurchased: true, orderId: body.orderId });
        const order = (await store.read.getOrder(body.orderId))!;
        expect(order).toMatchObject({
          id: body.orderId, purchasedCartId: token, testMode: true, websiteId: 'w1', grandTotal: 6200 + 500 + 550, shippingTotal: 500, taxTotal: 550,
          items: [expect.objectContaining({ sku: 'SQ-1', productName: 'T-shirt', quantity: 2, unitPrice: 2500 }), expect.objectContaining({ sku: 'SQ-2A', productName: 'Mug', quantity: 1, unitPrice: 1200 })],
        });
        const mail = await store.read.listOutbox();
        expect(mail).toHaveLength(1);
        expect(mail[0]).toMatchObject({ to: 'buyer@example.com', subject: 'Your order #1 from Test Shop' });
        expect(mail[0]!.body).toContain('2 × T-shirt (M): $50.00');
        expect(mail[0]!.body).not.toContain('4242 4242');
        // One review link per product bought, to its reviews request page (209), in text and HTML.
        const links = [...mail[0]!.body.matchAll(/: (\S+\/review\?productId=\S+)/g)].map((m) => m[1]!);
        expect(links.map((link) => { const url = new URL(link); return `${url.pathname}${url.search}`; })).toEqual(['/review?productId=p1', '/review?productId=p2']);
        expect(mail[0]!.html).toContain(`<a href="${links[0]}">Review T-shirt</a>`);
        const again = await place(await cartWith(['p1', 'SQ-1', 1]));
        expect(json(again).orderNumber).toBe(2);
      });

      it('a declined card: 402 next to the card number, and no order, stock, cart or mail change', async () => {
        const token = await cartWith(['p1', 'SQ-1', 1]);
        const response = await place(token, { payment: DECLINED });
        expect(response.statusCode).toBe(402);
        expect(json(response)).toEqual({ code: 'PAYMENT_DECLINED', error: 'Your card was declined.', errors: { cardNumber: 'Your card was declined.' } });
        expect(await orderCount()).toBe(0);
        expect(await stockOf('p1', 'v1')).toBe(5);
        expect((await store.read.getCart(token))!.isPurchased).toBe(false);
        expect(await store.read.listOutbox()).toEqual([]);
        expect(response.body).not.toContain('4000000000000002');
      });

      it('a total other than the one the buyer was shown (the cart changed in another tab) is 409 CART_CHANGED, before any payment', async () => {
        const token = await cartWith(['p1', 'SQ-1', 1]);
        const shown = json(await quote({ cartToken: token, shippingAddress: NY, shippingOptionId: 'standard' })).grandTotalCents as number;
        // Another tab adds one more: the summary on this page still shows `shown`.
        await h.inject(withCrumb({ method: 'POST', url: '/api/commerce/shopping-cart/entries', payload: { itemId: 'p1', sku: 'SQ-1', quantity: 1 }, cookies: { CART: token } }));
        const stale = await place(token, { expectedTotalCents: shown });
        expect(stale.statusCode).toBe(409);
        expect(json(stale).code).toBe('CART_CHANGED');
        expect(await orderCount()).toBe(0);
        expect(await stockOf('p1', 'v1')).toBe(5);
        const now = json(await quote({ cartToken: token, shippingAddress: NY, shippingOptionId: 'standard' })).grandTotalCents as number;
        expect(now).toBeGreaterThan(shown);
        expect((await place(token, { expectedTotalCents: now })).statusCode).toBe(200);
        expect(await stockOf('p1', 'v1')).toBe(3);
      });

      it('other lines at the same total (a tee swapped for a tank top of its price in another tab) are 409 CART_CHANGED by the lines the buyer was shown; no order', async () => {
        const token = await cartWith(['p1', 'SQ-1', 1]);
        const shown = json(await quote({ cartToken: token, shippingAddress: NY, shippingOptionId: 'standard' }));
        expect(shown.linesKey).toMatch(/^[0-9a-f]{32}$/);
        // Another tab: the tank top in, the tee out. The total the checkout shows is unchanged.
        await h.inject(withCrumb({ method: 'POST', url: '/api/commerce/shopping-cart/entries', payload: { itemId: 'ptwin', sku: 'TWIN-1', quantity: 1 }, cookies: { CART: token } }));
        const teeLine = (await store.read.getCart(token))!.entries.find((entry) => entry.sku === 'SQ-1')!;
        expect((await h.inject(withCrumb({ method: 'DELETE', url: `/api/commerce/shopping-cart/entries/${teeLine.id}`, cookies: { CART: token } }))).statusCode).toBe(200);
        const now = json(await quote({ cartToken: token, shippingAddress: NY, shippingOptionId: 'standard' }));
        expect(now.grandTotalCents).toBe(shown.grandTotalCents);
        expect(now.linesKey).not.toBe(shown.linesKey);
        const stale = await place(token, { expectedTotalCents: shown.grandTotalCents, expectedLinesKey: shown.linesKey });
        expect(stale.statusCode).toBe(409);
        expect(json(stale)).toMatchObject({ code: 'CART_CHANGED', error: 'Your cart changed while you were checking out. Please review the totals.' });
        expect(await orderCount()).toBe(0);
        expect(await stockOf('ptwin', 'vtwin')).toBe(5);
        // Shown the new lines, the buyer places them.
        expect((await place(token, { expectedTotalCents: now.grandTotalCents, expectedLinesKey: now.linesKey })).statusCode).toBe(200);
        expect(await stockOf('ptwin', 'vtwin')).toBe(4);
      });

      it('a coupon that lapsed between applying and paying is said in its own words (409), never charged silently without it', async () => {
        const token = await cartWith(['p1', 'SQ-1', 2]);
        const shown = json(await quote({ cartToken: token, shippingAddress: CA, shippingOptionId: 'standard', couponCodes: ['HOURLY'] }));
        expect(shown.validCoupons).toEqual([expect.objectContaining({ code: 'HOURLY', discountCents: 1000 })]);
        h.clock.now = START + 60 * 60_000;
        const late = await place(token, { shippingAddress: CA, couponCodes: ['HOURLY'], expectedTotalCents: shown.grandTotalCents, expectedLinesKey: shown.linesKey });
        expect(late.statusCode).toBe(409);
        expect(json(late)).toEqual({
          code: 'CART_CHANGED',
          error: 'A coupon you applied no longer applies: This coupon has expired. Please review the totals.',
          errors: { couponCodes: 'This coupon has expired.' },
        });
        expect(await orderCount()).toBe(0);
        expect(await stockOf('p1', 'v1')).toBe(5);
        const now = json(await quote({ cartToken: token, shippingAddress: CA, shippingOptionId: 'standard', couponCodes: ['HOURLY'] }));
        expect(now.grandTotalCents).toBe(shown.grandTotalCents + 1000);
        expect((await place(token, { shippingAddress: CA, couponCodes: ['HOURLY'], expectedTotalCents: now.grandTotalCents, expectedLinesKey: now.linesKey })).statusCode).toBe(200);
      });

      it('a direct caller sending no expected total is told its coupon lapsed (the same 409 and words), never charged the full price silently', async () => {
        const token = await cartWith(['p1', 'SQ-1', 2]);
        const shown = json(await quote({ cartToken: token, shippingAddress: CA, shippingOptionId: 'standard', couponCodes: ['HOURLY'] }));
        expect(shown.validCoupons).toEqual([expect.objectContaining({ code: 'HOURLY', discountCents: 1000 })]);
        const authorize = vi.spyOn(testCardProvider, 'authorize');
        h.clock.now = START + 60 * 60_000;
        const late = await place(token, { shippingAddress: CA, couponCodes: ['hourly'] });
        expect(late.statusCode).toBe(409);
        expect(json(late)).toEqual({
          code: 'CART_CHANGED',
          error: 'A coupon you applied no longer applies: This coupon has expired. Please review the totals.',
          errors: { couponCodes: 'This coupon has expired.' },
        });
        expect(authorize).not.toHaveBeenCalled();
        authorize.mockRestore();
        expect(await orderCount()).toBe(0);
        expect(await stockOf('p1', 'v1')).toBe(5);
        // Without the coupon the caller places at the full price, and the answer says what it charged.
        const full = await place(token, { shippingAddress: CA });
        expect(full.statusCode, full.body).toBe(200);
        expect(json(full)).toMatchObject({ grandTotalCents: shown.grandTotalCents + 1000, couponCodes: [] });
        // A code the store never had discounted no quote: it is not a lapse, and the answer names what applied.
        const other = await cartWith(['p1', 'SQ-1', 2]);
        const withUnknown = await place(other, { shippingAddress: CA, couponCodes: ['WELCOME10', 'NOSUCH'] });
        expect(withUnknown.statusCode, withUnknown.body).toBe(200);
        expect(json(withUnknown)).toMatchObject({ grandTotalCents: 5000, couponCodes: ['WELCOME10'] });
      });

      it('an address part too long is a field error naming the field and its limit, from placing and from the schema alike', async () => {
        const token = await cartWith(['p1', 'SQ-1', 1]);
        const visitorText = 'Ünit 9 '.repeat(30);
        // Past ADDRESS_FIELD_MAX (200 as read: an emoji counts once) but inside the schema's bound.
        const placed = await place(token, { shippingAddress: { ...NY, city: 'x'.repeat(201), line2: visitorText } });
        expect(placed.statusCode).toBe(400);
        expect(json(placed)).toEqual({
          error: 'Please correct the highlighted fields.',
          code: 'CHECKOUT_INVALID',
          errors: { 'shippingAddress.city': 'The city can be at most 200 characters.', 'shippingAddress.line2': 'The apartment or suite line can be at most 200 characters.' },
        });
        expect(placed.body).not.toContain('Ünit');
        // 200 emoji are 400 UTF-16 units and fit.
        const emoji = await place(token, { shippingAddress: { ...NY, line1: '🏠'.repeat(200) } });
        expect(emoji.statusCode, emoji.body).toBe(200);
        // Past the schema's bound: the same field error (before: 400 BAD_REQUEST "Invalid shippingAddress.").
        const other = await cartWith(['p1', 'SQ-1', 1]);
        for (const send of [(address: object) => place(other, { shippingAddress: address }), (address: object) => quote({ cartToken: other, shippingAddress: address })]) {
          const response = await send({ ...NY, line1: 'y'.repeat(5000) });
          expect(response.statusCode).toBe(400);
          expect(json(response)).toEqual({ error: 'Please correct the highlighted fields.', code: 'CHECKOUT_INVALID', errors: { 'shippingAddress.line1': 'The street address can be at most 200 characters.' } });
          expect(json(await send({ ...NY, country: 'U'.repeat(500) })).errors).toEqual({ 'shippingAddress.country': 'Choose a country.' });
          // A wrong type is no length problem: the schema's own answer stands.
          expect(json(await send({ ...NY, city: 5 }))).toMatchObject({ code: 'BAD_REQUEST' });
        }
        expect(await orderCount()).toBe(1);
      });

      it('an address no shipping option serves is refused at the shipping field, never shipped free', async () => {
        const seed = await ordersSeed();
        const usOnly = COMMERCE.shippingOptions!.map((option) => ({ ...option, countries: ['US'] }));
        seed.site.settings = { ...seed.site.settings, commerce: { ...COMMERCE, shippingOptions: usOnly } };
        h = await freshHarness(store, { seed });
        const token = await cartWith(['p1', 'SQ-1', 1]);
        const toronto = { ...NY, city: 'Toronto', region: 'ON', postalCode: 'M5V 2T6', country: 'CA' };
        expect(json(await quote({ cartToken: token, shippingAddress: toronto }))).toMatchObject({ shippingOptions: [], selectedShippingOption: null, shippingCostCents: 0, noShippingToAddress: true });
        expect(json(await quote({ cartToken: token, shippingAddress: NY }))).toMatchObject({ selectedShippingOption: 'standard', noShippingToAddress: false });
        for (const shippingOptionId of [undefined, 'standard']) {
          const placed = await place(token, { shippingAddress: toronto, shippingOptionId });
          expect(placed.statusCode, placed.body).toBe(400);
          expect(json(placed)).toEqual({ error: 'Please correct the highlighted fields.', code: 'CHECKOUT_INVALID', errors: { shippingOptionId: 'We do not ship to that address.' } });
        }
        expect(await orderCount()).toBe(0);
        expect((await place(token, { shippingAddress: NY })).statusCode).toBe(200);
      });

      it('field errors are reported together, keyed as the checkout fields', async () => {
        const token = await cartWith(['p1', 'SQ-1', 1]);
        const response = await place(token, {
          email: 'not-an-email', shippingAddress: { ...NY, firstName: ' ', country: 'USA' }, shippingOptionId: 'teleport',
          payment: { provider: 'test', cardNumber: '4242424242424241', expMonth: 13, expYear: 2030, cvc: '1' },
        });
        expect(response.statusCode).toBe(400);
        expect(json(response)).toMatchObject({
          code: 'CHECKOUT_INVALID',
          errors: {
            email: 'Enter a valid email address.', 'shippingAddress.firstName': 'Enter your first name.', 'shippingAddress.country': 'Choose a country.',
            shippingOptionId: 'Choose a shipping option.', cardNumber: 'Enter a valid card number.', expiry: 'Enter a valid expiry date.', cvc: 'Enter a valid security code.',
          },
        });
        const missing = await place(token, { shippingAddress: undefined, payment: { provider: 'paypal' } });
        expect(json(missing).errors).toEqual({ shippingAddress: 'Enter a shipping address.', payment: 'Choose a payment method.' });
        expect(await orderCount()).toBe(0);
      });

      it('the place route needs the crumb', async () => {
        const token = await cartWith(['p1', 'SQ-1', 1]);
        const response = await h.inject({ method: 'POST', url: '/api/commerce/checkout/place', payload: { cartToken: token } });
        expect(response.statusCode).toBe(403);
        expect(json(response).code).toBe('CRUMB_FAIL');
      });

      it('orders to be paid offline are limited per IP (each holds its stock); card orders are not', async () => {
        h = await freshHarness(store, { seed: await ordersSeed(), limits: { offlineOrders: { limit: 2, windowMs: 24 * 60 * 60_000 } } });
        for (let i = 0; i < 2; i++) expect((await place(await cartWith(['p1', 'SQ-1', 1]), { payment: { provider: 'manual' } })).statusCode).toBe(200);
        const before = await stockOf('p1', 'v1');
        const limited = await place(await cartWith(['p1', 'SQ-1', 1]), { payment: { provider: 'manual' } });
        expect(limited.statusCode).toBe(429);
        expect(json(limited).code).toBe('RATE_LIMITED');
        expect(await stockOf('p1', 'v1')).toBe(before);
        expect((await place(await cartWith(['p1', 'SQ-1', 1]))).statusCode).toBe(200);
      });

      it('placing and order look-ups are rate limited per IP (429 with Retry-After)', async () => {
        h = await freshHarness(store, { seed: await ordersSeed(), limits: { checkoutPlace: { limit: 1, windowMs: 60_000 }, orderLookup: { limit: 1, windowMs: 60_000 } } });
        const token = await cartWith(['p1', 'SQ-1', 1]);
        expect((await place(token)).statusCode).toBe(200);
        const limited = await place(token);
        expect(limited.statusCode).toBe(429);
        expect(json(limited).code).toBe('RATE_LIMITED');
        expect(limited.headers['retry-after']).toBeDefined();
        const lookup = () => h.inject(withCrumb({ method: 'POST', url: '/api/commerce/order-status', payload: { orderNumber: 9, email: 'a@example.com' } }));
        expect((await lookup()).statusCode).toBe(404);
        expect((await lookup()).statusCode).toBe(429);
      });

      it('manual payment: the order waits for payment and goes to the order received page', async () => {
        const token = await cartWith(['p1', 'SQ-1', 1]);
        const body = json(await place(token, { payment: { provider: 'manual' } }));
        expect(body).toMatchObject({ status: 'awaiting-payment', testMode: false, confirmationUrl: `/commerce/orders/${body.orderId}/received` });
        expect(await stockOf('p1', 'v1')).toBe(4);
      });

      it('a gift card issues a code; digital orders need no address', async () => {
        const made = await h.inject(withCrumb({ method: 'POST', url: '/api/commerce/checkout/gift-card', payload: { itemId: 'gc', sku: 'GC-50' } }));
        expect(made.statusCode, made.body).toBe(200);
        const token = json(made).cartToken;
        const response = await place(token, { shippingAddress: undefined, shippingOptionId: undefined });
        expect(response.statusCode, response.body).toBe(200);
        const order = (await store.read.orders.get(json(response).orderId))!;
        expect(order.giftCardCodes).toHaveLength(1);
        expect(order.giftCardCodes[0]).toMatch(/^[A-Z2-9]{4}(-[A-Z2-9]{4}){3}$/);
        expect(await store.read.orders.listGiftCards(order.id)).toEqual([{ code: order.giftCardCodes[0], balanceCents: 5000, initialCents: 5000 }]);
        expect((await store.read.listOutbox())[0]!.body).toContain(order.giftCardCodes[0]);
        const wrong = await h.inject(withCrumb({ method: 'POST', url: '/api/commerce/checkout/gift-card', payload: { itemId: 'p1', sku: 'SQ-1' } }));
        expect(wrong.statusCode).toBe(404);
        expect(json(wrong)).toMatchObject({ code: 'GIFT_CARD_NOT_FOUND', error: 'Gift card not found.' });
      });

      it('a gift card paid offline gets its code once the owner marks the order paid, by mail', async () => {
        const token = json(await h.inject(withCrumb({ method: 'POST', url: '/api/commerce/checkout/gift-card', payload: { itemId: 'gc', sku: 'GC-50' } }))).cartToken;
        const placed = json(await place(token, { shippingAddress: undefined, shippingOptionId: undefined, payment: { provider: 'manual' } }));
        expect(placed.status).toBe('awaiting-payment');
        // Unpaid: no code anywhere, and the receipt says when it comes.
        expect((await store.read.orders.get(placed.orderId))!.giftCardCodes).toEqual([]);
        expect(await store.read.orders.listGiftCards(placed.orderId)).toEqual([]);
        const [receipt, ...none] = await store.read.listOutbox();
        expect(none).toEqual([]);
        expect(receipt!.body).toContain('Your gift card code comes by mail once payment arrives.');
        expect(receipt!.body).not.toMatch(/Gift card code/);
        expect((await h.inject({ method: 'POST', url: `/api/commerce/orders/${placed.orderId}/status`, payload: { status: 'paid' }, headers: adminHeaders() })).statusCode).toBe(200);
        const paid = (await store.read.orders.get(placed.orderId))!;
        expect(paid.giftCardCodes).toHaveLength(1);
        expect(await store.read.orders.listGiftCards(placed.orderId)).toEqual([{ code: paid.giftCardCodes[0], balanceCents: 5000, initialCents: 5000 }]);
        const mails = await store.read.listOutbox();
        expect(mails).toHaveLength(2);
        const codes = mails.filter((mail) => mail.body.includes(`Gift card code: ${paid.giftCardCodes[0]}`));
        expect(codes.map((mail) => mail.to)).toEqual([receipt!.to]);
      });

      it(`a digital line paid by card gets a download token; its file is counted ${DOWNLOAD_LIMIT} times at most, even at once, and a cancel closes it`, async () => {
        // Four, over the store's minimum subtotal.
        const token = await cartWith(['pdig', 'DIG-1', 4]);
        const placed = json(await place(token, { shippingAddress: undefined, shippingOptionId: undefined }));
        const order = (await store.read.orders.get(placed.orderId))!;
        expect(order.downloadToken).toMatch(DOWNLOAD_TOKEN);
        expect(await store.read.orders.findByDownloadToken(order.downloadToken!)).toMatchObject({ id: order.id });
        const take = () => store.read.orders.takeDownload(order.downloadToken!, 'pdig', DOWNLOAD_LIMIT, DOWNLOADABLE_STATUSES);
        const counts = await Promise.all(Array.from({ length: DOWNLOAD_LIMIT + 2 }, take));
        expect(counts.filter((count) => count !== null).sort((a, b) => a! - b!)).toEqual(Array.from({ length: DOWNLOAD_LIMIT }, (_, i) => i + 1));
        expect(counts.filter((count) => count === null)).toHaveLength(2);
        // Another file of the order has its own count; a cancel closes every one.
        expect(await store.read.orders.takeDownload(order.downloadToken!, 'other', DOWNLOAD_LIMIT, DOWNLOADABLE_STATUSES)).toBe(1);
        expect((await h.inject({ method: 'POST', url: `/api/commerce/orders/${order.id}/status`, payload: { status: 'cancelled' }, headers: adminHeaders() })).statusCode).toBe(200);
        expect(await store.read.orders.takeDownload(order.downloadToken!, 'other', DOWNLOAD_LIMIT, DOWNLOADABLE_STATUSES)).toBeNull();
        expect(await store.read.orders.downloadCounts(order.id)).toEqual({ pdig: DOWNLOAD_LIMIT, other: 1 });
        // A physical order has none; an offline one gets it when marked paid.
        const tee = json(await place(await cartWith(['p1', 'SQ-1', 1])));
        expect((await store.read.orders.get(tee.orderId))!.downloadToken).toBeUndefined();
        const offline = json(await place(await cartWith(['pdig', 'DIG-1', 4]), { shippingAddress: undefined, shippingOptionId: undefined, payment: { provider: 'manual' } }));
        expect((await store.read.orders.get(offline.orderId))!.downloadToken).toBeUndefined();
        await h.inject({ method: 'POST', url: `/api/commerce/orders/${offline.orderId}/status`, payload: { status: 'paid' }, headers: adminHeaders() });
        const paid = (await store.read.orders.get(offline.orderId))!;
        expect(paid.downloadToken).toMatch(DOWNLOAD_TOKEN);
        expect(await store.read.orders.findByDownloadToken(paid.downloadToken!)).toMatchObject({ id: offline.orderId });
      });

      it('a subscription records its billing period and goes to the subscription confirmed page', async () => {
        const made = await h.inject(withCrumb({ method: 'POST', url: '/api/3/commerce/cart/subscription', payload: { itemId: 'psub', sku: 'SUB-1', qty: 1 } }));
        const token = json(made).cartToken;
        await store.transaction(async (repo) => {
          const product = (await repo.getProduct('psub'))!;
          await repo.putProduct({ ...product, subscriptionPlan: { billingPeriod: { value: 2, unit: 'WEEK' }, numBillingCycles: 6 } }, 6);
        });
        const body = json(await place(token));
        expect(body.confirmationUrl).toBe(`/commerce/orders/${body.orderId}/subscription-confirmed`);
        const [subscription] = await store.read.orders.listSubscriptions(body.orderId);
        expect(subscription).toMatchObject({ itemId: 'psub', sku: 'SUB-1', billingPeriod: { value: 2, unit: 'WEEK' }, numBillingCycles: 6, status: 'active', email: 'buyer@example.com' });
        expect(subscription!.nextBillingOn - subscription!.createdOn).toBe(14 * 24 * 60 * 60 * 1000);
      });
    });

    describe('coupon guesses (limit couponGuesses: distinct unknown codes per client IP)', () => {
      const LIMIT = { couponGuesses: { limit: 3, windowMs: 60 * 60_000 } };
      const quoteFrom = (payload: Record<string, unknown>, remoteAddress = '127.0.0.1') =>
        h.inject({ method: 'POST', url: '/api/commerce/checkout/quote', payload, remoteAddress });
      const limitedText = 'Too many coupon codes were tried. Please try again in 60 minutes.';

      it('past the limit a new code is 429 RATE_LIMITED, known or not; the codes checked before keep working', async () => {
        h = await freshHarness(store, { seed: await ordersSeed(), limits: LIMIT });
        const token = await cartWith(['p1', 'SQ-1', 2]);
        // The buyer's own coupon, then three misses: every one answered as usual.
        expect(json(await quote({ cartToken: token, couponCodes: ['WELCOME10'] })).discountCents).toBe(500);
        const three = await quote({ cartToken: token, couponCodes: ['WELCOME10', 'GUESS1', 'guess2 ', 'GUESS3'] });
        expect(three.statusCode, three.body).toBe(200);
        expect(json(three).invalidCoupons.map((c: { code: string }) => c.code)).toEqual(['GUESS1', 'GUESS2', 'GUESS3']);
        // A fourth miss is refused, in the spec's shape, with the coupon field's message.
        const fourth = await quote({ cartToken: token, couponCodes: ['WELCOME10', 'GUESS4'] });
        expect(fourth.statusCode).toBe(429);
        expect(json(fourth)).toEqual({ error: 'Too many requests.', code: 'RATE_LIMITED', errors: { couponCodes: limitedText } });
        expect(fourth.headers['retry-after']).toBe('3600');
        // A code that exists but was never sent from here is refused the same way: no oracle.
        const known = await quote({ cartToken: token, couponCodes: ['FIVEOFF'] });
        expect(known.statusCode).toBe(429);
        expect(json(known)).toEqual(json(fourth));
        // The applied coupon, and the misses already answered, go on as before.
        const again = await quote({ cartToken: token, shippingAddress: NY, couponCodes: ['WELCOME10', 'GUESS1'] });
        expect(again.statusCode, again.body).toBe(200);
        expect(json(again)).toMatchObject({ discountCents: 500, invalidCoupons: [{ code: 'GUESS1', reason: 'This coupon code is not valid.' }] });
        // Quotes without coupons are never limited by it.
        expect((await quote({ cartToken: token, shippingAddress: CA })).statusCode).toBe(200);
        // Another address has its own count; the window's end frees this one.
        expect((await quoteFrom({ cartToken: token, couponCodes: ['GUESS4'] }, '10.0.0.7')).statusCode).toBe(200);
        h.clock.now += 60 * 60_000;
        expect((await quote({ cartToken: token, couponCodes: ['GUESS4', 'FIVEOFF'] })).statusCode).toBe(200);
      });

      it('one mistyped code re-sent with every address and shipping change counts once', async () => {
        h = await freshHarness(store, { seed: await ordersSeed(), limits: { couponGuesses: { limit: 2, windowMs: 60 * 60_000 } } });
        const token = await cartWith(['p1', 'SQ-1', 2]);
        expect(json(await quote({ cartToken: token, couponCodes: ['WELCOM10'] })).invalidCoupons).toHaveLength(1);
        let quotes = 0;
        for (const address of [NY, CA, NY, CA, NY, CA, NY, CA, NY, CA]) {
          for (const shippingOptionId of ['standard', 'express']) {
            const response = await quote({ cartToken: token, shippingAddress: address, shippingOptionId, couponCodes: ['WELCOM10', 'WELCOME10'] });
            expect(response.statusCode, response.body).toBe(200);
            quotes++;
          }
        }
        expect(quotes).toBe(20);
        // The typo took one place of two: one more miss is answered, the next refused.
        expect((await quote({ cartToken: token, couponCodes: ['OTHER1'] })).statusCode).toBe(200);
        expect((await quote({ cartToken: token, couponCodes: ['OTHER2'] })).statusCode).toBe(429);
      });

      it('placing counts its unknown codes too, and past the limit is refused before any payment', async () => {
        h = await freshHarness(store, { seed: await ordersSeed(), limits: { couponGuesses: { limit: 2, windowMs: 60 * 60_000 } } });
        const token = await cartWith(['p1', 'SQ-1', 2]);
        const placedFirst = await place(await cartWith(['p1', 'SQ-1', 1]), { couponCodes: ['PLACE1', 'PLACE2'] });
        expect(placedFirst.statusCode, placedFirst.body).toBe(200);
        const ordersBefore = await orderCount();
        const stockBefore = await stockOf('p1', 'v1');
        const refused = await place(token, { couponCodes: ['PLACE3'] });
        expect(refused.statusCode).toBe(429);
        expect(json(refused)).toMatchObject({ code: 'RATE_LIMITED', errors: { couponCodes: limitedText } });
        expect(await orderCount()).toBe(ordersBefore);
        expect(await stockOf('p1', 'v1')).toBe(stockBefore);
        // Nor do quotes find a way around what placing counted.
        expect((await quote({ cartToken: token, couponCodes: ['PLACE4'] })).statusCode).toBe(429);
        // A known code placed before the limit was reached still places.
        expect((await quote({ cartToken: token, couponCodes: ['PLACE1'] })).statusCode).toBe(200);
      });
    });

    describe('a product the owner removed from the catalogue while it sat in a cart', () => {
      const UNAVAILABLE = 'Sorry, this item is no longer available. Please remove it from your cart.';
      /** The owner takes the tank top out of catalog.json; the next start's sync hides it. */
      async function ownerRemovesTankTop(): Promise<void> {
        const seed = await ordersSeed();
        seed.products = seed.products!.filter((product) => product.id !== 'ptwin');
        await syncSiteContent(store.client, seed);
      }

      it('the cart says so at its entry (not the out-of-stock sentence); B26 refuses it in the same words; it can be removed', async () => {
        const token = await cartWith(['p1', 'SQ-1', 1], ['ptwin', 'TWIN-1', 1]);
        await ownerRemovesTankTop();
        const cart = json(await h.inject({ method: 'GET', url: '/api/commerce/shopping-cart', cookies: { CART: token } }));
        const [tee, tank] = cart.entries;
        expect(tee.unavailable).toBeUndefined();
        expect(tank.unavailable).toEqual({ code: 'ITEM_UNAVAILABLE', message: UNAVAILABLE });
        const more = await h.inject(withCrumb({ method: 'PUT', url: `/api/commerce/shopping-cart/entries/${tank.id}`, payload: { quantity: 2 }, cookies: { CART: token } }));
        expect(more.statusCode).toBe(409);
        expect(json(more)).toEqual({ code: 'ITEM_UNAVAILABLE', error: UNAVAILABLE });
        const removed = await h.inject(withCrumb({ method: 'DELETE', url: `/api/commerce/shopping-cart/entries/${tank.id}`, cookies: { CART: token } }));
        expect(removed.statusCode).toBe(200);
        expect(json(removed).shoppingCart.entries.map((entry: { itemId: string }) => entry.itemId)).toEqual(['p1']);
      });

      it('the cart still counts the line in its subtotal: B0.4 makes subtotalCents the sum of every entry\'s subTotal (the pill and the C6 minimum read it); Place order refuses the cart until it is removed', async () => {
        const token = await cartWith(['p1', 'SQ-1', 1], ['ptwin', 'TWIN-1', 1]);
        await ownerRemovesTankTop();
        const cart = json(await h.inject({ method: 'GET', url: '/api/commerce/shopping-cart', cookies: { CART: token } }));
        expect(cart.subtotalCents).toBe(cart.entries.reduce((sum: number, entry: { subTotal: number }) => sum + entry.subTotal, 0));
        expect(cart.entries.map((entry: { subTotal: number }) => entry.subTotal)).toEqual([2500, 2500]);
      });

      it('Place order is refused before any payment with ITEM_UNAVAILABLE naming the line; without it the rest is ordered and charged alone', async () => {
        const token = await cartWith(['p1', 'SQ-1', 2], ['ptwin', 'TWIN-1', 1]);
        const shown = json(await quote({ cartToken: token, shippingAddress: NY, shippingOptionId: 'standard' }));
        await ownerRemovesTankTop();
        const authorize = vi.spyOn(testCardProvider, 'authorize');
        const refused = await place(token, { expectedTotalCents: shown.grandTotalCents, expectedLinesKey: shown.linesKey });
        expect(refused.statusCode).toBe(409);
        expect(json(refused)).toEqual({
          code: 'ITEM_UNAVAILABLE',
          error: 'Sorry, an item in your cart is no longer available. Please remove it from your cart to check out.',
          errors: { ptwin: UNAVAILABLE },
        });
        // A direct caller with no expected total is refused alike.
        expect(json(await place(token)).code).toBe('ITEM_UNAVAILABLE');
        expect(await orderCount()).toBe(0);
        expect(await stockOf('p1', 'v1')).toBe(5);
        expect(authorize).not.toHaveBeenCalled();
        authorize.mockRestore();

        const tank = (await store.read.getCart(token))!.entries.find((entry) => entry.itemId === 'ptwin')!;
        expect(tank.available).toBe(false);
        await h.inject(withCrumb({ method: 'DELETE', url: `/api/commerce/shopping-cart/entries/${tank.id}`, cookies: { CART: token } }));
        const now = json(await quote({ cartToken: token, shippingAddress: NY, shippingOptionId: 'standard' }));
        expect(now.entries.map((entry: { itemId: string }) => entry.itemId)).toEqual(['p1']);
        const placed = await place(token, { expectedTotalCents: now.grandTotalCents, expectedLinesKey: now.linesKey });
        expect(placed.statusCode, placed.body).toBe(200);
        expect(json(placed).grandTotalCents).toBe(now.grandTotalCents);
        const order = (await store.read.orders.get(json(placed).orderId))!;
        expect(order.items.map((item) => item.itemId)).toEqual(['p1']);
        expect(order.subtotal).toBe(5000);
      });

      it('a product removed between the pre-check and the lock takes no stock and makes no order (the locked read refuses it)', async () => {
        const token = await cartWith(['ptwin', 'TWIN-1', 1]);
        const tankStock = await stockOf('ptwin', 'vtwin');
        // The owner's sync lands while the payment is asked: after the pre-check, before the lock.
        const authorize = testCardProvider.authorize.bind(testCardProvider);
        const spy = vi.spyOn(testCardProvider, 'authorize').mockImplementation(async (request) => {
          const outcome = await authorize(request);
          await ownerRemovesTankTop();
          return outcome;
        });
        try {
          const refused = await place(token, { shippingAddress: NY });
          expect(refused.statusCode).toBe(409);
          expect(json(refused)).toMatchObject({ code: 'ITEM_UNAVAILABLE', errors: { ptwin: UNAVAILABLE } });
        } finally {
          spy.mockRestore();
        }
        expect(await orderCount()).toBe(0);
        const rows = await store.client.query('SELECT qty_in_stock FROM variants WHERE product_id = $1 AND id = $2', ['ptwin', 'vtwin']);
        expect(Number(rows[0]!.qty_in_stock)).toBe(tankStock);
      });
    });

    describe('idempotency and concurrency', () => {
      it('a retry with the same key answers the same order; another key finds the cart purchased', async () => {
        const token = await cartWith(['p1', 'SQ-1', 1]);
        const first = await place(token, { idempotencyKey: 'retry-key-1' });
        const second = await place(token, { idempotencyKey: 'retry-key-1' });
        expect(second.statusCode).toBe(200);
        expect(json(second)).toEqual(json(first));
        const other = await place(token, { idempotencyKey: 'retry-key-2' });
        expect(other.statusCode).toBe(409);
        expect(json(other).code).toBe('CART_PURCHASED');
        expect(await orderCount()).toBe(1);
        expect(await store.read.listOutbox()).toHaveLength(1);
        expect(await stockOf('p1', 'v1')).toBe(4);
      });

      it('the same submission sent twice at once makes one order', async () => {
        const token = await cartWith(['p1', 'SQ-1', 1]);
        const [a, b] = await Promise.all([place(token, { idempotencyKey: 'double-click' }), place(token, { idempotencyKey: 'double-click' })]);
        expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
        expect(json(a).orderId).toBe(json(b).orderId);
        expect(await orderCount()).toBe(1);
        expect(await stockOf('p1', 'v1')).toBe(4);
      });

      it('two visitors racing for the last item: exactly one order, the other OUT_OF_STOCK', async () => {
        const first = await cartWith(['plast', 'LAST-1', 1]);
        const second = await cartWith(['plast', 'LAST-1', 1]);
        const results = await Promise.all([place(first), place(second)]);
        expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
        const refused = results.find((r) => r.statusCode === 409)!;
        expect(json(refused)).toMatchObject({ code: 'OUT_OF_STOCK', errors: { plast: 'Sorry, we do not have enough of that item available.' } });
        expect(await stockOf('plast', 'vlast')).toBe(0);
        expect(await orderCount()).toBe(1);
        expect(await store.read.listOutbox()).toHaveLength(1);
      });
    });

    describe('owner and buyer', () => {
      it("an order placed signed in records its site user, listed newest first a page at a time; one placed signed out is no one's, whatever its email", async () => {
        const login = await h.inject(withCrumb({ method: 'POST', url: '/api/site-users/account/session', payload: { email: 'alice@example.com', password: USER_PASSWORD } }));
        expect(login.statusCode, login.body).toBe(200);
        const session = cookieOf(login, 'SiteUserSecureAuthToken')!.value;
        const placeAs = async (cookies: Record<string, string>) => {
          const cart = await h.inject(withCrumb({ method: 'POST', url: '/api/commerce/shopping-cart/entries', payload: { itemId: 'p3', sku: 'HD-S', quantity: 1 }, cookies }));
          expect(cart.statusCode, cart.body).toBe(200);
          h.clock.now += 1000;
          const placed = await h.inject(
            withCrumb({
              method: 'POST',
              url: '/api/commerce/checkout/place',
              cookies,
              payload: { cartToken: json(cart).shoppingCart.id, email: 'alice@example.com', shippingAddress: NY, shippingOptionId: 'standard', payment: VISA, idempotencyKey: `key-${++keys}-000` },
            }),
          );
          expect(placed.statusCode, placed.body).toBe(200);
          return json(placed).orderNumber as number;
        };
        const mine = [await placeAs({ SiteUserSecureAuthToken: session }), await placeAs({ SiteUserSecureAuthToken: session })];
        // Signed out, with the account's own email: not the account's.
        const signedOut = await placeAs({});
        mine.push(await placeAs({ SiteUserSecureAuthToken: session }));
        expect(mine).toEqual([1, 2, 4]);
        expect(signedOut).toBe(3);

        const numbers = (orders: { orderNumber: number }[]) => orders.map((order) => order.orderNumber);
        const first = await store.read.orders.listForSiteUser('w1', 'u1', null, 2);
        expect(numbers(first)).toEqual([4, 2]);
        expect(first[0]!.siteUserId).toBe('u1');
        const last = first.at(-1)!;
        expect(numbers(await store.read.orders.listForSiteUser('w1', 'u1', { createdOn: last.createdOn, id: last.id }, 2))).toEqual([1]);
        expect(await store.read.orders.listForSiteUser('w1', 'u2', null, 10)).toEqual([]);
        expect(await store.read.orders.listForSiteUser('other-site', 'u1', null, 10)).toEqual([]);
        expect((await store.read.orders.findOwnByNumber('w1', 'u1', 3))).toBeNull();
        expect((await store.read.orders.findOwnByNumber('w1', 'u1', 4))?.orderNumber).toBe(4);
        expect((await store.read.orders.list('w1', null, 10)).find((order) => order.orderNumber === 3)?.siteUserId).toBeNull();
        // The buyer's look-up by number and email does not say which account placed it; the owner's list does.
        const lookedUp = json(await h.inject(withCrumb({ method: 'POST', url: '/api/commerce/order-status', payload: { orderNumber: 4, email: 'alice@example.com' } })));
        expect(lookedUp.order.orderNumber).toBe(4);
        expect(lookedUp.order).not.toHaveProperty('siteUserId');
        const owned = json(await h.inject({ method: 'GET', url: '/api/commerce/orders?limit=1', headers: adminHeaders() }));
        expect(owned.orders[0]).toMatchObject({ orderNumber: 4, siteUserId: 'u1' });
      });

      it('the admin list pages newest first with a cursor and needs the admin token', async () => {
        for (let n = 0; n < 3; n++) {
          h.clock.now += 1000;
          expect((await place(await cartWith(['p3', 'HD-S', 1]))).statusCode).toBe(200);
        }
        expect((await h.inject({ method: 'GET', url: '/api/commerce/orders' })).statusCode).toBe(401);
        const first = json(await h.inject({ method: 'GET', url: '/api/commerce/orders?limit=2', headers: adminHeaders() }));
        expect(first.orders.map((o: { orderNumber: number }) => o.orderNumber)).toEqual([3, 2]);
        expect(first.orders[0]).toMatchObject({ email: 'buyer@example.com', status: 'paid', grandTotal: 4000 + 500 + 355, items: [expect.objectContaining({ sku: 'HD-S' })] });
        expect(first.nextCursor).toEqual(expect.any(String));
        const second = json(await h.inject({ method: 'GET', url: `/api/commerce/orders?limit=2&cursor=${first.nextCursor}`, headers: adminHeaders() }));
        expect(second.orders.map((o: { orderNumber: number }) => o.orderNumber)).toEqual([1]);
        expect(second.nextCursor).toBeNull();
        const bad = await h.inject({ method: 'GET', url: '/api/commerce/orders?cursor=zzz', headers: adminHeaders() });
        expect(json(bad).code).toBe('INVALID_CURSOR');
      });

      it('status: awaiting-payment → paid → fulfilled; cancelling restocks once; a wrong move is 409', async () => {
        const manual = json(await place(await cartWith(['p1', 'SQ-1', 2]), { payment: { provider: 'manual' } }));
        const status = (orderId: string, value: string) =>
          h.inject({ method: 'POST', url: `/api/commerce/orders/${orderId}/status`, headers: adminHeaders(), payload: { status: value } });
        expect(await stockOf('p1', 'v1')).toBe(3);
        expect(json(await status(manual.orderId, 'paid')).status).toBe('paid');
        expect(json(await status(manual.orderId, 'fulfilled')).status).toBe('fulfilled');
        expect(json(await status(manual.orderId, 'cancelled')).code).toBe('INVALID_ORDER_STATUS');

        const other = json(await place(await cartWith(['p1', 'SQ-1', 3])));
        expect(await stockOf('p1', 'v1')).toBe(0);
        const cancelled = await status(other.orderId, 'cancelled');
        expect(json(cancelled)).toMatchObject({ status: 'cancelled', restockedOn: expect.any(String) });
        expect(await stockOf('p1', 'v1')).toBe(3);
        // The buyer is told, in the same transaction, of the refund the test card made.
        const told = (await store.read.listOutbox()).filter((mail) => mail.subject.endsWith('is cancelled'));
        expect(told).toHaveLength(1);
        expect(told[0]).toMatchObject({ to: 'buyer@example.com', subject: expect.stringMatching(new RegExp(`^Your order #${other.orderNumber} from .+ is cancelled$`)) });
        expect(told[0]!.body).toContain(`Test Shop refunded ${money(json(cancelled).grandTotal)} to Visa ending 4242 (test). This was a test order: no real money moved.`);
        const twice = await status(other.orderId, 'cancelled');
        expect(twice.statusCode).toBe(409);
        expect(json(twice).code).toBe('INVALID_ORDER_STATUS');
        expect(await stockOf('p1', 'v1')).toBe(3);
        expect((await status('nope', 'paid')).statusCode).toBe(404);

        // Cancelling a gift card order empties its cards.
        const gift = json(await h.inject(withCrumb({ method: 'POST', url: '/api/commerce/checkout/gift-card', payload: { itemId: 'gc', sku: 'GC-50' } }))).cartToken;
        const giftOrder = json(await place(gift, { shippingAddress: undefined, shippingOptionId: undefined }));
        expect((await status(giftOrder.orderId, 'cancelled')).statusCode).toBe(200);
        expect((await store.read.orders.listGiftCards(giftOrder.orderId)).map((card) => card.balanceCents)).toEqual([0]);
        expect(json(await status(other.orderId, 'shipped')).code).toBe('BAD_REQUEST');
      });

      it('the owner finds orders by status, by number (#2 or 2) or by part of the email, a page at a time within the filter', async () => {
        const emails = ['ada@example.com', 'grace_h@example.com', 'gracehopper@example.com', 'ADA@Example.com'];
        for (const [index, email] of emails.entries()) {
          const extra = index % 2 === 1 ? { payment: { provider: 'manual' } } : {};
          h.clock.now += 1000;
          expect((await place(await cartWith(['p1', 'SQ-1', 1]), { email, ...extra })).statusCode).toBe(200);
        }
        const find = async (query: string) => {
          const response = await h.inject({ method: 'GET', url: `/api/commerce/orders?${query}`, headers: adminHeaders() });
          expect(response.statusCode, response.body).toBe(200);
          return json(response) as { orders: { orderNumber: number }[]; nextCursor: string | null };
        };
        const numbers = async (query: string) => (await find(query)).orders.map((order) => order.orderNumber);
        expect(await numbers('status=awaiting-payment')).toEqual([4, 2]);
        expect(await numbers('status=paid')).toEqual([3, 1]);
        expect(await numbers(`q=${encodeURIComponent('#2')}`)).toEqual([2]);
        expect(await numbers('q=3')).toEqual([3]);
        expect(await numbers('q=ADA%40')).toEqual([4, 1]);
        expect(await numbers('q=grace')).toEqual([3, 2]);
        // `_` is a letter here, not LIKE's any-one-character: grace_h, not gracehopper.
        expect(await numbers('q=grace_')).toEqual([2]);
        expect(await numbers('q=grace&status=paid')).toEqual([3]);
        expect(await numbers('q=nobody')).toEqual([]);
        const first = await find('q=example&limit=3');
        expect(first.orders.map((order) => order.orderNumber)).toEqual([4, 3, 2]);
        expect(await numbers(`q=example&limit=3&cursor=${first.nextCursor}`)).toEqual([1]);
        const bad = await h.inject({ method: 'GET', url: '/api/commerce/orders?status=shipped', headers: adminHeaders() });
        expect(bad.statusCode).toBe(400);
        expect(json(bad).code).toBe('BAD_QUERY');
        const long = await h.inject({ method: 'GET', url: `/api/commerce/orders?q=${'x'.repeat(201)}`, headers: adminHeaders() });
        expect(json(long)).toEqual({ code: 'BAD_QUERY', error: 'q can be at most 200 characters.' });
      });

      it('the orders export: CSV with a byte-order mark, a buyer\'s non-Latin name kept, a formula defused, narrowed like the list', async () => {
        const yamada = { ...NY, firstName: '山田', lastName: '太郎' };
        const formula = { ...NY, firstName: '=HYPERLINK("http://evil.example","x")', lastName: 'Z' };
        h.clock.now += 1000;
        const first = json(await place(await cartWith(['p1', 'SQ-1', 1]), { email: 'zoë@example.com', shippingAddress: yamada }));
        h.clock.now += 1000;
        const second = json(await place(await cartWith(['p1', 'SQ-1', 2]), { shippingAddress: formula, payment: { provider: 'manual' } }));
        const response = await h.inject({ method: 'GET', url: '/api/admin/orders/export', headers: adminHeaders() });
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
        expect(response.headers['content-disposition']).toBe('attachment; filename="orders.csv"');
        expect(response.body.startsWith('\uFEFF"Order","Placed on","Email","Status","Currency","Subtotal","Discount","Shipping","Tax","Total","Payment","Refund","Ships to","Items"\r\n')).toBe(true);
        const lines = response.body.slice(1).split('\r\n');
        expect(lines).toHaveLength(4);
        expect(lines[1]).toMatch(new RegExp(`^"#${second.orderNumber}","[^"]+","buyer@example.com","awaiting-payment","USD","50.00","0.00","5.00","4.44","59.44","Bank transfer or pay on pickup","","'=HYPERLINK\\(""http://evil.example"",""x""\\) Z, 1 Main St, `));
        expect(lines[2]).toContain(`"#${first.orderNumber} (test)"`);
        expect(lines[2]).toContain('"zoë@example.com","paid"');
        expect(lines[2]).toContain('"山田 太郎, 1 Main St, ');
        expect(lines[2]).toContain('"1 × T-shirt (M)"');
        const narrowed = await h.inject({ method: 'GET', url: '/api/admin/orders/export?status=paid&q=zo%C3%AB', headers: adminHeaders() });
        expect(narrowed.body.slice(1).split('\r\n').filter((line) => line !== '')).toHaveLength(2);
        expect((await h.inject({ method: 'GET', url: '/api/admin/orders/export' })).statusCode).toBe(401);
        expect(json(await h.inject({ method: 'GET', url: '/api/admin/orders/export?status=nope', headers: adminHeaders() })).code).toBe('BAD_QUERY');
      });

      const status = (orderId: string, value: string) =>
        h.inject({ method: 'POST', url: `/api/commerce/orders/${orderId}/status`, headers: adminHeaders(), payload: { status: value } });
      const cancelMails = async () => (await store.read.listOutbox()).filter((mail) => mail.subject.endsWith('is cancelled'));

      it('cancelling a card order refunds its total once, before the cancel commits, and records it', async () => {
        const placed = json(await place(await cartWith(['p1', 'SQ-1', 1])));
        const cancelled = json(await status(placed.orderId, 'cancelled'));
        expect(cancelled).toMatchObject({ status: 'cancelled', grandTotal: 3222 });
        expect(cancelled.refund).toEqual({ kind: 'refunded', amountCents: 3222, reference: expect.stringMatching(/^test_refund_/), label: 'Visa ending 4242 (test)', on: expect.any(String) });
        expect(testRefunds.get(refundKey(placed.orderId))).toMatchObject({ refundReference: cancelled.refund.reference, amountCents: 3222 });
        // The owner's view of the order keeps it.
        expect(json(await h.inject({ method: 'GET', url: `/api/commerce/orders/${placed.orderId}`, headers: adminHeaders() })).refund).toEqual(cancelled.refund);
        // A second press, or a second owner: 409, no second refund, no second mail.
        const refundsBefore = testRefunds.size;
        expect(json(await status(placed.orderId, 'cancelled')).code).toBe('INVALID_ORDER_STATUS');
        expect(testRefunds.size).toBe(refundsBefore);
        expect(await cancelMails()).toHaveLength(1);
        // The buyer's look-up shows the refund without the provider's reference.
        const lookup = json(await h.inject(withCrumb({ method: 'POST', url: '/api/commerce/order-status', payload: { orderNumber: placed.orderNumber, email: 'buyer@example.com' } })));
        expect(lookup.order.refund).toEqual({ kind: 'refunded', amountCents: 3222, reference: null, label: 'Visa ending 4242 (test)', on: cancelled.refund.on });
      });

      it('a cancel whose commit failed after the refund is retried without a second refund: the same key answers the first', async () => {
        const placed = json(await place(await cartWith(['p1', 'SQ-1', 1])));
        const refundsBefore = testRefunds.size;
        // The connection drops at the commit of the refund's answer (the cancel's second
        // transaction), once: the refund was made, the cancel rolled back, the claim stays.
        const real = store.transaction;
        let transactions = 0;
        store.transaction = (async (work: Parameters<SqlStore['transaction']>[0]) =>
          real.call(store, async (repo) => {
            const value = await work(repo);
            if (++transactions === 2) throw new Error('connection lost at commit');
            return value;
          })) as SqlStore['transaction'];
        try {
          expect((await status(placed.orderId, 'cancelled')).statusCode).toBe(500);
        } finally {
          store.transaction = real;
        }
        expect(transactions).toBe(2);
        expect(testRefunds.size).toBe(refundsBefore + 1);
        expect(json(await h.inject({ method: 'GET', url: `/api/commerce/orders/${placed.orderId}`, headers: adminHeaders() }))).toMatchObject({ status: 'paid', refund: null, refundPending: true });
        // While the claim may still be a live request's, nothing moves the order; nothing is mailed or restocked.
        expect(json(await status(placed.orderId, 'cancelled')).code).toBe('REFUND_PENDING');
        expect(json(await status(placed.orderId, 'fulfilled')).code).toBe('REFUND_PENDING');
        expect(await stockOf('p1', 'v1')).toBe(4);
        // Past the claim's time the asking request is taken for dead: a cancel asks again with the same key.
        h.clock.now += REFUND_CLAIM_MS + 1;
        const retried = json(await status(placed.orderId, 'cancelled'));
        expect(retried).toMatchObject({ status: 'cancelled', refundPending: false, refund: { kind: 'refunded', reference: testRefunds.get(refundKey(placed.orderId))!.refundReference } });
        expect(testRefunds.size).toBe(refundsBefore + 1);
        expect(await stockOf('p1', 'v1')).toBe(5);
        expect(await cancelMails()).toHaveLength(1);
      });

      it('the refund is asked with no transaction open: while the provider stalls, the store serves other requests, and the order takes no other move', async () => {
        const placed = json(await place(await cartWith(['p1', 'SQ-1', 1])));
        const other = json(await place(await cartWith(['p2', 'SQ-2B', 1])));
        const events: string[] = [];
        let release!: () => void;
        const released = new Promise<void>((resolve) => (release = resolve));
        let asked!: () => void;
        const askedOnce = new Promise<void>((resolve) => (asked = resolve));
        const realRefund = testCardProvider.refund;
        const refund = vi.spyOn(testCardProvider, 'refund').mockImplementation(async (...args) => {
          events.push('refund asked');
          asked();
          await released;
          events.push('refund answered');
          return realRefund.apply(testCardProvider, args);
        });
        try {
          const cancelling = status(placed.orderId, 'cancelled');
          await askedOnce;
          // The embedded store has one connection: under the old row lock these waited for the provider.
          const fulfilled = await status(other.orderId, 'fulfilled');
          expect(fulfilled.statusCode, fulfilled.body).toBe(200);
          events.push('other order fulfilled');
          const cart = await h.inject({ method: 'GET', url: `/api/commerce/checkout?cartToken=${await cartWith(['p1', 'SQ-1', 1])}` });
          expect(cart.statusCode).toBe(200);
          events.push('cart read');
          // The same order meanwhile: a second cancel and a fulfil are 409 REFUND_PENDING, no second refund asked.
          const again = await status(placed.orderId, 'cancelled');
          expect([again.statusCode, json(again)]).toEqual([409, { code: 'REFUND_PENDING', error: "This order's refund is under way. Wait a moment, then look at the order again." }]);
          expect(json(await status(placed.orderId, 'fulfilled')).code).toBe('REFUND_PENDING');
          expect(json(await h.inject({ method: 'GET', url: `/api/commerce/orders/${placed.orderId}`, headers: adminHeaders() }))).toMatchObject({ status: 'paid', refundPending: true });
          release();
          const cancelled = await cancelling;
          expect(cancelled.statusCode, cancelled.body).toBe(200);
          expect(json(cancelled)).toMatchObject({ status: 'cancelled', refundPending: false, refund: { kind: 'refunded' } });
          expect(refund).toHaveBeenCalledTimes(1);
        } finally {
          release();
          refund.mockRestore();
        }
        expect(events).toEqual(['refund asked', 'other order fulfilled', 'cart read', 'refund answered']);
        expect(await cancelMails()).toHaveLength(1);
        // The buyer's look-up never names the claim.
        const lookup = json(await h.inject(withCrumb({ method: 'POST', url: '/api/commerce/order-status', payload: { orderNumber: placed.orderNumber, email: 'buyer@example.com' } })));
        expect(lookup.order).not.toHaveProperty('refundPending');
        expect(lookup.order).not.toHaveProperty('refundClaim');
      });

      it('a provider that throws leaves the order paid and its refund unsettled: no other move until a cancel asks again (same key)', async () => {
        const placed = json(await place(await cartWith(['p1', 'SQ-1', 1])));
        const refund = vi.spyOn(testCardProvider, 'refund').mockRejectedValueOnce(new Error('socket hang up'));
        try {
          const failed = await status(placed.orderId, 'cancelled');
          expect([failed.statusCode, json(failed)]).toEqual([502, { code: 'REFUND_FAILED', error: 'The refund failed, so the order was not cancelled: the payment provider could not be reached.' }]);
          expect(json(await h.inject({ method: 'GET', url: `/api/commerce/orders/${placed.orderId}`, headers: adminHeaders() }))).toMatchObject({ status: 'paid', restockedOn: null, refundPending: true });
          expect(await stockOf('p1', 'v1')).toBe(4);
          expect(await cancelMails()).toHaveLength(0);
          // The money may be gone: shipping it now could give the goods away for free.
          const fulfil = await status(placed.orderId, 'fulfilled');
          expect([fulfil.statusCode, json(fulfil)]).toEqual([
            409,
            { code: 'CANCEL_REFUND_UNFINISHED', error: "This order's cancel did not finish its refund: cancel it again to finish it before anything else." },
          ]);
          expect(json(await status(placed.orderId, 'cancelled'))).toMatchObject({ status: 'cancelled', refundPending: false, refund: { kind: 'refunded' } });
          expect(refund).toHaveBeenCalledTimes(2);
          expect(new Set(refund.mock.calls.map((call) => call[2]))).toEqual(new Set([refundKey(placed.orderId)]));
        } finally {
          refund.mockRestore();
        }
        expect(await cancelMails()).toHaveLength(1);
      });

      it('two cancels at once (a double press, two owners): one refund, one 200 and one 409', async () => {
        const placed = json(await place(await cartWith(['p1', 'SQ-1', 1])));
        const refundsBefore = testRefunds.size;
        const answers = await Promise.all([status(placed.orderId, 'cancelled'), status(placed.orderId, 'cancelled')]);
        expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
        expect(testRefunds.size).toBe(refundsBefore + 1);
        expect(await stockOf('p1', 'v1')).toBe(5);
        expect(await cancelMails()).toHaveLength(1);
      });

      it('an order of a provider this server does not have is not cancelled: 502 REFUND_FAILED naming it', async () => {
        const placed = json(await place(await cartWith(['p1', 'SQ-1', 1])));
        const order = (await store.read.orders.get(placed.orderId))!;
        await store.transaction((repo) => repo.orders.update({ ...order, payment: { ...order.payment, provider: 'acme-pay' } }));
        const refused = await status(placed.orderId, 'cancelled');
        expect(refused.statusCode).toBe(502);
        expect(json(refused)).toEqual({ code: 'REFUND_FAILED', error: 'The refund failed, so the order was not cancelled: the payment provider "acme-pay" is not available on this server.' });
        expect((await store.read.orders.get(placed.orderId))!.status).toBe('paid');
      });

      it('a refused refund leaves the order paid, its stock out and no mail, with 502 REFUND_FAILED', async () => {
        const placed = json(await place(await cartWith(['p1', 'SQ-1', 1]), { payment: { ...VISA, cardNumber: REFUND_FAILS_CARD } }));
        expect(await stockOf('p1', 'v1')).toBe(4);
        const refused = await status(placed.orderId, 'cancelled');
        expect(refused.statusCode).toBe(502);
        expect(json(refused)).toEqual({ code: 'REFUND_FAILED', error: `The refund failed, so the order was not cancelled: ${REFUND_REFUSED}` });
        const order = json(await h.inject({ method: 'GET', url: `/api/commerce/orders/${placed.orderId}`, headers: adminHeaders() }));
        expect(order).toMatchObject({ status: 'paid', restockedOn: null, refund: null, refundPending: false });
        expect(await stockOf('p1', 'v1')).toBe(4);
        expect(await cancelMails()).toHaveLength(0);
      });

      it('pay offline: cancelling unpaid refunds nothing; once marked paid, the owner refunds it by hand and the mail says so', async () => {
        const unpaid = json(await place(await cartWith(['p1', 'SQ-1', 1]), { payment: { provider: 'manual' } }));
        expect(json(await status(unpaid.orderId, 'cancelled'))).toMatchObject({ status: 'cancelled', refund: null });
        const paid = json(await place(await cartWith(['p1', 'SQ-1', 1]), { payment: { provider: 'manual' } }));
        expect(json(await status(paid.orderId, 'paid')).status).toBe('paid');
        // Marked paid, the buyer hears the payment arrived: the receipt again, Paid.
        const received = (await store.read.listOutbox()).filter((mail) => mail.subject.startsWith('Payment received: '));
        expect(received.map((mail) => [mail.to, mail.subject])).toEqual([['buyer@example.com', `Payment received: Your order #${paid.orderNumber} from Test Shop`]]);
        expect(received[0]!.body).toContain(`Order #${paid.orderNumber} (Paid)`);
        const cancelled = json(await status(paid.orderId, 'cancelled'));
        expect(cancelled.refund).toEqual({ kind: 'by-hand', amountCents: 3222, reference: null, label: 'Bank transfer or pay on pickup', on: expect.any(String) });
        const [first, second] = (await cancelMails()).sort((a, b) => (a.subject < b.subject ? -1 : 1));
        expect(first!.body).toContain('Nothing is owed: please do not send a payment for it.');
        expect(second!.body).toContain(`You paid $32.22 (Bank transfer or pay on pickup); Test Shop will pay it back to you directly.`);
        expect(await stockOf('p1', 'v1')).toBe(5);
      });

      it("the owner sees each file's downloads used of the limit, resets one file's count and mails the links again; never the token", async () => {
        const digital = { shippingAddress: undefined, shippingOptionId: undefined };
        const placed = json(await place(await cartWith(['pdig', 'DIG-1', 4]), digital));
        const stored = (await store.read.orders.get(placed.orderId))!;
        const token = stored.downloadToken!;
        const get = async () => json(await h.inject({ method: 'GET', url: `/api/commerce/orders/${placed.orderId}`, headers: adminHeaders() }));
        const reset = (orderId: string, itemId: string) =>
          h.inject({ method: 'POST', url: `/api/commerce/orders/${orderId}/downloads/reset`, headers: adminHeaders(), payload: { itemId } });
        const resend = (orderId: string) => h.inject({ method: 'POST', url: `/api/commerce/orders/${orderId}/downloads/resend`, headers: adminHeaders() });
        const linkMails = async () => (await store.read.listOutbox()).filter((mail) => mail.subject.startsWith('Your downloads from '));
        expect(await get()).toMatchObject({ downloads: [{ itemId: 'pdig', title: 'Wallpaper', used: 0, limit: DOWNLOAD_LIMIT }], downloadsOpen: true });
        // The buyer used up the file: the list says so.
        for (let i = 0; i < DOWNLOAD_LIMIT; i++) await store.read.orders.takeDownload(token, 'pdig', DOWNLOAD_LIMIT, DOWNLOADABLE_STATUSES);
        expect(await store.read.orders.takeDownload(token, 'pdig', DOWNLOAD_LIMIT, DOWNLOADABLE_STATUSES)).toBeNull();
        const listed = json(await h.inject({ method: 'GET', url: '/api/commerce/orders?limit=5', headers: adminHeaders() })).orders.find((order: { id: string }) => order.id === placed.orderId);
        expect(listed.downloads).toEqual([{ itemId: 'pdig', title: 'Wallpaper', used: DOWNLOAD_LIMIT, limit: DOWNLOAD_LIMIT }]);
        // Reset: the link works DOWNLOAD_LIMIT times again.
        const afterReset = await reset(placed.orderId, 'pdig');
        expect(afterReset.statusCode, afterReset.body).toBe(200);
        expect(json(afterReset).downloads).toEqual([{ itemId: 'pdig', title: 'Wallpaper', used: 0, limit: DOWNLOAD_LIMIT }]);
        expect(await store.read.orders.takeDownload(token, 'pdig', DOWNLOAD_LIMIT, DOWNLOADABLE_STATUSES)).toBe(1);
        // Resend: one mail to the buyer with the link and what is left of it; nothing else of the order.
        const sent = await resend(placed.orderId);
        expect(sent.statusCode, sent.body).toBe(200);
        const mails = await linkMails();
        expect(mails.map((mail) => [mail.to, mail.subject])).toEqual([['buyer@example.com', `Your downloads from Test Shop (order #${placed.orderNumber})`]]);
        expect(mails[0]!.body).toContain(`Wallpaper: http://localhost/commerce/downloads/${token}/pdig (${DOWNLOAD_LIMIT - 1} downloads left)`);
        expect(mails[0]!.body).not.toContain(stored.payment.reference);
        // The owner's answers carry counts, never the buyer's token (it is the links).
        for (const body of [afterReset.body, sent.body, JSON.stringify(await get()), JSON.stringify(listed)]) expect(body).not.toContain(token);
        // A product the order does not hold as a download, an order with none, an unknown order.
        expect([(await reset(placed.orderId, 'p1')).statusCode, json(await reset(placed.orderId, 'p1'))]).toEqual([
          404,
          { code: 'DOWNLOAD_NOT_FOUND', error: 'This order has no download for that product.' },
        ]);
        const tee = json(await place(await cartWith(['p1', 'SQ-1', 1])));
        expect(json(await resend(tee.orderId))).toEqual({ code: 'DOWNLOAD_NOT_FOUND', error: 'This order has no downloads.' });
        expect(json(await resend('o-unknown')).code).toBe('ORDER_NOT_FOUND');
        // Not paid yet, or cancelled: the links are closed, so neither is done.
        const offline = json(await place(await cartWith(['pdig', 'DIG-1', 4]), { ...digital, payment: { provider: 'manual' } }));
        const closed = { code: 'DOWNLOADS_CLOSED', error: 'The downloads of this order are closed: it is not paid, or it was cancelled.' };
        expect([(await resend(offline.orderId)).statusCode, json(await resend(offline.orderId))]).toEqual([409, closed]);
        expect((await h.inject({ method: 'POST', url: `/api/commerce/orders/${placed.orderId}/status`, payload: { status: 'cancelled' }, headers: adminHeaders() })).statusCode).toBe(200);
        expect(json(await reset(placed.orderId, 'pdig'))).toEqual(closed);
        expect(json(await resend(placed.orderId))).toEqual(closed);
        expect(await get()).toMatchObject({ downloadsOpen: false, downloads: [{ itemId: 'pdig', used: 1 }] });
        expect(await linkMails()).toHaveLength(1);
      });

      it('"Email download links" mails the buyer at most downloadLinkResends.limit times an hour per order: then 429 RATE_LIMITED with Retry-After, no mail', async () => {
        const digital = { shippingAddress: undefined, shippingOptionId: undefined };
        const first = json(await place(await cartWith(['pdig', 'DIG-1', 4]), digital));
        const second = json(await place(await cartWith(['pdig', 'DIG-1', 4]), digital));
        const resend = (orderId: string) => h.inject({ method: 'POST', url: `/api/commerce/orders/${orderId}/downloads/resend`, headers: adminHeaders() });
        const linkMails = async (orderNumber: number) =>
          (await store.read.listOutbox()).filter((mail) => mail.subject === `Your downloads from Test Shop (order #${orderNumber})`).length;
        const { limit, windowMs } = DEFAULT_LIMITS.downloadLinkResends;
        // Before the bound every press queued a mail to the buyer: limit + 2 presses, limit + 2 mails.
        const answers: number[] = [];
        for (let i = 0; i < limit + 2; i++) answers.push((await resend(first.orderId)).statusCode);
        expect(answers).toEqual([...Array<number>(limit).fill(200), 429, 429]);
        expect(await linkMails(first.orderNumber)).toBe(limit);
        const refused = await resend(first.orderId);
        expect(refused.statusCode).toBe(429);
        expect(json(refused)).toEqual({ code: 'RATE_LIMITED', error: 'The download links of this order were emailed too often. Please try again in 60 minutes.' });
        expect(Number(refused.headers['retry-after'])).toBe(windowMs / 1000);
        // Per order: another buyer's links still go.
        expect((await resend(second.orderId)).statusCode).toBe(200);
        expect(await linkMails(second.orderNumber)).toBe(1);
        // A refused press (unknown order) uses up nothing; the next window sends again.
        for (let i = 0; i < limit + 1; i++) expect((await resend('o-unknown')).statusCode).toBe(404);
        h.clock.now += windowMs;
        expect((await resend(first.orderId)).statusCode).toBe(200);
        expect(await linkMails(first.orderNumber)).toBe(limit + 1);
      });

      it('"Email download links" pressed many times at once mails the buyer downloadLinkResends.limit times, the other presses 429', async () => {
        const digital = { shippingAddress: undefined, shippingOptionId: undefined };
        const placed = json(await place(await cartWith(['pdig', 'DIG-1', 4]), digital));
        const resend = () => h.inject({ method: 'POST', url: `/api/commerce/orders/${placed.orderId}/downloads/resend`, headers: adminHeaders() });
        const { limit } = DEFAULT_LIMITS.downloadLinkResends;
        // Checked and counted apart, 10 presses at once all found 0 sends and 10 mails went.
        const answers = (await Promise.all(Array.from({ length: limit + 7 }, resend))).map((answer) => answer.statusCode);
        expect(answers.filter((status) => status === 200)).toHaveLength(limit);
        expect(answers.filter((status) => status === 429)).toHaveLength(7);
        const mails = (await store.read.listOutbox()).filter((mail) => mail.subject === `Your downloads from Test Shop (order #${placed.orderNumber})`);
        expect(mails).toHaveLength(limit);
      });

      it("the buyer's look-up by number and email never answers the download token: the links go by mail to the order's own address, within the per-order limit", async () => {
        const digital = { shippingAddress: undefined, shippingOptionId: undefined };
        const placed = json(await place(await cartWith(['pdig', 'DIG-1', 4]), digital));
        const token = (await store.read.orders.get(placed.orderId))!.downloadToken!;
        const send = (payload: Record<string, unknown>) => h.inject(withCrumb({ method: 'POST', url: '/api/commerce/order-status/download-links', payload }));
        const linkMails = async () => (await store.read.listOutbox()).filter((mail) => mail.subject.startsWith('Your downloads from '));
        // Order numbers are sequential: whoever guesses the email gets the order, never the files.
        const lookup = await h.inject(withCrumb({ method: 'POST', url: '/api/commerce/order-status', payload: { orderNumber: placed.orderNumber, email: 'BUYER@example.com' } }));
        expect(lookup.statusCode).toBe(200);
        expect(lookup.body).not.toContain(token);
        expect(json(lookup).order).toMatchObject({ orderNumber: placed.orderNumber, downloadsOpen: true });
        expect(json(lookup).order).not.toHaveProperty('downloadToken');
        // Asked for the links: 202, a mail to the address the order holds, the answer without the token.
        const sent = await send({ orderNumber: placed.orderNumber, email: ' BUYER@example.com ' });
        expect([sent.statusCode, json(sent)]).toEqual([202, { sent: true }]);
        const mails = await linkMails();
        expect(mails.map((mail) => mail.to)).toEqual(['buyer@example.com']);
        expect(mails[0]!.body).toContain(`/commerce/downloads/${token}/pdig`);
        // A wrong email mails nothing and says only "not found"; the answer never echoes the address.
        const wrong = await send({ orderNumber: placed.orderNumber, email: 'guess@example.com' });
        expect([wrong.statusCode, json(wrong)]).toEqual([404, { code: 'ORDER_NOT_FOUND', error: 'Order not found.' }]);
        expect(wrong.body).not.toContain('guess@');
        // An order without downloads, one awaiting payment: nothing to mail.
        const tee = json(await place(await cartWith(['p1', 'SQ-1', 1])));
        expect(json(await send({ orderNumber: tee.orderNumber, email: 'buyer@example.com' })).code).toBe('DOWNLOAD_NOT_FOUND');
        const offline = json(await place(await cartWith(['pdig', 'DIG-1', 4]), { ...digital, payment: { provider: 'manual' } }));
        expect(json(await send({ orderNumber: offline.orderNumber, email: 'buyer@example.com' })).code).toBe('DOWNLOADS_CLOSED');
        // The buyer's requests and the owner's presses share the per-order bound on mails.
        const { limit } = DEFAULT_LIMITS.downloadLinkResends;
        const answers: number[] = [];
        for (let i = 1; i < limit + 1; i++) answers.push((await send({ orderNumber: placed.orderNumber, email: 'buyer@example.com' })).statusCode);
        expect(answers).toEqual([...Array<number>(limit - 1).fill(202), 429]);
        expect((await h.inject({ method: 'POST', url: `/api/commerce/orders/${placed.orderId}/downloads/resend`, headers: adminHeaders() })).statusCode).toBe(429);
        expect(await linkMails()).toHaveLength(limit);
      });

      it('the buyer looks an order up by number and email; a wrong email finds nothing', async () => {
        const placed = json(await place(await cartWith(['p1', 'SQ-1', 1])));
        const lookup = (payload: Record<string, unknown>) => h.inject(withCrumb({ method: 'POST', url: '/api/commerce/order-status', payload }));
        const found = await lookup({ orderNumber: placed.orderNumber, email: ' BUYER@example.com ' });
        expect(found.statusCode).toBe(200);
        expect(json(found).order).toMatchObject({ id: placed.orderId, orderNumber: 1, status: 'paid' });
        expect(json(found).order.payment.reference).toBeUndefined();
        expect(json(await lookup({ orderNumber: placed.orderNumber, email: 'other@example.com' })).code).toBe('ORDER_NOT_FOUND');
        expect((await lookup({ orderNumber: '1', email: 'x' })).statusCode).toBe(400);
      });
    });

    describe('the receipt over SMTP', () => {
      let sink: SmtpSink;
      beforeAll(async () => {
        sink = await startSmtpSink();
      });
      afterAll(async () => {
        await sink?.close();
      });

      it('reaches the SMTP server once; a restarted worker sends nothing again', async () => {
        sink.received.length = 0;
        const placed = json(await place(await cartWith(['p1', 'SQ-1', 1])));
        const transport = smtpTransport(sink.url);
        const worker = () => createOutboxWorker({ store, transport, from: 'Shop <shop@quire.test>', now: () => h.clock.now, log: () => {} });
        const first = worker();
        expect(await first.tick()).toEqual({ sent: 1, retried: 0, failed: 0 });
        await first.stop();
        const [mail] = await sink.waitFor(1);
        expect(mail).toMatchObject({ to: ['buyer@example.com'], subject: `Your order #${placed.orderNumber} from Test Shop` });
        expect(mail!.text).toContain('Order #1 (Paid)');
        const restarted = worker();
        expect(await restarted.tick()).toEqual({ sent: 0, retried: 0, failed: 0 });
        expect(sink.received).toHaveLength(1);
        transport.close();
      });
    });
  });
}

await onEachStore('orders API', 'orders', ordersSuite);
