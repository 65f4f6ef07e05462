/**
 * Wire shapes of the platform runtime calls (templates seed §7): the browser clients in
 * `hydrate/platform/` send them and the renderer (`renderer/platform/`) answers them, so
 * both sides import this one module. Pure: no DOM, no node:, no React.
 *
 * Paths, field names and the two accepted statuses (200, 202) are the seed's. Everything
 * marked "designed" (success statuses of our server, limits, the schema-name rule, error
 * codes, the record batch shape) is a project decision the seed does not give.
 */

/** Legacy tracker (seed §7; STOREFRONT B25 already serves it). */
export const LEGACY_TRACKER = {
  path: '/api/events/RecordEvent',
  contentType: 'application/x-www-form-urlencoded',
  /** Form fields: `crumb` from the crumb cookie, `event`, `data` = JSON of the payload. */
  fields: { crumb: 'crumb', event: 'event', data: 'data' },
  /** B25 answers 204; the client accepts any 2xx ("normal HTTP success"). */
  successStatus: 204,
} as const;

/** Seed §3 "Legacy tracking event payload", in the seed's order. */
export const LEGACY_PAYLOAD_KEYS = [
  'websiteId',
  'memberAccountId',
  'website_locale',
  'member_locale',
  'templateId',
  'variantId',
  'pageHash',
  'pagePath',
] as const;
export type LegacyPayloadKey = (typeof LEGACY_PAYLOAD_KEYS)[number];

/** Newer ("clanker") tracker, seed §7. */
export const CLANKER = {
  eventsPath: '/api/v1/clanker/events',
  validatePathPrefix: '/api/v1/clanker/validate-event-content/',
  /** Body fields, the same in the JSON body and in the beacon's form-encoded body. */
  fields: { eventContent: 'eventContent', eventSchemaName: 'eventSchemaName' },
  jsonContentType: 'application/json',
  beaconContentType: 'application/x-www-form-urlencoded',
  /** Statuses the XHR sender treats as success (seed). */
  acceptedStatuses: [200, 202] as readonly number[],
  /** Our server answers an accepted event with 202 and no body (designed). */
  eventsSuccessStatus: 202,
  /** Validate mode answers 200 `{valid, errors}` (designed; see ClankerValidation). */
  validateSuccessStatus: 200,
  /** Max length of the eventContent string (designed; the request limit stays B0's 64 KiB). */
  maxEventContentChars: 32 * 1024,
  maxSchemaNameChars: 100,
} as const;

/** Schema names (designed): a letter, then letters, digits, `_`, `.` or `-`; at most 100 characters. */
export const SCHEMA_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_.-]{0,99}$/;

export function isValidSchemaName(name: unknown): name is string {
  return typeof name === 'string' && SCHEMA_NAME_PATTERN.test(name);
}

export function clankerValidatePath(schemaName: string): string {
  return CLANKER.validatePathPrefix + encodeURIComponent(schemaName);
}

/** Environments of seed §3; dev, qa and staging post to the staging host (seed §7). */
export const ENVIRONMENTS = ['dev', 'qa', 'staging', 'prod'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];
export type EventsHostKind = 'staging' | 'production';
export function eventsHostKind(environment: Environment): EventsHostKind {
  return environment === 'prod' ? 'production' : 'staging';
}

/** Event sources of seed §3. */
export const EVENT_SOURCES = ['WEB', 'IOS', 'ANDROID', 'SERVER'] as const;

/**
 * Seed §3 "Newer tracking event content": the auto-populated fields, with the JSON type
 * each carries (designed; null is allowed for every one, e.g. no member account).
 */
