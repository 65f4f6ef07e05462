import { describe, expect, it } from 'vitest';
import type { SqlStore } from '../store/store.ts';
import { CRUMB, USER_PASSWORD, acceptanceSeed, cookieOf, json, useApiHarness, withCrumb } from '../test-support/api-harness.ts';

// STOREFRONT B acceptance checks for forms, error reports, sessions, census and the
// generic error handling, against one shared PGlite database reseeded per test.

const h = useApiHarness();

function post(url: string, payload?: unknown, extra: { cookies?: Record<string, string>; headers?: Record<string, string> } = {}) {
  return h.inject(
    withCrumb({
      method: 'POST',
      url,
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
      cookies: extra.cookies ?? {},
      headers: extra.headers ?? {},
    }),
  );
}

describe('forms', () => {
  it('API-FORM-1: the form schema lists every field type', async () => {
    const response = await h.inject({ method: 'GET', url: '/api/template/GetTemplateSchema?type=form' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=3600');
    const schema = json(response);
    expect(schema.type).toBe('form');
    const byType = new Map(schema.fieldTypes.map((entry: { type: string }) => [entry.type, entry]));
    expect(byType.get('section')).toEqual({ type: 'section', input: false, parts: [] });
    expect(byType.get('phone')).toMatchObject({ input: true, parts: ['countryCode', 'areaCode', 'prefix', 'line'] });
    const page = await h.inject({ method: 'GET', url: '/api/template/GetTemplateSchema?type=page' });
    expect(page.statusCode).toBe(400);
    expect(json(page)).toEqual({ error: 'Unsupported schema type.', code: 'UNSUPPORTED_TYPE' });
  });

  it('API-FORM-2: validating an unknown form gives 404', async () => {
    const response = await post('/api/rest/forms/validate/unknown', {});
    expect(response.statusCode).toBe(404);
    expect(json(response)).toEqual({ error: 'Form not found.', code: 'FORM_NOT_FOUND' });
  });

  it('API-FORM-3: email and length errors use the site-form messages', async () => {
    const response = await post('/api/rest/forms/validate/fv', { e1: 'x@', t1: '123456' });
    expect(response.statusCode).toBe(400);
    expect(json(response)).toEqual({
      error: 'One or more fields is invalid, please check your entries.',
      code: 'FORM_INVALID',
      errors: {
        e1: 'Email is not valid. Email addresses should follow the format user@domain.com.',
        t1: 'You have exceeded the character limit.',
      },
    });
    const valid = await post('/api/rest/forms/validate/fv', { e1: 'x@example.com', t1: '12345', s1: 'ignored', extra: 1 });
    expect(valid.statusCode).toBe(200);
    expect(json(valid)).toEqual({ valid: true });
    const withCharset = await h.inject(
      withCrumb({
        method: 'POST',
        url: '/api/rest/forms/validate/fv',
        headers: { 'content-type': 'application/json; charset=utf-8' },
        payload: '{"e1":"x@example.com"}',
      }),
    );
    expect(withCharset.statusCode).toBe(200);
  });

  it('API-FORM-4: a radio value outside the options is invalid', async () => {
    const response = await post('/api/rest/forms/validate/fv', { e1: 'x@example.com', r1: 'c' });
    expect(json(response).errors).toEqual({ r1: 'Invalid value.' });
    const notObject = await post('/api/rest/forms/validate/fv', [1, 2]);
    expect(json(notObject)).toEqual({ error: 'Request body must be a JSON object.', code: 'BAD_REQUEST' });
  });
});

describe('site form submissions', () => {
  const SAVE = '/api/form/SaveFormSubmission';

  async function newKey(): Promise<string> {
    const response = await post('/api/form/FormSubmissionKey');
    expect(response.statusCode).toBe(200);
    return json(response).key;
  }

  function payload(key: string, overrides: Record<string, unknown> = {}) {
    return {
      key,
      formId: 'contact',
      form: JSON.stringify({ name: ['Ann', 'Lee'], msg: 'Hello', stray: 'dropped' }),
      pageTitle: 'Contact us',
      pageId: 'page-1',
      contentSource: 'c',
      pagePath: '/contact',
      pagePermissionTypeValue: 1,
      ...overrides,
    };
  }

  it('API-SF-1: a key is issued for an empty JSON body', async () => {
    const response = await h.inject(
      withCrumb({ method: 'POST', url: '/api/form/FormSubmissionKey', headers: { 'content-type': 'application/json' }, payload: '' }),
    );
    expect(response.statusCode).toBe(200);
    expect(json(response).key).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    const odd = await h.inject(
      withCrumb({ method: 'POST', url: '/api/form/FormSubmissionKey', headers: { 'content-type': 'application/xml' }, payload: '' }),
    );
    expect(odd.statusCode).toBe(200);
  });

  it('API-SF-2: a valid submission is stored with its page metadata', async () => {
    const response = await post(SAVE, payload(await newKey()));
    expect(response.statusCode).toBe(200);
    const body = json(response);
    expect(body.success).toBe(true);
    const [saved] = await h.store.read.listSubmissions();
    expect(saved).toMatchObject({
      id: body.submissionId,
      formId: 'contact',
      values: { name: ['Ann', 'Lee'], msg: 'Hello' },
      pageId: 'page-1',
      pageTitle: 'Contact us',
      pagePath: '/contact',
      contentSource: 'c',
      pagePermissionTypeValue: 1,
      siteUserId: null,
    });
  });

  it('API-SF-3: a key works once', async () => {
    const key = await newKey();
    expect((await post(SAVE, payload(key))).statusCode).toBe(200);
    const again = await post(SAVE, payload(key));
    expect(again.statusCode).toBe(401);
    expect(json(again)).toEqual({ error: 'Invalid or expired form submission key.', code: 'INVALID_KEY' });
  });

  it('API-SF-4: a key expires after 30 minutes', async () => {
    const key = await newKey();
    h.clock.now += 31 * 60 * 1000;
    expect((await post(SAVE, payload(key))).statusCode).toBe(401);
  });

  it('API-SF-5: an unknown or unstored form is not configured', async () => {
    for (const formId of ['nope', 'unstored']) {
      const response = await post(SAVE, payload(await newKey(), { formId }));
      expect(response.statusCode).toBe(404);
      expect(json(response)).toEqual({ error: 'This form has not been configured yet.', code: 'FORM_NOT_CONFIGURED' });
    }
  });

  it('API-SF-6: the sixth submission in a minute from one IP is rate-limited', async () => {
    const statuses = [];
    for (let index = 0; index < 6; index += 1) statuses.push((await post(SAVE, payload(await newKey()))).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const limited = await post(SAVE, payload(await newKey()));
    expect(json(limited).code).toBe('RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    const otherForm = await post(SAVE, payload(await newKey(), { formId: 'news', form: '{"em":"a@example.com"}' }));
    expect(otherForm.statusCode).toBe(200);
  });

  it('API-SF-7: unparsable fields and bad metadata', async () => {
    const parse = await post(SAVE, payload(await newKey(), { form: '{bad' }));
    expect(json(parse)).toEqual({ error: 'Could not parse the form fields, please check your entries.', code: 'FORM_PARSE' });
    const metadata = await post(SAVE, payload(await newKey(), { contentSource: 'x' }));
    expect(metadata.statusCode).toBe(400);
    expect(json(metadata)).toEqual({ error: 'Invalid submission metadata.', code: 'BAD_METADATA' });
    expect(json(await post(SAVE, payload(await newKey(), { pagePath: 'contact' }))).code).toBe('BAD_METADATA');
    const invalid = await post(SAVE, payload(await newKey(), { form: '{"name":["",""]}' }));
    expect(json(invalid)).toMatchObject({ code: 'FORM_INVALID', errors: { name: 'Required' } });
  });

  it('API-SF-8: captcha-enabled forms need a captcha key', async () => {
    await h.reset({ seed: await acceptanceSeed({ captchaSiteKey: 'site-key' }) });
    const base = { formId: 'captcha-form', form: '{"q":"hi"}' };
    const missing = await post(SAVE, payload(await newKey(), base));
    expect(missing.statusCode).toBe(400);
    expect(json(missing)).toEqual({ error: 'Complete CAPTCHA before submitting.', code: 'CAPTCHA_REQUIRED' });
    const solved = await post(SAVE, payload(await newKey(), { ...base, captchaKey: 'local-ok:site-key:r1' }));
    expect(solved.statusCode).toBe(200);
  });

  it('API-SF-9: newsletter emails join the mailing list once, whatever their case', async () => {
    for (const email of ['reader@example.com', 'READER@example.COM', ' Reader@Example.com ']) {
      const response = await post(SAVE, payload(await newKey(), { formId: 'news', form: JSON.stringify({ em: email }) }));
      expect(response.statusCode).toBe(200);
    }
    const list = await h.store.read.listMailingList();
    expect(list.map((entry) => [entry.email.toLowerCase(), entry.source])).toEqual([['reader@example.com', 'newsletter']]);
    // The welcome is queued after the answer (api/after-response.ts).
    await h.app.storefrontApiSettled();
    // One subscriber, so one welcome mail: signing up again in another case sends nothing.
    const welcomes = (await h.store.read.listOutbox()).filter((mail) => mail.subject.includes('newsletter'));
    expect(welcomes.map((mail) => mail.to)).toEqual(['reader@example.com']);
  });

  it('API-SF-10: a failing store answers 500 STORAGE_FAILURE and keeps the key spent', async () => {
    const failing: SqlStore = Object.create(h.store);
    Object.defineProperty(failing, 'transaction', {
      value: async () => {
        throw new Error('disk full');
      },
    });
    const key = await newKey();
    const { buildApp } = await import('../app.ts');
    const app = await buildApp({ store: failing, now: () => h.clock.now });
    const response = await app.inject(withCrumb({ method: 'POST', url: SAVE, payload: payload(key) }));
    expect(response.statusCode).toBe(500);
    expect(json(response)).toEqual({ error: 'Unable to save the submission.', code: 'STORAGE_FAILURE' });
    expect(await h.store.read.listSubmissions()).toEqual([]);
    expect((await post(SAVE, payload(key))).statusCode).toBe(401);
  });
});

describe('error reports', () => {
  const URL = '/api/events/RecordJavascriptErrors';
  const report = (event: string, extra: Record<string, unknown> = {}) => ({ event, data: { message: 'boom', ...extra }, timestamp: 1 });

  it('API-ERR-1: a batch of two is stored', async () => {
    const response = await post(URL, [report('error'), report('unhandledrejection')], {
      headers: { 'user-agent': 'TestAgent/1', referer: 'https://shop.example/p' },
    });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    const stored = await h.store.read.listJsErrorReports();
    expect(stored.map((row) => row.event).sort()).toEqual(['error', 'unhandledrejection']);
    expect(stored[0]).toMatchObject({ userAgent: 'TestAgent/1', referer: 'https://shop.example/p', timestamp: 1 });
  });

  it("API-ERR-1b: an error report's page address and Referer are stored without an order page's id", async () => {
    const response = await post(URL, [report('error', { url: 'https://shop.example/commerce/orders/o_MRY4v032/received' })], {
      headers: { referer: 'https://shop.example/commerce/orders/o_MRY4v032/received' },
    });
    expect(response.statusCode).toBe(204);
    const [stored] = await h.store.read.listJsErrorReports();
    expect(stored).toMatchObject({ data: { message: 'boom', url: 'https://shop.example/commerce/orders/[redacted]/received' }, referer: 'https://shop.example/commerce/orders/[redacted]/received' });
  });

  it('API-ERR-2: batch and item shape', async () => {
    const many = Array.from({ length: 21 }, () => report('error'));
    for (const body of [[], { event: 'x' }, many]) {
      const response = await post(URL, body);
      expect(response.statusCode).toBe(400);
      expect(json(response)).toEqual({ error: 'Expected an array of 1 to 20 error reports.', code: 'INVALID_REPORTS' });
    }
    const item = await post(URL, [{ event: '', data: {}, timestamp: 1 }]);
    expect(json(item)).toEqual({ error: 'Report 0 is invalid.', code: 'INVALID_REPORT' });
    const second = await post(URL, [report('ok'), { event: 'x', data: [], timestamp: 1 }]);
    expect(json(second).error).toBe('Report 1 is invalid.');
    expect(await h.store.read.listJsErrorReports()).toEqual([]);
  });

  it('API-ERR-3: stacks are cut to 5000 characters', async () => {
    const response = await post(URL, [report('error', { stack: 's'.repeat(9000) })]);
    expect(response.statusCode).toBe(204);
    const [stored] = await h.store.read.listJsErrorReports();
    expect((stored?.data.stack as string).length).toBe(5000);
  });

  it('API-ERR-4: reports need the crumb', async () => {
    const response = await h.inject({ method: 'POST', url: URL, payload: [report('error')], cookies: { crumb: CRUMB } });
    expect(response.statusCode).toBe(403);
    expect(json(response).crumbFail).toBe(true);
  });

  it('accepts up to 256 KiB for reports (D10)', async () => {
    const big = [report('error', { detail: 'x'.repeat(200 * 1024) })];
    expect((await post(URL, big)).statusCode).toBe(204);
    const tooBig = [report('error', { detail: 'x'.repeat(260 * 1024) })];
    expect(json(await post(URL, tooBig)).code).toBe('BODY_TOO_LARGE');
  });
});

describe('sessions', () => {
  const SESSION = '/api/site-users/account/session';

  function signIn(body: Record<string, unknown>, cookies: Record<string, string> = {}) {
    return post(SESSION, body, { cookies });
  }

  it('API-AUTH-1: remember-me sign-in sets 30-day cookies', async () => {
    const response = await signIn({ email: 'Alice@Example.com', password: USER_PASSWORD, rememberMe: true });
    expect(response.statusCode).toBe(200);
    const body = json(response);
    expect(body.siteUserId).toBe('u1');
    expect(body.xsrfToken).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const auth = cookieOf(response, 'SiteUserSecureAuthToken');
    expect(auth?.httpOnly).toBe(true);
    expect(auth?.maxAge).toBe(2592000);
    expect(auth?.sameSite).toBe('Lax');
    const info = cookieOf(response, 'SiteUserInfo');
    expect(info?.maxAge).toBe(2592000);
    expect(info?.httpOnly).toBeFalsy();
    const raw = [response.headers['set-cookie']].flat().find((line) => String(line).startsWith('SiteUserInfo=')) ?? '';
    const encoded = /^SiteUserInfo=([^;]*)/.exec(String(raw))?.[1] ?? '';
    expect(JSON.parse(decodeURIComponent(encoded))).toEqual({ authenticated: true, siteUserId: 'u1' });
  });

  it('API-AUTH-2: without remember-me both cookies are session cookies', async () => {
    const response = await signIn({ email: 'alice@example.com', password: USER_PASSWORD, rememberMe: false });
    for (const name of ['SiteUserSecureAuthToken', 'SiteUserInfo']) {
      const cookie = cookieOf(response, name);
      expect(cookie?.maxAge).toBeUndefined();
      expect(cookie?.expires).toBeUndefined();
    }
    const bad = await signIn({ email: 'alice@example.com', password: USER_PASSWORD, rememberMe: 'yes' });
    expect(json(bad)).toEqual({ error: 'rememberMe must be a boolean.', code: 'BAD_REQUEST' });
    const missing = await signIn({ email: '', password: 'x' });
    expect(json(missing)).toEqual({ error: 'Email and password are required.', code: 'MISSING_CREDENTIALS' });
  });

  it('API-AUTH-3: wrong password and unknown email answer alike', async () => {
    const wrong = await signIn({ email: 'alice@example.com', password: 'nope' });
    const unknown = await signIn({ email: 'bob@example.com', password: 'nope' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.body).toBe(unknown.body);
    expect(json(wrong)).toEqual({ error: 'Invalid email or password.', code: 'INVALID_CREDENTIALS' });
  });

  it('API-AUTH-4: five failures lock the email for 15 minutes', async () => {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await signIn({ email: 'alice@example.com', password: 'nope' })).statusCode).toBe(401);
    }
    const locked = await signIn({ email: 'ALICE@example.com', password: USER_PASSWORD });
    expect(locked.statusCode).toBe(429);
    expect(json(locked)).toEqual({ error: 'Too many sign-in attempts. Please try again later.', code: 'RATE_LIMITED' });
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    h.clock.now += 15 * 60 * 1000 + 1;
    expect((await signIn({ email: 'alice@example.com', password: USER_PASSWORD })).statusCode).toBe(200);
  });

  it('API-AUTH-4 at once: twelve wrong passwords sent together try five; the rest are refused before any is checked', async () => {
    const burst = await Promise.all(Array.from({ length: 12 }, (_, i) => signIn({ email: 'alice@example.com', password: `guess${i}` })));
    expect(burst.map((response) => response.statusCode).sort()).toEqual([...Array(5).fill(401), ...Array(7).fill(429)]);
    expect((await signIn({ email: 'alice@example.com', password: USER_PASSWORD })).statusCode).toBe(429);
    // One success among them is no failure: the next attempts still have the places it held.
    h.clock.now += 15 * 60 * 1000 + 1;
    const mixed = await Promise.all([signIn({ email: 'alice@example.com', password: USER_PASSWORD }), ...Array.from({ length: 4 }, () => signIn({ email: 'alice@example.com', password: 'nope' }))]);
    expect(mixed.map((response) => response.statusCode)).toEqual([200, 401, 401, 401, 401]);
    expect((await signIn({ email: 'alice@example.com', password: USER_PASSWORD })).statusCode).toBe(200);
  });

  async function anonymousCartWithTwoItems() {
    const first = await post('/api/commerce/shopping-cart/entries', { itemId: 'p1', sku: null, quantity: 1, additionalFields: null });
    const cartId = cookieOf(first, 'CART')?.value ?? '';
    await post('/api/commerce/shopping-cart/entries', { itemId: 'p2', sku: 'SQ-2A', quantity: 1, additionalFields: null }, { cookies: { CART: cartId } });
    return cartId;
  }

  it('API-AUTH-5: signing in adopts the anonymous cart', async () => {
    const cartId = await anonymousCartWithTwoItems();
    const response = await signIn({ email: 'alice@example.com', password: USER_PASSWORD }, { CART: cartId });
    expect(response.statusCode).toBe(200);
    expect(cookieOf(response, 'CART')?.maxAge).toBe(0);
    expect(cookieOf(response, 'hasCart')?.value).toBe('true');
    const session = cookieOf(response, 'SiteUserSecureAuthToken')?.value ?? '';
    const cart = json(await h.inject({ method: 'GET', url: '/api/commerce/shopping-cart', cookies: { SiteUserSecureAuthToken: session } }));
    expect(cart.totalQuantity).toBe(2);
    expect(cart.entries).toHaveLength(2);
  });

  it('merges an anonymous cart into an existing user cart and deletes it', async () => {
    const login = await signIn({ email: 'alice@example.com', password: USER_PASSWORD });
    const session = { SiteUserSecureAuthToken: cookieOf(login, 'SiteUserSecureAuthToken')?.value ?? '' };
    await post('/api/commerce/shopping-cart/entries', { itemId: 'p1', sku: null, quantity: 1, additionalFields: null }, { cookies: session });
    const anonymous = await anonymousCartWithTwoItems();
    await signIn({ email: 'alice@example.com', password: USER_PASSWORD }, { CART: anonymous });
    const cart = json(await h.inject({ method: 'GET', url: '/api/commerce/shopping-cart', cookies: session }));
    expect(cart.entries.map((entry: { itemId: string; quantity: number }) => [entry.itemId, entry.quantity])).toEqual([
      ['p1', 2],
      ['p2', 1],
    ]);
    expect(await h.store.read.getCart(anonymous)).toBeNull();
  });

  it('signing in again from a browser that holds a session ends that session: only the new id is live', async () => {
    const first = cookieOf(await signIn({ email: 'alice@example.com', password: USER_PASSWORD }), 'SiteUserSecureAuthToken')?.value ?? '';
    expect(await h.store.read.getLiveSession(first, h.clock.now)).not.toBeNull();
    const again = await signIn({ email: 'alice@example.com', password: USER_PASSWORD }, { SiteUserSecureAuthToken: first });
    expect(again.statusCode).toBe(200);
    const second = cookieOf(again, 'SiteUserSecureAuthToken')?.value ?? '';
    expect(second).not.toBe(first);
    expect(await h.store.read.getLiveSession(first, h.clock.now)).toBeNull();
    expect(await h.store.read.getLiveSession(second, h.clock.now)).not.toBeNull();
    // A cookie naming no session (or an absurd one) is no obstacle to signing in.
    for (const stale of ['no-such-session', 'x'.repeat(300)]) {
      expect((await signIn({ email: 'alice@example.com', password: USER_PASSWORD }, { SiteUserSecureAuthToken: stale })).statusCode).toBe(200);
    }
  });

  it('a wrong password leaves the session the browser holds as it was', async () => {
    const first = cookieOf(await signIn({ email: 'alice@example.com', password: USER_PASSWORD }), 'SiteUserSecureAuthToken')?.value ?? '';
    expect((await signIn({ email: 'alice@example.com', password: 'nope' }, { SiteUserSecureAuthToken: first })).statusCode).toBe(401);
    expect(await h.store.read.getLiveSession(first, h.clock.now)).not.toBeNull();
  });

  it('API-AUTH-6: signing out with cloneCart copies the cart for the visitor', async () => {
    const cartId = await anonymousCartWithTwoItems();
    const login = await signIn({ email: 'alice@example.com', password: USER_PASSWORD }, { CART: cartId });
    const session = cookieOf(login, 'SiteUserSecureAuthToken')?.value ?? '';
    const response = await h.inject(withCrumb({ method: 'DELETE', url: `${SESSION}?cloneCart=true`, cookies: { SiteUserSecureAuthToken: session } }));
    expect(response.statusCode).toBe(200);
    expect(json(response)).toEqual({ success: true });
    expect(cookieOf(response, 'SiteUserSecureAuthToken')?.maxAge).toBe(0);
    expect(cookieOf(response, 'SiteUserInfo')?.maxAge).toBe(0);
    const clone = cookieOf(response, 'CART')?.value ?? '';
    expect(clone).not.toBe('');
    expect(clone).not.toBe(cartId);
    const copy = await h.store.read.getCart(clone);
    const original = await h.store.read.getCart(cartId);
    expect(copy?.entries.map((entry) => entry.itemId)).toEqual(original?.entries.map((entry) => entry.itemId));
    const originalIds = new Set(original?.entries.map((entry) => entry.id));
    expect(copy?.entries.some((entry) => originalIds.has(entry.id))).toBe(false);
    expect(original?.ownerSiteUserId).toBe('u1');
    expect(await h.store.read.getLiveSession(session, h.clock.now)).toBeNull();
  });

  it('API-AUTH-7: signing out needs the crumb, and the new crumb works', async () => {
    const denied = await h.inject({ method: 'DELETE', url: SESSION, cookies: { crumb: CRUMB } });
    expect(denied.statusCode).toBe(403);
    expect(json(denied).crumbFail).toBe(true);
    const fresh = cookieOf(denied, 'crumb')?.value ?? '';
    expect(fresh).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const retry = await h.inject({ method: 'DELETE', url: SESSION, cookies: { crumb: fresh }, headers: { 'x-csrf-token': fresh } });
    expect(retry.statusCode).toBe(200);
    expect(cookieOf(retry, 'CART')?.maxAge).toBe(0);
  });

  it('API-AUTH-8: cloneCart must be true or false', async () => {
    const response = await h.inject(withCrumb({ method: 'DELETE', url: `${SESSION}?cloneCart=maybe` }));
    expect(response.statusCode).toBe(400);
    expect(json(response)).toEqual({ error: 'Invalid query parameter.', code: 'BAD_QUERY' });
    const emptyJson = await h.inject(
      withCrumb({ method: 'DELETE', url: `${SESSION}?cloneCart=false`, headers: { 'content-type': 'application/json' }, payload: '' }),
    );
    expect(emptyJson.statusCode).toBe(200);
  });

  it('API-AUTH-9: the locale call needs a session and its xsrf token', async () => {
    const URL = '/api/site-users/account/locale';
    const anonymous = await post(URL, { language: 'fr-CA' });
    expect(anonymous.statusCode).toBe(401);
    expect(json(anonymous)).toEqual({ error: 'Sign in required.', code: 'NOT_AUTHENTICATED' });
    const login = await signIn({ email: 'alice@example.com', password: USER_PASSWORD });
    const cookies = { SiteUserSecureAuthToken: cookieOf(login, 'SiteUserSecureAuthToken')?.value ?? '' };
    const wrong = await post(URL, { language: 'fr-CA' }, { cookies, headers: { 'x-siteuser-xsrf-token': 'nope' } });
    expect(wrong.statusCode).toBe(403);
    expect(json(wrong)).toEqual({ error: 'Invalid XSRF token.', code: 'XSRF_FAIL' });
    const headers = { 'x-siteuser-xsrf-token': json(login).xsrfToken };
    const ok = await post(URL, { language: 'fr-CA' }, { cookies, headers });
    expect(ok.statusCode).toBe(200);
    expect(json(ok)).toEqual({ language: 'fr-CA' });
    expect((await h.store.read.getUser('u1'))?.locale).toBe('fr-CA');
    const bad = await post(URL, { language: '!!' }, { cookies, headers });
    expect(json(bad)).toEqual({ error: 'Invalid language.', code: 'INVALID_LANGUAGE' });
    h.clock.now += 13 * 60 * 60 * 1000;
    expect((await post(URL, { language: 'de' }, { cookies, headers })).statusCode).toBe(401);
  });
});

describe('census', () => {
  const VISITOR = '123e4567-e89b-12d3-a456-426614174000|1|2|3|4';

  it('API-CEN-1: RecordHit takes form encoding and text/plain, without a crumb', async () => {
    const body = `event=view&data=${encodeURIComponent('{"url":"/"}')}&ss_cvr=${encodeURIComponent(VISITOR)}`;
    for (const type of ['application/x-www-form-urlencoded', 'text/plain;charset=UTF-8']) {
      const response = await h.inject({ method: 'POST', url: '/api/census/RecordHit', headers: { 'content-type': type }, payload: body });
      expect(response.statusCode).toBe(204);
    }
    const events = await h.store.read.listCensusEvents();
    expect(events).toHaveLength(2);
    expect(events[0]).toMatchObject({ kind: 'hit', event: 'view', data: { url: '/' }, ssCvr: VISITOR });
    const junkCookie = await h.inject({
      method: 'POST',
      url: '/api/census/RecordHit',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'event=view&data=%7B%7D&ss_cvr=garbage',
    });
    expect(junkCookie.statusCode).toBe(204);
    const stored = await h.store.read.listCensusEvents();
    expect(stored.map((event) => event.ssCvr).sort()).toEqual([VISITOR, VISITOR, null]);
  });

  it('API-CEN-2: data must be a JSON object and event is required', async () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const badData = await h.inject({ method: 'POST', url: '/api/census/RecordHit', headers: form, payload: 'event=view&data=not-json' });
    expect(json(badData)).toEqual({ error: 'data must be a JSON object.', code: 'INVALID_DATA' });
    const noEvent = await h.inject({ method: 'POST', url: '/api/census/RecordHit', headers: form, payload: 'data=%7B%7D' });
    expect(json(noEvent)).toEqual({ error: 'event is required.', code: 'INVALID_EVENT' });
    const longEvent = await h.inject({ method: 'POST', url: '/api/census/RecordHit', headers: form, payload: `event=${'e'.repeat(101)}&data=%7B%7D` });
    expect(json(longEvent).code).toBe('INVALID_EVENT');
  });

  it('API-CEN-3: button, form-render and overlay events store their kind', async () => {
    const button = { visitorCookie: '', websiteId: 'w1', pageId: 'pg', pagePath: '/', buttonId: 'b1' };
    const calls: [string, Record<string, unknown>][] = [
      ['button-click', button],
      ['button-render', button],
      ['form-render', { formId: 'contact', visitorCookie: VISITOR }],
      ['overlay', { overlayId: 'o1', action: 'close', visitorCookie: '' }],
    ];
    for (const [path, payload] of calls) {
      const response = await h.inject({ method: 'POST', url: `/api/census/${path}`, payload });
      expect(response.statusCode).toBe(204);
    }
    const kinds = (await h.store.read.listCensusEvents()).map((event) => event.kind).sort();
    expect(kinds).toEqual(['button-click', 'button-render', 'form-render', 'overlay']);
    const invalid = await h.inject({ method: 'POST', url: '/api/census/button-click', payload: { ...button, buttonId: 3 } });
    expect(json(invalid)).toEqual({ error: 'Invalid census payload.', code: 'INVALID_CENSUS' });
    expect(json(await h.inject({ method: 'POST', url: '/api/census/form-render', payload: {} })).code).toBe('INVALID_CENSUS');
    expect(json(await h.inject({ method: 'POST', url: '/api/census/overlay', payload: { overlayId: 'o', action: 'dance' } })).code).toBe('INVALID_CENSUS');
  });

  it("API-CEN-3b: the seed's visitor analytics fields are stored with button, form-render and overlay events (issue 18)", async () => {
    const fields = { website_id: 'w1', page_id: 'pg', logged_in: true };
    const button = { visitorCookie: '', websiteId: 'w1', pageId: 'pg', pagePath: '/', buttonId: 'b1', fields };
    for (const [path, payload] of [
      ['button-render', button],
      ['form-render', { formId: 'contact', fields }],
      ['overlay', { overlayId: 'o1', action: 'render', fields }],
    ] as const) {
      expect((await h.inject({ method: 'POST', url: `/api/census/${path}`, payload })).statusCode).toBe(204);
    }
    for (const event of await h.store.read.listCensusEvents()) expect(event.data).toMatchObject(fields);
    const extra = await h.inject({ method: 'POST', url: '/api/census/overlay', payload: { overlayId: 'o1', action: 'render', fields: { ...fields, email: 'x@y.z' } } });
    expect(json(extra).code).toBe('INVALID_CENSUS');
  });

  it('API-CEN-3c: what could open an order, a cart, a download or an unsubscribe is stored redacted (log-redaction.ts redactSecrets)', async () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const hit = (event: string, data: Record<string, unknown>) =>
      h.inject({ method: 'POST', url: '/api/census/RecordHit', headers: form, payload: `event=${event}&data=${encodeURIComponent(JSON.stringify(data))}` });
    expect((await hit('view', { url: 'https://shop.example/commerce/orders/o_MRY4v032/confirmed', title: 'Thanks' })).statusCode).toBe(204);
    expect((await hit('view', { url: 'https://shop.example/checkout?cartToken=c_8fj2kd' })).statusCode).toBe(204);
    expect((await hit('view', { url: 'https://shop.example/unsubscribe?email=ada%40example.com&token=9f86d081' })).statusCode).toBe(204);
    expect((await hit('commerce_purchase', { id: 'o_MRY4v032', purchasedCartId: 'c_8fj2kd', grandTotal: 2500 })).statusCode).toBe(204);
    const button = { visitorCookie: '', pageId: 'pg', pagePath: '/commerce/downloads/AbCdEf123/poster', buttonId: 'b1' };
    expect((await h.inject({ method: 'POST', url: '/api/census/button-click', payload: button })).statusCode).toBe(204);
    expect((await hit('view', { url: 'https://shop.example/shop?category=tees', title: 'Shop' })).statusCode).toBe(204);
    const stored = (await h.store.read.listCensusEvents()).map((event) => event.data);
    // Same clock for all six: their order in the table is their random ids'.
    expect(stored).toHaveLength(6);
    expect(stored).toEqual(expect.arrayContaining([
      { url: 'https://shop.example/commerce/orders/[redacted]/confirmed', title: 'Thanks' },
      { url: 'https://shop.example/checkout?cartToken=[redacted]' },
      { url: 'https://shop.example/unsubscribe?email=[redacted]&token=[redacted]' },
      { id: '[redacted]', purchasedCartId: '[redacted]', grandTotal: 2500 },
      { websiteId: null, pageId: 'pg', pagePath: '/commerce/downloads/[redacted]/poster', buttonId: 'b1' },
      { url: 'https://shop.example/shop?category=tees', title: 'Shop' },
    ]));
    expect(JSON.stringify(stored)).not.toMatch(/o_MRY4v032|c_8fj2kd|ada|9f86d081|AbCdEf123/);
  });

  it('API-CEN-4: quick views are recorded for known items only', async () => {
    const unknown = await h.inject({ method: 'POST', url: '/api/census/RecordQuickView/nope' });
    expect(unknown.statusCode).toBe(404);
    expect(json(unknown).code).toBe('ITEM_NOT_FOUND');
    const known = await h.inject({ method: 'POST', url: '/api/census/RecordQuickView/p1', headers: { 'content-type': 'application/json' }, payload: '' });
    expect(known.statusCode).toBe(204);
    expect((await h.store.read.listCensusEvents())[0]).toMatchObject({ kind: 'quick-view', data: { itemId: 'p1' } });
  });

  it('RecordEvent checks the crumb carried in its form body', async () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const body = (crumb: string) => `crumb=${crumb}&event=legacy&data=%7B%22a%22%3A1%7D`;
    const denied = await h.inject({ method: 'POST', url: '/api/events/RecordEvent', headers: form, cookies: { crumb: CRUMB }, payload: body('wrong') });
    expect(denied.statusCode).toBe(403);
    expect(cookieOf(denied, 'crumb')).toBeDefined();
    const ok = await h.inject({ method: 'POST', url: '/api/events/RecordEvent', headers: form, cookies: { crumb: CRUMB }, payload: body(CRUMB) });
    expect(ok.statusCode).toBe(204);
    expect((await h.store.read.listCensusEvents())[0]).toMatchObject({ kind: 'event', event: 'legacy', data: { a: 1 } });
  });
});

