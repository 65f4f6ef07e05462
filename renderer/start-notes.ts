// The start log's notes on what a development set-up does instead of the real thing. An owner's
// first start said nothing of where mail goes (the first line about it came with the first
// receipt) nor that the checkout's test card takes no money, which a shop must not open with;
// nor that the pages fell back to the built-in page template when templates/page.jsont was gone.
import type { MailSettings } from './mail/outbox-worker.ts';
import { TEMPLATE_MISSING_CODE, type TemplateFallback } from './pages/template-fallbacks.ts';
import type { CommerceSettings } from './store/types.ts';

export interface StartNote {
  /** `warn` goes to stderr: something to change before selling. */
  level: 'info' | 'warn';
  text: string;
}

/** The notes `npm start` prints once it listens (renderer/main.ts), in order. */
export function startNotes(
  mail: Pick<MailSettings, 'smtpUrl' | 'emlDir'>,
  commerce: CommerceSettings | undefined,
  fallbacks: readonly TemplateFallback[] = [],
): StartNote[] {
  const notes: StartNote[] = [];
  // Pages on Quire's built-in template for want of templates/page.jsont: the words quire check
  // and the preview use, in the start log's form of a finding (`file severity CODE message`).
  for (const fallback of fallbacks) notes.push({ level: 'warn', text: `quire: ${fallback.file} warning ${TEMPLATE_MISSING_CODE} ${fallback.message}` });
  if (mail.smtpUrl === null) {
    notes.push({ level: 'info', text: `quire: mail is not sent (no SMTP_URL): receipts and other messages are written to ${mail.emlDir} as .eml files` });
  }
  if ((commerce?.paymentProviders ?? []).includes('test')) {
    notes.push({
      level: 'warn',
      text: 'quire: checkout offers the test card, which takes no money (catalog.json site.settings.commerce.paymentProviders); remove "test" before selling',
    });
  }
  return notes;
}
