import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Repository } from '../store/repository.ts';
import type { Store } from '../store/store.ts';
import type { CartRecord, Session, Site } from '../store/types.ts';
import { checkOwnerOrKey } from '../admin/owner-auth.ts';
import { AfterAnswerJobs, AfterResponse, type AfterAnswerJobLimits } from './after-response.ts';
import { COOKIE, CRUMB_PATTERN, readCookie, setCookie } from './cookies.ts';
import { ApiError, GENERIC } from './errors.ts';
import { beginAttempt, DatabaseCounters, MemoryCounters, installRateLimits, type Limiter, type WindowLimit } from './rate-limits.ts';

/**
 * D10 limits and the beacons' (designed here); tests may override them. Per client IP
 * unless said otherwise (an IPv6 client counts by its /64).
 */
export interface ServerLimits {
  /** Failed sign-ins per email (B17). */
  loginFailures: WindowLimit;
  /** Failed sign-ins per client IP, whatever the email (password spraying). */
  loginFailuresPerIp: WindowLimit;
  /** Per client IP and form. */
  saveFormSubmission: WindowLimit;
  formSubmissionKey: WindowLimit;
  restockSignUp: WindowLimit;
  /** RecordEvent and the newer tracker's events and validation. */
  trackingEvents: WindowLimit;
  /** Performance settings (page-load ids) and record batches. */
  performance: WindowLimit;
  /** Census beacons: RecordHit, button render and click, form render, overlay, quick view. */
  census: WindowLimit;
  /** RecordJavascriptErrors batches. */
  errorReports: WindowLimit;
  /** Password guesses at POST /unlock (lock screen and protected pages). */
  unlockAttempts: WindowLimit;
  /** Checkout quotes and order placements (renderer/orders/), per client IP. */
  checkoutPlace: WindowLimit;
  /**
   * Orders to be paid offline (`manual`), per client IP: each holds its stock until the owner
   * marks it paid or cancels it, so without a bound one visitor emptied the shop in minutes.
   * What each holds is bounded too (the shop's `commerce.offlineOrderMaxUnits`, default
   * MAX_OFFLINE_ORDER_UNITS, orders/place-order.ts): one order of every line at its stock emptied
   * it at once. Counted by placeOrder only once the order passed its checks.
   */
  offlineOrders: WindowLimit;
  /** Order status look-ups by number and email (page type 211), per client IP: numbers are guessable. */
  orderLookup: WindowLimit;
  /**
   * Carts made per client IP: an add to cart without a cart, Buy now (express), a gift card's
   * and a subscription's checkout. Each is a row kept until it expires, and one request made one.
   */
  cartCreations: WindowLimit;
  /**
   * Distinct coupon codes the store does not know, per client IP, in a quote or a placement
   * (`takeDistinct`): each code counts once in the window however often the checkout sends it
   * again, and codes that exist count nothing. Once used up, new codes are refused (429).
   */
  couponGuesses: WindowLimit;
  /** Password reset requests per email key (designed here), whether or not an account uses it. */
  passwordResetRequests: WindowLimit;
  /** Password reset requests per client IP, whatever the email. */
  passwordResetRequestsPerIp: WindowLimit;
  /** The owner's "Email download links" per order (each one mails the buyer), counting mails sent. */
  downloadLinkResends: WindowLimit;
}

