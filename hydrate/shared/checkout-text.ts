// The checkout's field messages (issue 15), one copy for the server's checks (renderer/orders)
// and the checkout island's own checks before it sends, so a visitor reads the same sentence
// whichever side found the problem.

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
  payment: 'Choose a payment method.',
  outOfStock: 'Sorry, we do not have enough of that item available.',
} as const;

/** Card entry (the `test` provider's checks; the island checks the shape before sending). */
export const CARD_TEXT = {
  cardNumber: 'Enter a valid card number.',
  expiry: 'Enter a valid expiry date.',
  expired: 'Your card has expired.',
  cvc: 'Enter a valid security code.',
  declined: 'Your card was declined.',
} as const;
