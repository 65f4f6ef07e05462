import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from './app.ts';
import { loggableUrl, maskEmails, redactSecrets, redactSecretsDeep, serializeError, type ScanWork } from './log-redaction.ts';
import type { SqlStore } from './store/store.ts';
import { acceptanceSeed, ADMIN_TOKEN, CRUMB } from './test-support/api-harness.ts';
import { demoSite, reseed } from './test-support/page-harness.ts';
import { openTestStore } from './test-support/test-store.ts';

// The server logs at `trace` into an array while a visitor signs in with a wrong password,
// submits a form, unlocks with a wrong password and meets a 500 whose database error holds
// the row's values; none of the visitor's secrets or values may appear in any line.

const EMAIL = 'alice@example.com';
const WRONG_PASSWORD = 'hunter2-wrong-pass';
const MESSAGE = 'my-private-message-8d1f';
const NAME = 'Zebedee-Quintana';
const CART = 'cart-cookie-value-4c2a';
const AUTH = 'auth-cookie-value-9e7b';
const XSRF = 'siteuser-xsrf-value-2b6d';

let store: SqlStore;
let app: FastifyInstance;
const lines: string[] = [];
let failWrites = false;

beforeAll(async () => {
  store = await openTestStore();
  await reseed(store, await acceptanceSeed());
  // A store whose writes and site reads fail on demand the way PostgreSQL does: the message
  // names the constraint, the detail and the parameters hold the row's values.
  // Page data reads fail too, so the page renderer's 500 path logs the same error.
  const reads = new Proxy(store.read, {
    get: (repo, name) => (name === 'getSite' && failWrites ? async () => Promise.reject(databaseError()) : Reflect.get(repo, name)),
  });
  const failing = new Proxy(store, {
    get(target, key, receiver) {
      // The app keeps the read side it was built with: its site read checks the switch each time.
      if (key === 'read') return reads;
      if (key === 'transaction' && failWrites) {
        return async () => {
          throw databaseError();
        };
      }
      const value = Reflect.get(target, key, receiver) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  function databaseError(): Error {
    return Object.assign(new Error(`duplicate key value violates unique constraint "submissions_pkey" for ${EMAIL}`), {
      code: '23505',
      detail: `Key (email_key)=(${EMAIL}) already exists.`,
      parameters: [EMAIL, MESSAGE, NAME],
      // PostgreSQL's data exceptions (class 22) quote the value in the message itself.
      cause: Object.assign(new Error(`invalid input syntax for type integer: "${MESSAGE}"`), { code: '22P02', where: NAME }),
    });
  }
  app = await buildApp({
    store: failing,
    site: await demoSite(),
    adminToken: ADMIN_TOKEN,
    logger: { level: 'trace', stream: { write: (line: string) => void lines.push(line) } },
  });
}, 60_000);

afterAll(async () => {
  await app?.close();
  await store?.close();
});

beforeEach(() => {
  lines.length = 0;
  failWrites = false;
});

/** A request carrying every cookie and token a signed-in visitor's browser sends. */
function visitor(options: InjectOptions): InjectOptions {
  return {
    ...options,
    cookies: { crumb: CRUMB, CART, SiteUserSecureAuthToken: AUTH, ...options.cookies },
    headers: { 'x-csrf-token': CRUMB, 'x-siteuser-xsrf-token': XSRF, authorization: `Bearer ${ADMIN_TOKEN}`, ...options.headers },
  };
}

const SECRETS = [EMAIL, WRONG_PASSWORD, MESSAGE, NAME, CRUMB, CART, AUTH, XSRF, ADMIN_TOKEN];

function leaks(): string[] {
  const text = lines.join('');
  return SECRETS.filter((secret) => text.toLowerCase().includes(secret.toLowerCase()));
}

async function submission(): Promise<Record<string, unknown>> {
  const key = (await app.inject(visitor({ method: 'POST', url: '/api/form/FormSubmissionKey' }))).json().key as string;
  return {
    key,
    formId: 'contact',
    form: JSON.stringify({ name: [NAME, 'Lee'], msg: MESSAGE }),
    pageTitle: 'Contact us',
    pageId: 'page-1',
    contentSource: 'c',
    pagePath: '/contact',
    pagePermissionTypeValue: 1,
  };
}

describe('log redaction', () => {
  it('a wrong password, a form submission and an unlock attempt log none of the visitor\'s values', async () => {
    const signIn = await app.inject(visitor({ method: 'POST', url: '/api/site-users/account/session', payload: { email: EMAIL, password: WRONG_PASSWORD } }));
    expect(signIn.statusCode).toBeGreaterThanOrEqual(400);
    const saved = await app.inject(visitor({ method: 'POST', url: '/api/form/SaveFormSubmission', payload: await submission() }));
    expect(saved.statusCode).toBe(200);
    const unlock = await app.inject(
      visitor({ method: 'POST', url: `/unlock?email=${encodeURIComponent(EMAIL)}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `scope=site&password=${WRONG_PASSWORD}&returnTo=/` }),
    );
    expect(unlock.statusCode).toBeLessThan(500);
    const page = await app.inject(visitor({ method: 'GET', url: `/shop?q=${MESSAGE}&cartToken=${CART}` }));
    expect(page.statusCode).toBe(200);
    // Every request was logged (not a silent logger), by path and query names.
    expect(lines.join('')).toContain('"url":"/shop?q&cartToken"');
    expect(lines.filter((line) => line.includes('request completed')).length).toBeGreaterThanOrEqual(5);
    expect(leaks()).toEqual([]);
  });

  it("a password reset (request, link check, new password) logs none of the email, token or password", async () => {
    const NEW_PASSWORD = 'new-password-5f3c9a';
    const asked = await app.inject(visitor({ method: 'POST', url: '/api/site-users/account/password-reset', payload: { email: EMAIL } }));
    expect(asked.statusCode).toBe(200);
    // The lookup and the mail run after the answer (api/after-response.ts).
    await app.storefrontApiSettled();
    const mail = (await store.read.listOutbox()).filter((row) => row.subject === 'Reset your password').at(-1)!;
    const token = /#reset-password=([A-Za-z0-9_-]+)/.exec(mail.body)![1]!;
    const checked = await app.inject(visitor({ method: 'POST', url: '/api/site-users/account/password-reset/check', payload: { token } }));
    expect(checked.statusCode).toBe(200);
    const short = await app.inject(visitor({ method: 'POST', url: '/api/site-users/account/password', payload: { token, password: 'short1' } }));
    expect(short.statusCode).toBe(400);
    const changed = await app.inject(visitor({ method: 'POST', url: '/api/site-users/account/password', payload: { token, password: NEW_PASSWORD } }));
    expect(changed.statusCode).toBe(200);
    const link = await app.inject({ method: 'GET', url: '/account/reset-password' });
    expect(link.statusCode).toBe(303);
    expect(lines.filter((line) => line.includes('request completed')).length).toBeGreaterThanOrEqual(5);
    const text = lines.join('').toLowerCase();
    expect([...SECRETS, token, NEW_PASSWORD, 'short1'].filter((secret) => text.includes(secret.toLowerCase()))).toEqual([]);
  });

  it('a 500 (API and page) logs the error by type, message and code, without the database detail holding the values', async () => {
    const body = await submission();
    failWrites = true;
    const saved = await app.inject(visitor({ method: 'POST', url: '/api/form/SaveFormSubmission', payload: body }));
    expect(saved.statusCode).toBe(500);
    const page = await app.inject(visitor({ method: 'GET', url: `/contact?name=${NAME}` }));
    expect(page.statusCode).toBe(500);
    expect(lines.some((line) => line.includes('page render failed'))).toBe(true);
    const logged = lines.map((line) => JSON.parse(line) as { level: number; err?: Record<string, unknown> }).filter((entry) => entry.level >= 50);
    expect(logged.length).toBeGreaterThan(0);
    expect(logged[0]!.err).toMatchObject({
      type: 'Error',
      code: '23505',
      message: 'duplicate key value violates unique constraint "submissions_pkey" for [email]',
      cause: { type: 'Error', code: '22P02', message: 'database data exception 22P02 (the message quotes the value)' },
    });
    expect(leaks()).toEqual([]);
  });

  it('a reset mail that could not be queued answers as ever and logs the failure without the address; its job waits for the recovery', async () => {
    failWrites = true;
    const asked = await app.inject(visitor({ method: 'POST', url: '/api/site-users/account/password-reset', payload: { email: EMAIL } }));
    expect(asked.statusCode).toBe(200);
    await app.storefrontApiSettled();
    const logged = lines.map((line) => JSON.parse(line) as { level: number; msg?: string; err?: Record<string, unknown> }).filter((entry) => entry.level >= 50);
    // The job recorded before the answer stays, for the recovery to run (api/after-response.ts).
    expect(logged.map((entry) => entry.msg)).toEqual(['after-answer job failed; it will be retried']);
    expect(await store.read.listAfterAnswerJobs()).toMatchObject([{ kind: 'password-reset', attempts: 0 }]);
    expect(logged[0]!.err).toMatchObject({ code: '23505', message: 'duplicate key value violates unique constraint "submissions_pkey" for [email]' });
    expect(leaks()).toEqual([]);
  });
});

describe('log serializers', () => {
  it('keep only the names of query parameters', () => {
    expect(loggableUrl('/checkout?cartToken=abc&x=1&flag')).toBe('/checkout?cartToken&x&flag');
    expect(loggableUrl('/shop')).toBe('/shop');
    // A part without `=` is logged as its name only when it looks like one.
    expect(loggableUrl('/commerce/orders/status?email&orderNumber=1&secret.person@example.com&pw:hunter2')).toBe('/commerce/orders/status?email&orderNumber&[redacted]&[redacted]');
    expect(loggableUrl('/unsubscribe;email=leak@example.com?token=x')).toBe('/unsubscribe;email=[email]?token');
    expect(loggableUrl('/unsubscribe/leak%40example.com')).toBe('/unsubscribe/[email]');
  });

  it('mask e-mail addresses and keep an error to type, message, code and stack', () => {
    expect(maskEmails('no user "Bob.Smith+x@mail.example.org" here')).toBe('no user "[email]" here');
    const error = Object.assign(new TypeError('bad'), { code: 'E1', detail: 'secret', values: { a: 1 } });
    expect(Object.keys(serializeError(error) as object).sort()).toEqual(['code', 'message', 'stack', 'type']);
  });

  it("mask a download link's token and an order page's id in a logged path (each opens the buyer's order)", () => {
    expect(loggableUrl('/commerce/downloads/AbCdEfGhIjKlMnOpQrStUvWxYz012345/poster?x=1')).toBe('/commerce/downloads/[redacted]/poster?x');
    expect(loggableUrl('/commerce/orders/o_MRY4v032JJqTCTUJ/confirmed')).toBe('/commerce/orders/[redacted]/confirmed');
    expect(loggableUrl('/commerce/orders/o_MRY4v032JJqTCTUJ/received')).toBe('/commerce/orders/[redacted]/received');
    expect(loggableUrl('/api/commerce/orders/o_MRY4v032JJqTCTUJ/status')).toBe('/api/commerce/orders/[redacted]/status');
    // The order status form and the order list have no secret in their path.
    expect(loggableUrl('/commerce/orders/status?order=3')).toBe('/commerce/orders/status?order');
    expect(loggableUrl('/api/commerce/orders')).toBe('/api/commerce/orders');
    expect(loggableUrl('/api/commerce/orders/o_MRY4v032JJqTCTUJ')).toBe('/api/commerce/orders/[redacted]');
  });

  it('mask addresses as the patterns did: leftmost local@domain.tld of each run, between stop characters', () => {
    expect(maskEmails('a@b@c.d and x@y.z@w.v, "p@q.r" @s.t u@.v u@v. ')).toBe('a@[email] and [email]@w.v, "[email]" @s.t u@.v u@v. ');
    expect(loggableUrl('/x/a@b.c;d@e.f/g@h')).toBe('/x/[email];[email]/g@h');
  });

  // The masks were regular expressions that scanned to the end of a run from every start
  // position: a 15,000-letter path cost 1.1 s of CPU to log. The work is counted, at n and 4n.
  it('mask in work that grows with the length of the text, not its square', () => {
    const work = (mask: (work: ScanWork) => void): number => {
      const counted = { steps: 0 };
      mask(counted);
      return counted.steps;
    };
    for (const hostile of [(n: number) => 'a'.repeat(n), (n: number) => `a@${'a'.repeat(n)}`, (n: number) => 'a@'.repeat(n), (n: number) => `${'a.'.repeat(n)}@`]) {
      const small = 4_000;
      const path = (n: number) => work((counted) => loggableUrl(`/${hostile(n)}`, counted));
      const message = (n: number) => work((counted) => maskEmails(hostile(n), counted));
      for (const steps of [path, message]) {
        // Every character is read (the count is the scan's own), and none more than three times.
        expect(steps(small)).toBeGreaterThanOrEqual(hostile(small).length);
        expect(steps(small)).toBeLessThanOrEqual(3 * hostile(small).length + 3);
        expect(steps(4 * small)).toBeLessThanOrEqual(4 * steps(small) + 8);
      }
    }
  });
});

// What the census and platform analytics tables store of a page's address (census-routes.ts,
// platform-routes.ts): nothing in them may open an order, a cart, a download or an unsubscribe.
describe('texts stored by the census', () => {
  it("an order page's id, in a path or a full address, is stored redacted", () => {
    expect(redactSecrets('/commerce/orders/o_MRY4v032JJqTCTUJ/confirmed')).toBe('/commerce/orders/[redacted]/confirmed');
    expect(redactSecrets('https://shop.example/commerce/orders/o_MRY4v032JJqTCTUJ/received?x=1#top')).toBe('https://shop.example/commerce/orders/[redacted]/received?x=1#top');
    expect(redactSecrets('https://shop.example/commerce/orders/o_MRY4v032JJqTCTUJ')).toBe('https://shop.example/commerce/orders/[redacted]');
    expect(redactSecrets('/api/commerce/orders/o_1/subscription-confirmed')).toBe('/api/commerce/orders/[redacted]/subscription-confirmed');
  });

  it('a download token is stored redacted', () => {
    expect(redactSecrets('/commerce/downloads/AbCdEfGhIjKlMnOpQrStUvWxYz012345/poster')).toBe('/commerce/downloads/[redacted]/poster');
    expect(redactSecrets('https://shop.example/commerce/downloads/AbCdEfGh?file=1')).toBe('https://shop.example/commerce/downloads/[redacted]?file=1');
  });

  it("a cartToken query value is stored redacted, the other parameters' values kept", () => {
    expect(redactSecrets('/checkout?cartToken=c_8fj2kd&utm_source=mail')).toBe('/checkout?cartToken=[redacted]&utm_source=mail');
    expect(redactSecrets('https://shop.example/checkout?utm_source=mail&CARTTOKEN=c_8fj2kd#pay')).toBe('https://shop.example/checkout?utm_source=mail&CARTTOKEN=[redacted]#pay');
  });

  it("an unsubscribe link's email and token are stored redacted", () => {
    expect(redactSecrets('https://shop.example/newsletter/unsubscribe?email=ada%40example.com&token=9f86d081884c7d65')).toBe(
      'https://shop.example/newsletter/unsubscribe?email=[redacted]&token=[redacted]',
    );
    expect(redactSecrets('/unsubscribe;email=ada@example.com;token=9f86')).toBe('/unsubscribe;email=[redacted];token=[redacted]');
    // An address anywhere else (a path, a title) is masked, plain or percent-encoded.
    expect(redactSecrets('/members/ada%40example.com/profile')).toBe('/members/[email]/profile');
    expect(redactSecrets('Welcome, ada@example.com')).toBe('Welcome, [email]');
  });

  it("a password reset link's token is stored without its token", () => {
    expect(redactSecrets('https://shop.example/#reset-password=Zm9vYmFyYmF6')).toBe('https://shop.example/#reset-password');
  });

  it('ordinary paths and texts are stored as they were', () => {
    for (const text of [
      '/',
      '/shop?category=tees&page=2',
      'https://shop.example/blog/2026/spring-sale#comments',
      '/commerce/orders/status',
      '/commerce/orders/status?orderNumber=3',
      '/commerce/orders',
      '/search?q=100%25%20cotton',
      'Spring Sale: 20% off!',
      '/api/commerce/checkout',
    ]) {
      expect(redactSecrets(text), text).toBe(text);
    }
  });

  it("a beacon's data: every string redacted, the cart and order keys of commerce events dropped, the rest kept", () => {
    const data = {
      url: 'https://shop.example/commerce/orders/o_1/confirmed',
      title: 'Order confirmed',
      cartId: 'c_8fj2kd',
      purchasedCartId: 'c_8fj2kd',
      viewportInnerWidth: 1280,
      items: [{ itemId: 'p1', quantity: 2, referrer: '/checkout?cartToken=c_8fj2kd' }],
      nested: { pagePath: '/commerce/downloads/tok123/file' },
      logged_in: false,
      missing: null,
    };
    expect(redactSecretsDeep(data)).toEqual({
      url: 'https://shop.example/commerce/orders/[redacted]/confirmed',
      title: 'Order confirmed',
      cartId: '[redacted]',
      purchasedCartId: '[redacted]',
      viewportInnerWidth: 1280,
      items: [{ itemId: 'p1', quantity: 2, referrer: '/checkout?cartToken=[redacted]' }],
      nested: { pagePath: '/commerce/downloads/[redacted]/file' },
      logged_in: false,
      missing: null,
    });
  });
});
