import { Type } from '@sinclair/typebox';
import { fractionDigits, knownCurrency } from '../../hydrate/shared/currency.ts';
import { NEXT_STATUSES } from '../../hydrate/shared/order-statuses.ts';
import { addressLines } from '../../hydrate/shared/shipping-address.ts';
import { orderSearch } from '../api/routes/order-routes.ts';
import { purchasePrice } from '../api/cart-view.ts';
import { randomToken, requireSite } from '../api/context.ts';
import { readCookie } from '../api/cookies.ts';
import { decodeSignUpCursor, encodeSignUpCursor } from '../api/cursor.ts';
import { ApiError, GENERIC } from '../api/errors.ts';
import { verifiedSignIn } from '../api/sign-in-attempt.ts';
import { addRoute, fieldCodes, type RouteKit } from '../api/route-kit.ts';
import { PAGING, pageLimit, pagingCodes } from '../api/routes/restock-routes.ts';
import type { Owner } from '../store/admin-repository.ts';
import type { ModeratedReview } from '../store/review-repository.ts';
import { emailKey } from '../store/repository.ts';
import type { InventoryProductRow } from '../../hydrate/shared/inventory-rows.ts';
import type { Form, OrderStatus, PlacedOrder, Product, Variant } from '../store/types.ts';
import { itemName } from '../mail/order-receipt.ts';
import { cellText, csvRow } from './csv.ts';
import {
  API_KEY_PREFIX,
  API_KEY_SHOWN_CHARS,
  OWNER_SESSION_MS,
  checkOwnerCsrf,
  guardedOwner,
  hashSecret,
  knownDeviceNonce,
  newDeviceToken,
  OWNER_DEVICE_COOKIE,
  ownerSession,
  setOwnerCookie,
  setOwnerDeviceCookie,
} from './owner-auth.ts';

// The admin's own API under /api/admin/ (README "Admin"): owner sign-in and out, the
// inventory list, form submissions (page and CSV export), review moderation and API keys.
// Stock, restock and orders use the [admin] routes the storefront API already has.

export const INVENTORY_PAGE_SIZE = 10;
export const SUBMISSIONS_PAGE_SIZE = 20;
export const MAX_API_KEYS = 50;
const EXPORT_BATCH = 500;

const ERR = {
  missingCredentials: () => new ApiError(400, 'MISSING_CREDENTIALS', 'Email and password are required.'),
  invalidCredentials: () => new ApiError(401, 'INVALID_CREDENTIALS', 'Email or password is incorrect.'),
  formNotFound: () => new ApiError(404, 'FORM_NOT_FOUND', 'Form not found.'),
  invalidCursor: () => new ApiError(400, 'INVALID_CURSOR', 'Invalid cursor.'),
  keyName: () => new ApiError(400, 'INVALID_KEY_NAME', 'A key name of 1 to 60 characters is required.'),
  keyNotFound: () => new ApiError(404, 'API_KEY_NOT_FOUND', 'API key not found.'),
  tooManyKeys: () => new ApiError(409, 'TOO_MANY_API_KEYS', `At most ${MAX_API_KEYS} API keys.`),
  reviewNotFound: () => new ApiError(404, 'REVIEW_NOT_FOUND', 'Review not found.'),
  reviewStatus: () => GENERIC.badQuery("status must be 'pending' or 'approved'."),
};

const REVIEW_PARAMS = Type.Object({ reviewId: Type.String({ minLength: 1, maxLength: 200 }) });

export type InventorySort = 'name' | 'stock' | 'price';

export type InventoryRow = InventoryProductRow;

/** A variant's regular price when a sale lowers it; null when it sells at its regular price. */
function regularWhenOnSale(variant: Variant): number | null {
  return purchasePrice(variant) < variant.priceCents ? variant.priceCents : null;
}

export function inventoryRow(product: Product): InventoryRow {
  const unlimited = product.variants.some((variant) => variant.unlimited);
  // The cheapest variant as sold; on a tie, one at its regular price wins (no "was" shown then).
  const cheapest = product.variants.reduce<Variant | null>((best, variant) => {
    if (!best) return variant;
    const [price, bestPrice] = [purchasePrice(variant), purchasePrice(best)];
    return price < bestPrice || (price === bestPrice && regularWhenOnSale(best) !== null) ? variant : best;
  }, null);
  return {
    id: product.id,
    title: product.title,
    productType: product.productType,
    stockTotal: unlimited ? null : product.variants.reduce((sum, variant) => sum + variant.qtyInStock, 0),
    priceCents: cheapest ? purchasePrice(cheapest) : 0,
    regularPriceCents: cheapest ? regularWhenOnSale(cheapest) : null,
    variants: product.variants.map((variant) => ({
      id: variant.id,
      sku: variant.sku,
      label: Object.values(variant.attributes).join(' / '),
      priceCents: purchasePrice(variant),
      regularPriceCents: regularWhenOnSale(variant),
      qtyInStock: variant.unlimited ? 0 : variant.qtyInStock,
      unlimited: variant.unlimited,
    })),
  };
}

