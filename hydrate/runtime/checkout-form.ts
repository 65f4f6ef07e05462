/**
 * The checkout island's wire shapes (the orders contract of issue 15) and its pure rules:
 * which fields it asks for, how a field's value becomes the API body, the client checks run
 * before anything is sent, and the per-attempt idempotency key. Kept free of React and the DOM
 * so the rules are tested as plain functions.
 */

import { ADDRESS_FIELD_MAX, CARD_TEXT, CHECKOUT_FIELD_TEXT, addressTooLongText, offlineLimitText } from '../shared/checkout-text.ts';
import { exceedsMaxLength } from '../shared/text-length.ts';
import type { ShippingAddress } from '../shared/shipping-address.ts';
import { isValidEmail } from '../shared/email.ts';
import type { FormField } from './form-fields.ts';

export const CHECKOUT_PATH = '/api/commerce/checkout';
export const QUOTE_PATH = '/api/commerce/checkout/quote';
export const PLACE_PATH = '/api/commerce/checkout/place';
export const GIFT_CARD_CART_PATH = '/api/commerce/checkout/gift-card';

export type { ShippingAddress };

export interface CheckoutEntry {
  itemId: string;
  productId: string;
  sku: string;
  productName: string;
  variantLabel: string;
  quantity: number;
  unitPriceCents: number;
  lineTotalCents: number;
  productType: number;
  /** What the buyer entered in the product's additional-fields form (an engraving); absent from older servers. */
  fieldValues?: { label: string; value: string }[];
  /** The sentence of a line whose product the owner removed from the catalogue (ITEM_UNAVAILABLE); absent otherwise. */
  unavailable?: string;
}

export interface ShippingOption {
  id: string;
  name: string;
  costCents: number;
  description?: string;
}

export interface PaymentProvider {
  id: string;
  label: string;
  kind: 'card' | 'offline';
}

export interface CheckoutView {
  cartToken: string;
  websiteId: string;
  currency: string;
  entries: CheckoutEntry[];
  subtotalCents: number;
  requiresShipping: boolean;
  hasDigital: boolean;
  purelyDigital: boolean;
  shippingLocation: ShippingAddress | null;
  shippingOptions: ShippingOption[];
  selectedShippingOption: string | null;
  /** The store's shipping options serve no part of the world this address is in. */
  noShippingToAddress: boolean;
  applicableTaxRules: Array<{ name: string; ratePercent: number }>;
  taxCents: number;
  shippingCostCents: number;
  coupons: string[];
  validCoupons: Array<{ code: string; description: string; discountCents: number }>;
  invalidCoupons: Array<{ code: string; reason: string }>;
  discountCents: number;
  grandTotalCents: number;
  minimumSubtotalCents: number;
  belowMinimum: boolean;
  minimumMessage: string | null;
  paymentProviders: PaymentProvider[];
  /** The most units of stock one order paid offline may hold (the shop's figure); null from an older server. */
  offlineOrderMaxUnits: number | null;
  /** The cart's units of stock as the server counts them for that bound (unlimited variants are not counted). */
  stockUnits: number;
  /** The fingerprint of the lines shown; Place order sends it back, so lines changed elsewhere are refused. */
  linesKey?: string;
}

export type AddressKey = keyof ShippingAddress;
export type CardKey = 'cardNumber' | 'expiry' | 'cvc';
/** The API's error keys (contract): `email`, `shippingAddress.<part>`, `shippingOptionId`, card fields. */
export type ErrorKey = 'email' | `shippingAddress.${AddressKey}` | 'shippingOptionId' | CardKey | 'coupon';

export interface CheckoutField {
  key: ErrorKey;
  field: FormField;
  /** Extra input attributes: autofill tokens and keyboards, so phones offer the right ones. */
  input: Record<string, string>;
  /** Said when a required field is left empty (the server's sentence for it). */
  blank: string;
}

const text = (key: ErrorKey, id: string, title: string, input: Record<string, string>, blank: string | null): CheckoutField => ({
  key,
  field: { id, type: key === 'email' ? 'email' : 'text', title, required: blank !== null },
  input,
  blank: blank ?? '',
});

const T = CHECKOUT_FIELD_TEXT;
export const EMAIL_FIELD = text('email', 'sf-checkout-email', 'Email', { autoComplete: 'email', spellCheck: 'false' }, T.emailBlank);

