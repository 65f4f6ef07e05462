import http from 'node:http';
import querystring from 'node:querystring';
import type { Duplex } from 'node:stream';
import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify';
import { adminPage } from './admin/admin-page.ts';
import { storefrontApi, type StaticRouteOptions, type StorefrontApiOptions } from './api/index.ts';
import { createDeps, installLimiters } from './api/context.ts';
import { ApiError, GENERIC } from './api/errors.ts';
import { installPlainErrorHandler, sendError } from './api/http.ts';
import { serveUnknownExpectations } from './connection-limits.ts';
import { redactingLogger } from './log-redaction.ts';
import { requestLogger } from './request-logger.ts';
import { installSecurityHeaders, securityHeaders, type CspDirectives } from './security-headers.ts';
import { ReadCache } from './store/read-cache.ts';
import { DEFAULT_RETENTION, startRetentionSweep, type RetentionPeriods, type RetentionSweep } from './store/retention.ts';
import { storefrontPages, type ResolveMember, type SiteSource } from './pages/index.ts';

export interface BuildAppOptions extends StorefrontApiOptions, StaticRouteOptions {
  logger?: FastifyServerOptions['logger'];
  trustProxy?: FastifyServerOptions['trustProxy'];
  /** Makes the HTTP server(s) (`npm start`: connection caps and timeouts, `connection-limits.ts`). */
  serverFactory?: FastifyServerOptions['serverFactory'];
  /** Directives that replace those of `CONTENT_SECURITY_POLICY` (`security-headers.ts`); null drops one. */
  contentSecurityPolicy?: CspDirectives;
  /**
   * The site whose pages are served (section C). A getter is called on every request, so a
   * preview server can swap in a reloaded site. Without it only the API and assets are served.
   */
  site?: SiteSource;
  /** C4: the contributor behind a request (out of scope here; null by default). */
  resolveMember?: ResolveMember;
  /**
   * Serve the pages' display reads (site row, products, forms) from memory for this many
   * ms (`store/read-cache.ts`); this process's own writes drop them at once. 0 (the
   * default) reads the store on every request.
   */
  readCacheMs?: number;
  /**
   * How long the anonymous writes (analytics, error reports, tracker events, performance
   * records, form keys) are kept, in ms per table (`store/retention.ts`); `false` turns the
   * sweep off. The sweep runs when the app is ready, then every `retentionSweepMs`.
   */
  retention?: Partial<RetentionPeriods> | false;
  retentionSweepMs?: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The retention sweep of this app (null when turned off); `run()` sweeps now. */
    retentionSweep: RetentionSweep | null;
  }
}