describe('general', () => {
  it('API-GEN-1: unknown paths are 404 and wrong methods 405 with Allow', async () => {
    const missing = await h.inject({ method: 'GET', url: '/api/nope' });
    expect(missing.statusCode).toBe(404);
    expect(json(missing)).toEqual({ error: 'Not found.', code: 'NOT_FOUND' });
    const wrong = await h.inject({ method: 'GET', url: '/api/form/FormSubmissionKey' });
    expect(wrong.statusCode).toBe(405);
    expect(wrong.headers.allow).toBe('POST');
    expect(json(wrong)).toEqual({ error: 'Method not allowed.', code: 'METHOD_NOT_ALLOWED' });
    const entry = await h.inject({ method: 'POST', url: '/api/commerce/shopping-cart/entries/e1' });
    expect(entry.statusCode).toBe(405);
    expect(entry.headers.allow).toBe('DELETE, PUT');
  });

  it('API-GEN-2: malformed JSON gets the B0.2 shape', async () => {
    const response = await h.inject(
      withCrumb({ method: 'POST', url: '/api/commerce/shopping-cart/entries', headers: { 'content-type': 'application/json' }, payload: '{"itemId":' }),
    );
    expect(response.statusCode).toBe(400);
    expect(json(response)).toEqual({ error: 'Request body is not valid JSON.', code: 'BAD_JSON' });
    const poisoned = await h.inject(
      withCrumb({ method: 'POST', url: '/api/commerce/shopping-cart/entries', headers: { 'content-type': 'application/json' }, payload: '{"__proto__":{"x":1}}' }),
    );
    expect(json(poisoned).code).toBe('BAD_JSON');
  });

  it('API-GEN-3: a 70 KiB body is too large for a 64 KiB endpoint', async () => {
    const response = await post('/api/commerce/shopping-cart/entries', { itemId: 'p1', padding: 'x'.repeat(70 * 1024) });
    expect(response.statusCode).toBe(413);
    expect(json(response)).toEqual({ error: 'Request body too large.', code: 'BODY_TOO_LARGE' });
    const media = await h.inject(
      withCrumb({ method: 'POST', url: '/api/commerce/shopping-cart/entries', headers: { 'content-type': 'application/xml' }, payload: '<a/>' }),
    );
    expect(json(media)).toEqual({ error: 'Unsupported content type.', code: 'UNSUPPORTED_MEDIA_TYPE' });
  });

  it('API-GEN-4: error responses are JSON with string error and code, never a stack', async () => {
    const responses = [
      await h.inject({ method: 'GET', url: '/api/nope' }),
      await h.inject({ method: 'GET', url: '/api/commerce/shopping-cart?mock=1' }),
      await post('/api/commerce/shopping-cart/entries', { itemId: 'nope', quantity: 1 }),
      await h.inject({ method: 'POST', url: '/api/commerce/shopping-cart/entries' }),
      await h.inject({ method: 'GET', url: '/api/%E0%A4%A' }),
    ];
    for (const response of responses) {
      expect(response.statusCode).toBeGreaterThanOrEqual(400);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      const body = json(response);
      expect(typeof body.error).toBe('string');
      expect(typeof body.code).toBe('string');
      expect(response.body).not.toMatch(/\bat .*\.ts:\d+/);
    }
  });
});
