import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { REDACTED, redactSecrets, redactSecretsDeep } from '../../log-redaction.ts';
import type { CensusKind } from '../../store/types.ts';
import { checkCrumbValue, type ApiDeps } from '../context.ts';
import { ApiError } from '../errors.ts';
import { KIB, formBody, hasUnstorableText, jsonBody } from '../http.ts';
import { addRoute, fieldCodes, takeRateLimit, type RouteKit, type SchemaFailure } from '../route-kit.ts';

// B8 (JavaScript error reports) and B20–B25 (visitor analytics). Analytics calls carry no
// crumb because browsers may send them with sendBeacon, which cannot set headers.

const MAX_REPORTS = 20;
const MAX_EVENT_LENGTH = 100;
const MAX_REPORT_EVENT_LENGTH = 200;
const MAX_STACK_LENGTH = 5000;
const MAX_HEADER_KEPT = 1000;
const SS_CVR = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\|[1-9]\d{0,15}\|[1-9]\d{0,15}\|[1-9]\d{0,15}\|[1-9]\d{0,15}$/i;

const invalidCensus = () => new ApiError(400, 'INVALID_CENSUS', 'Invalid census payload.');

const BEACON_TYPES = ['application/x-www-form-urlencoded', 'text/plain'];

/** B20/B25 form fields; `data` is JSON text, parsed in the handler. */
const EVENT_FIELDS = {
  event: Type.String({ minLength: 1, maxLength: MAX_EVENT_LENGTH }),
  data: Type.String({ description: 'A JSON object, as text.' }),
};
const eventFieldCodes = fieldCodes({
  event: () => new ApiError(400, 'INVALID_EVENT', 'event is required.'),
  data: () => new ApiError(400, 'INVALID_DATA', 'data must be a JSON object.'),
});

const REPORTS = Type.Array(
  Type.Object({
    event: Type.String({ minLength: 1, maxLength: MAX_REPORT_EVENT_LENGTH }),
    data: Type.Object({}),
    timestamp: Type.Number(),
  }),
  { minItems: 1, maxItems: MAX_REPORTS },
);

/** B8: the whole batch (not an array, or 1..20 broken) or one report by its index. */
function reportCodes(failure: SchemaFailure): ApiError {
  if (failure.field === '') {
    return new ApiError(400, 'INVALID_REPORTS', `Expected an array of 1 to ${MAX_REPORTS} error reports.`);
  }
  return new ApiError(400, 'INVALID_REPORT', `Report ${failure.field} is invalid.`);
}

/**
 * The seed's visitor analytics fields (hydrate/runtime/analytics-fields.ts), sent beside a
 * census payload and stored in its data; each is optional so older pages still count.
 */
const VISITOR_FIELDS = Type.Optional(
  Type.Object(
    {
      website_id: Type.Optional(Type.String({ maxLength: 200 })),
      page_id: Type.Optional(Type.String({ maxLength: 200 })),
      logged_in: Type.Optional(Type.Boolean()),
    },
    { additionalProperties: false },
  ),
);

const BUTTON_SCHEMA = Type.Object({
  visitorCookie: Type.Optional(Type.String()),
  fields: VISITOR_FIELDS,
  websiteId: Type.Optional(Type.String()),
  pageId: Type.String(),
  pagePath: Type.String(),
  buttonId: Type.String(),
});

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function header(request: FastifyRequest, name: string): string | null {
  const value = request.headers[name];
  return typeof value === 'string' ? value.slice(0, MAX_HEADER_KEPT) : null;
}

/** A malformed visitor cookie is not an error (B20); it is stored as null. */
export function validSsCvr(value: unknown): string | null {
  return typeof value === 'string' && SS_CVR.test(value) ? value : null;
}

function parseEventFields(fields: { event: string; data: string }): { event: string; data: Record<string, unknown> } {
  const { event } = fields;
  let data: unknown = null;
  try {
    data = JSON.parse(fields.data);
  } catch {
    data = null;
  }
  // The JSON escapes inside `data` (\u0000, lone surrogates) decode only here, after the body
  // screen; jsonb cannot hold them, so they are refused rather than failing as a 500.
  if (!isPlainObject(data) || hasUnstorableText(data)) throw new ApiError(400, 'INVALID_DATA', 'data must be a JSON object.');
  return { event, data };
}

/**
 * A beacon's data as the census stores it: page paths, addresses and referrers can hold what
 * opens an order (its page's id), a cart (`cartToken`, the `cartId` of commerce events), a
 * download, an unsubscribe link's email and token, or a reset link's token, and whoever reads
 * the census tables must not be able to. `redactSecretsDeep` (log-redaction.ts, the logs'
 * rules) leaves them out; a purchase's own `id` is its order's key too.
 */
function storableData(event: string | null, data: Record<string, unknown>): Record<string, unknown> {
  const stored = redactSecretsDeep(data);
  if (event === 'commerce_purchase' && stored.id !== undefined && stored.id !== null) stored.id = REDACTED;
  return stored;
}

async function record(
  deps: ApiDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  kind: CensusKind,
  event: string | null,
  data: Record<string, unknown>,
  ssCvr: string | null,
): Promise<undefined> {
  await deps.store.read.insertCensusEvent({
    id: deps.newId('ev'),
    kind,
    event,
    data: storableData(event, data),
    ssCvr,
    userAgent: header(request, 'user-agent'),
    receivedAt: deps.now(),
  });
  reply.code(204).send();
  return undefined;
}

