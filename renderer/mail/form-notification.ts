import { showDirectionControls } from '../../hydrate/shared/direction-controls.ts';
import { isValidEmail } from '../../hydrate/shared/email.ts';
import type { Form } from '../store/types.ts';
import type { MailMessage } from './outbox-worker.ts';

/** A submitted value as one line of text (name and address fields are objects, checkboxes lists). */
function valueText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(valueText).filter((part) => part !== '').join(', ');
  if (typeof value === 'object') return Object.values(value as Record<string, unknown>).map(valueText).filter((part) => part !== '').join(' ');
  return String(value);
}

// Every character a mail client may break a line at (CR, LF, VT, FF, NEL, U+2028, U+2029), and
// the other C0 and C1 controls (an escape sequence or a NUL): a visitor's value must not start a line
// of its own that reads like the mail's own ("Email: …", a forged "A visitor submitted …").
const LINE_BREAK = /\r\n|[\n\v\f\r\u0085\u2028\u2029]/g;
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029]/g;
/** Continuation lines of a multi-line value: indented under their field, never at a line's start. */
const CONTINUATION = '    ';

const shown = (c: string) => `[U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}]`;

/**
 * A value on one line: each line break and control character written out (`[U+000A]`), as
 * the direction controls are, so what the owner reads is what was sent, on the line it was sent.
 */
export function oneLine(text: string): string {
  return showDirectionControls(text.replace(/\r\n/g, '\n').replace(CONTROL, shown));
}

/**
 * A multi-line value (a textarea): its line breaks kept, as plain `\n`, each following line
 * indented under the field, so a line typed `Email: boss@example.com` reads as part of the
 * message, not as a field of the mail.
 */
export function indentedLines(text: string): string {
  return text
    .split(LINE_BREAK)
    .map((line) => oneLine(line))
    .join(`\n${CONTINUATION}`);
}

/**
 * The visitor's address for Reply-To: the first email field's value that is one address (the
 * form rule already checked it; checked again here because the header names where the owner's
 * reply goes). Without one the owner's reply would go to the shop's own sender.
 */
export function replyAddress(form: Form, values: Record<string, unknown>): string | null {
  for (const field of form.fields) {
    const value = values[field.id];
    if (field.type === 'email' && typeof value === 'string' && isValidEmail(value.trim())) return value.trim();
  }
  return null;
}

/**
 * The owner's notification of a saved submission (catalog.json form `notifyEmail`): each
 * field's title and value, in the form's order. Sent to the owner, so it carries the values;
 * the log line of its delivery holds only the masked address and the subject. Visitors wrote
 * the values and the form's name is the site's: characters that reorder text (U+202E…) are
 * written out as `[U+202E]`, as the admin shows them, so a name written `‮gnp.exe` does not
 * read "exe.png" in the owner's mail client. Line breaks are written out the same way in every
 * one-line value (the page path is the visitor's too), and a textarea's lines are indented, so
 * no value can add a line that looks like the mail's own. A reply goes to the visitor when the form asked
 * for an email address (Reply-To).
 */
export function formNotification(form: Form & { notifyEmail: string }, values: Record<string, unknown>, pagePath: string): MailMessage {
  const lines = form.fields
    .filter((field) => field.id in values)
    .map((field) => {
      const value = values[field.id];
      // A name is first and last: one space, as it is written.
      const text = field.type === 'name' && Array.isArray(value) ? value.map(valueText).join(' ').trim() : valueText(value);
      return `${oneLine(field.title ?? field.name ?? field.id)}: ${field.type === 'textarea' ? indentedLines(text) : oneLine(text)}`;
    });
  const replyTo = replyAddress(form, values);
  return {
    to: form.notifyEmail,
    // One line: nodemailer folds a header, but a break in it would still read as another header.
    subject: oneLine(`New submission: ${form.name}`),
    body: [`A visitor submitted "${oneLine(form.name)}" on ${oneLine(pagePath)}.`, '', ...lines, ''].join('\n'),
    ...(replyTo ? { headers: { 'Reply-To': replyTo } } : {}),
  };
}
