// The wait a 429 asks for, said to the visitor (designed here, in the wording of the coupon
// limit's message): the answer's Retry-After in whole minutes, at least one, so that the
// visitor reads how long, not A0.2's generic "in a few seconds" for a window of an hour.

/** `Please try again in 1 minute.` / `Please try again in 42 minutes.` */
export function tryAgainInText(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil((Number.isFinite(retryAfterSeconds) ? retryAfterSeconds : 0) / 60));
  return `Please try again in ${minutes === 1 ? '1 minute' : `${minutes} minutes`}.`;
}

/** Said at the email field of "Forgot your password?" when the server refused (429 `RATE_LIMITED`). */
export function resetRequestsLimitedText(retryAfterSeconds: number): string {
  return `Too many password reset requests. ${tryAgainInText(retryAfterSeconds)}`;
}
