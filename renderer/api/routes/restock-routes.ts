import { Type } from '@sinclair/typebox';
import { joinMailingList, welcomeAfterAnswer } from '../../mail/newsletter-welcome.ts';
import { enqueueMail } from '../../mail/outbox-worker.ts';
import { restockNoticeMail } from '../../mail/restock-notice.ts';
import type { Product, RestockSignUp, Variant } from '../../store/types.ts';
import { verifyCaptchaToken } from '../captcha.ts';
import { mailOrigin, requireSite, type ApiDeps } from '../context.ts';
import { decodeGroupCursor, decodeSignUpCursor, encodeGroupCursor, encodeSignUpCursor } from '../cursor.ts';
import { ApiError, GENERIC } from '../errors.ts';
import { isValidEmail } from '../form-validation.ts';
import { addRoute, checkedInHandler, fieldCodes, isNonEmptyString, takeRateLimit, type RouteKit } from '../route-kit.ts';

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

// B11/B12 query: `limit` is 1 to 100 written in at most three digits ("007" is 7); a
// repeated parameter arrives as an array and fails its string schema.
export const PAGING = {
  limit: Type.Optional(Type.String({ pattern: `^(?=\\d{1,3}$)0*(?:100|[1-9]\\d?)$` })),
  cursor: Type.Optional(Type.String({ description: 'nextPageCursor of the previous page.' })),
};
export const pagingCodes = {
  limit: () => GENERIC.badQuery(`limit must be between 1 and ${MAX_PAGE_SIZE}.`),
  cursor: ERR.invalidCursor,
};
export const pageLimit = (limit: string | undefined) => (limit === undefined ? DEFAULT_PAGE_SIZE : Number(limit));

// B10 and B13 answer an unknown product (404) first: a productId that is not a string is
// one. Every later field is checked after the product lookup, in the table's order.
const afterLookup = (schema: Parameters<typeof checkedInHandler>[0]) =>
  checkedInHandler(schema, 'Checked in the handler, after the product lookup.');
const productIdCodes = fieldCodes({ productId: ERR.productNotFound });

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
  const site = deps.publicSite?.();
  const path = site?.productPath?.(product);
  const mail = restockNoticeMail(product.title, {
    variantLabel: Object.values(variant.attributes ?? {}).join(' / '),
    productUrl: path ? `${mailOrigin(deps).replace(/\/+$/, '')}${path}` : null,
    shop: site?.title,
  });
  return deps.store.transaction(async (repo) => {
    const now = deps.now();
    const notified = await repo.markRestockNotified(product.id, variant.id, now);
    for (const signUp of notified) {
      // Delivered by the outbox worker (mail/outbox-worker.ts) once this transaction commits.
      await enqueueMail(repo, {
        id: deps.newId('m'),
        to: signUp.siteVisitorEmail,
        ...mail,
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
    schema: {
      summary: 'B10: sign up for a restock email.',
      body: Type.Object({
        productId: Type.String(),
        variantId: afterLookup(Type.String()),
        siteVisitorEmail: afterLookup(Type.String()),
        isJoinMailingList: Type.Optional(afterLookup(Type.Boolean())),
        captchaToken: Type.Optional(afterLookup(Type.String())),
      }),
    },
    invalid: productIdCodes,
    handler: async (request) => {
      const body = request.body;
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

      const joinsList = body.isJoinMailingList === true;
      const now = deps.now();
      let job: string | null = null;
      const signUp = await deps.store.transaction(async (repo) => {
        const stored = await repo.addRestockSignUp({
          id: deps.newId('r'),
          productId: product.id,
          variantId: variant.id,
          siteVisitorEmail: email,
          isJoinMailingList: joinsList,
          createdOn: now,
          notifiedOn: null,
        });
        // Joining the list from the restock box is joining it: the same welcome and unsubscribe link.
        job = joinsList ? await joinMailingList(deps, repo, { email, source: 'restock', now }) : null;
        return stored;
      });
      // After the answer: its timing must not say whether the address was already subscribed.
      if (job !== null) welcomeAfterAnswer(deps, request.log, job);
      return {
        signUp: { id: signUp.id, productId: signUp.productId, variantId: signUp.variantId, createdOn: iso(signUp.createdOn) },
      };
    },
  });

  addRoute(kit, {
    method: 'GET',
    url: '/site-users/account/notifications/restock',
    admin: true,
    schema: {
      summary: 'B11: the sign-ups of one variant, a page at a time.',
      querystring: Type.Object({ productId: Type.String({ minLength: 1 }), variantId: Type.String({ minLength: 1 }), ...PAGING }),
    },
    invalid: fieldCodes({
      productId: () => GENERIC.badQuery('productId and variantId are required.'),
      variantId: () => GENERIC.badQuery('productId and variantId are required.'),
      ...pagingCodes,
    }),
    handler: async (request) => {
      const { productId, variantId, cursor } = request.query;
      const limit = pageLimit(request.query.limit);
      const after = cursor === undefined ? null : decodeSignUpCursor(cursor);
      if (cursor !== undefined && after === null) throw ERR.invalidCursor();
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
    schema: { summary: 'B12: sign-ups grouped by variant, a page at a time.', querystring: Type.Object(PAGING) },
    invalid: fieldCodes(pagingCodes),
    handler: async (request) => {
      const { cursor } = request.query;
      const limit = pageLimit(request.query.limit);
      const after = cursor === undefined ? null : decodeGroupCursor(cursor);
      if (cursor !== undefined && after === null) throw ERR.invalidCursor();
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
    schema: {
      summary: 'B13: send the restock emails of one variant.',
      body: Type.Object({ productId: Type.String(), variantId: afterLookup(Type.String()) }),
    },
    invalid: productIdCodes,
    handler: async (request) => {
      const body = request.body;
      return { sentCount: await sendForVariant(deps, body.productId, body.variantId) };
    },
  });

  addRoute(kit, {
    method: 'POST',
    url: '/site-users/account/notifications/restock/send/all',
    admin: true,
    schema: {
      summary: 'B14: B13 for each item; one failing item does not stop the others.',
      body: Type.Object({
        sendRequests: Type.Array(
          checkedInHandler(Type.Object({ productId: Type.String(), variantId: Type.String() }), 'Each item is checked as B13, its failure reported in its result.'),
          { minItems: 1, maxItems: MAX_SEND_REQUESTS },
        ),
      }),
    },
    invalid: () => GENERIC.badRequest(`sendRequests must hold 1 to ${MAX_SEND_REQUESTS} items.`),
    handler: async (request) => {
      const requests = request.body.sendRequests;
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