export const CLANKER_AUTO_FIELDS = {
  analytics_id: 'string',
  browser_language: 'string',
  browser_window_height: 'number',
  browser_window_width: 'number',
  client_name: 'string',
  client_version: 'string',
  marketing_id: 'string',
  page_host: 'string',
  page_path: 'string',
  page_query_params: 'string',
  page_referrer_url: 'string',
  session_id: 'string',
  enduser_user_agent: 'string',
  event_occurrence_timestamp: 'number',
  browser_locale: 'string',
  custom_schema_name: 'string',
  source_environment: 'string',
  context_website_id: 'string',
  destination_url: 'string',
  member_account_id: 'string',
  object_identifier: 'string',
  resolved_locale: 'string',
  website_locale: 'string',
  member_account_locale: 'string',
} as const satisfies Record<string, 'string' | 'number'>;
export type ClankerAutoField = keyof typeof CLANKER_AUTO_FIELDS;
export const CLANKER_AUTO_FIELD_NAMES = Object.keys(CLANKER_AUTO_FIELDS) as ClankerAutoField[];

/** Performance records (seed §7, §9). */
export const PERFORMANCE_WIRE = {
  settingsPath: '/api/1/performance/settings',
  /** Seed: 30 s timeout on the settings call. */
  settingsTimeoutMs: 30_000,
  /** 200 `{pageLoadId}`; anything else is an error for the client. */
  settingsSuccessStatus: 200,
  recordsPath: '/api/1/performance/records',
  /** "a batch of records as text": a JSON PerformanceBatch sent as text/plain (what sendBeacon sends for a string). */
  recordsContentType: 'text/plain;charset=UTF-8',
  recordsSuccessStatus: 204,
  /** Designed limits. */
  maxRecordsPerBatch: 50,
  maxBatchBytes: 16 * 1024,
} as const;

/**
 * Session recording (seed §7): `GET /api/commerce/fullstory/getId` answers a string id, and the
 * mock id means "load no recorder". Quire ships no recording service, so its server always
 * answers the mock id (`{id}`; the shape and the id are designed).
 */
export const SESSION_RECORDING_WIRE = {
  idPath: '/api/commerce/fullstory/getId',
  mockId: 'mock-session-recording-id',
  timeoutMs: 2500,
} as const;

/** pageLoadId (designed): 1 to 64 url-safe characters. */
export const PAGE_LOAD_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export const METRIC_NAMES = ['FCP', 'LCP', 'TTFB', 'FID', 'INP', 'CLS'] as const;
export type MetricName = (typeof METRIC_NAMES)[number];
export type MetricRating = 'good' | 'needs-improvement' | 'poor';

/** Seed §9 rating thresholds (ms; CLS unitless). */
export const METRIC_THRESHOLDS: Readonly<Record<MetricName, { good: number; poor: number }>> = {
  FCP: { good: 1800, poor: 3000 },
  LCP: { good: 2500, poor: 4000 },
  TTFB: { good: 800, poor: 1800 },
  FID: { good: 100, poor: 300 },
  INP: { good: 200, poor: 500 },
  CLS: { good: 0.1, poor: 0.25 },
};

/** A value at or under `good` is good, over `poor` is poor, in between needs improvement. */
export function rateMetric(name: MetricName, value: number): MetricRating {
  const t = METRIC_THRESHOLDS[name];
  if (value <= t.good) return 'good';
  if (value <= t.poor) return 'needs-improvement';
  return 'poor';
}

export interface PerformanceRecord {
  metric: MetricName;
  value: number;
  rating: MetricRating;
  /** ms since navigation start when the value was taken. */
  at: number;
}

/** Body of POST /api/1/performance/records, JSON-encoded as text. */
export interface PerformanceBatch {
  pageLoadId: string;
  pagePath: string;
  records: PerformanceRecord[];
}

/** Stable error codes the server answers with (B0.2 body shape `{error, code}`). */
export const PLATFORM_ERRORS = {
  INVALID_SCHEMA_NAME: { status: 400, message: 'eventSchemaName is invalid.' },
  INVALID_EVENT_CONTENT: { status: 400, message: 'eventContent must be a JSON object.' },
  INVALID_PERFORMANCE_BATCH: { status: 400, message: 'Invalid performance records.' },
} as const;
export type PlatformErrorCode = keyof typeof PLATFORM_ERRORS;

