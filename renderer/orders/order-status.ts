import { mailOrigin, type ApiDeps } from '../api/context.ts';
import { enqueueMail } from '../mail/outbox-worker.ts';
import { orderCancelledMail } from '../mail/order-cancelled.ts';
import { orderReceiptMail } from '../mail/order-receipt.ts';
import { downloadsOpen, hasDigitalLines, newDownloadToken, ownerDownloads } from './digital-downloads.ts';
import { commerceRules } from './checkout.ts';
import { providerOf, type PaymentProvider, type RefundOutcome } from './payment-providers.ts';
import { issueGiftCards } from './place-order.ts';
import { NEXT_STATUSES, refundableCents, refundedCents } from '../../hydrate/shared/order-statuses.ts';
import { ApiError } from '../api/errors.ts';
import { formatMoney } from '../pages/money.ts';
import type { Repository } from '../store/repository.ts';
import type { OrderRefund, OrderStatus, PlacedOrder, RefundClaim } from '../store/types.ts';

// The owner's status changes of a placed order, and the JSON the API answers for an order.

/** The moves an owner may make (hydrate/shared/order-statuses.ts, shared with the admin's orders panel). */
export { NEXT_STATUSES };

export const ORDER_ERR = {
  notFound: () => new ApiError(404, 'ORDER_NOT_FOUND', 'Order not found.'),
  invalidStatus: (from: OrderStatus, to: string) =>
    new ApiError(409, 'INVALID_ORDER_STATUS', `An order that is ${from} cannot be marked ${to}.`),
  refundFailed: (why: string) => new ApiError(502, 'REFUND_FAILED', `The refund failed, so the order was not cancelled: ${why}`),
  /** Another request's refund of this order is on its way (a double press, a second owner). */
  refundUnderWay: () => new ApiError(409, 'REFUND_PENDING', "This order's refund is under way. Wait a moment, then look at the order again."),
  // REFUND_PENDING said three things needing three different acts (wait; cancel again; refund the
  // same again) in five texts: each now has its own code and one text, so a client acts on the code.
  /** A cancel's refund was asked and its answer is unknown: only a cancel (the same key) may move the order now (order-refund.ts too). */
  cancelRefundUnfinished: () =>
    new ApiError(409, 'CANCEL_REFUND_UNFINISHED', "This order's cancel did not finish its refund: cancel it again to finish it before anything else."),
  /** An owner's refund (order-refund.ts) was asked and its answer is unknown: only the same refund again (amount, items, restock) finishes it. */
  refundUnfinished: (amount: string) =>
    new ApiError(409, 'REFUND_UNFINISHED', `A refund of ${amount} of this order did not finish: ask for the same refund again (the same amount and items) to finish it before anything else.`),
};

/** A hang guard on the provider's refund. No row is locked meanwhile: only the owner's request waits. */
export const REFUND_TIMEOUT_MS = 30_000;

/**
 * How long a cancel's refund claim keeps other requests off the order. Past it the request that
 * asked is taken for dead (a crash between the refund and its commit), and a cancel may ask again
 * with the same key, which answers the first refund.
 */
export const REFUND_CLAIM_MS = 2 * REFUND_TIMEOUT_MS;

/** One refund per order, whoever asks and however often: the provider's idempotency key. */
export const refundKey = (orderId: string) => `refund-${orderId}`;

type Deps = Pick<ApiDeps, 'store' | 'now' | 'newId' | 'publicSite' | 'origin'>;

/** A refund's answer: `settled` false when the provider may or may not have refunded (threw, no answer). */
export type AskedRefund = { kind: 'done'; outcome: DoneRefund } | { kind: 'failed'; message: string; settled: boolean };

/** A provider's refund that happened: by the provider, or (paid offline) the owner's to give by hand. */
export type DoneRefund = Exclude<RefundOutcome, { kind: 'failed' }>;

/**
 * Asks the order's provider for `amountCents` back (a cancel: its grand total) with `key`,
 * outside any transaction, within REFUND_TIMEOUT_MS. Also the owner's refunds (order-refund.ts).
 */
