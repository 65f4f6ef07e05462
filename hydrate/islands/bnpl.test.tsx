// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { choose, createPage, press, type Page } from '../test-support/page.ts';
import { experimentDefinitions, FEATURE } from '../shared/feature-toggles.ts';
import { cartWith, contextProducts, money, productPage, teeProduct, variant } from '../test-support/products.ts';
import { bnplContext, bnplHtml } from '../test-support/renderer-markup.ts';

let page: Page;
let warn: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  vi.useFakeTimers();
  warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => {
  page?.cleanup();
  warn.mockRestore();
  vi.useRealTimers();
});

async function open(opts: { price?: number; productType?: number; ctx?: Record<string, unknown>; json?: string; body?: string; context?: Record<string, unknown>; cookies?: Record<string, string> } = {}) {
  const html = bnplHtml({ priceCents: opts.price ?? 5000, productType: opts.productType ?? 1, json: opts.json ?? bnplContext(opts.ctx) });
  page = createPage({ body: (opts.body ?? '') + html, context: opts.context, cookies: opts.cookies });
  page.fetch.on('GET', '/static/bnpl/', (call) => ({ text: `<p>Terms for ${call.path}</p><a href="/terms">Terms</a>` }));
  await page.boot();
  await page.advance(0);
}

const root = () => document.querySelector<HTMLElement>('.sf-bnpl')!;
const text = () => document.querySelector('.sf-bnpl-text')?.textContent ?? null;
const info = () => document.querySelector<HTMLButtonElement>('.sf-bnpl-info')!;
const modal = () => document.querySelector<HTMLElement>('.sf-bnpl-modal');
const modalGets = () => page.fetch.callsTo('/static/bnpl/', 'GET');

async function openModal() {
  await page.act(() => info().click());
  await page.advance(0);
}

