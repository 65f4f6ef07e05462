import fastifySwagger from '@fastify/swagger';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifySchema, FastifySchemaCompiler } from 'fastify';
import { backgroundLoop, type BackgroundLoop } from '../background-loop.ts';
import { JOB_RECOVERY_INTERVAL_MS, type RecoveryResult } from './after-response.ts';
import { createDeps, type Limiters, type StorefrontApiOptions } from './context.ts';
import { API_ERROR_CODE_LIST, type ApiErrorCode } from './error-codes.ts';
import { RouteTable, installBodyParsers, installErrorHandler, installInputScreen, installNotFoundHandler } from './http.ts';
import { addRoute, schemaCompiler, type RouteKit } from './route-kit.ts';
import { registerCartRoutes } from './routes/cart-routes.ts';
import { registerCheckoutRoutes } from './routes/checkout-routes.ts';
import { registerCensusRoutes } from './routes/census-routes.ts';
import { registerFormRoutes } from './routes/form-routes.ts';
import { registerOrderRoutes } from './routes/order-routes.ts';
import { registerReviewRoutes } from './routes/review-routes.ts';
import { registerRestockRoutes } from './routes/restock-routes.ts';
import { registerPasswordResetRoutes } from './routes/password-reset-routes.ts';
import { registerWelcomeJob } from '../mail/newsletter-welcome.ts';
import { registerSessionRoutes } from './routes/session-routes.ts';
import { registerStaticRoutes, type StaticRouteOptions } from './routes/static-routes.ts';
import { registerStockRoutes } from './routes/stock-routes.ts';
import { registerPlatformRoutes } from '../platform/platform-routes.ts';
import { registerStoreCreationRoutes } from '../platform/store-creation-routes.ts';
import { registerAdminRoutes } from '../admin/admin-routes.ts';
import { registerFeatureRoutes } from './routes/feature-routes.ts';
import type { SiteSource } from '../pages/page-renderer.ts';

export type { StorefrontApiOptions } from './context.ts';
export type { StaticRouteOptions } from './routes/static-routes.ts';

export const API_PREFIX = '/api';
/** The B0.2 error body, as published in the OpenAPI document. */
const ERROR_BODY = Type.Object(
  {
    error: Type.String({ description: 'A human-readable message.' }),
    // The catalogue's codes, so a client generator gets them as an enum (docs/api-errors.md).
    code: Type.Unsafe<ApiErrorCode>({ type: 'string', enum: API_ERROR_CODE_LIST, description: 'Stable; docs/api-errors.md lists every code with its status and meaning.' }),
    errors: Type.Optional(Type.Record(Type.String(), Type.String(), { description: 'Field id to message, for field failures.' })),
    crumbFail: Type.Optional(Type.Literal(true)),
  },
  { description: 'B0.2 error body' },
);

/** Where the OpenAPI document of every route and its schema is served. */
export const OPENAPI_PATH = `${API_PREFIX}/openapi.json`;

declare module 'fastify' {
  interface FastifyInstance {
    /** Every storefront API route (method and path pattern), for tests and tooling. */
    storefrontApiRoutes: () => { method: string; path: string }[];
    /** Resolves once the work handlers handed off past their answers has ended (after-response.ts). */
    storefrontApiSettled: () => Promise<void>;
    /**
     * The recovery of after-answer jobs a crash or a failure left (after-response.ts): started
     * when the app is ready, stopped by its close; null when turned off. `run()` recovers now.
     */
    afterAnswerRecovery: BackgroundLoop<RecoveryResult> | null;
  }
}

/**
 * The storefront HTTP API (STOREFRONT B). Everything under /api/ lives in its own
 * encapsulated context, so its body parsers, B0.2 error handler and JSON 404/405 never
 * touch the page routes registered beside it.
 */
