import { Kind, Type, TypeRegistry, type Static, type TSchema, type TUnsafe } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchemaCompiler, HTTPMethods } from 'fastify';
import type { Session } from '../store/types.ts';
import { checkAdmin, checkCrumbHeader, checkUser, type ApiDeps } from './context.ts';
import { ApiError, GENERIC } from './errors.ts';
import { DEFAULT_BODY_LIMIT, jsonObjectBody, type RouteTable } from './http.ts';
import type { Limiter } from './rate-limits.ts';

/** Where a schema failure was found (the request part Fastify validated). */
export type SchemaPart = 'body' | 'querystring' | 'params';

/** One schema failure as a route's `invalid` mapping sees it. Never echoed to the client. */
export interface SchemaFailure {
  part: SchemaPart;
  /** JSON pointer into the part (`/quantity`, `/3/event`, `` for the whole part). */
  path: string;
  /** The first path segment (`quantity`, `3`), or `` for the whole part. */
  field: string;
  value: unknown;
}

/**
 * A route's input, as TypeBox schemas (JSON Schema): checked before the handler runs and
 * published in the OpenAPI document (`GET /api/openapi.json`).
 */
export interface RouteSchema {
  body?: TSchema;
  querystring?: TSchema;
  params?: TSchema;
  /** Content types the body may come in, for the OpenAPI document; JSON when unset. */
  consumes?: string[];
  summary?: string;
}

type StaticOf<T> = T extends TSchema ? Static<T> : unknown;

/** The request type a handler gets: body, query and params typed from the route's schema. */
export type SchemaRequest<S extends RouteSchema> = FastifyRequest<{
  Body: StaticOf<S['body']>;
  Querystring: StaticOf<S['querystring']>;
  Params: StaticOf<S['params']>;
}>;

export interface RouteSpec<S extends RouteSchema = RouteSchema> {
  method: HTTPMethods;
  /** Relative to the prefix the routes are registered under. */
  url: string;
  admin?: boolean;
  crumb?: boolean;
  /** The [user] guard (B0.3): runs after admin and crumb, before any body complaint. */
  user?: boolean;
  /** Checks the query string (its schema) before the guards, as B18 orders it. */
  queryBeforeGuards?: boolean;
  bodyLimit?: number;
  schema?: S;
  /**
   * Turns the parsed body into the value `schema.body` checks, raising the B0.2 body errors
   * (BAD_JSON, 415, "must be a JSON object"). Default: `jsonObjectBody`.
   */
  readBody?: (request: FastifyRequest, reply: FastifyReply) => unknown;
  /**
   * The endpoint's own code for a schema failure (the spec names one per field); `undefined`
   * falls back to BAD_QUERY for the query and BAD_REQUEST otherwise.
   */
  invalid?: (failure: SchemaFailure) => ApiError | undefined;
  /** Returns the 200 JSON body, or `undefined` after sending the reply itself. */
  handler: (request: SchemaRequest<S>, reply: FastifyReply) => Promise<unknown>;
}

export interface RouteKit {
  app: FastifyInstance;
  deps: ApiDeps;
  table: RouteTable;
  prefix: string;
}

// Deferred fields: the spec orders some field checks after a lookup (B2 checks `quantity`
// after "no such product", B16 the metadata after spending the form key), and the first
// failure in that order must win. Such a field is published with its full shape but its
// schema node accepts anything; the handler checks it where the spec puts the check.
const DEFERRED_KIND = 'QuireCheckedInHandler';
if (!TypeRegistry.Has(DEFERRED_KIND)) TypeRegistry.Set(DEFERRED_KIND, () => true);

/** Publishes `schema` (OpenAPI) without checking it before the handler; `why` says where it is checked. */
export function checkedInHandler(schema: TSchema, why: string): TUnsafe<unknown> {
  const description = schema.description ? `${schema.description} ${why}` : why;
  return Type.Unsafe<unknown>({ ...schema, [Kind]: DEFERRED_KIND, description });
}

/** `"true"` or `"false"`, the only spellings of a boolean query flag (B1, B18). */
export const QueryFlag = Type.Union([Type.Literal('true'), Type.Literal('false')]);

/** Maps a failure to the code named for its top-level field (`fields`), else `undefined`. */
export function fieldCodes(fields: Record<string, (failure: SchemaFailure) => ApiError>): (failure: SchemaFailure) => ApiError | undefined {
  return (failure) => (Object.hasOwn(fields, failure.field) ? fields[failure.field]!(failure) : undefined);
}

function defaultInvalid(failure: SchemaFailure): ApiError {
  if (failure.part === 'querystring') return GENERIC.badQuery();
  if (failure.part === 'params') return GENERIC.badRequest('Invalid path parameter.');
  if (failure.field === '') return GENERIC.notObject();
  // Only names the schema itself declares are repeated back, never visitor input.
  const named = /^[A-Za-z_][\w]{0,40}$/.test(failure.field) ? failure.field : 'request body';
  return new ApiError(400, 'BAD_REQUEST', `Invalid ${named}.`);
}