// The beacon limits are sized for a visitor reading 60 pages a minute (README "Limits"):
// a page load sends at most 3 RecordHit, one census call per census button and site form,
// 2 tracker events (3 with validation), 1 performance settings call and 2 record batches,
// and error reports only when something fails (at most 2 batches of its 20 reports).
export const DEFAULT_LIMITS: ServerLimits = {
  loginFailures: { limit: 5, windowMs: 15 * 60_000 },
  loginFailuresPerIp: { limit: 30, windowMs: 15 * 60_000 },
  saveFormSubmission: { limit: 5, windowMs: 60_000 },
  formSubmissionKey: { limit: 30, windowMs: 60_000 },
  restockSignUp: { limit: 10, windowMs: 60_000 },
  trackingEvents: { limit: 600, windowMs: 60_000 },
  performance: { limit: 600, windowMs: 60_000 },
  census: { limit: 1200, windowMs: 60_000 },
  errorReports: { limit: 120, windowMs: 60_000 },
  unlockAttempts: { limit: 10, windowMs: 60_000 },
  checkoutPlace: { limit: 30, windowMs: 60_000 },
  offlineOrders: { limit: 5, windowMs: 24 * 60 * 60_000 },
  orderLookup: { limit: 10, windowMs: 60_000 },
  // A shopper makes one cart, and one more per Buy now, gift card or subscription checkout. The
  // spec sets no figure (D10 is designed here); its nearest is FormSubmissionKey, 30 a minute per
  // address for a row each page action makes, and placing orders is 30 a minute here: as many
  // carts as orders the address may place keeps every Buy now that ends in an order working,
  // and 30 new shoppers a minute behind one address, while a script making a cart per request
  // stores at most 30 rows a minute until they expire (60 was a guess with no such anchor).
  cartCreations: { limit: 30, windowMs: 60_000 },
  // A buyer mistypes a code or tries an old one from a newsletter a few times, not ten times
  // in an hour: ten misses an hour leave room for that, while a guesser gets 240 tries a day
  // per address (the probe found the demo's code in 84). Counting misses, not requests, keeps
  // the checkout's re-sent codes (every address or shipping change quotes again) free.
  couponGuesses: { limit: 10, windowMs: 60 * 60_000 },
  // Password reset requests (designed here): a member who forgets asks once or twice, maybe
  // again when the mail is slow; five an hour per address caps the mail anyone can make the
  // shop send to one inbox, twenty an hour per client address caps one sender fishing many.
  passwordResetRequests: { limit: 5, windowMs: 60 * 60_000 },
  passwordResetRequestsPerIp: { limit: 20, windowMs: 60 * 60_000 },
  // A buyer who lost the mail needs it once, maybe again if it went to spam: three an hour per
  // order leaves room for that, while a button pressed over and over no longer fills the
  // buyer's inbox (each press mailed them).
  downloadLinkResends: { limit: 3, windowMs: 60 * 60_000 },
};

/**
 * The limiters of the server: one per limit, and `couponSeen`, the marks of the coupon codes a
 * client already had checked (one per code and address, for as long as `couponGuesses` counts).
 */
export type Limiters = Record<keyof ServerLimits | 'couponSeen', Limiter>;


export interface StorefrontApiOptions {
  store: Store;
  /** Injectable clock (ms since epoch) so expiry and ordering tests are deterministic. */
  now?: () => number;
  /** Injectable id generator; `prefix` names the entity (`c` cart, `e` entry, …). */
  newId?: (prefix: string) => string;
  /** Bearer token of the [admin] guard; when unset every admin call is refused. */
  adminToken?: string | null;
  limits?: Partial<ServerLimits>;
  /**
   * Where rate-limit counters live: `database` (shared by every instance on it) or
   * `memory` (this process). Default: `database` on PostgreSQL, `memory` on PGlite.
   */
  rateLimitStore?: 'database' | 'memory';
  /**
   * The site's title and configured `baseUrl` (site.json), for links in mail (the newsletter
   * welcome's unsubscribe link, the receipt's review links); without a baseUrl, `origin`.
   * `productPath`: a product's page on the site (the restock notice's link), as pages name it.
   */
  publicSite?: () => PublicSite;
  /**
   * The server's own origin (where it listens), for links in mail when site.json sets no
   * `baseUrl`. Never the request's Host header: it is the sender's to choose and mail goes to
   * any address, so a newsletter sign-up sent with `Host: evil.example` mailed the victim an
   * unsubscribe link to evil.example. Default `http://localhost`.
   */
  origin?: () => string;
  /**
   * The durable after-answer jobs (after-response.ts): their limits, and `recoveryMs`, the time
   * between recovery runs (the first runs when the app is ready); `false` runs no recovery
   * (tests that drive it by hand).
   */
  afterAnswerJobs?: Partial<AfterAnswerJobLimits> & { recoveryMs?: number | false };
}

export interface ApiDeps {
  store: Store;
  now: () => number;
  newId: (prefix: string) => string;
  adminToken: string | null;
  /** One limiter per limit, under the limit's name. */
  limiters: Limiters;
  publicSite?: () => PublicSite;
  origin?: () => string;
  /** Work whose result the answer must not wait for (after-response.ts); the API's close waits for it. */
  afterResponse: AfterResponse;
  /** Work owed past the answer that a crash must not lose: recorded before it, run after (after-response.ts). */
  afterAnswerJobs: AfterAnswerJobs;
}