export async function storefrontApi(
  app: FastifyInstance,
  options: StorefrontApiOptions & StaticRouteOptions & { limiters: Limiters; site?: SiteSource },
): Promise<void> {
  const deps = createDeps(options, options.limiters);
  const table = new RouteTable();
  app.decorate('storefrontApiRoutes', () => table.list());
  app.decorate('storefrontApiSettled', () => deps.afterResponse.idle());
  // Jobs left by a crash (or a failed run) are finished from the start on: the first recovery
  // runs when the app is ready, then every `recoveryMs`, at once again after a full batch.
  const recoveryMs = options.afterAnswerJobs?.recoveryMs ?? JOB_RECOVERY_INTERVAL_MS;
  app.decorate('afterAnswerRecovery', null);
  if (recoveryMs !== false) {
    const recovery = backgroundLoop(
      () => deps.afterAnswerJobs.recover(app.log),
      (result) => (result && result.claimed === deps.afterAnswerJobs.limits.batch ? 0 : recoveryMs),
      (error) => app.log.warn({ err: error }, 'after-answer job recovery failed'),
    );
    app.addHook('onReady', async () => {
      app.afterAnswerRecovery = recovery;
      recovery.start();
    });
  }
  // app.close() waits for both, and the store closes only after that (main.ts).
  app.addHook('onClose', async () => {
    await app.afterAnswerRecovery?.stop();
    await deps.afterResponse.idle();
  });
  // Registered on the app, before any route, so it sees every route (its onRoute hook
  // reaches the encapsulated children registered after it) with its schema.
  await app.register(fastifySwagger, {
    // Documentation only (the routes' own schemas carry no `response`, so nothing is
    // serialised through it): every /api/ route may answer the B0.2 error body.
    transform: ({ schema, url }) => ({
      url,
      schema: url.startsWith(`${API_PREFIX}/`) ? { ...schema, response: { '4XX': ERROR_BODY, '5XX': ERROR_BODY } } : schema,
    }),
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Quire storefront API',
        description: 'STOREFRONT.md B. Errors use the B0.2 body { error, code, errors? }.',
        version: '1.0.0',
      },
    },
  });
  await app.register(
    async (api) => {
      installBodyParsers(api);
      installErrorHandler(api);
      installInputScreen(api);
      installNotFoundHandler(api, table);
      // Routes carry their own compiler (addRoute); a route registered here any other way
      // still gets the same one: TypeBox's, which neither coerces nor strips (route-kit.ts).
      api.setValidatorCompiler(schemaCompiler() as FastifySchemaCompiler<FastifySchema>);
      const kit: RouteKit = { app: api, deps, table, prefix: API_PREFIX };
      registerCartRoutes(kit);
      registerCheckoutRoutes(kit);
      registerOrderRoutes(kit);
      registerReviewRoutes(kit, options.site);
      registerStockRoutes(kit);
      registerFormRoutes(kit);
      // The welcome of a sign-up, from a newsletter form or the restock box (mail/newsletter-welcome.ts).
      registerWelcomeJob(deps);
      registerCensusRoutes(kit);
      registerRestockRoutes(kit);
      registerSessionRoutes(kit);
      registerPasswordResetRoutes(kit);
      registerPlatformRoutes(kit);
      registerStoreCreationRoutes(kit);
      registerAdminRoutes(kit);
      // Toggles fall back to the site folder's (a getter: a preview swaps folders).
      const { site } = options;
      registerFeatureRoutes(kit, site ? () => (typeof site === 'function' ? site() : site).config.features : undefined);
      addRoute(kit, {
        method: 'GET',
        url: OPENAPI_PATH.slice(API_PREFIX.length),
        schema: { summary: 'This OpenAPI 3.1 document.' },
        handler: async () => api.swagger(),
      });
    },
    { prefix: API_PREFIX },
  );
  await app.register(async (assets) => {
    registerStaticRoutes(assets, options);
  });
}

// Registered without its own encapsulation (what fastify-plugin does), so the decorator
// above reaches the instance it is registered on; its routes stay inside their own
// encapsulated children.
Object.assign(storefrontApi, { [Symbol.for('skip-override')]: true });
