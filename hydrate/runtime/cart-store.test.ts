// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { createPage, type Page } from '../test-support/page.ts';
import { cartWith } from '../test-support/products.ts';

let page: Page;
beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  page?.cleanup();
  vi.useRealTimers();
});

const cartGets = () => page.fetch.callsTo('/api/commerce/shopping-cart', 'GET');
const ready = () => document.documentElement.classList.contains('sf-cart-ready');

describe('A0 shared infrastructure: cart loading', () => {
  test('SH-1 no cart cookies: no request and the cart is ready at once', async () => {
    page = createPage({ body: '' });
    await page.boot();
    expect(cartGets()).toHaveLength(0);
    expect(ready()).toBe(true);
  });

  test('SH-2 hasCart=true: one GET with calculateSubtotal and a numeric timecode; ready only after it', async () => {
    page = createPage({ body: '', cookies: { hasCart: 'true' } });
    page.fetch.on('GET', '/api/commerce/shopping-cart', { json: cartWith(1, 100), delayMs: 50 });
    await page.boot();
    expect(cartGets()).toHaveLength(1);
    const url = new URL(cartGets()[0]!.url, 'http://x');
    expect(url.searchParams.get('calculateSubtotal')).toBe('true');
    expect(url.searchParams.get('timecode')).toMatch(/^\d+$/);
    expect(ready()).toBe(false);
    await page.advance(50);
    expect(ready()).toBe(true);
    expect(page.handle!.runtime.cart.status()).toBe('loaded');
  });

  test('SH-3 a CART cookie alone loads the cart', async () => {
    page = createPage({ body: '', cookies: { CART: 'anything' } });
    await page.boot();
    expect(cartGets()).toHaveLength(1);
  });

  test('SH-4 SiteUserInfo authenticated loads; unparsable SiteUserInfo does not', async () => {
    page = createPage({ body: '', cookies: { SiteUserInfo: encodeURIComponent('{"authenticated":true,"siteUserId":"u1"}') } });
    await page.boot();
    expect(cartGets()).toHaveLength(1);
    page.cleanup();
    page = createPage({ body: '', cookies: { SiteUserInfo: 'not-json' } });
    await page.boot();
    expect(cartGets()).toHaveLength(0);
    expect(ready()).toBe(true);
  });

  test('SH-5 a failed load still ends loaded, ready, with one report queued', async () => {
    page = createPage({ body: '', cookies: { hasCart: 'true' } });
    page.fetch.on('GET', '/api/commerce/shopping-cart', { status: 500, json: { error: 'Something went wrong.' } });
    await page.boot();
    await page.advance(0);
    const { cart, reporter } = page.handle!.runtime;
    expect(cart.status()).toBe('loaded');
    expect(ready()).toBe(true);
    expect(reporter.queued().filter((r) => r.event === 'cart_load_failed')).toHaveLength(1);
  });

  test('SH-6 loads requested during a load collapse into one more GET', async () => {
    page = createPage({ body: '', cookies: { hasCart: 'true' } });
    page.fetch.on('GET', '/api/commerce/shopping-cart', { json: cartWith(1, 100), delayMs: 100 });
    await page.boot();
    const { cart } = page.handle!.runtime;
    cart.load();
    cart.load();
    cart.load();
    expect(cartGets()).toHaveLength(1);
    await page.advance(100);
    expect(cartGets()).toHaveLength(2);
    await page.advance(100);
    expect(cartGets()).toHaveLength(2);
    expect(cart.status()).toBe('loaded');
  });

  test('a page restored from the back/forward cache loads the cart again; a fresh page show does not', async () => {
    page = createPage({ body: '', cookies: { hasCart: 'true' } });
    page.fetch.on('GET', '/api/commerce/shopping-cart', { json: cartWith(1, 100) });
    await page.boot();
    await page.advance(0);
    expect(cartGets()).toHaveLength(1);
    window.dispatchEvent(Object.assign(new Event('pageshow'), { persisted: false }));
    await page.advance(0);
    expect(cartGets()).toHaveLength(1);
    // The last line removed elsewhere cleared the cookie: the cart this page shows is reloaded anyway.
    document.cookie = 'hasCart=; expires=Thu, 01 Jan 1970 00:00:00 GMT';
    window.dispatchEvent(Object.assign(new Event('pageshow'), { persisted: true }));
    await page.advance(0);
    expect(cartGets()).toHaveLength(2);
    page.handle!.unmount();
    window.dispatchEvent(Object.assign(new Event('pageshow'), { persisted: true }));
    await page.advance(0);
    expect(cartGets()).toHaveLength(2);
  });
});
