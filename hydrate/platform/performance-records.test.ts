// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { parsePerformanceBatch } from '../shared/platform-wire.ts';
import type { ErrorReporter } from '../runtime/error-reporter.ts';
import { createHttpClient } from '../runtime/http-client.ts';
import { fakePerformance, setVisibility, type FakePerformance } from '../test-support/fake-performance.ts';
import { stubFetch, type FetchStub } from '../test-support/page.ts';
import { FLUSH_AFTER_LOAD_MS, fetchPageLoadId, startPerformanceRecords, toRecord, type PerformanceRecordsHandle } from './performance-records.ts';

let fetch: FetchStub;
let fake: FakePerformance;
let reports: Array<{ event: string; data: Record<string, unknown> }>;
let reporter: ErrorReporter;
let beacon: ReturnType<typeof vi.fn>;
let handle: PerformanceRecordsHandle | null;

beforeEach(() => {
  vi.useFakeTimers();
  fetch = stubFetch();
  fake = fakePerformance();
  reports = [];
  reporter = { reportError: (event, data = {}) => reports.push({ event, data }), attach: () => () => undefined, queued: () => [], accepted: () => 0 };
  beacon = vi.fn(() => true);
  Object.defineProperty(navigator, 'sendBeacon', { configurable: true, value: beacon });
  setVisibility(document, 'visible');
  handle = null;
});
afterEach(() => {
  handle?.stop();
  vi.unstubAllGlobals();
  vi.useRealTimers();
  delete (navigator as { sendBeacon?: unknown }).sendBeacon;
  delete (document as { readyState?: unknown }).readyState;
});

const client = () => createHttpClient({ doc: document });
function start(): PerformanceRecordsHandle {
  handle = startPerformanceRecords({ doc: document, client: client(), reporter, pagePath: '/shop', observer: fake.Observer, performance: fake.performance });
  return handle;
}
const settle = () => vi.advanceTimersByTimeAsync(0);
const sentBatches = () => beacon.mock.calls.map(([url, text]) => ({ url, batch: JSON.parse(text as string) }));

describe('performance settings (seed §7, §8)', () => {
  test('GET /api/1/performance/settings returns the pageLoadId', async () => {
    fetch.on('GET', '/api/1/performance/settings', { json: { pageLoadId: 'pl-7' } });
    await expect(fetchPageLoadId(client(), reporter)).resolves.toBe('pl-7');
    expect(reports).toEqual([]);
  });

  test('a missing pageLoadId reports "Unable to resolve pageLoadId"', async () => {
    fetch.on('GET', '/api/1/performance/settings', { json: {} });
    await expect(fetchPageLoadId(client(), reporter)).resolves.toBeNull();
    expect(reports).toEqual([{ event: 'performance_settings', data: { message: 'Unable to resolve pageLoadId' } }]);
  });

  test('a non-200 answer is reported with its status', async () => {
    fetch.on('GET', '/api/1/performance/settings', { status: 503, json: {} });
    await fetchPageLoadId(client(), reporter);
    expect(reports).toEqual([{ event: 'performance_settings', data: { message: 'Performance settings failed: HTTP Status 503' } }]);
  });

  test('a 2xx other than 200 is an error too', async () => {
    fetch.on('GET', '/api/1/performance/settings', { status: 204 });
    await fetchPageLoadId(client(), reporter);
    expect(reports[0]?.data.message).toBe('Performance settings failed: HTTP Status 204');
  });

  test('the settings call is aborted after 30000 ms', async () => {
    fetch.on('GET', '/api/1/performance/settings', 'hang');
    const result = fetchPageLoadId(client(), reporter);
    await vi.advanceTimersByTimeAsync(29_999);
    expect(reports).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await expect(result).resolves.toBeNull();
    expect(reports).toEqual([{ event: 'performance_settings', data: { message: 'Performance settings failed: HTTP Status 0' } }]);
  });
});