/** A short list covers the demo's shipping zones; the server checks the code whatever is sent. */
export const COUNTRIES: ReadonlyArray<{ value: string; label: string }> = [
  { value: 'US', label: 'United States' }, { value: 'CA', label: 'Canada' }, { value: 'GB', label: 'United Kingdom' },
  { value: 'IE', label: 'Ireland' }, { value: 'AU', label: 'Australia' }, { value: 'NZ', label: 'New Zealand' },
  { value: 'DE', label: 'Germany' }, { value: 'FR', label: 'France' }, { value: 'NL', label: 'Netherlands' },
  { value: 'BE', label: 'Belgium' }, { value: 'ES', label: 'Spain' }, { value: 'IT', label: 'Italy' },
  { value: 'SE', label: 'Sweden' }, { value: 'DK', label: 'Denmark' }, { value: 'NO', label: 'Norway' },
  { value: 'CH', label: 'Switzerland' }, { value: 'JP', label: 'Japan' }, { value: 'MX', label: 'Mexico' },
];

export const ADDRESS_FIELDS: ReadonlyArray<CheckoutField & { part: AddressKey }> = [
  { ...text('shippingAddress.firstName', 'sf-checkout-first-name', 'First name', { autoComplete: 'shipping given-name' }, T.firstName), part: 'firstName' },
  { ...text('shippingAddress.lastName', 'sf-checkout-last-name', 'Last name', { autoComplete: 'shipping family-name' }, T.lastName), part: 'lastName' },
  { ...text('shippingAddress.line1', 'sf-checkout-line1', 'Address', { autoComplete: 'shipping address-line1' }, T.line1), part: 'line1' },
  { ...text('shippingAddress.line2', 'sf-checkout-line2', 'Apartment, suite, etc. (optional)', { autoComplete: 'shipping address-line2' }, null), part: 'line2' },
  { ...text('shippingAddress.city', 'sf-checkout-city', 'City', { autoComplete: 'shipping address-level2' }, T.city), part: 'city' },
  { ...text('shippingAddress.region', 'sf-checkout-region', 'State / region', { autoComplete: 'shipping address-level1' }, T.region), part: 'region' },
  { ...text('shippingAddress.postalCode', 'sf-checkout-postal-code', 'Postal code', { autoComplete: 'shipping postal-code' }, T.postalCode), part: 'postalCode' },
  {
    key: 'shippingAddress.country',
    field: { id: 'sf-checkout-country', type: 'select', title: 'Country', required: true, placeholder: 'Choose a country', options: [...COUNTRIES] },
    input: { autoComplete: 'shipping country' },
    blank: T.country,
    part: 'country',
  },
];

export const CARD_FIELDS: ReadonlyArray<CheckoutField & { key: CardKey }> = [
  { ...text('cardNumber', 'sf-checkout-card-number', 'Card number', { autoComplete: 'cc-number', inputMode: 'numeric' }, CARD_TEXT.cardNumber), key: 'cardNumber' },
  { ...text('expiry', 'sf-checkout-expiry', 'Expiry (MM/YY)', { autoComplete: 'cc-exp', inputMode: 'numeric', placeholder: 'MM/YY' }, CARD_TEXT.expiry), key: 'expiry' },
  { ...text('cvc', 'sf-checkout-cvc', 'Security code (CVC)', { autoComplete: 'cc-csc', inputMode: 'numeric' }, CARD_TEXT.cvc), key: 'cvc' },
];

export const COUPON_INPUT_ID = 'sf-checkout-coupon';
/** The id of the i-th shipping option's radio; an option error focuses the first. */
export function shippingOptionId(index: number): string {
  return `sf-checkout-shipping-option-${index}`;
}

/** The element an error key's message belongs to, for focus and aria-describedby. */
export function controlIdOf(key: ErrorKey): string {
  if (key === 'shippingOptionId') return shippingOptionId(0);
  if (key === 'coupon') return COUPON_INPUT_ID;
  const all = [EMAIL_FIELD, ...ADDRESS_FIELDS, ...CARD_FIELDS];
  return all.find((f) => f.key === key)?.field.id ?? '';
}

/** Field keys in page order, so the first error found is the first one the visitor meets. */
export const FIELD_ORDER: readonly ErrorKey[] = [
  'email',
  ...ADDRESS_FIELDS.map((f) => f.key),
  'shippingOptionId',
  'coupon',
  ...CARD_FIELDS.map((f) => f.key),
];

export const CHECKOUT_MESSAGES = {
  coupon: 'Enter a coupon code.',
  couponAdded: 'That coupon is already applied.',
  unavailable: 'Checkout is not available for this cart.',
  placing: 'Placing order…',
  place: 'Place order',
} as const;

export type Errors = Partial<Record<ErrorKey, string>>;

/** Digits only: people type card numbers with spaces or dashes, as printed on the card. */
export function cardDigits(value: string): string {
  return value.replace(/[\s-]/g, '');
}

