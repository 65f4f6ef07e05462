import { describe, expect, it } from 'vitest';
import { CLANKER, PERFORMANCE_WIRE, SESSION_RECORDING_WIRE, rateMetric, type PerformanceBatch } from '../../hydrate/shared/platform-wire.ts';
import { CRUMB, START, json, useApiHarness } from '../test-support/api-harness.ts';
import { MAX_RECORDS_PER_PAGE_LOAD, PAGE_LOAD_LIFETIME_MS } from './platform-routes.ts';

// Server side of the platform runtime calls (templates seed §7) against one PGlite
// database, reseeded before each test.

const h = useApiHarness();

const content = { page_path: '/shop', browser_window_width: 1280, member_account_id: null, custom: { nested: [1, 2] } };

function postEvent(payload: string | Record<string, unknown>, contentType = 'application/json', headers: Record<string, string> = {}) {
  return h.inject({
    method: 'POST',
    url: CLANKER.eventsPath,
    headers: { 'content-type': contentType, ...headers },
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });
}

// sendBeacon with a URLSearchParams body sends this content type.
function beacon(fields: Record<string, string>) {
  return postEvent(new URLSearchParams(fields).toString(), 'application/x-www-form-urlencoded;charset=UTF-8');
}

describe('newer tracker: POST /api/v1/clanker/events', () => {
  it('stores a JSON event and answers 202 with no body', async () => {
    const response = await postEvent(
      { eventContent: JSON.stringify(content), eventSchemaName: 'commerce.page_view' },
      'application/json',
      { 'user-agent': 'UA/1' },
    );
    expect(response.statusCode).toBe(202);
    expect(response.body).toBe('');
    const [event, ...rest] = await h.store.read.listClankerEvents();
    expect(rest).toEqual([]);
    expect(event).toMatchObject({ schemaName: 'commerce.page_view', content, transport: 'json', userAgent: 'UA/1', receivedAt: START });
  });

  it("stores page and referrer addresses without an order page's id, a cartToken or a download token (log-redaction.ts redactSecrets)", async () => {
    const secret = {
      page_path: '/commerce/orders/o_MRY4v032/confirmed',
      page_referrer_url: 'https://shop.example/checkout?cartToken=c_8fj2kd',
      destination_url: 'https://shop.example/commerce/downloads/AbCdEf123/poster',
    };
    expect((await postEvent({ eventContent: JSON.stringify(secret), eventSchemaName: 'commerce.page_view' })).statusCode).toBe(202);
    const [event] = await h.store.read.listClankerEvents();
    expect(event!.content).toEqual({
      page_path: '/commerce/orders/[redacted]/confirmed',
      page_referrer_url: 'https://shop.example/checkout?cartToken=[redacted]',
      destination_url: 'https://shop.example/commerce/downloads/[redacted]/poster',
    });
  });

  it('stores the same fields sent form-encoded by a beacon, also as text/plain', async () => {
    expect((await beacon({ eventContent: JSON.stringify(content), eventSchemaName: 'a_b' })).statusCode).toBe(202);
    h.clock.now += 1;
    const text = new URLSearchParams({ eventContent: '{"x":1}', eventSchemaName: 'b' }).toString();
    expect((await postEvent(text, 'text/plain;charset=UTF-8')).statusCode).toBe(202);
    const events = await h.store.read.listClankerEvents();
    expect(events.map((e) => [e.schemaName, e.transport, e.content])).toEqual([
      ['a_b', 'beacon', content],
      ['b', 'beacon', { x: 1 }],
    ]);
  });

  it.each([
    ['no schema name', { eventContent: '{}' }, 'INVALID_SCHEMA_NAME', 'eventSchemaName is invalid.'],
    ['a schema name with a space', { eventContent: '{}', eventSchemaName: 'a b' }, 'INVALID_SCHEMA_NAME', 'eventSchemaName is invalid.'],
    ['a schema name that is a number', { eventContent: '{}', eventSchemaName: 7 }, 'INVALID_SCHEMA_NAME', 'eventSchemaName is invalid.'],
    ['content that is not JSON', { eventContent: '{', eventSchemaName: 's' }, 'INVALID_EVENT_CONTENT', 'eventContent must be a JSON object.'],
    ['content that is an array', { eventContent: '[]', eventSchemaName: 's' }, 'INVALID_EVENT_CONTENT', 'eventContent must be a JSON object.'],
    ['content that is an object, not a string', { eventContent: {}, eventSchemaName: 's' }, 'INVALID_EVENT_CONTENT', 'eventContent must be a JSON object.'],
  ])('%s: 400 and nothing stored', async (_name, body, code, error) => {
    const response = await postEvent(body);
    expect(response.statusCode).toBe(400);
    expect(json(response)).toEqual({ error, code });
    expect(await h.store.read.listClankerEvents()).toEqual([]);
  });

  it('an auto-populated field of the wrong type is refused with a field error', async () => {
    const response = await postEvent({ eventContent: JSON.stringify({ page_path: 3, session_id: 's' }), eventSchemaName: 's' });
    expect(response.statusCode).toBe(400);
    expect(json(response)).toEqual({
      error: 'eventContent must be a JSON object.',
      code: 'INVALID_EVENT_CONTENT',
      errors: { page_path: 'page_path must be a string or null.' },
    });
  });

  it('text the database cannot store is a 400, never a 500', async () => {
    const response = await postEvent({ eventContent: '{"page_path":"a\\u0000b"}', eventSchemaName: 's' });
    expect(response.statusCode).toBe(400);
    expect(json(response).code).toBe('BAD_REQUEST');
    expect(await h.store.read.listClankerEvents()).toEqual([]);
  });

  it('broken JSON, other content types and oversized bodies get the B0.2 errors', async () => {
    expect(json(await postEvent('{"eventContent":')).code).toBe('BAD_JSON');
    const other = await postEvent('x', 'application/octet-stream');
    expect(other.statusCode).toBe(415);
    const big = await postEvent({ eventContent: JSON.stringify({ s: 'x'.repeat(70_000) }), eventSchemaName: 's' });
    expect(big.statusCode).toBe(413);
    const long = await postEvent({ eventContent: JSON.stringify({ s: 'x'.repeat(CLANKER.maxEventContentChars) }), eventSchemaName: 's' });
    expect(json(long).code).toBe('INVALID_EVENT_CONTENT');
  });

  it('is rate limited per client (429 with Retry-After)', async () => {
    await h.reset({ limits: { trackingEvents: { limit: 2, windowMs: 60_000 } } });
    const body = { eventContent: '{}', eventSchemaName: 's' };
    expect((await postEvent(body)).statusCode).toBe(202);
    expect((await postEvent(body)).statusCode).toBe(202);
    const limited = await postEvent(body);
    expect(limited.statusCode).toBe(429);
    expect(json(limited)).toEqual({ error: 'Too many requests.', code: 'RATE_LIMITED' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    h.clock.now += 60_001;
    expect((await postEvent(body)).statusCode).toBe(202);
    expect(await h.store.read.listClankerEvents()).toHaveLength(3);
  });

  it('GET is 405 with Allow', async () => {
    const response = await h.inject({ method: 'GET', url: CLANKER.eventsPath });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe('POST');
  });
});

describe('newer tracker: validate mode', () => {
  const validate = (schema: string, body: Record<string, unknown>) =>
    h.inject({ method: 'POST', url: CLANKER.validatePathPrefix + schema, payload: body });

  it('answers valid or the fields in error, and stores nothing', async () => {
    const good = await validate('commerce.view', { eventContent: JSON.stringify(content), eventSchemaName: 'commerce.view' });
    expect(good.statusCode).toBe(200);
    expect(json(good)).toEqual({ valid: true, errors: [] });
    const bad = await validate('commerce.view', { eventContent: JSON.stringify({ browser_window_height: '10' }) });
    expect(json(bad)).toEqual({
      valid: false,
      errors: [{ field: 'browser_window_height', message: 'browser_window_height must be a number or null.' }],
    });
    expect(await h.store.read.listClankerEvents()).toEqual([]);
  });

  it('refuses a bad schema name in the path, a body naming another schema, and bad content', async () => {
    expect(json(await validate('9bad', { eventContent: '{}' })).code).toBe('INVALID_SCHEMA_NAME');
    expect(json(await validate('a', { eventContent: '{}', eventSchemaName: 'b' })).code).toBe('INVALID_SCHEMA_NAME');
    const response = await validate('a', { eventContent: 'null' });
    expect(response.statusCode).toBe(400);
    expect(json(response)).toEqual({ error: 'eventContent must be a JSON object.', code: 'INVALID_EVENT_CONTENT' });
  });
});

describe('legacy tracker: POST /api/events/RecordEvent (B25)', () => {
  const payload = { websiteId: 'w1', memberAccountId: null, website_locale: 'en-US', pagePath: '/shop' };
  const recordEvent = (fields: Record<string, string>) =>
    h.inject({
      method: 'POST',
      url: '/api/events/RecordEvent',
      cookies: { crumb: CRUMB },
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(fields).toString(),
    });

  it('stores what it accepts: the event and the whole data payload', async () => {
    const response = await recordEvent({ crumb: CRUMB, event: 'PageView', data: JSON.stringify(payload) });
    expect(response.statusCode).toBe(204);
    const events = await h.store.read.listCensusEvents();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ kind: 'event', event: 'PageView', data: payload });
  });

  it('data whose escapes the database cannot store is a 400 INVALID_DATA', async () => {
    const response = await recordEvent({ crumb: CRUMB, event: 'PageView', data: '{"pagePath":"\\u0000"}' });
    expect(response.statusCode).toBe(400);
    expect(json(response).code).toBe('INVALID_DATA');
    expect(await h.store.read.listCensusEvents()).toEqual([]);
  });

  it('shares the tracking rate limit', async () => {
    await h.reset({ limits: { trackingEvents: { limit: 1, windowMs: 60_000 } } });
    expect((await recordEvent({ crumb: CRUMB, event: 'A', data: '{}' })).statusCode).toBe(204);
    expect((await recordEvent({ crumb: CRUMB, event: 'A', data: '{}' })).statusCode).toBe(429);
  });
});

