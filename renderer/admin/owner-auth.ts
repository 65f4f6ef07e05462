import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { readCookie } from '../api/cookies.ts';
import type { ApiDeps } from '../api/context.ts';
import { ApiError } from '../api/errors.ts';
import type { OwnerSessionRecord } from '../store/admin-repository.ts';

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

/**
 * The [admin] guard's second and third ways in, after the bearer ADMIN_TOKEN: a bearer API
 * key, or an owner session (with its CSRF header on writes). Throws ADMIN_REQUIRED otherwise.
 */
export async function checkOwnerOrKey(deps: ApiDeps, request: FastifyRequest, bearer: string | null): Promise<void> {
  if (bearer !== null) {
    if (!bearer.startsWith(API_KEY_PREFIX) || bearer.length > 200) throw ADMIN_ERRORS.adminRequired();
    const key = await deps.store.read.admin.useApiKey(hashSecret(bearer), deps.now());
    if (!key) throw ADMIN_ERRORS.adminRequired();
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
