// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { CLANKER_AUTO_FIELD_NAMES, LEGACY_PAYLOAD_KEYS, parseClankerEvent, parsePerformanceBatch } from '../shared/platform-wire.ts';
import { readCookie } from '../runtime/cookies.ts';
import { fakePerformance, setVisibility, type FakePerformance } from '../test-support/fake-performance.ts';
import { createPage, type Page } from '../test-support/page.ts';
import { experimentDefinitions, FEATURE } from '../shared/feature-toggles.ts';
import type { PlatformHandle } from './start-platform.ts';

let page: Page;
let fake: FakePerformance;
let beacon: ReturnType<typeof vi.fn>;
let warn: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  vi.useFakeTimers();
  localStorage.clear();
  sessionStorage.clear();
  fake = fakePerformance();
  beacon = vi.fn(() => true);
  Object.defineProperty(navigator, 'sendBeacon', { configurable: true, value: beacon });
  setVisibility(document, 'visible');
  warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => {
  page?.cleanup();
  warn.mockRestore();
  delete (navigator as { sendBeacon?: unknown }).sendBeacon;
  vi.useRealTimers();
});

const ALL_ON = { legacyTracking: true, clankerTracking: true, performance: true };

async function load(platform: Record<string, unknown> | undefined, skipPageView: string | null = null, extra: Record<string, unknown> = {}): Promise<PlatformHandle | null> {
  page = createPage({
    body: '<main>page</main>',
    context: { websiteId: 'w1', templateId: 't1', pagePath: '/about', websiteLocale: 'en-GB', tracking: { skipPageView }, ...(platform ? { platform } : {}), ...extra },
    cookies: { crumb: 'crumb-1' },
  });
  // After createPage: its fetch stub replaces globals, the observer must be ours.
  vi.stubGlobal('PerformanceObserver', fake.Observer);
  page.fetch.on('GET', '/api/1/performance/settings', { json: { pageLoadId: 'pl-9' } });
  page.fetch.on('POST', '/api/events/RecordEvent', { status: 204 });
  const handle = await page.boot();
  const platformHandle = await handle.platform;
  await platformHandle?.ready;
  await page.advance(0);
  return platformHandle;
}

const beaconsTo = (suffix: string) => beacon.mock.calls.filter(([url]) => String(url).endsWith(suffix));

describe('platform runtime in the page boot', () => {
  test('a page without sf-context.platform loads nothing and sends nothing', async () => {
    expect(await load(undefined)).toBeNull();
    expect(page.fetch.callsTo('/api/events/RecordEvent')).toEqual([]);
    expect(page.fetch.callsTo('/api/1/performance')).toEqual([]);
    expect(beacon).not.toHaveBeenCalled();
  });

  test('the page view goes to RecordEvent with the crumb and the seed §3 payload', async () => {
    await load(ALL_ON);
    const [call] = page.fetch.callsTo('/api/events/RecordEvent', 'POST');
    const form = new URLSearchParams(call!.body);
    expect(form.get('crumb')).toBe('crumb-1');
    expect(form.get('event')).toBe('page_view');
    const data = JSON.parse(form.get('data')!);
    expect(Object.keys(data)).toEqual(LEGACY_PAYLOAD_KEYS);
    expect(data).toMatchObject({ websiteId: 'w1', templateId: 't1', website_locale: 'en-GB', pagePath: '/about' });
  });

  test("the seed §3 payload's pageHash leaves out a password reset link's token", async () => {
    history.replaceState(null, '', '/members#reset-password=Secret_Token-123');
    try {
      await load(ALL_ON);
      const [call] = page.fetch.callsTo('/api/events/RecordEvent', 'POST');
      expect(JSON.parse(new URLSearchParams(call!.body).get('data')!).pageHash).toBe('#reset-password');
      expect(call!.body).not.toContain('Secret_Token');
      for (const [, body] of beacon.mock.calls) expect(String(body)).not.toContain('Secret_Token');
    } finally {
      history.replaceState(null, '', '/');
    }
  });

  test('the page view goes to the clanker events endpoint by beacon, with the shared analytics id and session', async () => {
    const handle = await load(ALL_ON);
    const [[url, body]] = beaconsTo('/api/v1/clanker/events') as [[string, URLSearchParams]];
    expect(url).toBe(`${location.origin}/api/v1/clanker/events`);
    const parsed = parseClankerEvent(Object.fromEntries(body));
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.value.schemaName).toBe('page_view');
    const content = parsed.value.content;
    for (const field of CLANKER_AUTO_FIELD_NAMES) expect(content).toHaveProperty(field);
    expect(content.analytics_id).toBe(readCookie('SS_ANALYTICS_ID'));
    expect(content.session_id).toBe(handle!.session().sessionId);
    expect(content).toMatchObject({ is_first_landing: true, is_first_session: true, context_website_id: 'w1', website_locale: 'en-GB' });
  });

  test('the performance record reaches /api/1/performance/records when the page is hidden', async () => {
    await load(ALL_ON);
    expect(page.fetch.callsTo('/api/1/performance/settings', 'GET')).toHaveLength(1);
    fake.emit('paint', [{ name: 'first-contentful-paint', startTime: 700 }]);
    setVisibility(document, 'hidden');
    const [[url, text]] = beaconsTo('/api/1/performance/records') as [[string, string]];
    expect(url).toBe('/api/1/performance/records');
    const batch = parsePerformanceBatch(text);
    expect(batch.ok && batch.value).toMatchObject({ pageLoadId: 'pl-9', pagePath: '/about', records: [{ metric: 'FCP', value: 700, rating: 'good' }] });
  });

  test('each client is off unless asked for', async () => {
    await load({ performance: true });
    expect(page.fetch.callsTo('/api/events/RecordEvent')).toEqual([]);
    expect(beaconsTo('/api/v1/clanker/events')).toEqual([]);
    expect(page.fetch.callsTo('/api/1/performance/settings')).toHaveLength(1);
  });

  test('a skipped page view (A12 skipPageView) sends no tracking, but still its performance record', async () => {
    await load(ALL_ON, 'not-found');
    expect(page.fetch.callsTo('/api/events/RecordEvent')).toEqual([]);
    expect(beaconsTo('/api/v1/clanker/events')).toEqual([]);
    expect(page.fetch.callsTo('/api/1/performance/settings')).toHaveLength(1);
  });

  test('a failing RecordEvent is reported, not thrown', async () => {
    page = createPage({ body: '', context: { tracking: { skipPageView: null }, platform: { legacyTracking: true } } });
    page.fetch.on('POST', '/api/events/RecordEvent', { status: 403, json: { crumbFail: true } });
    const handle = await page.boot();
    await (await handle.platform)?.ready;
    expect(handle.runtime.reporter.queued().map((r) => r.data.message)).toContain('Error tracking event: HTTP Status 403');
    expect(warn).toHaveBeenCalledWith('Error tracking event: HTTP Status 403');
  });

  test('experiments from the context are available on the handle', async () => {
    const handle = await load({ performance: true, experiments: { f: { experimentType: 'FEATURE_TOGGLE', variant: 'true' } } });
    expect(handle!.experiments.isFeatureEnabled('f').enabled).toBe(true);
  });
});

