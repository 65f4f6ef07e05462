// Every `code` a client can receive in a B0.2 error body (STOREFRONT.md B0.2), with its HTTP
// status and what it means for the client. It is the one list: `ApiError` only takes a key of
// it (an uncatalogued code fails `tsc`), docs/api-errors.md is generated from it
// (`npm run docs`), the OpenAPI document's error body lists its codes, and
// error-codes.test.ts keeps it and the sources in step (no dead entry, one status per code).
// A code's meaning is what a client may rely on; the `error` text beside it may change.

export interface ApiErrorEntry {
  /** The HTTP status the code is always sent with. */
  readonly status: number;
  /** One line for a client developer: when it is sent and what to do. */
  readonly meaning: string;
}

/** Where a code belongs in the reference (docs/api-errors.md sections). */
export type ApiErrorArea = keyof typeof API_ERROR_AREAS;

export const API_ERROR_AREAS = {
  generic: 'Any endpoint (B0.2)',
  session: 'Sign-in, security tokens and accounts',
  cart: 'Cart',
  checkout: 'Checkout and orders',
  catalog: 'Products, stock, restock notifications and reviews',
  forms: 'Forms',
  census: 'Census, beacons and platform events',
  owner: 'Owner, admin and store setup',
} as const;

const entry = (area: ApiErrorArea, status: number, meaning: string) => ({ area, status, meaning }) as const;

