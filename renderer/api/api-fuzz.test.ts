import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqlStore } from '../store/store.ts';
import { ADMIN_TOKEN, CRUMB, freshHarness, type Harness } from '../test-support/api-harness.ts';
import { openTestStore } from '../test-support/test-store.ts';

// Junk at every route: malformed bodies, content types, headers, cookies, queries and path
// parameters must each give a 4xx JSON error body (or a success), never a 500 or a hang.

let store: SqlStore;
let h: Harness;

beforeAll(async () => {
  store = await openTestStore();
  h = await freshHarness(store, {
    limits: {
      loginFailures: { limit: 1_000_000, windowMs: 1000 },
      saveFormSubmission: { limit: 1_000_000, windowMs: 1000 },
      formSubmissionKey: { limit: 1_000_000, windowMs: 1000 },
      restockSignUp: { limit: 1_000_000, windowMs: 1000 },
    },
  });
}, 60_000);

afterAll(async () => {
  await store?.close();
});

const junkText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('', '\u0000', '\ud800', '%', '%%%', '../..', 'p1', 'SQ-1', 'vso1', 'pso', 'contact', '{', '[]', 'null', 'true'),
);

const junkJson = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.record(
    {
      itemId: fc.oneof(junkText, fc.constant('p1'), fc.integer()),
      sku: fc.oneof(junkText, fc.constant(null), fc.constant('SQ-1')),
      quantity: fc.oneof(fc.integer(), fc.double(), junkText, fc.constant(null)),
      qty: fc.oneof(fc.integer({ min: -2, max: 3 }), junkText),
      additionalFields: fc.oneof(junkText, fc.constant('{"f1":"x"}'), fc.constant(null)),
      productId: fc.oneof(junkText, fc.constant('pso')),
      variantId: fc.oneof(junkText, fc.constant('vso1')),
      siteVisitorEmail: fc.oneof(junkText, fc.constant('a@example.com')),
      email: fc.oneof(junkText, fc.constant('alice@example.com')),
      password: junkText,
      rememberMe: fc.oneof(fc.boolean(), junkText),
      language: junkText,
      form: fc.oneof(junkText, fc.constant('{"q":"x"}')),
      key: junkText,
      formId: fc.oneof(junkText, fc.constant('contact')),
      sendRequests: fc.oneof(fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }), junkText),
      qtyInStock: fc.oneof(fc.integer(), fc.double(), junkText),
      unlimited: fc.oneof(fc.boolean(), junkText),
      event: junkText,
      data: fc.jsonValue({ maxDepth: 2 }),
      timestamp: fc.oneof(fc.double(), junkText),
    },
    { requiredKeys: [] },
  ),
  fc.array(fc.record({ event: junkText, data: fc.jsonValue({ maxDepth: 2 }), timestamp: fc.double() }), { maxLength: 3 }),
);

const junkBody = fc.oneof(
  junkJson.map((value) => ({ type: 'application/json', payload: JSON.stringify(value) ?? 'null' })),
  junkText.map((text) => ({ type: 'application/json', payload: text })),
  junkText.map((text) => ({ type: 'application/x-www-form-urlencoded', payload: `event=${pct(text)}&data=${pct(text)}&crumb=${CRUMB}` })),
  junkText.map((text) => ({ type: 'text/plain', payload: text })),
  fc.tuple(fc.constantFrom('application/xml', 'multipart/form-data', 'garbage', 'application/json; charset=utf-16', ''), junkText).map(
    ([type, payload]) => ({ type, payload }),
  ),
  fc.constant({ type: 'application/json', payload: '['.repeat(5000) + ']'.repeat(5000) }),
  fc.constant({ type: 'application/json', payload: JSON.stringify({ data: { deep: JSON.parse('['.repeat(100) + ']'.repeat(100)) } }) }),
  fc.constant(null),
);

const junkQuery = fc.oneof(
  fc.constant(''),
  fc.array(fc.tuple(fc.constantFrom('itemId', 'mock', 'cloneCart', 'cursor', 'limit', 'productId', 'variantId', 'type', 'express', 'x'), junkText), { maxLength: 4 }).map(
    (pairs) => pairs.map(([name, value]) => `${name}=${pct(value)}`).join('&'),
  ),
  fc.constantFrom('%', 'a=%ZZ', 'mock=true&mock=false', 'cursor=%00', 'limit=1e3', 'itemId[]=1'),
);

