import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { checkAdmin, checkCrumbHeader, type ApiDeps } from './context.ts';
import { GENERIC } from './errors.ts';
import { DEFAULT_BODY_LIMIT, type RouteTable } from './http.ts';
import type { Limiter } from './rate-limits.ts';

export interface RouteSpec {
  method: HTTPMethods;
  /** Relative to the prefix the routes are registered under. */
  url: string;
  admin?: boolean;
  crumb?: boolean;
  /** Checks that must answer before the guards (B18 checks its query first). */
  beforeGuards?: (request: FastifyRequest) => void;
  bodyLimit?: number;
  /** Returns the 200 JSON body, or `undefined` after sending the reply itself. */
  handler: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
}

export interface RouteKit {
  app: FastifyInstance;
  deps: ApiDeps;
  table: RouteTable;
  prefix: string;
}

/**
 * Registers a route with its guards in `onRequest`, so an unauthorised request is refused
 * before its body is read, in the B0.3 order (admin, then crumb; the user guard needs
 * the database and runs first thing in the handler).
 */
export function addRoute(kit: RouteKit, spec: RouteSpec): void {
  kit.table.add(spec.method, kit.prefix + spec.url);
  kit.app.route({
    method: spec.method,
    url: spec.url,
    bodyLimit: spec.bodyLimit ?? DEFAULT_BODY_LIMIT,
    onRequest: async (request, reply) => {
      spec.beforeGuards?.(request);
      if (spec.admin) checkAdmin(kit.deps, request);
      if (spec.crumb) checkCrumbHeader(request, reply);
    },
    handler: async (request, reply) => {
      const result = await spec.handler(request, reply);
      if (result === undefined) return reply;
      reply.header('cache-control', reply.getHeader('cache-control') ?? 'no-store');
      return reply.code(200).type('application/json; charset=utf-8').send(result);
    },
  });
}

/** A string query parameter; repeated parameters count as invalid (`false`). */
export function queryParam(request: FastifyRequest, name: string): string | undefined | false {
  const query = request.query as Record<string, unknown> | undefined;
  if (!query || !Object.hasOwn(query, name)) return undefined;
  const value = query[name];
  return typeof value === 'string' ? value : false;
}

export function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

/**
 * Counts one event for `subject` (default: the client address), or refuses with the B0.2
 * 429 `RATE_LIMITED` and Retry-After.
 */
export async function takeRateLimit(limiter: Limiter, request: FastifyRequest, subject?: string): Promise<void> {
  const verdict = await limiter.take(request, subject);
  if (!verdict.allowed) throw GENERIC.rateLimited(verdict.retryAfterSeconds);
}
