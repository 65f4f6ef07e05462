import { mailOrigin, type ApiDeps } from '../api/context.ts';
import { ApiError } from '../api/errors.ts';
import { enqueueMail } from '../mail/outbox-worker.ts';
import { orderRefundedMail } from '../mail/order-refunded.ts';
import { formatMoney } from '../pages/money.ts';
import type { Repository } from '../store/repository.ts';
import type { OwnerRefund, PlacedOrder, RefundClaim } from '../store/types.ts';
import { lineIndexOf, linesPaidCents, refundableCents, refundedCents, refundedQuantities, restockable, type RefundLine } from '../../hydrate/shared/order-statuses.ts';
import { commerceRules } from './checkout.ts';
import { ORDER_ERR, REFUND_CLAIM_MS, askRefund, settleRefund } from './order-status.ts';
import { providerOf } from './payment-providers.ts';

// The owner's refund of a paid or sent order without cancelling it: all of what is left, or part
// of it (a returned item, a line that could not be sent). README.md here, "Refunds".

/** The longest note an owner keeps with a refund. */
export const REFUND_REASON_MAX = 500;
/** The most returned lines one refund names, and the longest line id read (`line-` and a place). */
export const REFUND_LINES_MAX = 200;
export const REFUND_LINE_ID_MAX = 40;

export const REFUND_ERR = {
  /** Awaiting payment: nothing came in to give back. */
  notPaid: (orderNumber: number) =>
    new ApiError(409, 'ORDER_NOT_PAID', `Order #${orderNumber} is not paid yet, so nothing can be refunded. Cancel it instead.`),
  /** Cancelled, refunded in full, or free: no money is left on it. */
  nothingLeft: (orderNumber: number) => new ApiError(409, 'NOTHING_TO_REFUND', `Nothing is left to refund on order #${orderNumber}.`),
  /** More than what is left of the total after the refunds already given. */
  tooLarge: (left: string) => new ApiError(422, 'REFUND_TOO_LARGE', `At most ${left} is left to refund on this order.`),
  failed: (why: string) => new ApiError(502, 'REFUND_FAILED', `The refund failed, so nothing was refunded: ${why}`),
  /** More than was paid for the returned lines named (the owner may only lower their price). */
  overLines: (paid: string) => new ApiError(422, 'REFUND_TOO_LARGE', `At most ${paid} was paid for those items.`),
  /** Returned lines that were free: there is no money to give back for them. */
  linesFree: (orderNumber: number) => new ApiError(409, 'NOTHING_TO_REFUND', `Nothing was paid for those items of order #${orderNumber}, so nothing can be refunded.`),
  /** A line id the order has no line for. */
  lineNotFound: (orderNumber: number, lineId: string) =>
    // Only an id of the `line-<n>` shape is repeated back, never other text sent.
    new ApiError(422, 'REFUND_LINE_NOT_FOUND', `Order #${orderNumber} has no line ${/^line-\d{1,6}$/.test(lineId) ? lineId : 'with that id'}.`),
  /** More of a line than was bought, less what earlier refunds gave back. */
  quantityTooLarge: (left: number, name: string, lineId: string) =>
    new ApiError(
      422,
      'REFUND_QUANTITY_TOO_LARGE',
      left === 0 ? `${name} (${lineId}) is already refunded in full.` : `At most ${left} of ${name} (${lineId}) ${left === 1 ? 'is' : 'are'} left to refund.`,
    ),
};

export interface RefundRequest {
  /** Cents to give back; absent with `lines`, which then default it to what was paid for them. */
  amountCents?: number;
  /** Returned lines, each named once (the route checks that). */
  lines?: RefundLine[];
  /** Puts the stock of `lines` back (goods, a service's seats) once the refund is stored. */
  restock?: boolean;
  /** The request's idempotency key: the same key again answers the first refund. */
  key: string;
  /** Who asks (the owner's email, or "API"). */
  by: string;
  reason: string | null;
}

type Deps = Pick<ApiDeps, 'store' | 'now' | 'newId' | 'publicSite' | 'origin'>;

/** The provider's idempotency key of one owner's refund: its order and the request's key. */
export const ownerRefundKey = (orderId: string, key: string) => `refund-${orderId}-${key}`;

/**
 * Refunds `amountCents` of the order, in the cancel's three steps (order-status.ts): a short
 * transaction locks the row, checks the amount against what is left and writes a refund claim
 * (another request meanwhile: 409 REFUND_PENDING); the provider is asked outside any
 * transaction with the key `refund-<orderId>-<request key>`; a second transaction stores the
 * refund, the status (refunded when nothing is left, else partially refunded), the books' row
 * and the buyer's mail. The same request key again answers the order as it is: no second refund.
 */