export const API_ERROR_CODES = {
  // Any endpoint
  NOT_FOUND: entry('generic', 404, 'No API route has this path.'),
  METHOD_NOT_ALLOWED: entry('generic', 405, 'The path exists but not for this method; the `Allow` header lists the methods it takes.'),
  BAD_JSON: entry('generic', 400, 'The content type says JSON but the body does not parse as JSON.'),
  BAD_REQUEST: entry('generic', 400, 'The body (or a path parameter, or the raw HTTP request) is malformed: not a JSON object, a field of the wrong type, or characters that cannot be stored; `error` names the field.'),
  BAD_QUERY: entry('generic', 400, 'A query parameter is missing, unknown or out of range; `error` says which.'),
  UNSUPPORTED_MEDIA_TYPE: entry('generic', 415, 'The endpoint does not accept this content type (send JSON, or a form body where the endpoint allows one).'),
  BODY_TOO_LARGE: entry('generic', 413, 'The body is over the endpoint\'s size limit.'),
  HEADERS_TOO_LARGE: entry('generic', 431, 'The request headers (usually cookies) are over the server\'s limit; the connection is closed.'),
  REQUEST_TIMEOUT: entry('generic', 408, 'The request did not arrive in full in time; the connection is closed. Retry.'),
  RATE_LIMITED: entry('generic', 429, 'Too many requests of this kind (D10); wait the `Retry-After` seconds. Coupon and password-reset requests also say it at their field in `errors`.'),
  INTERNAL: entry('generic', 500, 'An unexpected server error; nothing about it is in the body. Not worth retrying at once.'),
  STORE_UNAVAILABLE: entry('generic', 503, 'The store\'s database cannot be reached; retry after `Retry-After` seconds.'),
  SHUTTING_DOWN: entry('generic', 503, 'The server is stopping (a deploy or restart) and took no action; retry after `Retry-After` seconds, on a new connection.'),
  SITE_NOT_CONFIGURED: entry('generic', 503, 'The server runs without a site folder or store settings, so endpoints that need one cannot answer.'),

  // Sign-in, security tokens and accounts
  CRUMB_FAIL: entry('session', 403, 'The crumb cookie and header are missing or differ (B0.3); a new crumb cookie is set, retry once with it. The body has `crumbFail: true`.'),
  XSRF_FAIL: entry('session', 403, 'A signed-in request lacks the session\'s XSRF token, or it is wrong.'),
  NOT_AUTHENTICATED: entry('session', 401, 'The endpoint needs a signed-in visitor and there is no session (never signed in, signed out or expired).'),
  MISSING_CREDENTIALS: entry('session', 400, 'Sign-in without an email or a password.'),
  INVALID_CREDENTIALS: entry('session', 401, 'Unknown email or wrong password (the same answer for both).'),
  INVALID_LANGUAGE: entry('session', 400, 'The language to save is not a language tag of at most 35 characters.'),
  WEAK_PASSWORD: entry('session', 400, 'The new password is shorter than the minimum (8 characters).'),
  PASSWORD_TOO_LONG: entry('session', 400, 'The new password is longer than the maximum (200 characters).'),
  RESET_LINK_INVALID: entry('session', 400, 'The password reset token is unknown or malformed; ask for a new link.'),
  RESET_LINK_USED: entry('session', 400, 'The password reset link was already used; ask for a new one.'),
  RESET_LINK_EXPIRED: entry('session', 400, 'The password reset link is past its lifetime; ask for a new one.'),

  // Cart
  INVALID_ITEM_ID: entry('cart', 400, '`itemId` is missing or not a non-empty string.'),
  ITEM_NOT_FOUND: entry('cart', 404, 'No product has this id.'),
  QUANTITY_NAN: entry('cart', 400, '`quantity` is missing or not a number.'),
  QUANTITY_NOT_INTEGER: entry('cart', 400, '`quantity` is not a whole number.'),
  QUANTITY_RANGE: entry('cart', 400, '`quantity` is below 1 or above 9999.'),
  QUANTITY_LIMIT: entry('cart', 400, 'The service product may be bought once per cart and is already in it.'),
  GIFT_CARD_NOT_ADDABLE: entry('cart', 400, 'Gift cards are bought on the gift card page, not added to the cart.'),
  SUBSCRIPTION_NOT_ADDABLE: entry('cart', 400, 'A subscription product cannot be added to the cart.'),
  NOT_SUBSCRIBABLE: entry('cart', 400, 'The product cannot be bought as a subscription.'),
  VARIANT_UNAVAILABLE: entry('cart', 400, '`sku` is not one of the product\'s variants, or is missing for a product with several.'),
  CART_FULL: entry('cart', 409, 'The cart already holds the most different items it may; remove one to add another.'),
  ENTRY_NOT_FOUND: entry('cart', 404, 'The caller has no cart, or the cart has no entry with this id.'),
  ENTRY_MISMATCH: entry('cart', 400, '`itemId` or `sku` differs from the cart entry being edited.'),
  NO_FORM: entry('cart', 400, 'The entry\'s product has no form to fill in.'),
  ADDITIONAL_FIELDS_INVALID: entry('cart', 400, '`additionalFields` is not a string holding a JSON object.'),

  // Checkout and orders
  CART_NOT_FOUND: entry('checkout', 404, 'No cart with this token can be checked out by the caller.'),
  GIFT_CARD_NOT_FOUND: entry('checkout', 404, 'The gift card checkout\'s `itemId` is not a gift card, or `sku` is not one of its denominations.'),
  CART_EMPTY: entry('checkout', 409, 'The cart has no items.'),
  CART_PURCHASED: entry('checkout', 409, 'The cart was already turned into an order.'),
  CART_CHANGED: entry('checkout', 409, 'The cart\'s total or lines changed since the checkout showed them (another tab), or a coupon it counted lapsed (`errors.couponCodes` says why); show the new totals before placing the order.'),
  CHECKOUT_INVALID: entry('checkout', 400, 'Checkout fields failed validation; `errors` maps each field to its message.'),
  BELOW_MINIMUM_SUBTOTAL: entry('checkout', 422, 'The subtotal is below the store\'s minimum order; `error` says the minimum.'),
  // Two meanings, both pinned by the spec's tables (B2 and B13 give this code and their texts), so
  // neither is renamed; checkout place is B2's meaning at a later moment, with B2's text.
  OUT_OF_STOCK: entry('checkout', 409, 'Not enough stock for the quantity asked: an add to cart or quantity change (B2), or placing the order (`errors` names the short lines by item id). Also, on the owner\'s restock send (B13), a variant still out of stock, so no restock mail went.'),
  ITEM_UNAVAILABLE: entry('checkout', 409, 'A cart line\'s product or variant was removed from the catalogue after it was added, so it can no longer be bought (not a stock question: it will not come back in stock). Placing the order is refused before any payment (`errors` names the lines by item id), and so is a quantity change of that line (B26); the cart (B0.4) marks such an entry with `unavailable: {code, message}`. Remove the line (B27) to check out the rest.'),
  OFFLINE_ORDER_TOO_LARGE: entry('checkout', 422, 'An order paid offline holds more stock units than the store allows for it; remove some or pay another way.'),
  PAYMENT_DECLINED: entry('checkout', 402, 'The payment was declined; nothing was written. `errors.cardNumber` has the reason.'),
  ORDER_NOT_FOUND: entry('checkout', 404, 'No order has this id.'),
  INVALID_ORDER_STATUS: entry('checkout', 409, 'The order cannot move from its current status to the one asked.'),
  REFUND_PENDING: entry('checkout', 409, 'Another request\'s refund or cancel of the order is under way (a double press, a second owner); nothing was done: wait a moment and read the order again.'),
  CANCEL_REFUND_UNFINISHED: entry('checkout', 409, 'A cancel\'s refund was asked and its answer is unknown, so nothing else may move the order: cancel it again (the provider answers the first refund, never a second).'),
  REFUND_UNFINISHED: entry('checkout', 409, 'An owner\'s refund was asked and its answer is unknown, so no other refund, move or cancel is taken: ask the same refund again (amount, lines, restock; `error` says the amount) to finish it.'),
  REFUND_FAILED: entry('checkout', 502, 'The payment provider refused or failed the refund, so nothing changed: the order was not cancelled or refunded.'),
  ORDER_NOT_PAID: entry('checkout', 409, 'The order awaits payment, so nothing can be refunded; cancel it instead.'),
  NOTHING_TO_REFUND: entry('checkout', 409, 'The order is cancelled, refunded in full or free, or the returned lines named were free: no money is left to refund.'),
  REFUND_TOO_LARGE: entry('checkout', 422, 'The amount is more than what is left to refund of the order, or than was paid for the returned lines named; `error` says how much may be.'),
  REFUND_LINE_NOT_FOUND: entry('checkout', 422, 'A refund names a `lineId` the order has no line for (`line-1` is the first of its `items`); nothing was refunded.'),
  REFUND_QUANTITY_TOO_LARGE: entry('checkout', 422, 'A refund asks for more of a line than was bought less what earlier refunds gave back; `error` says how many are left. Nothing was refunded.'),
  DOWNLOAD_NOT_FOUND: entry('checkout', 404, 'The order has no download, or none for this product.'),
  DOWNLOADS_CLOSED: entry('checkout', 409, 'The order\'s downloads are closed: it is not paid, or it was cancelled.'),

  // Products, stock, restock notifications and reviews
  PRODUCT_NOT_FOUND: entry('catalog', 404, 'No product has this `productId`.'),
  VARIANT_NOT_FOUND: entry('catalog', 404, 'The product has no variant with this id.'),
  STOCK_CHANGED: entry('catalog', 409, 'The variant\'s stock changed since the caller read it; nothing was written, `error` says the stock now.'),
  RESTOCK_DISABLED: entry('catalog', 400, 'Restock notifications are off for this product.'),
  IN_STOCK: entry('catalog', 409, 'The variant is in stock, so there is nothing to be notified of.'),
  EMAIL_BLANK: entry('catalog', 400, 'The restock request has no email (or only spaces).'),
  EMAIL_INVALID: entry('catalog', 400, 'An email address is not a valid address (D5): a restock sign-up\'s (B10) or a password reset request\'s. The one code for it (the spec names it at B10).'),
  CAPTCHA_REQUIRED: entry('catalog', 400, 'The site asks for a captcha and none was sent (or, on forms, it failed verification).'),
  CAPTCHA_INVALID: entry('catalog', 400, 'The captcha token failed verification or was already used.'),
  INVALID_CURSOR: entry('catalog', 400, '`cursor` is not one this server issued; start again without it.'),
  REVIEW_INVALID: entry('catalog', 400, 'The review failed validation; `errors` maps each field to its message.'),

  // Forms
  FORM_NOT_FOUND: entry('forms', 404, 'No form has this id.'),
  FORM_NOT_CONFIGURED: entry('forms', 404, 'The form is unknown or has no storage configured, so it cannot take submissions.'),
  UNSUPPORTED_TYPE: entry('forms', 400, 'The schema asked for is not of type `form`.'),
  FORM_PARSE: entry('forms', 400, '`form` is missing or not a string holding a JSON object.'),
  INVALID_KEY: entry('forms', 401, 'The form submission key is missing, unknown, expired or already used; fetch a new key.'),
  BAD_METADATA: entry('forms', 400, 'The submission\'s `contentSource`, `pagePath` or `pagePermissionTypeValue` is invalid.'),
  FORM_INVALID: entry('forms', 400, 'Form fields failed validation (B0.6); `errors` maps each field to its message.'),
  STORAGE_FAILURE: entry('forms', 500, 'The submission could not be saved; retry later.'),

  // Census, beacons and platform events
  INVALID_CENSUS: entry('census', 400, 'The census payload is not the expected shape.'),
  INVALID_EVENT: entry('census', 400, '`event` is missing, empty or over 100 characters.'),
  INVALID_DATA: entry('census', 400, '`data` is missing or not a JSON object.'),
  INVALID_REPORTS: entry('census', 400, 'JavaScript error reports: not an array of 1 to 20 items.'),
  INVALID_REPORT: entry('census', 400, 'JavaScript error reports: one item is invalid; `error` gives its index.'),
  INVALID_SCHEMA_NAME: entry('census', 400, 'The platform event\'s `eventSchemaName` is missing or invalid.'),
  INVALID_EVENT_CONTENT: entry('census', 400, 'The platform event\'s `eventContent` is not a JSON object.'),
  INVALID_PERFORMANCE_BATCH: entry('census', 400, 'The performance records batch does not parse or holds an invalid record.'),
  PAGE_LOAD_NOT_FOUND: entry('census', 404, 'The `pageLoadId` was never issued by this server.'),
  PAGE_LOAD_EXPIRED: entry('census', 410, 'The `pageLoadId` is past its lifetime and takes no more records.'),
  PAGE_LOAD_FULL: entry('census', 409, 'The page load already sent the most records it may.'),

  // Owner, admin and store setup
  ADMIN_REQUIRED: entry('owner', 401, 'The endpoint needs the admin token or an API key as a bearer, or the owner signed in, and none valid was sent.'),
  OWNER_REQUIRED: entry('owner', 401, 'The owner app endpoint needs the owner signed in.'),
  OWNER_CSRF_FAIL: entry('owner', 403, 'An owner write lacks the owner session\'s CSRF token, or it is wrong.'),
  INVALID_FEATURES: entry('owner', 400, 'Feature toggles or experiments are malformed; `errors` maps each bad one to its problem.'),
  INVALID_KEY_NAME: entry('owner', 400, 'An API key needs a name of 1 to 60 characters.'),
  TOO_MANY_API_KEYS: entry('owner', 409, 'The store already has the most API keys it may; revoke one first.'),
  API_KEY_NOT_FOUND: entry('owner', 404, 'No API key has this id.'),
  REVIEW_NOT_FOUND: entry('owner', 404, 'No review has this id.'),
  WEBSITE_NOT_FOUND: entry('owner', 404, 'No website has this id.'),
  COLLECTION_NOT_FOUND: entry('owner', 404, 'No product collection has this id.'),
  INVALID_COLLECTION: entry('owner', 400, 'The product collection failed validation; `errors` maps each field to its message.'),
  INVALID_CATEGORY: entry('owner', 400, 'The category failed validation; `errors` maps each field to its message.'),
  URL_ID_TAKEN: entry('owner', 409, 'Another collection already uses this `urlId`.'),
  ROOT_CATEGORY_EXISTS: entry('owner', 409, 'The collection already has its root category.'),
} as const satisfies Record<string, ApiErrorEntry & { area: ApiErrorArea }>;

/** A stable code of the B0.2 error body. */
export type ApiErrorCode = keyof typeof API_ERROR_CODES;

/** Every code, in catalogue order. */
export const API_ERROR_CODE_LIST = Object.keys(API_ERROR_CODES) as ApiErrorCode[];
