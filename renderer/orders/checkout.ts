import crypto from 'node:crypto';
import { ADDRESS_FIELD_MAX, CHECKOUT_FIELD_TEXT, ITEMS_UNAVAILABLE_TEXT, addressTooLongText } from '../../hydrate/shared/checkout-text.ts';
import { exceedsMaxLength } from '../../hydrate/shared/text-length.ts';
import { knownCurrency } from '../../hydrate/shared/currency.ts';
import { fieldValueLines, type FieldValueLine } from '../../hydrate/shared/field-values.ts';
import { ApiError } from '../api/errors.ts';
import { isValidEmail } from '../api/form-validation.ts';
import type { Repository } from '../store/repository.ts';
import type { CartRecord, CommerceSettings, Session, ShippingAddress, Site } from '../store/types.ts';
import { offeredProviders, providerViews, type PaymentProvider } from './payment-providers.ts';
import { priceCheckout, type PricedLine, type Totals } from './pricing.ts';

// The checkout of one cart (`cartToken` is the cart's id): which carts can be checked out,
// their lines as pricing sees them, the CheckoutView the island renders, and the checks of
// the contact and shipping fields. Used by the checkout routes and placeOrder alike, so the
// quote and the order are computed the same way.

export const CHECKOUT_ERR = {
  cartNotFound: () => new ApiError(404, 'CART_NOT_FOUND', 'This cart cannot be checked out.'),
  // A signed-in visitor's cart, asked for with no session: they signed out (in another tab, or
  // the session ended) while at the checkout. "This cart cannot be checked out." left them
  // guessing with a filled form; this says what happened and what to do.
  signedOut: () => new ApiError(401, 'NOT_AUTHENTICATED', 'You are signed out. Sign in again to check out this cart.'),
  cartPurchased: () => new ApiError(409, 'CART_PURCHASED', 'This cart has already been purchased.'),
  cartEmpty: () => new ApiError(409, 'CART_EMPTY', 'Your cart is empty.'),
  cartChanged: () => new ApiError(409, 'CART_CHANGED', 'Your cart changed while you were checking out. Please review the totals.'),
  // The cart is as it was, but a coupon the summary counted no longer applies (it expired, or the
  // subtotal fell under its minimum): "your cart changed" sent the buyer looking for a change
  // that was not there. Same code, the coupon's own reason in words.
  couponLapsed: (reason: string) =>
    new ApiError(409, 'CART_CHANGED', `A coupon you applied no longer applies: ${reason} Please review the totals.`, { errors: { couponCodes: reason } }),
  invalid: (errors: Record<string, string>) => new ApiError(400, 'CHECKOUT_INVALID', 'Please correct the highlighted fields.', { errors }),
  belowMinimum: (message: string) => new ApiError(422, 'BELOW_MINIMUM_SUBTOTAL', message),
  outOfStock: (errors: Record<string, string>) =>
    new ApiError(409, 'OUT_OF_STOCK', 'Sorry, we do not have enough of that item available.', { errors }),
  // A line the owner removed from the catalogue is no stock question: "not enough" had the
  // buyer wait for a restock that will never come. `errors` names the lines, as OUT_OF_STOCK's does.
  itemUnavailable: (errors: Record<string, string>) => new ApiError(409, 'ITEM_UNAVAILABLE', ITEMS_UNAVAILABLE_TEXT, { errors }),
  declined: (message: string) => new ApiError(402, 'PAYMENT_DECLINED', message, { errors: { cardNumber: message } }),
};

/** The field messages, one copy shared with the checkout island's own checks. */
export const FIELD_TEXT = CHECKOUT_FIELD_TEXT;

/** The most any address field may hold (the schema allows more, so that this is the message). */
export { ADDRESS_FIELD_MAX };

export function commerceRules(site: Site): CommerceSettings {
  return site.settings.commerce ?? {};
}

/**
 * The cart a checkout may use: not expired, of the caller when it belongs to a user (the
 * API's owner rule: knowing a signed-in user's cart id grants nothing). A purchased cart is
 * returned; the caller decides (the view shows it purchased, placing refuses it).
 */
