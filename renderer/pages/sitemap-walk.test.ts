import { describe, expect, it } from 'vitest';
import { CRUMB } from '../test-support/api-harness.ts';
import { sfContext, useDemoHarness } from '../test-support/page-harness.ts';

// Every page the demo site lists in its sitemap answers 200 with no template diagnostic and
// no content problem. Pages added to the demo folder later are covered by the same walk.

const h = useDemoHarness();

describe('demo sitemap', () => {
  it('is XML listing the home page, the shop and every product', async () => {
    const response = await h.inject({ url: '/sitemap.xml', headers: { host: 'shop.example' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(response.body).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/);
    expect(response.body).toContain('<loc>http://shop.example/</loc>');
    expect(response.body).toContain('<loc>http://shop.example/shop/hoodie</loc>');
    expect(response.body).not.toContain('/members<');
  });

  it('every listed page answers 200 with zero template diagnostics', async () => {
    const sitemap = await h.inject('/sitemap.xml');
    const paths = [...sitemap.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1]!.replaceAll('&amp;', '&')).pathname);
    expect(paths.length).toBeGreaterThanOrEqual(15);
    const failures: string[] = [];
    for (const path of paths) {
      const response = await h.inject(path);
      const page = h.lastPage();
      if (response.statusCode !== 200) failures.push(`${path}: status ${response.statusCode}`);
      for (const d of page?.diagnostics ?? []) failures.push(`${path}: ${d.source}:${d.line}:${d.column} ${d.code} ${d.message}`);
      for (const problem of page?.problems ?? []) failures.push(`${path}: ${problem}`);
      if (response.statusCode === 200 && sfContext(response.body).pagePath !== path) failures.push(`${path}: sf-context.pagePath differs`);
    }
    expect(failures).toEqual([]);
  }, 60_000);

  it('the fixed commerce pages render with zero template diagnostics too', async () => {
    const cart = await h.inject({ method: 'POST', url: '/api/commerce/shopping-cart/entries', cookies: { crumb: CRUMB }, headers: { 'x-csrf-token': CRUMB }, payload: { itemId: 'tee', sku: 'TEE-M', quantity: 2 } });
    const cartId = (cart.json() as { shoppingCart: { id: string } }).shoppingCart.id;
    const pages: [string, number, number][] = [
      ['/cart', 200, 200],
      [`/checkout?cartToken=${cartId}`, 200, 201],
      ['/checkout/gift-card?itemId=gift-card&sku=GC-25', 200, 201],
      ['/commerce/orders/o1/confirmed', 200, 202],
      ['/search?q=mug', 200, 102],
      ['/search', 200, 102],
      ['/no-such-page', 404, 100],
      ['/members', 403, 106],
    ];
    const failures: string[] = [];
    for (const [path, status, pageType] of pages) {
      const response = await h.inject({ url: path, cookies: { CART: cartId } });
      const page = h.lastPage();
      if (response.statusCode !== status || page?.pageType !== pageType) failures.push(`${path}: ${response.statusCode} type ${page?.pageType}`);
      for (const d of page?.diagnostics ?? []) failures.push(`${path}: ${d.source}:${d.line}:${d.column} ${d.code} ${d.message}`);
      for (const problem of page?.problems ?? []) failures.push(`${path}: ${problem}`);
    }
    expect(failures).toEqual([]);
  }, 60_000);
});