/** "MM/YY", "MM / YY", "MM/YYYY" or "MMYY" as a month and a four-digit year; null when unreadable. */
export function parseExpiry(value: string): { expMonth: number; expYear: number } | null {
  const match = /^\s*(\d{1,2})\s*(?:\/|-|\s)?\s*(\d{2}|\d{4})\s*$/.exec(value);
  if (!match) return null;
  const expMonth = Number(match[1]);
  let expYear = Number(match[2]);
  if (expMonth < 1 || expMonth > 12) return null;
  if (match[2]!.length === 2) expYear += 2000;
  return { expMonth, expYear };
}

export interface CardInput {
  cardNumber: string;
  expiry: string;
  cvc: string;
}

/** Client checks of the card fields' shape; the provider decides the rest (declines come from the server). */
export function cardErrors(card: CardInput, now: Date): Errors {
  const errors: Errors = {};
  if (!/^\d{12,19}$/.test(cardDigits(card.cardNumber))) errors.cardNumber = CARD_TEXT.cardNumber;
  const expiry = parseExpiry(card.expiry);
  if (!expiry) errors.expiry = CARD_TEXT.expiry;
  else if (expiry.expYear * 12 + expiry.expMonth < now.getFullYear() * 12 + now.getMonth() + 1) errors.expiry = CARD_TEXT.expired;
  if (!/^\d{3,4}$/.test(card.cvc.trim())) errors.cvc = CARD_TEXT.cvc;
  return errors;
}

/** Client checks of contact and address: each required part, and the D5 email rule. */
export function contactErrors(email: string, address: ShippingAddress | null): Errors {
  const errors: Errors = {};
  if (email.trim() === '') errors.email = T.emailBlank;
  else if (!isValidEmail(email.trim())) errors.email = T.emailInvalid;
  return address ? { ...errors, ...addressErrors(address) } : errors;
}

/** Each required address part left empty, and each part longer than the server takes; none when the address is complete. */
export function addressErrors(address: ShippingAddress): Errors {
  const errors: Errors = {};
  for (const { key, part, field, blank } of ADDRESS_FIELDS) {
    const value = address[part] ?? '';
    if (field.required && value.trim() === '') errors[key] = blank;
    // The server's rule and sentence (renderer/orders/checkout.ts), said before anything is sent.
    else if (part !== 'country' && exceedsMaxLength(value, ADDRESS_FIELD_MAX)) errors[key] = addressTooLongText(part);
  }
  return errors;
}

/** The address from collected field values (keyed by field id), trimmed; line2 only when given. */
export function addressOf(values: Record<string, unknown>): ShippingAddress {
  const out: Record<string, string> = {};
  for (const { part, field } of ADDRESS_FIELDS) {
    const value = values[field.id];
    const trimmed = typeof value === 'string' ? value.trim() : '';
    if (part !== 'line2' || trimmed !== '') out[part] = trimmed;
  }
  return out as unknown as ShippingAddress;
}

/** The parts that price shipping and tax; a quote is asked again only when these change. */
export function pricingKey(address: ShippingAddress): string | null {
  if (!address.country) return null;
  return [address.country, address.region, address.postalCode, address.city].join('\u0000');
}

/** The first error key in page order, or null. */
export function firstError(errors: Errors): ErrorKey | null {
  return FIELD_ORDER.find((key) => errors[key]) ?? null;
}

/** Server field errors (contract keys) kept when the island shows that key; the rest are returned apart. */
export function splitServerErrors(body: unknown): { fields: Errors; other: string[] } {
  const fields: Errors = {};
  const other: string[] = [];
  const errors = typeof body === 'object' && body !== null ? (body as { errors?: unknown }).errors : undefined;
  if (typeof errors !== 'object' || errors === null) return { fields, other };
  for (const [key, message] of Object.entries(errors as Record<string, unknown>)) {
    if (typeof message !== 'string') continue;
    if ((FIELD_ORDER as readonly string[]).includes(key)) fields[key as ErrorKey] = message;
    else other.push(message);
  }
  return { fields, other };
}

/**
 * The coupon field's message when the server refused new coupon codes: a 429 whose body names
 * `errors.couponCodes` (limit `couponGuesses`: too many unknown codes tried from here). Any
 * other failure is the quote's own (null).
 */
export function couponsLimitedMessage(status: number | null, body: unknown): string | null {
  if (status !== 429 || typeof body !== 'object' || body === null) return null;
  const errors = (body as { errors?: unknown }).errors;
  const text = typeof errors === 'object' && errors !== null ? (errors as { couponCodes?: unknown }).couponCodes : undefined;
  return typeof text === 'string' && text !== '' ? text : null;
}

