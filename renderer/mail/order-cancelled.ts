import { escapeHtml } from '../pages/html.ts';
import { formatMoney } from '../pages/money.ts';
import type { PlacedOrder } from '../store/types.ts';
import type { ReceiptMail, ReceiptSite } from './order-receipt.ts';

/**
 * The buyer's word that the owner cancelled their order (admin orders panel, status change to
 * cancelled): what was in it and what happens to the money. The shop refunds a paid order
 * through its payment provider; the built-in providers move no money (the test card) or took
 * none (pay offline), so the mail promises nothing the server did not do. `wasPaid`: the
 * order's status before the cancel.
 */
export function orderCancelledMail(order: PlacedOrder, site: ReceiptSite, wasPaid: boolean): ReceiptMail {
  const shop = site.title?.trim() || 'our shop';
  const money = (cents: number) => formatMoney(cents, order.currency);
  const lines = order.items.map((item) => `${item.quantity} × ${item.variantLabel ? `${item.productName} (${item.variantLabel})` : item.productName}`);
  const payment = order.testMode
    ? 'This was a test order: no payment was taken.'
    : wasPaid
      ? `You paid ${money(order.grandTotal)} (${order.payment.label}); ${shop} will refund it. Reply to this mail with any question.`
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