export async function checkoutCart(repo: Repository, cartToken: string, session: Session | null, now: number, options: { lock?: boolean } = {}): Promise<CartRecord> {
  const cart = cartToken.length <= 200 ? await repo.getCart(cartToken, options) : null;
  if (!cart) throw CHECKOUT_ERR.cartNotFound();
  if (!cart.isPurchased && cart.expiresAt !== null && cart.expiresAt <= now) throw CHECKOUT_ERR.cartNotFound();
  // Another account's cart stays "not found" (knowing an id grants nothing, not even whose it is).
  if (cart.ownerSiteUserId !== null && session === null) throw CHECKOUT_ERR.signedOut();
  if (cart.ownerSiteUserId !== null && cart.ownerSiteUserId !== session?.siteUserId) throw CHECKOUT_ERR.cartNotFound();
  return cart;
}

/** The cart's lines at the prices fixed when each was added (B2 `purchasePriceCents`). */
export function cartLines(cart: CartRecord): PricedLine[] {
  return cart.entries.map((entry) => ({
    itemId: entry.itemId,
    sku: entry.sku,
    productName: entry.title,
    variantLabel: Object.values(entry.attributes).join(' / '),
    quantity: entry.quantity,
    unitPriceCents: entry.purchasePriceCents,
    productType: entry.productType,
  }));
}

/**
 * A fingerprint of the cart's lines (what, how many, at what price, with which answers). The
 * total alone let a cart changed in another tab through when the total stayed the same (one tee
 * swapped for another of its price, a free line added): the order would hold lines the checkout
 * never showed. The view carries it and Place order sends it back (`expectedLinesKey`).
 */
export function linesKey(cart: Pick<CartRecord, 'entries'>): string {
  const lines = cart.entries.map((entry) => [entry.itemId, entry.variantId, entry.quantity, entry.purchasePriceCents, entry.additionalFields ?? '']);
  return crypto.createHash('sha256').update(JSON.stringify(lines)).digest('hex').slice(0, 32);
}

export interface QuoteInput {
  shippingAddress?: ShippingAddress | null;
  shippingOptionId?: string | null;
  couponCodes?: readonly string[];
}

export function quote(cart: CartRecord, site: Site, input: QuoteInput, now: number): Totals {
  return priceCheckout({
    lines: cartLines(cart),
    rules: commerceRules(site),
    currency: knownCurrency(site.settings.currency),
    shippingLocation: input.shippingAddress ? normaliseAddress(input.shippingAddress) : null,
    shippingOptionId: input.shippingOptionId ?? null,
    couponCodes: input.couponCodes ?? [],
    now,
  });
}

export function providersOf(site: Site): PaymentProvider[] {
  return offeredProviders(commerceRules(site).paymentProviders);
}

/**
 * Each entry's additional-fields answers (an engraving), labelled by its product's form, in
 * entry order ([] for an entry without any): the checkout summary and the placed order show them.
 */
export async function entryFieldValues(repo: Pick<Repository, 'listForms' | 'getProduct'>, cart: CartRecord): Promise<FieldValueLine[][]> {
  const answered = (entry: CartRecord['entries'][number]) => typeof entry.additionalFields === 'string' && entry.additionalFields !== '';
  if (!cart.entries.some(answered)) return cart.entries.map(() => []);
  const forms = new Map((await repo.listForms()).map((form) => [form.id, form]));
  // Lines of one product (one per engraving) read it once.
  const formOf = new Map<string, string | null | undefined>();
  const out: FieldValueLine[][] = [];
  for (const entry of cart.entries) {
    if (answered(entry) && !formOf.has(entry.itemId)) formOf.set(entry.itemId, (await repo.getProduct(entry.itemId))?.additionalFieldsFormId);
    const formId = answered(entry) ? formOf.get(entry.itemId) : null;
    const form = formId ? forms.get(formId) : undefined;
    out.push(form ? fieldValueLines(form.fields, entry.additionalFields) : []);
  }
  return out;
}

/**
 * The bound on an order paid offline and this cart's units of stock as placing counts them
 * (place-order.ts `offlineOrderUnits`): the island says a cart is too large to pay offline at
 * the payment choice, where the 422 OFFLINE_ORDER_TOO_LARGE came only after Place order.
 */
