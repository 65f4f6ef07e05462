import querystring from 'node:querystring';
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { FastifyInstance, FastifySchema, FastifySchemaCompiler, RouteShorthandOptions } from 'fastify';
import type { ApiDeps } from '../api/context.ts';
import { setCookie } from '../api/cookies.ts';
import { ApiError, GENERIC } from '../api/errors.ts';
import { installPlainErrorHandler, sendError } from '../api/http.ts';
import { isValidEmail } from '../api/form-validation.ts';
import { RESET_LINK_PATH } from '../mail/password-reset.ts';
import { isUnsubscribeToken, UNSUBSCRIBE_LINK_PATH, unsubscribeSecret } from '../mail/newsletter-unsubscribe.ts';
import { schemaCompiler } from '../api/route-kit.ts';
import { createPageRenderer, type PageReads, type ResolveMember, type SiteSource } from './page-renderer.ts';
import { pathOf, resolveRoute } from './route-resolver.ts';
import { registerSiteImageRoute } from './site-images.ts';
import { registerDownloadRoute } from './download-route.ts';
import { siteStylesheet, SITE_STYLESHEET_PREFIX } from './site-stylesheet.ts';
import { PAGE_TYPE } from './page-type-numbers.ts';
import { ORDER_STATUS_PATH } from './page-types/order-pages.ts';
import { publicPaths, sitemapOrigin, sitemapXml } from './sitemap.ts';
import { UNLOCK_OUTCOME, unlockCookieName, unlockSecret, unlockToken } from './visitor.ts';
import { beginAttempt } from '../api/rate-limits.ts';

export type { PageReads, QuirePageInfo, ResolveMember, SiteSource } from './page-renderer.ts';
export type { Member } from './tracking.ts';

export interface PagesPluginOptions {
  deps: ApiDeps;
  site: SiteSource;
  resolveMember?: ResolveMember;
  reads?: PageReads;
}

const UNLOCK_BODY_LIMIT = 4096;

/** The unlock form: every field optional (a missing scope is the whole site). */
const UNLOCK_FORM = Type.Object({
  scope: Type.Optional(Type.String({ description: '`site`, or the id of a protected page.' })),
  password: Type.Optional(Type.String()),
  returnTo: Type.Optional(Type.String({ description: 'A same-site path; anything else returns to `/`.' })),
});

/**
 * Fastify's body-parser refusals of a body that is no fields at all: JSON that does not parse
 * (or is empty), and a content type no parser takes (multipart, XML). They reach the route's
 * error handler before its schema runs, and were this context's plain "Bad request." (a 415
 * for the type) rather than the form's own 400.
 */
const NOT_FIELDS = new Set(['FST_ERR_CTP_INVALID_JSON_BODY', 'FST_ERR_CTP_EMPTY_JSON_BODY', 'FST_ERR_CTP_INVALID_MEDIA_TYPE']);

/**
 * The options of a page form's POST route (fields as `application/x-www-form-urlencoded`): a
 * body that is not the form (no body, a repeated field, a body that is not fields) is a 400
 * in the API's B0.2 JSON shape; every other failure keeps this context's plain-text answers.
 */
function formRoute(summary: string, body: TSchema, invalid: string): RouteShorthandOptions {
  return {
    schema: { summary, consumes: ['application/x-www-form-urlencoded'], body },
    validatorCompiler: schemaCompiler(() => GENERIC.badRequest(invalid)) as FastifySchemaCompiler<FastifySchema>,
    errorHandler: (error, _request, reply) => {
      if (error instanceof ApiError) return sendError(reply, error);
      if (NOT_FIELDS.has((error as { code?: unknown }).code as string)) return sendError(reply, GENERIC.badRequest(invalid));
      throw error;
    },
  };
}

/**
 * The unsubscribe button's form (every field a string the page wrote; limits keep junk out),
 * or a mail client's RFC 8058 one-click POST (`List-Unsubscribe=One-Click`) to the mail's link,
 * whose address and token are in the query (UNSUBSCRIBE_QUERY).
 */
