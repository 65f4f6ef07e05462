import { describe, expect, it } from 'vitest';
import { CRUMB, USER_PASSWORD, cookieOf, json, useApiHarness, withCrumb } from '../test-support/api-harness.ts';
import { DEFAULT_LIMITS } from './context.ts';

// A second attack run against the API, for attacks issue 13's run did not list: a forged Host
// in a reset mail, one reset link sent three times at once, prototype keys inside the JSON
// strings of forms and cart fields, cookies of odd encodings, another cart's entry ids, a cart
// made per request, and error bodies that might echo what was sent. Each is shown to fail.

const h = useApiHarness();

const ENTRIES = '/api/commerce/shopping-cart/entries';
const SESSION = '/api/site-users/account/session';

function send(method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, cookies: Record<string, string> = {}) {
  return h.inject(withCrumb({ method, url, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }), cookies }));
}

describe('password reset', () => {
  // The mail is queued after the answer (after-response.ts); settled before the outbox is read.
  const requestReset = async (headers: Record<string, string> = {}) => {
    const answer = await h.inject(withCrumb({ method: 'POST', url: '/api/site-users/account/password-reset', payload: { email: 'alice@example.com' }, headers }));
    await h.app.storefrontApiSettled();
    return answer;
  };

  async function mailedToken(): Promise<{ body: string; token: string }> {
    const body = (await h.store.read.listOutbox()).at(-1)?.body ?? '';
    const token = /reset-password=([A-Za-z0-9_-]+)/.exec(body)?.[1];
    if (!token) throw new Error('no reset link in the mail');
    return { body, token };
  }

  it("the mailed link starts with the server's origin, never a Host or X-Forwarded-Host the request names", async () => {
    const asked = await requestReset({ host: 'evil.example', 'x-forwarded-host': 'evil2.example', 'x-forwarded-proto': 'https', 'x-csrf-token': CRUMB });
    expect(asked.statusCode).toBe(200);
    const { body } = await mailedToken();
    expect(body).toContain('http://localhost/account/reset-password#reset-password=');
    expect(body).not.toMatch(/evil/);
  });

  it('one link sent three times at once sets one password; the others are RESET_LINK_USED', async () => {
    await requestReset();
    const { token } = await mailedToken();
    const passwords = ['first-password-1', 'second-password-2', 'third-password-3'];
    const answers = await Promise.all(passwords.map((password) => send('POST', '/api/site-users/account/password', { token, password })));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 400, 400]);
    for (const answer of answers.filter((one) => one.statusCode === 400)) expect(json(answer).code).toBe('RESET_LINK_USED');
    const signIns = [];
    for (const password of passwords) signIns.push((await send('POST', SESSION, { email: 'alice@example.com', password })).statusCode);
    expect(signIns.sort()).toEqual([200, 401, 401]);
  });
});

