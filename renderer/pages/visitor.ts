import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { liveSession, safeEqual, type ApiDeps } from '../api/context.ts';
import { clearCookie, COOKIE, readCookie, setCookie } from '../api/cookies.ts';
import { hasUnstorableText } from '../api/http.ts';
import type { ContentEntry } from '../site/site-types.ts';
import type { Session } from '../store/types.ts';

// C3: what the renderer reads from and writes to the visitor's cookies.

/** PostgreSQL cannot store or compare NUL or unpaired surrogates; such input names nothing (the API's rule). */
export function isStorable(text: string): boolean {
  return !hasUnstorableText(text);
}

/** Drops cookies the store could not be asked about, so they count as absent (never a 500). */
export function screenCookies(request: FastifyRequest): void {
  const cookies = request.cookies as Record<string, string | undefined> | undefined;
  if (!cookies) return;
  for (const [name, value] of Object.entries(cookies)) if (typeof value !== 'string' || !isStorable(value)) delete cookies[name];
}

export const UNLOCK_COOKIE = 'sf_unlock';
export const unlockCookieName = (scope: string): string => (scope === 'site' ? UNLOCK_COOKIE : `${UNLOCK_COOKIE}_${scope}`);

/** The `site_secrets` row that signs unlock cookies. */
const UNLOCK_SECRET_NAME = 'page-unlock';
const unlockSecrets = new WeakMap<object, Promise<string>>();

/**
 * The key unlock cookies are signed with: random, kept in the store (so every process and
 * every restart agree), read once per store and kept. Without a key only the server holds,
 * anyone could compute a cookie from the site's public id and a guessed password and try it
 * on the page itself, past POST /unlock's per-address guess limit.
 */
export function unlockSecret(deps: Pick<ApiDeps, 'store' | 'now'>): Promise<string> {
  const known = unlockSecrets.get(deps.store);
  if (known) return known;
  const secret = deps.store.read.siteSecret(UNLOCK_SECRET_NAME, crypto.randomBytes(32).toString('base64url'), deps.now());
  unlockSecrets.set(deps.store, secret);
  // A failed read is asked again next time rather than remembered.
  secret.catch(() => unlockSecrets.delete(deps.store));
  return secret;
}

/**
 * The value of a valid unlock cookie (designed here): a MAC of the site, the scope and the
 * password under `unlockSecret`, so changing the password locks everyone out again, the
 * cookie never holds the password itself, and a password cannot be guessed from it or with it.
 */
export function unlockToken(secret: string, websiteId: string, scope: string, password: string): string {
  return crypto.createHmac('sha256', secret).update(`${websiteId}\0${scope}\0${password}`).digest('base64url').slice(0, 32);
}

export function isUnlocked(request: FastifyRequest, secret: string, websiteId: string, scope: string, password: string): boolean {
  const value = readCookie(request, unlockCookieName(scope));
  // Compared as bytes (`safeEqual`): 32 characters may be more than 32 bytes (`é` is two).
  return value !== null && safeEqual(value, unlockToken(secret, websiteId, scope, password));
}

/** Who asks for a collection's products: their request (unlock cookies), the site and whether a member is signed in. */
export interface CollectionVisitor {
  request: FastifyRequest;
  deps: Pick<ApiDeps, 'store' | 'now'>;
  websiteId: string;
  /** Asked only of a member-only entry, so an anonymous caller costs no session look-up. */
  signedIn: () => boolean | Promise<boolean>;
}

/**
 * Whether this visitor may see the products of the entry `collectionId` names: not while a
 * member-only entry has no signed-in member, nor while a password-protected one is locked for
 * them (the checks of the collection's own pages, content.ts). A product of no entry is open.
 * The one rule for every place that names a product by id: the reviews request page and
 * POST /api/commerce/reviews.
 */
export async function collectionOpenTo(visitor: CollectionVisitor, entries: readonly ContentEntry[], collectionId: string | null): Promise<boolean> {
  if (collectionId === null) return true;
  const entry = entries.find((candidate) => candidate.id === collectionId);
  if (!entry) return true;
  if (entry.memberArea && !(await visitor.signedIn())) return false;
  if (entry.password && !isUnlocked(visitor.request, await unlockSecret(visitor.deps), visitor.websiteId, entry.id, entry.password)) return false;
  return true;
}

/**
 * `SiteUserInfo`: URL-encoded JSON (the cookie parser has already decoded it once);
 * anything that fails to parse counts as no user.
 */
export function siteUserInfoClaimsUser(raw: string | null): boolean {
  if (raw === null) return false;
  try {
    const parsed: unknown = JSON.parse(raw);
    return typeof parsed === 'object' && parsed !== null && (parsed as { authenticated?: unknown }).authenticated === true;
  } catch {
    return false;
  }
}

export interface SiteUserContext {
  authenticated: boolean;
  siteUserId: string;
  xsrfToken: string;
}

/**
 * The session behind `SiteUserSecureAuthToken`, with C3's clean-up: a token naming no valid
 * session is cleared, and a `SiteUserInfo` claiming a user is rewritten to anonymous. Without
 * the cookie it answers at once, not as a promise: an anonymous page view asks the store
 * nothing and waits for nothing here.
 */
export function visitorSession(deps: ApiDeps, request: FastifyRequest, reply: FastifyReply): Session | null | Promise<Session | null> {
  if (readCookie(request, COOKIE.session) === null) {
    anonymous(request, reply, false);
    return null;
  }
  return liveSession(deps, request).then((session) => {
    if (session) return session;
    anonymous(request, reply, true);
    return null;
  });
}

/** C3's clean-up for a visitor with no session: a token that named none is cleared, and a `SiteUserInfo` claiming a user is rewritten. */
function anonymous(request: FastifyRequest, reply: FastifyReply, hadToken: boolean): void {
  if (hadToken) clearCookie(request, reply, COOKIE.session, { httpOnly: true });
  if (siteUserInfoClaimsUser(readCookie(request, COOKIE.siteUserInfo))) {
    // The cookie serializer URL-encodes the value once, as D4 asks.
    setCookie(request, reply, COOKIE.siteUserInfo, '{"authenticated":false}');
  }
}

/** The query parameter `POST /unlock` adds to the page it returns to when it did not unlock it. */
export const UNLOCK_OUTCOME = 'unlock';

/** The password form's message (`lock.message`): what the last `POST /unlock` found, else `prompt`. */
export function lockMessage(prompt: string, query: Record<string, unknown>): string {
  const outcome = query[UNLOCK_OUTCOME];
  if (outcome === 'failed') return 'Incorrect password. Please try again.';
  if (outcome === 'wait') return 'Too many attempts. Please wait a minute, then try again.';
  return prompt;
}