/**
 * The codes of `sent` the server had already answered in a view (`shown`): the ones it keeps
 * checking once the guess limit is reached. The others were just added and are the refused ones.
 */
export function couponsAlreadyShown(sent: readonly string[], shown: readonly string[]): string[] {
  const known = new Set(shown.map((code) => code.trim().toUpperCase()));
  return sent.filter((code) => known.has(code.trim().toUpperCase()));
}

/**
 * A fresh idempotency key: 128 random bits as hex. `getRandomValues` works on plain-http
 * origins too, where `randomUUID` is missing.
 */
export function newIdempotencyKey(crypto: Pick<Crypto, 'getRandomValues'> = globalThis.crypto): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Whether a failed place answer settles the attempt. A definite refusal (field errors, decline,
 * stock) means the next press is a new attempt with a new key; no answer, a server fault, a
 * stale crumb or a rate limit leave the order's fate unknown or untouched, so the retry reuses
 * the key and the server answers it at most once.
 */
export function settlesAttempt(status: number | null, body: unknown): boolean {
  if (status === null || status >= 500 || status === 429) return false;
  if (typeof body === 'object' && body !== null && (body as { crumbFail?: unknown }).crumbFail === true) return false;
  return true;
}

/** A confirmation URL is followed only when it is a path on this site. */
export function safeConfirmationUrl(value: unknown): string | null {
  return typeof value === 'string' && value.startsWith('/') && !value.startsWith('//') && !value.includes('\\') ? value : null;
}

/** The order page of a cart the server says is purchased already (its view has `isPurchased` and `orderId`), else null. */
export function purchasedOrderUrl(body: unknown): string | null {
  const view = typeof body === 'object' && body !== null ? (body as { isPurchased?: unknown; orderId?: unknown }) : {};
  return view.isPurchased === true && typeof view.orderId === 'string' && view.orderId !== '' ? `/commerce/orders/${encodeURIComponent(view.orderId)}/confirmed` : null;
}

/** Normalises a view from the server: missing lists and numbers get their empty values. */
export function readView(body: unknown): CheckoutView | null {
  if (typeof body !== 'object' || body === null) return null;
  const v = body as Partial<CheckoutView>;
  if (typeof v.cartToken !== 'string' || !Array.isArray(v.entries)) return null;
  const list = <T>(value: T[] | undefined): T[] => (Array.isArray(value) ? value : []);
  const cents = (value: number | undefined): number => (typeof value === 'number' && Number.isInteger(value) ? value : 0);
  return {
    cartToken: v.cartToken,
    websiteId: typeof v.websiteId === 'string' ? v.websiteId : '',
    currency: typeof v.currency === 'string' ? v.currency : 'USD',
    entries: v.entries,
    subtotalCents: cents(v.subtotalCents),
    requiresShipping: v.requiresShipping === true,
    hasDigital: v.hasDigital === true,
    purelyDigital: v.purelyDigital === true,
    shippingLocation: v.shippingLocation ?? null,
    shippingOptions: list(v.shippingOptions),
    selectedShippingOption: typeof v.selectedShippingOption === 'string' ? v.selectedShippingOption : null,
    noShippingToAddress: v.noShippingToAddress === true,
    applicableTaxRules: list(v.applicableTaxRules),
    taxCents: cents(v.taxCents),
    shippingCostCents: cents(v.shippingCostCents),
    coupons: list(v.coupons),
    validCoupons: list(v.validCoupons),
    invalidCoupons: list(v.invalidCoupons),
    discountCents: cents(v.discountCents),
    grandTotalCents: cents(v.grandTotalCents),
    minimumSubtotalCents: cents(v.minimumSubtotalCents),
    belowMinimum: v.belowMinimum === true,
    minimumMessage: typeof v.minimumMessage === 'string' ? v.minimumMessage : null,
    paymentProviders: list(v.paymentProviders),
    offlineOrderMaxUnits: typeof v.offlineOrderMaxUnits === 'number' && Number.isInteger(v.offlineOrderMaxUnits) ? v.offlineOrderMaxUnits : null,
    stockUnits: cents(v.stockUnits),
    ...(typeof v.linesKey === 'string' && v.linesKey !== '' ? { linesKey: v.linesKey } : {}),
  };
}

/**
 * The server's OFFLINE_ORDER_TOO_LARGE sentence when this cart holds more stock than an order
 * paid offline may (said at the offline choice and refused at Place order before sending), else null.
 */
export function offlineTooLargeMessage(view: Pick<CheckoutView, 'offlineOrderMaxUnits' | 'stockUnits'>): string | null {
  return offlineLimitText(view.offlineOrderMaxUnits, view.stockUnits);
}
