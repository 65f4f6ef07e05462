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

/**
 * One line of an owner's refund of returned goods: which line of the order (`line-<n>`, its
 * 1-based place in `items`, which never change once placed) and how many of it.
 */
export interface RefundLine {
  lineId: string;
  quantity: number;
}

/** What the refund of lines needs of an order (the server's order, or its owner JSON in the admin). */
export interface RefundableLines {
  items: readonly { quantity: number; unitPrice: number; productType: number }[];
  subtotal: number;
  grandTotal: number;
  shippingTotal: number;
  refunds?: readonly { lines?: readonly RefundLine[] | null }[] | null;
}

/** The id of the order's line at `index` in `items`. */
export const lineIdOf = (index: number): string => `line-${index + 1}`;

/** The index in `items` of a line id, or -1 for an id the order has no line for. */
export function lineIndexOf(order: { items: readonly unknown[] }, lineId: string): number {
  const match = /^line-([1-9]\d{0,5})$/.exec(lineId);
  const index = match ? Number(match[1]) - 1 : -1;
  return index < order.items.length ? index : -1;
}

/**
 * What a returned line gives back to stock: physical goods, and a service's seats (STOREFRONT.md
 * counts a service's stock as a physical product's, sold out when none is left, and a cancel
 * frees them; a refunded seat of the Print Workshop is one to sell again). A digital file or a
 * gift card has no stock to return.
 */
export const restockable = (item: { productType: number }): boolean => item.productType === 1 || item.productType === 3;

/** How many of each line the owner's refunds so far gave back, by line id. */
export function refundedQuantities(order: Pick<RefundableLines, 'refunds'>): Map<string, number> {
  const given = new Map<string, number>();
  for (const refund of order.refunds ?? []) for (const line of refund.lines ?? []) given.set(line.lineId, (given.get(line.lineId) ?? 0) + line.quantity);
  return given;
}

/**
 * What the buyer paid for these lines: their share, by list price, of what the goods came to
 * (the grand total less shipping, so a coupon's discount and the goods' tax are shared out as
 * they were charged), rounded down. A refund of lines defaults to it and may not pass it.
 */
export function linesPaidCents(order: RefundableLines, lines: readonly RefundLine[]): number {
  if (order.subtotal <= 0) return 0;
  let listed = 0n;
  for (const line of lines) {
    const item = order.items[lineIndexOf(order, line.lineId)];
    if (item) listed += BigInt(item.unitPrice) * BigInt(line.quantity);
  }
  const goods = BigInt(Math.max(0, order.grandTotal - order.shippingTotal));
  return Number((listed * goods) / BigInt(order.subtotal));
}
