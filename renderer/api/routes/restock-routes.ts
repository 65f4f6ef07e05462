import type { FastifyRequest } from 'fastify';
import type { Product, RestockSignUp, Variant } from '../../store/types.ts';
import { verifyCaptchaToken } from '../captcha.ts';
import { requireSite, type ApiDeps } from '../context.ts';
import { decodeGroupCursor, decodeSignUpCursor, encodeGroupCursor, encodeSignUpCursor } from '../cursor.ts';
import { ApiError, GENERIC } from '../errors.ts';
import { isValidEmail } from '../form-validation.ts';
import { jsonObjectBody } from '../http.ts';
import { addRoute, isNonEmptyString, queryParam, takeRateLimit, type RouteKit } from '../route-kit.ts';

// B10–B14: restock sign-ups, the admin lists (keyset pagination) and the send calls.

const DEFAULT_PAGE_SIZE = 20;
const MAX_PAGE_SIZE = 100;
const MAX_SEND_REQUESTS = 100;

const ERR = {
  productNotFound: () => new ApiError(404, 'PRODUCT_NOT_FOUND', 'Product not found.'),
  variantNotFound: () => new ApiError(404, 'VARIANT_NOT_FOUND', 'Variant not found.'),
  restockDisabled: () =>
    new ApiError(400, 'RESTOCK_DISABLED', 'Restock notifications are not enabled for this product.'),
  emailBlank: () => new ApiError(400, 'EMAIL_BLANK', 'Email cannot be blank'),
  emailInvalid: () => new ApiError(400, 'EMAIL_INVALID', 'Email is invalid'),
  captchaRequired: () => new ApiError(400, 'CAPTCHA_REQUIRED', 'Complete CAPTCHA before submitting'),
  captchaInvalid: () => new ApiError(400, 'CAPTCHA_INVALID', 'CAPTCHA verification failed. Please try again.'),
  inStock: () => new ApiError(409, 'IN_STOCK', 'This item is currently in stock.'),
  stillOutOfStock: () =>
    new ApiError(409, 'OUT_OF_STOCK', 'Cannot send restock emails for an out-of-stock variant.'),
  invalidCursor: () => new ApiError(400, 'INVALID_CURSOR', 'Invalid cursor.'),
};

function inStock(variant: Variant): boolean {
  return variant.unlimited || variant.qtyInStock > 0;
}

const iso = (millis: number) => new Date(millis).toISOString();

async function productAndVariant(deps: ApiDeps, productId: unknown, variantId: unknown): Promise<{ product: Product; variant: Variant }> {
  const product = isNonEmptyString(productId) && productId.length <= 200 ? await deps.store.read.getProduct(productId) : null;
  if (!product) throw ERR.productNotFound();
  const variant = product.variants.find((candidate) => candidate.id === variantId);
  if (!variant) throw ERR.variantNotFound();
  return { product, variant };
}

function pageLimit(request: FastifyRequest): number {
  const raw = queryParam(request, 'limit');
  if (raw === undefined) return DEFAULT_PAGE_SIZE;
  const limit = typeof raw === 'string' && /^\d{1,3}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
    throw GENERIC.badQuery(`limit must be between 1 and ${MAX_PAGE_SIZE}.`);
  }
  return limit;
}

function cursorParam(request: FastifyRequest): string | null {
  const raw = queryParam(request, 'cursor');
  if (raw === undefined) return null;
  if (raw === false) throw ERR.invalidCursor();
  return raw;
}

function signUpView(signUp: RestockSignUp) {
  return {
    id: signUp.id,
    productId: signUp.productId,
    variantId: signUp.variantId,
    siteVisitorEmail: signUp.siteVisitorEmail,
    isJoinMailingList: signUp.isJoinMailingList,
    createdOn: iso(signUp.createdOn),
    notifiedOn: signUp.notifiedOn === null ? null : iso(signUp.notifiedOn),
  };
}

/** B13 for one variant; its own transaction, so one failure in B14 leaves the rest intact. */
async function sendForVariant(deps: ApiDeps, productId: unknown, variantId: unknown): Promise<number> {
  const { product, variant } = await productAndVariant(deps, productId, variantId);
  if (!inStock(variant)) throw ERR.stillOutOfStock();
  return deps.store.transaction(async (repo) => {
    const now = deps.now();
    const notified = await repo.markRestockNotified(product.id, variant.id, now);
    for (const signUp of notified) {
      await repo.queueOutbox({
        id: deps.newId('m'),
        to: signUp.siteVisitorEmail,
        subject: `${product.title} is back in stock`,
        body: `Good news: ${product.title} is back in stock.`,
        productId: product.id,
        variantId: variant.id,
        queuedOn: now,
      });
    }
    return notified.length;
  });
}

