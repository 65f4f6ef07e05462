import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { readCookie } from '../api/cookies.ts';
import type { ApiDeps } from '../api/context.ts';
import { ApiError } from '../api/errors.ts';
import type { ApiKeyRecord, OwnerSessionRecord } from '../store/admin-repository.ts';

// Owner sessions and API keys: the two ways besides the ADMIN_TOKEN that pass the [admin]
// guard (api/context.ts checkAdmin). Secrets are random and long, so they are stored as a
// plain SHA-256 (a slow hash buys nothing against 192 random bits); passwords use scrypt.

/**
 * The owner's session cookie: HttpOnly (no script reads it), SameSite=Strict (no other
 * site's page sends it, not even a link), path /, Secure on HTTPS.
 */
export const OWNER_COOKIE = 'quire_owner';
/** The header that carries the session's CSRF token on every state-changing admin call. */
export const OWNER_CSRF_HEADER = 'x-owner-csrf';
export const OWNER_SESSION_MS = 12 * 60 * 60 * 1000;
/** Every API key starts with this, so a leaked one is recognisable (and scanners can find it). */
export const API_KEY_PREFIX = 'qk_';
/** Characters of a key kept in clear to tell keys apart in the list. */
export const API_KEY_SHOWN_CHARS = 8;

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function hashSecret(secret: string): string {
  return crypto.createHash('sha256').update(secret).digest('base64url');
}

export const ADMIN_ERRORS = {
  adminRequired: () => new ApiError(401, 'ADMIN_REQUIRED', 'Admin authorization required.'),
  ownerRequired: () => new ApiError(401, 'OWNER_REQUIRED', 'Sign in as the owner.'),
  csrf: () => new ApiError(403, 'OWNER_CSRF_FAIL', 'Invalid or missing CSRF token.'),
};

export function setOwnerCookie(request: FastifyRequest, reply: FastifyReply, secret: string, maxAgeSeconds: number): void {
  reply.setCookie(OWNER_COOKIE, secret, {
    path: '/',
    httpOnly: true,
    sameSite: 'strict',
    secure: request.protocol === 'https',
    maxAge: maxAgeSeconds,
    ...(maxAgeSeconds === 0 ? { expires: new Date(0) } : {}),
  });
}

export type OwnerSession = OwnerSessionRecord & { email: string };

/** The live owner session named by the request's cookie, or null. */
export async function ownerSession(deps: ApiDeps, request: FastifyRequest): Promise<OwnerSession | null> {
  const secret = readCookie(request, OWNER_COOKIE);
  if (secret === null || secret.length > 200) return null;
  return deps.store.read.admin.getLiveSession(hashSecret(secret), deps.now());
}

/** The session's CSRF token must come back in the header on anything but a read. */
export function checkOwnerCsrf(request: FastifyRequest, session: OwnerSession): void {
  if (SAFE_METHODS.has(request.method)) return;
  const sent = request.headers[OWNER_CSRF_HEADER];
  const left = Buffer.from(typeof sent === 'string' ? sent : '');
  const right = Buffer.from(session.csrfToken);
  if (left.length !== right.length || !crypto.timingSafeEqual(left, right)) throw ADMIN_ERRORS.csrf();
}

const guarded = new WeakMap<FastifyRequest, OwnerSession>();
/** The API key an admin request came with, for the records it leaves (`adminActor`). */
const keyed = new WeakMap<FastifyRequest, ApiKeyRecord>();

/**
 * The [admin] guard's second and third ways in, after the bearer ADMIN_TOKEN: a bearer API
 * key, or an owner session (with its CSRF header on writes). Throws ADMIN_REQUIRED otherwise.
 */
export async function checkOwnerOrKey(deps: ApiDeps, request: FastifyRequest, bearer: string | null): Promise<void> {
  if (bearer !== null) {
    if (!bearer.startsWith(API_KEY_PREFIX) || bearer.length > 200) throw ADMIN_ERRORS.adminRequired();
    const key = await deps.store.read.admin.useApiKey(hashSecret(bearer), deps.now());
    if (!key) throw ADMIN_ERRORS.adminRequired();
    keyed.set(request, key);
    return;
  }
  const session = await ownerSession(deps, request);
  if (!session) throw ADMIN_ERRORS.adminRequired();
  checkOwnerCsrf(request, session);
  guarded.set(request, session);
}

/**
 * For the routes only a signed-in owner may call (API key management: a key must not mint
 * keys): the session the guard accepted, else 401 OWNER_REQUIRED.
 */
export function guardedOwner(request: FastifyRequest): OwnerSession {
  const session = guarded.get(request);
  if (!session) throw ADMIN_ERRORS.ownerRequired();
  return session;
}

/**
 * Who made an admin request, for the records it leaves (an order's refunds): the signed-in
 * owner's email; an API key by the name and prefix the owner's API keys panel lists it by
 * (`API key "Stock sync" (qk_AbC…)`), so a refund made by a script can be traced to its key
 * and the key revoked; else "API" (the operator's ADMIN_TOKEN, which names no one).
 */
export function adminActor(request: FastifyRequest): string {
  const owner = guarded.get(request);
  if (owner) return owner.email;
  const key = keyed.get(request);
  return key ? `API key "${key.name}" (${key.prefix}…)` : 'API';
}

/**
 * A browser the owner has signed in with before: it carries this cookie, and its failed
 * sign-ins count in a window of its own instead of the owner email's. Without it, five wrong
 * passwords sent by anyone for the owner's email locked the owner out of the admin for 15
 * minutes, again and again (the device cookies of OWASP's "Blocking brute force attacks").
 * A stranger still locks out browsers the owner has not used, and every address keeps its
 * own limit. HttpOnly, SameSite=Strict, on the sign-in's path only.
 */
export const OWNER_DEVICE_COOKIE = 'quire_owner_device';
export const OWNER_DEVICE_MAX_AGE_SECONDS = 180 * 24 * 60 * 60;

/**
 * The token is a random nonce and its MAC keyed by the owner's password hash (secret, and
 * salted): no table to keep, and a password change forgets every device at once.
 */
function deviceMac(owner: { id: string; passwordHash: string }, nonce: string): string {
  return crypto.createHmac('sha256', owner.passwordHash).update(`${owner.id}\n${nonce}`).digest('base64url');
}

export function newDeviceToken(owner: { id: string; passwordHash: string }): string {
  const nonce = crypto.randomBytes(18).toString('base64url');
  return `${nonce}.${deviceMac(owner, nonce)}`;
}

/** The nonce of `token` when this owner's browser was given it, else null. */
export function knownDeviceNonce(token: string | null, owner: { id: string; passwordHash: string } | null): string | null {
  if (token === null || owner === null || token.length > 200) return null;
  const dot = token.indexOf('.');
  if (dot <= 0) return null;
  const nonce = token.slice(0, dot);
  const sent = Buffer.from(token.slice(dot + 1));
  const expected = Buffer.from(deviceMac(owner, nonce));
  return sent.length === expected.length && crypto.timingSafeEqual(sent, expected) ? nonce : null;
}

export function setOwnerDeviceCookie(request: FastifyRequest, reply: FastifyReply, token: string, path: string): void {
  reply.setCookie(OWNER_DEVICE_COOKIE, token, {
    path,
    httpOnly: true,
    sameSite: 'strict',
    secure: request.protocol === 'https',
    maxAge: OWNER_DEVICE_MAX_AGE_SECONDS,
  });
}
