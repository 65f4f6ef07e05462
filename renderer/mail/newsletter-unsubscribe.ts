import crypto from 'node:crypto';
import { safeEqual } from '../api/context.ts';
import { emailKey, type Repository } from '../store/repository.ts';

// Newsletter unsubscribe links (page type 300). A link names the address and carries a token,
// an HMAC of the site and the address under a key only the store knows (`site_secrets`,
// migration 009-special-pages), so the page unsubscribes an address only for someone holding
// a mail sent to it: a stranger who knows an address cannot make its link.
//
// Where the link goes: a mailing-list mail (the welcome a newsletter sign-up gets,
// newsletter-welcome.ts) puts `unsubscribeLink(…, UNSUBSCRIBE_LINK_PATH, …)` in its text and
// HTML and in a `List-Unsubscribe: <…>` header. That path (pages/index.ts) sends a GET on to the
// site's unsubscribe page (type 300), whose button POSTs, so a mail scanner that fetches the
// link unsubscribes nobody; a mail client's RFC 8058 one-click POST to it unsubscribes at once.

const SECRET_NAME = 'newsletter-unsubscribe';

/** The path a mail's link names: the unsubscribe page's button posts here too (pages/index.ts). */
export const UNSUBSCRIBE_LINK_PATH = '/newsletter/unsubscribe';

/** The signing key of unsubscribe links, created at random the first time one is needed. */
export function unsubscribeSecret(repo: Pick<Repository, 'siteSecret'>, now: number): Promise<string> {
  return repo.siteSecret(SECRET_NAME, crypto.randomBytes(32).toString('base64url'), now);
}

/** The token of an address (case and surrounding spaces do not matter, as on the list). */
export function unsubscribeToken(secret: string, websiteId: string, email: string): string {
  return crypto.createHmac('sha256', secret).update(`${websiteId}\0${emailKey(email)}`).digest('base64url');
}

export function isUnsubscribeToken(secret: string, websiteId: string, email: string, token: string): boolean {
  if (safeEqual(token, unsubscribeToken(secret, websiteId, email))) return true;
  // Links mailed before email keys were NFC (migration 012) were signed over the key without it.
  const legacy = email.trim().toLowerCase();
  return legacy !== emailKey(email) && safeEqual(token, crypto.createHmac('sha256', secret).update(`${websiteId}\0${legacy}`).digest('base64url'));
}

/** The link a mail to `email` carries: the site's unsubscribe page (a content file of page type 300). */
export function unsubscribeLink(baseUrl: string, pagePath: string, email: string, token: string): string {
  return `${baseUrl.replace(/\/$/, '')}${pagePath}?${new URLSearchParams({ email, token }).toString()}`;
}
