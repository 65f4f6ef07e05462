import { isValidEmail } from '../../api/form-validation.ts';
import type { Order } from '../../store/types.ts';
import { firstString, NotFound, resolvedPage, type Json, type PageJob, type Resolved } from '../page-context.ts';
import { PAGE_TYPE } from '../page-type-numbers.ts';
import { orderView } from '../page-views.ts';
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

export const ORDER_STATUS_PATH = '/commerce/orders/status';
export const ORDER_STATUS_MESSAGES = {
  notFound: 'We could not find an order with that number and email. Check both and try again.',
  orderNumber: 'Enter the order number from your receipt.',
  email: 'Enter the email address you ordered with.',
} as const;

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
  context: ['orderStatus', 'order'],
  async load({ job, ctx, query: sent }) {
    const resolved = resolvedPage(job, PAGE_TYPE.orderStatus, null, 'Order Status');
    // Only the POSTed form searches: an email in a GET's query would sit in the URL.
    const query = job.request.method === 'POST' ? sent : {};
    const numberText = (firstString(query.orderNumber) ?? '').trim().replace(/^#/, '').slice(0, 20);
    const email = (firstString(query.email) ?? '').trim().slice(0, 256);
    const searched = query.orderNumber !== undefined || query.email !== undefined;
    const status: Json = { action: ORDER_STATUS_PATH, orderNumber: numberText, email, searched, found: false, message: null, orderNumberError: null, emailError: null };
    ctx.orderStatus = status;
    ctx.order = null;
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
    ctx.order = orderView(order, job.currency);
    return resolved;
  },
});
