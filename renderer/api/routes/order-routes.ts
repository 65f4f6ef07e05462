import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { isValidEmail } from '../form-validation.ts';
import { NEXT_STATUSES, ORDER_ERR, orderJson, setOrderStatus } from '../../orders/order-status.ts';
import type { OrderFilter } from '../../store/order-repository.ts';
import type { OrderStatus, PlacedOrder } from '../../store/types.ts';
import { DOWNLOAD_LIMIT } from '../../orders/digital-downloads.ts';
import { resendDownloadLinksLimited, resetDownloadCount } from '../../orders/owner-downloads.ts';
import { REFUND_LINE_ID_MAX, REFUND_LINES_MAX, REFUND_REASON_MAX, refundOrder } from '../../orders/order-refund.ts';
import { adminActor } from '../../admin/owner-auth.ts';
import { requireSite } from '../context.ts';
import { decodeSignUpCursor, encodeSignUpCursor } from '../cursor.ts';
import { GENERIC } from '../errors.ts';
import { addRoute, fieldCodes, takeRateLimit, type RouteKit } from '../route-kit.ts';
import { PAGING, pageLimit, pagingCodes } from './restock-routes.ts';

// Placed orders: the owner's list (newest first, keyset pages like B11/B12), one order, its
// status changes (cancelling restocks once), and the buyer's look-up by number and email
// (order status, page type 211), which never answers the download links: those are mailed to
// the order's own address on request.

const ORDER_STATUSES = Object.keys(NEXT_STATUSES) as OrderStatus[];

/** The owner's search text: an order number (`#12`, `12`), else part of the buyer's email. */
export function orderSearch(q: string | undefined): OrderFilter {
  const text = (q ?? '').trim();
  if (text === '') return {};
  const number = /^#?\s*(\d{1,9})$/.exec(text);
  return number ? { orderNumber: Number(number[1]) } : { emailContains: text };
}

const ORDER_PARAMS = Type.Object({ orderId: Type.String({ minLength: 1, maxLength: 200 }) });

const LOOKUP_BODY = Type.Object({ orderNumber: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }), email: Type.String({ maxLength: 320 }) });

