import crypto from 'node:crypto';
import { offlineOrderTooLargeText } from '../../hydrate/shared/checkout-text.ts';
import { knownCurrency } from '../../hydrate/shared/currency.ts';
import type { ApiDeps } from '../api/context.ts';
import { ApiError } from '../api/errors.ts';
import { enqueueMail } from '../mail/outbox-worker.ts';
import { orderReceiptMail } from '../mail/order-receipt.ts';
import type { Repository } from '../store/repository.ts';
import type { CartRecord, OrderItem, OrderSubscription, PlacedOrder, Session, ShippingAddress, Site } from '../store/types.ts';
import { hasDigitalLines, newDownloadToken } from './digital-downloads.ts';
import { CHECKOUT_ERR, FIELD_TEXT, checkoutCart, commerceRules, contactErrors, entryFieldValues, linesKey, normaliseAddress, providersOf, quote, type OfflineOrderUnits } from './checkout.ts';
import type { PaymentDetails, PaymentOutcome } from './payment-providers.ts';
import { COUPON_REASONS, type Totals } from './pricing.ts';

// Placing an order (README.md here, "Placing an order"): replay by idempotency key, checks,
// the payment, then one transaction that takes the stock, numbers the order, issues gift
// cards, records a subscription, marks the cart purchased and queues the receipt.

export interface PlaceOrderInput {
  cartToken: string;
  email: string;
  shippingAddress?: ShippingAddress | null;
  shippingOptionId?: string | null;
  couponCodes?: readonly string[];
  payment: { provider: string } & PaymentDetails;
  idempotencyKey: string;
  /**
   * The grand total the buyer was shown. The cart may change in another tab after the page
   * showed it: the order would be charged and filled at a total and quantities never seen.
   */
  expectedTotalCents?: number | null;
  /** The view's `linesKey` the buyer was shown: other lines at the same total are CART_CHANGED too. */
  expectedLinesKey?: string | null;
  /** The shop's public origin, for the receipt's review links (mail/order-receipt.ts); none without it. */
  siteUrl?: string | null;
  /**
   * Counts one order paid offline against the caller's bound (the API's `offlineOrders`, per
   * address), throwing when it is spent. Called once the order passed every check and before
   * the provider is asked, so a refused order (too large, sold out, a wrong field) costs none.
   */
  countOfflineOrder?: () => Promise<void>;
}

export interface PlaceOrderResult {
  order: PlacedOrder;
  /** True when the key had already placed this order (nothing was done again). */
  replayed: boolean;
}

type OrderDeps = Pick<ApiDeps, 'store' | 'now' | 'newId'>;

/** Issues a gift card code for each gift card unit of the order's items; returns the codes. */
export async function issueGiftCards(repo: Repository, order: Pick<PlacedOrder, 'id' | 'websiteId' | 'currency' | 'items'>, now: number): Promise<string[]> {
  const codes: string[] = [];
  for (const item of order.items.filter((line) => line.productType === 4)) {
    for (let unit = 0; unit < item.quantity; unit++) {
      const code = giftCardCode();
      await repo.orders.insertGiftCard({ code, websiteId: order.websiteId, orderId: order.id, itemId: item.itemId, sku: item.sku, amountCents: item.unitPrice, currency: order.currency, createdOn: now });
      codes.push(code);
    }
  }
  return codes;
}

/** Where the buyer goes after placing: 206 subscription confirmed, 207 order received (pay offline), else 202. */
export function confirmationUrl(order: PlacedOrder): string {
  const id = encodeURIComponent(order.id);
  if (order.subscription) return `/commerce/orders/${id}/subscription-confirmed`;
  if (order.status === 'awaiting-payment') return `/commerce/orders/${id}/received`;
  return `/commerce/orders/${id}/confirmed`;
}

/** A gift card code: 16 characters of an alphabet without look-alikes (0/O, 1/I), in groups of four. */
export function giftCardCode(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const bytes = crypto.randomBytes(16);
  let code = '';
  for (let index = 0; index < 16; index++) {
    if (index > 0 && index % 4 === 0) code += '-';
    code += alphabet[bytes[index]! % alphabet.length];
  }
  return code;
}

interface VariantTake {
  productId: string;
  variantId: string;
  itemId: string;
  quantity: number;
}

