import { downloadLinks, DOWNLOAD_LIMIT, hasDigitalLines } from '../orders/digital-downloads.ts';
import type { ShoppingCartView } from '../api/cart-view.ts';
import type { ContentEntry, ContentItem } from '../site/site-types.ts';
import type { Form, Order, OrderStatus, PlacedOrder, Product } from '../store/types.ts';
import { fieldValueLines } from '../../hydrate/shared/field-values.ts';
import { ORDER_STATUS_LABELS } from '../../hydrate/shared/order-statuses.ts';
import { subscriptionPriceText } from '../../hydrate/shared/subscription-period.ts';
import { formDefinition } from './product-view.ts';
import { formatMoney, knownCurrency } from './money.ts';
import { lineTotalText } from '../../hydrate/shared/currency.ts';

// The template-context objects of pages, collections, items, carts and orders (C2):
// plain data in, plain data out, no I/O.

type Json = Record<string, unknown>;

function amountText(value: unknown, currency: string): string {
  if (typeof value === 'number' && Number.isInteger(value)) return formatMoney(value, currency);
  if (typeof value === 'object' && value !== null && typeof (value as Json).value === 'string') return String((value as Json).value);
  return '';
}

// Content entries belong to a loaded site and never change, so the objects made from them
// alone are made once and shared by every page that shows them (templates only read them).
const pageWithoutBlocks = new WeakMap<ContentEntry, Json>();
const collectionByCount = new WeakMap<ContentEntry, Map<number, Json>>();

export function pageObject(entry: ContentEntry, blocksHtml: string): Json {
  if (blocksHtml === '') {
    const hit = pageWithoutBlocks.get(entry);
    if (hit) return hit;
  }
  const { blocks: _blocks, items: _items, ...data } = entry.data;
  const page = { ...data, id: entry.id, title: entry.title, slug: entry.slug, urlId: entry.slug, fullUrl: entry.home ? '/' : `/${entry.slug}`, pageType: entry.pageType, blocksHtml };
  if (blocksHtml === '') pageWithoutBlocks.set(entry, page);
  return page;
}

export function collectionObject(entry: ContentEntry, itemCount: number): Json {
  let byCount = collectionByCount.get(entry);
  const hit = byCount?.get(itemCount);
  if (hit) return hit;
  const { blocks: _blocks, items: _items, ...data } = entry.data;
  const collection = { ...data, id: entry.id, title: entry.title, urlId: entry.slug, fullUrl: `/${entry.slug}`, typeName: entry.collectionType, itemCount };
  if (!byCount || byCount.size >= 16) collectionByCount.set(entry, (byCount = new Map()));
  byCount.set(itemCount, collection);
  return collection;
}

export function contentItemObject(entry: ContentEntry, item: ContentItem, blocksHtml: string): Json {
  const { blocks: _blocks, ...data } = item.data;
  return {
    ...data,
    id: item.id,
    title: item.title,
    urlId: item.slug,
    fullUrl: `/${entry.slug}/${item.slug}`,
    collectionId: entry.id,
    recordType: typeof data.recordType === 'number' ? data.recordType : 1,
    body: typeof data.body === 'string' ? data.body : '',
    blocksHtml,
  };
}

/** B2 upper bound of a cart entry's quantity. */
const MAX_CART_QUANTITY = 9999;