export function registerCensusRoutes(kit: RouteKit): void {
  const { deps } = kit;

  addRoute(kit, {
    method: 'POST',
    url: '/events/RecordJavascriptErrors',
    crumb: true,
    bodyLimit: 256 * KIB,
    schema: { summary: 'B8: JavaScript error reports.', body: REPORTS },
    readBody: jsonBody,
    invalid: reportCodes,
    handler: async (request, reply) => {
      await takeRateLimit(deps.limiters.errorReports, request);
      const reports = request.body;
      const receivedAt = deps.now();
      await deps.store.transaction(async (repo) => {
        for (const report of reports) {
          const data: Record<string, unknown> = { ...report.data };
          if (typeof data.stack === 'string') data.stack = data.stack.slice(0, MAX_STACK_LENGTH);
          // An error report names the page it happened on (`url`, the Referer): the same secrets as a hit's.
          const referer = header(request, 'referer');
          await repo.insertJsErrorReport({
            id: deps.newId('jse'),
            event: report.event,
            data: redactSecretsDeep(data),
            timestamp: report.timestamp,
            userAgent: header(request, 'user-agent'),
            referer: referer === null ? null : redactSecrets(referer),
            receivedAt,
          });
        }
      });
      reply.code(204).send();
      return undefined;
    },
  });

  addRoute(kit, {
    method: 'POST',
    url: '/census/RecordHit',
    bodyLimit: 16 * KIB,
    schema: {
      summary: 'B20: a page hit (form-encoded, or text/plain as sendBeacon sends it).',
      consumes: BEACON_TYPES,
      body: Type.Object({ ...EVENT_FIELDS, ss_cvr: Type.Optional(Type.String()) }),
    },
    readBody: formBody,
    invalid: eventFieldCodes,
    handler: async (request, reply) => {
      await takeRateLimit(deps.limiters.census, request);
      const fields = request.body;
      const { event, data } = parseEventFields(fields);
      return record(deps, request, reply, 'hit', event, data, validSsCvr(fields.ss_cvr));
    },
  });

  for (const kind of ['button-click', 'button-render'] as const) {
    addRoute(kit, {
      method: 'POST',
      url: `/census/${kind}`,
      schema: { summary: `B21: a ${kind} event.`, body: BUTTON_SCHEMA },
      invalid: invalidCensus,
      handler: async (request, reply) => {
        await takeRateLimit(deps.limiters.census, request);
        const { visitorCookie, websiteId, pageId, pagePath, buttonId, fields } = request.body;
        const data = { websiteId: websiteId ?? null, pageId, pagePath, buttonId, ...fields };
        return record(deps, request, reply, kind, null, data, validSsCvr(visitorCookie));
      },
    });
  }

  addRoute(kit, {
    method: 'POST',
    url: '/census/form-render',
    schema: {
      summary: 'B22: a form was shown.',
      body: Type.Object({ formId: Type.String({ minLength: 1 }), visitorCookie: Type.Optional(Type.String()), fields: VISITOR_FIELDS }),
    },
    invalid: invalidCensus,
    handler: async (request, reply) => {
      await takeRateLimit(deps.limiters.census, request);
      const body = request.body;
      return record(deps, request, reply, 'form-render', null, { formId: body.formId, ...body.fields }, validSsCvr(body.visitorCookie));
    },
  });

  addRoute(kit, {
    method: 'POST',
    url: '/census/overlay',
    schema: {
      summary: 'B23: an overlay event.',
      body: Type.Object({
        overlayId: Type.String({ minLength: 1 }),
        action: Type.Union(['render', 'click', 'close', 'submit'].map((action) => Type.Literal(action))),
        visitorCookie: Type.Optional(Type.String()),
        fields: VISITOR_FIELDS,
      }),
    },
    invalid: invalidCensus,
    handler: async (request, reply) => {
      await takeRateLimit(deps.limiters.census, request);
      const { overlayId, action, visitorCookie, fields } = request.body;
      return record(deps, request, reply, 'overlay', null, { overlayId, action, ...fields }, validSsCvr(visitorCookie));
    },
  });

  addRoute(kit, {
    method: 'POST',
    url: '/census/RecordQuickView/:id',
    // No body (B24): whatever is sent is ignored. Ids are at most 200 characters.
    schema: { summary: 'B24: a product quick view.', params: Type.Object({ id: Type.String({ maxLength: 200 }) }) },
    invalid: () => new ApiError(404, 'ITEM_NOT_FOUND', 'Item not found.'),
    handler: async (request, reply) => {
      await takeRateLimit(deps.limiters.census, request);
      const { id } = request.params;
      const product = await deps.store.read.getProduct(id);
      if (!product) throw new ApiError(404, 'ITEM_NOT_FOUND', 'Item not found.');
      return record(deps, request, reply, 'quick-view', null, { itemId: product.id }, null);
    },
  });

  addRoute(kit, {
    method: 'POST',
    url: '/events/RecordEvent',
    schema: {
      summary: 'B25: a legacy tracker event; its crumb travels in the form.',
      consumes: BEACON_TYPES,
      body: Type.Object({ crumb: Type.Optional(Type.String()), ...EVENT_FIELDS }),
    },
    // B25 checks the crumb in the body first, then the rate limit, then event and data.
    readBody: async (request, reply) => {
      const fields = formBody(request);
      checkCrumbValue(request, reply, fields.crumb);
      await takeRateLimit(deps.limiters.trackingEvents, request);
      return fields;
    },
    invalid: eventFieldCodes,
    handler: async (request, reply) => {
      const fields = request.body;
      const { event, data } = parseEventFields(fields);
      return record(deps, request, reply, 'event', event, data, null);
    },
  });
}