/**
 * Schemas are checked by TypeBox's compiler rather than Fastify's default Ajv: it never
 * coerces types ("1" stays a string, a repeated query parameter stays an array and fails
 * a string schema), never strips unknown properties and never fills defaults, so the
 * handler sees exactly what was sent. A failure becomes an ApiError (B0.2 body) with the
 * route's own code.
 */
export function schemaCompiler(invalid?: RouteSpec['invalid']): FastifySchemaCompiler<Record<string, unknown>> {
  return ({ schema, httpPart }) => {
    // Every route schema is built with TypeBox (`Type.*`), which this compiler requires.
    const checker = TypeCompiler.Compile(schema as unknown as TSchema);
    const part = (httpPart === 'querystring' || httpPart === 'params' ? httpPart : 'body') as SchemaPart;
    const order = Object.keys((schema as { properties?: object }).properties ?? {});
    // The spec checks fields top to bottom and the first failure wins, so the failure
    // reported is the one of the earliest field: the whole part first, then properties in
    // schema order (TypeBox lists missing properties before wrong ones), then array items.
    const rank = (field: string) =>
      field === '' ? -1 : order.includes(field) ? order.indexOf(field) : /^\d+$/.test(field) ? order.length + Number(field) : Infinity;
    return (data: unknown) => {
      if (checker.Check(data)) return { value: data };
      let first: SchemaFailure | null = null;
      for (const error of checker.Errors(data)) {
        // A field checked in the handler is never reported here (not even as missing).
        if ((error.schema as unknown as Record<symbol, unknown>)[Kind] === DEFERRED_KIND) continue;
        const field = error.path.split('/')[1] ?? '';
        if (first === null || rank(field) < rank(first.field)) first = { part, path: error.path, field, value: error.value };
        if (field === '') break;
      }
      const failure = first ?? { part, path: '', field: '', value: data };
      return { error: invalid?.(failure) ?? defaultInvalid(failure) };
    };
  };
}

/** The query check of a `queryBeforeGuards` route, run in `onRequest`. */
function queryCheck(spec: RouteSpec<RouteSchema>): ((request: FastifyRequest) => void) | null {
  if (!spec.queryBeforeGuards || !spec.schema?.querystring) return null;
  const validate = schemaCompiler(spec.invalid)({ schema: spec.schema.querystring as unknown as Record<string, unknown>, method: spec.method, url: spec.url, httpPart: 'querystring' });
  return (request) => {
    const result = validate(request.query) as { error?: unknown };
    if (result.error) throw result.error;
  };
}

const userSessions = new WeakMap<FastifyRequest, Session>();

/** The session the [user] guard of a `user: true` route accepted. */
export function guardedSession(request: FastifyRequest): Session {
  const session = userSessions.get(request);
  if (!session) throw GENERIC.internal();
  return session;
}

/** The parts of a route's schema that Fastify and @fastify/swagger read. */
function fastifySchema(schema: RouteSchema): Record<string, unknown> {
  const { body, querystring, params, consumes, summary } = schema;
  return Object.fromEntries(Object.entries({ body, querystring, params, consumes, summary }).filter(([, value]) => value !== undefined));
}

/**
 * Registers a route with its guards in `onRequest`, so an unauthorised request is refused
 * before its body is read, in the B0.3 order (admin, then crumb; the user guard needs the
 * database and runs in `preValidation`). Then the body is read (`readBody`) and the
 * schema checked, before the handler runs.
 */
export function addRoute<S extends RouteSchema>(kit: RouteKit, spec: RouteSpec<S>): void {
  kit.table.add(spec.method, kit.prefix + spec.url);
  const plain = spec as unknown as RouteSpec<RouteSchema>;
  const checkQueryFirst = queryCheck(plain);
  const readBody = spec.readBody ?? (spec.schema?.body ? jsonObjectBody : null);
  kit.app.route({
    method: spec.method,
    url: spec.url,
    bodyLimit: spec.bodyLimit ?? DEFAULT_BODY_LIMIT,
    ...(spec.schema ? { schema: fastifySchema(spec.schema), validatorCompiler: schemaCompiler(plain.invalid) } : {}),
    // Hooks only on the routes that have something to do in them (no empty hook per request).
    ...(checkQueryFirst || spec.admin || spec.crumb
      ? {
          onRequest: async (request: FastifyRequest, reply: FastifyReply) => {
            checkQueryFirst?.(request);
            if (spec.admin) await checkAdmin(kit.deps, request);
            if (spec.crumb) checkCrumbHeader(request, reply);
          },
        }
      : {}),
    ...(spec.user || readBody
      ? {
          preValidation: async (request: FastifyRequest, reply: FastifyReply) => {
            if (spec.user) userSessions.set(request, await checkUser(kit.deps, request));
            if (readBody) request.body = await readBody(request, reply);
          },
        }
      : {}),
    handler: async (request, reply) => {
      const result = await spec.handler(request as SchemaRequest<S>, reply);
      if (result === undefined) return reply;
      reply.header('cache-control', reply.getHeader('cache-control') ?? 'no-store');
      return reply.code(200).type('application/json; charset=utf-8').send(result);
    },
  });
}

/** For fields checked in the handler (`checkedInHandler`); the schemas check all others. */
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
