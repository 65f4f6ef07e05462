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
 * The owner's notification of a saved submission (catalog.json form `notifyEmail`): each
 * field's title and value, in the form's order. Sent to the owner, so it carries the values;
 * the log line of its delivery holds only the masked address and the subject.
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
  return {
    to: form.notifyEmail,
    subject: `New submission: ${form.name}`,
    body: [`A visitor submitted "${form.name}" on ${pagePath}.`, '', ...lines, ''].join('\n'),
  };
}
