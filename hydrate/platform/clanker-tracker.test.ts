// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { CLANKER_AUTO_FIELD_NAMES } from '../shared/platform-wire.ts';
import { clearCookies, setCookies, stubFetch, type FetchStub } from '../test-support/page.ts';
import { createClankerTracker, resolvedLocale, type ClankerConfig, type ClankerPageFacts } from './clanker-tracker.ts';

const T = 1_790_000_000_000;
const page: ClankerPageFacts = { websiteId: 'w1', websiteLocale: 'fr-FR', memberAccountId: 'm1', memberAccountLocale: 'de-DE', resolvedLocale: null };
const base: ClankerConfig = {
  environment: 'prod',
  hosts: { staging: '', production: '' },
  clientName: 'quire',
  clientVersion: '1.2',
  transport: 'beacon',
  validate: false,
};

let fetch: FetchStub;
let warnings: string[];
let beacon: ReturnType<typeof vi.fn>;
beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(T);
  clearCookies();
  fetch = stubFetch();
  warnings = [];
  beacon = vi.fn(() => true);
  Object.defineProperty(navigator, 'sendBeacon', { configurable: true, value: beacon });
  document.documentElement.lang = '';
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  delete (navigator as { sendBeacon?: unknown }).sendBeacon;
});

const tracker = (config: Partial<ClankerConfig> = {}) =>
  createClankerTracker({ ...base, ...config }, { doc: document, page, analyticsId: () => 'aid', sessionId: () => 'sid', warn: (m) => warnings.push(m) });

describe('newer tracker transport (seed §7)', () => {
  test('by default a form-encoded beacon to /api/v1/clanker/events on the site origin', async () => {
    await tracker().track('page_view', { a: 1 });
    expect(beacon).toHaveBeenCalledTimes(1);
    const [url, body] = beacon.mock.calls[0]!;
    expect(url).toBe(`${location.origin}/api/v1/clanker/events`);
    expect(body).toBeInstanceOf(URLSearchParams);
    expect([...(body as URLSearchParams).keys()]).toEqual(['eventContent', 'eventSchemaName']);
    expect((body as URLSearchParams).get('eventSchemaName')).toBe('page_view');
    expect(JSON.parse((body as URLSearchParams).get('eventContent')!)).toMatchObject({ a: 1, custom_schema_name: 'page_view' });
    expect(fetch.calls).toEqual([]);
  });

  test('dev, qa and staging use the staging host; prod the production host', () => {
    const hosts = { staging: 'https://events.staging.test', production: 'https://events.test' };
    for (const environment of ['dev', 'qa', 'staging'] as const) {
      expect(tracker({ environment, hosts }).eventsUrl()).toBe('https://events.staging.test/api/v1/clanker/events');
    }
    expect(tracker({ environment: 'prod', hosts }).eventsUrl()).toBe('https://events.test/api/v1/clanker/events');
  });

  test('xhr mode: a JSON body {eventContent: string, eventSchemaName}; 200 and 202 succeed', async () => {
    fetch.on('POST', location.origin, { status: 202 });
    await tracker({ transport: 'xhr' }).track('click', { x: 'y' });
    const [call] = fetch.calls;
    expect(call!.headers['content-type']).toBe('application/json');
    const json = call!.json as { eventContent: unknown; eventSchemaName: unknown };
    expect(Object.keys(json)).toEqual(['eventContent', 'eventSchemaName']);
    expect(typeof json.eventContent).toBe('string');
    expect(json.eventSchemaName).toBe('click');
    fetch.routes.unshift(() => ({ status: 200 }));
    await expect(tracker({ transport: 'xhr' }).track('click', { x: 'y' })).resolves.toBeUndefined();
    expect(beacon).not.toHaveBeenCalled();
  });

  test('xhr mode: another status warns and rejects with the seed text', async () => {
    fetch.on('POST', location.origin, { status: 204 });
    await expect(tracker({ transport: 'xhr' }).track('click', { x: 1 })).rejects.toThrow(/^Error tracking event: HTTP Status 204$/);
    expect(warnings).toEqual(['Error tracking event: HTTP Status 204']);
  });

  test('a refused beacon falls back to the JSON request', async () => {
    beacon.mockReturnValue(false);
    fetch.on('POST', location.origin, { status: 202 });
    await tracker().track('page_view', { a: 1 });
    expect(fetch.callsTo(`${location.origin}/api/v1/clanker/events`, 'POST')).toHaveLength(1);
  });

  test('validate mode posts to /api/v1/clanker/validate-event-content/{schemaName}', async () => {
    fetch.on('POST', location.origin, { status: 200, json: { valid: true, errors: [] } });
    await tracker({ validate: true }).track('page_view', { a: 1 });
    expect(fetch.calls.map((c) => c.url)).toEqual([`${location.origin}/api/v1/clanker/validate-event-content/page_view`]);
    expect(beacon).not.toHaveBeenCalled();
  });

  test('no payload rejects with "no payload"', async () => {
    await expect(tracker().track('x', null)).rejects.toThrow(/^no payload$/);
    expect(beacon).not.toHaveBeenCalled();
  });
});

describe('auto-populated fields (seed §3)', () => {
  test('all 24 fields, from the page, the browser and the config', () => {
    setCookies({ SS_MID: 'mid-1' });
    const fields = tracker({ environment: 'qa' }).autoFields('page_view');
    expect(Object.keys(fields)).toEqual(CLANKER_AUTO_FIELD_NAMES);
    expect(fields).toMatchObject({
      analytics_id: 'aid',
      session_id: 'sid',
      client_name: 'quire',
      client_version: '1.2',
      marketing_id: 'mid-1',
      page_host: location.host,
      page_path: location.pathname,
      enduser_user_agent: navigator.userAgent,
      event_occurrence_timestamp: T,
      custom_schema_name: 'page_view',
      source_environment: 'qa',
      context_website_id: 'w1',
      member_account_id: 'm1',
      website_locale: 'fr-FR',
      member_account_locale: 'de-DE',
      browser_window_width: window.innerWidth,
      browser_window_height: window.innerHeight,
      destination_url: null,
      object_identifier: null,
    });
  });

  test('resolved_locale: explicit, else the document language, else en-US', () => {
    expect(resolvedLocale('es-ES', document)).toBe('es-ES');
    expect(tracker().autoFields('x').resolved_locale).toBe('en-US');
    document.documentElement.lang = 'nl-NL';
    expect(tracker().autoFields('x').resolved_locale).toBe('nl-NL');
  });

  test('overwriting a populated field warns and the payload value is sent', async () => {
    await tracker().track('page_view', { session_id: 'mine', destination_url: '/next', custom: 1 });
    expect(warnings).toEqual(['Overwriting auto-populated field session_id']);
    const content = JSON.parse((beacon.mock.calls[0]![1] as URLSearchParams).get('eventContent')!);
    expect(content.session_id).toBe('mine');
    expect(content.destination_url).toBe('/next');
  });
});
