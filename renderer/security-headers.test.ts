import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.ts';
import { CONTENT_SECURITY_POLICY, helmetOptions } from './security-headers.ts';
import { demoSeed, demoSite, reseed } from './test-support/page-harness.ts';
import { openTestStore } from './test-support/test-store.ts';
import type { SqlStore } from './store/store.ts';

// Every response carries the security headers: pages, the API (answers and errors), assets
// and unknown paths alike.

let store: SqlStore;
let app: FastifyInstance;
const assetsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-helmet-'));

beforeAll(async () => {
  fs.writeFileSync(path.join(assetsDir, 'islands.js'), 'export {};\n');
  store = await openTestStore();
  await reseed(store, await demoSeed());
  app = await buildApp({ store, site: await demoSite(), assetsDir });
}, 60_000);

afterAll(async () => {
  await app?.close();
  await store?.close();
  fs.rmSync(assetsDir, { recursive: true, force: true });
});

const EXPECTED_CSP =
  "default-src 'self';base-uri 'self';connect-src 'self';font-src 'self' https: data:;form-action 'self';frame-ancestors 'self';" +
  "img-src 'self' data: https:;object-src 'none';script-src 'self';script-src-attr 'none';style-src 'self' https: 'unsafe-inline'";

describe('security headers', () => {
  it.each([
    ['a page', 'GET', '/shop', 200],
    ['a missing page', 'GET', '/no-such-page', 404],
    ['the sitemap', 'GET', '/sitemap.xml', 200],
    ['an API answer', 'GET', '/api/commerce/shopping-cart', 200],
    ['an API error', 'POST', '/api/commerce/shopping-cart/entries', 403],
    ['an unknown API path', 'GET', '/api/nothing-here', 404],
    ['an asset', 'GET', '/assets/islands.js', 200],
    ['a missing asset', 'GET', '/assets/missing.js', 404],
  ])('are on %s', async (_what, method, url, status) => {
    const response = await app.inject({ method: method as 'GET' | 'POST', url });
    expect(response.statusCode).toBe(status);
    expect(response.headers).toMatchObject({
      'content-security-policy': EXPECTED_CSP,
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'SAMEORIGIN',
      'referrer-policy': 'strict-origin-when-cross-origin',
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
      'strict-transport-security': expect.stringMatching(/^max-age=\d+/),
    });
  });

  it.each(['/api/%E0%A4%A', '/%E0%A4%A'])('are on the router\'s 400 for a malformed URL %s (no hook runs for it)', async (url) => {
    const response = await app.inject(url);
    expect(response.statusCode).toBe(400);
    expect(response.headers).toMatchObject({ 'content-security-policy': EXPECTED_CSP, 'x-content-type-options': 'nosniff' });
  });

  it('the policy allows no inline script, and no upgrade to https (a server on plain HTTP keeps its assets)', () => {
    expect(CONTENT_SECURITY_POLICY['script-src']).toEqual(["'self'"]);
    expect(EXPECTED_CSP).not.toContain('upgrade-insecure-requests');
  });

  it('a page needs no inline script: every script is external or a JSON data block', async () => {
    for (const url of ['/', '/shop', '/shop/tee', '/contact', '/cart']) {
      const html = (await app.inject(url)).body;
      const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]!);
      expect(scripts.length, url).toBeGreaterThan(0);
      for (const attributes of scripts) expect(attributes, url).toMatch(/\bsrc="\/assets\/|type="application\/json"/);
    }
  });

  it('overrides replace or drop single directives', () => {
    const options = helmetOptions({ 'script-src': ["'self'", "'unsafe-inline'"], 'img-src': null });
    const directives = (options.contentSecurityPolicy as { directives: Record<string, string[]> }).directives;
    expect(directives['script-src']).toEqual(["'self'", "'unsafe-inline'"]);
    expect(directives['img-src']).toBeUndefined();
    expect(directives['default-src']).toEqual(["'self'"]);
  });
});