/** The cart page's `cart` (B0.4 view plus display texts) and the form definitions its entries use. */
export function cartPageView(
  view: ShoppingCartView,
  data: { products: readonly Product[]; forms: ReadonlyMap<string, Form>; slugs: ReadonlyMap<string, string>; currency: string; minimumCents: number; multipleQuantityAllowedForServices?: boolean },
): { cart: Json; formsJson: Json } {
  const { products, forms, slugs, currency } = data;
  const inCart = (match: (e: ShoppingCartView['entries'][number]) => boolean, except: string) =>
    view.entries.reduce((sum, e) => (e.id !== except && match(e) ? sum + e.quantity : sum), 0);
  const formsJson: Json = {};
  const entries = view.entries.map((entry) => {
    const product = products.find((candidate) => candidate.id === entry.itemId);
    const formId = entry.additionalFields !== null ? product?.additionalFieldsFormId ?? null : null;
    const form = formId ? forms.get(formId) : undefined;
    if (form) formsJson[form.id] = formDefinition(form);
    const slug = product?.collectionId ? slugs.get(product.collectionId) : undefined;
    // B2/B26 quantity limits for the cart-page island: the variant's stock is shared by the
    // entries of the same item and sku, a one-per-order service by every entry of the item.
    const variant = product?.variants.find((v) => v.sku === entry.chosenVariant.sku);
    const maxPerVariant = variant && !variant.unlimited ? Math.min(MAX_CART_QUANTITY, Math.max(variant.qtyInStock, 0)) : MAX_CART_QUANTITY;
    const maxPerItem = product?.productType === 3 && data.multipleQuantityAllowedForServices === false ? 1 : MAX_CART_QUANTITY;
    const maxQuantity = Math.max(1, Math.min(
      MAX_CART_QUANTITY,
      maxPerVariant - inCart((e) => e.itemId === entry.itemId && e.chosenVariant.sku === entry.chosenVariant.sku, entry.id),
      maxPerItem - inCart((e) => e.itemId === entry.itemId, entry.id),
    ));
    return {
      ...entry,
      sku: entry.chosenVariant.sku,
      variantText: Object.values(entry.chosenVariant.attributes).join(' / '),
      // No link for a line the catalogue no longer sells (or whose product is not found): its
      // product page is gone, and a `#` link went nowhere. The templates print the title as text.
      fullUrl: product && !entry.unavailable ? (slug ? `/${slug}/${product.urlSlug}` : `/${product.urlSlug}`) : null,
      // The cart entry's ITEM_UNAVAILABLE sentence, rendered at the line in the island's markup so
      // a visitor whose scripts are slow or off reads it too (null on a line that can be bought).
      unavailableText: entry.unavailable?.message ?? null,
      formId: form ? form.id : null,
      // What the visitor submitted in the form (the mug's engraving), shown on the line (issue 16).
      fieldValues: form ? fieldValueLines(form.fields, entry.additionalFields) : [],
      unitPriceText: formatMoney(entry.purchasePriceCents, currency),
      totalText: lineTotalText(entry.subTotal, currency),
      maxPerVariant,
      maxPerItem,
      maxQuantity,
    };
  });
  const minimum = data.minimumCents;
  const belowMinimum = view.entries.length > 0 && minimum > view.subtotalCents;
  return {
    cart: {
      ...view,
      entries,
      subtotalText: formatMoney(view.subtotalCents, currency),
      grandTotalText: formatMoney(view.grandTotalCents, currency),
      minimumNotice: belowMinimum ? `To check out, your order subtotal must be ${formatMoney(minimum, currency)} or more.` : null,
      canCheckout: view.entries.length > 0 && !belowMinimum,
      checkoutUrl: view.id ? `/checkout?cartToken=${encodeURIComponent(view.id)}` : '/checkout',
    },
    formsJson,
  };
}


/** How an order's status reads on the buyer's pages (order status, 211). */
export const ORDER_STATUS_TEXT: Readonly<Record<OrderStatus, string>> = ORDER_STATUS_LABELS;

/** The buyer's line on a cancelled paid order's money: refunded to the card, or to come back from the shop (paid offline). */
function refundText(order: PlacedOrder, currency: string): string | null {
  const refund = order.refund;
  if (!refund) return null;
  const amount = formatMoney(refund.amountCents, currency);
  return refund.kind === 'refunded' ? `Refunded ${amount} to ${refund.label}.` : `The shop will pay back ${amount} (${refund.label}) directly.`;
}

/**
 * The buyer's line on the owner's refunds without a cancel (orders/order-refund.ts): how much of
 * the total came back, and where to; null when there were none.
 */
function ownerRefundsText(order: PlacedOrder, currency: string): string | null {
  const refunds = order.refunds ?? [];
  if (refunds.length === 0) return null;
  const sum = (kind: string) => refunds.filter((entry) => entry.kind === kind).reduce((total, entry) => total + entry.amountCents, 0);
  const total = formatMoney(order.grandTotal, currency);
  const part = (cents: number) => (order.status === 'refunded' && cents === order.grandTotal ? formatMoney(cents, currency) : `${formatMoney(cents, currency)} of ${total}`);
  const label = refunds[0]!.label;
  const byCard = sum('refunded');
  const byHand = sum('by-hand');
  return [
    byCard > 0 ? `Refunded ${part(byCard)} to ${label}.` : null,
    byHand > 0 ? `The shop will pay back ${part(byHand)} (${label}) directly.` : null,
  ]
    .filter((text) => text !== null)
    .join(' ');
}

