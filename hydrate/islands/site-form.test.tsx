// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { installLocalCaptcha } from '../runtime/captcha-local.ts';
import { registerFieldCollector } from '../runtime/form-fields.ts';
import { createPage, typeInto, type Page } from '../test-support/page.ts';
import { siteFormHtml, type SiteFormField } from '../test-support/renderer-markup.ts';

let page: Page;
beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  page?.cleanup();
  delete window.sfCaptchaProvider;
  vi.useRealTimers();
});

const context = { pageTitle: 'Contact', pageId: 'pg1', pagePath: '/contact', captcha: { siteKey: 'sk', provider: 'local' } };

async function open(fields: SiteFormField[], opts: Parameters<typeof siteFormHtml>[0] extends infer O ? Partial<O> : never = {}, extra: { cookies?: Record<string, string>; context?: Record<string, unknown> } = {}) {
  page = createPage({ body: siteFormHtml({ fields, ...opts }), context: { ...context, ...extra.context }, cookies: extra.cookies });
  page.fetch.on('POST', '/api/form/FormSubmissionKey', { json: { key: 'K1' } });
  await page.boot();
  await page.advance(0);
}

const form = () => document.querySelector<HTMLFormElement>('form.sf-site-form')!;
const fieldEl = (id: string) => document.querySelector<HTMLElement>(`.sf-field[data-field-id="${id}"]`)!;
const fieldError = (id: string) => fieldEl(id).querySelector('.field-error')?.textContent ?? null;
const topMsg = () => document.querySelector<HTMLElement>('.sf-form-message-top')!;
const bottomMsg = () => document.querySelector<HTMLElement>('.sf-form-message-bottom')!;
const submitBtn = () => document.querySelector<HTMLButtonElement>('.sf-form-submit')!;
const savePosts = () => page.fetch.callsTo('/api/form/SaveFormSubmission', 'POST');
const keyPosts = () => page.fetch.callsTo('/api/form/FormSubmissionKey', 'POST');
const input = (id: string) => fieldEl(id).querySelector<HTMLInputElement>('input, textarea')!;

async function submit() {
  await page.act(() => form().requestSubmit());
  await page.advance(0);
}
const text: SiteFormField = { id: 'f1', type: 'text', title: 'Name', required: true };

