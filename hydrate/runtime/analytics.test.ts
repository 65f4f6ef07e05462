// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { readCookie } from './cookies.ts';
import { createPage, type Page, type RecordedCall } from '../test-support/page.ts';

let page: Page;
const T = 1_790_000_000_000;
beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(T);
  localStorage.clear();
});
afterEach(() => {
  page?.cleanup();
  localStorage.clear();
  vi.useRealTimers();
});

async function load(context: Record<string, unknown> = {}, cookies: Record<string, string> = {}, body = '') {
  const tracking = { skipPageView: null, ...(context.tracking as object | undefined) };
  page = createPage({ body, context: { ...context, tracking }, cookies });
  await page.boot();
  await page.advance(0);
}

function hits(): Array<{ event: string; data: Record<string, unknown>; ssCvr: string; call: RecordedCall }> {
  return page.fetch.callsTo('/api/census/RecordHit', 'POST').map((call) => {
    const params = new URLSearchParams(call.body);
    return { event: params.get('event')!, data: JSON.parse(params.get('data')!), ssCvr: params.get('ss_cvr')!, call };
  });
}
const events = () => hits().map((h) => h.event);

describe('A12 visitor analytics and cookies', () => {
  test('AN-1 a new visitor', async () => {
    await load();
    expect(readCookie('ss_cvr')).toMatch(new RegExp(`^[0-9a-f-]{36}\\|${T}\\|${T}\\|${T}\\|1$`));
    expect(readCookie('ss_cvt')).toBe(String(T));
  });

  test('AN-2 an expired visit starts a new one', async () => {
    await load({}, { ss_cvr: 'U|1|1|1|1' });
    expect(readCookie('ss_cvr')).toBe(`U|1|1|${T}|2`);
  });

  test('AN-3 the same visit keeps the record and slides the visit time', async () => {
    await load({}, { ss_cvr: 'U|1|1|5|2', ss_cvt: '5' });
    expect(readCookie('ss_cvr')).toBe('U|1|1|5|2');
    expect(readCookie('ss_cvt')).toBe(String(T));
  });

  test('AN-4 malformed cookies count as absent', async () => {
    await load({}, { ss_cvr: 'garbage' });
    expect(readCookie('ss_cvr')).toMatch(new RegExp(`^[0-9a-f-]{36}\\|${T}\\|${T}\\|${T}\\|1$`));
    page.cleanup();
    await load({}, { ss_cvr: 'U|1|1|1|1', ss_cvt: '-3' });
    expect(readCookie('ss_cvr')).toBe(`U|1|1|${T}|2`);
  });

  test('AN-6 a cloneable site deletes all five cookies and sets none', async () => {
    const all = { ss_cid: 'a', ss_cpvisit: 'b', ss_cvisit: 'c', ss_cvr: 'U|1|1|1|1', ss_cvt: '5' };
    await load({ tracking: { isCloneable: true } }, all);
    for (const name of Object.keys(all)) expect(readCookie(name)).toBeNull();
  });

  test.each([
    [{ restrictive: true, absolute: false, bannerEnabled: true }, '1', false],
    [{ restrictive: true, absolute: false, bannerEnabled: true }, '0', true],
    [{ restrictive: true, absolute: false, bannerEnabled: true }, null, true],
    [{ restrictive: true, absolute: true, bannerEnabled: true }, '1', true],
    [{ restrictive: true, absolute: false, bannerEnabled: false }, '1', true],
    [{ restrictive: false, absolute: false, bannerEnabled: false }, null, false],
  ])('AN-7 / AN-8 policy %o with consent %s: restricted %s', async (cookiePolicy, consent, restricted) => {
    await load({ tracking: { cookiePolicy } }, consent === null ? {} : { ss_cookieAllowed: consent });
    expect(readCookie('ss_cvr') === null).toBe(restricted);
  });

  test("AN-9 one form-encoded page view with the 14 data keys, plus the seed's visitor fields (issue 18)", async () => {
    await load({ websiteId: 'w1', itemId: 'i1', recordType: 11, collectionId: 'c1' });
    const views = hits().filter((h) => h.event === 'view');
    expect(views).toHaveLength(1);
    expect(views[0]!.call.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(views[0]!.ssCvr).toBe(readCookie('ss_cvr'));
    expect(Object.keys(views[0]!.data).sort()).toEqual(
      ['websiteId', 'templateId', 'website_locale', 'userAgent', 'clientDate', 'viewportInnerWidth', 'viewportInnerHeight', 'screenWidth', 'screenHeight', 'url', 'title', 'itemId', 'recordType', 'collectionId', 'website_id', 'page_id', 'logged_in'].sort(),
    );
  });

  test("AN-9b the page view's url leaves out a password reset link's token (it rides in the fragment)", async () => {
    history.replaceState(null, '', '/members?x=1#reset-password=Secret_Token-123');
    try {
      await load();
      const view = hits().find((h) => h.event === 'view')!;
      expect(view.data.url).toBe(`${location.origin}/members?x=1#reset-password`);
      expect(view.call.body).not.toContain('Secret_Token');
    } finally {
      history.replaceState(null, '', '/');
    }
  });

  test('AN-10 any skip reason means no page view', async () => {
    await load({ tracking: { skipPageView: 'not-found' } });
    expect(events()).not.toContain('view');
  });

  test('AN-11 restricted still sends the page view with an empty ss_cvr', async () => {
    await load({ tracking: { isCloneable: true } });
    expect(hits().find((h) => h.event === 'view')!.ssCvr).toBe('');
  });

  test('AN-12 / ERR-11 a hanging RecordHit is aborted at 2500 ms and reported', async () => {
    page = createPage({ body: '', context: { tracking: { skipPageView: null } } });
    page.fetch.on('POST', '/api/census/RecordHit', 'hang');
    await page.boot();
    const reporter = page.handle!.runtime.reporter;
    await page.advance(2499);
    expect(reporter.accepted()).toBe(0);
    await page.advance(1);
    expect(reporter.queued().filter((r) => r.event === 'record_hit')).toHaveLength(1);
  });

  test('AN-13 product page events, with and without visitor metrics', async () => {
    const product = { pageType: 50, recordType: 11, itemId: 'p1', products: { p1: { productType: 1, variants: [] } } };
    await load({ ...product, flags: { commerceVisitorMetrics: true } });
    expect(events()).toEqual(['view', 'commerce_view_product', 'visitor_metric_product_page_visit']);
    expect(hits()[1]!.data).toMatchObject({ itemId: 'p1', productType: 1 });
    page.cleanup();
    await load(product);
    expect(events()).toEqual(['view', 'commerce_view_product']);
  });

  test('AN-14 a successful add sends commerce_add_to_cart', async () => {
    await load();
    await page.act(() =>
      window.dispatchEvent(
        new CustomEvent('sf:cart-added', {
          detail: { cart: { id: 'cart-9', entries: [], totalQuantity: 2, subtotalCents: 5000 }, entry: null, itemId: 'p1', sku: 'SQ-1', quantity: 2 },
        }),
      ),
    );
    await page.advance(0);
    const add = hits().find((h) => h.event === 'commerce_add_to_cart')!;
    expect(add.data).toMatchObject({ itemId: 'p1', sku: 'SQ-1', quantity: 2, cartId: 'cart-9', num_items_in_cart: 2, cart_value: 5000 });
  });

  test('AN-15 order confirmed pages send commerce_purchase unless in test mode', async () => {
    const order = { id: 'o1', purchasedCartId: 'c1', websiteId: 'w1', items: [{ sku: 'A', productName: 'Tee', quantity: 1, unitPrice: 2500 }], grandTotal: 2500, shippingTotal: 0, taxTotal: 0 };
    await load({ pageType: 202, order: { ...order, testMode: false } });
    expect(hits().find((h) => h.event === 'commerce_purchase')!.data).toMatchObject(order);
    page.cleanup();
    await load({ pageType: 202, order: { ...order, testMode: true } });
    expect(events()).not.toContain('commerce_purchase');
    // Issue 15: order received (207, paid offline) and subscription confirmed (206) confirm a purchase too.
    for (const pageType of [206, 207]) {
      page.cleanup();
      await load({ pageType, order: { ...order, testMode: false } });
      expect(hits().find((h) => h.event === 'commerce_purchase')!.data).toMatchObject(order);
    }
  });

  test('AN-16 census buttons: render on mount, click per click, keepalive', async () => {
    await load({ websiteId: 'w1', pageId: 'pg', pagePath: '/p' }, {}, '<a href="#" data-census-button="b1">Go</a>');
    const renders = page.fetch.callsTo('/api/census/button-render', 'POST');
    expect(renders).toHaveLength(1);
    expect(renders[0]!.json).toMatchObject({ buttonId: 'b1', websiteId: 'w1', pageId: 'pg', pagePath: '/p' });
    expect(renders[0]!.keepalive).toBe(true);
    const button = document.querySelector<HTMLElement>('[data-census-button]')!;
    button.click();
    button.click();
    const clicks = page.fetch.callsTo('/api/census/button-click', 'POST');
    expect(clicks).toHaveLength(2);
    expect(clicks.every((c) => c.keepalive && (c.json as { buttonId: string }).buttonId === 'b1')).toBe(true);
  });

  test('AN-17 page type 106 updates the cookies without a page view', async () => {
    await load({ pageType: 106, tracking: { skipPageView: 'member-area-denied' } });
    expect(readCookie('ss_cvr')).not.toBeNull();
    expect(events()).not.toContain('view');
  });

  test('AN-18 analytics id from the cookie; an expired stored id is replaced', async () => {
    await load({}, { SS_ANALYTICS_ID: 'A1' });
    expect(readCookie('SS_ANALYTICS_ID')).toBe('A1');
    page.cleanup();
    localStorage.setItem('sf.analyticsId', 'A2');
    localStorage.setItem('sf.analyticsIdExpires', String(T - 1));
    await load();
    const id = readCookie('SS_ANALYTICS_ID');
    expect(id).not.toBe('A2');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('AN-19 not-found touches nothing; search writes cookies without a view', async () => {
    await load({ tracking: { skipPageView: 'not-found' } });
    expect(readCookie('ss_cvr')).toBeNull();
    expect(readCookie('ss_cvt')).toBeNull();
    expect(page.fetch.calls.filter((c) => c.path.startsWith('/api/census/'))).toHaveLength(0);
    page.cleanup();
    await load({ tracking: { skipPageView: 'search' } });
    expect(readCookie('ss_cvr')).not.toBeNull();
    expect(readCookie('ss_cvt')).toBe(String(T));
    expect(events()).not.toContain('view');
  });

  test('quick-view buttons record a bodiless hit', async () => {
    await load({}, {}, '<span class="sqs-product-quick-view-button" role="button" tabindex="0" data-id="p 1" data-group="">Quick View</span>');
    document.querySelector<HTMLElement>('.sqs-product-quick-view-button')!.click();
    const call = page.fetch.callsTo('/api/census/RecordQuickView/', 'POST')[0]!;
    expect(call.path).toBe('/api/census/RecordQuickView/p%201');
    expect(call.body).toBeUndefined();
  });
});
