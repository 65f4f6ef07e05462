import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { UNSTORABLE_TEXT } from '../store/repository.ts';
import { ApiError, GENERIC } from './errors.ts';

// Request plumbing shared by every storefront route: body parsing that never throws,
// B0.2 error bodies for everything (including the framework's own errors), and 404/405
// for unknown paths and methods under /api/.

/** How the request body arrived; routes decide which kinds they accept. */
export type BodyKind = 'empty' | 'json' | 'bad-json' | 'form' | 'text' | 'other';

declare module 'fastify' {
  interface FastifyRequest {
    bodyKind: BodyKind | null;
  }
}

export const KIB = 1024;
export const DEFAULT_BODY_LIMIT = 64 * KIB;

// Parameters (`; charset=utf-8`) are part of the string Fastify tests the pattern against.
const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;.*)?$/i;

/**
 * Replaces the default parsers of this encapsulation context. Parsers only classify and
 * decode; rejecting a kind is the route's job, so a route that ignores its body (B15,
 * B18, B24) accepts any of them, and guards still run before any body complaint.
 */
export function installBodyParsers(app: FastifyInstance): void {
  app.decorateRequest('bodyKind', null);
  app.removeAllContentTypeParsers();
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser(JSON_TYPE, { parseAs: 'string' }, (request, body, done) => {
    const text = String(body);
    if (text.trim() === '') {
      request.bodyKind = 'empty';
      done(null, undefined);
      return;
    }
    // The default parser refuses __proto__ / constructor.prototype keys (prototype poisoning).
    parseJson(request, text, (error: Error | null, value?: unknown) => {
      request.bodyKind = error ? 'bad-json' : 'json';
      done(null, error ? undefined : value);
    });
  });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (request, body, done) => {
    const text = String(body);
    request.bodyKind = text === '' ? 'empty' : 'form';
    done(null, text === '' ? undefined : parseFormEncoded(text));
  });
  app.addContentTypeParser('text/plain', { parseAs: 'string' }, (request, body, done) => {
    const text = String(body);
    request.bodyKind = text === '' ? 'empty' : 'text';
    done(null, text === '' ? undefined : text);
  });
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (request, body, done) => {
    const size = Buffer.isBuffer(body) ? body.length : String(body).length;
    request.bodyKind = size === 0 ? 'empty' : 'other';
    done(null, undefined);
  });
}

/** Form decoding keeps the first value of a repeated name and never builds nested objects. */
export function parseFormEncoded(text: string): Record<string, string> {
  const fields: Record<string, string> = Object.create(null);
  for (const [name, value] of new URLSearchParams(text)) {
    if (!(name in fields)) fields[name] = value;
  }
  return fields;
}

// Text the database cannot store (UNSTORABLE_TEXT) is refused up front as a 400 rather than
// failing in the database as a 500.
export const MAX_BODY_DEPTH = 64;

export function hasUnstorableText(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return UNSTORABLE_TEXT.test(value);
  if (typeof value !== 'object' || value === null) return false;
  if (depth >= MAX_BODY_DEPTH) return true;
  for (const [key, entry] of Object.entries(value)) {
    if (UNSTORABLE_TEXT.test(key) || hasUnstorableText(entry, depth + 1)) return true;
  }
  return false;
}

function storable<T>(value: T): T {
  if (hasUnstorableText(value)) throw GENERIC.badRequest('Request contains characters or nesting that cannot be stored.');
  return value;
}

/** Refuses query strings, route parameters and cookies that the database could not store. */
export function installInputScreen(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    storable(request.query);
    storable(request.params);
    storable(request.cookies);
  });
}

/** The JSON object body of a route that requires one (B0.2 body errors otherwise). */
export function jsonObjectBody(request: FastifyRequest): Record<string, unknown> {
  const value = jsonBody(request);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw GENERIC.notObject();
  return value as Record<string, unknown>;
}

/** Any JSON body (arrays included); `undefined` when the body was empty. */
export function jsonBody(request: FastifyRequest): unknown {
  switch (request.bodyKind) {
    case null:
    case 'empty':
      return undefined;
    case 'json':
      return storable(request.body);
    case 'bad-json':
      throw GENERIC.badJson();
    default:
      throw GENERIC.unsupportedMediaType();
  }
}

/** Form fields of a beacon-style body: form-encoded, or text/plain holding the same encoding. */
export function formBody(request: FastifyRequest): Record<string, string> {
  switch (request.bodyKind) {
    case null:
    case 'empty':
      return Object.create(null) as Record<string, string>;
    case 'form':
      return storable(request.body as Record<string, string>);
    case 'text':
      return storable(parseFormEncoded(request.body as string));
    default:
      throw GENERIC.unsupportedMediaType();
  }
}