describe('A7 site form', () => {
  test('SF-1 hydrates cleanly and records a form render', async () => {
    await open([text], {}, { cookies: { ss_cvr: 'U|1|1|1|1', ss_cvt: '5' } });
    expect(page.recoverableErrors).toEqual([]);
    expect(page.consoleErrors).toEqual([]);
    const renders = page.fetch.callsTo('/api/census/form-render', 'POST');
    expect(renders).toHaveLength(1);
    expect(renders[0]!.json).toEqual({ formId: 'form1', visitorCookie: 'U|1|1|1|1', fields: { website_id: expect.any(String), page_id: expect.any(String), logged_in: false } });
  });

  test('the server\'s disabled submit button stays so through hydration and is enabled once the island handles the submit', async () => {
    page = createPage({ body: siteFormHtml({ fields: [text] }), context });
    expect(submitBtn().disabled).toBe(true);
    await page.boot();
    await page.advance(0);
    expect(page.recoverableErrors).toEqual([]);
    expect(page.consoleErrors).toEqual([]);
    expect(submitBtn().disabled).toBe(false);
  });

  test('SF-2 a required empty field', async () => {
    await open([text]);
    await submit();
    expect(fieldError('f1')).toBe('Required');
    expect(fieldEl('f1').querySelector('.field-error')!.nextElementSibling!.classList.contains('title')).toBe(true);
    expect(topMsg().textContent).toBe('Your form has encountered a problem. Please scroll down to review.');
    expect(topMsg().hidden).toBe(false);
    expect(bottomMsg().textContent).toBe('Your form has encountered a problem. Please scroll up to review.');
    expect(keyPosts()).toHaveLength(0);
  });

  test('SF-3 character limit', async () => {
    await open([{ id: 't', type: 'textarea', maxLength: '10' }]);
    await page.act(() => typeInto(input('t'), 'x'.repeat(11)));
    await submit();
    expect(fieldError('t')).toBe('You have exceeded the character limit.');
  });

  test('the limit counts what the visitor reads (the server\'s rule): an emoji is one character, surrounding spaces none', async () => {
    await open([{ id: 't', type: 'textarea', maxLength: '3' }], {}, { context: { flags: { vanillaFormHandler: true } } });
    const counter = () => fieldEl('t').querySelector('.sf-char-counter')!;
    await page.act(() => typeInto(input('t'), '😀😀😀 \n'));
    expect(counter().textContent).toBe('3/3');
    expect(fieldError('t')).toBeNull();
    page.fetch.on('POST', '/api/form/SaveFormSubmission', { json: { success: true } });
    await submit();
    expect(fieldError('t')).toBeNull();
    expect(savePosts()).toHaveLength(1);
  });

  test('going over the limit is said while typing, before any submit, and unsaid when the text fits again', async () => {
    await open([{ id: 'n', type: 'text', title: 'Nickname', maxLength: '5' }, { id: 't', type: 'textarea', maxLength: '4' }]);
    await page.act(() => typeInto(input('n'), 'abcde'));
    expect(fieldError('n')).toBeNull();
    await page.act(() => typeInto(input('n'), 'abcdef'));
    expect(fieldError('n')).toBe('You have exceeded the character limit.');
    expect(input('n').getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(input('n').getAttribute('aria-describedby')!)!.textContent).toBe('You have exceeded the character limit.');
    expect(fieldError('t')).toBeNull();
    expect(keyPosts()).toHaveLength(0);
    await page.act(() => typeInto(input('n'), 'abcd'));
    expect(fieldError('n')).toBeNull();
    expect(input('n').hasAttribute('aria-invalid')).toBe(false);
  });

  test('a field corrected after a submit loses its error as the visitor types; a still-wrong one keeps it', async () => {
    const email: SiteFormField = { id: 'f2', type: 'email', title: 'Email', required: true };
    await open([{ ...text, maxLength: '5' }, email]);
    await submit();
    expect(fieldError('f1')).toBe('Required');
    await page.act(() => typeInto(input('f2'), 'ann@'));
    expect(fieldError('f2')).toBe('Email is not valid. Email addresses should follow the format user@domain.com.');
    await page.act(() => typeInto(input('f1'), 'ab'));
    expect(fieldError('f1')).toBeNull();
    expect(input('f1').hasAttribute('aria-invalid')).toBe(false);
    expect(input('f2').getAttribute('aria-invalid')).toBe('true');
    // The count said with the alert goes without a word; the spec's sentence stays while a field is wrong.
    expect(bottomMsg().textContent).toBe('Your form has encountered a problem. Please scroll up to review.');
    await page.act(() => typeInto(input('f2'), 'ann@example.com'));
    expect(fieldError('f2')).toBeNull();
    expect(topMsg().hidden).toBe(true);
    expect(bottomMsg().hidden).toBe(true);
  });

  test('Enter pressed in the one wrong field, which keeps focus, says its error with the alert (focus moved there reads it itself)', async () => {
    const email: SiteFormField = { id: 'f2', type: 'email', title: 'Email', required: true };
    await open([email]);
    input('f2').focus();
    await submit();
    expect(document.activeElement).toBe(input('f2'));
    expect(bottomMsg().textContent).toBe(
      'Your form has encountered a problem. Please scroll up to review. Email is not valid. Email addresses should follow the format user@domain.com.',
    );
    submitBtn().focus();
    await submit();
    expect(document.activeElement).toBe(input('f2'));
    expect(bottomMsg().textContent).toBe('Your form has encountered a problem. Please scroll up to review.');
  });

  test('Enter pressed in the first of two wrong fields: the alert says its error, then the count', async () => {
    await open([text, { id: 'f2', type: 'email', title: 'Email', required: true }]);
    input('f1').focus();
    await submit();
    expect(document.activeElement).toBe(input('f1'));
    expect(bottomMsg().textContent).toBe('Your form has encountered a problem. Please scroll up to review. Required. 2 fields need attention.');
  });

  test('SF-4 email rules', async () => {
    await open([
      { id: 'e1', type: 'email' },
      { id: 'e2', type: 'email', required: true },
      { id: 'e3', type: 'email' },
    ]);
    await page.act(() => typeInto(input('e1'), 'bob@'));
    await submit();
    const message = 'Email is not valid. Email addresses should follow the format user@domain.com.';
    expect(fieldError('e1')).toBe(message);
    expect(fieldError('e2')).toBe(message);
    expect(fieldError('e3')).toBeNull();
  });

  test('SF-5 and SF-7 sections are skipped; key first, then the save payload', async () => {
    await open([text, { id: 's1', type: 'section', title: 'Part 2' }]);
    page.fetch.on('POST', '/api/form/SaveFormSubmission', { json: {}, delayMs: 100 });
    await page.act(() => typeInto(input('f1'), 'Ann'));
    await page.act(() => form().requestSubmit());
    expect(submitBtn().disabled).toBe(true);
    expect(submitBtn().textContent).toBe('Submitting…');
    await page.advance(0);
    expect(keyPosts()[0]!.body).toBeUndefined();
    const keyIndex = page.fetch.calls.indexOf(keyPosts()[0]!);
    expect(page.fetch.calls.indexOf(savePosts()[0]!)).toBeGreaterThan(keyIndex);
    expect(savePosts()[0]!.json).toEqual({
      key: 'K1', formId: 'form1', form: '{"f1":"Ann"}', pageTitle: 'Contact', pageId: 'pg1',
      contentSource: 'c', pagePath: '/contact', pagePermissionTypeValue: 1,
    });
    await page.advance(100);
    expect(submitBtn().textContent).toBe('Send');
  });

  test('SF-6 the textarea counter', async () => {
    await open([{ id: 't', type: 'textarea', maxLength: '20' }], {}, { context: { flags: { vanillaFormHandler: true } } });
    expect(page.recoverableErrors).toEqual([]);
    await page.act(() => typeInto(input('t'), 'abcde'));
    const counter = () => fieldEl('t').querySelector('.sf-char-counter');
    expect(counter()!.textContent).toBe('5/20');
    await page.act(() => typeInto(input('t'), 'x'.repeat(21)));
    expect(counter()!.textContent).toBe('21/20');
    expect(counter()!.classList.contains('sf-char-counter-error')).toBe(true);
    for (const max of ['0', 'abc']) {
      page.cleanup();
      await open([{ id: 't', type: 'textarea', maxLength: max }], {}, { context: { flags: { vanillaFormHandler: true } } });
      expect(counter()).toBeNull();
    }
    page.cleanup();
    await open([{ id: 't', type: 'textarea', maxLength: '20' }]);
    expect(counter()).toBeNull();
  });

  test('SF-8 a failed key request', async () => {
    await open([text]);
    page.fetch.routes.unshift((c) => (c.path === '/api/form/FormSubmissionKey' ? { status: 500, json: {} } : undefined));
    await page.act(() => typeInto(input('f1'), 'Ann'));
    await submit();
    expect(bottomMsg().textContent).toBe('Could not get a form submission key, please try again later.');
    expect(savePosts()).toHaveLength(0);
    expect(submitBtn().disabled).toBe(false);
    expect(submitBtn().textContent).toBe('Send');
  });

  test.each([
    [401, 'Unable to submit form. Please try again later.'],
    [404, 'This form has not been configured yet.'],
    [429, 'Unable to submit form. Submission rate limit exceeded. Please try again later.'],
    [500, 'Unable to send form. Please try again later.'],
  ])('SF-9 save answers %i', async (status, message) => {
    await open([text]);
    page.fetch.on('POST', '/api/form/SaveFormSubmission', { status, json: { error: 'server text' } });
    await page.act(() => typeInto(input('f1'), 'Ann'));
    await submit();
    expect(bottomMsg().textContent).toBe(message);
  });

  test('SF-10 field errors from the server', async () => {
    await open([text, { id: 'f2', type: 'text', title: 'Other' }]);
    page.fetch.on('POST', '/api/form/SaveFormSubmission', { status: 400, json: { errors: { f2: 'Required' } } });
    await page.act(() => typeInto(input('f1'), 'Ann'));
    await submit();
    expect(fieldError('f2')).toBe('Required');
    expect(topMsg().textContent).toBe('One or more fields is invalid, please check your entries.');
    expect(bottomMsg().textContent).toBe('Your form has encountered a problem. Please scroll up to review.');
  });

  test('SF-11 server text, then the unknown fallback', async () => {
    await open([text]);
    page.fetch.on('POST', '/api/form/SaveFormSubmission', { status: 403, json: { error: 'Nope' } });
    await page.act(() => typeInto(input('f1'), 'Ann'));
    await submit();
    expect(bottomMsg().textContent).toBe('Nope');
    page.fetch.routes.unshift((c) => (c.path === '/api/form/SaveFormSubmission' ? { status: 418, text: '' } : undefined));
    await submit();
    expect(bottomMsg().textContent).toBe('Unknown error, please try again later.');
  });

  test('SF-12 a rejected save', async () => {
    await open([text]);
    page.fetch.on('POST', '/api/form/SaveFormSubmission', 'reject');
    await page.act(() => typeInto(input('f1'), 'Ann'));
    await submit();
    expect(bottomMsg().textContent).toBe('Error processing form submission. Please reload and try again.');
  });

  test('the page scrolls to the first field in error by the seed tween: 30 px above it (issue 18)', async () => {
    const email: SiteFormField = { id: 'f2', type: 'email', title: 'Email', required: true };
    await open([text, email]);
    const scrolls: number[] = [];
    vi.spyOn(window, 'scrollTo').mockImplementation(((_x: number, y: number) => void scrolls.push(y)) as unknown as typeof window.scrollTo);
    vi.spyOn(window, 'matchMedia').mockReturnValue({ matches: true } as MediaQueryList);
    const field = input('f1').closest('.sf-field')!;
    vi.spyOn(field, 'getBoundingClientRect').mockReturnValue({ top: 530 } as DOMRect);
    await submit();
    expect(document.activeElement).toBe(input('f1'));
    // Reduced motion (matchMedia above): one jump to the field's top less the offset.
    expect(scrolls).toEqual([500]);
    vi.restoreAllMocks();
  });

  test('field errors are tied to their controls, focus goes to the first, and only the bottom message is an alert', async () => {
    const email: SiteFormField = { id: 'f2', type: 'email', title: 'Email', required: true };
    await open([text, email]);
    await submit();
    for (const [id, message] of [['f1', 'Required'], ['f2', 'Email is not valid. Email addresses should follow the format user@domain.com.']] as const) {
      expect(input(id).getAttribute('aria-invalid')).toBe('true');
      expect(document.getElementById(input(id).getAttribute('aria-describedby')!)!.textContent).toBe(message);
    }
    expect(document.activeElement).toBe(input('f1'));
    expect(topMsg().hasAttribute('role')).toBe(false);
    expect(bottomMsg().getAttribute('role')).toBe('alert');
    // Focus reads the first field and its error; the alert says how many are wrong.
    expect(bottomMsg().textContent).toBe('Your form has encountered a problem. Please scroll up to review. 2 fields need attention.');
    await page.act(() => typeInto(input('f1'), 'Ann'));
    await page.act(() => typeInto(input('f2'), 'ann@example.com'));
    page.fetch.on('POST', '/api/form/SaveFormSubmission', { json: {} });
    await submit();
    expect(input('f1').hasAttribute('aria-invalid')).toBe(false);
    // After the success the button is hidden: focus goes to the submission text, not <body>.
    const submission = document.querySelector<HTMLElement>('.sf-form-submission')!;
    expect(document.activeElement).toBe(submission);
    expect(submission.getAttribute('tabindex')).toBe('-1');
  });

  test('SF-13 success shows the submission text; valid redirects navigate, bad ones do not', async () => {
    await open([text]);
    page.fetch.on('POST', '/api/form/SaveFormSubmission', { json: {} });
    await page.act(() => typeInto(input('f1'), 'Ann'));
    await submit();
    expect(fieldEl('f1').hidden).toBe(true);
    expect(submitBtn().hidden).toBe(true);
    expect(document.querySelector<HTMLElement>('.sf-form-submission')!.hidden).toBe(false);
    for (const [redirect, expected] of [
      ['/thanks', '/thanks'],
      ['javascript:alert(1)', null],
      [`https://example.com/${'a'.repeat(2084 - 20)}`, null],
    ] as const) {
      page.cleanup();
      await open([text], { successRedirect: redirect });
      page.fetch.on('POST', '/api/form/SaveFormSubmission', { json: {} });
      await page.act(() => typeInto(input('f1'), 'Ann'));
      await submit();
      if (expected) expect(page.navigate).toHaveBeenCalledWith(expected);
      else {
        expect(page.navigate).not.toHaveBeenCalled();
        expect(document.querySelector<HTMLElement>('.sf-form-submission')!.hidden).toBe(false);
      }
    }
  });

  test('SF-14 captcha enabled and unsolved', async () => {
    installLocalCaptcha(window);
    await open([text], { captchaEnabled: true });
    await page.act(() => typeInto(input('f1'), 'Ann'));
    await submit();
    expect(bottomMsg().textContent).toBe('Complete CAPTCHA before submitting.');
    expect(keyPosts()).toHaveLength(0);
  });

  test('SF-15 and CAP-7 captcha token, lock after failure, unlock on a new token, relock on expiry', async () => {
    let callback: (t: string) => void = () => undefined;
    let expired: () => void = () => undefined;
    const reset = vi.fn();
    let response = '';
    window.sfCaptchaProvider = {
      render: (_el, o) => {
        callback = (t) => {
          response = t;
          o.callback(t);
        };
        expired = () => {
          response = '';
          o['expired-callback']();
        };
        return 1;
      },
      reset: (id) => {
        response = '';
        reset(id);
      },
      getResponse: () => response,
    };
    await open([text], { captchaEnabled: true });
    await page.act(() => callback('t9'));
    page.fetch.on('POST', '/api/form/SaveFormSubmission', { status: 500, json: {} });
    await page.act(() => typeInto(input('f1'), 'Ann'));
    await submit();
    expect((savePosts()[0]!.json as { captchaKey: string }).captchaKey).toBe('t9');
    expect(reset).toHaveBeenCalledTimes(1);
    expect(submitBtn().disabled).toBe(true);
    await page.act(() => callback('t10'));
    expect(submitBtn().disabled).toBe(false);
    await page.act(() => expired());
    expect(submitBtn().disabled).toBe(true);
  });

  test('CAP-10 a form without captchaEnabled renders no captcha even with a site key', async () => {
    installLocalCaptcha(window);
    await open([text], { captchaEnabled: false });
    expect(document.querySelector('.captcha-container')!.childNodes).toHaveLength(0);
  });

  test('SF-16 checkbox group, radio and name values', async () => {
    const box = (v: string) => `<label><input type="checkbox" value="${v}"> ${v}</label>`;
    const radio = (v: string) => `<label><input type="radio" name="r" value="${v}"> ${v}</label>`;
    await open([
      { id: 'c', type: 'checkbox', controls: ['A', 'B', 'C'].map(box).join('') },
      { id: 'r', type: 'radio', controls: ['A', 'B'].map(radio).join('') },
      { id: 'n', type: 'name' },
    ]);
    page.fetch.on('POST', '/api/form/SaveFormSubmission', { json: {} });
    await page.act(() => {
      fieldEl('c').querySelector<HTMLInputElement>('input[value="A"]')!.click();
      fieldEl('c').querySelector<HTMLInputElement>('input[value="C"]')!.click();
      fieldEl('r').querySelector<HTMLInputElement>('input[value="B"]')!.click();
      const [first, last] = fieldEl('n').querySelectorAll('input');
      typeInto(first as HTMLInputElement, 'Ann');
      typeInto(last as HTMLInputElement, 'Lee');
    });
    await submit();
    expect(JSON.parse((savePosts()[0]!.json as { form: string }).form)).toEqual({ c: ['A', 'C'], r: 'B', n: ['Ann', 'Lee'] });
  });

  test('SF-17 hidden fields read the query string', async () => {
    window.history.replaceState(null, '', '/contact?utm=x');
    await open([{ id: 'h', type: 'hidden', name: 'utm' }]);
    page.fetch.on('POST', '/api/form/SaveFormSubmission', { json: {} });
    await submit();
    expect(JSON.parse((savePosts()[0]!.json as { form: string }).form)).toEqual({ h: 'x' });
    window.history.replaceState(null, '', '/');
  });

  test('SF-18 a newsletter form shows its submission text', async () => {
    await open([{ id: 'e', type: 'email', required: true }], { newsletter: true });
    page.fetch.on('POST', '/api/form/SaveFormSubmission', { json: {} });
    await page.act(() => typeInto(input('e'), 'a@b.co'));
    await submit();
    expect(document.querySelector<HTMLElement>('.sf-form-submission')!.hidden).toBe(false);
  });

  test('SF-19 a second submit clears old errors and asks for a new key', async () => {
    await open([text]);
    page.fetch.on('POST', '/api/form/SaveFormSubmission', { status: 400, json: { errors: { f1: 'Bad' } } });
    await page.act(() => typeInto(input('f1'), 'Ann'));
    await submit();
    expect(fieldError('f1')).toBe('Bad');
    page.fetch.routes.unshift((c) => (c.path === '/api/form/SaveFormSubmission' ? { json: {}, delayMs: 50 } : undefined));
    await page.act(() => form().requestSubmit());
    expect(fieldError('f1')).toBeNull();
    expect(topMsg().hidden).toBe(true);
    await page.advance(50);
    expect(keyPosts()).toHaveLength(2);
  });

  test('SF-20 a field whose collection throws', async () => {
    const unregister = registerFieldCollector('exploding', () => {
      throw new Error('renderer failure');
    });
    try {
      await open([text, { id: 'x', type: 'exploding', controls: '<input>' }]);
      page.fetch.routes.unshift((c) => (c.path.startsWith('/api/form/SaveFormSubmission') ? { json: {} } : undefined));
      await page.act(() => typeInto(input('f1'), 'Ann'));
      await submit();
      expect(bottomMsg().textContent).toBe('Could not parse the form fields, please check your entries.');
      expect(savePosts()).toHaveLength(0);
    } finally {
      unregister();
    }
  });
});