describe('prototype keys inside the JSON strings of forms and cart fields', () => {
  it('a form submission stores only the form fields; __proto__ and constructor.prototype reach no object', async () => {
    const key = json(await send('POST', '/api/form/FormSubmissionKey', {})).key;
    const form = '{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":2}},"name":["Ann","Lee"],"msg":"hi"}';
    const saved = await send('POST', '/api/form/SaveFormSubmission', { key, formId: 'contact', form, contentSource: 'c', pagePath: '/contact', pagePermissionTypeValue: 1 });
    expect(saved.statusCode, saved.body).toBe(200);
    const [stored] = await h.store.read.listSubmissions();
    expect(Object.keys(stored!.values).sort()).toEqual(['msg', 'name']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('a required product form field given only through __proto__ is missing (FORM_INVALID); nothing is added', async () => {
    const added = await send('POST', ENTRIES, { itemId: 'pf', quantity: 1, additionalFields: '{"__proto__":{"f1":"engraved"}}' });
    expect(added.statusCode).toBe(400);
    expect(json(added)).toMatchObject({ code: 'FORM_INVALID', errors: { f1: 'Required' } });
    expect(cookieOf(added, 'CART')).toBeUndefined();
  });
});

describe('cookies of odd encodings', () => {
  it('bad percent escapes, quotes, repeats and prototype names: the cart reads as empty, a write is CRUMB_FAIL, never a 500', async () => {
    const cookies = ['crumb=%E0%A4%A', 'crumb=%ZZ', 'SiteUserSecureAuthToken=%; crumb=x', 'crumb=a; crumb=b', '__proto__=x; constructor=1', 'crumb="quoted"', 'CART=\u00e9'];
    for (const cookie of cookies) {
      const read = await h.inject({ method: 'GET', url: '/api/commerce/shopping-cart', headers: { cookie } });
      expect([read.statusCode, json(read).entries], cookie).toEqual([200, []]);
      const write = await h.inject({ method: 'POST', url: ENTRIES, headers: { cookie, 'x-csrf-token': 'not-the-cookie' }, payload: { itemId: 'p1', quantity: 1, additionalFields: null } });
      expect([write.statusCode, json(write).code], cookie).toEqual([403, 'CRUMB_FAIL']);
    }
  });
});

describe("another cart's entries", () => {
  it('an entry id of another cart is ENTRY_NOT_FOUND to edit, remove or refill, with or without a cart of ones own; it is left as it was', async () => {
    const first = await send('POST', ENTRIES, { itemId: 'pf', quantity: 1, additionalFields: JSON.stringify({ f1: 'For Ann' }) });
    const victim = cookieOf(first, 'CART')!.value;
    const entryId = json(first).shoppingCart.entries[0].id as string;
    const own = cookieOf(await send('POST', ENTRIES, { itemId: 'p1', quantity: 1, additionalFields: null }), 'CART')!.value;
    for (const cookies of [{ CART: own }, {}] as Record<string, string>[]) {
      const answers = [
        await send('PUT', `${ENTRIES}/${entryId}`, { itemId: 'pf', quantity: 3 }, cookies),
        await send('PUT', `${ENTRIES}/${entryId}/additionalFields`, { additionalFields: JSON.stringify({ f1: 'Changed' }) }, cookies),
        await send('DELETE', `${ENTRIES}/${entryId}`, undefined, cookies),
      ];
      expect(answers.map((answer) => [answer.statusCode, json(answer).code])).toEqual(Array(3).fill([404, 'ENTRY_NOT_FOUND']));
    }
    const entries = (await h.store.read.getCart(victim))!.entries;
    expect(entries.map((entry) => [entry.quantity, entry.additionalFields])).toEqual([[1, JSON.stringify({ f1: 'For Ann' })]]);
  });

  it("a signed-in member's cart id as a CART cookie reads as no cart and is not written to", async () => {
    const signedIn = await send('POST', SESSION, { email: 'alice@example.com', password: USER_PASSWORD });
    const session = { SiteUserSecureAuthToken: cookieOf(signedIn, 'SiteUserSecureAuthToken')!.value };
    const added = await h.inject(
      withCrumb({ method: 'POST', url: ENTRIES, payload: { itemId: 'p1', quantity: 1, additionalFields: null }, cookies: session, headers: { 'x-siteuser-xsrf-token': json(signedIn).xsrfToken } }),
    );
    expect(added.statusCode).toBe(200);
    const memberCart = (await h.store.read.getUserMainCart('u1'))!.id;
    const read = await h.inject({ method: 'GET', url: '/api/commerce/shopping-cart', cookies: { CART: memberCart } });
    expect(json(read)).toMatchObject({ id: null, entries: [] });
    await send('POST', ENTRIES, { itemId: 'p2', sku: 'SQ-2A', quantity: 1, additionalFields: null }, { CART: memberCart });
    expect((await h.store.read.getUserMainCart('u1'))!.entries.map((entry) => entry.sku)).toEqual(['SQ-1']);
    const quote = await send('POST', '/api/commerce/checkout/quote', { cartToken: memberCart });
    expect([quote.statusCode, json(quote).code]).toEqual([401, 'NOT_AUTHENTICATED']);
  });
});

describe('a cart per request', () => {
  it('carts made count per address (cartCreations): past the limit 429 and no row; adds to a cart already made go on', async () => {
    await h.reset({ limits: { cartCreations: { limit: 3, windowMs: 60_000 } } });
    const line = { itemId: 'p2', sku: 'SQ-2A', quantity: 1, additionalFields: null };
    const first = await send('POST', ENTRIES, line);
    const cart = { CART: cookieOf(first, 'CART')!.value };
    const answers = [
      first.statusCode,
      (await send('POST', `${ENTRIES}?express=true`, line)).statusCode,
      (await send('POST', '/api/commerce/checkout/gift-card', { itemId: 'gc', sku: 'GC-50' })).statusCode,
      // A stale CART cookie does not pass as a cart: the add would make one.
      (await send('POST', ENTRIES, line, { CART: 'c_not-a-cart' })).statusCode,
      (await send('POST', `${ENTRIES}?express=true`, line)).statusCode,
      (await send('POST', '/api/3/commerce/cart/subscription', { itemId: 'psub', sku: 'SUB-1', qty: 1, additionalFields: null })).statusCode,
    ];
    expect(answers).toEqual([200, 200, 200, 429, 429, 429]);
    const refused = await send('POST', ENTRIES, line);
    expect([refused.statusCode, json(refused).code, Number(refused.headers['retry-after']) > 0]).toEqual([429, 'RATE_LIMITED', true]);
    expect(await h.store.client.query('SELECT id FROM carts')).toHaveLength(3);
    const more = await send('POST', ENTRIES, { ...line, quantity: 2 }, cart);
    expect([more.statusCode, json(more).shoppingCart.totalQuantity]).toEqual([200, 3]);
  });
});

describe('a cart per request, default limits', () => {
  it('cartCreations is D10-sized: as many carts a minute as an address may place orders (and FormSubmissionKey), then 429; another address goes on', async () => {
    expect(DEFAULT_LIMITS.cartCreations).toEqual(DEFAULT_LIMITS.checkoutPlace);
    expect(DEFAULT_LIMITS.cartCreations).toEqual(DEFAULT_LIMITS.formSubmissionKey);
    const { limit } = DEFAULT_LIMITS.cartCreations;
    const line = { itemId: 'p2', sku: 'SQ-2A', quantity: 1, additionalFields: null };
    const buyNow = (remoteAddress = '127.0.0.1') => h.inject(withCrumb({ method: 'POST', url: `${ENTRIES}?express=true`, payload: line, remoteAddress }));
    const answers: number[] = [];
    for (let i = 0; i < limit + 1; i++) answers.push((await buyNow()).statusCode);
    expect(answers).toEqual([...Array<number>(limit).fill(200), 429]);
    expect((await buyNow('10.7.7.7')).statusCode).toBe(200);
  });
});

describe('error bodies echo nothing that was sent', () => {
  it("a query value, a flag's value, an email or a password never appears in the 400", async () => {
    const secret = 'hunter2-secret-value';
    const answers = [
      await h.inject(withCrumb({ method: 'DELETE', url: `${SESSION}?cloneCart=${secret}` })),
      await send('POST', SESSION, { email: `${secret}@example.com`, password: 7 }),
      await send('POST', SESSION, { email: `${secret}@example.com`, password: secret, rememberMe: secret }),
      await send('POST', '/api/site-users/account/notifications/restock', { productId: 'pso', variantId: 'vso1', siteVisitorEmail: `${secret}@@example.com` }),
      await send('POST', '/api/site-users/account/password', { token: secret, password: `${secret}${'x'.repeat(300)}` }),
      await send('POST', ENTRIES, { itemId: 'pf', quantity: 1, additionalFields: JSON.stringify({ f1: { secret } }) }),
    ];
    for (const answer of answers) {
      expect(answer.statusCode, answer.body).toBeGreaterThanOrEqual(400);
      expect(answer.statusCode, answer.body).toBeLessThan(500);
      expect(answer.body).not.toContain(secret);
      expect(typeof json(answer).code).toBe('string');
    }
  });
});
