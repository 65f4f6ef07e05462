import { describe, expect, it } from 'vitest';
import { renderShell, textDirection } from './shell.ts';

const page = (locale: string) => renderShell({ locale, title: 't', pageType: 2, css: '', body: '', pillCart: '', context: {}, captchaLocal: false });

describe('the document around a page', () => {
  it('a right-to-left locale makes the page dir="rtl"; any other keeps the default (no dir)', () => {
    expect(page('he-IL')).toContain('<html lang="he-IL" dir="rtl">');
    expect(page('ar-EG')).toContain('<html lang="ar-EG" dir="rtl">');
    expect(page('fa')).toContain('<html lang="fa" dir="rtl">');
    for (const locale of ['en-US', 'fr-FR', 'ja-JP', 'de-DE']) expect(page(locale)).toContain(`<html lang="${locale}">`);
    expect(['he', 'ur-PK', 'az-Arab', 'en', 'az-Latn', 'not a locale'].map(textDirection)).toEqual(['rtl', 'rtl', 'rtl', 'ltr', 'ltr', 'ltr']);
  });
});
