// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { ISLAND_LOADERS } from './islands/registry.ts';
import { CONTEXT_SCRIPT_ID } from './protocol/markers.ts';
import { createPage, type Page } from './test-support/page.ts';
import { withoutRestockUpgrade } from './test-support/formatter-markup.ts';
import { contextProducts, productPage, teeProduct } from './test-support/products.ts';
import { bnplContext, bnplHtml, PILL_CART_HTML, siteFormHtml, ACCOUNT_SIGNED_OUT_HTML } from './test-support/renderer-markup.ts';

let page: Page;
beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  page?.cleanup();
  vi.restoreAllMocks();
  vi.useRealTimers();
});

const FORMATTER_CONTAINERS = '.sqs-add-to-cart-button-wrapper, .product-variants, .product-quantity-input, .product-restock-notification';

describe('boot', () => {
  test('a full product page hydrates every island with byte-identical formatter markup', async () => {
    const item = teeProduct();
    const merchandising = {
      restockNotificationViews: [{ variantId: 'v-SQ-0', hiddenByDefault: true }],
      restockNotificationMessages: { CTAText: 'Tell me', placeholderText: 'Email', buttonText: 'Go', mailingListDescription: 'News' },
      mailingListSignUpEnabled: true,
    };
    page = createPage({
      body:
        productPage(item, { merchandising }) +
        PILL_CART_HTML +
        bnplHtml({ json: bnplContext() }) +
        siteFormHtml({ fields: [{ id: 'f1', type: 'text', required: true }] }) +
        ACCOUNT_SIGNED_OUT_HTML,
      context: { products: contextProducts(item), pageType: 50 },
    });
    const before = [...document.querySelectorAll(FORMATTER_CONTAINERS)].map((el) => el.innerHTML);
    const handle = await page.boot();
    expect(page.recoverableErrors).toEqual([]);
    expect(page.consoleErrors).toEqual([]);
    expect(handle.islands.map((i) => i.kind).sort()).toEqual(
      ['account', 'add-to-cart', 'bnpl', 'pill-cart', 'quantity', 'restock', 'site-form', 'variants'].sort(),
    );
    for (const island of handle.islands) expect(island.container.getAttribute('data-hydrated'), island.kind).toBe('true');
    // The restock input's upgrade to a labelled email field is the one change the islands make.
    expect(document.querySelector('.product-restock-notification input[name="email"]')!.getAttribute('type')).toBe('email');
    expect([...document.querySelectorAll(FORMATTER_CONTAINERS)].map((el) => withoutRestockUpgrade(el.innerHTML))).toEqual(before);
  });

  test('only islands whose markers appear are loaded', async () => {
    const spies = Object.fromEntries(Object.keys(ISLAND_LOADERS).map((k) => [k, vi.spyOn(ISLAND_LOADERS, k as keyof typeof ISLAND_LOADERS)]));
    page = createPage({ body: PILL_CART_HTML });
    await page.boot();
    const called = Object.entries(spies)
      .filter(([, spy]) => spy.mock.calls.length > 0)
      .map(([k]) => k);
    expect(called).toEqual(['pill-cart']);
  });

  test('a server markup the island cannot reproduce is caught as a recoverable error', async () => {
    // A count in the server markup that the cart state does not explain.
    page = createPage({ body: PILL_CART_HTML.replace('<span class="sf-pill-count"></span>', '<span class="sf-pill-count">7</span>') });
    await page.boot();
    expect(page.recoverableErrors.length).toBeGreaterThan(0);
    expect(page.handle!.runtime.reporter.queued().some((r) => r.event === 'hydration')).toBe(true);
  });

  test('a second boot skips containers that are already hydrated', async () => {
    page = createPage({ body: PILL_CART_HTML });
    await page.boot();
    const first = page.handle!;
    await page.boot();
    expect(page.handle!.islands).toEqual([]);
    first.unmount();
  });

  test('a broken or missing context block falls back to defaults and is reported', async () => {
    page = createPage({ body: PILL_CART_HTML });
    document.getElementById(CONTEXT_SCRIPT_ID)!.textContent = '{"websiteId": ';
    const handle = await page.boot();
    expect(handle.runtime.context.store.selectedCurrency).toBe('USD');
    expect(handle.runtime.reporter.queued().map((r) => r.data.code)).toContain('CONTEXT_PARSE');
    page.cleanup();
    page = createPage({ body: '' });
    document.getElementById(CONTEXT_SCRIPT_ID)!.remove();
    expect((await page.boot()).runtime.reporter.queued().map((r) => r.data.code)).toContain('CONTEXT_MISSING');
  });

  test('a page written for another protocol version is reported', async () => {
    page = createPage({ body: '' });
    document.getElementById(CONTEXT_SCRIPT_ID)!.setAttribute('data-protocol', '999');
    const handle = await page.boot();
    expect(handle.runtime.reporter.queued().map((r) => r.data.code)).toContain('CONTEXT_VERSION');
  });

  test('the context survives a </script> inside a value', async () => {
    page = createPage({ body: '', context: { pageTitle: '</script><b>x</b>' } });
    const handle = await page.boot();
    expect(handle.runtime.context.pageTitle).toBe('</script><b>x</b>');
  });

  test('malformed island data never throws out of boot or a click', async () => {
    const item = teeProduct({ additionalFieldsFormId: 'f', additionalFieldsForm: { id: 'f', fields: [] } });
    const body = productPage(item)
      .replace(/data-variants="[^"]*"/, 'data-variants="{not json"')
      .replace(/data-form="[^"]*"/, 'data-form="[1,"')
      .replace('data-product-type="1"', 'data-product-type="x"');
    page = createPage({
      body: body + bnplHtml({ priceCents: Number.NaN, json: bnplContext({ afterPayMin: 'a' }) }),
      context: { products: 'nonsense', store: { selectedCurrency: 42 } } as Record<string, unknown>,
    });
    const handle = await page.boot();
    expect(page.recoverableErrors).toEqual([]);
    expect(handle.runtime.context.store.selectedCurrency).toBe('USD');
    await page.act(() => document.querySelector<HTMLElement>('.sqs-add-to-cart-button')!.click());
    await page.advance(0);
    // The options still come from the selects: the A1 validation runs as usual, nothing throws.
    expect(document.querySelector('.sf-alert-message')!.textContent).toBe('Please select the Size and Color options.');
    await page.act(() => {
      for (const [name, value] of [['Size', 'M'], ['Color', 'Red']]) {
        const select = document.querySelector<HTMLSelectElement>(`select[data-variant-option-name="${name}"]`)!;
        select.value = value;
        select.dispatchEvent(new Event('change', { bubbles: true }));
      }
    });
    await page.act(() => document.querySelector<HTMLElement>('.sf-alert-ok')!.click());
    await page.act(() => document.querySelector<HTMLElement>('.sqs-add-to-cart-button')!.click());
    // With no readable variant JSON no combination exists.
    expect(document.querySelector('.sf-alert-message')!.textContent).toBe(
      'Sorry, that item variant is unavailable. Please select another variant.',
    );
    expect(handle.runtime.reporter.queued().map((r) => r.event)).toContain('bnpl_context');
  });
});
