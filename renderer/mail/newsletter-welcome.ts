import { escapeHtml } from '../pages/html.ts';
import type { Repository } from '../store/repository.ts';
import type { MailingListSource } from '../store/types.ts';
import { UNSUBSCRIBE_LINK_PATH, unsubscribeLink, unsubscribeSecret, unsubscribeToken } from './newsletter-unsubscribe.ts';
import { enqueueMail, type MailMessage } from './outbox-worker.ts';

/**
 * The one mail a new newsletter subscriber gets when the address joins the list (a newsletter
 * form, api/routes/form-routes.ts): it confirms the sign-up and carries the address's signed
 * unsubscribe link (newsletter-unsubscribe.ts) in its text, its HTML and the `List-Unsubscribe`
 * header, so every address on the list holds a way off it. The link's URL answers RFC 8058
 * one-click POSTs (pages/index.ts), hence `List-Unsubscribe-Post`.
 */
export function newsletterWelcomeMail(to: string, siteTitle: string, link: string): MailMessage {
  const name = siteTitle.trim() || 'our';
  const subject = `You are subscribed to the ${name} newsletter`;
  const body = [
    `Thanks for signing up: ${to} now gets the ${name} newsletter.`,
    '',
    `Not you, or changed your mind? Unsubscribe: ${link}`,
    '',
  ].join('\n');
  const html = [
    `<p>Thanks for signing up: <strong>${escapeHtml(to)}</strong> now gets the ${escapeHtml(name)} newsletter.</p>`,
    `<p>Not you, or changed your mind? <a href="${escapeHtml(link)}">Unsubscribe</a>.</p>`,
  ].join('\n');
  return {
    to,
    subject,
    body,
    html,
    headers: { 'List-Unsubscribe': `<${link}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  };
}

export interface MailingListJoin {
  email: string;
  source: MailingListSource;
  websiteId: string;
  siteTitle: string;
  /** The site's public origin, for the unsubscribe link. */
  baseUrl: string;
  mailId: string;
  now: number;
}

/**
 * Puts an address on the mailing list, inside the caller's transaction, and queues the welcome
 * mail when the address is new (signing up again sends nothing). Every way onto the list goes
 * through here (a newsletter form, the restock box's "join our mailing list"), so every
 * address on it has had its unsubscribe link. True when the address was added.
 */
export async function joinMailingList(repo: Repository, join: MailingListJoin): Promise<boolean> {
  const email = join.email.trim();
  if (!(await repo.addToMailingList(email, join.source, join.now))) return false;
  const token = unsubscribeToken(await unsubscribeSecret(repo, join.now), join.websiteId, email);
  const link = unsubscribeLink(join.baseUrl, UNSUBSCRIBE_LINK_PATH, email, token);
  await enqueueMail(repo, { ...newsletterWelcomeMail(email, join.siteTitle, link), id: join.mailId, queuedOn: join.now });
  return true;
}