export function registerRestockRoutes(kit: RouteKit): void {
  const { deps } = kit;

  addRoute(kit, {
    method: 'POST',
    url: '/site-users/account/notifications/restock',
    crumb: true,
    handler: async (request) => {
      const body = jsonObjectBody(request);
      const { product, variant } = await productAndVariant(deps, body.productId, body.variantId);
      if (!product.restockEnabled) throw ERR.restockDisabled();
      const email = typeof body.siteVisitorEmail === 'string' ? body.siteVisitorEmail.trim() : '';
      if (email === '') throw ERR.emailBlank();
      if (!isValidEmail(email)) throw ERR.emailInvalid();
      if (body.isJoinMailingList !== undefined && typeof body.isJoinMailingList !== 'boolean') {
        throw GENERIC.badRequest('isJoinMailingList must be a boolean.');
      }
      // The limit comes before the captcha check, which records the token (a write): a
      // refused sign-up must write nothing (issue 13).
      await takeRateLimit(deps.limiters.restockSignUp, request);
      const site = await requireSite(deps);
      if (site.settings.captcha.siteKey) {
        if (!isNonEmptyString(body.captchaToken)) throw ERR.captchaRequired();
        const valid = await verifyCaptchaToken(deps.store.read, site.settings, body.captchaToken, deps.now());
        if (!valid) throw ERR.captchaInvalid();
      }
      if (inStock(variant)) throw ERR.inStock();

      const joinMailingList = body.isJoinMailingList === true;
      const signUp = await deps.store.transaction(async (repo) => {
        const now = deps.now();
        const stored = await repo.addRestockSignUp({
          id: deps.newId('r'),
          productId: product.id,
          variantId: variant.id,
          siteVisitorEmail: email,
          isJoinMailingList: joinMailingList,
          createdOn: now,
          notifiedOn: null,
        });
        if (joinMailingList) await repo.addToMailingList(email, 'restock', now);
        return stored;
      });
      return {
        signUp: { id: signUp.id, productId: signUp.productId, variantId: signUp.variantId, createdOn: iso(signUp.createdOn) },
      };
    },
  });

  addRoute(kit, {
    method: 'GET',
    url: '/site-users/account/notifications/restock',
    admin: true,
    handler: async (request) => {
      const productId = queryParam(request, 'productId');
      const variantId = queryParam(request, 'variantId');
      if (!isNonEmptyString(productId) || !isNonEmptyString(variantId)) {
        throw GENERIC.badQuery('productId and variantId are required.');
      }
      const limit = pageLimit(request);
      const rawCursor = cursorParam(request);
      const after = rawCursor === null ? null : decodeSignUpCursor(rawCursor);
      if (rawCursor !== null && after === null) throw ERR.invalidCursor();
      const rows = await deps.store.read.listRestockSignUps(productId, variantId, after, limit + 1);
      const page = rows.slice(0, limit);
      const hasNextPage = rows.length > limit;
      const last = page[page.length - 1];
      return {
        signUps: page.map(signUpView),
        hasNextPage,
        nextPageCursor: hasNextPage && last ? encodeSignUpCursor({ createdOn: last.createdOn, id: last.id }) : null,
      };
    },
  });

  addRoute(kit, {
    method: 'GET',
    url: '/site-users/account/notifications/restock/groups',
    admin: true,
    handler: async (request) => {
      const limit = pageLimit(request);
      const rawCursor = cursorParam(request);
      const after = rawCursor === null ? null : decodeGroupCursor(rawCursor);
      if (rawCursor !== null && after === null) throw ERR.invalidCursor();
      const rows = await deps.store.read.listRestockGroups(after, limit + 1);
      const page = rows.slice(0, limit);
      const hasNextPage = rows.length > limit;
      const products = new Map<string, Product | null>();
      const groups = [];
      for (const group of page) {
        if (!products.has(group.productId)) products.set(group.productId, await deps.store.read.getProduct(group.productId));
        const product = products.get(group.productId) ?? null;
        const variant = product?.variants.find((candidate) => candidate.id === group.variantId) ?? null;
        groups.push({
          productId: group.productId,
          variantId: group.variantId,
          productTitle: product?.title ?? null,
          sku: variant?.sku ?? null,
          variantAttributes: variant?.attributes ?? {},
          totalCount: group.totalCount,
          pendingCount: group.pendingCount,
          latestSignUpOn: iso(group.latestSignUpOn),
          inStock: variant ? inStock(variant) : false,
        });
      }
      const last = page[page.length - 1];
      return {
        signUpGroups: groups,
        hasNextPage,
        nextPageCursor:
          hasNextPage && last
            ? encodeGroupCursor({ latestSignUpOn: last.latestSignUpOn, productId: last.productId, variantId: last.variantId })
            : null,
      };
    },
  });

  addRoute(kit, {
    method: 'POST',
    url: '/site-users/account/notifications/restock/send',
    admin: true,
    handler: async (request) => {
      const body = jsonObjectBody(request);
      return { sentCount: await sendForVariant(deps, body.productId, body.variantId) };
    },
  });

  addRoute(kit, {
    method: 'POST',
    url: '/site-users/account/notifications/restock/send/all',
    admin: true,
    handler: async (request) => {
      const body = jsonObjectBody(request);
      const requests = body.sendRequests;
      if (!Array.isArray(requests) || requests.length < 1 || requests.length > MAX_SEND_REQUESTS) {
        throw GENERIC.badRequest(`sendRequests must hold 1 to ${MAX_SEND_REQUESTS} items.`);
      }
      const results = [];
      for (const item of requests) {
        const record = typeof item === 'object' && item !== null ? (item as Record<string, unknown>) : {};
        const ids = { productId: record.productId ?? null, variantId: record.variantId ?? null };
        try {
          results.push({ ...ids, sentCount: await sendForVariant(deps, record.productId, record.variantId) });
        } catch (error) {
          const failure = error instanceof ApiError ? error : GENERIC.internal();
          if (!(error instanceof ApiError)) request.log.error({ err: error }, 'restock send failed');
          results.push({ ...ids, code: failure.code, error: failure.message });
        }
      }
      return { results };
    },
  });
}
