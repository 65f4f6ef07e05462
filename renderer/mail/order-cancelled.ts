import { escapeHtml } from '../pages/html.ts';
import { formatMoney } from '../pages/money.ts';
import type { PlacedOrder } from '../store/types.ts';
import { itemName, type ReceiptMail, type ReceiptSite } from './order-receipt.ts';

/**
 * The buyer's word that the owner cancelled their order (admin orders panel, status change to
 * cancelled): what was in it and what happened to the money, as the cancel's refund recorded
 * it (orders/order-status.ts): given back by the provider, to be given back by the owner (paid
 * offline), or nothing paid. It says only what the server did.
 */
export function orderCancelledMail(order: PlacedOrder, site: ReceiptSite): ReceiptMail {
  const shop = site.title?.trim() || 'our shop';
  const money = (cents: number) => formatMoney(cents, order.currency);
  const lines = order.items.map((item) => `${item.quantity} × ${itemName(item)}`);
  const refund = order.refund ?? null;
  const payment =
    refund?.kind === 'refunded'
      ? `${shop} refunded ${money(refund.amountCents)} to ${refund.label}. ${order.testMode ? 'This was a test order: no real money moved.' : 'It can take a few days to show on your statement.'} Reply to this mail with any question.`
      : refund?.kind === 'by-hand'
        ? `You paid ${money(refund.amountCents)} (${refund.label}); ${shop} will pay it back to you directly. Reply to this mail with any question.`
        : 'Nothing is owed: please do not send a payment for it.';
  const subject = `Your order #${order.orderNumber} from ${shop} is cancelled`;
  const text = [`${shop} has cancelled your order #${order.orderNumber}.`, '', ...lines, `Total: ${money(order.grandTotal)}`, '', payment, ''].join('\n');
  const html = [
    `<h1>Order #${order.orderNumber} cancelled</h1>`,
    `<p>${escapeHtml(shop)} has cancelled your order #${order.orderNumber}.</p>`,
    `<ul>${lines.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>`,
    `<p>Total: ${escapeHtml(money(order.grandTotal))}</p>`,
    `<p>${escapeHtml(payment)}</p>`,
  ].join('\n');
  return { subject, text, html };
}
