import { RESET_FRAGMENT } from '../../hydrate/shared/reset-link.ts';

/**
 * The mail a member gets who asked to reset a forgotten password (designed here; sent through
 * the outbox by api/routes/password-reset-routes.ts). The link's token rides in the fragment
 * (`#reset-password=…`): browsers never send a fragment to a server, so the token stays out of
 * access logs, proxies and Referer headers; the account island reads it, and the page's beacons
 * leave it out (hydrate/shared/reset-link.ts, where the fragment's name is kept for both).
 */
export const RESET_LINK_PATH = '/account/reset-password';
export { RESET_FRAGMENT };
export const RESET_LINK_MINUTES = 30;

export function passwordResetLink(origin: string, token: string): string {
  return `${origin.replace(/\/+$/, '')}${RESET_LINK_PATH}#${RESET_FRAGMENT}=${encodeURIComponent(token)}`;
}

export function passwordResetMail(siteTitle: string, link: string): { subject: string; body: string } {
  const site = siteTitle.trim() === '' ? 'your account' : `your ${siteTitle.replace(/[\r\n]+/g, ' ')} account`;
  return {
    subject: 'Reset your password',
    body:
      `Someone (we hope you) asked to reset the password of ${site}.\n\n` +
      `Choose a new password here (the link works once, for ${RESET_LINK_MINUTES} minutes):\n${link}\n\n` +
      'If you did not ask, ignore this mail: your password stays as it is.',
  };
}
