import { knownCurrency } from '../../../hydrate/shared/currency.ts';
import { ORDER_STATUS_PATH } from '../../../hydrate/shared/island-markup.ts';
import { decodeSignUpCursor, encodeSignUpCursor } from '../../api/cursor.ts';
import { isValidEmail } from '../../api/form-validation.ts';
import type { Order, PlacedOrder } from '../../store/types.ts';
import { ApiError } from '../../api/errors.ts';
import { downloadsOpen } from '../../orders/digital-downloads.ts';
import { resendDownloadLinksLimited } from '../../orders/owner-downloads.ts';
import { formatMoney } from '../money.ts';
import { firstString, NotFound, resolvedPage, type Json, type PageJob, type Resolved } from '../page-context.ts';
import { PAGE_TYPE } from '../page-type-numbers.ts';
import { ORDER_STATUS_TEXT, orderView } from '../page-views.ts';
import { isStorable } from '../visitor.ts';
import { pageKind } from './page-kind.ts';

// The order pages of issue 15 beside order confirmed (202, order-confirmed.ts): order received
// (207, an order paid offline and awaiting payment), subscription confirmed (206, an order with
// a subscription) and order status (211, the buyer's look-up by order number and email).
// Checkout's place answer names the first two as its confirmationUrl (renderer/orders/place-order.ts).

/** The seed's order fields of A12.5's `commerce_purchase`, for sf-context (items in the seed's shape). */
export function purchaseFields(order: Order): Json {
  return {
    id: order.id,
    purchasedCartId: order.purchasedCartId,
    websiteId: order.websiteId,
    testMode: order.testMode,
    items: order.items.map((raw) => {
      const item = (typeof raw === 'object' && raw !== null ? raw : {}) as Json;
      return { sku: item.sku ?? null, productName: item.productName ?? null, quantity: item.quantity ?? null, unitPrice: item.unitPrice ?? null };
    }),
    grandTotal: order.grandTotal,
    shippingTotal: order.shippingTotal,
    taxTotal: order.taxTotal,
  };
}

/**
 * An order of this site by id as the page's `order` (and sf-context's, which fires the purchase
 * event); an unknown id, or another site's order, is not found.
 */
export async function loadOrderPage(job: PageJob, orderId: string, pageType: number, title: string, ctx: Json): Promise<Resolved> {
  const order = orderId.length <= 200 && isStorable(orderId) ? await job.deps.store.read.getOrder(orderId) : null;
  if (!order || order.websiteId !== job.row.websiteId) throw new NotFound();
  const resolved = resolvedPage(job, pageType, null, title);
  ctx.order = orderView(order, job.currency);
  resolved.order = purchaseFields(order);
  return resolved;
}

const ORDER_ID_PAGES = {
  received: { pageType: PAGE_TYPE.orderReceived, title: 'Order Received' },
  'subscription-confirmed': { pageType: PAGE_TYPE.subscriptionConfirmed, title: 'Subscription Confirmed' },
} as const;
type OrderIdPage = keyof typeof ORDER_ID_PAGES;

/** `/commerce/orders/<orderId>/received` (207) and `/commerce/orders/<orderId>/subscription-confirmed` (206). */
export const orderReceivedPages = pageKind<{ kind: 'order-received'; orderId: string; page: OrderIdPage }>({
  name: 'order received and subscription confirmed',
  kinds: ['order-received'],
  match: (segments) => {
    const [first, second, third, fourth] = segments;
    if (segments.length !== 4 || first !== 'commerce' || second !== 'orders' || !third || !fourth || !Object.hasOwn(ORDER_ID_PAGES, fourth)) return null;
    return { kind: 'order-received', orderId: third, page: fourth as OrderIdPage };
  },
  templates: { [PAGE_TYPE.orderReceived]: ['order-received'], [PAGE_TYPE.subscriptionConfirmed]: ['subscription-confirmed'] },
  context: ['order'],
  load({ job, route, ctx }) {
    const { pageType, title } = ORDER_ID_PAGES[route.page];
    return loadOrderPage(job, route.orderId, pageType, title, ctx);
  },
});

// One address for the page and for the signed-in account block's link to it (island-markup.ts).
export { ORDER_STATUS_PATH };
export const ORDER_STATUS_MESSAGES = {
  notFound: 'We could not find an order with that number and email. Check both and try again.',
  /** Said instead of the links on an order found by number and email (never the address typed). */
  downloadsByMail: 'Your download links go to the email address you ordered with.',
  linksSent: 'We emailed your download links to the address you ordered with.',
  orderNumber: 'Enter the order number from your receipt.',
  email: 'Enter the email address you ordered with.',
} as const;

/** How many of a signed-in buyer's orders one page of "Your orders" lists. */
export const MY_ORDERS_PAGE_SIZE = 10;

/** The link to one of the buyer's own orders: its number only, shown on 211 to the account that placed it. */
export const ownOrderUrl = (orderNumber: number) => `${ORDER_STATUS_PATH}?order=${orderNumber}`;

function myOrderItem(order: PlacedOrder): Json {
  return {
    orderNumber: order.orderNumber,
    url: ownOrderUrl(order.orderNumber),
    createdOn: order.createdOn,
    statusText: ORDER_STATUS_TEXT[order.status] ?? order.status,
    grandTotalText: formatMoney(order.grandTotal, knownCurrency(order.currency)),
  };
}