export async function askRefund(order: PlacedOrder, provider: PaymentProvider, amountCents = order.grandTotal, key = refundKey(order.id)): Promise<AskedRefund> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), REFUND_TIMEOUT_MS);
  });
  try {
    const outcome = await Promise.race([provider.refund(order.payment.reference, amountCents, key), timeout]);
    if (outcome === 'timeout') return { kind: 'failed', message: 'the payment provider did not answer.', settled: false };
    return outcome.kind === 'failed' ? { kind: 'failed', message: outcome.message, settled: true } : { kind: 'done', outcome };
  } catch {
    return { kind: 'failed', message: 'the payment provider could not be reached.', settled: false };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Moves the order to `status`. A cancel of a paid order refunds it through its provider, and
 * that call runs outside any transaction: on the embedded store (one connection) a slow
 * provider held every request of the shop while it ran under the order's row lock. So it goes
 * in three steps (renderer/orders/README.md "Refund on cancel"):
 *
 * 1. a short transaction locks the row, checks the move and writes a refund claim; a second
 *    request finds the claim and gets 409 REFUND_PENDING (one refund for two presses);
 * 2. the provider is asked with the key `refund-<orderId>`, no transaction open;
 * 3. a second transaction locks the row again and stores the answer: refunded, the cancel as
 *    before (restock, gift cards, subscription, mail) and the claim gone; refused, the claim gone
 *    and the order as it was (paid, stock out, no mail) with 502 REFUND_FAILED; unknown (threw, no
 *    answer), the claim left open so that only a cancel, asking with the same key, moves it.
 *
 * A crash between 2 and 3 leaves the claim: once REFUND_CLAIM_MS has passed a cancel asks again
 * with the same key, which the provider answers with the first refund, never a second.
 * Any other move (or an unpaid or free order's cancel) is one transaction, as before.
 */
export async function setOrderStatus(deps: Deps, orderId: string, status: OrderStatus): Promise<PlacedOrder> {
  if (orderId.length > 200) throw ORDER_ERR.notFound();
  const first = await deps.store.transaction(async (repo) => {
    const order = await repo.orders.get(orderId, { lock: true });
    if (!order) throw ORDER_ERR.notFound();
    const claim = order.refundClaim;
    if (claim && claim.until > deps.now()) throw ORDER_ERR.refundUnderWay();
    // An owner's refund (not a cancel) that did not finish: only that refund, asked again, ends it.
    if (claim?.key) throw ORDER_ERR.refundUnfinished(formatMoney(claim.amountCents ?? 0, order.currency));
    if (claim && status !== 'cancelled') throw ORDER_ERR.cancelRefundUnfinished();
    if (!NEXT_STATUSES[order.status].includes(status)) throw ORDER_ERR.invalidStatus(order.status, status);
    if (status === 'cancelled' && order.status === 'paid' && order.grandTotal > 0) {
      const provider = providerOf(order.payment.provider);
      if (!provider) throw ORDER_ERR.refundFailed(`the payment provider "${order.payment.provider}" is not available on this server.`);
      const mine = { id: deps.newId('rc'), until: deps.now() + REFUND_CLAIM_MS };
      await repo.orders.update({ ...order, refundClaim: mine });
      return { claimed: { order, provider, claim: mine } };
    }
    return { done: await applyStatus(repo, deps, order, status, null) };
  });
  if (first.done) return first.done;
  const { order: asked, provider, claim } = first.claimed;

  const answer = await askRefund(asked, provider);

  return settleRefund(deps, orderId, claim, answer, ORDER_ERR.refundFailed, async (repo, order, outcome, ours) => {
    // Another cancel, after this claim had lapsed, asked with the same key and stored the same refund.
    if (order.status === 'cancelled') return order;
    const refund: OrderRefund = {
      kind: outcome.kind,
      amountCents: asked.grandTotal,
      reference: outcome.kind === 'refunded' ? outcome.refundReference : null,
      label: asked.payment.label,
      on: deps.now(),
    };
    if (order.status !== 'paid') {
      // Moved meanwhile by another hand (its claim lapsed and was refused): the money is back all
      // the same, so the order keeps the refund for the owner to see, and the move is refused.
      await repo.orders.update({ ...order, refund, refundClaim: ours ? null : order.refundClaim });
      return ORDER_ERR.invalidStatus(order.status, 'cancelled');
    }
    return applyStatus(repo, deps, order, 'cancelled', refund);
  });
}

/**
 * Step 3 of a cancel's or an owner's refund (order-refund.ts): the row locked again, the
 * provider's answer stored. A failed answer touches only a claim still this request's: refused,
 * nothing was refunded and the order is free again; unknown (threw, no answer), it may have been,
 * so the claim stays, lapsed at once, open to the same refund asked again (same provider key) and
 * closed to anything else; the answer is `failed(message)`. A done answer goes to `done` with the
 * order as it is now and whether the claim is still ours. One helper for both, so the claim's
 * rules cannot drift apart. `done` and `failed` return an ApiError rather than throw it, so the
 * writes made before it (a claim freed, a refund kept) commit.
 */
export async function settleRefund(
  deps: Deps,
  orderId: string,
  claim: RefundClaim,
  answer: AskedRefund,
  failed: (message: string) => ApiError,
  done: (repo: Repository, order: PlacedOrder, outcome: DoneRefund, ours: boolean) => Promise<PlacedOrder | ApiError>,
): Promise<PlacedOrder> {
  const settled = await deps.store.transaction(async (repo): Promise<PlacedOrder | ApiError> => {
    const order = await repo.orders.get(orderId, { lock: true });
    if (!order) return ORDER_ERR.notFound();
    const ours = order.refundClaim?.id === claim.id;
    if (answer.kind === 'failed') {
      if (ours) await repo.orders.update({ ...order, refundClaim: answer.settled ? null : { ...claim, until: 0 } });
      return failed(answer.message);
    }
    return done(repo, order, answer.outcome, ours);
  });
  if (settled instanceof ApiError) throw settled;
  return settled;
}

/**
 * The status change itself, inside the caller's transaction with the order row locked: marking
 * paid issues gift cards and download links and mails the receipt again; cancelling restocks
 * once, empties gift cards, stops the subscription and mails the buyer (with `refund`, what
 * became of a paid order's money). Clears any refund claim.
 */
async function applyStatus(repo: Repository, deps: Deps, order: PlacedOrder, status: OrderStatus, refund: OrderRefund | null): Promise<PlacedOrder> {
  const { refundClaim: _claim, ...rest } = order;
  const next: PlacedOrder = { ...rest, status };
  if (status === 'cancelled' && order.status === 'paid') next.refund = refund;
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
}

const iso = (millis: number) => new Date(millis).toISOString();

/**
 * An order as the API answers it: cents, ISO times. The owner (admin list, status change)
 * sees the provider's payment and refund references; the buyer (order status look-up) neither.
 */
export function orderJson(order: PlacedOrder, audience: 'owner' | 'buyer' = 'owner', downloadCounts: Readonly<Record<string, number>> = {}) {
  const { extra: _extra, payment, refund, refunds, siteUserId, refundClaim, downloadToken: _token, ...rest } = order;
  return {
    ...rest,
    // The token is the capability to fetch the files, so no JSON holds it: the owner sees each
    // file's downloads used of the limit and re-sends the links by mail; the buyer's look-up (an
    // order number, sequential, and an email) learns only whether links can be mailed to the
    // order's own address (POST /api/commerce/order-status/download-links).
    ...(audience === 'owner' ? { downloads: ownerDownloads(order, downloadCounts), downloadsOpen: downloadsOpen(order) } : { downloadsOpen: downloadsOpen(order) }),
    // Which account placed it is the owner's to know; the buyer's look-up by number and email says not.
    ...(audience === 'owner' ? { siteUserId: siteUserId ?? null } : {}),
    // A cancel's refund asked and not yet stored (under way, or its answer unknown): the owner's panel says so.
    ...(audience === 'owner' ? { refundPending: Boolean(refundClaim) } : {}),
    // An owner's refund (not a cancel's) asked and not yet stored: its amount, which only the same
    // refund asked again finishes (order-refund.ts); null otherwise.
    ...(audience === 'owner' ? { pendingRefundCents: refundClaim?.key ? (refundClaim.amountCents ?? null) : null } : {}),
    // Its returned lines and restock choice, which the same refund asked again must repeat.
    ...(audience === 'owner' && refundClaim?.key && refundClaim.lines ? { pendingRefundLines: refundClaim.lines, pendingRefundRestock: Boolean(refundClaim.restock) } : {}),
    createdOn: iso(order.createdOn),
    restockedOn: order.restockedOn === null ? null : iso(order.restockedOn),
    // The owner's panel says before a cancel whether the provider refunds it or the owner does (offline).
    payment: audience === 'owner' ? { ...payment, kind: providerOf(payment.provider)?.kind ?? null } : { provider: payment.provider, label: payment.label },
    refund: refund ? { ...refund, on: iso(refund.on), reference: audience === 'owner' ? refund.reference : null } : null,
    // The owner's refunds without a cancel (order-refund.ts), oldest first: who gave each, the
    // provider's reference and the note are the owner's; the buyer sees what, when and where to.
    refunds: (refunds ?? []).map((entry) =>
      audience === 'owner'
        ? {
            kind: entry.kind, amountCents: entry.amountCents, label: entry.label, on: iso(entry.on), reference: entry.reference, by: entry.by, reason: entry.reason, key: entry.key,
            // The returned lines it paid back (the admin bounds the next refund's quantities by them) and whether they went back into stock.
            ...(entry.lines ? { lines: entry.lines, restocked: entry.restocked ?? false } : {}),
          }
        : { kind: entry.kind, amountCents: entry.amountCents, label: entry.label, on: iso(entry.on) },
    ),
    refundedCents: refundedCents(order),
    // What is left to refund (0: nothing can be): the admin's refund dialog's bound.
    ...(audience === 'owner' ? { refundableCents: refundableCents(order) } : {}),
  };
}
