import { escapeHtml } from '../pages/html.ts';
import { formatMoney } from '../pages/money.ts';
import { lineIndexOf, refundedCents } from '../../hydrate/shared/order-statuses.ts';
import { PRODUCT_TYPE, type OwnerRefund, type PlacedOrder } from '../store/types.ts';
import type { ReceiptMail, ReceiptSite } from './order-receipt.ts';

/**
 * The buyer's word that the owner refunded (part of) their order without cancelling it (admin
 * orders panel, orders/order-refund.ts): how much, where to (the card's label, or paid offline,
 * the shop pays it back directly), and how much of the total is refunded now. Built from the
 * stored order and refund alone: never the provider's reference, the owner's note or who gave it.
 * A refund of named lines lists them (`2 × Linen Tee — M`), so the buyer can match it to what
 * they sent back, and says so when the goods are back with the shop (restocked).
 */
export function orderRefundedMail(order: PlacedOrder, refund: OwnerRefund, site: ReceiptSite): ReceiptMail {
  const shop = site.title?.trim() || 'our shop';
  const money = (cents: number) => formatMoney(cents, order.currency);
  const amount = money(refund.amountCents);
  const whole = order.status === 'refunded';
  const where =
    refund.kind === 'refunded'
      ? `${shop} refunded ${amount} to ${refund.label}. ${order.testMode ? 'This was a test order: no real money moved.' : 'It can take a few days to show on your statement.'}`
      : `You paid ${money(order.grandTotal)} (${refund.label}); ${shop} will pay ${amount} back to you directly.`;
  const sofar = whole
    ? `Your order #${order.orderNumber} is now refunded in full (${money(order.grandTotal)}).`
    : `${money(refundedCents(order))} of your order's ${money(order.grandTotal)} is refunded so far.`;
  const subject = whole ? `Your order #${order.orderNumber} from ${shop} is refunded` : `A refund of ${amount} for your order #${order.orderNumber} from ${shop}`;
  const closing = 'Reply to this mail with any question.';
  const returned = returnedItems(order, refund);
  // Only goods come back to the shop (a service's restocked seat is freed, not sent back): beside
  // a download or a service, each line that is back with the shop says so, where the heading
  // would have said it of all of them.
  const allBack = refund.restocked === true && returned.every((item) => item.physical);
  const returnedHead = allBack ? 'This refund is for these items, which are back with us:' : 'This refund is for these items:';
  const named = returned.map((item) => (refund.restocked && !allBack && item.physical ? `${item.text} (back with us)` : item.text));
  const linesText = named.length === 0 ? [] : [returnedHead, ...named.map((item) => `- ${item}`), ''];
  // Paid offline, the shop has not given the money back yet when this is sent: it will.
  const opening = refund.kind === 'refunded' ? `${shop} has refunded ${amount} of your order #${order.orderNumber}.` : `${shop} is refunding ${amount} of your order #${order.orderNumber}.`;
  const text = [opening, '', ...linesText, where, sofar, '', closing, ''].join('\n');
  const html = [
    `<h1>Order #${order.orderNumber} ${whole ? 'refunded' : 'partly refunded'}</h1>`,
    `<p>${escapeHtml(opening)}</p>`,
    ...(named.length === 0 ? [] : [`<p>${escapeHtml(returnedHead)}</p>`, `<ul>${named.map((item) => `<li>${escapeHtml(item)}</li>`).join('')}</ul>`]),
    `<p>${escapeHtml(where)}</p>`,
    `<p>${escapeHtml(sofar)}</p>`,
    `<p>${escapeHtml(closing)}</p>`,
  ].join('\n');
  return { subject, text, html };
}

/** `2 × Linen Tee — M` for each returned line the order still has, and whether it is goods a restock takes back to the shop. */
function returnedItems(order: PlacedOrder, refund: OwnerRefund): { text: string; physical: boolean }[] {
  const out: { text: string; physical: boolean }[] = [];
  for (const line of refund.lines ?? []) {
    const item = order.items[lineIndexOf(order, line.lineId)];
    if (item) out.push({ text: `${line.quantity} × ${item.productName}${item.variantLabel ? ` — ${item.variantLabel}` : ''}`, physical: item.productType === PRODUCT_TYPE.physical });
  }
  return out;
}
