import { describe, expect, test } from 'vitest';
import {
  CLANKER,
  CLANKER_AUTO_FIELD_NAMES,
  LEGACY_PAYLOAD_KEYS,
  LEGACY_TRACKER,
  METRIC_THRESHOLDS,
  PERFORMANCE_WIRE,
  clankerValidatePath,
  eventsHostKind,
  isValidSchemaName,
  parseClankerEvent,
  parsePerformanceBatch,
  rateMetric,
  validateEventContent,
} from './platform-wire.ts';

describe('seed §7 paths and statuses', () => {
  test('tracker paths', () => {
    expect(LEGACY_TRACKER.path).toBe('/api/events/RecordEvent');
    expect(CLANKER.eventsPath).toBe('/api/v1/clanker/events');
    expect(clankerValidatePath('page_view')).toBe('/api/v1/clanker/validate-event-content/page_view');
    expect(CLANKER.acceptedStatuses).toEqual([200, 202]);
  });

  test('performance paths and the 30 s settings timeout', () => {
    expect(PERFORMANCE_WIRE.settingsPath).toBe('/api/1/performance/settings');
    expect(PERFORMANCE_WIRE.recordsPath).toBe('/api/1/performance/records');
    expect(PERFORMANCE_WIRE.settingsTimeoutMs).toBe(30000);
  });

  test('dev, qa and staging use the staging host; prod the production host', () => {
    expect(['dev', 'qa', 'staging', 'prod'].map((e) => eventsHostKind(e as 'dev'))).toEqual(['staging', 'staging', 'staging', 'production']);
  });
});

describe('seed §3 field lists', () => {
  test('legacy payload keys', () => {
    expect(LEGACY_PAYLOAD_KEYS).toEqual(['websiteId', 'memberAccountId', 'website_locale', 'member_locale', 'templateId', 'variantId', 'pageHash', 'pagePath']);
  });

  test('the 24 auto-populated fields of the newer tracker', () => {
    expect(CLANKER_AUTO_FIELD_NAMES).toEqual([
      'analytics_id', 'browser_language', 'browser_window_height', 'browser_window_width', 'client_name', 'client_version',
      'marketing_id', 'page_host', 'page_path', 'page_query_params', 'page_referrer_url', 'session_id', 'enduser_user_agent',
      'event_occurrence_timestamp', 'browser_locale', 'custom_schema_name', 'source_environment', 'context_website_id',
      'destination_url', 'member_account_id', 'object_identifier', 'resolved_locale', 'website_locale', 'member_account_locale',
    ]);
  });
});

describe('metric thresholds (seed §9)', () => {
  test('good / poor pairs', () => {
    expect(METRIC_THRESHOLDS).toEqual({
      FCP: { good: 1800, poor: 3000 },
      LCP: { good: 2500, poor: 4000 },
      TTFB: { good: 800, poor: 1800 },
      FID: { good: 100, poor: 300 },
      INP: { good: 200, poor: 500 },
      CLS: { good: 0.1, poor: 0.25 },
    });
  });

  test.each([
    ['FCP', 1800, 'good'], ['FCP', 1801, 'needs-improvement'], ['FCP', 3000, 'needs-improvement'], ['FCP', 3001, 'poor'],
    ['LCP', 2500, 'good'], ['LCP', 4000.5, 'poor'], ['TTFB', 801, 'needs-improvement'], ['FID', 300, 'needs-improvement'],
    ['INP', 500.1, 'poor'], ['CLS', 0.1, 'good'], ['CLS', 0.11, 'needs-improvement'], ['CLS', 0.26, 'poor'],
  ] as const)('%s %d is %s', (metric, value, rating) => {
    expect(rateMetric(metric, value)).toBe(rating);
  });
});

