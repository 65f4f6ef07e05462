import type { FastifyBaseLogger } from 'fastify';
import type { ApiDeps } from '../api/context.ts';
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
 * Puts an address on the mailing list, inside the caller's transaction. True when the address
 * was added: its welcome mail is then owed (`welcomeAfterAnswer`). Every way onto the list goes
 * through here (a newsletter form, the restock box's "join our mailing list"), so every address
 * on it is sent its unsubscribe link; signing up again sends nothing.
 */
export async function joinMailingList(repo: Repository, join: Pick<MailingListJoin, 'email' | 'source' | 'now'>): Promise<boolean> {
  return repo.addToMailingList(join.email.trim(), join.source, join.now);
}

/** Queues the welcome of an address `joinMailingList` added, with its signed unsubscribe link. */
export async function queueNewsletterWelcome(repo: Repository, join: MailingListJoin): Promise<void> {
  const email = join.email.trim();
  const token = unsubscribeToken(await unsubscribeSecret(repo, join.now), join.websiteId, email);
  const link = unsubscribeLink(join.baseUrl, UNSUBSCRIBE_LINK_PATH, email, token);
  await enqueueMail(repo, { ...newsletterWelcomeMail(email, join.siteTitle, link), id: join.mailId, queuedOn: join.now });
}

/**
 * The welcome of a new address, queued after the answer (api/after-response.ts): queued inside
 * the sign-up's transaction it cost two statements more for an address new to the list than
 * for one already on it, so the answer's timing told anyone which addresses are subscribed. A
 * failure is logged (without the address, log-redaction.ts); the address stays on the list.
 */
export function welcomeAfterAnswer(deps: Pick<ApiDeps, 'store' | 'afterResponse'>, log: FastifyBaseLogger, join: MailingListJoin): void {
  deps.afterResponse.run(
    () => deps.store.transaction((repo) => queueNewsletterWelcome(repo, join)),
    (error) => log.error({ err: error }, 'newsletter welcome not queued'),
  );
}