describe('session recording gate in the platform boot (#18, seed §7, §9)', () => {
  const GET_ID = '/api/commerce/fullstory/getId';
  const experiments = (toggle: string) => ({
    'session-recording': { experimentType: 'FEATURE_TOGGLE', variant: toggle },
    'commerce-activation-session-recording': { experimentType: 'AB_TEST', variant: 'enabled', segmentName: 's' },
  });
  beforeEach(() => Object.defineProperty(navigator, 'hardwareConcurrency', { configurable: true, value: 8 }));
  afterEach(() => delete (navigator as { hardwareConcurrency?: unknown }).hardwareConcurrency);

  test('no toggle in the page context: the id is never asked for', async () => {
    const handle = await load(ALL_ON);
    expect(await handle!.sessionRecording).toEqual({ state: 'off' });
    expect(page.fetch.callsTo(GET_ID)).toEqual([]);
  });

  test('toggle switched off: nothing asked, nothing loaded', async () => {
    const handle = await load({ ...ALL_ON, experiments: experiments('false') });
    expect(await handle!.sessionRecording).toEqual({ state: 'off' });
    expect(page.fetch.callsTo(GET_ID)).toEqual([]);
  });

  test('toggle on and the experiment allowing: one id call; the mock id skips recording', async () => {
    const ready = (async () => {
      const handle = await load({ ...ALL_ON, experiments: experiments('true') });
      return handle!.sessionRecording;
    })();
    page.fetch.on('GET', GET_ID, { json: { id: 'mock-session-recording-id' } });
    expect(await ready).toEqual({ state: 'skipped' });
    expect(page.fetch.callsTo(GET_ID, 'GET')).toHaveLength(1);
    expect(document.querySelectorAll('script[src]')).toHaveLength(0);
  });

  test("the site's toggles in sf-context.experiments open and close the gate (issue 18 configuration)", async () => {
    const site = (on: boolean) =>
      experimentDefinitions({ features: { [FEATURE.sessionRecording]: on }, experiments: { 'commerce-activation-session-recording': { variant: 'enabled', segmentName: 's' } } });
    const off = await load(ALL_ON, null, { experiments: site(false) });
    expect(await off!.sessionRecording).toEqual({ state: 'off' });
    expect(page.fetch.callsTo(GET_ID)).toEqual([]);
    page.cleanup();

    const ready = (async () => (await load(ALL_ON, null, { experiments: site(true) }))!.sessionRecording)();
    page.fetch.on('GET', GET_ID, { json: { id: 'mock-session-recording-id' } });
    expect(await ready).toEqual({ state: 'skipped' });
    expect(page.fetch.callsTo(GET_ID, 'GET')).toHaveLength(1);
  });

  test('a real id is reported ready (no recorder ships); a failed call is no recording', async () => {
    const ready = (async () => (await load({ ...ALL_ON, experiments: experiments('true') }))!.sessionRecording)();
    page.fetch.on('GET', GET_ID, { json: { id: 'org-7' } });
    expect(await ready).toEqual({ state: 'ready', id: 'org-7' });
    page.cleanup();

    const failed = (async () => (await load({ ...ALL_ON, experiments: experiments('true') }))!.sessionRecording)();
    page.fetch.on('GET', GET_ID, { status: 500, json: { error: 'x' } });
    expect(await failed).toEqual({ state: 'skipped' });
  });
});