const UNSUBSCRIBE_FORM = Type.Object({
  email: Type.Optional(Type.String({ maxLength: 320 })),
  token: Type.Optional(Type.String({ maxLength: 100 })),
  returnTo: Type.Optional(Type.String({ description: 'The unsubscribe page; anything not on this site returns to `/`.' })),
  'List-Unsubscribe': Type.Optional(Type.Literal('One-Click', { description: 'RFC 8058: the address and token are in the query.' })),
});
const UNSUBSCRIBE_QUERY = Type.Object({
  email: Type.Optional(Type.String({ maxLength: 320 })),
  token: Type.Optional(Type.String({ maxLength: 100 })),
});

/** The order status look-up's form (page 211); the page says what is wrong with each field. */
const ORDER_STATUS_FORM = Type.Object({
  orderNumber: Type.Optional(Type.String({ maxLength: 1000 })),
  email: Type.Optional(Type.String({ maxLength: 1000 })),
  // The found order's "Email me the download links" button (page-types/order-pages.ts).
  sendDownloadLinks: Type.Optional(Type.String({ maxLength: 10 })),
});

/** Stands for this site when resolving `returnTo`; only its origin matters. */
const SITE_ORIGIN = 'http://site.invalid';

/**
 * The same-site path to return to after unlocking, else `/` (no open redirect, no 500).
 * The value is resolved as a browser resolves a Location, against the site's origin (URL
 * parsing drops tabs and newlines and reads `\` as `/`, so `/\t/evil.example` is another
 * host); only a result on that origin is kept, as its serialised path and query, so what
 * reaches the header is percent-encoded ASCII. A path that serialises to `//host` (from
 * `/.//host`) would leave the site when read back, so it falls back too.
 */
/**
 * The fields of the sign-in form (`sf-login`, hydrate/shared/island-markup.ts). Its markup is
 * the spec's, without a method: submitted before the islands' script takes the form (a slow
 * connection, scripts off), the browser sends it as a GET, and the password stood in the
 * address bar and the history. Such a request is sent on to the same page without them; what
 * the server logs of a URL masks them (log-redaction.ts).
 */
const SIGN_IN_FIELDS = ['password', 'email', 'rememberMe'];

/** The URL without the sign-in form's fields when it carries a password, else null. */
function withoutSignInFields(url: string): string | null {
  const q = url.indexOf('?');
  if (q < 0 || !/(?:^|&)password(?:=|&|$)/.test(url.slice(q + 1))) return null;
  const params = new URLSearchParams(url.slice(q + 1));
  for (const field of SIGN_IN_FIELDS) params.delete(field);
  const rest = params.toString();
  return safeReturnPath(url.slice(0, q) + (rest ? `?${rest}` : ''));
}

/**
 * The restock box's form (the formatter's bytes, PLUGINS §4: `action="#"`, one named control,
 * `email`) submitted before its island took it: a GET to the product page with the address as
 * the whole query (`/shop/tee?email=…`), in the address bar and the history, and no sign-up.
 * On a product page (`isProductPage`: the box lives there) such a request goes on to the page
 * without it, as the sign-in fields do. The typed address cannot be kept: the formatter's
 * form, not the renderer, decides where it goes.
 */
function withoutRestockEmail(url: string, isProductPage: (path: string) => boolean): string | null {
  const q = url.indexOf('?');
  if (q < 0) return null;
  const names = [...new Set(new URLSearchParams(url.slice(q + 1)).keys())];
  if (names.length !== 1 || names[0] !== 'email') return null;
  const path = url.slice(0, q);
  return isProductPage(path) ? safeReturnPath(path) : null;
}

/** `path` with the unlock form's outcome in its query, for the password form to say (visitor.ts `lockMessage`). */
function withOutcome(path: string, outcome: 'failed' | 'wait'): string {
  const url = new URL(path, SITE_ORIGIN);
  url.searchParams.set(UNLOCK_OUTCOME, outcome);
  return url.pathname + url.search;
}

function safeReturnPath(value: unknown): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.length > 2000) return '/';
  let url: URL;
  try {
    url = new URL(value, SITE_ORIGIN);
  } catch {
    return '/';
  }
  if (url.origin !== SITE_ORIGIN) return '/';
  const path = url.pathname + url.search;
  return path.startsWith('/') && !path.startsWith('//') && new URL(path, SITE_ORIGIN).origin === SITE_ORIGIN ? path : '/';
}

