// The platform runtime (hydrate/platform/) on real demo-store pages in Chromium: the page
// view through both trackers, and the web-vitals records flushed when the page is hidden or
// left. Every check reads what the server STORED, so a beacon the server refused fails here
// even though the browser reports it as sent.
import type { Page } from 'playwright-core';
import { describe, expect, inject, test } from 'vitest';
import type { CensusEvent, ClankerEventRecord, StoredPerformanceRecord } from '../../renderer/store/types.ts';
import { useBrowserTier } from './support/tier.ts';
import { pageContext, visit } from './support/visit.ts';

const chromiumPath = inject('chromiumPath');
const SETTINGS_PATH = '/api/1/performance/settings';
const RATINGS = ['good', 'needs-improvement', 'poor'];

describe.skipIf(!chromiumPath)(`platform runtime in Chromium${chromiumPath ? '' : ` (skipped: ${inject('browserSkipReason')})`}`, () => {
  const tier = useBrowserTier(chromiumPath!);

  /** Opens `path` and returns the pageLoadId the server issued to it (the settings answer). */
  async function visitWithPageLoad(page: Page, path: string): Promise<string> {
    const settings = page.waitForResponse((response) => new URL(response.url()).pathname === SETTINGS_PATH);
    await visit(page, path);
    const response = await settings;
    expect(response.status()).toBe(200);
    const { pageLoadId } = (await response.json()) as { pageLoadId: string };
    expect(typeof pageLoadId).toBe('string');
    return pageLoadId;
  }

  const legacyPageViews = async (path: string): Promise<CensusEvent[]> =>
    (await tier.server.store.read.listCensusEvents()).filter((e) => e.kind === 'event' && e.event === 'page_view' && e.data.pagePath === path);
  const clankerPageViews = async (path: string): Promise<ClankerEventRecord[]> =>
    (await tier.server.store.read.listClankerEvents()).filter((e) => e.schemaName === 'page_view' && e.content.page_path === path);
  const records = (pageLoadId: string): Promise<StoredPerformanceRecord[]> => tier.server.store.read.listPerformanceRecords(pageLoadId);

  test('PLAT-B1 a product page: both trackers store its page view; hiding the page flushes its web vitals into the store', async () => {
    const v = await tier.newVisitor();
    const { page } = v;
    const path = '/shop/tee';
    const pageLoadId = await visitWithPageLoad(page, path);
    const context = await pageContext(page);
    expect(context.platform).toMatchObject({ legacyTracking: true, clankerTracking: true, performance: true });
    expect((context.tracking as { skipPageView: unknown }).skipPageView).toBeNull();

    await expect.poll(async () => (await legacyPageViews(path)).length).toBe(1);
    const [legacy] = await legacyPageViews(path);
    expect(legacy!.data).toMatchObject({ websiteId: context.websiteId, templateId: context.templateId, website_locale: 'en-US', pagePath: path });

    await expect.poll(async () => (await clankerPageViews(path)).length).toBe(1);
    const [clanker] = await clankerPageViews(path);
    const title = await page.title();
    const analyticsCookie = (await v.context.cookies()).find((c) => c.name === 'SS_ANALYTICS_ID');
    expect(clanker!.transport).toBe('beacon');
    expect(clanker!.content).toMatchObject({
      custom_schema_name: 'page_view',
      page_title: title,
      page_host: new URL(tier.server.url).host,
      context_website_id: context.websiteId,
      source_environment: 'prod',
      is_first_landing: true,
      is_first_session: true,
    });
    // The clanker event carries the visitor's own analytics id, the one in the cookie.
    expect(analyticsCookie?.value).toBeTruthy();
    expect(clanker!.content.analytics_id).toBe(analyticsCookie!.value);

    // Nothing goes out before the page is hidden (the 30 s timer is far away) …
    expect(await records(pageLoadId)).toEqual([]);
    await v.screenshot('platform-1-product-page');
    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    // … and hiding it sends what was measured, stored under the page load the server issued.
    await expect.poll(async () => (await records(pageLoadId)).length).toBeGreaterThan(0);
    const stored = await records(pageLoadId);
    const metrics = stored.map((r) => r.metric);
    expect(metrics).toEqual(expect.arrayContaining(['TTFB', 'FCP']));
    expect(new Set(metrics).size).toBe(metrics.length);
    for (const record of stored) {
      expect(record.pagePath).toBe(path);
      expect(record.value).toBeGreaterThanOrEqual(0);
      expect(RATINGS).toContain(record.rating);
    }
    // One page view per tracker, however often the page is hidden.
    expect(await legacyPageViews(path)).toHaveLength(1);
    expect(await clankerPageViews(path)).toHaveLength(1);
  });

  test('PLAT-B2 a search page (page view skipped) sends no page view, but leaving it still stores its records', async () => {
    const v = await tier.newVisitor();
    const { page } = v;
    const pageLoadId = await visitWithPageLoad(page, '/search?q=tee');
    const context = await pageContext(page);
    expect((context.tracking as { skipPageView: unknown }).skipPageView).toBe('search');
    const searchPath = context.pagePath as string;

    // Leaving the page (hidden, then pagehide) is the other flush trigger.
    await visit(page, '/about');
    await expect.poll(async () => (await records(pageLoadId)).length).toBeGreaterThan(0);
    for (const record of await records(pageLoadId)) expect(record.pagePath).toBe(searchPath);

    // The next page's own page view arrives; by then the search page's would have too.
    await expect.poll(async () => (await legacyPageViews('/about')).length).toBe(1);
    await expect.poll(async () => (await clankerPageViews('/about')).length).toBe(1);
    expect(await legacyPageViews(searchPath)).toEqual([]);
    expect(await clankerPageViews(searchPath)).toEqual([]);
  });
});
