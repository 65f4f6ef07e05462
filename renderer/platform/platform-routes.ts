import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  CLANKER,
  PERFORMANCE_WIRE,
  PLATFORM_ERRORS,
  SESSION_RECORDING_WIRE,
  isValidSchemaName,
  parseClankerEvent,
  parsePerformanceBatch,
  validateEventContent,
  type PlatformErrorCode,
} from '../../hydrate/shared/platform-wire.ts';
import type { ApiDeps } from '../api/context.ts';
import { ApiError, GENERIC } from '../api/errors.ts';
import { formBody, hasUnstorableText, jsonBody, jsonObjectBody } from '../api/http.ts';
import { addRoute, checkedInHandler, takeRateLimit, type RouteKit, type RouteSchema } from '../api/route-kit.ts';
import { redactSecrets, redactSecretsDeep } from '../log-redaction.ts';
import type { ClankerTransport } from '../store/types.ts';

// Server side of the platform runtime calls of templates seed §7: the newer ("clanker")
// tracker and the performance records. Wire shapes, limits and the client-facing error
// codes live in hydrate/shared/platform-wire.ts so the browser clients and this server
// cannot drift apart. None of these calls carry a crumb: browsers send them by beacon.

/**
 * Designed: how long a pageLoadId accepts records, and how many in all. A page sends at most
 * 12 (six metrics, flushed 30 s after load and when hidden; collection stops at 60 s or
 * hidden), so one batch's worth bounds what a page load may store with room to spare.
 */
export const PAGE_LOAD_LIFETIME_MS = 24 * 60 * 60_000;
export const MAX_RECORDS_PER_PAGE_LOAD = PERFORMANCE_WIRE.maxRecordsPerBatch;
const MAX_USER_AGENT = 1000;

/** Server-side refusals that the wire module does not list (they need server state). */
export const PERFORMANCE_STATE_ERRORS = {
  notFound: () => new ApiError(404, 'PAGE_LOAD_NOT_FOUND', 'Unknown pageLoadId.'),
  expired: () => new ApiError(410, 'PAGE_LOAD_EXPIRED', 'This pageLoadId no longer accepts records.'),
  full: () => new ApiError(409, 'PAGE_LOAD_FULL', 'Too many records for this page load.'),
};

function wireError(code: PlatformErrorCode, errors?: Record<string, string>): ApiError {
  const { status, message } = PLATFORM_ERRORS[code];
  return new ApiError(status, code, message, errors ? { errors } : {});
}

function userAgent(request: FastifyRequest): string | null {
  const value = request.headers['user-agent'];
  return typeof value === 'string' ? value.slice(0, MAX_USER_AGENT) : null;
}

/** JSON from an XHR, or the same two fields form-encoded by a beacon (or as text/plain). */
function clankerFields(request: FastifyRequest): { fields: Record<string, unknown>; transport: ClankerTransport } {
  if (request.bodyKind === 'json' || request.bodyKind === 'bad-json') return { fields: jsonObjectBody(request), transport: 'json' };
  return { fields: formBody(request), transport: 'beacon' };
}

/** Records arrive as text (the seed's "batch of records as text"); a JSON body is accepted too. */
function batchText(request: FastifyRequest): string | undefined {
  if (request.bodyKind === 'text') return request.body as string;
  const value = jsonBody(request);
  return value === undefined ? undefined : JSON.stringify(value);
}

/**
 * JSON text inside a field or a text body is parsed here, after the body screen ran, so
 * its escapes (`\u0000`, lone surrogates) are checked again before they reach the database.
 */
function storableOrRefuse<T>(value: T): T {
  if (hasUnstorableText(value)) throw GENERIC.badRequest('Request contains characters or nesting that cannot be stored.');
  return value;
}

function contentErrors(content: Record<string, unknown>): Record<string, string> | null {
  const validation = validateEventContent(content);
  if (validation.valid) return null;
  return Object.fromEntries(validation.errors.map(({ field, message }) => [field, message]));
}

async function recordClankerEvent(deps: ApiDeps, request: FastifyRequest, reply: FastifyReply): Promise<undefined> {
  await takeRateLimit(deps.limiters.trackingEvents, request);
  const { fields, transport } = clankerFields(request);
  const parsed = parseClankerEvent(fields);
  if (!parsed.ok) throw wireError(parsed.code);
  storableOrRefuse(parsed.value.content);
  const errors = contentErrors(parsed.value.content);
  if (errors) throw wireError('INVALID_EVENT_CONTENT', errors);
  await deps.store.read.insertClankerEvent({
    id: deps.newId('ce'),
    schemaName: parsed.value.schemaName,
    // Its page_path, referrer and destination addresses may open an order, a cart or a download (log-redaction.ts).
    content: redactSecretsDeep(parsed.value.content),
    transport,
    userAgent: userAgent(request),
    receivedAt: deps.now(),
  });
  reply.code(CLANKER.eventsSuccessStatus).send();
  return undefined;
}

