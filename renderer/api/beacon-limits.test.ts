import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { CLANKER, PERFORMANCE_WIRE } from '../../hydrate/shared/platform-wire.ts';
import { CRUMB, USER_PASSWORD, json, useApiHarness, withCrumb } from '../test-support/api-harness.ts';
import { DEFAULT_LIMITS } from './context.ts';

// Issue 13: a visitor reading 60 pages a minute never meets a limit, while a flood of
// anonymous writes from one address stores at most the limit's worth; sign-in failures are
// limited per address as well as per email.

const h = useApiHarness();

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const VISITOR = '123e4567-e89b-12d3-a456-426614174000|1|2|3|4';

const recordHit = (event: string) =>
  h.inject({ method: 'POST', url: '/api/census/RecordHit', headers: FORM, payload: new URLSearchParams({ event, data: '{"url":"/shop/cup"}', ss_cvr: VISITOR }).toString() });
const button = { visitorCookie: VISITOR, websiteId: 'w1', pageId: 'pg', pagePath: '/shop/cup', buttonId: 'b1' };
const errorReports = (count: number) =>
  h.inject(withCrumb({ method: 'POST', url: '/api/events/RecordJavascriptErrors', payload: Array.from({ length: count }, () => ({ event: 'uncaught_error', data: { message: 'boom' }, timestamp: 1 })) }));

/**
 * Every call one page load makes on its own (hydrate/runtime/analytics.ts, hydrate/boot.ts,
 * hydrate/platform/start-platform.ts and performance-records.ts), for a product page with two
 * census buttons and a site form, both trackers on (the newer one validating), and one error
 * report batch: more than an ordinary page sends.
 */
async function pageLoad(): Promise<LightMyRequestResponse[]> {
  const calls = [
    recordHit('view'),
    recordHit('commerce_view_product'),
    recordHit('visitor_metric_product_page_visit'),
    h.inject({ method: 'POST', url: '/api/census/button-render', payload: button }),
    h.inject({ method: 'POST', url: '/api/census/button-render', payload: { ...button, buttonId: 'b2' } }),
    h.inject({ method: 'POST', url: '/api/census/form-render', payload: { formId: 'contact', visitorCookie: VISITOR } }),
    h.inject({ method: 'GET', url: '/api/commerce/shopping-cart?calculateSubtotal=true' }),
    h.inject({ method: 'GET', url: '/api/template/GetTemplateSchema?type=form' }),
    h.inject({ method: 'POST', url: '/api/events/RecordEvent', cookies: { crumb: CRUMB }, headers: FORM, payload: new URLSearchParams({ crumb: CRUMB, event: 'page_view', data: '{"pagePath":"/shop/cup"}' }).toString() }),
    h.inject({ method: 'POST', url: CLANKER.eventsPath, headers: FORM, payload: new URLSearchParams({ eventSchemaName: 'page_view', eventContent: '{"page_path":"/shop/cup"}' }).toString() }),
    h.inject({ method: 'POST', url: `${CLANKER.validatePathPrefix}page_view`, payload: { eventContent: '{"page_path":"/shop/cup"}' } }),
    errorReports(3),
  ];
  const settings = await h.inject({ method: 'GET', url: PERFORMANCE_WIRE.settingsPath });
  const { pageLoadId } = json(settings);
  // The flush 30 s after load and the one when the page is hidden.
  const records = [0, 1].map((flush) =>
    h.inject({
      method: 'POST',
      url: PERFORMANCE_WIRE.recordsPath,
      headers: { 'content-type': PERFORMANCE_WIRE.recordsContentType },
      payload: JSON.stringify({ pageLoadId, pagePath: '/shop/cup', records: [{ metric: 'CLS', value: 0.01 * flush, rating: 'good', at: 100 }] }),
    }),
  );
  return [settings, ...(await Promise.all([...calls, ...records]))];
}

async function censusRows(): Promise<number> {
  return (await h.store.read.listCensusEvents()).filter((event) => event.kind !== 'event').length;
}

