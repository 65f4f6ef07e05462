import { mailOrigin, type ApiDeps } from '../api/context.ts';
import { enqueueMail } from '../mail/outbox-worker.ts';
import { orderCancelledMail } from '../mail/order-cancelled.ts';
import { orderReceiptMail } from '../mail/order-receipt.ts';
import { hasDigitalLines, newDownloadToken } from './digital-downloads.ts';
import { commerceRules } from './checkout.ts';
import { providerOf, type RefundOutcome } from './payment-providers.ts';
import { issueGiftCards } from './place-order.ts';
import { NEXT_STATUSES } from '../../hydrate/shared/order-statuses.ts';
import { ApiError } from '../api/errors.ts';
import type { OrderRefund, OrderStatus, PlacedOrder } from '../store/types.ts';

// The owner's status changes of a placed order, and the JSON the API answers for an order.

/** The moves an owner may make (hydrate/shared/order-statuses.ts, shared with the admin's orders panel). */
export { NEXT_STATUSES };

export const ORDER_ERR = {
  notFound: () => new ApiError(404, 'ORDER_NOT_FOUND', 'Order not found.'),
  invalidStatus: (from: OrderStatus, to: string) =>
    new ApiError(409, 'INVALID_ORDER_STATUS', `An order that is ${from} cannot be marked ${to}.`),
  refundFailed: (why: string) => new ApiError(502, 'REFUND_FAILED', `The refund failed, so the order was not cancelled: ${why}`),
};

/** A hang guard on the provider's refund: the order row stays locked while it runs. */
export const REFUND_TIMEOUT_MS = 30_000;

/** One refund per order, whoever asks and however often: the provider's idempotency key. */
export const refundKey = (orderId: string) => `refund-${orderId}`;

/**
 * Gives a paid order's grand total back through the provider that took it. Any answer but a
 * refund or a by-hand is a REFUND_FAILED, which rolls the cancel back: the order stays paid
 * and nothing is restocked, so the owner can try again (the same key: never a second refund).
 */
async function refundPaid(order: PlacedOrder, now: number): Promise<OrderRefund | null> {
  if (order.grandTotal <= 0) return null;
  const provider = providerOf(order.payment.provider);
  if (!provider) throw ORDER_ERR.refundFailed(`the payment provider "${order.payment.provider}" is not available on this server.`);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<RefundOutcome>((resolve) => {
    timer = setTimeout(() => resolve({ kind: 'failed', message: 'the payment provider did not answer.' }), REFUND_TIMEOUT_MS);
  });
  let outcome: RefundOutcome;
  try {
    outcome = await Promise.race([provider.refund(order.payment.reference, order.grandTotal, refundKey(order.id)), timeout]);
  } catch {
    outcome = { kind: 'failed', message: 'the payment provider could not be reached.' };
  } finally {
    clearTimeout(timer);
  }
  if (outcome.kind === 'failed') throw ORDER_ERR.refundFailed(outcome.message);
  return {
    kind: outcome.kind,
    amountCents: order.grandTotal,
    reference: outcome.kind === 'refunded' ? outcome.refundReference : null,
    label: order.payment.label,
    on: now,
  };
}

/**
 * Moves the order to `status` in one transaction that locks the order row, so two owners
 * cancelling at once restock and refund it once: the second finds it cancelled and gets a 409.
 * Cancelling a paid order refunds it first (refundPaid), and also empties the order's gift
 * cards and stops its subscription.
 */
export async function setOrderStatus(deps: Pick<ApiDeps, 'store' | 'now' | 'newId' | 'publicSite' | 'origin'>, orderId: string, status: OrderStatus): Promise<PlacedOrder> {
  return deps.store.transaction(async (repo) => {
    const order = orderId.length <= 200 ? await repo.orders.get(orderId, { lock: true }) : null;
    if (!order) throw ORDER_ERR.notFound();
    if (!NEXT_STATUSES[order.status].includes(status)) throw ORDER_ERR.invalidStatus(order.status, status);
    const next: PlacedOrder = { ...order, status };
    // The refund comes before anything of the cancel is written: a refused refund leaves the order as it was.
    if (status === 'cancelled' && order.status === 'paid') next.refund = await refundPaid(order, deps.now());
    if (order.status === 'awaiting-payment' && status === 'paid') {
      // Paid now: its gift cards are issued, and the buyer gets the receipt again, marked Paid
      // (with the codes). Before, only a gift card order was told: a buyer who paid by bank
      // transfer heard nothing of it arriving.
      const now = deps.now();
      if (order.items.some((item) => item.productType === 4)) next.giftCardCodes = await issueGiftCards(repo, order, now);
      // Its digital lines' download links, in the receipt below and on the order pages.
      if (hasDigitalLines(order) && !order.downloadToken) next.downloadToken = newDownloadToken();
      const site = await repo.getSite();
      const receipt = orderReceiptMail(next, { title: site ? commerceRules(site).storeName ?? null : null, url: mailOrigin(deps) });
      await enqueueMail(repo, { id: deps.newId('m'), to: order.email, subject: `Payment received: ${receipt.subject}`, body: receipt.text, html: receipt.html, queuedOn: now });
    }
    if (status === 'cancelled' && order.restockedOn === null) {
      for (const item of order.items) await repo.orders.returnStock(item.itemId, item.variantId, item.quantity);
      await repo.orders.voidGiftCards(order.id);
      await repo.orders.cancelSubscriptions(order.id);
      next.restockedOn = deps.now();
    }
    if (status === 'cancelled') {
      // The buyer hears of it, in the same transaction: a cancelled order they were not told of
      // looked like one still on its way.
      const site = await repo.getSite();
      const mail = orderCancelledMail(next, { title: site ? commerceRules(site).storeName ?? null : null, url: mailOrigin(deps) });
      await enqueueMail(repo, { id: deps.newId('m'), to: order.email, subject: mail.subject, body: mail.text, html: mail.html, queuedOn: deps.now() });
    }
    await repo.orders.update(next);
    return next;
  });
}

const iso = (millis: number) => new Date(millis).toISOString();

/**
 * An order as the API answers it: cents, ISO times. The owner (admin list, status change)
 * sees the provider's payment and refund references; the buyer (order status look-up) neither.
 */
export function orderJson(order: PlacedOrder, audience: 'owner' | 'buyer' = 'owner') {
  const { extra: _extra, payment, refund, siteUserId, ...rest } = order;
  return {
    ...rest,
    // Which account placed it is the owner's to know; the buyer's look-up by number and email says not.
    ...(audience === 'owner' ? { siteUserId: siteUserId ?? null } : {}),
    createdOn: iso(order.createdOn),
    restockedOn: order.restockedOn === null ? null : iso(order.restockedOn),
    // The owner's panel says before a cancel whether the provider refunds it or the owner does (offline).
    payment: audience === 'owner' ? { ...payment, kind: providerOf(payment.provider)?.kind ?? null } : { provider: payment.provider, label: payment.label },
    refund: refund ? { ...refund, on: iso(refund.on), reference: audience === 'owner' ? refund.reference : null } : null,
  };
}
