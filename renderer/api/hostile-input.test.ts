import { describe, expect, it } from 'vitest';
import type { CartRecord } from '../store/types.ts';
import { USER_PASSWORD, acceptanceSeed, adminHeaders, cookieOf, json, useApiHarness, withCrumb } from '../test-support/api-harness.ts';

// Findings of the attack run against the API (issue 13), each replayed as it was found:
// quantities doubled through sign-in and sign-out, NUL and lone surrogates inside nested
// JSON, and a rate limit that was checked after the write it should have prevented.

const h = useApiHarness();

const ENTRIES = '/api/commerce/shopping-cart/entries';
const SESSION = '/api/site-users/account/session';
const SESSION_COOKIE = 'SiteUserSecureAuthToken';

function post(url: string, payload: unknown, cookies: Record<string, string> = {}) {
  return h.inject(withCrumb({ method: 'POST', url, payload: payload as Record<string, unknown>, cookies }));
}

async function signIn(cookies: Record<string, string> = {}) {
  const response = await post(SESSION, { email: 'alice@example.com', password: USER_PASSWORD }, cookies);
  expect(response.statusCode, response.body).toBe(200);
  return { response, session: { [SESSION_COOKIE]: cookieOf(response, SESSION_COOKIE)!.value } };
}

async function userCart(): Promise<CartRecord> {
  const cart = await h.store.read.getUserMainCart('u1');
  if (!cart) throw new Error('alice has no cart');
  return cart;
}

const quantities = (cart: CartRecord) => Object.fromEntries(cart.entries.map((entry) => [entry.sku, entry.quantity]));

describe('cart quantities keep the add-to-cart bounds on every path', () => {
  it('sign-out with cloneCart and sign-in again never doubles a quantity past 9999 or the stock', async () => {
    let { session } = await signIn();
    // The repro: SQ-2A is unlimited, SQ-2B has 3 in stock (all in the cart), SVC-1 is a
    // service sold one at a time.
    for (const line of [
      { itemId: 'p2', sku: 'SQ-2A', quantity: 9999 },
      { itemId: 'p2', sku: 'SQ-2B', quantity: 3 },
      { itemId: 'psvc', sku: null, quantity: 1 },
    ]) {
      expect((await post(ENTRIES, { ...line, additionalFields: null }, session)).statusCode).toBe(200);
    }
    for (let round = 0; round < 4; round += 1) {
      const out = await h.inject(withCrumb({ method: 'DELETE', url: `${SESSION}?cloneCart=true`, cookies: session }));
      expect(out.statusCode).toBe(200);
      const cart = cookieOf(out, 'CART')?.value;
      expect(cart).toBeTruthy();
      const clone = await h.store.read.getCart(cart!);
      expect(quantities(clone!)).toEqual({ 'SQ-2A': 9999, 'SQ-2B': 3, 'SVC-1': 1 });
      ({ session } = await signIn({ CART: cart! }));
      expect(quantities(await userCart())).toEqual({ 'SQ-2A': 9999, 'SQ-2B': 3, 'SVC-1': 1 });
    }
  });

  it('sign-out with cloneCart and sign-in again leaves the cart as it was, and keeps what was added between', async () => {
    let { session } = await signIn();
    await post(ENTRIES, { itemId: 'p2', sku: 'SQ-2A', quantity: 2, additionalFields: null }, session);
    await post(ENTRIES, { itemId: 'p1', sku: null, quantity: 1, additionalFields: null }, session);
    for (let round = 0; round < 3; round += 1) {
      const out = await h.inject(withCrumb({ method: 'DELETE', url: `${SESSION}?cloneCart=true`, cookies: session }));
      ({ session } = await signIn({ CART: cookieOf(out, 'CART')!.value }));
      expect(quantities(await userCart())).toEqual({ 'SQ-2A': 2, 'SQ-1': 1 });
    }
    // Signed out, the visitor raises a line and adds one: signing in brings those, not a sum.
    const out = await h.inject(withCrumb({ method: 'DELETE', url: `${SESSION}?cloneCart=true`, cookies: session }));
    const cart = { CART: cookieOf(out, 'CART')!.value };
    await post(ENTRIES, { itemId: 'p2', sku: 'SQ-2A', quantity: 3, additionalFields: null }, cart);
    await post(ENTRIES, { itemId: 'p2', sku: 'SQ-2B', quantity: 1, additionalFields: null }, cart);
    await signIn(cart);
    expect(quantities(await userCart())).toEqual({ 'SQ-2A': 5, 'SQ-1': 1, 'SQ-2B': 1 });
  });

  it('merging at sign-in fills a line up to the stock and adds what still fits', async () => {
    let { session } = await signIn();
    await post(ENTRIES, { itemId: 'p1', sku: null, quantity: 4, additionalFields: null }, session);
    await h.inject(withCrumb({ method: 'DELETE', url: SESSION, cookies: session }));
    const anonymous = await post(ENTRIES, { itemId: 'p1', sku: null, quantity: 3, additionalFields: null });
    const cart = cookieOf(anonymous, 'CART')!.value;
    await post(ENTRIES, { itemId: 'p2', sku: 'SQ-2B', quantity: 2, additionalFields: null }, { CART: cart });
    ({ session } = await signIn({ CART: cart }));
    expect(quantities(await userCart())).toEqual({ 'SQ-1': 5, 'SQ-2B': 2 });
  });

  it('a line past the bounds from before (near int4) neither grows nor fails the sign-in', async () => {
    let { session } = await signIn();
    await post(ENTRIES, { itemId: 'p2', sku: 'SQ-2A', quantity: 5, additionalFields: null }, session);
    const [line] = (await userCart()).entries;
    await h.store.read.updateEntryQuantity(line!.id, 2 ** 31 - 10, line!.purchasePriceCents);
    const out = await h.inject(withCrumb({ method: 'DELETE', url: `${SESSION}?cloneCart=true`, cookies: session }));
    const cart = cookieOf(out, 'CART')!.value;
    expect(quantities((await h.store.read.getCart(cart))!)).toEqual({ 'SQ-2A': 9999 });
    ({ session } = await signIn({ CART: cart }));
    expect(quantities(await userCart())).toEqual({ 'SQ-2A': 2 ** 31 - 10 });
  });

  it('adding to a line already at 9999 is refused with the range message', async () => {
    const first = await post(ENTRIES, { itemId: 'p2', sku: 'SQ-2A', quantity: 9999, additionalFields: null });
    const cookies = { CART: cookieOf(first, 'CART')!.value };
    const more = await post(ENTRIES, { itemId: 'p2', sku: 'SQ-2A', quantity: 1, additionalFields: null }, cookies);
    expect(more.statusCode).toBe(400);
    expect(json(more)).toEqual({ error: 'Quantity must be between 1 and 9999.', code: 'QUANTITY_RANGE' });
    const cart = await h.store.read.getCart(cookies.CART);
    expect(quantities(cart!)).toEqual({ 'SQ-2A': 9999 });
  });
});

