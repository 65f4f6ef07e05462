/**
 * An order's statuses and the moves an owner may make between them: one table for the server,
 * which refuses any other move (409 INVALID_ORDER_STATUS, renderer/orders/order-status.ts),
 * and the admin's orders panel, which offers only these (it listed every other status, so a
 * fulfilled order offered "Paid" and the owner met the 409).
 *
 * `partially-refunded` and `refunded` are reached only by a refund (POST …/refunds,
 * renderer/orders/order-refund.ts), never by a status change: part of the money given back
 * (a returned item, a line that could not be sent), or all of it.
 */
export type OrderStatus = 'awaiting-payment' | 'paid' | 'fulfilled' | 'partially-refunded' | 'refunded' | 'cancelled';

/** The statuses an owner may move an order to, from each status. Cancelling restocks the lines, once. */
export const NEXT_STATUSES: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  'awaiting-payment': ['paid', 'cancelled'],
  paid: ['fulfilled', 'cancelled'],
  fulfilled: [],
  // The rest of a partly refunded order may still be sent (the refunded line was out of stock).
  // No cancel: it would restock lines that may have left, and refund a total already partly given back.
  'partially-refunded': ['fulfilled'],
  refunded: [],
  cancelled: [],
};

/** The statuses whose money may be given back, in full or in part: paid, sent, or already partly refunded. */
export const REFUNDABLE_STATUSES: readonly OrderStatus[] = ['paid', 'fulfilled', 'partially-refunded'];

/** How each status reads, for the owner (admin list, filter, CSV) and the buyer (order pages, mails). */
export const ORDER_STATUS_LABELS: Readonly<Record<OrderStatus, string>> = {
  'awaiting-payment': 'Awaiting payment',
  paid: 'Paid',
  fulfilled: 'Fulfilled',
  'partially-refunded': 'Partially refunded',
  refunded: 'Refunded',
  cancelled: 'Cancelled',
};

/** What an order's money came to, as far as refunds go (the server's order, or its JSON in the admin). */
export interface RefundedMoney {
  status: OrderStatus;
  grandTotal: number;
  /** The owner's refunds without a cancel. */
  refunds?: readonly { amountCents: number }[] | null;
  /** A cancel's refund. */
  refund?: { amountCents: number } | null;
}

/** Cents given back so far: the owner's refunds, and a cancel's. */
export function refundedCents(order: RefundedMoney): number {
  return (order.refunds ?? []).reduce((sum, refund) => sum + refund.amountCents, 0) + (order.refund?.amountCents ?? 0);
}

/** Cents that may still be refunded: the rest of the total of a paid, sent or partly refunded order; 0 otherwise. */
export function refundableCents(order: RefundedMoney): number {
  if (!REFUNDABLE_STATUSES.includes(order.status) || order.grandTotal <= 0) return 0;
  return Math.max(0, order.grandTotal - refundedCents(order));
}
