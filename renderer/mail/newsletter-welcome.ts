import type { FastifyBaseLogger } from 'fastify';
import { mailOrigin, type ApiDeps } from '../api/context.ts';
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
  now: number;
}

/** The after-answer job of a sign-up (api/after-response.ts). */
export const WELCOME_JOB = 'newsletter-welcome';

/**
 * Puts an address on the mailing list, inside the caller's transaction, and records the
 * sign-up's after-answer job there: `welcome` says whether the address was added, so its
 * welcome mail is owed. Every way onto the list goes through here (a newsletter form, the
 * restock box's "join our mailing list"), so every address on it is sent its unsubscribe link;
 * signing up again sends nothing. The job is recorded for an address already on the list
 * too, by the same INSERT: queued inside the sign-up's transaction, the welcome cost two
 * statements more for an address new to the list than for one on it, so the answer's timing
 * told anyone which addresses are subscribed. Returns the job's id, for `welcomeAfterAnswer`
 * once the transaction committed.
 */
export async function joinMailingList(deps: Pick<ApiDeps, 'afterAnswerJobs'>, repo: Repository, join: MailingListJoin): Promise<string> {
  const email = join.email.trim();
  const added = await repo.addToMailingList(email, join.source, join.now);
  return deps.afterAnswerJobs.record(repo, WELCOME_JOB, email, { welcome: added });
}

/** Queues the welcome of an address `joinMailingList` added, with its signed unsubscribe link. */
export async function queueNewsletterWelcome(
  repo: Repository,
  join: { email: string; websiteId: string; siteTitle: string; baseUrl: string; mailId: string; now: number },
): Promise<void> {
  const email = join.email.trim();
  const token = unsubscribeToken(await unsubscribeSecret(repo, join.now), join.websiteId, email);
  const link = unsubscribeLink(join.baseUrl, UNSUBSCRIBE_LINK_PATH, email, token);
  await enqueueMail(repo, { ...newsletterWelcomeMail(email, join.siteTitle, link), id: join.mailId, queuedOn: join.now });
}

/**
 * How a sign-up's job runs, after the answer or, after a crash, by the recovery: the welcome,
 * when owed, in the transaction that deletes the job; a failure is logged (without the
 * address, log-redaction.ts) and retried, and the address stays on the list.
 */
export function registerWelcomeJob(deps: Pick<ApiDeps, 'afterAnswerJobs' | 'now' | 'newId' | 'publicSite' | 'origin'>): void {
  deps.afterAnswerJobs.handle(WELCOME_JOB, async (repo, job) => {
    if (job.detail.welcome !== true) return;
    // Off the list again before the job ran (a recovery after a crash can be that late): no welcome.
    if (!(await repo.isOnMailingList(job.email))) return;
    const site = await repo.getSite();
    if (!site) throw new Error('the site is not set up: the welcome waits');
    await queueNewsletterWelcome(repo, {
      email: job.email,
      websiteId: site.websiteId,
      siteTitle: deps.publicSite?.().title ?? '',
      baseUrl: mailOrigin(deps),
      mailId: deps.newId('m'),
      now: deps.now(),
    });
  });
}

/** Runs a sign-up's job (`joinMailingList`) after the answer (api/after-response.ts). */
export function welcomeAfterAnswer(deps: Pick<ApiDeps, 'afterAnswerJobs'>, log: FastifyBaseLogger, jobId: string): void {
  deps.afterAnswerJobs.runAfterAnswer(jobId, log);
}