export type WireResult<T> = { ok: true; value: T } | { ok: false; code: PlatformErrorCode; message: string; status: number };

function fail<T>(code: PlatformErrorCode): WireResult<T> {
  return { ok: false, code, ...PLATFORM_ERRORS[code] };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A JSON object sent as text of at most `maxChars` characters; undefined for anything else. */
function parseJsonObject(text: unknown, maxChars: number): Record<string, unknown> | undefined {
  if (typeof text !== 'string' || text.length > maxChars) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return isPlainObject(value) ? value : undefined;
}

/** Checks one clanker body (JSON or form fields alike); never throws. */
export function parseClankerEvent(fields: Record<string, unknown>): WireResult<{ schemaName: string; content: Record<string, unknown> }> {
  const schemaName = fields[CLANKER.fields.eventSchemaName];
  if (!isValidSchemaName(schemaName)) return fail('INVALID_SCHEMA_NAME');
  const content = parseJsonObject(fields[CLANKER.fields.eventContent], CLANKER.maxEventContentChars);
  if (!content) return fail('INVALID_EVENT_CONTENT');
  return { ok: true, value: { schemaName, content } };
}

/** Validate-mode answer (designed): which auto-populated fields carry the wrong JSON type. */
export interface ClankerValidation {
  valid: boolean;
  errors: Array<{ field: string; message: string }>;
}

export function validateEventContent(content: Record<string, unknown>): ClankerValidation {
  const errors: ClankerValidation['errors'] = [];
  for (const field of CLANKER_AUTO_FIELD_NAMES) {
    if (!Object.prototype.hasOwnProperty.call(content, field)) continue;
    const value = content[field];
    const expected = CLANKER_AUTO_FIELDS[field];
    if (value !== null && typeof value !== expected) errors.push({ field, message: `${field} must be a ${expected} or null.` });
  }
  return { valid: errors.length === 0, errors };
}

/** Parses a records batch as the server receives it; never throws. */
export function parsePerformanceBatch(text: unknown): WireResult<PerformanceBatch> {
  const raw = parseJsonObject(text, PERFORMANCE_WIRE.maxBatchBytes);
  if (!raw) return fail('INVALID_PERFORMANCE_BATCH');
  const { pageLoadId, pagePath, records } = raw;
  if (typeof pageLoadId !== 'string' || !PAGE_LOAD_ID_PATTERN.test(pageLoadId)) return fail('INVALID_PERFORMANCE_BATCH');
  if (typeof pagePath !== 'string' || pagePath.length > 2083) return fail('INVALID_PERFORMANCE_BATCH');
  if (!Array.isArray(records) || records.length === 0 || records.length > PERFORMANCE_WIRE.maxRecordsPerBatch) {
    return fail('INVALID_PERFORMANCE_BATCH');
  }
  const out: PerformanceRecord[] = [];
  for (const r of records) {
    if (!isPlainObject(r)) return fail('INVALID_PERFORMANCE_BATCH');
    const { metric, value, rating, at } = r;
    if (typeof metric !== 'string' || !(METRIC_NAMES as readonly string[]).includes(metric)) return fail('INVALID_PERFORMANCE_BATCH');
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return fail('INVALID_PERFORMANCE_BATCH');
    if (typeof at !== 'number' || !Number.isFinite(at) || at < 0) return fail('INVALID_PERFORMANCE_BATCH');
    // The rating is derived, so a batch whose rating disagrees with the thresholds is malformed.
    const expected = rateMetric(metric as MetricName, value);
    if (rating !== expected) return fail('INVALID_PERFORMANCE_BATCH');
    out.push({ metric: metric as MetricName, value, rating: expected, at });
  }
  return { ok: true, value: { pageLoadId, pagePath, records: out } };
}
