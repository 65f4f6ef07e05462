// The checkout's field messages (issue 15), one copy for the server's checks (renderer/orders)
// and the checkout island's own checks before it sends, so a visitor reads the same sentence
// whichever side found the problem.

import { tryAgainInText } from './retry-wait.ts';

export const CHECKOUT_FIELD_TEXT = {
  emailBlank: 'Enter your email address.',
  emailInvalid: 'Enter a valid email address.',
  addressMissing: 'Enter a shipping address.',
  firstName: 'Enter your first name.',
  lastName: 'Enter your last name.',
  line1: 'Enter your street address.',
  city: 'Enter your city.',
  region: 'Enter your state or region.',
  postalCode: 'Enter your postal code.',
  // The island offers countries in a dropdown, so the visitor is never asked for a code; an
  // API client sending something other than ISO 3166-1 alpha-2 reads the schema's description.
  country: 'Choose a country.',
  shippingOption: 'Choose a shipping option.',
  shippingOptionUnavailable: 'This shipping option does not deliver to that address.',
  noShippingToAddress: 'We do not ship to that address.',
  payment: 'Choose a payment method.',
  outOfStock: 'Sorry, we do not have enough of that item available.',
  // A line whose product (or variant) the owner removed from the catalogue while it sat in the
  // cart: it was said with the out-of-stock sentence, so the visitor waited for a restock that
  // will never come. Designed here (the spec names no text): said at the line on the cart page
  // and at checkout, and as B26's refusal; `ITEM_UNAVAILABLE` in the error catalogue.
  itemUnavailable: 'Sorry, this item is no longer available. Please remove it from your cart.',
} as const;

/** Place order's `ITEM_UNAVAILABLE` (409): the lines are named in `errors`, keyed by item id. */
export const ITEMS_UNAVAILABLE_TEXT = 'Sorry, an item in your cart is no longer available. Please remove it from your cart to check out.';

/**
 * Said at the coupon field when the server refused a new code (429 `RATE_LIMITED`, limit
 * `couponGuesses`): too many codes that do not exist were tried from this connection. The codes
 * already applied keep applying; the wait is the answer's Retry-After, in whole minutes.
 */
export function couponsLimitedText(retryAfterSeconds: number): string {
  return `Too many coupon codes were tried. ${tryAgainInText(retryAfterSeconds)}`;
}

/**
 * Said when an order paid offline would hold more units of stock than the shop allows
 * (catalog.json `commerce.offlineOrderMaxUnits`): the server's 422 `OFFLINE_ORDER_TOO_LARGE`
 * and the checkout island at the offline payment choice, before Place order, read the same words.
 */
export function offlineOrderTooLargeText(maxUnits: number, units: number): string {
  // A shop may set 1: "at most 1 items" read wrong.
  return `An order paid offline can hold at most ${maxUnits} ${maxUnits === 1 ? 'item' : 'items'} from stock; this cart has ${units}. Remove some, or choose another payment method.`;
}

/**
 * The sentence said at the offline payment choice before Place order, or null when the cart is
 * within the bound (or the bound is unknown: a view from an older server). One rule for the
 * server's checkout markup (renderer/pages/page-types/checkout.ts) and the island, so the page
 * drawn before the island and the island's form say the same thing in the same place.
 */
export function offlineLimitText(maxUnits: number | null, units: number): string | null {
  return maxUnits !== null && units > maxUnits ? offlineOrderTooLargeText(maxUnits, units) : null;
}

/** The class of that sentence's `<p>` (the error colour, the shop's stylesheet). */
export const OFFLINE_LIMIT_CLASS = 'sf-checkout-offline-limit';

/** The id of that sentence at the offline provider `providerId`'s choice: its radio's aria-describedby. */
export function offlineLimitId(providerId: string): string {
  return `sf-checkout-provider-${providerId}-limit`;
}

/**
 * The most any shipping-address field may hold, counted as the site forms count a limit
 * (hydrate/shared/text-length.ts: trimmed, in code points). Longer than any real address line;
 * the bound keeps a stored order and its label sane.
 */
export const ADDRESS_FIELD_MAX = 200;

/** What each address part is called in a sentence (the field's label, lower-cased where it reads so). */
const ADDRESS_PART_NAMES = {
  firstName: 'first name',
  lastName: 'last name',
  line1: 'street address',
  line2: 'apartment or suite line',
  city: 'city',
  region: 'state or region',
  postalCode: 'postal code',
  country: 'country',
} as const;

export type AddressPart = keyof typeof ADDRESS_PART_NAMES;

/**
 * An address part over ADDRESS_FIELD_MAX: the message names the field and the limit, so the
 * visitor knows what to shorten and by how much (before, the server said "Invalid
 * shippingAddress." or asked to "Enter your city." that was there).
 */
export function addressTooLongText(part: AddressPart): string {
  const name = ADDRESS_PART_NAMES[part];
  return `The ${name} can be at most ${ADDRESS_FIELD_MAX} characters.`;
}

/** Card entry (the `test` provider's checks; the island checks the shape before sending). */
export const CARD_TEXT = {
  cardNumber: 'Enter a valid card number.',
  expiry: 'Enter a valid expiry date.',
  expired: 'Your card has expired.',
  cvc: 'Enter a valid security code.',
  declined: 'Your card was declined.',
} as const;
