import { addressLines } from '../../hydrate/shared/shipping-address.ts';
import { ORDER_STATUS_LABELS } from '../../hydrate/shared/order-statuses.ts';
import { escapeHtml } from '../pages/html.ts';
import { formatMoney } from '../pages/money.ts';
import { downloadLinks, DOWNLOAD_LIMIT, hasDigitalLines } from '../orders/digital-downloads.ts';
import type { PlacedOrder } from '../store/types.ts';

/** A line's product as the buyer and the owner read it: its name, and its variant in brackets. */
export function itemName(item: Pick<PlacedOrder['items'][number], 'productName' | 'variantLabel'>): string {
  return item.variantLabel ? `${item.productName} (${item.variantLabel})` : item.productName;
}

/** What a receipt needs of the site: its name (catalog.json `site.settings.commerce.storeName`, or site.json's title). */
export interface ReceiptSite {
  title?: string | null;
  /** The shop's public origin (`https://shop.example`): with it, each product bought gets a link to its review page (209). */
  url?: string | null;
}

/** The reviews request page (209) of one product: where a receipt asks the buyer for a review. */
export function reviewRequestUrl(siteUrl: string, productId: string): string {
  return `${siteUrl.replace(/\/+$/, '')}/review?productId=${encodeURIComponent(productId)}`;
}

export interface ReceiptMail {
  subject: string;
  text: string;
  html: string;
}

// One set of status words for the buyer's mails, pages and the owner's admin.
const STATUS_TEXT = ORDER_STATUS_LABELS;

/**
 * The buyer's receipt of a placed order: the lines, the totals and where it ships. Built from
 * the stored order alone, so the commerce email preview (page type 301) shows exactly what the
 * outbox sends. It never holds payment details beyond the provider's label.
 */
export function orderReceiptMail(order: PlacedOrder, site: ReceiptSite): ReceiptMail {
  const shop = site.title?.trim() || 'our shop';
  const money = (cents: number) => formatMoney(cents, order.currency);
  const lines = order.items.map((item) => ({
    name: itemName(item),
    quantity: item.quantity,
    total: money(item.lineTotal),
    // What the buyer entered for the line (an engraving): what is to be made.
    fields: item.fieldValues ?? [],
  }));
  const totals: [string, string][] = [['Subtotal', money(order.subtotal)]];
  if (order.discountTotal > 0) totals.push([`Discount${order.couponCodes.length ? ` (${order.couponCodes.join(', ')})` : ''}`, `-${money(order.discountTotal)}`]);
  if (order.shippingAddress !== null || order.shippingTotal > 0) totals.push([`Shipping${order.shippingOptionName ? ` (${order.shippingOptionName})` : ''}`, money(order.shippingTotal)]);
  if (order.taxTotal > 0) totals.push(['Tax', money(order.taxTotal)]);
  totals.push(['Total', money(order.grandTotal)]);
  const shipsTo = addressLines(order.shippingAddress);
  const notes: string[] = [];
  // Only an order with something to ship talks of shipping (a physical line, as the cart's
  // requiresShipping): a purely digital order said it "ships once payment arrives".
  const ships = order.items.some((item) => item.productType === 1);
  if (order.status === 'awaiting-payment') notes.push(`Payment: ${order.payment.label}.${ships ? ' Your order ships once payment arrives.' : ''}`);
  if (order.status === 'awaiting-payment' && hasDigitalLines(order)) notes.push('Your download links come by mail once payment arrives.');
  if (order.status === 'awaiting-payment' && order.items.some((item) => item.productType === 4)) notes.push('Your gift card code comes by mail once payment arrives.');
  if (order.testMode) notes.push('This is a test order: no payment was taken.');
  if (order.giftCardCodes.length > 0) notes.push(`Gift card code${order.giftCardCodes.length > 1 ? 's' : ''}: ${order.giftCardCodes.join(', ')}`);
  if (order.subscription) {
    const period = order.subscription.billingPeriod;
    notes.push(`Subscription: billed every ${period.value === 1 ? '' : `${period.value} `}${period.unit.toLowerCase()}${period.value === 1 ? '' : 's'}.`);
  }

  // One review link per product bought (the review page asks about the product, not the variant).
  const reviews: { name: string; link: string }[] = [];
  if (site.url) {
    const seen = new Set<string>();
    for (const item of order.items) {
      if (seen.has(item.itemId)) continue;
      seen.add(item.itemId);
      reviews.push({ name: item.productName, link: reviewRequestUrl(site.url, item.itemId) });
    }
  }

  // A paid order's digital products, each a link that works DOWNLOAD_LIMIT times.
  const downloads = downloadLinks(order, site.url ?? null);
  const downloadNote = `Each link works ${DOWNLOAD_LIMIT} times.`;

  const subject = `Your order #${order.orderNumber} from ${shop}`;
  const text = [
    `Thank you for your order from ${shop}.`,
    '',
    `Order #${order.orderNumber} (${STATUS_TEXT[order.status]})`,
    '',
    ...lines.flatMap((line) => [`${line.quantity} × ${line.name}: ${line.total}`, ...line.fields.map((field) => `  ${field.label}: ${field.value}`)]),
    '',
    ...totals.map(([label, value]) => `${label}: ${value}`),
    ...(downloads.length ? ['', 'Your downloads:', ...downloads.map((link) => `${link.title}: ${link.url}`), downloadNote] : []),
    ...(shipsTo.length ? ['', 'Ships to:', ...shipsTo] : []),
    ...(notes.length ? ['', ...notes] : []),
    ...(reviews.length ? ['', 'Tell us what you think:', ...reviews.map((review) => `${review.name}: ${review.link}`)] : []),
    '',
  ].join('\n');
  const cell = 'style="padding:4px 8px;text-align:left"';
  const html = [
    `<h1>Order #${order.orderNumber}</h1>`,
    `<p>Thank you for your order from ${escapeHtml(shop)}.</p>`,
    `<table><thead><tr><th ${cell}>Item</th><th ${cell}>Qty</th><th ${cell}>Total</th></tr></thead><tbody>`,
    ...lines.map((line) => {
      const fields = line.fields.map((field) => `<br><small>${escapeHtml(field.label)}: ${escapeHtml(field.value)}</small>`).join('');
      return `<tr><td ${cell}>${escapeHtml(line.name)}${fields}</td><td ${cell}>${line.quantity}</td><td ${cell}>${escapeHtml(line.total)}</td></tr>`;
    }),
    '</tbody></table>',
    `<table>${totals.map(([label, value]) => `<tr><th ${cell}>${escapeHtml(label)}</th><td ${cell}>${escapeHtml(value)}</td></tr>`).join('')}</table>`,
    ...(downloads.length
      ? [`<p>Your downloads:</p>`, `<ul>${downloads.map((link) => `<li><a href="${escapeHtml(link.url)}">Download ${escapeHtml(link.title)}</a></li>`).join('')}</ul>`, `<p>${escapeHtml(downloadNote)}</p>`]
      : []),
    ...(shipsTo.length ? [`<p>Ships to:<br>${shipsTo.map(escapeHtml).join('<br>')}</p>`] : []),
    ...notes.map((note) => `<p>${escapeHtml(note)}</p>`),
    ...(reviews.length
      ? [`<p>Tell us what you think:</p>`, `<ul>${reviews.map((review) => `<li><a href="${escapeHtml(review.link)}">Review ${escapeHtml(review.name)}</a></li>`).join('')}</ul>`]
      : []),
  ].join('\n');
  return { subject, text, html };
}
