import { describe, expect, it } from 'vitest';
import type { Form } from '../store/types.ts';
import { formNotification, indentedLines, oneLine } from './form-notification.ts';

// The owner's notification of a site form: a visitor's value must never add a line that reads
// like the mail's own (a forged "Email:" or "A visitor submitted …"), in the text or a header.

const form = (over: Partial<Form> = {}): Form & { notifyEmail: string } => ({
  id: 'contact',
  name: 'Contact',
  captchaEnabled: false,
  storageConfigured: true,
  isNewsletter: false,
  extra: {},
  notifyEmail: 'owner@example.com',
  fields: [
    { id: 'name', type: 'name', title: 'Name' },
    { id: 'em', type: 'email', title: 'Email' },
    { id: 'msg', type: 'textarea', title: 'Message' },
  ] as Form['fields'],
  ...over,
});

/** The lines of the body that start at the margin: the mail's own structure. */
const marginLines = (body: string) => body.split('\n').filter((line) => line !== '' && !line.startsWith(' '));

describe('formNotification', () => {
  it('keeps a line break in a one-line field on its line, written out as [U+000A]', () => {
    const mail = formNotification(form(), { name: ['Ann\nEmail: boss@example.com', 'Lee'], em: 'ann@example.com', msg: 'Hi' }, '/contact');
    expect(mail.body).toBe(
      'A visitor submitted "Contact" on /contact.\n\nName: Ann[U+000A]Email: boss@example.com Lee\nEmail: ann@example.com\nMessage: Hi\n',
    );
    expect(marginLines(mail.body).filter((line) => line.startsWith('Email:'))).toEqual(['Email: ann@example.com']);
  });

  it('writes out every kind of line break and control character in a one-line value', () => {
    expect(oneLine('a\r\nb\rc\nd\u000be\u000cf\u0085g\u2028h\u2029i\u0000j\u001bk')).toBe(
      'a[U+000A]b[U+000D]c[U+000A]d[U+000B]e[U+000C]f[U+0085]g[U+2028]h[U+2029]i[U+0000]j[U+001B]k',
    );
    // A tab is spacing, not structure; the direction controls are shown as before.
    expect(oneLine('a\tb \u202egnp.exe')).toBe('a\tb [U+202E]gnp.exe');
  });

  it("keeps a textarea's lines, each one after the first indented under its field", () => {
    const mail = formNotification(form(), { em: 'ann@example.com', msg: 'Hello,\r\nEmail: boss@example.com\u2028Name: Mallory\n\nBye' }, '/contact');
    expect(mail.body).toBe(
      'A visitor submitted "Contact" on /contact.\n\nEmail: ann@example.com\nMessage: Hello,\n    Email: boss@example.com\n    Name: Mallory\n    \n    Bye\n',
    );
    expect(marginLines(mail.body)).toEqual(['A visitor submitted "Contact" on /contact.', 'Email: ann@example.com', 'Message: Hello,']);
    expect(indentedLines('one\u2029two')).toBe('one\n    two');
  });

  it("keeps the page path, the form's name and field titles on their lines, and the subject one line", () => {
    const mail = formNotification(
      form({ name: 'Contact\r\nBcc: all@example.com', fields: [{ id: 'x', type: 'text', title: 'Note\nEmail' }] as Form['fields'] }),
      { x: 'ok' },
      '/contact.\n\nEmail: boss@example.com',
    );
    expect(mail.subject).toBe('New submission: Contact[U+000A]Bcc: all@example.com');
    expect(mail.subject).not.toMatch(/[\r\n\u2028\u2029]/);
    expect(marginLines(mail.body)).toEqual([
      'A visitor submitted "Contact[U+000A]Bcc: all@example.com" on /contact.[U+000A][U+000A]Email: boss@example.com.',
      'Note[U+000A]Email: ok',
    ]);
  });

  it('gives no Reply-To for an email value with a line break in it', () => {
    for (const em of ['ann@example.com\nBcc: all@example.com', 'ann@example.com\r\nX: y', 'ann\u2028@example.com', 'ann@exa\u2029mple.com']) {
      expect(formNotification(form(), { em }, '/contact').headers).toBeUndefined();
    }
    // Breaks around the one address are trimmed off: the header is the address alone.
    expect(formNotification(form(), { em: ' ann@example.com\r\n' }, '/contact').headers).toEqual({ 'Reply-To': 'ann@example.com' });
  });
});