describe('performance: settings and records', () => {
  async function pageLoadId(): Promise<string> {
    const response = await h.inject({ method: 'GET', url: PERFORMANCE_WIRE.settingsPath });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    return json(response).pageLoadId;
  }

  function batch(id: string, overrides: Partial<PerformanceBatch> = {}): PerformanceBatch {
    return {
      pageLoadId: id,
      pagePath: '/shop/cup',
      records: [
        { metric: 'LCP', value: 2600, rating: rateMetric('LCP', 2600), at: 3100 },
        { metric: 'CLS', value: 0.05, rating: 'good', at: 3200 },
      ],
      ...overrides,
    };
  }

  const sendRecords = (body: unknown, contentType: string = PERFORMANCE_WIRE.recordsContentType) =>
    h.inject({
      method: 'POST',
      url: PERFORMANCE_WIRE.recordsPath,
      headers: { 'content-type': contentType },
      payload: typeof body === 'string' ? body : JSON.stringify(body),
    });

  it('settings issue a fresh pageLoadId matching the wire pattern, and records are stored in order', async () => {
    const first = await pageLoadId();
    const second = await pageLoadId();
    expect(first).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(second).not.toBe(first);
    expect((await sendRecords(batch(first))).statusCode).toBe(204);
    const more = batch(first, { records: [{ metric: 'TTFB', value: 900, rating: 'needs-improvement', at: 10 }] });
    expect((await sendRecords(more, 'application/json')).statusCode).toBe(204);
    const stored = await h.store.read.listPerformanceRecords(first);
    expect(stored.map(({ metric, value, rating, at, pagePath }) => ({ metric, value, rating, at, pagePath }))).toEqual([
      { metric: 'LCP', value: 2600, rating: 'needs-improvement', at: 3100, pagePath: '/shop/cup' },
      { metric: 'CLS', value: 0.05, rating: 'good', at: 3200, pagePath: '/shop/cup' },
      { metric: 'TTFB', value: 900, rating: 'needs-improvement', at: 10, pagePath: '/shop/cup' },
    ]);
    expect(await h.store.read.listPerformanceRecords(second)).toEqual([]);
  });

  it.each([
    ['not JSON', 'records'],
    ['an empty batch', { records: [] }],
    ['an unknown metric', { records: [{ metric: 'XYZ', value: 1, rating: 'good', at: 1 }] }],
    ['a rating that disagrees with the thresholds', { records: [{ metric: 'FCP', value: 3001, rating: 'good', at: 1 }] }],
    ['a negative value', { records: [{ metric: 'FCP', value: -1, rating: 'good', at: 1 }] }],
  ])('%s: 400 INVALID_PERFORMANCE_BATCH and nothing stored', async (_name, change) => {
    const id = await pageLoadId();
    const body = typeof change === 'string' ? change : { ...batch(id), ...change };
    const response = await sendRecords(body);
    expect(response.statusCode).toBe(400);
    expect(json(response)).toEqual({ error: 'Invalid performance records.', code: 'INVALID_PERFORMANCE_BATCH' });
    expect(await h.store.read.listPerformanceRecords(id)).toEqual([]);
  });

  it("an order page's path is stored without its id; an ordinary path as it was", async () => {
    const id = await pageLoadId();
    expect((await sendRecords(batch(id, { pagePath: '/commerce/orders/o_MRY4v032/received' }))).statusCode).toBe(204);
    expect((await h.store.read.listPerformanceRecords(id)).map((record) => record.pagePath)).toEqual(['/commerce/orders/[redacted]/received', '/commerce/orders/[redacted]/received']);
  });

  it('an empty body, a form body and a body over the batch limit are refused', async () => {
    expect(json(await sendRecords('')).code).toBe('INVALID_PERFORMANCE_BATCH');
    expect((await sendRecords('a=1', 'application/x-www-form-urlencoded')).statusCode).toBe(415);
    expect((await sendRecords('x'.repeat(PERFORMANCE_WIRE.maxBatchBytes + 1))).statusCode).toBe(413);
  });

  it('records need a pageLoadId this server issued and that is still open', async () => {
    const unknown = await sendRecords(batch('never-issued'));
    expect(unknown.statusCode).toBe(404);
    expect(json(unknown)).toEqual({ error: 'Unknown pageLoadId.', code: 'PAGE_LOAD_NOT_FOUND' });
    const id = await pageLoadId();
    h.clock.now += PAGE_LOAD_LIFETIME_MS + 1;
    const expired = await sendRecords(batch(id));
    expect(expired.statusCode).toBe(410);
    expect(json(expired).code).toBe('PAGE_LOAD_EXPIRED');
    expect(await h.store.read.listPerformanceRecords(id)).toEqual([]);
  });

  it(`a page load takes at most ${MAX_RECORDS_PER_PAGE_LOAD} records`, async () => {
    const id = await pageLoadId();
    const record = { metric: 'INP' as const, value: 100, rating: 'good' as const, at: 1 };
    const full = { records: Array.from({ length: PERFORMANCE_WIRE.maxRecordsPerBatch }, () => record) };
    for (let i = 0; i < MAX_RECORDS_PER_PAGE_LOAD / PERFORMANCE_WIRE.maxRecordsPerBatch; i++) {
      expect((await sendRecords(batch(id, full))).statusCode).toBe(204);
    }
    const over = await sendRecords(batch(id, { records: [record] }));
    expect(over.statusCode).toBe(409);
    expect(json(over).code).toBe('PAGE_LOAD_FULL');
    expect(await h.store.read.listPerformanceRecords(id)).toHaveLength(MAX_RECORDS_PER_PAGE_LOAD);
  });

  it('a page path the database cannot store is a 400', async () => {
    const id = await pageLoadId();
    const response = await sendRecords(`{"pageLoadId":"${id}","pagePath":"\\ud800","records":[{"metric":"CLS","value":0,"rating":"good","at":0}]}`);
    expect(response.statusCode).toBe(400);
    expect(await h.store.read.listPerformanceRecords(id)).toEqual([]);
  });

  it('settings and records are rate limited per client', async () => {
    await h.reset({ limits: { performance: { limit: 1, windowMs: 60_000 } } });
    await pageLoadId();
    const limited = await h.inject({ method: 'GET', url: PERFORMANCE_WIRE.settingsPath });
    expect(limited.statusCode).toBe(429);
    expect(json(limited).code).toBe('RATE_LIMITED');
  });
});

describe('session recording: GET /api/commerce/fullstory/getId (seed §7, #18)', () => {
  it('answers the mock id, which tells the client to load no recorder', async () => {
    const response = await h.inject({ method: 'GET', url: SESSION_RECORDING_WIRE.idPath });
    expect(response.statusCode).toBe(200);
    expect(json(response)).toEqual({ id: SESSION_RECORDING_WIRE.mockId });
  });
});
