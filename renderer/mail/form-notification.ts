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
 * read "exe.png" in the owner's mail client. A reply goes to the visitor when the form asked
 * for an email address (Reply-To).
 */
export function formNotification(form: Form & { notifyEmail: string }, values: Record<string, unknown>, pagePath: string): MailMessage {
  const lines = form.fields
    .filter((field) => field.id in values)
    .map((field) => {
      const value = values[field.id];
      // A name is first and last: one space, as it is written.
      const text = field.type === 'name' && Array.isArray(value) ? value.map(valueText).join(' ').trim() : valueText(value);
      return `${field.title ?? field.name ?? field.id}: ${text}`;
    });
  const replyTo = replyAddress(form, values);
  return {
    to: form.notifyEmail,
    subject: showDirectionControls(`New submission: ${form.name}`),
    body: showDirectionControls([`A visitor submitted "${form.name}" on ${pagePath}.`, '', ...lines, ''].join('\n')),
    ...(replyTo ? { headers: { 'Reply-To': replyTo } } : {}),
  };
}
