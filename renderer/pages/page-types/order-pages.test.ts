import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { DOWNLOAD_LIMIT } from '../../orders/digital-downloads.ts';
import { setOrderStatus } from '../../orders/order-status.ts';
import { DOWNLOAD_TEXT } from '../download-route.ts';
import { MY_ORDERS_PAGE_SIZE, ORDER_STATUS_MESSAGES } from './order-pages.ts';
import { hashPassword } from '../../store/password.ts';
import { CRUMB } from '../../test-support/api-harness.ts';
import { sfContext, useDemoHarness } from '../../test-support/page-harness.ts';

// The order pages of issue 15 on the demo site, with orders placed through the checkout API:
// checkout (201) mounts the island, order confirmed (202), order received (207), subscription
// confirmed (206) and the order status look-up (211).

const h = useDemoHarness({ resetEach: true });
const ADDRESS = { firstName: 'Ada', lastName: 'Lovelace', line1: '1 Analytical Way', city: 'Albany', region: 'NY', postalCode: '12207', country: 'US' };
const body = (html: string) => html.slice(html.indexOf('<body'));

async function post(url: string, payload: unknown) {
  const response = await h.inject({ method: 'POST', url, cookies: { crumb: CRUMB }, headers: { 'x-csrf-token': CRUMB }, payload: payload as object });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as Record<string, any>;
}

async function place(payment: Record<string, unknown>, line = { itemId: 'tee', sku: 'TEE-S', quantity: 2 }) {
  const { shoppingCart } = await post('/api/commerce/shopping-cart/entries?express=true', { ...line, additionalFields: null });
  return post('/api/commerce/checkout/place', {
    cartToken: shoppingCart.id,
    email: 'Ada@Example.com',
    shippingAddress: ADDRESS,
    shippingOptionId: 'standard',
    couponCodes: ['WELCOME10'],
    payment,
    idempotencyKey: `key-${Math.random().toString(36).slice(2)}`,
  });
}

const TEST_CARD = { provider: 'test', cardNumber: '4242424242424242', expMonth: 12, expYear: 2034, cvc: '123' };

