import { Type } from '@sinclair/typebox';
import { emailKey } from '../../store/repository.ts';
import { isLiveMainCart, liveSession, randomToken, requireSite, type ApiDeps } from '../context.ts';
import {
  CART_COOKIE_MAX_AGE_SECONDS,
  COOKIE,
  REMEMBER_ME_MAX_AGE_SECONDS,
  clearCartCookies,
  clearCookie,
  readCookie,
  setCartCookies,
  setCookie,
} from '../cookies.ts';
import { ApiError, GENERIC } from '../errors.ts';
import { verifiedSignIn } from '../sign-in-attempt.ts';
import { QueryFlag, addRoute, fieldCodes, guardedSession, type RouteKit } from '../route-kit.ts';
import { copyEntriesThatFit, createEmptyCart, mergeEntryThatFits } from './cart-routes.ts';

// B17–B19: site-user sessions. The session id lives in an HttpOnly cookie; the xsrf token
// returned at sign-in must accompany every [user] call.

const SESSION_MS = 12 * 60 * 60 * 1000;
const REMEMBER_ME_MS = REMEMBER_ME_MAX_AGE_SECONDS * 1000;
const LANGUAGE_PATTERN = '^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*$';

const ERR = {
  missingCredentials: () => new ApiError(400, 'MISSING_CREDENTIALS', 'Email and password are required.'),
  invalidCredentials: () => new ApiError(401, 'INVALID_CREDENTIALS', 'Invalid email or password.'),
  invalidLanguage: () => new ApiError(400, 'INVALID_LANGUAGE', 'Invalid language.'),
};

function siteUserInfo(siteUserId: string | null): string {
  return JSON.stringify(siteUserId === null ? { authenticated: false } : { authenticated: true, siteUserId });
}

export function registerSessionRoutes(kit: RouteKit): void {
  const { deps } = kit;

  addRoute(kit, {
    method: 'POST',
    url: '/site-users/account/session',
    crumb: true,
    schema: {
      summary: 'B17: sign in.',
      body: Type.Object({
        // Not empty once trimmed (JavaScript's trim() and \s agree on what is white space).
        email: Type.String({ pattern: '\\S' }),
        password: Type.String({ minLength: 1 }),
        rememberMe: Type.Optional(Type.Boolean()),
      }),
    },
    invalid: fieldCodes({
      email: ERR.missingCredentials,
      password: ERR.missingCredentials,
      rememberMe: () => GENERIC.badRequest('rememberMe must be a boolean.'),
    }),
    handler: async (request, reply) => {
      const { email, password, rememberMe } = request.body;
      // Failures count per email (B17) and per client address (password spraying tries many
      // emails from one address); either refuses before any password is hashed.
      const user = await verifiedSignIn(deps, request, emailKey(email), password, async () => (email.length <= 256 ? deps.store.read.getUserByEmail(email) : null), ERR.invalidCredentials);
      const now = deps.now();
      const persistent = rememberMe === true;
      const session = {
        id: randomToken(),
        siteUserId: user.id,
        xsrfToken: randomToken(),
        createdAt: now,
        expiresAt: now + (persistent ? REMEMBER_ME_MS : SESSION_MS),
        persistent,
      };
      const anonymousCartId = readCookie(request, COOKIE.cart);
      // The session this browser held before (another account, or this one signed in again) ends
      // here: its cookie is replaced below, so no one should still hold it, and a copy of it
      // (another person's browser on a shared computer, a leaked cookie) must not outlive it.
      const previousSessionId = readCookie(request, COOKIE.session);
      const movedCart = await deps.store.transaction(async (repo) => {
        if (previousSessionId !== null && previousSessionId.length <= 200) await repo.deleteSession(previousSessionId);
        await repo.createSession(session);
        if (anonymousCartId === null || anonymousCartId.length > 200) return false;
        const anonymous = await repo.getCart(anonymousCartId, { lock: true });
        if (!anonymous || anonymous.ownerSiteUserId !== null || !isLiveMainCart(anonymous, now)) return false;
        if (anonymous.entries.length === 0) return false;
        const own = await repo.getUserMainCart(user.id, { lock: true });
        if (!own) {
          await repo.updateCartOwnership(anonymous.id, user.id, null);
          return true;
        }
        // Merged lines keep the add-to-cart bounds: sign-out with cloneCart and sign-in again
        // must not double a quantity past the stock or 9999 (issue 13).
        const site = await repo.getSite();
        if (!site) throw GENERIC.internal();
        const copy = anonymous.clonedFrom === own.id;
        for (const entry of anonymous.entries) await mergeEntryThatFits(deps, repo, site, own, entry, copy);
        await repo.deleteCart(anonymous.id);
        return true;
      });

      const lifetime = persistent ? { maxAge: REMEMBER_ME_MAX_AGE_SECONDS } : {};
      setCookie(request, reply, COOKIE.session, session.id, { ...lifetime, httpOnly: true });
      // The cookie serializer URL-encodes the value once, which is the encoding D4 asks for.
      setCookie(request, reply, COOKIE.siteUserInfo, siteUserInfo(user.id), lifetime);
      if (movedCart) {
        clearCookie(request, reply, COOKIE.cart);
        setCookie(request, reply, COOKIE.hasCart, 'true', { maxAge: CART_COOKIE_MAX_AGE_SECONDS });
      }
      return { xsrfToken: session.xsrfToken, siteUserId: user.id };
    },
  });

  addRoute(kit, {
    method: 'DELETE',
    url: '/site-users/account/session',
    crumb: true,
    // B18 answers a bad cloneCart before the crumb check; no body is read.
    queryBeforeGuards: true,
    schema: { summary: 'B18: sign out.', querystring: Type.Object({ cloneCart: Type.Optional(QueryFlag) }) },
    handler: async (request, reply) => {
      const cloneCart = request.query.cloneCart === 'true';
      const session = await liveSession(deps, request);
      const site = await requireSite(deps);
      const clonedId = await deps.store.transaction(async (repo) => {
        if (!session) return null;
        await repo.deleteSession(session.id);
        if (!cloneCart) return null;
        const own = await repo.getUserMainCart(session.siteUserId);
        if (!own || own.entries.length === 0) return null;
        const id = await createEmptyCart(deps, repo, site, {
          kind: 'main',
          ownerSiteUserId: null,
          lifetimeMs: CART_COOKIE_MAX_AGE_SECONDS * 1000,
          clonedFrom: own.id,
        });
        await copyEntriesThatFit(deps, repo, site, id, own.entries);
        return id;
      });
      clearCookie(request, reply, COOKIE.session, { httpOnly: true });
      clearCookie(request, reply, COOKIE.siteUserInfo);
      if (clonedId) setCartCookies(request, reply, clonedId);
      else clearCartCookies(request, reply);
      return { success: true };
    },
  });

  addRoute(kit, {
    method: 'POST',
    url: '/site-users/account/locale',
    crumb: true,
    user: true,
    schema: {
      summary: "B19: the signed-in user's language.",
      body: Type.Object({ language: Type.String({ maxLength: 35, pattern: LANGUAGE_PATTERN }) }),
    },
    invalid: ERR.invalidLanguage,
    handler: async (request) => {
      const session = guardedSession(request);
      const { language } = request.body;
      await deps.store.read.setUserLocale(session.siteUserId, language);
      return { language };
    },
  });

}