/** Search (title or SKU, case-insensitive), sort (ties by title, then id) and one page. */
export function inventoryPage(products: Product[], query: { q: string; sort: InventorySort; dir: 'asc' | 'desc'; page: number }) {
  const needle = query.q.trim().toLowerCase();
  const rows = products
    .filter((p) => needle === '' || p.title.toLowerCase().includes(needle) || p.variants.some((v) => v.sku.toLowerCase().includes(needle)))
    .map(inventoryRow);
  // Unlimited stock sorts above any count.
  const key = (row: InventoryRow): number | string =>
    query.sort === 'name' ? row.title.toLowerCase() : query.sort === 'price' ? row.priceCents : (row.stockTotal ?? Number.MAX_SAFE_INTEGER);
  const sign = query.dir === 'asc' ? 1 : -1;
  rows.sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    const primary = x < y ? -1 : x > y ? 1 : 0;
    return primary !== 0 ? sign * primary : a.title.localeCompare(b.title) || (a.id < b.id ? -1 : 1);
  });
  const start = (query.page - 1) * INVENTORY_PAGE_SIZE;
  return {
    products: rows.slice(start, start + INVENTORY_PAGE_SIZE),
    total: rows.length,
    page: query.page,
    nextPage: start + INVENTORY_PAGE_SIZE < rows.length ? query.page + 1 : null,
  };
}

const iso = (millis: number) => new Date(millis).toISOString();

/** A review as the moderation list shows it; the product's id stands in for a title once the product is gone. */
function moderatedReviewJson(review: ModeratedReview) {
  return {
    id: review.id,
    productId: review.productId,
    productTitle: review.productTitle ?? review.productId,
    rating: review.rating,
    name: review.name,
    text: review.text,
    status: review.status,
    createdOn: iso(review.createdOn),
  };
}

