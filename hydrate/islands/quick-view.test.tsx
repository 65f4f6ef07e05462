// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { DIALOG_OPEN_CLASS } from '../runtime/dialog.ts';
import { env } from '../runtime/env.ts';
import { addToCartBtn, restockNotification, variantsSelect } from '../test-support/formatter-markup.ts';
import { choose, click, createPage, press, type Page } from '../test-support/page.ts';
import { bnplContext, bnplHtml } from '../test-support/renderer-markup.ts';
import type { CaptchaProvider } from '../runtime/captcha.ts';
import { contextProducts, teeProduct } from '../test-support/products.ts';
import { experimentDefinitions, FEATURE } from '../shared/feature-toggles.ts';

let page: Page;
beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  page?.cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** A shop card as `sf-product-card` writes it (the Quick View span is `product-quick-view`'s). */
const CARD =
  '<div class="sf-product-card" data-product-scope data-item-id="p1"><a class="sf-product-card-link" href="/shop/tee">Tee</a>' +
  '<span class="sqs-product-quick-view-button" role="button" tabindex="0" data-id="p1" data-group="">Quick View</span></div>';

/**
 * The product page the card links to: its `sf-product-detail` part and its page context;
 * `parts` go after Add To Cart (the restock box, the BNPL pill), `head` into its head.
 */
function productPageHtml(parts = '', head = ''): string {
  const item = teeProduct();
  return (
    `<html><head>${head}</head><body><article class="sf-product" data-product-scope data-item-id="p1"><div class="sf-product-images"><img src="data:," alt="Tee"></div>` +
    `<div class="sf-product-summary"><h1 class="sf-product-title">Tee</h1>${variantsSelect(item)}${addToCartBtn(item)}${parts}` +
    `<div class="sf-product-body"><p>Body</p></div></div><section class="sf-reviews"><h2>Reviews</h2></section></article>` +
    `<script type="application/json" id="sf-context" data-protocol="1">${JSON.stringify({ products: contextProducts(item) })}</script></body></html>`
  );
}

async function openShop(context: Record<string, unknown> = {}, productPage = productPageHtml()) {
  page = createPage({ body: CARD, context: { pageType: 1, ...context } });
  page.fetch.on('GET', '/shop/tee', { text: productPage });
  page.fetch.on('POST', '/api/census/RecordQuickView/p1', { status: 204 });
  await page.boot();
}
const quickView = () => document.querySelector<HTMLElement>('.sf-quick-view');
/** The opening is over when the dialog has moved focus to its close button (fetch, chunks, hydration). */
async function opened(): Promise<void> {
  // The island chunks are real module imports, which no fake timer resolves: wait for the state.
  await vi.waitFor(async () => {
    await page.advance(0);
    expect(document.activeElement?.classList.contains('sf-quick-view-close')).toBe(true);
    // A hang guard for a busy machine, not a time limit.
  }, { timeout: 30_000, interval: 20 });
}
const opener = () => document.querySelector<HTMLElement>('.sqs-product-quick-view-button')!;

describe('quick view (issue 16)', () => {
  test('each Quick View button is named after its product, its own words first (the formatter markup is unchanged)', async () => {
    const hoodie = CARD.replace(/p1/g, 'p2').replace('href="/shop/tee">Tee</a>', 'href="/shop/hoodie"><img src="data:," alt=""> <span class="sf-product-card-title">Pullover   Hoodie</span></a>');
    page = createPage({ body: CARD + hoodie, context: { pageType: 1 } });
    const before = document.body.innerHTML;
    await page.boot();
    await vi.waitFor(() => expect(opener().getAttribute('aria-label')).toBe('Quick View, Tee'), { timeout: 30_000, interval: 20 });
    const buttons = [...document.querySelectorAll('.sqs-product-quick-view-button')];
    expect(buttons.map((b) => b.getAttribute('aria-label'))).toEqual(['Quick View, Tee', 'Quick View, Pullover Hoodie']);
    expect(buttons.map((b) => b.textContent)).toEqual(['Quick View', 'Quick View']);
    expect(before).toContain('data-group="">Quick View</span>');
  });

  test('the quick-view toggle switched off (issue 18): a Quick View button left in the page does nothing', async () => {
    await openShop({ experiments: experimentDefinitions({ features: { [FEATURE.quickView]: false }, experiments: {} }) });
    await page.act(() => click(opener()));
    await page.advance(0);
    expect(quickView()).toBeNull();
    expect(page.fetch.callsTo('/shop/tee')).toEqual([]);
    expect(page.fetch.callsTo('/api/census/RecordQuickView/p1')).toEqual([]);
  });

  test('Quick View opens the product page part as a named modal dialog with live islands; Escape closes it and focus returns', async () => {
    await openShop();
    opener().focus();
    await page.act(() => press(opener(), 'Enter'));
    await opened();
    const dialog = quickView()!;
    expect(dialog.getAttribute('role')).toBe('dialog');
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(document.getElementById(dialog.getAttribute('aria-labelledby')!)!.textContent).toBe('Tee');
    expect(dialog.querySelector('h1')).toBeNull();
    expect(dialog.querySelector('.sf-product-body, .sf-reviews')).toBeNull();
    expect(dialog.querySelector('.sf-quick-view-more')!.getAttribute('href')).toBe('/shop/tee');
    expect(document.documentElement.classList.contains(DIALOG_OPEN_CLASS)).toBe(true);
    expect(document.activeElement).toBe(dialog.querySelector('.sf-quick-view-close'));
    expect(dialog.querySelector('.sqs-add-to-cart-button-wrapper')!.getAttribute('data-hydrated')).toBe('true');
    expect(dialog.querySelector('.product-variants')!.getAttribute('data-hydrated')).toBe('true');
    // Add to cart's status region is the dialog's own: behind an aria-modal dialog the page goes unread.
    const region = dialog.querySelector(':scope > .sf-announcer')!;
    expect(region.getAttribute('role')).toBe('status');
    expect(document.querySelectorAll('.sf-announcer')).toHaveLength(1);
    expect(page.recoverableErrors).toEqual([]);
    // The census of A12.7 counts the keyboard opening too (Enter clicks the span).
    expect(page.fetch.callsTo('/api/census/RecordQuickView/p1', 'POST')).toHaveLength(1);

    await page.act(() => press(dialog, 'Escape'));
    expect(quickView()).toBeNull();
    expect(document.documentElement.classList.contains(DIALOG_OPEN_CLASS)).toBe(false);
    expect(document.activeElement).toBe(opener());
  });

  test('Tab stays inside; the x button and a click on the backdrop close it', async () => {
    await openShop();
    await page.act(() => click(opener()));
    await opened();
    const dialog = quickView()!;
    const more = dialog.querySelector<HTMLElement>('.sf-quick-view-more')!;
    more.focus();
    await page.act(() => press(more, 'Tab'));
    expect(document.activeElement).toBe(dialog.querySelector('.sf-quick-view-close'));
    await page.act(() => click(dialog.querySelector('.sf-quick-view-close')!));
    expect(quickView()).toBeNull();
    await page.act(() => click(opener()));
    await opened();
    await page.act(() => click(quickView()!));
    expect(quickView()).toBeNull();
  });

  test('the restock box of a sold-out variant and the pay-later line come along, hydrated with the page runtime', async () => {
    const item = teeProduct();
    const merchandising = {
      restockNotificationMessages: { CTAText: 'Notify me', placeholderText: 'Email Address', buttonText: 'Sign Up', mailingListDescription: 'News' },
      restockNotificationViews: [{ variantId: 'v-SQ-0', hiddenByDefault: true }],
      mailingListSignUpEnabled: false,
    };
    const parts = restockNotification(item, merchandising, 'site-key') + bnplHtml({ itemId: 'p1', priceCents: 2500, json: bnplContext() });
    // The shop page already has the captcha provider here, so no script is added for it.
    const rendered: HTMLElement[] = [];
    const provider: CaptchaProvider = { render: (container) => rendered.push(container), reset: () => undefined, getResponse: () => '' };
    window.sfCaptchaProvider = provider;
    try {
      await openShop({ captcha: { siteKey: 'site-key', provider: 'local' } }, productPageHtml(parts, '<script type="module" src="/assets/captcha-local.js"></script>'));
      await page.act(() => click(opener()));
      await opened();
      const dialog = quickView()!;
      const box = dialog.querySelector<HTMLElement>('.product-restock-notification[data-variant-id="v-SQ-0"]')!;
      expect(box.getAttribute('data-hydrated')).toBe('true');
      expect(box.hidden).toBe(true);
      // The pay-later line of the product page, for its price.
      await vi.waitFor(async () => {
        await page.advance(0);
        expect(dialog.querySelector('.sf-bnpl-text')?.textContent).toBe('or 4 interest-free payments of $6.25 with');
      }, { timeout: 30_000, interval: 20 });
      expect(dialog.querySelector('.sf-bnpl script[data-bnpl-context]')).not.toBeNull();
      // S / Red is sold out: its restock box shows, with its captcha; an in-stock choice hides it.
      const select = (name: string) => dialog.querySelector<HTMLSelectElement>(`select[data-variant-option-name="${name}"]`)!;
      await page.act(() => choose(select('Size'), 'S'));
      await page.act(() => choose(select('Color'), 'Red'));
      expect(box.hidden).toBe(false);
      expect(box.querySelector('input[type="email"]')).not.toBeNull();
      await page.advance(0);
      expect(rendered).toEqual([box.querySelector('.captcha-container')]);
      await page.act(() => choose(select('Size'), 'M'));
      expect(box.hidden).toBe(true);
      expect(document.querySelectorAll('script[src="/assets/captcha-local.js"]')).toHaveLength(0);
      expect(page.recoverableErrors).toEqual([]);
    } finally {
      delete window.sfCaptchaProvider;
    }
  });

  test('when the product page cannot be read, the visitor is taken to it', async () => {
    page = createPage({ body: CARD, context: { pageType: 1 } });
    page.fetch.on('GET', '/shop/tee', { status: 500, text: 'no' });
    page.fetch.on('POST', '/api/census/RecordQuickView/p1', { status: 204 });
    const navigate = vi.spyOn(env, 'navigate').mockImplementation(() => undefined);
    await page.boot();
    await page.act(() => click(opener()));
    await page.advance(0);
    expect(quickView()).toBeNull();
    expect(navigate).toHaveBeenCalledWith('/shop/tee');
  });
});
