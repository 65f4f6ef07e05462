import { Window } from 'happy-dom';
import type { InjectOptions } from 'fastify';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { CRUMB, useApiHarness } from '../../renderer/test-support/api-harness.ts';
import type { ErrorReporter } from '../runtime/error-reporter.ts';
import { createHttpClient } from '../runtime/http-client.ts';
import { fakePerformance } from '../test-support/fake-performance.ts';
import { createClankerTracker, type ClankerConfig } from './clanker-tracker.ts';
import { createLegacyTracker } from './legacy-tracker.ts';
import { startPerformanceRecords } from './performance-records.ts';

// The browser clients against the real server routes (renderer/platform, B25): every
// request a client makes, fetch or beacon, is handed to the Fastify app in process, with
// the content type a browser would give it. A wire disagreement fails here.

const h = useApiHarness();
let win: Window;
let pending: Array<Promise<unknown>>;
let reports: Array<{ event: string; data: Record<string, unknown> }>;
/** pageLoadId of every performance batch that left by beacon. */
let batchIds: string[];

beforeEach(async () => {
  win = new Window({ url: 'https://shop.test/about' });
  win.document.cookie = `crumb=${CRUMB}`;
  pending = [];
  reports = [];
  batchIds = [];
  // The beacon as a browser sends it: URLSearchParams → form-encoded, string → text/plain.
  Object.defineProperty(win.navigator, 'sendBeacon', {
    configurable: true,
    value: (url: string, body: URLSearchParams | string) => {
      const form = body instanceof URLSearchParams;
      if (!form) batchIds.push((JSON.parse(body) as { pageLoadId: string }).pageLoadId);
      pending.push(
        toServer(url, {
          method: 'POST',
          headers: { 'content-type': form ? 'application/x-www-form-urlencoded;charset=UTF-8' : 'text/plain;charset=UTF-8' },
          body: String(body),
        }),
      );
      return true;
    },
  });
});
afterEach(async () => {
  await win.happyDOM.close();
});

const doc = () => win.document as unknown as Document;
const reporter: ErrorReporter = {
  reportError: (event, data = {}) => reports.push({ event, data }),
  attach: () => () => undefined,
  queued: () => [],
  accepted: () => 0,
};

async function toServer(url: string, init: RequestInit = {}): Promise<Response> {
  const headers: Record<string, string> = { ...((init.headers ?? {}) as Record<string, string>) };
  // Same-origin requests carry the page's cookies.
  headers.cookie = win.document.cookie;
  const options: InjectOptions = { method: (init.method ?? 'GET') as InjectOptions['method'], url: new URL(url, 'https://shop.test').pathname, headers };
  if (typeof init.body === 'string') options.payload = init.body;
  const response = await h.inject(options);
  return new Response(response.statusCode === 204 ? null : response.body, { status: response.statusCode });
}
/** fetch for the clients: every call is tracked so a test can wait for all of them. */
const fetchImpl = () =>
  ((url: string, init?: RequestInit) => {
    const response = toServer(url, init);
    pending.push(response);
    return response;
  }) as unknown as typeof fetch;
/** Waits for every request in flight, then one macrotask for the clients' own continuations. */
const settle = async () => {
  while (pending.length) await Promise.allSettled(pending.splice(0));
  await new Promise((resolve) => setTimeout(resolve, 0));
};

const clankerConfig: ClankerConfig = {
  environment: 'prod',
  hosts: { staging: '', production: '' },
  clientName: 'quire',
  clientVersion: '1',
  transport: 'beacon',
  validate: false,
};
const clanker = (config: Partial<ClankerConfig> = {}) =>
  createClankerTracker(
    { ...clankerConfig, ...config },
    {
      doc: doc(),
      page: { websiteId: 'w1', websiteLocale: 'en-US', memberAccountId: null, memberAccountLocale: null, resolvedLocale: null },
      analyticsId: () => 'a-1',
      sessionId: () => 's-1',
      fetchImpl,
      warn: () => undefined,
    },
  );

describe('clients against the server', () => {
  test('legacy RecordEvent: 204 and one census event with the payload', async () => {
    const payload = { websiteId: 'w1', memberAccountId: null, website_locale: 'en-US', member_locale: null, templateId: 't1', variantId: null, pageHash: '', pagePath: '/about' };
    await createLegacyTracker({ doc: doc(), fetchImpl, warn: () => undefined }).recordEvent('page_view', payload);
    const events = (await h.store.read.listCensusEvents()).filter((e) => e.kind === 'event');
    expect(events).toMatchObject([{ event: 'page_view', data: payload }]);
  });

  test('clanker by beacon, by XHR and in validate mode', async () => {
    await clanker().track('page_view', { is_first_landing: true });
    await settle();
    await clanker({ transport: 'xhr' }).track('commerce.click', { destination_url: '/cart' });
    await clanker({ validate: true }).track('page_view', { x: 1 });
    // One clock for all requests: order by schema name, not by arrival.
    const events = (await h.store.read.listClankerEvents()).sort((a, b) => a.schemaName.localeCompare(b.schemaName));
    expect(events.map((e) => [e.schemaName, e.transport])).toEqual([
      ['commerce.click', 'json'],
      ['page_view', 'beacon'],
    ]);
    expect(events[0]!.content).toMatchObject({ destination_url: '/cart' });
    expect(events[1]!.content).toMatchObject({ analytics_id: 'a-1', session_id: 's-1', page_path: '/about', page_host: 'shop.test', is_first_landing: true });
  });

  test('performance: a real pageLoadId, then the records stored under it', async () => {
    const fake = fakePerformance();
    fake.setNavigation({ responseStart: 300 });
    const client = createHttpClient({ doc: doc(), fetchImpl });
    const handle = startPerformanceRecords({ doc: doc(), client, reporter, pagePath: '/about', observer: fake.Observer, performance: fake.performance });
    try {
      await settle();
      fake.emit('paint', [{ name: 'first-contentful-paint', startTime: 2100 }]);
      fake.emit('layout-shift', [{ startTime: 10, value: 0.3, hadRecentInput: false }]);
      handle.flush();
      await settle();
    } finally {
      handle.stop();
    }
    expect(reports).toEqual([]);
    expect(batchIds).toHaveLength(1);
    expect(batchIds[0]).toMatch(/^pl_/);
    const records = await h.store.read.listPerformanceRecords(batchIds[0]!);
    expect(records.map((r) => [r.metric, r.value, r.rating, r.pagePath])).toEqual([
      ['TTFB', 300, 'good', '/about'],
      ['FCP', 2100, 'needs-improvement', '/about'],
      ['CLS', 0.3, 'poor', '/about'],
    ]);
  });
});