// How node-postgres reports a database it cannot reach: the socket's errno, or the server's
// SQLSTATE class 08 (connection exception) and 57P01-57P03 (shutting down, cannot connect now).
const UNREACHABLE_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EPIPE', 'EAI_AGAIN']);
const UNREACHABLE_MESSAGE = /^(Connection terminated|timeout exceeded when trying to connect)/;

/** The database could not be reached (as opposed to a query that failed on a working one). */
export function isStoreUnreachable(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (UNREACHABLE_ERRNO.has(code) || /^08/.test(code) || /^57P0[123]$/.test(code))) return true;
  return typeof message === 'string' && UNREACHABLE_MESSAGE.test(message);
}

/** Maps anything thrown in the request lifecycle to a B0.2 body. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  // Before, the owner (a status change, a stock save) and shoppers read "Something went wrong."
  // while the database was down: nothing said it was passing, or to try again.
  if (isStoreUnreachable(error)) return GENERIC.storeUnavailable();
  const fastifyError = error as Partial<FastifyError> | null;
  const code = typeof fastifyError?.code === 'string' ? fastifyError.code : '';
  const status = typeof fastifyError?.statusCode === 'number' ? fastifyError.statusCode : 500;
  switch (code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return GENERIC.bodyTooLarge();
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_TYPE':
      return GENERIC.unsupportedMediaType();
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return GENERIC.badJson();
    default:
      break;
  }
  // Schema failures normally arrive as the route's own ApiError (route-kit's compiler);
  // anything Fastify validated itself still gets the B0.2 body, never Fastify's default one.
  if (code === 'FST_ERR_VALIDATION' || (fastifyError as { validation?: unknown } | null)?.validation) {
    return (fastifyError as { validationContext?: string }).validationContext === 'querystring'
      ? GENERIC.badQuery()
      : GENERIC.badRequest('Request does not match its schema.');
  }
  if (status === 413) return GENERIC.bodyTooLarge();
  if (status === 415) return GENERIC.unsupportedMediaType();
  if (status >= 400 && status < 500) return GENERIC.badRequest('Bad request.');
  return GENERIC.internal();
}

export function sendError(reply: FastifyReply, error: ApiError): FastifyReply {
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  return reply.code(error.status).type('application/json; charset=utf-8').send(error.body());
}

/**
 * Outside /api/ (pages, assets, the admin shell): what fails is logged as `{ err }`, and the
 * visitor gets a plain line, never the error's own text, which may name internals (issue 13).
 */
export function installPlainErrorHandler(app: FastifyInstance, logMessage: string): void {
  app.setErrorHandler((error, request, reply) => {
    const code = (error as { statusCode?: unknown }).statusCode;
    const status = typeof code === 'number' && code >= 400 && code < 500 ? code : 500;
    if (status === 500) request.log.error({ err: error }, logMessage);
    const text = status === 500 ? 'Something went wrong.' : status === 413 ? 'Request body is too large.' : 'Bad request.';
    return reply.code(status).type('text/plain; charset=utf-8').header('cache-control', 'no-store').send(text);
  });
}

export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    const apiError = toApiError(error);
    if (apiError.status >= 500) request.log.error({ err: error }, 'storefront API failure');
    return sendError(reply, apiError);
  });
}

interface KnownRoute {
  method: HTTPMethods;
  path: string;
  pattern: RegExp;
}

/**
 * Remembers every registered path so an unmatched request can be told apart as
 * "unknown path" (404) or "known path, wrong method" (405 with Allow).
 */
export class RouteTable {
  private readonly routes: KnownRoute[] = [];

  add(method: HTTPMethods, fullPath: string): void {
    const source = fullPath
      .split('/')
      .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    this.routes.push({ method, path: fullPath, pattern: new RegExp(`^${source}/?$`) });
  }

  list(): { method: HTTPMethods; path: string }[] {
    return this.routes.map(({ method, path }) => ({ method, path }));
  }

  allowedMethods(path: string): string[] {
    const methods = new Set<string>();
    for (const route of this.routes) {
      if (route.pattern.test(path)) methods.add(route.method);
    }
    if (methods.has('GET')) methods.add('HEAD');
    return [...methods].sort();
  }
}

export function installNotFoundHandler(app: FastifyInstance, table: RouteTable): void {
  app.setNotFoundHandler((request, reply) => {
    let path = request.url.split('?')[0] ?? '';
    try {
      path = decodeURI(path);
    } catch {
      // Keep the raw path; it simply matches nothing.
    }
    const allowed = table.allowedMethods(path);
    return sendError(reply, allowed.length > 0 ? GENERIC.methodNotAllowed(allowed.join(', ')) : GENERIC.notFound());
  });
}