describe('order pages (issue 15)', () => {
  it('the checkout page mounts the checkout island on the cart token; the gift-card page on its item and sku', async () => {
    const { shoppingCart } = await post('/api/commerce/shopping-cart/entries?express=true', { itemId: 'tee', sku: 'TEE-S', quantity: 1, additionalFields: null });
    const page = await h.inject(`/checkout?cartToken=${shoppingCart.id}`);
    expect(page.statusCode).toBe(200);
    expect(body(page.body)).toContain(`data-island="checkout" data-checkout-kind="cart" data-cart-token="${shoppingCart.id}"`);
    expect(page.body).not.toContain('Payment is not');
    const gift = await h.inject('/checkout/gift-card?itemId=gift-card&sku=GC-50');
    expect(body(gift.body)).toContain('data-checkout-kind="gift-card" data-cart-token="" data-item-id="gift-card" data-sku="GC-50"');
  });

  it('order confirmed (202) shows Order #, lines with variants, totals, the address; sf-context has the seed fields only', async () => {
    const placed = await place(TEST_CARD);
    expect(placed.confirmationUrl).toBe(`/commerce/orders/${placed.orderId}/confirmed`);
    const page = await h.inject(placed.confirmationUrl);
    expect(page.statusCode).toBe(200);
    const html = body(page.body);
    expect(html).toContain(`Order #${placed.orderNumber}`);
    expect(html).toMatch(/<tr class="sf-order-line"><td>Classic Tee <span class="sf-order-variant">S<\/span><\/td><td>2<\/td><td>\$50\.00<\/td><\/tr>/);
    // $50 − 10 % = $45 discounted; standard shipping $5; NY tax 8.875 % of $45 = $3.99.
    expect(html).toContain('<dt>Discount</dt><dd>-$5.00</dd>');
    expect(html).toContain('<dt>Shipping</dt><dd>$5.00</dd>');
    expect(html).toContain('<dt>Tax</dt><dd>$3.99</dd>');
    expect(html).toContain('<dt>Total</dt><dd>$53.99</dd>');
    expect(html).toContain('Test mode: no payment was taken.');
    expect(html).toContain('Albany, NY 12207');
    const context = sfContext(page.body);
    expect(context.pageType).toBe(202);
    expect(context.order).toEqual({
      id: placed.orderId,
      purchasedCartId: expect.any(String),
      websiteId: 'demo-site',
      testMode: true,
      items: [{ sku: 'TEE-S', productName: 'Classic Tee', quantity: 2, unitPrice: 2500 }],
      grandTotal: 5399,
      shippingTotal: 500,
      taxTotal: 399,
    });
  });

  it("an engraving travels with the order: the confirmation page, the receipt and the owner's order API say what to make", async () => {
    const engraving = JSON.stringify({ 'engrave-text': 'For <Ada>', 'engrave-font': 'Script' });
    const { shoppingCart } = await post('/api/commerce/shopping-cart/entries?express=true', { itemId: 'mug', sku: 'MUG-1', quantity: 1, additionalFields: engraving });
    // The checkout summary (the island's view) shows it before the buyer pays.
    const view = (await h.inject(`/api/commerce/checkout?cartToken=${shoppingCart.id}`)).json() as { entries: { fieldValues: unknown }[] };
    expect(view.entries[0]!.fieldValues).toEqual([{ label: 'Engraving text', value: 'For <Ada>' }, { label: 'Font', value: 'Script' }]);
    const placed = await post('/api/commerce/checkout/place', {
      cartToken: shoppingCart.id,
      email: 'ada@example.com',
      shippingAddress: ADDRESS,
      shippingOptionId: 'standard',
      payment: TEST_CARD,
      idempotencyKey: 'engraved-mug-1',
    });
    const order = (await h.store.read.orders.get(placed.orderId))!;
    expect(order.items[0]).toMatchObject({
      sku: 'MUG-1',
      additionalFields: engraving,
      fieldValues: [{ label: 'Engraving text', value: 'For <Ada>' }, { label: 'Font', value: 'Script' }],
    });
    const html = body((await h.inject(placed.confirmationUrl)).body);
    expect(html).toContain('<dl class="sf-entry-fields"><div class="sf-entry-field"><dt>Engraving text</dt> <dd>For &lt;Ada&gt;</dd></div><div class="sf-entry-field"><dt>Font</dt> <dd>Script</dd></div></dl>');
    const [receipt] = await h.store.read.listOutbox();
    expect(receipt!.body).toContain('1 × Enamel Mug');
    expect(receipt!.body).toContain('\n  Engraving text: For <Ada>\n  Font: Script\n');
    expect(receipt!.html).toContain('<br><small>Engraving text: For &lt;Ada&gt;</small><br><small>Font: Script</small>');
  });

  it('order confirmed (202) promises a shipping mail only for an order that ships (a gift card does not)', async () => {
    const shipped = body((await h.inject((await place(TEST_CARD)).confirmationUrl)).body);
    expect(shipped).toContain('A receipt is on its way to Ada@Example.com. We will email you when it ships.');
    const { cartToken } = await post('/api/commerce/checkout/gift-card', { itemId: 'gift-card', sku: 'GC-25' });
    const gift = await post('/api/commerce/checkout/place', { cartToken, email: 'ada@example.com', payment: TEST_CARD, idempotencyKey: 'gift-card-key-1' });
    const html = body((await h.inject(gift.confirmationUrl)).body);
    expect(html).toContain('A receipt is on its way to ada@example.com.');
    expect(html).not.toContain('when it ships');
  });

  it('order received (207) for an order paid offline; its id under another page name is not found', async () => {
    const placed = await place({ provider: 'manual' });
    expect(placed.confirmationUrl).toBe(`/commerce/orders/${placed.orderId}/received`);
    const page = await h.inject(placed.confirmationUrl);
    expect(page.statusCode).toBe(200);
    expect(sfContext(page.body)).toMatchObject({ pageType: 207, order: { id: placed.orderId, testMode: false } });
    expect(body(page.body)).toContain(`Order #${placed.orderNumber}`);
    expect(body(page.body)).toContain('hold it until your payment arrives: pay by bank transfer or on pickup, quoting your order number.');
    expect((await h.inject(`/commerce/orders/${placed.orderId}/elsewhere`)).statusCode).toBe(404);
    expect((await h.inject('/commerce/orders/nope/received')).statusCode).toBe(404);
  });

  it('subscription confirmed (206) renders an order with its period', async () => {
    const { cartToken } = await post('/api/3/commerce/cart/subscription', { itemId: 'coffee-club', sku: 'COF-1', qty: 1, additionalFields: null });
    const placed = await post('/api/commerce/checkout/place', {
      cartToken, email: 'ada@example.com', shippingAddress: ADDRESS, shippingOptionId: 'standard', payment: TEST_CARD, idempotencyKey: 'subscription-key-1',
    });
    expect(placed.confirmationUrl).toBe(`/commerce/orders/${placed.orderId}/subscription-confirmed`);
    const page = await h.inject(placed.confirmationUrl);
    expect(page.statusCode).toBe(200);
    expect(sfContext(page.body).pageType).toBe(206);
    expect(body(page.body)).toContain('Subscription confirmed');
    expect(body(page.body)).toMatch(/Your subscription: \$[\d.]+ every /);
  });

  it('order status (211): a form; number and email find the order, a wrong email finds nothing, bad input is said by its field', async () => {
    const placed = await place(TEST_CARD);
    const empty = await h.inject('/commerce/orders/status');
    expect(empty.statusCode).toBe(200);
    expect(sfContext(empty.body).pageType).toBe(211);
    expect(body(empty.body)).toContain('<label for="sf-order-status-number">Order number</label>');
    // No look-up message on the empty form (the demo layout's own script-late note has a role=status too).
    expect(body(empty.body)).not.toContain('class="sf-order-status-message"');

    // The form POSTs: the email never travels in the URL.
    expect(body(empty.body)).toContain('<form class="sf-order-status-form" method="post" action="/commerce/orders/status">');
    const lookUp = (fields: Record<string, string>) =>
      h.inject({ method: 'POST', url: '/commerce/orders/status', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(fields).toString() });

    const found = await lookUp({ orderNumber: `#${placed.orderNumber}`, email: 'ada@example.com' });
    expect(found.statusCode).toBe(200);
    expect(found.headers['cache-control']).toContain('no-store');
    expect(found.headers.location).toBeUndefined();
    // The answer comes back with focus on it (the form's POST leaves focus nowhere): here the order.
    expect(body(found.body)).toContain(`<h2 class="sf-order-number" tabindex="-1" autofocus>Order #${placed.orderNumber}</h2>`);
    expect(body(found.body).match(/ autofocus/g)).toHaveLength(1);
    expect(body(found.body)).toContain('Status: <strong>Paid</strong>');
    // The look-up is not a purchase: no order in sf-context, so no purchase event.
    expect(sfContext(found.body).order).toBeNull();

    // The old GET query finds nothing: a link with an email in it shows the empty form.
    const byGet = await h.inject(`/commerce/orders/status?orderNumber=${placed.orderNumber}&email=ada%40example.com`);
    expect(body(byGet.body)).not.toContain('sf-order-number');
    expect(body(byGet.body)).not.toContain('ada@example.com');

    const wrong = await lookUp({ orderNumber: String(placed.orderNumber), email: 'eve@example.com' });
    expect(body(wrong.body)).toContain('<p class="sf-order-status-message" role="status" tabindex="-1" autofocus>We could not find an order with that number and email.');
    expect(body(wrong.body).match(/ autofocus/g)).toHaveLength(1);
    expect(body(wrong.body)).not.toContain('sf-order-line');

    const bad = await lookUp({ orderNumber: 'abc', email: 'nope' });
    const html = body(bad.body);
    expect(html).toContain('id="sf-order-status-number-error">Enter the order number from your receipt.</p>');
    expect(html).toContain('aria-invalid="true" aria-describedby="sf-order-status-email-error"');
    expect(html).toContain('value="abc"');
    // Focus goes to the first wrong field only; a wrong email alone takes it to the email.
    expect(html).toContain('aria-describedby="sf-order-status-number-error" autofocus>');
    expect(html.match(/ autofocus/g)).toHaveLength(1);
    const badEmail = body((await lookUp({ orderNumber: '1', email: 'nope' })).body);
    expect(badEmail).toContain('aria-describedby="sf-order-status-email-error" autofocus>');
    expect(badEmail.match(/ autofocus/g)).toHaveLength(1);
    expect(body(empty.body)).not.toContain(' autofocus');

    const junk = await h.inject({ method: 'POST', url: '/commerce/orders/status', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `email=${'x'.repeat(2000)}` });
    expect(junk.statusCode).toBe(400);
    expect(junk.json()).toMatchObject({ code: expect.any(String), error: expect.any(String) });
  });

  describe("order status (211) signed in: 'Your orders'", () => {
    async function signIn(email: string, password: string): Promise<string> {
      const login = await h.inject({ method: 'POST', url: '/api/site-users/account/session', cookies: { crumb: CRUMB }, headers: { 'x-csrf-token': CRUMB }, payload: { email, password } });
      expect(login.statusCode, login.body).toBe(200);
      return login.cookies.find((cookie) => cookie.name === 'SiteUserSecureAuthToken')!.value;
    }
    /** Places one small candle (30 in stock) as the session's user (or signed out), with the demo account's email either way. */
    async function placeAs(session: string | null): Promise<number> {
      const cookies: Record<string, string> = { crumb: CRUMB, ...(session ? { SiteUserSecureAuthToken: session } : {}) };
      const send = async (url: string, payload: object) => {
        const response = await h.inject({ method: 'POST', url, cookies, headers: { 'x-csrf-token': CRUMB }, payload });
        expect(response.statusCode, response.body).toBe(200);
        return response.json() as Record<string, any>;
      };
      const { shoppingCart } = await send('/api/commerce/shopping-cart/entries?express=true', { itemId: 'candle', sku: 'CDL-S', quantity: 1, additionalFields: null });
      h.clock.now += 60_000;
      const placed = await send('/api/commerce/checkout/place', {
        cartToken: shoppingCart.id, email: 'demo@example.com', shippingAddress: ADDRESS, shippingOptionId: 'standard', payment: TEST_CARD, idempotencyKey: `key-${Math.random().toString(36).slice(2)}`,
      });
      return placed.orderNumber as number;
    }
    const statusPage = (session: string | null, query = '') =>
      h.inject({ url: `/commerce/orders/status${query}`, cookies: session ? { SiteUserSecureAuthToken: session } : {} });
    const listed = (html: string) => [...html.matchAll(/<tr class="sf-my-order"><td><a href="([^"]+)">#(\d+)<\/a>/g)].map((match) => Number(match[2]));

    it("lists the account's own orders newest first (link, date in the site's zone, status, total), a page at a time; never another's, nor one placed signed out", async () => {
      const demo = await signIn('demo@example.com', 'demo-password');
      await h.store.read.putUser({ id: 'other-user', email: 'other@example.com', passwordHash: await hashPassword('other-password'), locale: null });
      const other = await signIn('other@example.com', 'other-password');

      // Signed in with nothing placed: the heading and a word on what will be listed.
      const none = body((await statusPage(demo)).body);
      expect(none).toContain('<h2 id="sf-my-orders-title">Your orders</h2>');
      expect(none).toContain('Orders you place while signed in are listed here.');

      const mine = [await placeAs(demo)];
      const signedOut = await placeAs(null);
      const others = await placeAs(other);
      for (let n = 0; n < MY_ORDERS_PAGE_SIZE; n++) mine.push(await placeAs(demo));

      const page = await statusPage(demo);
      expect(page.statusCode).toBe(200);
      expect(page.headers['cache-control']).toContain('no-store');
      const html = body(page.body);
      const newestFirst = [...mine].reverse();
      expect(listed(html)).toEqual(newestFirst.slice(0, MY_ORDERS_PAGE_SIZE));
      expect(listed(html)).not.toContain(signedOut);
      expect(listed(html)).not.toContain(others);
      // The lookup form is still there, below the list.
      expect(html.indexOf('sf-my-orders')).toBeLessThan(html.indexOf('sf-order-status-form'));
      const newest = newestFirst[0]!;
      const placedOn = (await h.store.read.orders.findOwnByNumber('demo-site', 'demo-user', newest))?.createdOn;
      const date = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'America/New_York' }).format(new Date(placedOn ?? h.clock.now));
      expect(html).toMatch(new RegExp(`<tr class="sf-my-order"><td><a href="/commerce/orders/status\\?order=${newest}">#${newest}</a></td><td>${date}</td><td>Paid</td><td>\\$\\d+\\.\\d\\d</td></tr>`));

      const more = /<p class="sf-my-orders-more"><a href="([^"]+)">Older orders<\/a>/.exec(html)?.[1];
      expect(more).toMatch(/^\/commerce\/orders\/status\?ordersAfter=[\w-]+$/);
      const second = body((await statusPage(demo, more!.slice('/commerce/orders/status'.length))).body);
      expect(listed(second)).toEqual(newestFirst.slice(MY_ORDERS_PAGE_SIZE));
      expect(second).not.toContain('sf-my-orders-more');
      expect(second).toContain('<a href="/commerce/orders/status">Newest orders</a>');
      // A cursor this server did not issue starts from the newest again, never a failed page.
      expect(listed(body((await statusPage(demo, '?ordersAfter=not*a*cursor')).body))).toEqual(newestFirst.slice(0, MY_ORDERS_PAGE_SIZE));

      // The other account sees its one order only; signed out, the page is as it was.
      expect(listed(body((await statusPage(other)).body))).toEqual([others]);
      const visitor = body((await statusPage(null)).body);
      expect(visitor).not.toContain('sf-my-orders');
      expect(visitor).toContain('<form class="sf-order-status-form"');
    });

    it("an order's link shows it to the account that placed it; another account's number, or signed out, is the form as ever", async () => {
      const demo = await signIn('demo@example.com', 'demo-password');
      const own = await placeAs(demo);
      const signedOut = await placeAs(null);
      const shown = body((await statusPage(demo, `?order=${own}`)).body);
      expect(shown).toContain(`<h2 class="sf-order-number" tabindex="-1" autofocus>Order #${own}</h2>`);
      expect(shown).toContain('Status: <strong>Paid</strong>');
      // Placed signed out with the account's own email: not the account's, so the link shows nothing.
      for (const [session, number] of [[demo, signedOut], [null, own]] as const) {
        const html = body((await statusPage(session, `?order=${number}`)).body);
        expect(html).not.toContain('sf-order-number');
        expect(html).not.toContain('sf-order-line');
        expect(html).toContain('<form class="sf-order-status-form"');
      }
      for (const junk of ['?order=abc', '?order=99999', `?order=${own}&order=x`, '?order=' + '9'.repeat(500)]) {
        expect((await statusPage(demo, junk)).statusCode).toBe(200);
      }
    });
  });

  it('order status (211) of a cancelled paid order says what was refunded, to which card, and never the refund reference', async () => {
    const placed = await place(TEST_CARD);
    let ids = 0;
    const cancelled = await setOrderStatus({ store: h.store, now: () => Date.now(), newId: (prefix) => `${prefix}_page_${++ids}` }, placed.orderId, 'cancelled');
    const found = await h.inject({
      method: 'POST',
      url: '/commerce/orders/status',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ orderNumber: String(placed.orderNumber), email: 'ada@example.com' }).toString(),
    });
    const html = body(found.body);
    expect(html).toContain('Status: <strong>Cancelled</strong>');
    expect(html).toMatch(/<p class="sf-order-refund">Refunded \$\d+\.\d\d to Visa ending 4242 \(test\)\.<\/p>/);
    expect(html).not.toContain(cancelled.refund!.reference!);
  });

  it('order received (207) read again once the owner marked it paid says the payment arrived, not "pay by bank transfer"', async () => {
    let ids = 0;
    const deps = { store: h.store, now: () => Date.now(), newId: (prefix: string) => `${prefix}_paid_${++ids}` };
    const offline = await place({ provider: 'manual' });
    await setOrderStatus(deps, offline.orderId, 'paid');
    const received = body((await h.inject(offline.confirmationUrl)).body);
    expect(received).toContain('<p class="sf-order-paid">We have your order, and its payment has arrived.</p>');
    expect(received).not.toContain('hold it until your payment arrives');
    expect(received).not.toContain('pay by bank transfer');
  });

  it('order received (207) and order confirmed (202) read again after a cancel say it is cancelled, not "pay by bank transfer"', async () => {
    let ids = 0;
    const deps = { store: h.store, now: () => Date.now(), newId: (prefix: string) => `${prefix}_pages_${++ids}` };
    const offline = await place({ provider: 'manual' });
    await setOrderStatus(deps, offline.orderId, 'cancelled');
    const received = body((await h.inject(offline.confirmationUrl)).body);
    expect(received).toContain('<p class="sf-order-cancelled">This order has been cancelled. Nothing is owed: please do not send a payment for it.</p>');
    expect(received).not.toContain('hold it until your payment arrives');
    const card = await place(TEST_CARD);
    await setOrderStatus(deps, card.orderId, 'cancelled');
    const confirmed = body((await h.inject(card.confirmationUrl)).body);
    expect(confirmed).toMatch(/<p class="sf-order-cancelled">This order has been cancelled\. Refunded \$[\d.]+ to Visa ending 4242 \(test\)\.<\/p>/);
    expect(confirmed).not.toContain('Your order is confirmed.');
  });
  describe('digital products: download links once paid (orders/digital-downloads.ts)', () => {
    const POSTER = fs.readFileSync(path.resolve(import.meta.dirname, '../../../fixtures/sites/demo/downloads/poster.pdf'));
    let ids = 0;
    const deps = () => ({ store: h.store, now: () => Date.now(), newId: (prefix: string) => `${prefix}_dl_${++ids}`, origin: () => 'http://shop.test' });
    /** The page's order section (the demo layout's navigation and footer say "shipping" on every page). */
    const section = (html: string) => html.slice(html.indexOf('<section class="sf-order-page'), html.indexOf('</section>', html.indexOf('<section class="sf-order-page')));
    const LINK = /href="(\/commerce\/downloads\/[A-Za-z0-9_-]{32}\/poster)"/;

    async function buyPoster(payment: Record<string, unknown>) {
      const { shoppingCart } = await post('/api/commerce/shopping-cart/entries?express=true', { itemId: 'poster', sku: 'PST-1', quantity: 1, additionalFields: null });
      return post('/api/commerce/checkout/place', { cartToken: shoppingCart.id, email: 'ada@example.com', payment, idempotencyKey: `key-${Math.random().toString(36).slice(2)}` });
    }
    const lookUp = (orderNumber: number) =>
      h.inject({
        method: 'POST',
        url: '/commerce/orders/status',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ orderNumber: String(orderNumber), email: 'ada@example.com' }).toString(),
      });

    it('a poster paid by card: the confirmation page, the order status page and the receipt link the file, which is served as an attachment, never cached, and never talks of shipping', async () => {
      const placed = await buyPoster(TEST_CARD);
      const confirmed = body((await h.inject(placed.confirmationUrl)).body);
      const link = LINK.exec(confirmed)![1]!;
      expect(confirmed).toContain(`<h2>Your downloads</h2><ul class="sf-order-downloads"><li><a href="${link}" download>Download Poster (digital)</a></li></ul>`);
      expect(confirmed).toContain(`Each link works ${DOWNLOAD_LIMIT} times.`);
      // Nothing ships: no shipping row, address or promise of a shipping mail.
      expect(section(confirmed)).not.toMatch(/ship/i);
      // Found by number and email (the number is sequential), the order shows no link: a button mails them.
      const lookedUp = body((await lookUp(placed.orderNumber)).body);
      expect(lookedUp).not.toContain('/commerce/downloads/');
      expect(lookedUp).toContain(ORDER_STATUS_MESSAGES.downloadsByMail);
      const [receipt, ...others] = await h.store.read.listOutbox();
      expect(others).toEqual([]);
      expect(receipt!.body).toMatch(new RegExp(`\\nYour downloads:\\nPoster \\(digital\\): https?://[^/\\s]+${link}\\nEach link works ${DOWNLOAD_LIMIT} times\\.\\n`));
      expect(receipt!.html).toContain(`${link}">Download Poster (digital)</a>`);
      expect(receipt!.body).not.toMatch(/ship/i);

      const file = await h.inject(link);
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-type']).toBe('application/pdf');
      expect(file.headers['content-disposition']).toBe(`attachment; filename="poster.pdf"; filename*=UTF-8''poster.pdf`);
      expect(file.headers['cache-control']).toBe('private, no-store');
      expect(file.rawPayload.equals(POSTER)).toBe(true);
      expect(await h.store.read.orders.downloadCounts(placed.orderId)).toEqual({ poster: 1 });
    });

    it(`each file is served ${DOWNLOAD_LIMIT} times, then refused; a HEAD counts nothing`, async () => {
      const placed = await buyPoster(TEST_CARD);
      const link = LINK.exec(body((await h.inject(placed.confirmationUrl)).body))![1]!;
      expect((await h.inject({ method: 'HEAD', url: link })).headers['content-disposition']).toBeUndefined();
      const answers = await Promise.all(Array.from({ length: DOWNLOAD_LIMIT + 3 }, () => h.inject(link)));
      expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(DOWNLOAD_LIMIT);
      const refused = answers.filter((answer) => answer.statusCode === 404);
      expect(refused).toHaveLength(3);
      expect(refused[0]!.body).toBe(DOWNLOAD_TEXT.limit);
      expect(refused[0]!.headers['cache-control']).toBe('private, no-store');
      expect(await h.store.read.orders.downloadCounts(placed.orderId)).toEqual({ poster: DOWNLOAD_LIMIT });
    });

    it('unknown tokens, another product of the store and a path in the link are refused without touching the file system', async () => {
      const placed = await buyPoster(TEST_CARD);
      const link = LINK.exec(body((await h.inject(placed.confirmationUrl)).body))![1]!;
      const token = link.split('/')[3]!;
      for (const url of [
        `/commerce/downloads/${'A'.repeat(32)}/poster`,
        '/commerce/downloads/short/poster',
        `/commerce/downloads/${token}/ebook`,
        `/commerce/downloads/${token}/tee`,
        `/commerce/downloads/${token}/..%2F..%2Fcatalog.json`,
        `/commerce/downloads/${token}/${'x'.repeat(500)}`,
      ]) {
        const answer = await h.inject(url);
        expect([url, answer.statusCode, answer.body]).toEqual([url, 404, DOWNLOAD_TEXT.unknown]);
      }
      expect(await h.store.read.orders.downloadCounts(placed.orderId)).toEqual({});
    });

    it('paid offline: no link until the owner marks it paid, then in the "Payment received" mail and on the pages; a cancel (refund) closes it', async () => {
      const placed = await buyPoster({ provider: 'manual' });
      const received = body((await h.inject(placed.confirmationUrl)).body);
      expect(received).not.toContain('/commerce/downloads/');
      expect(received).toContain('Your download links appear here, and come by mail, once payment arrives.');
      // Nothing to collect: the page's own words offer no pickup (the Payment line is the provider's label).
      expect(received).toContain('hold it until your payment arrives: pay by bank transfer, quoting your order number.');
      expect(received).not.toContain('or on pickup');
      expect(section(received)).not.toMatch(/ship/i);
      const [receipt] = await h.store.read.listOutbox();
      // The order's own label (the Payment line, the receipt, the admin) offers no pickup either.
      expect(section(received)).toContain('Bank transfer');
      expect(receipt!.body).toContain('Payment: Bank transfer.\nYour download links come by mail once payment arrives.');
      expect((await h.store.read.orders.get(placed.orderId))?.payment.label).toBe('Bank transfer');
      expect(receipt!.body).toContain('Your download links come by mail once payment arrives.');
      expect(receipt!.body).not.toMatch(/ship|\/commerce\/downloads\//i);

      await setOrderStatus(deps(), placed.orderId, 'paid');
      const mails = await h.store.read.listOutbox();
      const paidMail = mails.find((mail) => mail.subject.startsWith('Payment received: '))!;
      const link = /http:\/\/shop\.test(\/commerce\/downloads\/[A-Za-z0-9_-]{32}\/poster)/.exec(paidMail.body)![1]!;
      expect(paidMail.html).toContain(`href="http://shop.test${link}"`);
      expect(paidMail.body).not.toMatch(/ship/i);
      expect(body((await h.inject(placed.confirmationUrl)).body)).toContain(`href="${link}"`);
      expect(body((await lookUp(placed.orderNumber)).body)).toContain(ORDER_STATUS_MESSAGES.downloadsByMail);
      expect((await h.inject(link)).statusCode).toBe(200);

      await setOrderStatus(deps(), placed.orderId, 'cancelled');
      const closed = await h.inject(link);
      expect([closed.statusCode, closed.body]).toEqual([404, DOWNLOAD_TEXT.closed]);
      expect(body((await h.inject(placed.confirmationUrl)).body)).not.toContain('/commerce/downloads/');
      const cancelledPage = body((await lookUp(placed.orderNumber)).body);
      expect(cancelledPage).not.toContain('/commerce/downloads/');
      expect(cancelledPage).not.toContain('sf-order-downloads-mail');
    });

    it("order status found by number and email mails the links to the order's own address on request, never showing them; the per-order limit's sentence past it", async () => {
      const placed = await buyPoster(TEST_CARD);
      const link = LINK.exec(body((await h.inject(placed.confirmationUrl)).body))![1]!;
      const page = body((await lookUp(placed.orderNumber)).body);
      expect(page).not.toContain(link);
      // The button posts the number and email back with sendDownloadLinks.
      expect(page).toContain('<form class="sf-order-downloads-mail" method="post" action="/commerce/orders/status">');
      expect(page).toContain(`<input type="hidden" name="orderNumber" value="${placed.orderNumber}"><input type="hidden" name="email" value="ada@example.com">`);
      expect(page).toContain('<button type="submit" name="sendDownloadLinks" value="1" class="sf-order-downloads-mail-submit">Email me the download links</button>');
      const linkMails = async () => (await h.store.read.listOutbox()).filter((mail) => mail.subject.startsWith('Your downloads from '));
      // From an address of its own: the other tests' look-ups used up some of orderLookup's window.
      const send = () =>
        h.inject({
          method: 'POST',
          remoteAddress: '10.9.9.9',
          url: '/commerce/orders/status',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams({ orderNumber: String(placed.orderNumber), email: 'ADA@example.com', sendDownloadLinks: '1' }).toString(),
        });
      const sent = await send();
      expect(sent.statusCode).toBe(200);
      // Focus goes to the message, not the order above which it says what happened.
      expect(body(sent.body)).toContain(`<p class="sf-order-status-message" role="status" tabindex="-1" autofocus>${ORDER_STATUS_MESSAGES.linksSent}</p>`);
      expect(body(sent.body)).toContain(`<h2 class="sf-order-number" tabindex="-1">Order #${placed.orderNumber}</h2>`);
      expect(body(sent.body)).not.toContain(link);
      const mails = await linkMails();
      expect(mails.map((mail) => mail.to)).toEqual(['ada@example.com']);
      expect(mails[0]!.body).toContain(link);
      // A wrong email sends nothing.
      const wrong = await h.inject({
        method: 'POST',
        remoteAddress: '10.9.9.9',
        url: '/commerce/orders/status',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ orderNumber: String(placed.orderNumber), email: 'eve@example.com', sendDownloadLinks: '1' }).toString(),
      });
      expect(body(wrong.body)).toContain(ORDER_STATUS_MESSAGES.notFound);
      expect(await linkMails()).toHaveLength(1);
      // Past downloadLinkResends (per order), the limit says when, and no mail goes.
      await send();
      await send();
      const limited = body((await send()).body);
      expect(limited).toContain('The download links of this order were emailed too often. Please try again in 60 minutes.');
      expect(await linkMails()).toHaveLength(3);
    });

    it('a card order cancelled (refunded) after a download closes its link', async () => {
      const placed = await buyPoster(TEST_CARD);
      const link = LINK.exec(body((await h.inject(placed.confirmationUrl)).body))![1]!;
      expect((await h.inject(link)).statusCode).toBe(200);
      const cancelled = await setOrderStatus(deps(), placed.orderId, 'cancelled');
      expect(cancelled.refund?.kind).toBe('refunded');
      const closed = await h.inject(link);
      expect([closed.statusCode, closed.body]).toEqual([404, DOWNLOAD_TEXT.closed]);
      expect(await h.store.read.orders.downloadCounts(placed.orderId)).toEqual({ poster: 1 });
    });
  });
});