/** Node's parser errors as API errors: `HPE_HEADER_OVERFLOW` is 431, a timeout 408, the rest 400. */
function clientError(error: NodeJS.ErrnoException, socket: Duplex, headers: Record<string, string>): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? ([431, 'HEADERS_TOO_LARGE', 'Request headers are too large.'] as const)
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? ([408, 'REQUEST_TIMEOUT', 'The request took too long to arrive.'] as const)
        : ([400, 'BAD_REQUEST', 'Bad request.'] as const);
  const body = JSON.stringify(new ApiError(status, code, message).body());
  const lines = Object.entries({ ...headers, 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(body)), connection: 'close' }).map(([name, value]) => `${name}: ${value}\r\n`);
  if (socket.writable) socket.write(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n${lines.join('')}\r\n${body}`);
  socket.destroy();
}

/**
 * A request that arrives on an open keep-alive connection once the server has begun to close
 * (Fastify still routes those) runs nothing: the API answers 503 SHUTTING_DOWN in the B0.2 shape,
 * anything else a plain line, both with Retry-After and the connection closed. After the
 * security headers' hook, so the answer carries them.
 */
function answerWhileClosing(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onRequest', (request, reply, done) => {
    if (!closing) return done();
    const error = GENERIC.shuttingDown();
    reply.code(error.status).headers(error.headers).header('cache-control', 'no-store');
    if (request.url.startsWith('/api/')) reply.type('application/json; charset=utf-8').send(error.body());
    else reply.type('text/plain; charset=utf-8').send(error.message);
  });
}

/**
 * RFC 9112 3.2: an HTTP/1.1 request without a Host, and any request with more than one, is a
 * 400. Node would answer the first itself with a bare 400 (the servers here turn its
 * `requireHostHeader` off) and passes the second on with the first Host, where a proxy in
 * front may have read the last: the pages and the sitemap would name a host other than the one
 * the request was routed by. Both get the B0.2 body, with the security headers (hooked after them).
 */
function refuseBadHost(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    const raw = request.raw.rawHeaders;
    let hosts = 0;
    for (let i = 0; i < raw.length; i += 2) if (raw[i]!.length === 4 && raw[i]!.toLowerCase() === 'host') hosts += 1;
    if (hosts === 1 || (hosts === 0 && request.raw.httpVersion === '1.0')) return done();
    sendError(reply.header('connection', 'close'), GENERIC.badRequest('Invalid Host header.'));
  });
}

/** D9: the query-string parser reads at most 1000 keys. */
const MAX_QUERY_KEYS = 1000;

/**
 * The storefront server: the API and assets, plus the pages when `site` is given. The API's
 * 404/405 handling covers only /api/; every other unmatched path is a page.
 */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const headers = securityHeaders(options.contentSecurityPolicy);
  const app = Fastify({
    // Logs never hold a visitor's password, email, form values or cookies (log-redaction.ts).
    logger: redactingLogger(options.logger ?? false),
    // A request's child logger is made when it writes a line, not for every request (request-logger.ts).
    childLoggerFactory: requestLogger,
    trustProxy: options.trustProxy ?? false,
    ...(options.serverFactory ? { serverFactory: options.serverFactory } : {}),
    // Fastify's own 503 while closing is `{error, message, statusCode}`, not the B0.2 body:
    // answerWhileClosing below sends ours instead.
    return503OnClosing: false,
    // A request without a Host reaches refuseBadHost (as with limitedServerFactory's servers).
    http: { requireHostHeader: false },
    // A request Node's parser refuses (headers too large, a malformed header or length) never
    // reaches a route: answered in the B0.2 shape, with the security headers, like every other.
    clientErrorHandler: (error, socket) => clientError(error, socket, headers),
    routerOptions: {
      querystringParser: (text: string) => querystring.parse(text, '&', '=', { maxKeys: MAX_QUERY_KEYS }),
      maxParamLength: 500,
    },
    // Malformed URLs are refused by the router before any route runs; answer them in the
    // same B0.2 shape as every other error.
    frameworkErrors: (_error, _request, reply) => {
      const error = GENERIC.badRequest('Bad request.');
      const plain = reply as unknown as FastifyReply;
      plain.code(error.status).headers(headers).type('application/json; charset=utf-8').send(error.body());
    },
  });
  const cache = options.readCacheMs ? new ReadCache(options.store, { ttlMs: options.readCacheMs }) : null;
  // Everything writes through the cache's store, so its writes invalidate the cache.
  const siteSource = options.site;
  // Mail links (the newsletter welcome's unsubscribe link) name the site's configured origin.
  const publicSite = siteSource
    ? () => {
        const site = typeof siteSource === 'function' ? siteSource() : siteSource;
        const baseUrl = site.config.extra.baseUrl;
        return {
          title: site.config.title,
          baseUrl: typeof baseUrl === 'string' && /^https?:\/\//.test(baseUrl) ? baseUrl : null,
          // As a product page's fullUrl is made (pages/product-view.ts): under its products collection's slug.
          productPath: (product: { collectionId: string | null; urlSlug: string }) => {
            const collection = product.collectionId ? site.entries.find((entry) => entry.id === product.collectionId && entry.collectionType === 'products') : undefined;
            return collection ? `/${collection.slug}/${product.urlSlug}` : `/${product.urlSlug}`;
          },
        };
      }
    : undefined;
  const served = { ...options, ...(cache ? { store: cache.store } : {}), publicSite };
  // Security headers on every response: pages, API, assets and errors (security-headers.ts).
  installSecurityHeaders(app, headers);
  refuseBadHost(app);
  // Fastify's own server when no factory made one (limitedServerFactory's do the same).
  if (!options.serverFactory) serveUnknownExpectations(app.server, (request, response) => app.server.emit('request', request, response));
  answerWhileClosing(app);
  // Routes outside the API's and the pages' contexts (assets, BNPL fragments, the admin shell)
  // answer a failure as the pages do: Fastify's own 500 body carried the error's message.
  installPlainErrorHandler(app, 'route failure');
  await app.register(fastifyCookie, { hook: 'onRequest' });
  // The unwrapped store: counting a hit and sweeping old rows must not drop the read cache.
  const limiters = await installLimiters(app, options);
  await app.register(storefrontApi, { ...served, limiters });
  // The owner's admin app at /admin (admin/admin-page.ts), before the pages' catch-all.
  await app.register(adminPage);
  if (options.site) {
    await app.register(storefrontPages, { deps: createDeps(served, limiters), site: options.site, resolveMember: options.resolveMember, reads: cache ?? undefined });
  }
  installRetentionSweep(app, options);
  return app;
}

/** Starts the retention sweep when the app is ready; closing the app waits for a running sweep. */
function installRetentionSweep(app: FastifyInstance, options: BuildAppOptions): void {
  app.decorate('retentionSweep', null);
  if (options.retention === false) return;
  const periods = { ...DEFAULT_RETENTION, ...options.retention };
  app.addHook('onReady', async () => {
    app.retentionSweep = startRetentionSweep({
      store: options.store,
      now: options.now ?? Date.now,
      periods,
      intervalMs: options.retentionSweepMs,
      onError: (error) => app.log.warn({ err: error }, 'retention sweep failed'),
    });
  });
  app.addHook('onClose', async () => {
    await app.retentionSweep?.stop();
  });
}
