import type { FastifyReply, FastifyRequest } from 'fastify';

// Cookie names and lifetimes of STOREFRONT D4. Every cookie the server sets is
// SameSite=Lax, path /, and Secure on HTTPS.

export const COOKIE = {
  crumb: 'crumb',
  cart: 'CART',
  hasCart: 'hasCart',
  session: 'SiteUserSecureAuthToken',
  siteUserInfo: 'SiteUserInfo',
} as const;

export const CART_COOKIE_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;
export const REMEMBER_ME_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

/** C3: the shape a crumb must have to be accepted as is. */
export const CRUMB_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;

export interface CookieSpec {
  /** Seconds; omitted for a session cookie. */
  maxAge?: number;
  httpOnly?: boolean;
}

export function setCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  name: string,
  value: string,
  spec: CookieSpec = {},
): void {
  reply.setCookie(name, value, {
    path: '/',
    sameSite: 'lax',
    secure: request.protocol === 'https',
    httpOnly: spec.httpOnly ?? false,
    ...(spec.maxAge === undefined ? {} : { maxAge: spec.maxAge }),
  });
}

export function clearCookie(request: FastifyRequest, reply: FastifyReply, name: string, spec: { httpOnly?: boolean } = {}): void {
  reply.setCookie(name, '', {
    path: '/',
    sameSite: 'lax',
    secure: request.protocol === 'https',
    httpOnly: spec.httpOnly ?? false,
    maxAge: 0,
    expires: new Date(0),
  });
}

export function readCookie(request: FastifyRequest, name: string): string | null {
  const value = request.cookies?.[name];
  return typeof value === 'string' && value !== '' ? value : null;
}

export function setCartCookies(request: FastifyRequest, reply: FastifyReply, cartId: string): void {
  setCookie(request, reply, COOKIE.cart, cartId, { maxAge: CART_COOKIE_MAX_AGE_SECONDS });
  setCookie(request, reply, COOKIE.hasCart, 'true', { maxAge: CART_COOKIE_MAX_AGE_SECONDS });
}

export function clearCartCookies(request: FastifyRequest, reply: FastifyReply): void {
  clearCookie(request, reply, COOKIE.cart);
  clearCookie(request, reply, COOKIE.hasCart);
}