// The shapes below are published in the OpenAPI document, but these bodies are checked by
// hydrate/shared/platform-wire.ts, after the rate limit: the browser clients run the same
// checks, so the wire module stays their one definition and its error codes stay as listed.
const WIRE_CHECKED = 'Checked by hydrate/shared/platform-wire.ts (shared with the browser client).';
const CLANKER_BODY = checkedInHandler(
  Type.Object({
    [CLANKER.fields.eventSchemaName]: Type.String(),
    [CLANKER.fields.eventContent]: Type.String({ description: 'A JSON object, as text.', maxLength: CLANKER.maxEventContentChars }),
  }),
  WIRE_CHECKED,
);
const CLANKER_TYPES = ['application/json', 'application/x-www-form-urlencoded', 'text/plain'];
const asSent = (request: FastifyRequest) => request.body;

const CLANKER_EVENT_SCHEMA = { summary: 'A newer-tracker event (JSON, or form fields by beacon).', consumes: CLANKER_TYPES, body: CLANKER_BODY } satisfies RouteSchema;
const CLANKER_VALIDATE_SCHEMA = {
  summary: 'Validate mode: would this event content be accepted? Stores nothing.',
  consumes: CLANKER_TYPES,
  params: Type.Object({ schemaName: Type.String() }),
  body: CLANKER_BODY,
} satisfies RouteSchema;
const PERFORMANCE_RECORDS_SCHEMA = {
  summary: 'A batch of performance records for a page load.',
  consumes: ['text/plain', 'application/json'],
  body: checkedInHandler(
    Type.Object({ pageLoadId: Type.String(), pagePath: Type.String(), records: Type.Array(Type.Object({})) }),
    `A JSON object, as text or JSON. ${WIRE_CHECKED}`,
  ),
} satisfies RouteSchema;

export function registerPlatformRoutes(kit: RouteKit): void {
  const { deps } = kit;
  const api = (path: string) => path.replace(/^\/api/, '');

  addRoute(kit, {
    method: 'POST',
    url: api(CLANKER.eventsPath),
    schema: CLANKER_EVENT_SCHEMA,
    readBody: asSent,
    handler: (request, reply) => recordClankerEvent(deps, request, reply),
  });

  // Validate mode stores nothing: it answers whether the content would be accepted.
  addRoute(kit, {
    method: 'POST',
    url: `${api(CLANKER.validatePathPrefix)}:schemaName`,
    schema: CLANKER_VALIDATE_SCHEMA,
    readBody: asSent,
    handler: async (request) => {
      await takeRateLimit(deps.limiters.trackingEvents, request);
      const { schemaName } = request.params;
      if (!isValidSchemaName(schemaName)) throw wireError('INVALID_SCHEMA_NAME');
      const { fields } = clankerFields(request);
      const named = fields[CLANKER.fields.eventSchemaName];
      if (named !== undefined && named !== schemaName) throw wireError('INVALID_SCHEMA_NAME');
      const parsed = parseClankerEvent({ ...fields, [CLANKER.fields.eventSchemaName]: schemaName });
      if (!parsed.ok) throw wireError(parsed.code);
      return validateEventContent(parsed.value.content);
    },
  });

  // Seed §7: the session-recording id. No recording service exists here, so every site gets
  // the mock id, and the client's gate (hydrate/platform/session-recording.ts) loads nothing.
  addRoute(kit, {
    method: 'GET',
    url: api(SESSION_RECORDING_WIRE.idPath),
    schema: { summary: 'The session-recording id; the mock id means no recording.' },
    handler: async () => ({ id: SESSION_RECORDING_WIRE.mockId }),
  });

  addRoute(kit, {
    method: 'GET',
    url: api(PERFORMANCE_WIRE.settingsPath),
    schema: { summary: 'Issues a pageLoadId for performance records.' },
    handler: async (request) => {
      await takeRateLimit(deps.limiters.performance, request);
      const pageLoadId = deps.newId('pl');
      await deps.store.read.insertPageLoad(pageLoadId, deps.now());
      return { pageLoadId };
    },
  });

  addRoute(kit, {
    method: 'POST',
    url: api(PERFORMANCE_WIRE.recordsPath),
    bodyLimit: PERFORMANCE_WIRE.maxBatchBytes,
    schema: PERFORMANCE_RECORDS_SCHEMA,
    readBody: asSent,
    handler: async (request, reply) => {
      await takeRateLimit(deps.limiters.performance, request);
      const parsed = parsePerformanceBatch(batchText(request));
      if (!parsed.ok) throw wireError(parsed.code);
      const batch = storableOrRefuse(parsed.value);
      const receivedAt = deps.now();
      await deps.store.transaction(async (repo) => {
        const pageLoad = await repo.getPageLoad(batch.pageLoadId, { lock: true });
        if (!pageLoad) throw PERFORMANCE_STATE_ERRORS.notFound();
        if (receivedAt - pageLoad.issuedAt > PAGE_LOAD_LIFETIME_MS) throw PERFORMANCE_STATE_ERRORS.expired();
        if (pageLoad.recordCount + batch.records.length > MAX_RECORDS_PER_PAGE_LOAD) throw PERFORMANCE_STATE_ERRORS.full();
        await repo.insertPerformanceRecords(
          pageLoad,
          batch.records.map((record) => ({
            id: deps.newId('pr'),
            pageLoadId: pageLoad.id,
            pagePath: redactSecrets(batch.pagePath),
            metric: record.metric,
            value: record.value,
            rating: record.rating,
            at: record.at,
            receivedAt,
          })),
        );
      });
      reply.code(PERFORMANCE_WIRE.recordsSuccessStatus).send();
      return undefined;
    },
  });
}