describe('records (seed §9)', () => {
  test('rounding and rating', () => {
    expect(toRecord('LCP', 2600.4, 3000.2)).toEqual({ metric: 'LCP', value: 2600, rating: 'needs-improvement', at: 3000 });
    expect(toRecord('CLS', 0.300049, 10)).toEqual({ metric: 'CLS', value: 0.3, rating: 'poor', at: 10 });
    expect(toRecord('FCP', 1800.4, 1)).toMatchObject({ value: 1800, rating: 'good' });
  });

  test('flushed 30000 ms after load by beacon, as text the server accepts', async () => {
    expect(FLUSH_AFTER_LOAD_MS).toBe(30000);
    fetch.on('GET', '/api/1/performance/settings', { json: { pageLoadId: 'pl-1' } });
    fake.setNavigation({ responseStart: 900 });
    fake.setNow(1200);
    start();
    await settle();
    fake.emit('paint', [{ name: 'first-contentful-paint', startTime: 1100 }]);
    await vi.advanceTimersByTimeAsync(29_999);
    expect(beacon).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(sentBatches()).toEqual([
      {
        url: '/api/1/performance/records',
        batch: {
          pageLoadId: 'pl-1',
          pagePath: '/shop',
          records: [
            { metric: 'TTFB', value: 900, rating: 'needs-improvement', at: 1200 },
            { metric: 'FCP', value: 1100, rating: 'good', at: 1200 },
          ],
        },
      },
    ]);
    expect(parsePerformanceBatch(beacon.mock.calls[0]![1]).ok).toBe(true);
    expect(fetch.callsTo('/api/1/performance/records')).toEqual([]);
  });

  test('a page still loading starts the 30 s from its load event', async () => {
    Object.defineProperty(document, 'readyState', { configurable: true, value: 'loading' });
    fetch.on('GET', '/api/1/performance/settings', { json: { pageLoadId: 'pl-1' } });
    start();
    await settle();
    fake.emit('paint', [{ name: 'first-contentful-paint', startTime: 100 }]);
    await vi.advanceTimersByTimeAsync(40_000);
    expect(beacon).not.toHaveBeenCalled();
    window.dispatchEvent(new Event('load'));
    await vi.advanceTimersByTimeAsync(30_000);
    expect(beacon).toHaveBeenCalledTimes(1);
  });

  test('hiding the page flushes at once; values that change later go with the next flush', async () => {
    fetch.on('GET', '/api/1/performance/settings', { json: { pageLoadId: 'pl-1' } });
    start();
    await settle();
    fake.emit('largest-contentful-paint', [{ startTime: 2000 }]);
    fake.emit('layout-shift', [{ startTime: 100, value: 0.05, hadRecentInput: false }]);
    setVisibility(document, 'hidden');
    expect(sentBatches().map((b) => b.batch.records.map((r: { metric: string }) => r.metric))).toEqual([['LCP', 'CLS']]);
    // Nothing pending: the 30 s flush sends nothing more.
    await vi.advanceTimersByTimeAsync(30_000);
    expect(beacon).toHaveBeenCalledTimes(1);
  });

  test('values keep flowing until 60 s, then collection stops', async () => {
    fetch.on('GET', '/api/1/performance/settings', { json: { pageLoadId: 'pl-1' } });
    start();
    await settle();
    await vi.advanceTimersByTimeAsync(30_000);
    fake.emit('layout-shift', [{ startTime: 31_000, value: 0.2, hadRecentInput: false }]);
    await vi.advanceTimersByTimeAsync(30_000);
    fake.emit('layout-shift', [{ startTime: 61_000, value: 0.9, hadRecentInput: false }]);
    setVisibility(document, 'hidden');
    expect(sentBatches().map((b) => b.batch.records)).toEqual([[{ metric: 'CLS', value: 0.2, rating: 'needs-improvement', at: 0 }]]);
  });

  test('without sendBeacon the batch is POSTed as text/plain with keepalive', async () => {
    Object.defineProperty(navigator, 'sendBeacon', { configurable: true, value: undefined });
    fetch.on('GET', '/api/1/performance/settings', { json: { pageLoadId: 'pl-1' } });
    fetch.on('POST', '/api/1/performance/records', { status: 204 });
    start();
    await settle();
    fake.emit('paint', [{ name: 'first-contentful-paint', startTime: 100 }]);
    handle!.flush();
    await settle();
    const [call] = fetch.callsTo('/api/1/performance/records', 'POST');
    expect(call!.headers['content-type']).toBe('text/plain;charset=UTF-8');
    expect(call!.keepalive).toBe(true);
    expect(parsePerformanceBatch(call!.body).ok).toBe(true);
    expect(reports).toEqual([]);
  });

  test('a flush before the pageLoadId arrives waits for it', async () => {
    fetch.on('GET', '/api/1/performance/settings', { json: { pageLoadId: 'pl-late' }, delayMs: 5000 });
    start();
    fake.emit('paint', [{ name: 'first-contentful-paint', startTime: 100 }]);
    setVisibility(document, 'hidden');
    expect(beacon).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(5000);
    expect(sentBatches()[0]?.batch.pageLoadId).toBe('pl-late');
  });

  test('no pageLoadId: nothing is sent', async () => {
    fetch.on('GET', '/api/1/performance/settings', { status: 500, json: {} });
    start();
    fake.emit('paint', [{ name: 'first-contentful-paint', startTime: 100 }]);
    await vi.advanceTimersByTimeAsync(60_000);
    setVisibility(document, 'hidden');
    expect(beacon).not.toHaveBeenCalled();
    expect(fetch.callsTo('/api/1/performance/records')).toEqual([]);
    expect(reports).toHaveLength(1);
  });
});
