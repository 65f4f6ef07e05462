import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CensusKind } from '../../store/types.ts';
import { checkCrumbValue, type ApiDeps } from '../context.ts';
import { ApiError } from '../errors.ts';
import { KIB, formBody, hasUnstorableText, jsonBody, jsonObjectBody } from '../http.ts';
import { addRoute, isNonEmptyString, takeRateLimit, type RouteKit } from '../route-kit.ts';

// B8 (JavaScript error reports) and B20–B25 (visitor analytics). Analytics calls carry no
// crumb because browsers may send them with sendBeacon, which cannot set headers.

const MAX_REPORTS = 20;
const MAX_EVENT_LENGTH = 100;
const MAX_REPORT_EVENT_LENGTH = 200;
const MAX_STACK_LENGTH = 5000;
const MAX_HEADER_KEPT = 1000;
const OVERLAY_ACTIONS = new Set(['render', 'click', 'close', 'submit']);
const SS_CVR = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\|[1-9]\d{0,15}\|[1-9]\d{0,15}\|[1-9]\d{0,15}\|[1-9]\d{0,15}$/i;

const invalidCensus = () => new ApiError(400, 'INVALID_CENSUS', 'Invalid census payload.');

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

function parseEventFields(fields: Record<string, string>): { event: string; data: Record<string, unknown> } {
  const event = fields.event;
  if (!isNonEmptyString(event) || event.length > MAX_EVENT_LENGTH) {
    throw new ApiError(400, 'INVALID_EVENT', 'event is required.');
  }
  let data: unknown = null;
  try {
    data = typeof fields.data === 'string' ? JSON.parse(fields.data) : null;
  } catch {
    data = null;
  }
  // The JSON escapes inside `data` (\u0000, lone surrogates) decode only here, after the body
  // screen; jsonb cannot hold them, so they are refused rather than failing as a 500.
  if (!isPlainObject(data) || hasUnstorableText(data)) throw new ApiError(400, 'INVALID_DATA', 'data must be a JSON object.');
  return { event, data };
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
    data,
    ssCvr,
    userAgent: header(request, 'user-agent'),
    receivedAt: deps.now(),
  });
  reply.code(204).send();
  return undefined;
}

function optionalString(value: unknown): boolean {
  return value === undefined || typeof value === 'string';
}

export function registerCensusRoutes(kit: RouteKit): void {
  const { deps } = kit;

  addRoute(kit, {
    method: 'POST',
    url: '/events/RecordJavascriptErrors',
    crumb: true,
    bodyLimit: 256 * KIB,
    handler: async (request, reply) => {
      await takeRateLimit(deps.limiters.errorReports, request);
      const reports = jsonBody(request);
      if (!Array.isArray(reports) || reports.length < 1 || reports.length > MAX_REPORTS) {
        throw new ApiError(400, 'INVALID_REPORTS', `Expected an array of 1 to ${MAX_REPORTS} error reports.`);
      }
      reports.forEach((report: unknown, index) => {
        const valid =
          isPlainObject(report) &&
          isNonEmptyString(report.event) &&
          report.event.length <= MAX_REPORT_EVENT_LENGTH &&
          isPlainObject(report.data) &&
          typeof report.timestamp === 'number' &&
          Number.isFinite(report.timestamp);
        if (!valid) throw new ApiError(400, 'INVALID_REPORT', `Report ${index} is invalid.`);
      });
      const receivedAt = deps.now();
      await deps.store.transaction(async (repo) => {
        for (const report of reports as { event: string; data: Record<string, unknown>; timestamp: number }[]) {
          const data = { ...report.data };
          if (typeof data.stack === 'string') data.stack = data.stack.slice(0, MAX_STACK_LENGTH);
          await repo.insertJsErrorReport({
            id: deps.newId('jse'),
            event: report.event,
            data,
            timestamp: report.timestamp,
            userAgent: header(request, 'user-agent'),
            referer: header(request, 'referer'),
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
    handler: async (request, reply) => {
      await takeRateLimit(deps.limiters.census, request);
      const fields = formBody(request);
      const { event, data } = parseEventFields(fields);
      return record(deps, request, reply, 'hit', event, data, validSsCvr(fields.ss_cvr));
    },
  });

  for (const kind of ['button-click', 'button-render'] as const) {
    addRoute(kit, {
      method: 'POST',
      url: `/census/${kind}`,
      handler: async (request, reply) => {
        await takeRateLimit(deps.limiters.census, request);
        const body = jsonObjectBody(request);
        const { visitorCookie, websiteId, pageId, pagePath, buttonId } = body;
        if (
          typeof buttonId !== 'string' ||
          typeof pageId !== 'string' ||
          typeof pagePath !== 'string' ||
          !optionalString(visitorCookie) ||
          !optionalString(websiteId)
        ) {
          throw invalidCensus();
        }
        const data = { websiteId: websiteId ?? null, pageId, pagePath, buttonId };
        return record(deps, request, reply, kind, null, data, validSsCvr(visitorCookie));
      },
    });
  }

  addRoute(kit, {
    method: 'POST',
    url: '/census/form-render',
    handler: async (request, reply) => {
      await takeRateLimit(deps.limiters.census, request);
      const body = jsonObjectBody(request);
      if (!isNonEmptyString(body.formId) || !optionalString(body.visitorCookie)) throw invalidCensus();
      return record(deps, request, reply, 'form-render', null, { formId: body.formId }, validSsCvr(body.visitorCookie));
    },
  });

  addRoute(kit, {
    method: 'POST',
    url: '/census/overlay',
    handler: async (request, reply) => {
      await takeRateLimit(deps.limiters.census, request);
      const body = jsonObjectBody(request);
      const { overlayId, action, visitorCookie } = body;
      if (
        !isNonEmptyString(overlayId) ||
        typeof action !== 'string' ||
        !OVERLAY_ACTIONS.has(action) ||
        !optionalString(visitorCookie)
      ) {
        throw invalidCensus();
      }
      return record(deps, request, reply, 'overlay', null, { overlayId, action }, validSsCvr(visitorCookie));
    },
  });

  addRoute(kit, {
    method: 'POST',
    url: '/census/RecordQuickView/:id',
    handler: async (request, reply) => {
      await takeRateLimit(deps.limiters.census, request);
      const { id } = request.params as { id: string };
      const product = id.length <= 200 ? await deps.store.read.getProduct(id) : null;
      if (!product) throw new ApiError(404, 'ITEM_NOT_FOUND', 'Item not found.');
      return record(deps, request, reply, 'quick-view', null, { itemId: product.id }, null);
    },
  });

  addRoute(kit, {
    method: 'POST',
    url: '/events/RecordEvent',
    handler: async (request, reply) => {
      const fields = formBody(request);
      checkCrumbValue(request, reply, fields.crumb);
      await takeRateLimit(deps.limiters.trackingEvents, request);
      const { event, data } = parseEventFields(fields);
      return record(deps, request, reply, 'event', event, data, null);
    },
  });
}