/** What mail may say of the served site (`publicSite`). */
export interface PublicSite {
  title: string;
  baseUrl: string | null;
  productPath?: (product: { collectionId: string | null; urlSlug: string }) => string;
}

/** The origin links in mail start with: site.json's `baseUrl`, else the server's own (`StorefrontApiOptions.origin`). */
export function mailOrigin(deps: Pick<ApiDeps, 'publicSite' | 'origin'>): string {
  return deps.publicSite?.().baseUrl ?? deps.origin?.() ?? 'http://localhost';
}

const TOKEN_BYTES = 24;
// One CSPRNG call fills 128 tokens (every anonymous page view issues a crumb); each slice
// of the pool is handed out once, as crypto.randomUUID does with its own entropy cache.
const tokenPool = Buffer.alloc(TOKEN_BYTES * 128);
let tokenOffset = tokenPool.length;

/** 32 url-safe random characters (crumbs, form keys, session ids, xsrf tokens). */
export function randomToken(): string {
  if (tokenOffset === tokenPool.length) {
    crypto.randomFillSync(tokenPool);
    tokenOffset = 0;
  }
  const token = tokenPool.toString('base64url', tokenOffset, tokenOffset + TOKEN_BYTES);
  tokenOffset += TOKEN_BYTES;
  return token;
}

function defaultId(prefix: string): string {
  return `${prefix}_${crypto.randomBytes(12).toString('base64url')}`;
}

/**
 * Registers @fastify/rate-limit on the app with the limits of `options`; its counters live in
 * the database on PostgreSQL, so N instances share them. Call it once per app, on the root,
 * and give the result to `createDeps` (the API and the pages count in the same windows).
 */
export function installLimiters(app: FastifyInstance, options: StorefrontApiOptions): Promise<Limiters> {
  const now = options.now ?? Date.now;
  const kind = options.rateLimitStore ?? (options.store.kind === 'postgres' ? 'database' : 'memory');
  const rules = { ...DEFAULT_LIMITS, ...options.limits };
  return installRateLimits(app, {
    rules: { ...rules, couponSeen: { limit: 1, windowMs: rules.couponGuesses.windowMs } },
    // The unwrapped store: counting a hit must not drop the pages' read cache.
    backend: kind === 'database' ? new DatabaseCounters(options.store, now) : new MemoryCounters(now),
    now,
  });
}

export function createDeps(options: StorefrontApiOptions, limiters: Limiters): ApiDeps {
  const now = options.now ?? Date.now;
  const newId = options.newId ?? defaultId;
  const afterResponse = new AfterResponse();
  return {
    store: options.store,
    now,
    newId,
    adminToken: options.adminToken ?? null,
    limiters,
    publicSite: options.publicSite,
    origin: options.origin,
    afterResponse,
    afterAnswerJobs: new AfterAnswerJobs({ store: options.store, now, newId, afterResponse }, options.afterAnswerJobs),
  };
}

export async function requireSite(deps: ApiDeps): Promise<Site> {
  const site = await deps.store.read.getSite();
  if (!site) throw new ApiError(503, 'SITE_NOT_CONFIGURED', 'The site has not been set up.');
  return site;
}

/** Constant-time equality of two strings, compared as bytes (timingSafeEqual throws on a length mismatch). */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && crypto.timingSafeEqual(left, right);
}

// ---- guards (B0.3), in the order admin, crumb, user ---------------------------------------

/**
 * [admin]: `Authorization: Bearer <ADMIN_TOKEN>`, or a bearer API key, or (no Authorization
 * header) a signed-in owner's session cookie with its CSRF header on writes (admin/owner-auth.ts).
 */