describe('nested JSON the database cannot store', () => {
  const SAVE = '/api/form/SaveFormSubmission';

  async function newKey(): Promise<string> {
    return json(await post('/api/form/FormSubmissionKey', {})).key;
  }

  const submission = (key: string, form: string) => ({
    key,
    formId: 'contact',
    form,
    contentSource: 'c',
    pagePath: '/contact',
    pagePermissionTypeValue: 1,
  });

  it('a form field holding NUL or a lone surrogate is a 400 that leaves the key unspent', async () => {
    for (const form of ['{"name":["Ann","Lee"],"msg":"a\\u0000b"}', '{"name":["Ann","Lee"],"msg":"\\ud800"}', '{"name\\u0000":["Ann","Lee"]}']) {
      const key = await newKey();
      const refused = await post(SAVE, submission(key, form));
      expect(refused.statusCode, form).toBe(400);
      expect(json(refused), form).toEqual({ error: 'Could not parse the form fields, please check your entries.', code: 'FORM_PARSE' });
      const retried = await post(SAVE, submission(key, '{"name":["Ann","Lee"],"msg":"ok"}'));
      expect(retried.statusCode, form).toBe(200);
    }
    expect(await h.store.read.listSubmissions()).toHaveLength(3);
  });

  it('an admin restock cursor naming an id with NUL or a lone surrogate is INVALID_CURSOR', async () => {
    const RESTOCK = '/api/site-users/account/notifications/restock';
    const cursors = [
      Buffer.from(JSON.stringify({ c: new Date(0).toISOString(), i: 'r\u0000' })).toString('base64url'),
      Buffer.from(JSON.stringify({ c: new Date(0).toISOString(), i: 'r\ud800' })).toString('base64url'),
    ];
    for (const cursor of cursors) {
      const response = await h.inject({ method: 'GET', url: `${RESTOCK}?productId=pso&variantId=vso1&cursor=${cursor}`, headers: adminHeaders() });
      expect(response.statusCode).toBe(400);
      expect(json(response)).toEqual({ error: 'Invalid cursor.', code: 'INVALID_CURSOR' });
    }
    const group = Buffer.from(JSON.stringify({ l: new Date(0).toISOString(), p: 'p\u0000', v: 'v' })).toString('base64url');
    const groups = await h.inject({ method: 'GET', url: `${RESTOCK}/groups?cursor=${group}`, headers: adminHeaders() });
    expect(groups.statusCode).toBe(400);
    expect(json(groups).code).toBe('INVALID_CURSOR');
  });
});

describe('a rate limit is checked before anything is written', () => {
  it('rate-limited restock sign-ups insert no captcha rows', async () => {
    await h.reset({ seed: await acceptanceSeed({ captchaSiteKey: 'site-key' }) });
    const statuses: number[] = [];
    for (let index = 0; index < 15; index += 1) {
      const response = await post('/api/site-users/account/notifications/restock', {
        productId: 'pso',
        variantId: 'vso1',
        siteVisitorEmail: `buyer${index}@example.com`,
        isJoinMailingList: false,
        captchaToken: `local-ok:site-key:t${index}`,
      });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([...Array(10).fill(200), ...Array(5).fill(429)]);
    const rows = await h.store.client.query<{ count: number | string }>('SELECT count(*) AS count FROM used_captcha_tokens');
    expect(Number(rows[0]?.count)).toBe(10);
    expect(await h.store.read.listAllRestockSignUps()).toHaveLength(10);
  });
});