export interface OfflineOrderUnits {
  offlineOrderMaxUnits: number;
  stockUnits: number;
}

/** The CheckoutView of the orders contract: the cart entity's names, plus what the island needs. */
export function checkoutView(cart: CartRecord, site: Site, totals: Totals, fieldValues: readonly FieldValueLine[][], offline: OfflineOrderUnits) {
  const { shippingOptionUnavailable: _unavailable, ...named } = totals;
  return {
    cartToken: cart.id,
    websiteId: cart.websiteId,
    currency: knownCurrency(site.settings.currency),
    kind: cart.kind === 'subscription' ? ('subscription' as const) : ('cart' as const),
    orderId: cart.orderId,
    isPurchased: cart.isPurchased,
    entries: cart.entries.map((entry, index) => ({
      itemId: entry.itemId,
      productId: entry.itemId,
      sku: entry.sku,
      productName: entry.title,
      variantLabel: Object.values(entry.attributes).join(' / '),
      quantity: entry.quantity,
      unitPriceCents: entry.purchasePriceCents,
      lineTotalCents: entry.purchasePriceCents * entry.quantity,
      productType: entry.productType,
      fieldValues: fieldValues[index] ?? [],
      // The owner removed its product since it was added: the checkout says so at the line
      // before Place order, which would refuse it (ITEM_UNAVAILABLE).
      ...(entry.available === false ? { unavailable: CHECKOUT_FIELD_TEXT.itemUnavailable } : {}),
    })),
    totalQuantity: cart.entries.reduce((sum, entry) => sum + entry.quantity, 0),
    linesKey: linesKey(cart),
    ...named,
    // A cart with no physical line is offered no pickup (the 207 page's shipsNothing, the order's label).
    paymentProviders: providerViews(providersOf(site), !totals.requiresShipping),
    offlineOrderMaxUnits: offline.offlineOrderMaxUnits,
    stockUnits: offline.stockUnits,
  };
}

export type CheckoutView = ReturnType<typeof checkoutView>;

/** Trimmed fields, an upper-case country, no empty line2. */
export function normaliseAddress(address: ShippingAddress): ShippingAddress {
  const trim = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
  const line2 = trim(address.line2);
  return {
    firstName: trim(address.firstName),
    lastName: trim(address.lastName),
    line1: trim(address.line1),
    ...(line2 ? { line2 } : {}),
    city: trim(address.city),
    region: trim(address.region),
    postalCode: trim(address.postalCode),
    country: trim(address.country).toUpperCase(),
  };
}

const ADDRESS_FIELDS = ['firstName', 'lastName', 'line1', 'city', 'region', 'postalCode'] as const;

/** Field errors of the contact email and (when the cart ships) the address, keyed as the contract names them. */
export function contactErrors(email: unknown, address: ShippingAddress | null | undefined, requiresShipping: boolean): Record<string, string> {
  const errors: Record<string, string> = {};
  const mail = typeof email === 'string' ? email.trim() : '';
  if (mail === '') errors.email = FIELD_TEXT.emailBlank;
  else if (!isValidEmail(mail)) errors.email = FIELD_TEXT.emailInvalid;
  if (!requiresShipping) return errors;
  if (!address) {
    errors.shippingAddress = FIELD_TEXT.addressMissing;
    return errors;
  }
  const clean = normaliseAddress(address);
  for (const field of ADDRESS_FIELDS) {
    if (clean[field] === '') errors[`shippingAddress.${field}`] = FIELD_TEXT[field];
    else if (exceedsMaxLength(clean[field], ADDRESS_FIELD_MAX)) errors[`shippingAddress.${field}`] = addressTooLongText(field);
  }
  // The optional line is checked for its length only.
  if (clean.line2 !== undefined && exceedsMaxLength(clean.line2, ADDRESS_FIELD_MAX)) errors['shippingAddress.line2'] = addressTooLongText('line2');
  if (!/^[A-Z]{2}$/.test(clean.country)) errors['shippingAddress.country'] = FIELD_TEXT.country;
  return errors;
}
