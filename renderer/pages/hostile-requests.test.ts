import { describe, expect, it } from 'vitest';
import { CRUMB } from '../test-support/api-harness.ts';
import { useDemoHarness } from '../test-support/page-harness.ts';

// A second attack run against the page routes, for attacks issue 13's run did not list: Host
// and X-Forwarded-Host headers in the absolute URLs a page or the sitemap writes, and markup a
// visitor stores (an engraving, an order's address, a review) shown on the pages that print it.

const h = useDemoHarness({ resetEach: true });

const MARKUP = `"'><x-probe>`;

async function post(url: string, payload: unknown, cookies: Record<string, string> = {}) {
  const response = await h.inject({ method: 'POST', url, cookies: { crumb: CRUMB, ...cookies }, headers: { 'x-csrf-token': CRUMB }, payload: payload as object });
  expect(response.statusCode, response.body).toBe(200);
  return response;
}

/** The markup is shown as text: present, escaped, never as a tag or an attribute's end. */
function expectEscaped(html: string, where: string): void {
  expect(html, where).toContain('x-probe');
  expect(html, where).not.toContain('<x-probe>');
  expect(html, where).not.toMatch(/="[^"]*"'>/);
}

describe('Host and X-Forwarded-Host', () => {
  const forged = { host: 'evil.example', 'x-forwarded-host': 'evil2.example', 'x-forwarded-proto': 'javascript' };

  it('a page names neither: its links are paths of this site', async () => {
    for (const url of ['/', '/shop', '/shop/tee']) {
      const page = await h.inject({ url, headers: forged });
      expect(page.statusCode, url).toBe(200);
      expect(page.body, url).not.toMatch(/evil|javascript:/);
    }
  });

  it('the sitemap refuses a Host that is not a host[:port] (400 BAD_REQUEST), instead of writing it into every URL', async () => {
    for (const host of ['x y', 'a]b', 'evil.example"><x', 'evil.example/path', 'user@evil.example']) {
      const sitemap = await h.inject({ url: '/sitemap.xml', headers: { host } });
      expect([sitemap.statusCode, sitemap.json()], JSON.stringify(host)).toEqual([400, { error: 'Invalid Host header.', code: 'BAD_REQUEST' }]);
    }
    for (const host of ['shop.example', 'shop.example:8080', '127.0.0.1:3000', '[::1]:3000', 'localhost']) {
      const sitemap = await h.inject({ url: '/sitemap.xml', headers: { host } });
      expect(sitemap.statusCode, host).toBe(200);
      expect(sitemap.body, host).toContain(`<loc>http://${host}/shop/tee</loc>`);
      expect(sitemap.headers['cache-control']).toBe('no-store');
    }
  });
});

describe('markup a visitor stores', () => {
  it('an engraving, an order address and a review are shown escaped on the cart, order and product pages', async () => {
    const engraved = await post('/api/commerce/shopping-cart/entries', {
      itemId: 'mug', sku: null, quantity: 1, additionalFields: JSON.stringify({ 'engrave-text': MARKUP, 'engrave-font': 'Serif' }),
    });
    expectEscaped((await h.inject({ url: '/cart', cookies: { CART: engraved.cookies.find((c) => c.name === 'CART')!.value } })).body, 'cart');

    const { shoppingCart } = (await post('/api/commerce/shopping-cart/entries?express=true', { itemId: 'tee', sku: 'TEE-S', quantity: 1, additionalFields: null })).json();
    const address = { firstName: MARKUP, lastName: MARKUP, line1: MARKUP, line2: MARKUP, city: MARKUP, region: 'NY', postalCode: '12207', country: 'US' };
    const placed = (
      await post('/api/commerce/checkout/place', {
        cartToken: shoppingCart.id, email: 'ada@example.com', shippingAddress: address, shippingOptionId: 'standard',
        payment: { provider: 'test', cardNumber: '4242424242424242', expMonth: 12, expYear: 2034, cvc: '123' }, idempotencyKey: 'key-hostile-requests',
      })
    ).json();
    expectEscaped((await h.inject(placed.confirmationUrl)).body, 'order confirmed');
    const lookup = await h.inject({
      method: 'POST', url: '/commerce/orders/status', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ orderNumber: String(placed.orderNumber), email: 'ada@example.com' }).toString(),
    });
    expectEscaped(lookup.body, 'order status');

    const review = (await post('/api/commerce/reviews', { productId: 'tee', rating: 5, name: MARKUP, text: `${MARKUP} soft` })).json().review;
    expect(await h.store.read.reviews.approve('demo-site', review.id)).toBe(true);
    expectEscaped((await h.inject('/shop/tee')).body, 'product page');
    expectEscaped((await h.inject('/review?productId=tee')).body, 'reviews request page');
  });
});