const junkCookies = fc.record(
  {
    crumb: fc.oneof(fc.constant(CRUMB), junkText),
    CART: junkText,
    SiteUserSecureAuthToken: junkText,
    SiteUserInfo: junkText,
  },
  { requiredKeys: [] },
);

/** Percent-encodes every UTF-8 byte (lone surrogates become U+FFFD, as a browser would send). */
function pct(value: string): string {
  return [...Buffer.from(value, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
}

/** A raw Cookie header: printable values go as they are, anything else byte-percent-encoded. */
function cookieHeader(cookies: Record<string, string>): string {
  return Object.entries(cookies)
    .map(([name, value]) => {
      const raw = /^[\x21-\x3a\x3c-\x7e]*$/.test(value)
        ? value
        : pct(value);
      return `${name}=${raw}`;
    })
    .join('; ');
}

// Most requests pass the method and guard checks, so the junk reaches the handlers.
const mostly = fc.integer({ min: 0, max: 4 }).map((roll) => roll > 0);

function fillPath(path: string, params: string[]): string {
  let index = 0;
  return path
    .split('/')
    .map((segment) => (segment.startsWith(':') ? pct(params[index++] ?? 'x') : segment))
    .join('/');
}

describe('API fuzz', () => {
  it('answers junk at every route with a 4xx JSON error or a success, never a 5xx', async () => {
    const routes = h.app.storefrontApiRoutes();
    expect(routes.length).toBeGreaterThanOrEqual(25);

    const failures: string[] = [];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        mostly,
        fc.array(junkText, { minLength: 2, maxLength: 2 }),
        junkQuery,
        junkBody,
        junkCookies,
        mostly,
        mostly,
        async (route, sameMethod, params, query, body, cookies, sendCrumb, sendAdmin) => {
          const method = sameMethod ? route.method : (route.method === 'GET' ? 'POST' : 'GET');
          const url = fillPath(route.path, params) + (query ? `?${query}` : '');
          const headers: Record<string, string> = {};
          if (sendCrumb) headers['x-csrf-token'] = CRUMB;
          if (sendAdmin) headers.authorization = `Bearer ${ADMIN_TOKEN}`;
          if (Object.keys(cookies).length > 0) headers.cookie = cookieHeader(cookies);
          const options: InjectOptions = { method: method as InjectOptions['method'], url, headers };
          if (body && method !== 'GET') {
            if (body.type) headers['content-type'] = body.type;
            options.payload = body.payload;
          }
          const response = await h.app.inject(options);
          const status = response.statusCode;
          if (status >= 500) failures.push(`${method} ${url} -> ${status} ${response.body.slice(0, 200)}`);
          if (status >= 400) {
            expect(response.headers['content-type']).toMatch(/^application\/json/);
            const parsed = JSON.parse(response.body);
            expect(typeof parsed.error).toBe('string');
            expect(typeof parsed.code).toBe('string');
          }
          expect(failures).toEqual([]);
        },
      ),
      { numRuns: 1500, seed: 20261122 },
    );
  }, 60_000);

  it('answers a raw malformed cookie header and odd URLs with 4xx', async () => {
    const odd = [
      { method: 'GET', url: '/api/commerce/shopping-cart', headers: { cookie: 'CART=%E0%A4%A; crumb=;;; =x; SiteUserInfo=%7Bbad' } },
      { method: 'GET', url: '/api/%' },
      { method: 'GET', url: '/api/commerce/inventory/stock/?itemId=%00' },
      { method: 'POST', url: '/api/census/RecordQuickView/%ED%A0%80' },
      { method: 'DELETE', url: '/api/commerce/shopping-cart/entries/%2F..%2F' },
    ] as const;
    for (const request of odd) {
      const response = await h.app.inject(request as InjectOptions);
      expect(response.statusCode).toBeLessThan(500);
      if (response.statusCode >= 400) expect(typeof JSON.parse(response.body).code).toBe('string');
    }
  });
});
