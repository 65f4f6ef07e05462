import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { useDemoHarness } from '../test-support/page-harness.ts';

// Malformed headers, cookies, queries and paths at the page routes never give a 500: each
// answers 2xx/3xx/4xx, and page answers are HTML.

const h = useDemoHarness();

const PATHS = ['/', '/shop', '/shop/tee', '/cart', '/checkout', '/checkout/gift-card', '/checkout/subscription', '/search', '/members', '/commerce/orders/o1/confirmed', '/journal', '/nope', '/sitemap.xml'];
const junkText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('%', '%zz', '%00', '\u0000', '{"authenticated":true', '%7Bbad', '../../etc/passwd', 'a'.repeat(3000), '\ud800', '=;=;', '[]', 'null'),
);
const cookieName = fc.constantFrom('crumb', 'CART', 'hasCart', 'SiteUserSecureAuthToken', 'SiteUserInfo', 'sf_unlock', 'sf_unlock_members', 'x');
const safeHeader = (text: string) => text.replace(/[^\t\x20-\x7e]/g, '');

describe('junk input at page routes', () => {
  it('never answers 500', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...PATHS),
        fc.array(fc.tuple(cookieName, junkText), { maxLength: 4 }),
        fc.array(fc.tuple(fc.constantFrom('q', 'cartToken', 'itemId', 'sku', 'q[]', 'x'), junkText), { maxLength: 4 }),
        fc.option(junkText),
        fc.constantFrom('GET', 'HEAD', 'POST', 'DELETE'),
        async (path, cookies, query, extraSegment, method) => {
          const cookie = cookies.map(([name, value]) => `${name}=${safeHeader(value)}`).join('; ');
          const search = query.map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value.replace(/[\ud800-\udfff]/g, ''))}`).join('&');
          const url = (extraSegment === null ? path : `${path}/${encodeURIComponent(extraSegment.replace(/[\ud800-\udfff]/g, ''))}`) + (search ? `?${search}` : '');
          const response = await h.inject({ method: method as 'GET', url, headers: { cookie, 'accept-language': safeHeader(extraSegment ?? ''), host: 'x' } });
          expect(response.statusCode, `${method} ${url} cookie=${cookie}`).toBeLessThan(500);
          if (method === 'GET' && [200, 403, 404].includes(response.statusCode) && !url.startsWith('/sitemap.xml')) {
            expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
          }
        },
      ),
      { numRuns: 250, seed: 20261124 },
    );
  }, 120_000);

  it('answers raw malformed URLs and percent-encodings without a 500', async () => {
    for (const url of ['/%', '/%E0%A4%A', '/shop/%zz', '//shop', '/shop//tee', '/shop/tee/extra', '/search?q=%', '/search?q=a&q=b', '/cart?%=%', '/checkout?cartToken[]=x', '/commerce/orders/%00/confirmed']) {
      const response = await h.inject(url);
      expect(response.statusCode, url).toBeLessThan(500);
    }
  });

  it('treats cookies holding NUL or lone surrogates as absent', async () => {
    for (const cookie of ['CART=%00', 'SiteUserSecureAuthToken=a%00b', 'CART=%ED%A0%80', 'crumb=%00%00%00%00%00%00%00%00%00%00%00%00%00%00%00%00']) {
      const response = await h.inject({ url: '/cart', headers: { cookie } });
      expect(response.statusCode, cookie).toBe(200);
    }
  });
});
