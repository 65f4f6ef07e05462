import { escapeHtml } from '../pages/html.ts';
import type { MailMessage } from './outbox-worker.ts';

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