/** The quantity each variant loses, summed over the lines (one variant may fill two lines). */
function stockTakes(cart: CartRecord): VariantTake[] {
  const takes = new Map<string, VariantTake>();
  for (const entry of cart.entries) {
    const key = `${entry.itemId}\u0000${entry.variantId}`;
    const take = takes.get(key) ?? { productId: entry.itemId, variantId: entry.variantId, itemId: entry.itemId, quantity: 0 };
    take.quantity += entry.quantity;
    takes.set(key, take);
  }
  return [...takes.values()];
}

/** A coupon of the store's that no longer applies (expired, under its minimum), as against one never known or a second one. */
function lapsedReason(reason: string): boolean {
  return reason !== COUPON_REASONS.unknown && reason !== COUPON_REASONS.oneOnly;
}

/** itemId → message for every line whose product or variant left the catalogue (the cart read says it). */
function unavailableLines(cart: CartRecord): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const entry of cart.entries) if (entry.available === false) errors[entry.itemId] = FIELD_TEXT.itemUnavailable;
  return errors;
}

/**
 * The lines that cannot be had (read, no lock): ITEM_UNAVAILABLE for a line whose product or
 * variant is gone (it will not come back in stock; the out-of-stock sentence said it would),
 * else OUT_OF_STOCK for every line whose variant has fewer left than the cart holds.
 */
async function checkLinesAvailable(repo: Repository, cart: CartRecord): Promise<void> {
  const gone = unavailableLines(cart);
  const short: Record<string, string> = {};
  for (const take of stockTakes(cart)) {
    const product = await repo.getProduct(take.productId);
    const variant = product?.variants.find((candidate) => candidate.id === take.variantId);
    if (!variant) gone[take.itemId] = FIELD_TEXT.itemUnavailable;
    else if (!variant.unlimited && variant.qtyInStock < take.quantity) short[take.itemId] = FIELD_TEXT.outOfStock;
  }
  if (Object.keys(gone).length > 0) throw CHECKOUT_ERR.itemUnavailable(gone);
  if (Object.keys(short).length > 0) throw CHECKOUT_ERR.outOfStock(short);
}

/**
 * The most units of stock one order paid offline may hold when the shop sets none (designed
 * here; catalog.json `site.settings.commerce.offlineOrderMaxUnits` sets the shop's own, a
 * wholesale shop selling by the case needs more). Such an order takes its stock as it is placed
 * and holds it, with no money taken, until the owner marks it paid or cancels it. The
 * per-address bound on those orders (`offlineOrders`, 5 a day) counted orders, not what each
 * held: one anonymous order of every line at its full stock sold the whole demo shop out (13
 * products shown sold out). Units of unlimited variants (downloads, gift cards, services
 * without stock) hold nothing and are not counted.
 */
export const MAX_OFFLINE_ORDER_UNITS = 10;

/** The shop's bound on the stock one order paid offline holds (MAX_OFFLINE_ORDER_UNITS unless set). */
export function offlineOrderMaxUnits(site: Site): number {
  return commerceRules(site).offlineOrderMaxUnits ?? MAX_OFFLINE_ORDER_UNITS;
}

export const OFFLINE_ORDER_ERR = {
  tooLarge: (units: number, maxUnits: number) =>
    new ApiError(
      422,
      'OFFLINE_ORDER_TOO_LARGE',
      offlineOrderTooLargeText(maxUnits, units),
    ),
};

/** The units of stock the cart's lines would take (unlimited variants take none). */
export async function stockUnits(repo: Repository, cart: CartRecord): Promise<number> {
  let units = 0;
  for (const take of stockTakes(cart)) {
    const product = await repo.getProduct(take.productId);
    const variant = product?.variants.find((candidate) => candidate.id === take.variantId);
    if (!variant || !variant.unlimited) units += take.quantity;
  }
  return units;
}

/**
 * What the checkout view says of the bound (`offlineOrderMaxUnits`, `stockUnits`), counted as
 * placing counts, so the island can say a cart is too large to pay offline before Place order.
 */
export async function offlineOrderUnits(repo: Repository, site: Site, cart: CartRecord): Promise<OfflineOrderUnits> {
  return { offlineOrderMaxUnits: offlineOrderMaxUnits(site), stockUnits: await stockUnits(repo, cart) };
}

/** Refuses an order paid offline that would hold more stock than the shop's bound. */
async function checkOfflineUnits(repo: Repository, site: Site, cart: CartRecord): Promise<void> {
  const units = await stockUnits(repo, cart);
  const maxUnits = offlineOrderMaxUnits(site);
  if (units > maxUnits) throw OFFLINE_ORDER_ERR.tooLarge(units, maxUnits);
}