/**
 * The page routes (STOREFRONT C). Every path the API and asset routes do not own is a page:
 * it is answered by this context's not-found handler, so `/api/…` misses keep the API's own
 * JSON 404 (Fastify dispatches not-found handlers by prefix).
 */
export async function storefrontPages(app: FastifyInstance, options: PagesPluginOptions): Promise<void> {
  const renderer = createPageRenderer(options);

  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: UNLOCK_BODY_LIMIT }, (_request, body, done) => {
    done(null, querystring.parse(String(body), '&', '=', { maxKeys: 20 }));
  });

  app.get('/sitemap.xml', async (request, reply) => {
    const site = renderer.getSite();
    const products = await renderer.reads.listProducts();
    // A locked site does not list its pages.
    if (site.config.lock.enabled) return reply.type('application/xml; charset=utf-8').header('cache-control', 'no-store').send(sitemapXml('', []));
    const base = sitemapOrigin(site.config.extra.baseUrl, request.protocol, request.host);
    if (base === null) return sendError(reply, GENERIC.badRequest('Invalid Host header.'));
    return reply.type('application/xml; charset=utf-8').header('cache-control', 'no-store').send(sitemapXml(base, publicPaths(site, products)));
  });

  // The site's CSS, linked from every page head. Only the current stylesheet's name answers:
  // the name is its content hash, so an answer never changes and may be cached for good.
  app.get(`${SITE_STYLESHEET_PREFIX}:file`, async (request, reply) => {
    const sheet = siteStylesheet(renderer.getSite());
    if (!sheet || (request.params as { file: string }).file !== sheet.name) return reply.code(404).type('text/plain; charset=utf-8').send('Not found.');
    return reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=31536000, immutable').send(sheet.body);
  });

  // The site folder's images/ at their width variants (site-images.ts).
  registerSiteImageRoute(app, () => renderer.getSite());

  // A paid order's digital products, by its download links (download-route.ts).
  registerDownloadRoute(app, () => renderer.getSite(), options.deps.store);

  // What fails outside the page renderer (which answers its own error page) is logged, and
  // the visitor gets a plain line: an error's own text may name internals (issue 13).
  installPlainErrorHandler(app, 'page route failure');

  // The password form of the lock screen (103) and of protected pages (105).
  app.post<{ Body: Static<typeof UNLOCK_FORM> }>('/unlock', formRoute('Unlock a locked site or page.', UNLOCK_FORM, 'Invalid unlock form.'), async (request, reply) => {
    const body = request.body;
    const scope = body.scope ?? 'site';
    const password = body.password ?? '';
    const returnTo = safeReturnPath(body.returnTo);
    // Wrong guesses per client address (`unlockAttempts`, with the API's limits; attempts under
    // way count, as at sign-in). The form says what happened (UNLOCK_OUTCOME): before, a wrong
    // password came back to the same form without a word, and the limit answered a bare text
    // page that refused the right password too.
    const attempt = await beginAttempt(request, [{ limiter: options.deps.limiters.unlockAttempts }]);
    try {
      if (!attempt.allowed) {
        return reply.code(303).header('location', withOutcome(returnTo, 'wait')).header('retry-after', String(attempt.retryAfterSeconds)).header('cache-control', 'no-store').send();
      }
      const site = renderer.getSite();
      const row = await renderer.reads.getSite();
      const expected = scope === 'site' ? site.config.lock.password : site.entries.find((entry) => entry.id === scope)?.password ?? null;
      if (row && expected && password === expected) {
        setCookie(request, reply, unlockCookieName(scope), unlockToken(await unlockSecret(options.deps), row.websiteId, scope, expected), { httpOnly: true });
        return reply.code(303).header('location', returnTo).header('cache-control', 'no-store').send();
      }
      await attempt.failed();
      return reply.code(303).header('location', withOutcome(returnTo, 'failed')).header('cache-control', 'no-store').send();
    } finally {
      attempt.end();
    }
  });

  // A mail's unsubscribe link (mail/newsletter-unsubscribe.ts) opens the site's unsubscribe
  // page (type 300, whatever its slug) with the same query; a GET changes nothing.
  app.get(UNSUBSCRIBE_LINK_PATH, { schema: { summary: 'A mail’s unsubscribe link: on to the unsubscribe page (300).', querystring: UNSUBSCRIBE_QUERY } }, async (request, reply) => {
    const page = renderer.getSite().entries.find((entry) => entry.pageType === PAGE_TYPE.newsletterUnsubscribe);
    if (!page) return renderer.render(request, reply);
    const search = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
    return reply.code(303).header('location', `/${page.slug}${search}`).header('cache-control', 'no-store').send();
  });

  // The newsletter unsubscribe page's button (type 300, page-types/newsletter-unsubscribe.ts):
  // removes the address when the token is its own, then returns to the page, which says what
  // the list now holds. A link someone merely fetched never gets here: only the button POSTs,
  // or a mail client's one-click POST to the link (RFC 8058), answered with a plain 200.
  const unsubscribeRoute = formRoute('Unsubscribe an address from the mailing list (signed link).', UNSUBSCRIBE_FORM, 'Invalid unsubscribe form.');
  unsubscribeRoute.schema = { ...unsubscribeRoute.schema, querystring: UNSUBSCRIBE_QUERY };
  app.post<{ Body: Static<typeof UNSUBSCRIBE_FORM>; Querystring: Static<typeof UNSUBSCRIBE_QUERY> }>(UNSUBSCRIBE_LINK_PATH, unsubscribeRoute, async (request, reply) => {
    const oneClick = request.body['List-Unsubscribe'] === 'One-Click';
    const { email, token } = oneClick ? request.query : request.body;
    if (email === undefined || token === undefined) throw GENERIC.badRequest('Invalid unsubscribe form.');
    const row = await renderer.reads.getSite();
    const now = options.deps.now();
    if (row && isValidEmail(email.trim()) && isUnsubscribeToken(await unsubscribeSecret(options.deps.store.read, now), row.websiteId, email, token)) {
      await options.deps.store.read.removeFromMailingList(email);
    }
    if (oneClick) return reply.code(200).type('text/plain; charset=utf-8').header('cache-control', 'no-store').send('Unsubscribed.');
    return reply.code(303).header('location', safeReturnPath(request.body.returnTo)).header('cache-control', 'no-store').send();
  });

  // A password reset mail's link (mail/password-reset.ts; designed here) opens the site's first
  // members' page, whose sign-in form (the account island) reads the token from the link's
  // fragment: a 303 without a fragment of its own keeps the link's (RFC 9110 10.2.2), so the
  // token never reaches a server. A site without a members' page gets its home page.
  app.get(RESET_LINK_PATH, { schema: { summary: 'A password reset mail’s link: on to the members’ page, where the sign-in form sets the new password.' } }, async (_request, reply) => {
    const page = renderer.getSite().entries.find((entry) => entry.memberArea === true);
    return reply.code(303).header('location', page ? `/${page.slug}` : '/').header('cache-control', 'no-store').send();
  });

  // The order status look-up (211, page-types/order-pages.ts) POSTs to its own page, which
  // answers with the order in place: the buyer's email stays out of the URL and the history.
  // Guesses count in the API look-up's window (`orderLookup`, POST /api/commerce/order-status).
  app.post<{ Body: Static<typeof ORDER_STATUS_FORM> }>(ORDER_STATUS_PATH, formRoute('Look up an order by number and email (page 211).', ORDER_STATUS_FORM, 'Invalid order status form.'), async (request, reply) => {
    const verdict = await options.deps.limiters.orderLookup.take(request);
    if (!verdict.allowed) {
      return reply.code(429).header('retry-after', String(verdict.retryAfterSeconds)).type('text/plain; charset=utf-8').send('Please try again in a few seconds.');
    }
    reply.header('cache-control', 'no-store');
    return renderer.render(request, reply);
  });

  app.setNotFoundHandler(async (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return reply.code(405).header('allow', 'GET, HEAD').type('text/plain; charset=utf-8').send('Method Not Allowed');
    }
    const clean = withoutSignInFields(request.url) ?? withoutRestockEmail(request.url, (path) => resolveRoute(renderer.getSite(), path).kind === 'product');
    if (clean !== null) return reply.code(303).header('location', clean).header('cache-control', 'no-store').send();
    return renderer.render(request, reply);
  });
}

export { pathOf };