export async function refundOrder(deps: Deps, orderId: string, request: RefundRequest): Promise<PlacedOrder> {
  if (orderId.length > 200) throw ORDER_ERR.notFound();
  const money = (order: PlacedOrder, cents: number) => formatMoney(cents, order.currency);
  const first = await deps.store.transaction(async (repo) => {
    const order = await repo.orders.get(orderId, { lock: true });
    if (!order) throw ORDER_ERR.notFound();
    // A retry of a refund already stored (a double press after the answer, a lost response).
    if (order.refunds?.some((refund) => refund.key === request.key)) return { done: order };
    const claim = order.refundClaim;
    if (claim && claim.until > deps.now()) throw ORDER_ERR.refundUnderWay();
    if (claim && !claim.key) throw ORDER_ERR.cancelRefundUnfinished();
    const lines = request.lines?.length ? request.lines : undefined;
    const linesPaid = lines ? checkLines(order, lines) : null;
    const amountCents = request.amountCents ?? Math.min(linesPaid ?? 0, refundableCents(order));
    const restock = Boolean(lines && request.restock);
    // An unsettled refund asked again the same (amount, lines, restock choice) is finished with
    // its own provider key (the provider answers the first refund); any other refund waits for it.
    const sameAsClaim = claim && claim.amountCents === amountCents && JSON.stringify(claim.lines ?? null) === JSON.stringify(lines ?? null) && Boolean(claim.restock) === restock;
    if (claim && !sameAsClaim) throw ORDER_ERR.refundUnfinished(money(order, claim.amountCents ?? 0));
    const key = claim?.key ?? request.key;
    if (order.status === 'awaiting-payment') throw REFUND_ERR.notPaid(order.orderNumber);
    const left = refundableCents(order);
    if (left <= 0) throw REFUND_ERR.nothingLeft(order.orderNumber);
    if (linesPaid !== null && linesPaid <= 0) throw REFUND_ERR.linesFree(order.orderNumber);
    if (amountCents > left) throw REFUND_ERR.tooLarge(money(order, left));
    if (linesPaid !== null && amountCents > linesPaid) throw REFUND_ERR.overLines(money(order, linesPaid));
    const provider = providerOf(order.payment.provider);
    if (!provider) throw REFUND_ERR.failed(`the payment provider "${order.payment.provider}" is not available on this server.`);
    const mine: RefundClaim & { key: string; amountCents: number } = {
      id: deps.newId('rc'),
      until: deps.now() + REFUND_CLAIM_MS,
      key,
      amountCents,
      ...(lines ? { lines, restock } : {}),
    };
    await repo.orders.update({ ...order, refundClaim: mine });
    return { claimed: { order, provider, claim: mine } };
  });
  if (first.done) return first.done;
  const { order: asked, provider, claim } = first.claimed;

  const answer = await askRefund(asked, provider, claim.amountCents, ownerRefundKey(asked.id, claim.key));

  return settleRefund(deps, orderId, claim, answer, REFUND_ERR.failed, async (repo, order, outcome) => {
    // Another request, after this claim had lapsed, asked with the same key and stored the same refund.
    if (order.refunds?.some((refund) => refund.key === claim.key)) return order;
    const refund: OwnerRefund = {
      kind: outcome.kind,
      amountCents: claim.amountCents,
      reference: outcome.kind === 'refunded' ? outcome.refundReference : null,
      label: asked.payment.label,
      on: deps.now(),
      key: claim.key,
      by: request.by,
      reason: request.reason,
      ...(claim.lines ? { lines: claim.lines, restocked: Boolean(claim.restock) && claim.lines.some((line) => restockableLine(order, line)) } : {}),
    };
    return storeRefund(repo, deps, order, refund);
  });
}

/** Whether a returned line has stock to put back (goods, or a service's seats: `restockable`). */
function restockableLine(order: PlacedOrder, line: RefundLine): boolean {
  const item = order.items[lineIndexOf(order, line.lineId)];
  return item !== undefined && restockable(item);
}

/**
 * Checks returned lines against the order under its row lock: each names a line of it, for at
 * most what was bought less what earlier refunds gave back. Answers what was paid for them.
 */
function checkLines(order: PlacedOrder, lines: readonly RefundLine[]): number {
  const given = refundedQuantities(order);
  for (const line of lines) {
    const item = order.items[lineIndexOf(order, line.lineId)];
    if (!item) throw REFUND_ERR.lineNotFound(order.orderNumber, line.lineId);
    const left = item.quantity - (given.get(line.lineId) ?? 0);
    const name = item.variantLabel ? `${item.productName} (${item.variantLabel})` : item.productName;
    if (line.quantity > left) throw REFUND_ERR.quantityTooLarge(Math.max(0, left), name, line.lineId);
  }
  return linesPaidCents(order, lines);
}

/**
 * Stores a refund the provider made, under the row lock: the order's list and status, the books'
 * row, and on a full refund what the money bought stops (gift cards emptied, the subscription
 * stopped; download links close with the status). Goods go back into stock only for a refund
 * of named lines with `restocked` (their goods and service seats, by their quantities), and only when its
 * books' row is new: the (order, key) primary key makes that exactly once per refund, whatever
 * retries or concurrent requests come. The buyer is mailed.
 */
async function storeRefund(repo: Repository, deps: Deps, order: PlacedOrder, refund: OwnerRefund): Promise<PlacedOrder> {
  const { refundClaim: _claim, ...rest } = order;
  const refunds = [...(order.refunds ?? []), refund];
  const whole = refundedCents({ ...order, refunds }) >= order.grandTotal;
  const next: PlacedOrder = { ...rest, refunds, status: whole ? 'refunded' : 'partially-refunded' };
  if (!(await repo.orders.insertRefund(order, refund))) return order;
  if (refund.restocked) {
    // A sold-out variant is then back in stock, and the admin's restock panel offers to mail its
    // sign-ups (B13/B14), as after any stock change: nothing mails them unasked.
    for (const line of refund.lines ?? []) {
      const item = order.items[lineIndexOf(order, line.lineId)];
      if (item && restockable(item)) await repo.orders.returnStock(item.itemId, item.variantId, line.quantity);
    }
  }
  if (whole) {
    await repo.orders.voidGiftCards(order.id);
    await repo.orders.cancelSubscriptions(order.id);
  }
  const site = await repo.getSite();
  const mail = orderRefundedMail(next, refund, { title: site ? commerceRules(site).storeName ?? null : null, url: mailOrigin(deps) });
  await enqueueMail(repo, { id: deps.newId('m'), to: order.email, subject: mail.subject, body: mail.text, html: mail.html, queuedOn: deps.now() });
  await repo.orders.update(next);
  return next;
}