function addMonths(time: number, months: number): number {
  const date = new Date(time);
  date.setUTCMonth(date.getUTCMonth() + months);
  return date.getTime();
}

function nextBilling(from: number, period: OrderSubscription['billingPeriod']): number {
  if (period.unit === 'WEEK') return from + period.value * 7 * 24 * 60 * 60 * 1000;
  return addMonths(from, period.unit === 'MONTH' ? period.value : period.value * 12);
}

/** The subscription plan of the cart's product, checked (seed: billingPeriod {value, unit}, numBillingCycles). */
function subscriptionPlan(plan: Record<string, unknown> | null): { billingPeriod: OrderSubscription['billingPeriod']; numBillingCycles: number } {
  const period = (plan?.billingPeriod ?? {}) as Record<string, unknown>;
  const unit = period.unit === 'WEEK' || period.unit === 'YEAR' ? period.unit : 'MONTH';
  const value = typeof period.value === 'number' && Number.isInteger(period.value) && period.value > 0 ? period.value : 1;
  const cycles = typeof plan?.numBillingCycles === 'number' && Number.isInteger(plan.numBillingCycles) && plan.numBillingCycles >= 0 ? plan.numBillingCycles : 0;
  return { billingPeriod: { value, unit }, numBillingCycles: cycles };
}

/**
 * The order's lines. A line's additional-fields answers (an engraving) travel with it, labelled
 * by the product's form as it is now, so the receipt, the confirmation page and the owner's
 * order all say what to make.
 */
async function orderItems(repo: Repository, cart: CartRecord): Promise<OrderItem[]> {
  const fieldValues = await entryFieldValues(repo, cart);
  return cart.entries.map((entry, index) => {
    const item: OrderItem = {
      sku: entry.sku,
      productName: entry.title,
      quantity: entry.quantity,
      unitPrice: entry.purchasePriceCents,
      itemId: entry.itemId,
      variantId: entry.variantId,
      productType: entry.productType,
      variantLabel: Object.values(entry.attributes).join(' / '),
      lineTotal: entry.purchasePriceCents * entry.quantity,
    };
    if (typeof entry.additionalFields === 'string' && entry.additionalFields !== '') {
      item.additionalFields = entry.additionalFields;
      item.fieldValues = fieldValues[index] ?? [];
    }
    return item;
  });
}

/** Field checks of the whole submission; throws CHECKOUT_INVALID with every field's message. */
function checkFields(site: Site, input: PlaceOrderInput, totals: Totals, now: number) {
  const errors = contactErrors(input.email, input.shippingAddress, totals.requiresShipping);
  if (totals.requiresShipping && totals.shippingOptions.length > 0 && totals.selectedShippingOption === null) {
    errors.shippingOptionId = totals.shippingOptionUnavailable ? FIELD_TEXT.shippingOptionUnavailable : FIELD_TEXT.shippingOption;
  }
  // A store with shipping options, none of which serves the address (each names its countries):
  // the order went through with no option and no shipping cost, to a country the owner does not
  // ship to. A store with no options at all ships free, as before.
  if (totals.noShippingToAddress) errors.shippingOptionId = FIELD_TEXT.noShippingToAddress;
  const provider = providersOf(site).find((candidate) => candidate.id === input.payment.provider);
  if (!provider) errors.payment = FIELD_TEXT.payment;
  else Object.assign(errors, provider.check(input.payment, now));
  if (Object.keys(errors).length > 0) throw CHECKOUT_ERR.invalid(errors);
  return provider!;
}

/**
 * Places the order of `input.cartToken`. Throws ApiError: CART_NOT_FOUND, CART_PURCHASED,
 * CART_EMPTY, CHECKOUT_INVALID (field errors), BELOW_MINIMUM_SUBTOTAL, ITEM_UNAVAILABLE, OUT_OF_STOCK,
 * OFFLINE_ORDER_TOO_LARGE, PAYMENT_DECLINED, CART_CHANGED. A declined payment or any failure writes nothing.
 */
