// The API error codes the storefront islands and the owner's admin app (hydrate/admin) act on,
// by name. The server's catalogue (renderer/api/error-codes.ts) is the one list of codes, but
// hydrate/ may not import it; a module that compared `error.code` with a string of its own would,
// after a typo or a rename, simply never match, and the visitor or owner would read the generic
// message (or, in the admin app, a stale row). They name a code through this object instead, and
// api-error-codes.test.ts checks every entry is catalogued.

export const API_ERROR = {
  /** Checkout place (409): a line's stock ran short; `errors` is keyed by item id. */
  OUT_OF_STOCK: 'OUT_OF_STOCK',
  /** Checkout place (409): a line's product was removed from the catalogue; `errors` is keyed by item id. */
  ITEM_UNAVAILABLE: 'ITEM_UNAVAILABLE',
  /** Cart entry change or removal (404): the entry is gone (removed in another tab). */
  ENTRY_NOT_FOUND: 'ENTRY_NOT_FOUND',
  /** Sign-in (401): unknown email or wrong password; the account island marks both fields and focuses the password. */
  INVALID_CREDENTIALS: 'INVALID_CREDENTIALS',
  /** Password reset (400): the mailed link is unknown, used or expired; a new one is needed. */
  RESET_LINK_INVALID: 'RESET_LINK_INVALID',
  RESET_LINK_USED: 'RESET_LINK_USED',
  RESET_LINK_EXPIRED: 'RESET_LINK_EXPIRED',

  // The admin app (hydrate/admin).
  /** Any owner call (401): the owner's session ended; admin-api.ts goes back to the sign-in form. */
  ADMIN_REQUIRED: 'ADMIN_REQUIRED',
  OWNER_REQUIRED: 'OWNER_REQUIRED',
  /** An owner write (403): the CSRF token is stale (signed in again in another tab); admin-api.ts reads the session and sends once more. */
  OWNER_CSRF_FAIL: 'OWNER_CSRF_FAIL',
  /** Inventory stock edit (409): the stock changed since it was read; the panel reads it again. */
  STOCK_CHANGED: 'STOCK_CHANGED',
  /** Order status change or refund: the order moved meanwhile; the orders panel reads the row again. */
  INVALID_ORDER_STATUS: 'INVALID_ORDER_STATUS',
  REFUND_PENDING: 'REFUND_PENDING',
  /** A refund whose answer is unknown holds the order (a cancel's, or an owner's refund): the row read again says which to ask again. */
  CANCEL_REFUND_UNFINISHED: 'CANCEL_REFUND_UNFINISHED',
  REFUND_UNFINISHED: 'REFUND_UNFINISHED',
  REFUND_FAILED: 'REFUND_FAILED',
  REFUND_TOO_LARGE: 'REFUND_TOO_LARGE',
  NOTHING_TO_REFUND: 'NOTHING_TO_REFUND',
  ORDER_NOT_PAID: 'ORDER_NOT_PAID',
  /** Refund of returned lines (422): a line was refunded meanwhile (another tab) or is unknown; the row is read again. */
  REFUND_LINE_NOT_FOUND: 'REFUND_LINE_NOT_FOUND',
  REFUND_QUANTITY_TOO_LARGE: 'REFUND_QUANTITY_TOO_LARGE',
  /** Download reset or resend (409): the order was cancelled meanwhile; the row is read again. */
  DOWNLOADS_CLOSED: 'DOWNLOADS_CLOSED',
} as const;

export type ApiErrorName = (typeof API_ERROR)[keyof typeof API_ERROR];

/** The `code` of a B0.2 error body, or null when the body has none (not JSON, a network failure). */
export function apiErrorCode(body: unknown): string | null {
  const code = typeof body === 'object' && body !== null ? (body as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : null;
}

/** Whether an error body (or the admin app's failed `ApiResult`, which carries its code) carries one of `codes`. */
export function hasApiError(body: unknown, ...codes: readonly ApiErrorName[]): boolean {
  const code = apiErrorCode(body);
  return code !== null && (codes as readonly string[]).includes(code);
}