export async function checkAdmin(deps: ApiDeps, request: FastifyRequest): Promise<void> {
  const header = request.headers.authorization;
  if (header === undefined) return checkOwnerOrKey(deps, request, null);
  const match = typeof header === 'string' ? /^Bearer (\S+)$/.exec(header) : null;
  if (!match) throw new ApiError(401, 'ADMIN_REQUIRED', 'Admin authorization required.');
  // A bearer is a secret guessed like a password (the ADMIN_TOKEN is the operator's choice, and
  // may be short): wrong ones count in the per-address sign-in window, which refuses before
  // any comparison. Unlimited, a weak token could be guessed as fast as the server answered.
  const attempt = await beginAttempt(request, [{ limiter: deps.limiters.loginFailuresPerIp }]);
  try {
    if (!attempt.allowed) throw GENERIC.rateLimited(attempt.retryAfterSeconds);
    if (deps.adminToken && safeEqual(match[1] ?? '', deps.adminToken)) return;
    try {
      await checkOwnerOrKey(deps, request, match[1] ?? '');
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) await attempt.failed();
      throw error;
    }
  } finally {
    attempt.end();
  }
}

/**
 * C3, for the page routes: keeps a well-formed crumb, otherwise issues a new one (not
 * HttpOnly: the client copies it into X-CSRF-Token). Returns the crumb in effect.
 */
export function ensureCrumbCookie(request: FastifyRequest, reply: FastifyReply): string {
  const current = readCookie(request, COOKIE.crumb);
  if (current !== null && CRUMB_PATTERN.test(current)) return current;
  const fresh = randomToken();
  setCookie(request, reply, COOKIE.crumb, fresh);
  return fresh;
}

/** The 403 of a failed double-submit check, with a fresh crumb so a retry can pass. */
export function crumbFailure(request: FastifyRequest, reply: FastifyReply): ApiError {
  setCookie(request, reply, COOKIE.crumb, randomToken());
  return new ApiError(403, 'CRUMB_FAIL', 'Invalid or missing crumb.', { crumbFail: true });
}

export function checkCrumbValue(request: FastifyRequest, reply: FastifyReply, submitted: unknown): void {
  const cookie = readCookie(request, COOKIE.crumb);
  if (typeof submitted !== 'string' || submitted === '' || cookie === null || !safeEqual(submitted, cookie)) {
    throw crumbFailure(request, reply);
  }
}

export function checkCrumbHeader(request: FastifyRequest, reply: FastifyReply): void {
  checkCrumbValue(request, reply, request.headers['x-csrf-token']);
}

export async function liveSession(deps: ApiDeps, request: FastifyRequest): Promise<Session | null> {
  const id = readCookie(request, COOKIE.session);
  if (id === null || id.length > 200) return null;
  return deps.store.read.getLiveSession(id, deps.now());
}

export async function checkUser(deps: ApiDeps, request: FastifyRequest): Promise<Session> {
  const session = await liveSession(deps, request);
  if (!session) throw new ApiError(401, 'NOT_AUTHENTICATED', 'Sign in required.');
  const xsrf = request.headers['x-siteuser-xsrf-token'];
  if (typeof xsrf !== 'string' || !safeEqual(xsrf, session.xsrfToken)) {
    throw new ApiError(403, 'XSRF_FAIL', 'Invalid XSRF token.');
  }
  return session;
}

// ---- the caller's cart ------------------------------------------------------------------

export interface CallerCart {
  cart: CartRecord | null;
  /** The request named a cart by cookie that cannot be used; its cookies should be cleared. */
  staleCookie: boolean;
}

export function isLiveMainCart(cart: CartRecord, now: number): boolean {
  return cart.kind === 'main' && !cart.isPurchased && (cart.expiresAt === null || cart.expiresAt > now);
}

/**
 * B1: the signed-in user's main cart, else the anonymous cart named by `CART`. A cookie
 * naming a cart that now belongs to a user is not honoured: owning a cart id must not
 * grant access to someone's signed-in cart.
 */
export async function callerCart(
  deps: ApiDeps,
  repo: Repository,
  request: FastifyRequest,
  session: Session | null,
  options: { lock?: boolean } = {},
): Promise<CallerCart> {
  if (session) {
    const own = await repo.getUserMainCart(session.siteUserId, options);
    if (own) return { cart: own, staleCookie: false };
  }
  const cookieId = readCookie(request, COOKIE.cart);
  if (cookieId === null) return { cart: null, staleCookie: false };
  const cart = cookieId.length <= 200 ? await repo.getCart(cookieId, options) : null;
  if (!cart || !isLiveMainCart(cart, deps.now()) || cart.ownerSiteUserId !== null) {
    return { cart: null, staleCookie: true };
  }
  return { cart, staleCookie: false };
}
