// The start log's notes on what a development set-up does instead of the real thing. An owner's
// first start said nothing of where mail goes (the first line about it came with the first
// receipt) nor that the checkout's test card takes no money, which a shop must not open with.
import type { MailSettings } from './mail/outbox-worker.ts';
import type { CommerceSettings } from './store/types.ts';

export interface StartNote {
  /** `warn` goes to stderr: something to change before selling. */
  level: 'info' | 'warn';
  text: string;
}

/** The notes `npm start` prints once it listens (renderer/main.ts), in order. */
export function startNotes(mail: Pick<MailSettings, 'smtpUrl' | 'emlDir'>, commerce: CommerceSettings | undefined): StartNote[] {
  const notes: StartNote[] = [];
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
