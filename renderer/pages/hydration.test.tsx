// @vitest-environment happy-dom
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { useDemoHarness } from '../test-support/page-harness.ts';
import { createPage, type Page } from '../../hydrate/test-support/page.ts';
import { CRUMB } from '../test-support/api-harness.ts';

// The islands must hydrate the renderer's real pages without a recoverable error: the
// server output is loaded into happy-dom and booted with the production island bundle code.

let page: Page | null = null;

beforeAll(() => {
  // The platform trackers send beacons; in happy-dom those would reach a real socket.
  Object.defineProperty(navigator, 'sendBeacon', { configurable: true, value: () => true });
});

const h = useDemoHarness();

afterEach(() => {
  page?.cleanup();
  page = null;
  vi.useRealTimers();
  // Trackers may still flush after a page is torn down; they must not reach the network.
  vi.stubGlobal('fetch', async () => new Response('{}', { status: 200 }));
});

/** The body of a rendered page, minus its scripts, and its sf-context. */
async function served(url: string): Promise<{ body: string; context: Record<string, unknown> }> {
  const html = (await h.inject(url)).body;
  const body = /<body[^>]*>([\s\S]*)<\/body>/.exec(html)![1]!;
  const context = JSON.parse(/id="sf-context"[^>]*>([\s\S]*?)<\/script>/.exec(body)![1]!);
  return { body: body.replace(/<script type="application\/json" id="sf-context"[\s\S]*?<\/script>/, '').replace(/<script type="module"[^>]*><\/script>/g, ''), context };
}

/** Every page of the demo sitemap, plus pages it does not list. */
async function demoPaths(): Promise<string[]> {
  const sitemap = (await h.inject('/sitemap.xml')).body;
  return [...[...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname), '/members', '/cart', '/search?q=e', '/no-such-page'];
}

describe('islands hydrate the rendered pages', () => {
  it('every demo page hydrates with no recoverable error', async () => {
    const paths = await demoPaths();
    expect(paths).toContain('/shop/hoodie');
    let hydrated = 0;
    for (const url of paths) {
      vi.useFakeTimers();
      const { body, context } = await served(url);
      page = createPage({ body, context });
      await page.boot();
      await page.advance(50);
      expect(page.recoverableErrors, url).toEqual([]);
      const containers = document.querySelectorAll('[data-island], .sqs-add-to-cart-button-wrapper, .product-variants, .product-restock-notification');
      hydrated += containers.length;
      for (const container of containers) {
        if (container.closest('[data-island="bnpl"]') && container.getAttribute('data-island') !== 'bnpl') continue;
        expect(container.getAttribute('data-hydrated'), `${url} ${container.outerHTML.slice(0, 80)}`).toBe('true');
      }
      page.cleanup();
      page = null;
      vi.useRealTimers();
    }
    expect(hydrated).toBeGreaterThan(paths.length);
  }, 120_000);

  it('the cart page with entries hydrates its cart-page island cleanly', async () => {
    const add = async (sku: string, quantity: number, cartId?: string) => {
      const response = await h.inject({
        method: 'POST',
        url: '/api/commerce/shopping-cart/entries',
        cookies: { crumb: CRUMB, ...(cartId ? { CART: cartId } : {}) },
        headers: { 'x-csrf-token': CRUMB },
        payload: { itemId: 'tee', sku, quantity, additionalFields: null },
      });
      expect(response.statusCode).toBe(200);
      return response.json() as { shoppingCart: { id: string } };
    };
    const cartId = (await add('TEE-S', 2)).shoppingCart.id;
    const { shoppingCart } = await add('TEE-M', 1, cartId);
    const html = (await h.inject({ url: '/cart', cookies: { CART: cartId } })).body;
    expect(html).toContain('data-island="cart-page"');
    expect(html).toMatch(/aria-label="Quantity of [^"]+" data-unit-price-cents="2500" data-max-per-variant="5" data-max-per-item="9999"/);
    const body = /<body[^>]*>([\s\S]*)<\/body>/.exec(html)![1]!;
    const context = JSON.parse(/id="sf-context"[^>]*>([\s\S]*?)<\/script>/.exec(body)![1]!);
    vi.useFakeTimers();
    page = createPage({ body: body.replace(/<script type="application\/json" id="sf-context"[\s\S]*?<\/script>/, '').replace(/<script type="module"[^>]*><\/script>/g, ''), context, cookies: { CART: cartId } });
    page.fetch.on('GET', '/api/commerce/shopping-cart', { json: shoppingCart });
    await page.boot();
    await page.advance(50);
    expect(page.recoverableErrors).toEqual([]);
    expect(page.consoleErrors).toEqual([]);
    expect(document.querySelector('[data-island="cart-page"]')!.getAttribute('data-hydrated')).toBe('true');
    expect(document.querySelectorAll('.sf-cart-entry')).toHaveLength(2);
  });
});