export function registerOrderRoutes(kit: RouteKit): void {
  const { deps } = kit;
  /**
   * The buyer's order by number and email, else 404. Counted before the look-up, found or not:
   * numbers are sequential and easy to guess, so the email is the only secret.
   */
  const lookUp = async (orderNumber: number, email: string, request: FastifyRequest): Promise<PlacedOrder> => {
    await takeRateLimit(deps.limiters.orderLookup, request);
    const site = await requireSite(deps);
    const order = isValidEmail(email.trim()) ? await deps.store.read.orders.findByNumber(site.websiteId, orderNumber, email) : null;
    if (!order) throw ORDER_ERR.notFound();
    return order;
  };
  /** The owner's JSON of one order, with its files' download counts. */
  const ownerJson = async (order: PlacedOrder) => orderJson(order, 'owner', order.downloadToken ? await deps.store.read.orders.downloadCounts(order.id) : {});

  addRoute(kit, {
    method: 'GET',
    url: '/commerce/orders',
    admin: true,
    schema: {
      summary: "The store's orders with lines and totals, newest first, a page at a time; `status` keeps one status, `q` an order number (`#12` or `12`) or the orders whose email contains it.",
      querystring: Type.Object({
        ...PAGING,
        status: Type.Optional(Type.Union(ORDER_STATUSES.map((status) => Type.Literal(status)))),
        q: Type.Optional(Type.String({ maxLength: 200 })),
      }),
    },
    invalid: fieldCodes({
      ...pagingCodes,
      status: () => GENERIC.badQuery(`status must be one of ${ORDER_STATUSES.join(', ')}.`),
      q: () => GENERIC.badQuery('q can be at most 200 characters.'),
    }),
    handler: async (request) => {
      const { cursor, status } = request.query;
      const limit = pageLimit(request.query.limit);
      const after = cursor === undefined ? null : decodeSignUpCursor(cursor);
      if (cursor !== undefined && after === null) throw pagingCodes.cursor();
      const site = await requireSite(deps);
      const rows = await deps.store.read.orders.list(site.websiteId, after, limit + 1, { status, ...orderSearch(request.query.q) });
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      // The digital orders' download counts, in one query for the page.
      const counts = await deps.store.read.orders.downloadCountsOf(page.filter((order) => order.downloadToken).map((order) => order.id));
      return {
        orders: page.map((order) => orderJson(order, 'owner', counts.get(order.id))),
        nextCursor: rows.length > limit && last ? encodeSignUpCursor({ createdOn: last.createdOn, id: last.id }) : null,
      };
    },
  });

  addRoute(kit, {
    method: 'GET',
    url: '/commerce/orders/:orderId',
    admin: true,
    schema: { summary: 'One order.', params: ORDER_PARAMS },
    handler: async (request) => {
      const order = await deps.store.read.orders.get(request.params.orderId);
      if (!order) throw ORDER_ERR.notFound();
      return ownerJson(order);
    },
  });

  addRoute(kit, {
    method: 'POST',
    url: '/commerce/orders/:orderId/status',
    admin: true,
    schema: {
      summary: 'Marks an order paid, fulfilled or cancelled (cancelling puts its lines back in stock, once).',
      params: ORDER_PARAMS,
      body: Type.Object({ status: Type.Union([Type.Literal('paid'), Type.Literal('fulfilled'), Type.Literal('cancelled')]) }),
    },
    invalid: fieldCodes({ status: () => GENERIC.badRequest("status must be 'paid', 'fulfilled' or 'cancelled'.") }),
    handler: async (request) => ownerJson(await setOrderStatus(deps, request.params.orderId, request.body.status)),
  });

  addRoute(kit, {
    method: 'POST',
    url: '/commerce/orders/:orderId/refunds',
    admin: true,
    schema: {
      summary:
        "Refunds all or part of what is left of a paid, fulfilled or partially refunded order through its payment provider, without cancelling it; the order answered, partially refunded or (nothing left) refunded. Returned goods: `lines` names the order's lines (`line-1` is the first of its items) and how many came back, the amount then defaults to what was paid for them (and may not pass it), and `restock` puts their physical goods back into stock with the refund, once. The same idempotencyKey again answers the first refund.",
      params: ORDER_PARAMS,
      body: Type.Object({
        amountCents: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647 })),
        idempotencyKey: Type.String({ minLength: 8, maxLength: 100, pattern: '^[A-Za-z0-9_-]+$' }),
        reason: Type.Optional(Type.String({ maxLength: REFUND_REASON_MAX })),
        lines: Type.Optional(
          Type.Array(
            Type.Object(
              {
                lineId: Type.String({ minLength: 1, maxLength: REFUND_LINE_ID_MAX, description: 'line-<n>: the nth of the order\'s items.' }),
                quantity: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
              },
              { additionalProperties: false },
            ),
            { minItems: 1, maxItems: REFUND_LINES_MAX },
          ),
        ),
        restock: Type.Optional(Type.Boolean({ description: 'Puts the physical goods of `lines` back into stock once the refund is stored.' })),
      }),
    },
    invalid: fieldCodes({
      amountCents: () => GENERIC.badRequest('amountCents must be a whole number of cents, at least 1.'),
      idempotencyKey: () => GENERIC.badRequest('idempotencyKey must be 8 to 100 letters, digits, - or _, new for each refund.'),
      reason: () => GENERIC.badRequest(`reason can be at most ${REFUND_REASON_MAX} characters.`),
      lines: () => GENERIC.badRequest(`lines must be 1 to ${REFUND_LINES_MAX} of { lineId, quantity: a whole number from 1 }.`),
      restock: () => GENERIC.badRequest('restock must be true or false.'),
    }),
    handler: async (request) => {
      const { amountCents, idempotencyKey, reason, lines, restock } = request.body;
      if (amountCents === undefined && !lines) throw GENERIC.badRequest('amountCents is required unless lines name the returned items.');
      if (restock && !lines) throw GENERIC.badRequest('restock needs lines: name the returned items to put back into stock.');
      // Each line once: two entries for one line would pass each bound alone and not together.
      if (lines && new Set(lines.map((line) => line.lineId)).size !== lines.length) throw GENERIC.badRequest('lines must name each line once.');
      const order = await refundOrder(deps, request.params.orderId, {
        amountCents,
        lines: lines?.map((line) => ({ lineId: line.lineId, quantity: line.quantity })),
        restock,
        key: idempotencyKey,
        by: adminActor(request),
        reason: reason?.trim() || null,
      });
      return ownerJson(order);
    },
  });

  addRoute(kit, {
    method: 'POST',
    url: '/commerce/orders/:orderId/downloads/reset',
    admin: true,
    schema: {
      summary: `One digital product of a paid order downloadable ${DOWNLOAD_LIMIT} times again (its count starts over); the order answered, with each file's downloads used.`,
      params: ORDER_PARAMS,
      body: Type.Object({ itemId: Type.String({ minLength: 1, maxLength: 200 }) }),
    },
    invalid: fieldCodes({ itemId: () => GENERIC.badRequest("itemId must be the id of one of the order's digital products.") }),
    handler: async (request) => {
      const { order, counts } = await resetDownloadCount(deps, request.params.orderId, request.body.itemId);
      return orderJson(order, 'owner', counts);
    },
  });

  addRoute(kit, {
    method: 'POST',
    url: '/commerce/orders/:orderId/downloads/resend',
    admin: true,
    schema: {
      summary: "Mails the buyer a paid order's download links again (with the downloads each has left), a few times an hour per order; the order answered.",
      params: ORDER_PARAMS,
    },
    handler: async (request) => {
      const { order, counts } = await resendDownloadLinksLimited(deps, request, request.params.orderId);
      return orderJson(order, 'owner', counts);
    },
  });

  addRoute(kit, {
    method: 'POST',
    url: '/commerce/order-status',
    crumb: true,
    schema: {
      summary: 'Order status (page type 211): the order with this number and email.',
      body: LOOKUP_BODY,
    },
    handler: async (request) => {
      const order = await lookUp(request.body.orderNumber, request.body.email, request);
      return { order: orderJson(order, 'buyer') };
    },
  });

  addRoute(kit, {
    method: 'POST',
    url: '/commerce/order-status/download-links',
    crumb: true,
    schema: {
      summary:
        "Mails a paid order's download links to the order's own email address (never to one sent here), for the order with this number and email; a few mails an hour per order.",
      body: LOOKUP_BODY,
    },
    handler: async (request, reply) => {
      const order = await lookUp(request.body.orderNumber, request.body.email, request);
      await resendDownloadLinksLimited(deps, request, order.id);
      return reply.code(202).send({ sent: true });
    },
  });
}