function cancelledText(order: PlacedOrder, currency: string): string {
  const money = refundText(order, currency) ?? 'Nothing is owed: please do not send a payment for it.';
  return `This order has been cancelled. ${money}`;
}

const isPlaced = (order: Order): order is PlacedOrder => typeof (order as Partial<PlacedOrder>).orderNumber === 'number';

/**
 * The order pages' `order` (202, 206, 207, 211): the stored order plus line and total texts.
 * An order placed through checkout (issue 15) also brings its number, status, subtotal and
 * discount, address, shipping method, payment, gift card codes and subscription period.
 */
export function orderView(order: Order, storeCurrency: string): Json {
  const placed = isPlaced(order) ? order : null;
  const currencyCode = placed?.currency ?? order.extra.currency;
  const currency = typeof currencyCode === 'string' ? knownCurrency(currencyCode) : storeCurrency;
  const lines = order.items.map((raw) => {
    const line = (typeof raw === 'object' && raw !== null ? raw : {}) as Json;
    const quantity = typeof line.quantity === 'number' ? line.quantity : 1;
    const unit = typeof line.unitPrice === 'number' ? line.unitPrice : 0;
    const total = typeof line.lineTotal === 'number' ? line.lineTotal : unit * quantity;
    const variantText = typeof line.variantLabel === 'string' && line.variantLabel !== '' ? line.variantLabel : null;
    return { ...line, title: typeof line.productName === 'string' ? line.productName : String(line.sku ?? ''), variantText, quantity, totalText: formatMoney(total, currency) };
  });
  const view: Json = {
    ...order.extra,
    id: order.id,
    testMode: order.testMode,
    lines,
    grandTotalText: amountText(order.grandTotal, currency),
    shippingTotalText: amountText(order.shippingTotal, currency),
    taxTotalText: amountText(order.taxTotal, currency),
  };
  if (!placed) return view;
  const downloads = downloadLinks(placed);
  const subscribed = placed.subscription ? placed.items.find((item) => item.itemId === placed.subscription!.itemId) : undefined;
  return {
    ...view,
    orderNumber: placed.orderNumber,
    email: placed.email,
    status: placed.status,
    statusText: ORDER_STATUS_TEXT[placed.status] ?? placed.status,
    subtotalText: formatMoney(placed.subtotal, currency),
    // Null rather than "$0.00", so a template's `.section` leaves the line out.
    discountTotalText: placed.discountTotal > 0 ? formatMoney(placed.discountTotal, currency) : null,
    shippingAddress: placed.shippingAddress,
    shippingOptionName: placed.shippingOptionName,
    paymentLabel: placed.payment.label,
    // A cancelled paid order's money, as the cancel recorded it (orders/order-status.ts); null otherwise.
    refundText: refundText(placed, currency),
    // The owner's refunds without a cancel (orders/order-refund.ts), in the summary every order page applies; null for none.
    refundsText: ownerRefundsText(placed, currency),
    // Order received (207) asks for the payment only while it is awaited: read again once the
    // owner has marked it paid (or refunded some of it), the page says it arrived.
    paymentPending: placed.status === 'awaiting-payment',
    // The order pages read again after a cancel say so, rather than "pay by bank transfer".
    cancelledText: placed.status === 'cancelled' ? cancelledText(placed, currency) : null,
    giftCardCodes: placed.giftCardCodes.length > 0 ? placed.giftCardCodes : null,
    // A paid order's digital products, each a link (orders/digital-downloads.ts); null for none.
    downloads: downloads.length > 0 ? downloads : null,
    downloadLimitText: downloads.length > 0 ? `Each link works ${DOWNLOAD_LIMIT} times.` : null,
    downloadsPendingText: placed.status === 'awaiting-payment' && hasDigitalLines(placed) ? 'Your download links appear here, and come by mail, once payment arrives.' : null,
    // Nothing of it ships (no physical line): the summary leaves the shipping row out.
    shipsNothing: !placed.items.some((item) => item.productType === 1) && placed.shippingTotal === 0,
    subscription: placed.subscription
      ? { ...placed.subscription, periodText: subscriptionPriceText(placed.subscription, formatMoney(subscribed?.lineTotal ?? 0, currency)) }
      : null,
  };
}

