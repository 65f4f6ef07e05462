/**
 * A password reset mail's link (renderer/mail/password-reset.ts) ends `#reset-password=<token>`:
 * in the fragment, so no server, log or Referer sees the token. The page it opens still reads
 * its own address for the beacons: the page view's `url` (A12.4, `location.href`), the platform
 * tracker's `pageHash` and an error report's `url`. On a tracked page (a member signed in, or a
 * site whose reset link lands on its home page) they carried the token to the census tables,
 * a live way into the account for 30 minutes to whoever reads them. Beacons send the address
 * through `withoutResetToken`.
 */
export const RESET_FRAGMENT = 'reset-password';

const PREFIX = `#${RESET_FRAGMENT}=`;

/** An address (`href`) or a fragment (`hash`) with a reset link's token left out; anything else as it is. */
export function withoutResetToken(address: string): string {
  const at = address.indexOf('#');
  if (at < 0 || !address.startsWith(PREFIX, at)) return address;
  return `${address.slice(0, at)}#${RESET_FRAGMENT}`;
}
