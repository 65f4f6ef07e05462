// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import fc from 'fast-check';
import { restockNotification, withoutRestockUpgrade } from '../test-support/formatter-markup.ts';
import { installLocalCaptcha } from '../runtime/captcha-local.ts';
import { choose, createPage, typeInto, type Page } from '../test-support/page.ts';
import { contextProducts, product, productPage, variant } from '../test-support/products.ts';

let page: Page;
beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  page?.cleanup();
  delete window.sfCaptchaProvider;
  vi.useRealTimers();
});

const messages = {
  CTAText: 'Get notified when back in stock',
  placeholderText: 'Your Email',
  buttonText: 'Sign Up',
  mailingListDescription: 'Join our list',
};

function merchandising(variantIds: string[], extra: Record<string, unknown> = {}) {
  return {
    restockNotificationMessages: messages,
    restockNotificationViews: variantIds.map((variantId) => ({ variantId, hiddenByDefault: true })),
    mailingListSignUpEnabled: true,
    mailingListOptInByDefault: false,
    ...extra,
  };
}

async function single(qtyInStock: number, opts: { siteKey?: string | null; extra?: Record<string, unknown>; context?: Record<string, unknown> } = {}) {
  const item = product({ variants: [variant('S1', {}, { id: 'v1', qtyInStock })] });
  const siteKey = opts.siteKey ?? null;
  page = createPage({
    body: productPage(item, { merchandising: merchandising(['v1'], opts.extra), captchaSiteKey: siteKey }),
    context: { products: contextProducts(item), captcha: { siteKey, provider: 'local' }, ...opts.context },
  });
  await page.boot();
  await page.advance(0);
}

const view = (variantId = 'v1') => document.querySelector<HTMLElement>(`.product-restock-notification[data-variant-id="${variantId}"]`)!;
const email = (v = view()) => v.querySelector<HTMLInputElement>('input[name="email"]')!;
const submitInput = (v = view()) => v.querySelector<HTMLInputElement>('input[type="submit"]')!;
const errorText = (v = view()) => v.querySelector('.product-restock-error')?.textContent ?? null;
const posts = () => page.fetch.callsTo('/api/site-users/account/notifications/restock', 'POST');

async function submitWith(value: string, v = view()) {
  await page.act(() => typeInto(email(v), value));
  await page.act(() => v.querySelector('form')!.requestSubmit());
}