/**
 * "Your orders" on 211 for a signed-in visitor: the orders their account placed (never matched
 * by email), newest first, a page at a time. `ordersAfter` is the keyset cursor of the page's
 * last order (api/cursor.ts); one this server did not issue is not an error worth a failed
 * page, so the list starts again from the newest.
 */
async function myOrders(job: PageJob, siteUserId: string, cursorText: string | null): Promise<Json> {
  const after = cursorText === null ? null : decodeSignUpCursor(cursorText);
  const rows = await job.deps.store.read.orders.listForSiteUser(job.row.websiteId, siteUserId, after, MY_ORDERS_PAGE_SIZE + 1);
  const page = rows.slice(0, MY_ORDERS_PAGE_SIZE);
  const last = page.at(-1);
  return {
    orders: page.length > 0 ? page.map(myOrderItem) : null,
    // Past the first page, a way back to the newest.
    firstUrl: after ? ORDER_STATUS_PATH : null,
    nextUrl: rows.length > MY_ORDERS_PAGE_SIZE && last ? `${ORDER_STATUS_PATH}?ordersAfter=${encodeSignUpCursor({ createdOn: last.createdOn, id: last.id })}` : null,
  };
}

/**
 * `/commerce/orders/status` (211): a form (order number, email) that POSTs to itself
 * (pages/index.ts), so the buyer's email never lands in the URL or the browser's history; the
 * answer is rendered in reply, without a redirect. With both, the order whose number and email
 * match (both must, so a number alone reveals nothing) is shown, else a message. The entered
 * values come back in the form. A GET is the empty form, whatever its query says.
 */
export const orderStatusPage = pageKind<{ kind: 'order-status' }>({
  name: 'order status',
  kinds: ['order-status'],
  match: (segments) => (segments.length === 3 && segments[0] === 'commerce' && segments[1] === 'orders' && segments[2] === 'status' ? { kind: 'order-status' } : null),
  templates: { [PAGE_TYPE.orderStatus]: ['order-status'] },
  context: ['orderStatus', 'order', 'myOrders'],
  async load({ job, ctx, query: sent }) {
    const resolved = resolvedPage(job, PAGE_TYPE.orderStatus, null, 'Order Status');
    // Only the POSTed form searches: an email in a GET's query would sit in the URL.
    const query = job.request.method === 'POST' ? sent : {};
    // A GET's own query: the page of "Your orders" (`ordersAfter`) and one of them to show (`order`).
    const linked = job.request.method === 'POST' ? {} : sent;
    const siteUserId = job.session?.siteUserId ?? null;
    ctx.myOrders = siteUserId === null ? null : await myOrders(job, siteUserId, firstString(linked.ordersAfter));
    const numberText = (firstString(query.orderNumber) ?? '').trim().replace(/^#/, '').slice(0, 20);
    const email = (firstString(query.email) ?? '').trim().slice(0, 256);
    const searched = query.orderNumber !== undefined || query.email !== undefined;
    const status: Json = { action: ORDER_STATUS_PATH, orderNumber: numberText, email, searched, found: false, message: null, orderNumberError: null, emailError: null };
    ctx.orderStatus = status;
    ctx.order = null;
    // A signed-in buyer's link to their own order shows it without the email; another
    // account's number, or any number signed out, shows the form as ever.
    const ownNumber = firstString(linked.order);
    if (!searched && siteUserId !== null && ownNumber !== null && /^\d{1,9}$/.test(ownNumber)) {
      const own = await job.deps.store.read.orders.findOwnByNumber(job.row.websiteId, siteUserId, Number(ownNumber));
      if (own) {
        status.found = true;
        ctx.order = orderView(own, job.currency);
      }
    }
    if (!searched) return resolved;
    const orderNumber = /^\d{1,9}$/.test(numberText) ? Number(numberText) : null;
    if (orderNumber === null) status.orderNumberError = ORDER_STATUS_MESSAGES.orderNumber;
    if (!isValidEmail(email)) status.emailError = ORDER_STATUS_MESSAGES.email;
    if (orderNumber === null || status.emailError) return resolved;
    const order = await job.deps.store.read.orders.findByNumber(job.row.websiteId, orderNumber, email);
    if (!order) {
      status.message = ORDER_STATUS_MESSAGES.notFound;
      return resolved;
    }
    status.found = true;
    ctx.order = lookedUpView(order, job.currency);
    if (query.sendDownloadLinks !== undefined && downloadsOpen(order)) {
      // Mailed to the order's own address; past the per-order limit, the limit's own sentence.
      try {
        await resendDownloadLinksLimited(job.deps, job.request, order.id);
        status.message = ORDER_STATUS_MESSAGES.linksSent;
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        status.message = error.message;
      }
    }
    return resolved;
  },
});

/**
 * An order found by number and email. Numbers are sequential, so the email is the only secret
 * (orderLookup bounds the guesses per address, not who guesses): the page shows the order but
 * not its download links, which are the capability to fetch the files. A button mails them to
 * the order's own address instead. A signed-in buyer's own order (`?order=`) keeps its links.
 */
function lookedUpView(order: PlacedOrder, currency: string): Json {
  const view = orderView(order, currency);
  const mailable = downloadsOpen(order);
  return { ...view, downloads: null, downloadLimitText: null, downloadsByMail: mailable ? { text: ORDER_STATUS_MESSAGES.downloadsByMail } : null };
}
