import { mailOrigin, type ApiDeps } from '../api/context.ts';
import { ApiError } from '../api/errors.ts';
import { enqueueMail } from '../mail/outbox-worker.ts';
import { orderRefundedMail } from '../mail/order-refunded.ts';
import { formatMoney } from '../pages/money.ts';
import type { Repository } from '../store/repository.ts';
import type { OwnerRefund, PlacedOrder } from '../store/types.ts';
import { refundableCents, refundedCents } from '../../hydrate/shared/order-statuses.ts';
import { commerceRules } from './checkout.ts';
import { ORDER_ERR, REFUND_CLAIM_MS, askRefund } from './order-status.ts';
import { providerOf } from './payment-providers.ts';

// The owner's refund of a paid or sent order without cancelling it: all of what is left, or part
// of it (a returned item, a line that could not be sent). README.md here, "Refunds".

/** The longest note an owner keeps with a refund. */
export const REFUND_REASON_MAX = 500;

export const REFUND_ERR = {
  /** Awaiting payment: nothing came in to give back. */
  notPaid: (orderNumber: number) =>
    new ApiError(409, 'ORDER_NOT_PAID', `Order #${orderNumber} is not paid yet, so nothing can be refunded. Cancel it instead.`),
  /** Cancelled, refunded in full, or free: no money is left on it. */
  nothingLeft: (orderNumber: number) => new ApiError(409, 'NOTHING_TO_REFUND', `Nothing is left to refund on order #${orderNumber}.`),
  /** More than what is left of the total after the refunds already given. */
  tooLarge: (left: string) => new ApiError(422, 'REFUND_TOO_LARGE', `At most ${left} is left to refund on this order.`),
  failed: (why: string) => new ApiError(502, 'REFUND_FAILED', `The refund failed, so nothing was refunded: ${why}`),
  /** An earlier refund of another amount was asked and its answer is unknown. */
  unfinished: (amount: string) =>
    new ApiError(409, 'REFUND_PENDING', `A refund of ${amount} of this order did not finish: refund ${amount} again to finish it before any other refund.`),
  /** A cancel's refund was asked and its answer is unknown. */
  cancelUnfinished: () => new ApiError(409, 'REFUND_PENDING', "This order's cancel did not finish its refund: cancel it again to finish it."),
};

export interface RefundRequest {
  amountCents: number;
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
    if (claim && !claim.key) throw REFUND_ERR.cancelUnfinished();
    // An unsettled refund of the same amount is finished with its own provider key (the provider
    // answers the first refund); another amount waits for it.
    if (claim && claim.amountCents !== request.amountCents) throw REFUND_ERR.unfinished(money(order, claim.amountCents ?? 0));
    const key = claim?.key ?? request.key;
    if (order.status === 'awaiting-payment') throw REFUND_ERR.notPaid(order.orderNumber);
    const left = refundableCents(order);
    if (left <= 0) throw REFUND_ERR.nothingLeft(order.orderNumber);
    if (request.amountCents > left) throw REFUND_ERR.tooLarge(money(order, left));
    const provider = providerOf(order.payment.provider);
    if (!provider) throw REFUND_ERR.failed(`the payment provider "${order.payment.provider}" is not available on this server.`);
    const mine = { id: deps.newId('rc'), until: deps.now() + REFUND_CLAIM_MS, key, amountCents: request.amountCents };
    await repo.orders.update({ ...order, refundClaim: mine });
    return { claimed: { order, provider, claim: mine } };
  });
  if (first.done) return first.done;
  const { order: asked, provider, claim } = first.claimed;

  const answer = await askRefund(asked, provider, claim.amountCents, ownerRefundKey(asked.id, claim.key));

  const settled = await deps.store.transaction(async (repo): Promise<PlacedOrder | ApiError> => {
    const order = await repo.orders.get(orderId, { lock: true });
    if (!order) return ORDER_ERR.notFound();
    const ours = order.refundClaim?.id === claim.id;
    if (answer.kind === 'failed') {
      // Refused: nothing was refunded, the order is free again. Unknown: it may have been, so the
      // claim stays, open at once to the same refund asked again and closed to anything else.
      if (ours) await repo.orders.update({ ...order, refundClaim: answer.settled ? null : { ...claim, until: 0 } });
      return REFUND_ERR.failed(answer.message);
    }
    // Another request, after this claim had lapsed, asked with the same key and stored the same refund.
    if (order.refunds?.some((refund) => refund.key === claim.key)) return order;
    const refund: OwnerRefund = {
      kind: answer.outcome.kind,
      amountCents: claim.amountCents,
      reference: answer.outcome.kind === 'refunded' ? answer.outcome.refundReference : null,
      label: asked.payment.label,
      on: deps.now(),
      key: claim.key,
      by: request.by,
      reason: request.reason,
    };
    return storeRefund(repo, deps, order, refund);
  });
  if (settled instanceof ApiError) throw settled;
  return settled;
}

/**
 * Stores a refund the provider made, under the row lock: the order's list and status, the books'
 * row, and on a full refund what the money bought stops (gift cards emptied, the subscription
 * stopped; download links close with the status). Nothing is restocked: the goods may have left,
 * and the owner counts a returned item back in the inventory. The buyer is mailed.
 */
async function storeRefund(repo: Repository, deps: Deps, order: PlacedOrder, refund: OwnerRefund): Promise<PlacedOrder> {
  const { refundClaim: _claim, ...rest } = order;
  const refunds = [...(order.refunds ?? []), refund];
  const whole = refundedCents({ ...order, refunds }) >= order.grandTotal;
  const next: PlacedOrder = { ...rest, refunds, status: whole ? 'refunded' : 'partially-refunded' };
  if (!(await repo.orders.insertRefund(order, refund))) return order;
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