describe('ordinary browsing', () => {
  it('60 page loads in a minute from one address meet no limit; a flood beyond is refused', async () => {
    const statuses = new Map<number, number>();
    // One page a second, the first at the start of the window and the last 59 s later.
    for (let page = 0; page < 60; page++) {
      if (page > 0) h.clock.now += 1000;
      for (const response of await pageLoad()) statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
    }
    expect(statuses.get(429)).toBeUndefined();
    expect([...statuses.keys()].every((status) => status < 300)).toBe(true);
    expect(await censusRows()).toBe(60 * 6);

    // The rest of the minute's error-report allowance, and then some: the limit holds.
    const { limit } = DEFAULT_LIMITS.errorReports;
    const flood = [];
    for (let i = 0; i < limit; i++) flood.push((await errorReports(1)).statusCode);
    expect(flood.filter((status) => status === 204)).toHaveLength(limit - 60);
    expect(flood.filter((status) => status === 429)).toHaveLength(60);
    expect(await h.store.read.listJsErrorReports()).toHaveLength(60 * 3 + (limit - 60));
  });
});

describe('a flood of anonymous writes from one address', () => {
  it('stores at most the census limit, whatever the beacon', async () => {
    await h.reset({ limits: { census: { limit: 10, windowMs: 60_000 } } });
    const kinds = [
      () => recordHit('view'),
      () => h.inject({ method: 'POST', url: '/api/census/button-click', payload: button }),
      () => h.inject({ method: 'POST', url: '/api/census/overlay', payload: { overlayId: 'o1', action: 'render', visitorCookie: '' } }),
      () => h.inject({ method: 'POST', url: '/api/census/RecordQuickView/p1' }),
    ];
    const statuses = [];
    for (let i = 0; i < 40; i++) statuses.push((await kinds[i % kinds.length]!()).statusCode);
    expect(statuses.filter((status) => status === 204)).toHaveLength(10);
    expect(await censusRows()).toBe(10);
    const refused = await recordHit('view');
    expect(refused.statusCode).toBe(429);
    expect(json(refused)).toEqual({ error: 'Too many requests.', code: 'RATE_LIMITED' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);

    // Another address has its own allowance, and the window ends.
    expect((await h.inject({ method: 'POST', url: '/api/census/RecordHit', remoteAddress: '10.1.1.1', headers: FORM, payload: 'event=v&data=%7B%7D' })).statusCode).toBe(204);
    h.clock.now += 60_000;
    expect((await recordHit('view')).statusCode).toBe(204);
  });

  it('stores at most the error-report limit times 20 reports (the crumb is the client own)', async () => {
    await h.reset({ limits: { errorReports: { limit: 3, windowMs: 60_000 } } });
    const statuses = [];
    for (let i = 0; i < 12; i++) statuses.push((await errorReports(20)).statusCode);
    expect(statuses).toEqual([204, 204, 204, ...Array(9).fill(429)]);
    expect(await h.store.read.listJsErrorReports()).toHaveLength(3 * 20);
  });
});

describe('sign-in limits', () => {
  const signIn = (email: string, password: string, remoteAddress = '127.0.0.1') =>
    h.inject(withCrumb({ method: 'POST', url: '/api/site-users/account/session', remoteAddress, payload: { email, password } }));

  it('failures count per address across emails (password spraying), as well as per email', async () => {
    const { limit } = DEFAULT_LIMITS.loginFailuresPerIp;
    for (let i = 0; i < limit; i++) {
      // One try per email stays far below the per-email limit.
      expect((await signIn(`user${i}@example.com`, 'Spring2026!')).statusCode).toBe(401);
    }
    const sprayed = await signIn('alice@example.com', USER_PASSWORD);
    expect(sprayed.statusCode).toBe(429);
    expect(json(sprayed)).toEqual({ error: 'Too many sign-in attempts. Please try again later.', code: 'RATE_LIMITED' });
    expect(Number(sprayed.headers['retry-after'])).toBeGreaterThan(0);
    // The account itself is not locked: alice signs in from her own address.
    expect((await signIn('alice@example.com', USER_PASSWORD, '192.0.2.7')).statusCode).toBe(200);
    h.clock.now += DEFAULT_LIMITS.loginFailuresPerIp.windowMs;
    expect((await signIn('alice@example.com', USER_PASSWORD)).statusCode).toBe(200);
  });

  it('on the embedded database the counters stay in this process: no table rows, no other service', async () => {
    if (h.store.kind !== 'pglite') return;
    for (let i = 0; i < 3; i++) expect((await signIn('nobody@example.com', 'guess')).statusCode).toBe(401);
    expect(await h.store.client.query('SELECT key FROM rate_limit_counters')).toEqual([]);
  });

  it('successful sign-ins from one address do not count', async () => {
    for (let i = 0; i < DEFAULT_LIMITS.loginFailuresPerIp.limit + 5; i++) {
      expect((await signIn('alice@example.com', USER_PASSWORD)).statusCode).toBe(200);
    }
  });
});
