// The API error codes the storefront islands act on, by name. The server's catalogue
// (renderer/api/error-codes.ts) is the one list of codes, but hydrate/ may not import it; an
// island that compared `error.code` with a string of its own would, after a typo or a rename,
// simply never match, and the visitor would read the generic message. The islands name a code
// through this object instead, and api-error-codes.test.ts checks every entry is catalogued.

export const API_ERROR = {
  /** Checkout place (409): a line's stock ran short; `errors` is keyed by item id. */
  OUT_OF_STOCK: 'OUT_OF_STOCK',
  /** Cart entry change or removal (404): the entry is gone (removed in another tab). */
  ENTRY_NOT_FOUND: 'ENTRY_NOT_FOUND',
  /** Password reset (400): the mailed link is unknown, used or expired; a new one is needed. */
  RESET_LINK_INVALID: 'RESET_LINK_INVALID',
  RESET_LINK_USED: 'RESET_LINK_USED',
  RESET_LINK_EXPIRED: 'RESET_LINK_EXPIRED',
} as const;

export type ApiErrorName = (typeof API_ERROR)[keyof typeof API_ERROR];

/** The `code` of a B0.2 error body, or null when the body has none (not JSON, a network failure). */
export function apiErrorCode(body: unknown): string | null {
  const code = typeof body === 'object' && body !== null ? (body as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : null;
}

/** Whether an error body carries one of `codes`. */
export function hasApiError(body: unknown, ...codes: readonly ApiErrorName[]): boolean {
  const code = apiErrorCode(body);
  return code !== null && (codes as readonly string[]).includes(code);
}