export async function placeOrder(deps: OrderDeps, site: Site, input: PlaceOrderInput, session: Session | null): Promise<PlaceOrderResult> {
  const now = deps.now();
  const cart = await checkoutCart(deps.store.read, input.cartToken, session, now);
  const earlier = await deps.store.read.orders.findByIdempotencyKey(cart.id, input.idempotencyKey);
  if (earlier) return { order: earlier, replayed: true };
  if (cart.isPurchased) throw CHECKOUT_ERR.cartPurchased();
  if (cart.entries.length === 0) throw CHECKOUT_ERR.cartEmpty();

  const totals = quote(cart, site, input, now);
  const provider = checkFields(site, input, totals, now);
  const quotedLines = linesKey(cart);
  const lapsed = totals.invalidCoupons.find((coupon) => (input.couponCodes ?? []).some((code) => code.trim().toUpperCase() === coupon.code.toUpperCase()));
  if (input.expectedTotalCents != null && input.expectedTotalCents !== totals.grandTotalCents) {
    const sameLines = input.expectedLinesKey == null || input.expectedLinesKey === quotedLines;
    throw lapsed && sameLines ? CHECKOUT_ERR.couponLapsed(lapsed.reason) : CHECKOUT_ERR.cartChanged();
  }
  // A caller that sends no expected total (a direct API client) was charged the full price,
  // without a word, when its coupon lapsed (expired, or the subtotal fell under its minimum)
  // after it was quoted: more than it was last quoted. Refused as the expected-total path
  // refuses it, same code and words; sending the codes that apply, or none, places the order.
  // A code the store does not know, or a second coupon, never discounted any quote, so it is
  // not taken as lapsed; the response's `couponCodes` names what applied. (The island always
  // sends its total: a lapse it was shown is the check above.)
  const lapsedKnown = totals.invalidCoupons.find((coupon) => lapsedReason(coupon.reason) && (input.couponCodes ?? []).some((code) => code.trim().toUpperCase() === coupon.code.toUpperCase()));
  if (input.expectedTotalCents == null && lapsedKnown) throw CHECKOUT_ERR.couponLapsed(lapsedKnown.reason);
  if (input.expectedLinesKey != null && input.expectedLinesKey !== quotedLines) throw CHECKOUT_ERR.cartChanged();
  if (totals.belowMinimum && totals.minimumMessage) throw CHECKOUT_ERR.belowMinimum(totals.minimumMessage);
  // Read-only pre-check, so an obviously sold-out cart is never sent to the provider; the
  // transaction below is what actually guarantees the stock.
  await checkLinesAvailable(deps.store.read, cart);
  if (provider.kind === 'offline') {
    await checkOfflineUnits(deps.store.read, site, cart);
    // Counted only now: an order refused by any check above (too large, sold out, a field)
    // holds nothing and is no offline order, so it must not use up the address's day.
    await input.countOfflineOrder?.();
  }

  const orderId = deps.newId('o');
  const outcome: PaymentOutcome = await provider.authorize({
    orderId,
    amountCents: totals.grandTotalCents,
    currency: knownCurrency(site.settings.currency),
    details: input.payment,
    now,
    shipsNothing: !totals.requiresShipping,
  });
  if (outcome.kind === 'declined') throw CHECKOUT_ERR.declined(outcome.message);

  try {
    const result = await deps.store.transaction((repo) => commitOrder(deps, repo, site, input, session, { orderId, outcome, quoted: totals, quotedLines }));
    if (result.replayed) await provider.void(outcome.reference);
    return result;
  } catch (error) {
    // The order did not commit: give the approval back (nothing else was written).
    await provider.void(outcome.reference).catch(() => {});
    throw error;
  }
}

