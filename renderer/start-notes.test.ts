import { describe, expect, it } from 'vitest';
import { startNotes } from './start-notes.ts';

describe('start notes', () => {
  it('says where mail goes without SMTP_URL, and warns while the checkout offers the test card', () => {
    expect(startNotes({ smtpUrl: null, emlDir: '/srv/shop/data/outbox' }, { paymentProviders: ['test', 'manual'] })).toEqual([
      { level: 'info', text: 'quire: mail is not sent (no SMTP_URL): receipts and other messages are written to /srv/shop/data/outbox as .eml files' },
      {
        level: 'warn',
        text: 'quire: checkout offers the test card, which takes no money (catalog.json site.settings.commerce.paymentProviders); remove "test" before selling',
      },
    ]);
  });

  it("warns that the pages render with the built-in page template while templates/page.jsont is missing, in quire check's words", () => {
    const fallback = { file: 'templates/page.jsont', near: null, pages: ['content/about.json'], message: 'no templates/page.jsont, so 1 page (content/about.json) renders with …' };
    expect(startNotes({ smtpUrl: 'smtp://mail.example.com:587', emlDir: '/x' }, undefined, [fallback])).toEqual([
      { level: 'warn', text: 'quire: templates/page.jsont warning SITE_TEMPLATE_MISSING no templates/page.jsont, so 1 page (content/about.json) renders with …' },
    ]);
  });

  it('says nothing for a shop that sends mail over SMTP and takes no test card (unset providers are manual)', () => {
    expect(startNotes({ smtpUrl: 'smtp://mail.example.com:587', emlDir: '/x' }, { paymentProviders: ['manual'] })).toEqual([]);
    expect(startNotes({ smtpUrl: 'smtp://mail.example.com:587', emlDir: '/x' }, undefined)).toEqual([]);
  });
});