describe('A4 restock-notification box', () => {
  test('RST-1 a sold-out single variant shows its view; an in-stock one hides it', async () => {
    await single(0);
    expect(page.recoverableErrors).toEqual([]);
    expect(page.consoleErrors).toEqual([]);
    expect(view().getAttribute('data-hydrated')).toBe('true');
    expect(view().hasAttribute('hidden')).toBe(false);
    page.cleanup();
    await single(5);
    expect(view().hasAttribute('hidden')).toBe(true);
  });

  test('RST-2 only the selected sold-out variant shows its view', async () => {
    const item = product({
      options: ['Size'],
      variants: [
        variant('A', { Size: 'S' }, { id: 'V1', qtyInStock: 0 }),
        variant('B', { Size: 'M' }, { id: 'V2', qtyInStock: 0 }),
        variant('C', { Size: 'L' }, { id: 'V3', qtyInStock: 4 }),
      ],
    });
    page = createPage({ body: productPage(item, { merchandising: merchandising(['V1', 'V2']) }), context: { products: contextProducts(item) } });
    await page.boot();
    const size = document.querySelector<HTMLSelectElement>('select[data-variant-option-name="Size"]')!;
    await page.act(() => choose(size, 'S'));
    expect(view('V1').hasAttribute('hidden')).toBe(false);
    expect(view('V2').hasAttribute('hidden')).toBe(true);
    await page.act(() => choose(size, 'L'));
    expect(view('V1').hasAttribute('hidden')).toBe(true);
    expect(view('V2').hasAttribute('hidden')).toBe(true);
  });

  test('RST-3 blank email', async () => {
    await single(0);
    await submitWith('');
    expect(errorText()).toBe('Email cannot be blank');
    expect(posts()).toHaveLength(0);
  });

  test.each(['foo@bar', 'foo@bar.museum', `${'a'.repeat(250)}@bb.com`])('RST-4 %s is invalid', async (value) => {
    await single(0);
    await submitWith(value);
    expect(errorText()).toBe('Email is invalid');
    expect(posts()).toHaveLength(0);
  });

  test('RST-5 the email is trimmed', async () => {
    await single(0);
    await submitWith('  a@b.co  ');
    expect((posts()[0]!.json as { siteVisitorEmail: string }).siteVisitorEmail).toBe('a@b.co');
  });

  test('RST-6 an unsolved captcha blocks the submit', async () => {
    installLocalCaptcha(window);
    await single(0, { siteKey: 'site-key' });
    await submitWith('a@b.co');
    expect(errorText()).toBe('Complete CAPTCHA before submitting');
    expect(posts()).toHaveLength(0);
  });

  test('RST-7 exact body with the mailing list and captcha token', async () => {
    window.sfCaptchaProvider = {
      render: (_el, opts) => {
        opts.callback('t1');
        return 1;
      },
      reset: vi.fn(),
      getResponse: () => 't1',
    };
    await single(0, { siteKey: 'k' });
    await page.act(() => view().querySelector<HTMLInputElement>('input[name="isJoinMailingList"]')!.click());
    await submitWith('a@b.co');
    expect(posts()[0]!.body).toBe('{"productId":"p1","variantId":"v1","siteVisitorEmail":"a@b.co","isJoinMailingList":true,"captchaToken":"t1"}');
  });

  test('the views of two sold-out variants (one React root each) have ids of their own: each label names its own input, each error its own field', async () => {
    const item = product({
      options: ['Size'],
      variants: [variant('A', { Size: 'S' }, { id: 'V1', qtyInStock: 0 }), variant('B', { Size: 'M' }, { id: 'V2', qtyInStock: 0 })],
    });
    page = createPage({ body: productPage(item, { merchandising: merchandising(['V1', 'V2']) }), context: { products: contextProducts(item) } });
    await page.boot();
    await page.advance(0);
    const ids = [...document.querySelectorAll('[id]')].map((e) => e.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    for (const id of ['V1', 'V2']) expect(view(id).querySelector('label')!.htmlFor).toBe(email(view(id)).id);
    await page.act(() => choose(document.querySelector<HTMLSelectElement>('select[data-variant-option-name="Size"]')!, 'M'));
    await submitWith('', view('V2'));
    expect(document.getElementById(email(view('V2')).getAttribute('aria-describedby')!)).toBe(view('V2').querySelector('.product-restock-error'));
  });

  test('RST-8 without a site key there is no captchaToken key', async () => {
    await single(0);
    await submitWith('a@b.co');
    expect(Object.keys(posts()[0]!.json as object)).not.toContain('captchaToken');
  });

  test('once hydrated the email field is type="email" with a label; its error describes it; focus goes to the field, then to Signed up!', async () => {
    await single(0);
    expect(email().type).toBe('email');
    expect(view().querySelector(`label[for="${email().id}"]`)!.textContent).toBe('Your Email');
    await submitWith('');
    expect(email().getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(email().getAttribute('aria-describedby')!)!.textContent).toBe('Email cannot be blank');
    expect(document.activeElement).toBe(email());
    // Read with the focus that moved to the field: no alert says it again, nor the status region.
    expect(document.getElementById(email().getAttribute('aria-describedby')!)!.hasAttribute('role')).toBe(false);
    const said = () => document.querySelector('body > .sf-announcer')!.textContent;
    expect(said()).toBe('');
    // Sent again from the field itself (focus stays): the status region says the new error.
    await submitWith('foo@bar');
    expect(document.activeElement).toBe(email());
    expect(said()).toBe('Email is invalid');
    page.fetch.on('POST', '/api/site-users/account/notifications/restock', { json: {} });
    await submitWith('a@b.co');
    await page.advance(0);
    expect(document.activeElement).toBe(view().querySelector('.product-restock-success'));
  });

  test('once hydrated the form is novalidate, so the island, not the browser, checks the type="email" field', async () => {
    await single(0);
    const form = view().querySelector('form')!;
    expect(form.noValidate).toBe(true);
    await submitWith('bob@');
    expect(errorText()).toBe('Email is invalid');
    expect(posts()).toEqual([]);
  });

  test('RST-9 success text, default and custom', async () => {
    await single(0);
    await submitWith('a@b.co');
    await page.advance(0);
    expect(view().querySelector('form')).toBeNull();
    expect(view().querySelector('.product-restock-success')!.textContent).toBe('Signed up!');
    page.cleanup();
    await single(0, { context: { store: { restockNotificationsSuccessText: "We'll email you" } } });
    await submitWith('a@b.co');
    await page.advance(0);
    expect(view().querySelector('.product-restock-success')!.textContent).toBe("We'll email you");
  });

  test('RST-10 success with a captcha removes it without a reset', async () => {
    const reset = vi.fn();
    window.sfCaptchaProvider = { render: (_el, o) => (o.callback('tok'), 7), reset, getResponse: () => 'tok' };
    await single(0, { siteKey: 'k' });
    await submitWith('a@b.co');
    await page.advance(0);
    expect(reset).not.toHaveBeenCalled();
    expect(document.querySelector('.captcha-container')).toBeNull();
  });

  test('RST-11 a server error keeps the form, resets the captcha once, re-enables submit', async () => {
    const reset = vi.fn();
    window.sfCaptchaProvider = { render: (_el, o) => (o.callback('tok'), 7), reset, getResponse: () => 'tok' };
    await single(0, { siteKey: 'k' });
    page.fetch.on('POST', '/api/site-users/account/notifications/restock', { status: 400, json: { error: 'Email is invalid' } });
    await submitWith('a@b.co');
    await page.advance(0);
    expect(errorText()).toBe('Email is invalid');
    // Focus stays where it was: the server's refusal is said by the status region.
    expect(document.querySelector('body > .sf-announcer')!.textContent).toBe('Email is invalid');
    expect(view().querySelector('form')).not.toBeNull();
    expect(reset).toHaveBeenCalledTimes(1);
    expect(reset).toHaveBeenCalledWith(7);
    expect(submitInput().disabled).toBe(false);
  });

  test('RST-12 no mailing list: no checkbox and false; opt-in by default starts checked', async () => {
    await single(0, { extra: { mailingListSignUpEnabled: false } });
    expect(view().querySelector('input[name="isJoinMailingList"]')).toBeNull();
    await submitWith('a@b.co');
    expect((posts()[0]!.json as { isJoinMailingList: boolean }).isJoinMailingList).toBe(false);
    page.cleanup();
    await single(0, { extra: { mailingListOptInByDefault: true } });
    expect(view().querySelector<HTMLInputElement>('input[name="isJoinMailingList"]')!.checked).toBe(true);
  });

  test('RST-13 a submit while submitting sends nothing more', async () => {
    await single(0);
    page.fetch.on('POST', '/api/site-users/account/notifications/restock', { json: {}, delayMs: 500 });
    await submitWith('a@b.co');
    expect(submitInput().disabled).toBe(true);
    await page.act(() => view().querySelector('form')!.requestSubmit());
    await page.advance(500);
    expect(posts()).toHaveLength(1);
  });

  test('RST-1 holds for generated texts and options (quotes, <, &)', async () => {
    const text = fc.stringMatching(/^[A-Za-z0-9 "<>&']{0,12}$/);
    await fc.assert(
      fc.asyncProperty(
        fc.record({ CTAText: text, placeholderText: text, buttonText: text, mailingListDescription: text }),
        fc.boolean(),
        fc.boolean(),
        fc.option(fc.constant('key'), { nil: null }),
        async (msgs, mailing, optIn, siteKey) => {
          const item = product({ variants: [variant('S1', {}, { id: 'v1', qtyInStock: 0 })] });
          page?.cleanup();
          const merch = { restockNotificationMessages: msgs, restockNotificationViews: [{ variantId: 'v1', hiddenByDefault: true }], mailingListSignUpEnabled: mailing, mailingListOptInByDefault: optIn };
          page = createPage({ body: restockNotification(item, merch, siteKey), context: { products: contextProducts(item), captcha: { siteKey } } });
          const html = view().innerHTML;
          await page.boot();
          expect(page.recoverableErrors).toEqual([]);
          expect(page.consoleErrors).toEqual([]);
          if (!siteKey) expect(withoutRestockUpgrade(view().innerHTML)).toBe(html);
        },
      ),
      { numRuns: 20 },
    );
  });
});