describe('A5 buy-now-pay-later', () => {
  test('BNPL-1 US in range', async () => {
    await open();
    expect(page.recoverableErrors).toEqual([]);
    expect(page.consoleErrors).toEqual([]);
    expect(text()).toBe('or 4 interest-free payments of $12.50 with');
    expect(document.querySelector('.sf-bnpl-provider')!.textContent).toBe('Afterpay');
    expect(root().getAttribute('data-state')).toBe('visible');
  });

  test('the info button draws its icon as hidden SVG, not a character no font may have, and keeps its name', async () => {
    await open();
    expect(info().getAttribute('aria-label')).toBe('More information');
    expect(info().textContent).toBe('');
    expect(info().textContent).not.toContain('\u24d8');
    const svg = info().querySelector('svg')!;
    expect(svg.getAttribute('aria-hidden')).toBe('true');
    expect(svg.getAttribute('focusable')).toBe('false');
    expect(svg.hasAttribute('style')).toBe(false);
  });

  test('BNPL-2 installments round half-up', async () => {
    await open({ price: 1001 });
    expect(text()).toBe('or 4 interest-free payments of $2.50 with');
  });

  test('BNPL-3 above the maximum', async () => {
    await open({ price: 250000 });
    expect(text()).toBe('available for orders up to $2,000.00');
  });

  test.each([100, 50])('BNPL-4 price %i at or below the minimum', async (price) => {
    await open({ price });
    expect(text()).toBe('available for orders over $1.00');
  });

  test('BNPL-5 the maximum itself is in range', async () => {
    await open({ price: 200000 });
    expect(text()).toBe('or 4 interest-free payments of $500.00 with');
  });

  test.each([
    { productType: 2 },
    { productType: 3 },
    { productType: 4 },
    { productType: 1, ctx: { afterPayAvailable: false } },
  ])('BNPL-6 nothing for %o', async (opts) => {
    await open(opts);
    expect(document.querySelector('.sf-bnpl-pill')).toBeNull();
    expect(root().getAttribute('data-state')).toBe('hidden');
  });

  test('BNPL-7 GB is Clearpay', async () => {
    await open({ ctx: { stripeAccountCountry: 'GB' } });
    expect(document.querySelector('.sf-bnpl-provider')!.textContent).toBe('Clearpay');
    await openModal();
    expect(modalGets()[0]!.path).toBe('/static/bnpl/clearpay/en_GB.html');
  });

  test.each([
    ['fr', '/static/bnpl/afterpay/fr_CA.html'],
    ['de', '/static/bnpl/afterpay/en_CA.html'],
  ])('BNPL-8 CA with %s', async (lang, url) => {
    await open({ ctx: { stripeAccountCountry: 'CA', shopperLanguage: lang } });
    await openModal();
    expect(modalGets()[0]!.path).toBe(url);
  });

  test('BNPL-9 an unsupported country renders nothing', async () => {
    await open({ ctx: { stripeAccountCountry: 'DE' } });
    expect(document.querySelector('.sf-bnpl-pill')).toBeNull();
    expect(root().getAttribute('data-state')).toBe('hidden');
  });

  test('the bnpl toggle switched off (issue 18): no pill, no fetch, nothing reported', async () => {
    await open({ context: { experiments: experimentDefinitions({ features: { [FEATURE.bnpl]: false }, experiments: {} }) } });
    expect(document.querySelector('.sf-bnpl-pill')).toBeNull();
    expect(root().getAttribute('data-state')).toBe('hidden');
    expect(root().hasAttribute('data-hydrated')).toBe(false);
    expect(page.handle!.runtime.reporter.queued()).toEqual([]);
  });

  test('BNPL-10 / ERR-10 a malformed context renders nothing and reports once', async () => {
    await open({ json: '{"afterPayAvailable": tru' });
    expect(document.querySelector('.sf-bnpl-pill')).toBeNull();
    expect(page.handle!.runtime.reporter.queued().filter((r) => r.event === 'bnpl_context')).toHaveLength(1);
  });

  test('BNPL-11 the modal shows the fetched page and focuses close', async () => {
    await open();
    await openModal();
    expect(modal()).not.toBeNull();
    expect(modal()!.querySelector('.sf-bnpl-modal-content')!.innerHTML).toContain('Terms for /static/bnpl/afterpay/en_US.html');
    expect(document.activeElement).toBe(document.querySelector('.sf-bnpl-modal-close'));
  });

  test('BNPL-12 Escape, close and backdrop close it and return focus; a click inside does not', async () => {
    await open();
    const closers: Array<() => void> = [
      () => press(document.activeElement ?? document.body, 'Escape'),
      () => document.querySelector<HTMLElement>('.sf-bnpl-modal-close')!.click(),
      () => document.querySelector<HTMLElement>('.sf-bnpl-modal-backdrop')!.click(),
    ];
    for (const close of closers) {
      await openModal();
      await page.act(() => document.querySelector<HTMLElement>('.sf-bnpl-modal-body')!.click());
      expect(modal()).not.toBeNull();
      await page.act(close);
      await page.advance(0);
      expect(modal()).toBeNull();
      expect(document.activeElement).toBe(info());
    }
  });

  test('BNPL-13 focus is trapped between close and the last link', async () => {
    await open();
    await openModal();
    const close = document.querySelector<HTMLElement>('.sf-bnpl-modal-close')!;
    const link = modal()!.querySelector<HTMLElement>('a')!;
    link.focus();
    await page.act(() => press(link, 'Tab'));
    expect(document.activeElement).toBe(close);
    await page.act(() => press(close, 'Tab', { shiftKey: true }));
    expect(document.activeElement).toBe(link);
  });

  test('the modal is named by the fetched heading (or the provider), holds the page still, and the page\'s own Close button closes it', async () => {
    await open();
    page.fetch.routes.unshift((c) =>
      c.path.startsWith('/static/bnpl/') ? { text: '<div><h2>Pay in 4</h2><button type="button" class="sf-bnpl-modal-close">Close</button></div>' } : undefined,
    );
    await openModal();
    expect(modal()!.getAttribute('aria-labelledby')).toBe('sf-bnpl-modal-title');
    expect(document.getElementById('sf-bnpl-modal-title')!.textContent).toBe('Pay in 4');
    expect(document.documentElement.classList.contains('sf-dialog-open')).toBe(true);
    await page.act(() => modal()!.querySelector<HTMLElement>('.sf-bnpl-modal-body .sf-bnpl-modal-close')!.click());
    await page.advance(0);
    expect(modal()).toBeNull();
    expect(document.documentElement.classList.contains('sf-dialog-open')).toBe(false);
    expect(document.activeElement).toBe(info());
  });

  test('a fetched page without a heading names the modal after the provider', async () => {
    await open();
    await openModal();
    expect(modal()!.getAttribute('aria-label')).toBe('Afterpay');
  });

  test('BNPL-14 a 404 only warns', async () => {
    await open();
    page.fetch.routes.unshift((c) => (c.path.startsWith('/static/bnpl/') ? { status: 404, text: 'nope' } : undefined));
    const before = page.handle!.runtime.reporter.accepted();
    await openModal();
    expect(modal()).toBeNull();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(page.handle!.runtime.reporter.accepted()).toBe(before);
  });

  test('BNPL-15 the page is fetched once', async () => {
    await open({ ctx: { stripeAccountCountry: 'NZ' } });
    await openModal();
    await page.act(() => document.querySelector<HTMLElement>('.sf-bnpl-modal-close')!.click());
    await page.advance(0);
    await openModal();
    expect(modal()).not.toBeNull();
    expect(modalGets()).toHaveLength(1);
  });

  test('BNPL-16 cart eligibility', async () => {
    const cartCase = async (types: number[]) => {
      page?.cleanup();
      const entries = types.map((productType, i) => ({ id: `e${i}`, itemId: `p${i}`, quantity: 1, productType }));
      page = createPage({ body: bnplHtml({ context: 'cart', json: bnplContext() }), cookies: { hasCart: 'true' } });
      page.fetch.on('GET', '/api/commerce/shopping-cart', { json: cartWith(types.length, 8000, entries) });
      await page.boot();
      await page.advance(0);
      return document.querySelector('.sf-bnpl-pill') !== null;
    };
    expect(await cartCase([1, 1])).toBe(true);
    expect(text()).toBe('or 4 interest-free payments of $20.00 with');
    expect(await cartCase([1, 2])).toBe(false);
    expect(await cartCase([])).toBe(false);
  });

  test('BNPL-17 a variant change updates the price', async () => {
    const item = teeProduct();
    item.structuredContent.variants[1] = variant('SQ-2', { Size: 'L', Color: 'Red' }, { priceMoney: money('3000.00') });
    await open({ body: productPage(item), context: { products: contextProducts(item) } });
    await page.act(() => {
      choose(document.querySelector('select[data-variant-option-name="Size"]')!, 'L');
      choose(document.querySelector('select[data-variant-option-name="Color"]')!, 'Red');
    });
    expect(text()).toBe('available for orders up to $2,000.00');
  });

  test('a sold-out variant offers no payment terms: the line goes while it is chosen and comes back with one in stock', async () => {
    const item = teeProduct();
    await open({ body: productPage(item), context: { products: contextProducts(item) } });
    expect(text()).toBe('or 4 interest-free payments of $12.50 with');
    const choosePair = (size: string, color: string) =>
      page.act(() => {
        choose(document.querySelector('select[data-variant-option-name="Size"]')!, size);
        choose(document.querySelector('select[data-variant-option-name="Color"]')!, color);
      });
    await choosePair('S', 'Red');
    expect(document.querySelector('.sf-bnpl-pill')).toBeNull();
    expect(root().getAttribute('data-state')).toBe('hidden');
    await choosePair('M', 'Red');
    expect(root().getAttribute('data-state')).toBe('visible');
    expect(text()).not.toBeNull();
    expect(page.recoverableErrors).toEqual([]);
  });

  test('a product with every variant sold out shows no line from the start', async () => {
    const item = teeProduct();
    for (const v of item.structuredContent.variants) v.qtyInStock = 0;
    await open({ body: productPage(item), context: { products: contextProducts(item) } });
    expect(document.querySelector('.sf-bnpl-pill')).toBeNull();
    expect(root().getAttribute('data-state')).toBe('hidden');
    expect(page.recoverableErrors).toEqual([]);
  });
});