async function commitOrder(
  deps: OrderDeps,
  repo: Repository,
  site: Site,
  input: PlaceOrderInput,
  session: Session | null,
  paid: { orderId: string; outcome: Extract<PaymentOutcome, { kind: 'approved' }>; quoted: Totals; quotedLines: string },
): Promise<PlaceOrderResult> {
  const now = deps.now();
  // The cart row lock serialises two submissions of one cart: the second waits here, then
  // finds the first one's order by its key (a retry) or the cart purchased (another key).
  const cart = await checkoutCart(repo, input.cartToken, session, now, { lock: true });
  const earlier = await repo.orders.findByIdempotencyKey(cart.id, input.idempotencyKey);
  if (earlier) return { order: earlier, replayed: true };
  if (cart.isPurchased) throw CHECKOUT_ERR.cartPurchased();
  const totals = quote(cart, site, input, now);
  // The lines changed between the quote and the lock (another tab): the amount authorized is stale.
  // Other lines at the same total too: the order would hold lines the checks above never saw.
  if (totals.grandTotalCents !== paid.quoted.grandTotalCents || linesKey(cart) !== paid.quotedLines || cart.entries.length === 0) throw CHECKOUT_ERR.cartChanged();
  // Again under the lock: free lines added in another tab change no total.
  if (paid.outcome.status === 'awaiting-payment') await checkOfflineUnits(repo, site, cart);
  // Again under the lock: the owner may have removed a product since the pre-check, and taking
  // stock only looks at the variant.
  const gone = unavailableLines(cart);
  if (Object.keys(gone).length > 0) throw CHECKOUT_ERR.itemUnavailable(gone);

  const short: Record<string, string> = {};
  for (const take of stockTakes(cart)) {
    if (!(await repo.orders.takeStock(take.productId, take.variantId, take.quantity))) short[take.itemId] = FIELD_TEXT.outOfStock;
  }
  // Throwing rolls back every take above.
  if (Object.keys(short).length > 0) throw CHECKOUT_ERR.outOfStock(short);

  const currency = knownCurrency(site.settings.currency);
  const items = await orderItems(repo, cart);
  // A gift card is issued once it is paid for: an order awaiting payment gets its codes when the
  // owner marks it paid (order-status.ts). Issued at once, anyone could take codes home from an
  // order they never paid.
  const giftCardCodes = paid.outcome.status === 'paid' ? await issueGiftCards(repo, { id: paid.orderId, websiteId: cart.websiteId, currency, items }, now) : [];
  const email = input.email.trim();
  let subscription: OrderSubscription | null = null;
  if (cart.kind === 'subscription' && items[0]) {
    const line = items[0];
    const product = await repo.getProduct(line.itemId);
    const plan = subscriptionPlan(product?.subscriptionPlan ?? null);
    subscription = { id: deps.newId('s'), itemId: line.itemId, sku: line.sku, ...plan };
    await repo.orders.insertSubscription({
      id: subscription.id, websiteId: cart.websiteId, orderId: paid.orderId, email, itemId: line.itemId, variantId: line.variantId, sku: line.sku,
      quantity: line.quantity, priceCents: line.unitPrice, billingPeriod: plan.billingPeriod, numBillingCycles: plan.numBillingCycles,
      createdOn: now, nextBillingOn: nextBilling(now, plan.billingPeriod),
    });
  }

  const shippingOption = totals.shippingOptions.find((option) => option.id === totals.selectedShippingOption) ?? null;
  const order: PlacedOrder = {
    id: paid.orderId,
    orderNumber: await repo.orders.nextNumber(cart.websiteId),
    purchasedCartId: cart.id,
    testMode: paid.outcome.testMode,
    websiteId: cart.websiteId,
    email,
    status: paid.outcome.status,
    createdOn: now,
    currency,
    items,
    subtotal: totals.subtotalCents,
    discountTotal: totals.discountCents,
    grandTotal: totals.grandTotalCents,
    shippingTotal: totals.shippingCostCents,
    taxTotal: totals.taxCents,
    shippingAddress: totals.requiresShipping && input.shippingAddress ? normaliseAddress(input.shippingAddress) : null,
    shippingOptionName: shippingOption?.name ?? null,
    couponCodes: totals.validCoupons.map((coupon) => coupon.code),
    payment: { provider: input.payment.provider, reference: paid.outcome.reference, label: paid.outcome.label },
    giftCardCodes,
    // Paid now: its digital lines get their download links (digital-downloads.ts); an order
    // awaiting payment gets them when the owner marks it paid (order-status.ts).
    ...(paid.outcome.status === 'paid' && hasDigitalLines({ items }) ? { downloadToken: newDownloadToken() } : {}),
    subscription,
    // Placed signed in: the order is the account's (checkoutCart held an owned cart to this
    // session's user), listed on the order status page. Signed out: no one's, whatever the email.
    siteUserId: session?.siteUserId ?? null,
    restockedOn: null,
    // The page renderer's order view (pages/page-views.ts orderView) reads the currency here.
    extra: { currency },
  };
  await repo.orders.insert(order, input.idempotencyKey);
  await repo.orders.markCartPurchased(cart.id, order.id);
  const receipt = orderReceiptMail(order, { title: commerceRules(site).storeName ?? null, url: input.siteUrl ?? null });
  // Sent by the outbox worker once this transaction commits (mail/README.md), as text and HTML.
  await enqueueMail(repo, { id: deps.newId('m'), to: email, subject: receipt.subject, body: receipt.text, html: receipt.html, queuedOn: now });
  return { order, replayed: false };
}