export function registerAdminRoutes(kit: RouteKit): void {
  const { deps } = kit;

  addRoute(kit, {
    method: 'POST',
    url: '/admin/session',
    schema: {
      summary: 'Admin: an owner signs in (sets the HttpOnly, SameSite=Strict owner cookie).',
      body: Type.Object({ email: Type.String({ pattern: '\\S', maxLength: 256 }), password: Type.String({ minLength: 1, maxLength: 1024 }) }),
    },
    invalid: fieldCodes({ email: ERR.missingCredentials, password: ERR.missingCredentials }),
    handler: async (request, reply) => {
      const { email, password } = request.body;
      // The same windows as visitors' sign-ins, under their own key: per email and per address;
      // a browser the owner has signed in with counts apart from the email (OWNER_DEVICE_COOKIE).
      const device = readCookie(request, OWNER_DEVICE_COOKIE);
      const subject = (found: Owner | null): string => {
        const nonce = knownDeviceNonce(device, found);
        return nonce === null ? `owner:${emailKey(email)}` : `owner-device:${nonce}`;
      };
      const owner = await verifiedSignIn(deps, request, subject, password, () => deps.store.read.admin.getOwnerByEmail(email), ERR.invalidCredentials);
      if (knownDeviceNonce(device, owner) === null) setOwnerDeviceCookie(request, reply, newDeviceToken(owner), `${kit.prefix}/admin/session`);
      const now = deps.now();
      const secret = randomToken();
      const csrfToken = randomToken();
      await deps.store.read.admin.insertSession({ idHash: hashSecret(secret), ownerId: owner.id, csrfToken, createdAt: now, expiresAt: now + OWNER_SESSION_MS });
      setOwnerCookie(request, reply, secret, OWNER_SESSION_MS / 1000);
      return { owner: { email: owner.email }, csrfToken };
    },
  });

  addRoute(kit, {
    method: 'GET',
    url: '/admin/session',
    // Signed out is an answer, not an error: the admin app asks on every load.
    schema: { summary: 'Admin: the signed-in owner and the CSRF token of the session (both null when signed out).' },
    handler: async (request) => {
      const session = await ownerSession(deps, request);
      if (!session) return { owner: null, csrfToken: null };
      return { owner: { email: session.email }, csrfToken: session.csrfToken };
    },
  });

  addRoute(kit, {
    method: 'DELETE',
    url: '/admin/session',
    schema: { summary: 'Admin: sign out (needs the CSRF header while signed in).' },
    handler: async (request, reply) => {
      const session = await ownerSession(deps, request);
      if (session) {
        checkOwnerCsrf(request, session);
        await deps.store.read.admin.deleteSession(session.idHash, deps.now());
      }
      setOwnerCookie(request, reply, '', 0);
      return { signedOut: true };
    },
  });

  addRoute(kit, {
    method: 'GET',
    url: '/admin/inventory',
    admin: true,
    schema: {
      summary: 'Admin: products with their variants, searched, sorted and a page at a time.',
      querystring: Type.Object({
        q: Type.Optional(Type.String({ maxLength: 200 })),
        sort: Type.Optional(Type.Union([Type.Literal('name'), Type.Literal('stock'), Type.Literal('price')])),
        dir: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
        page: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,5}$' })),
      }),
    },
    handler: async (request) => {
      const { q = '', sort = 'name', dir = 'asc', page = '1' } = request.query;
      const site = await deps.store.read.getSite();
      return { ...inventoryPage(await deps.store.read.listProducts(), { q, sort, dir, page: Number(page) }), currency: site?.settings.currency ?? 'USD' };
    },
  });

  const formQuery = Type.Object({
    formId: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    cursor: Type.Optional(Type.String({ maxLength: 1024 })),
  });

  addRoute(kit, {
    method: 'GET',
    url: '/admin/submissions',
    admin: true,
    schema: { summary: "Admin: the forms, and one form's submissions a page at a time (newest first).", querystring: formQuery },
    invalid: fieldCodes({ cursor: ERR.invalidCursor }),
    handler: async (request) => {
      const forms = await deps.store.read.listForms();
      const formId = request.query.formId ?? forms[0]?.id;
      const form = forms.find((candidate) => candidate.id === formId);
      const formList = forms.map((candidate) => ({ id: candidate.id, name: candidate.name }));
      if (formId === undefined) return { forms: formList, form: null, submissions: [], nextPageCursor: null };
      if (!form) throw ERR.formNotFound();
      const after = request.query.cursor === undefined ? null : decodeSignUpCursor(request.query.cursor);
      if (request.query.cursor !== undefined && after === null) throw ERR.invalidCursor();
      const rows = await deps.store.read.admin.listSubmissionsPage(form.id, SUBMISSIONS_PAGE_SIZE + 1, after);
      const page = rows.slice(0, SUBMISSIONS_PAGE_SIZE);
      const last = page[page.length - 1];
      return {
        forms: formList,
        form: { id: form.id, name: form.name, fields: exportedFields(form.fields) },
        submissions: page.map((row) => ({
          id: row.id,
          createdOn: iso(row.createdOn),
          pagePath: row.pagePath,
          values: Object.fromEntries(exportedFields(form.fields).map((field) => [field.id, cellText(row.values[field.id])])),
        })),
        nextPageCursor: rows.length > SUBMISSIONS_PAGE_SIZE && last ? encodeSignUpCursor({ createdOn: last.createdOn, id: last.id }) : null,
      };
    },
  });

  addRoute(kit, {
    method: 'GET',
    url: '/admin/submissions/export',
    admin: true,
    schema: { summary: "Admin: every submission of one form as CSV (a download).", querystring: Type.Object({ formId: Type.String({ minLength: 1, maxLength: 200 }) }) },
    handler: async (request, reply) => {
      const form = await deps.store.read.getForm(request.query.formId);
      if (!form) throw ERR.formNotFound();
      const fields = exportedFields(form.fields);
      // A byte-order mark first: Excel opens a CSV without one in the machine's code page, and
      // a visitor's `Zoë` or `山田` came out garbled; the other spreadsheets read past it.
      let csv = '\uFEFF' + csvRow(['Submitted on', 'Page', ...fields.map((field) => field.title)]);
      // Read in keyset batches, so no single query holds the whole table.
      let after: { createdOn: number; id: string } | null = null;
      for (;;) {
        const rows = await deps.store.read.admin.listSubmissionsPage(form.id, EXPORT_BATCH, after);
        for (const row of rows) csv += csvRow([iso(row.createdOn), row.pagePath, ...fields.map((field) => cellText(row.values[field.id]))]);
        const last = rows[rows.length - 1];
        if (rows.length < EXPORT_BATCH || !last) break;
        after = { createdOn: last.createdOn, id: last.id };
      }
      const fileName = `${form.id.replace(/[^A-Za-z0-9_-]/g, '_')}-submissions.csv`;
      return reply
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .type('text/csv; charset=utf-8')
        .send(csv);
    },
  });

  addRoute(kit, {
    method: 'GET',
    url: '/admin/orders/export',
    admin: true,
    schema: {
      summary: "Admin: the store's orders as CSV (a download), newest first, narrowed as the orders list is (`status`, `q`).",
      querystring: Type.Object({
        status: Type.Optional(Type.Union(ORDER_STATUSES.map((status) => Type.Literal(status)))),
        q: Type.Optional(Type.String({ maxLength: 200 })),
      }),
    },
    invalid: fieldCodes({
      status: () => GENERIC.badQuery(`status must be one of ${ORDER_STATUSES.join(', ')}.`),
      q: () => GENERIC.badQuery('q can be at most 200 characters.'),
    }),
    handler: async (request, reply) => {
      const site = await requireSite(deps);
      const filter = { status: request.query.status, ...orderSearch(request.query.q) };
      // A byte-order mark first, as the submissions export: Excel reads a buyer's `山田` or `Zoë` right.
      let csv = '\uFEFF' + csvRow(ORDER_EXPORT_COLUMNS);
      let after: { createdOn: number; id: string } | null = null;
      for (;;) {
        const rows = await deps.store.read.orders.list(site.websiteId, after, EXPORT_BATCH, filter);
        for (const order of rows) csv += csvRow(orderExportRow(order));
        const last = rows[rows.length - 1];
        if (rows.length < EXPORT_BATCH || !last) break;
        after = { createdOn: last.createdOn, id: last.id };
      }
      return reply
        .header('cache-control', 'no-store')
        .header('content-disposition', 'attachment; filename="orders.csv"')
        .type('text/csv; charset=utf-8')
        .send(csv);
    },
  });

  addRoute(kit, {
    method: 'GET',
    url: '/admin/reviews',
    admin: true,
    schema: {
      summary: "Admin: the site's product reviews of one status (pending by default), newest first, a page at a time, each with its product's title.",
      querystring: Type.Object({ status: Type.Optional(Type.Union([Type.Literal('pending'), Type.Literal('approved')])), ...PAGING }),
    },
    invalid: fieldCodes({ status: ERR.reviewStatus, ...pagingCodes }),
    handler: async (request) => {
      const { status = 'pending', cursor } = request.query;
      const limit = pageLimit(request.query.limit);
      const after = cursor === undefined ? null : decodeSignUpCursor(cursor);
      if (cursor !== undefined && after === null) throw pagingCodes.cursor();
      const site = await requireSite(deps);
      const rows = await deps.store.read.reviews.listForSite(site.websiteId, status, after, limit + 1);
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      return {
        reviews: page.map(moderatedReviewJson),
        nextCursor: rows.length > limit && last ? encodeSignUpCursor({ createdOn: last.createdOn, id: last.id }) : null,
      };
    },
  });

  addRoute(kit, {
    method: 'POST',
    url: '/admin/reviews/:reviewId/approve',
    admin: true,
    schema: { summary: 'Admin: approve a product review, which then shows on its product page and the reviews request page (209).', params: REVIEW_PARAMS },
    handler: async (request) => {
      const site = await requireSite(deps);
      // In a transaction, as every write that changes a page: it drops the read cache (store/read-cache.ts).
      if (!(await deps.store.transaction((repo) => repo.reviews.approve(site.websiteId, request.params.reviewId)))) throw ERR.reviewNotFound();
      return { approved: true };
    },
  });

  addRoute(kit, {
    method: 'DELETE',
    url: '/admin/reviews/:reviewId',
    admin: true,
    schema: { summary: 'Admin: delete a product review, pending or approved.', params: REVIEW_PARAMS },
    handler: async (request) => {
      const site = await requireSite(deps);
      if (!(await deps.store.transaction((repo) => repo.reviews.delete(site.websiteId, request.params.reviewId)))) throw ERR.reviewNotFound();
      return { deleted: true };
    },
  });

  addRoute(kit, {
    method: 'GET',
    url: '/admin/api-keys',
    admin: true,
    schema: { summary: 'Admin (owner session): the API keys, without their secrets.' },
    handler: async (request) => {
      guardedOwner(request);
      const keys = await deps.store.read.admin.listApiKeys();
      return { apiKeys: keys.map((key) => ({ ...key, createdAt: iso(key.createdAt), lastUsedAt: key.lastUsedAt === null ? null : iso(key.lastUsedAt) })) };
    },
  });

  addRoute(kit, {
    method: 'POST',
    url: '/admin/api-keys',
    admin: true,
    schema: {
      summary: 'Admin (owner session): create an API key; its secret is in this answer only.',
      body: Type.Object({ name: Type.String({ pattern: '\\S', maxLength: 60 }) }),
    },
    invalid: fieldCodes({ name: ERR.keyName }),
    handler: async (request) => {
      const owner = guardedOwner(request);
      if ((await deps.store.read.admin.countApiKeys()) >= MAX_API_KEYS) throw ERR.tooManyKeys();
      const secret = `${API_KEY_PREFIX}${randomToken()}`;
      const key = {
        id: deps.newId('key'),
        name: request.body.name.trim(),
        prefix: secret.slice(0, API_KEY_SHOWN_CHARS),
        createdBy: owner.ownerId,
        createdAt: deps.now(),
        lastUsedAt: null,
      };
      await deps.store.read.admin.insertApiKey({ ...key, keyHash: hashSecret(secret) });
      return { apiKey: { ...key, createdAt: iso(key.createdAt) }, secret };
    },
  });

  addRoute(kit, {
    method: 'DELETE',
    url: '/admin/api-keys/:keyId',
    admin: true,
    schema: { summary: 'Admin (owner session): delete an API key.', params: Type.Object({ keyId: Type.String({ minLength: 1, maxLength: 200 }) }) },
    handler: async (request) => {
      guardedOwner(request);
      if (!(await deps.store.read.admin.deleteApiKey(request.params.keyId))) throw ERR.keyNotFound();
      return { deleted: true };
    },
  });
}