describe('parseClankerEvent', () => {
  test('accepts a schema name and a JSON object string', () => {
    const r = parseClankerEvent({ eventSchemaName: 'page_view', eventContent: '{"a":1}' });
    expect(r).toEqual({ ok: true, value: { schemaName: 'page_view', content: { a: 1 } } });
  });

  test.each([
    [{ eventContent: '{}' }, 'INVALID_SCHEMA_NAME'],
    [{ eventSchemaName: '1abc', eventContent: '{}' }, 'INVALID_SCHEMA_NAME'],
    [{ eventSchemaName: 'a/b', eventContent: '{}' }, 'INVALID_SCHEMA_NAME'],
    [{ eventSchemaName: 'a'.repeat(101), eventContent: '{}' }, 'INVALID_SCHEMA_NAME'],
    [{ eventSchemaName: 'ok' }, 'INVALID_EVENT_CONTENT'],
    [{ eventSchemaName: 'ok', eventContent: '[1]' }, 'INVALID_EVENT_CONTENT'],
    [{ eventSchemaName: 'ok', eventContent: '{' }, 'INVALID_EVENT_CONTENT'],
    [{ eventSchemaName: 'ok', eventContent: { a: 1 } }, 'INVALID_EVENT_CONTENT'],
    [{ eventSchemaName: 'ok', eventContent: JSON.stringify({ s: 'x'.repeat(CLANKER.maxEventContentChars) }) }, 'INVALID_EVENT_CONTENT'],
  ])('rejects %j with %s and a 400', (fields, code) => {
    const r = parseClankerEvent(fields as Record<string, unknown>);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.code).toBe(code);
      expect(r.status).toBe(400);
    }
  });

  test('schema names: letters first, at most 100', () => {
    expect(isValidSchemaName('a'.repeat(100))).toBe(true);
    expect(isValidSchemaName('Commerce.view-1_x')).toBe(true);
    expect(isValidSchemaName('')).toBe(false);
  });
});

describe('validateEventContent', () => {
  test('flags auto-populated fields with the wrong JSON type, ignores custom fields', () => {
    expect(validateEventContent({ analytics_id: 'a', browser_window_width: 3, marketing_id: null, custom: [1] })).toEqual({ valid: true, errors: [] });
    expect(validateEventContent({ browser_window_width: '3', session_id: 4 })).toEqual({
      valid: false,
      errors: [
        { field: 'browser_window_width', message: 'browser_window_width must be a number or null.' },
        { field: 'session_id', message: 'session_id must be a string or null.' },
      ],
    });
  });
});

describe('parsePerformanceBatch', () => {
  const good = { pageLoadId: 'pl-1', pagePath: '/', records: [{ metric: 'LCP', value: 2600, rating: 'needs-improvement', at: 2600 }] };

  test('accepts a well-formed batch', () => {
    expect(parsePerformanceBatch(JSON.stringify(good))).toEqual({ ok: true, value: good });
  });

  test.each([
    ['not text', 5],
    ['not JSON', '{'],
    ['bad pageLoadId', JSON.stringify({ ...good, pageLoadId: 'a b' })],
    ['no records', JSON.stringify({ ...good, records: [] })],
    ['too many records', JSON.stringify({ ...good, records: Array(51).fill(good.records[0]) })],
    ['unknown metric', JSON.stringify({ ...good, records: [{ ...good.records[0], metric: 'XYZ' }] })],
    ['negative value', JSON.stringify({ ...good, records: [{ ...good.records[0], value: -1 }] })],
    ['rating that disagrees with the thresholds', JSON.stringify({ ...good, records: [{ ...good.records[0], rating: 'good' }] })],
    ['over 16 KiB', JSON.stringify({ ...good, pagePath: '/' + 'x'.repeat(17000) })],
  ])('rejects %s', (_name, text) => {
    const r = parsePerformanceBatch(text);
    expect(r).toMatchObject({ ok: false, code: 'INVALID_PERFORMANCE_BATCH', status: 400, message: 'Invalid performance records.' });
  });
});