const ORDER_STATUSES = Object.keys(NEXT_STATUSES) as OrderStatus[];

export const ORDER_EXPORT_COLUMNS = [
  'Order', 'Placed on', 'Email', 'Status', 'Currency', 'Subtotal', 'Discount', 'Shipping', 'Tax', 'Total', 'Payment', 'Refund', 'Ships to', 'Items',
];

/** An amount as a spreadsheet reads a number: major units, the currency's decimals, no symbol. */
function amount(cents: number, currency: string): string {
  const digits = fractionDigits(currency);
  return (cents / 10 ** digits).toFixed(digits);
}

/** One order as a row of the orders export (the cells are defused by csvRow). */
export function orderExportRow(order: PlacedOrder): string[] {
  const money = (cents: number) => amount(cents, order.currency);
  const refund = order.refund
    ? order.refund.kind === 'refunded'
      ? `Refunded ${money(order.refund.amountCents)} to ${order.refund.label}${order.refund.reference ? ` (${order.refund.reference})` : ''}`
      : `To pay back by hand: ${money(order.refund.amountCents)}`
    : '';
  // The owner's refunds without a cancel (orders/order-refund.ts), each with its date, oldest first.
  const refunds = (order.refunds ?? []).map((entry) =>
    entry.kind === 'refunded'
      ? `Refunded ${money(entry.amountCents)} to ${entry.label} on ${iso(entry.on)}${entry.reference ? ` (${entry.reference})` : ''}`
      : `To pay back by hand: ${money(entry.amountCents)} (${iso(entry.on)})`,
  );
  return [
    `#${order.orderNumber}${order.testMode ? ' (test)' : ''}`,
    iso(order.createdOn),
    order.email,
    order.status,
    order.currency,
    money(order.subtotal),
    money(order.discountTotal),
    money(order.shippingTotal),
    money(order.taxTotal),
    money(order.grandTotal),
    order.payment.label,
    [refund, ...refunds].filter((text) => text !== '').join('; '),
    addressLines(order.shippingAddress).join(', '),
    order.items.map((item) => `${item.quantity} × ${itemName(item)}`).join('; '),
  ];
}

/** The fields a submission has values for (sections hold none). */
function exportedFields(fields: Form['fields']) {
  return fields
    .filter((field) => typeof field.id === 'string' && field.type !== 'section')
    .map((field) => ({ id: field.id, title: typeof field.title === 'string' ? field.title : field.id }));
}
