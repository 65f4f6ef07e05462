// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { alertText, createPage, typeInto, type Answer, type Page } from '../test-support/page.ts';
import { ACCOUNT_SIGNED_IN_HTML, ACCOUNT_SIGNED_OUT_HTML } from '../test-support/renderer-markup.ts';

let page: Page;
beforeEach(() => {
  vi.useFakeTimers();
  sessionStorage.clear();
});
afterEach(() => {
  page?.cleanup();
  sessionStorage.clear();
  vi.useRealTimers();
});

const signedIn = { siteUser: { authenticated: true, siteUserId: 'u1', xsrfToken: null } };
const sessionCalls = (method: string) => page.fetch.callsTo('/api/site-users/account/session', method);

async function open(html: string, context: Record<string, unknown> = {}, cookies: Record<string, string> = {}) {
  page = createPage({ body: html, context, cookies });
  await page.boot();
}
async function fillAndSubmit(email: string, password: string, remember = false) {
  const form = document.querySelector<HTMLFormElement>('.sf-login')!;
  await page.act(() => {
    typeInto(form.querySelector('input[name="email"]')!, email);
    typeInto(form.querySelector('input[name="password"]')!, password);
    if (remember) form.querySelector<HTMLInputElement>('input[name="rememberMe"]')!.click();
  });
  await page.act(() => form.requestSubmit());
  await page.advance(0);
}

describe('A10 site-user login and logout', () => {
  test("the server's Sign In comes disabled, stays so through hydration, and is enabled once the island handles the submit", async () => {
    page = createPage({ body: ACCOUNT_SIGNED_OUT_HTML, context: {}, cookies: {} });
    const button = () => document.querySelector<HTMLButtonElement>('.sf-login button[type="submit"]')!;
    expect(button().disabled).toBe(true);
    await page.boot();
    await page.advance(0);
    expect(page.recoverableErrors).toEqual([]);
    expect(page.consoleErrors).toEqual([]);
    expect(button().disabled).toBe(false);
    expect(button().textContent).toBe('Sign In');
  });

  test('AUTH-1 an empty password shows Required above it and sends nothing', async () => {
    await open(ACCOUNT_SIGNED_OUT_HTML);
    expect(page.recoverableErrors).toEqual([]);
    await fillAndSubmit('a@b.co', '');
    const password = document.querySelector('input[name="password"]')!;
    expect(password.previousElementSibling!.textContent).toBe('Required');
    expect(sessionCalls('POST')).toHaveLength(0);
  });

  test('Enter in the empty password field, which keeps focus, says Required aloud; focus moved to the field says nothing more', async () => {
    await open(ACCOUNT_SIGNED_OUT_HTML);
    const said = () => document.querySelector('body > .sf-announcer')?.textContent ?? null;
    // The region is in the page before anything is said in it.
    expect(said()).toBe('');
    document.querySelector<HTMLInputElement>('input[name="password"]')!.focus();
    await fillAndSubmit('a@b.co', '');
    expect(document.activeElement).toBe(document.querySelector('input[name="password"]'));
    expect(said()).toBe('Required');
    page.cleanup();
    await open(ACCOUNT_SIGNED_OUT_HTML);
    document.querySelector<HTMLButtonElement>('.sf-login button[type="submit"]')!.focus();
    await fillAndSubmit('a@b.co', '');
    expect(said()).toBe('');
  });

  test('the fields are labelled; an empty submit marks both invalid, describes each by its error and focuses the first', async () => {
    await open(ACCOUNT_SIGNED_OUT_HTML);
    const email = document.querySelector<HTMLInputElement>('input[name="email"]')!;
    const password = document.querySelector<HTMLInputElement>('input[name="password"]')!;
    expect(document.querySelector(`label[for="${email.id}"]`)!.textContent).toBe('Email');
    expect(document.querySelector(`label[for="${password.id}"]`)!.textContent).toBe('Password');
    await fillAndSubmit('', '');
    for (const input of [email, password]) {
      expect(input.getAttribute('aria-invalid')).toBe('true');
      expect(document.getElementById(input.getAttribute('aria-describedby')!)!.textContent).toBe('Required');
    }
    expect(document.activeElement).toBe(email);
    await fillAndSubmit('a@b.co', '');
    expect(email.hasAttribute('aria-invalid')).toBe(false);
    expect(document.activeElement).toBe(password);
  });

  test('an empty submit says that 2 fields need attention; typing into one clears its error and the count without a word, the other stays marked', async () => {
    await open(ACCOUNT_SIGNED_OUT_HTML);
    const said = () => document.querySelector('body > .sf-announcer')?.textContent ?? null;
    const email = document.querySelector<HTMLInputElement>('input[name="email"]')!;
    const password = document.querySelector<HTMLInputElement>('input[name="password"]')!;
    await fillAndSubmit('', '');
    expect(document.activeElement).toBe(email);
    expect(said()).toBe('2 fields need attention.');
    await page.act(() => typeInto(email, 'a@b.co'));
    expect(email.hasAttribute('aria-invalid')).toBe(false);
    expect(document.getElementById('sf-login-email-error')).toBeNull();
    expect(password.getAttribute('aria-invalid')).toBe('true');
    expect(said()).toBe('');
    // Pressed again with only the password empty: its error is read with the focus moved there, no count.
    document.querySelector<HTMLButtonElement>('.sf-login button[type="submit"]')!.focus();
    await page.act(() => document.querySelector<HTMLFormElement>('.sf-login')!.requestSubmit());
    expect(document.activeElement).toBe(password);
    expect(said()).toBe('');
  });

  test('AUTH-2 and AUTH-3 login body, stored token, reload, and the header afterwards', async () => {
    await open(ACCOUNT_SIGNED_OUT_HTML);
    page.fetch.on('POST', '/api/site-users/account/session', { json: { xsrfToken: 'X1', siteUserId: 'u1' } });
    await fillAndSubmit('a@b.co', 'pw', true);
    expect(sessionCalls('POST')[0]!.body).toBe('{"email":"a@b.co","password":"pw","rememberMe":true}');
    expect(sessionStorage.getItem('sf.siteUserXsrf')).toBe('X1');
    expect(page.reload).toHaveBeenCalledTimes(1);
    await page.handle!.runtime.client.request('GET', '/api/anything');
    expect(page.fetch.callsTo('/api/anything')[0]!.headers['x-siteuser-xsrf-token']).toBe('X1');
  });

  test('AUTH-4 a 401 shows the server message without reloading', async () => {
    await open(ACCOUNT_SIGNED_OUT_HTML);
    page.fetch.on('POST', '/api/site-users/account/session', { status: 401, json: { error: 'Invalid email or password.' } });
    await fillAndSubmit('a@b.co', 'bad');
    const error = document.querySelector<HTMLElement>('.sf-login-error')!;
    expect(error.textContent).toBe('Invalid email or password.');
    expect(error.hidden).toBe(false);
    expect(page.reload).not.toHaveBeenCalled();
  });

  test('AUTH-5 a 429', async () => {
    await open(ACCOUNT_SIGNED_OUT_HTML);
    page.fetch.on('POST', '/api/site-users/account/session', { status: 429, json: { error: 'Too many requests.' } });
    await fillAndSubmit('a@b.co', 'pw');
    expect(document.querySelector('.sf-login-error')!.textContent).toBe('Please try again in a few seconds.');
  });

  test('AUTH-6 sign out sends a bodiless DELETE', async () => {
    await open(ACCOUNT_SIGNED_IN_HTML, signedIn);
    await page.act(() => document.querySelector<HTMLElement>('.sf-logout')!.click());
    await page.advance(0);
    const call = sessionCalls('DELETE')[0]!;
    expect(call.url).toBe('/api/site-users/account/session?cloneCart=true');
    expect(call.body).toBeUndefined();
    expect(call.headers['content-type']).toBeUndefined();
    expect(page.reload).toHaveBeenCalledTimes(1);
  });

  test('AUTH-7 one retry with the new crumb, then the token is cleared and the page reloads', async () => {
    sessionStorage.setItem('sf.siteUserXsrf', 'OLD');
    await open(ACCOUNT_SIGNED_IN_HTML, signedIn, { crumb: 'c1' });
    let n = 0;
    page.fetch.on('DELETE', '/api/site-users/account/session', () =>
      ++n === 1 ? { status: 403, json: { crumbFail: true }, setCookie: 'crumb=c2; path=/' } : { json: {} },
    );
    await page.act(() => document.querySelector<HTMLElement>('.sf-logout')!.click());
    await page.advance(0);
    const calls = sessionCalls('DELETE');
    expect(calls).toHaveLength(2);
    expect(calls[0]!.headers['x-csrf-token']).toBe('c1');
    expect(calls[1]!.headers['x-csrf-token']).toBe('c2');
    expect(sessionStorage.getItem('sf.siteUserXsrf')).toBeNull();
    expect(page.reload).toHaveBeenCalledTimes(1);
  });

  test('AUTH-8 two crumb failures: no third call, the expired-session alert', async () => {
    await open(ACCOUNT_SIGNED_IN_HTML, signedIn, { crumb: 'c1' });
    page.fetch.on('DELETE', '/api/site-users/account/session', { status: 403, json: { crumbFail: true } });
    await page.act(() => document.querySelector<HTMLElement>('.sf-logout')!.click());
    await page.advance(0);
    expect(sessionCalls('DELETE')).toHaveLength(2);
    expect(alertText()?.message).toBe('Your session has expired. Please reload the page and try again.');
    await page.act(() => document.querySelector<HTMLElement>('.sf-alert-ok')!.click());
    expect(page.reload).toHaveBeenCalledTimes(1);
  });

  test('a sign-out the server did not make (no connection, a 500) says the visitor is still signed in, reloads nothing, and lets them try again', async () => {
    sessionStorage.setItem('sf.siteUserXsrf', 'X1');
    await open(ACCOUNT_SIGNED_IN_HTML, signedIn, { crumb: 'c1' });
    let answer: Answer = 'reject';
    page.fetch.on('DELETE', '/api/site-users/account/session', () => answer);
    const signOut = document.querySelector<HTMLButtonElement>('.sf-logout')!;
    signOut.focus();
    await page.act(() => signOut.click());
    await page.advance(0);
    expect(sessionCalls('DELETE')).toHaveLength(1);
    expect(alertText()).toEqual({ title: 'Not Signed Out', message: 'You are still signed in. Please check your internet connection.' });
    await page.act(() => document.querySelector<HTMLElement>('.sf-alert-ok')!.click());
    expect(page.reload).not.toHaveBeenCalled();
    expect(document.activeElement).toBe(signOut);
    expect(sessionStorage.getItem('sf.siteUserXsrf')).toBe('X1');

    answer = { status: 500, json: { error: 'Something went wrong.', code: 'INTERNAL' } };
    await page.act(() => signOut.click());
    await page.advance(0);
    expect(alertText()?.message).toBe('You are still signed in. Something went wrong.');
    await page.act(() => document.querySelector<HTMLElement>('.sf-alert-ok')!.click());
    answer = { json: { success: true } };
    await page.act(() => signOut.click());
    await page.advance(0);
    expect(page.reload).toHaveBeenCalledTimes(1);
    expect(sessionStorage.getItem('sf.siteUserXsrf')).toBeNull();
  });

  test('AUTH-9 and AUTH-12 a language report posts the locale only when signed in', async () => {
    await open(ACCOUNT_SIGNED_IN_HTML, signedIn);
    expect(page.fetch.callsTo('/api/site-users/account/locale')).toHaveLength(0);
    await page.act(() => window.dispatchEvent(new CustomEvent('sf:translation-language', { detail: { language: 'fr' } })));
    expect(page.fetch.callsTo('/api/site-users/account/locale', 'POST')[0]!.body).toBe('{"language":"fr"}');
    page.cleanup();
    await open(ACCOUNT_SIGNED_OUT_HTML);
    await page.act(() => window.dispatchEvent(new CustomEvent('sf:translation-language', { detail: { language: 'fr' } })));
    expect(page.fetch.callsTo('/api/site-users/account/locale')).toHaveLength(0);
  });

  test('AUTH-10 the context token is sent without a login', async () => {
    await open(ACCOUNT_SIGNED_IN_HTML, { siteUser: { authenticated: true, siteUserId: 'u1', xsrfToken: 'X9' } });
    await page.handle!.runtime.client.request('POST', '/api/x', { json: {} });
    expect(page.fetch.callsTo('/api/x')[0]!.headers['x-siteuser-xsrf-token']).toBe('X9');
  });

  test('a wrong email or password marks both fields, describes them by the error and takes focus to the password, selected; the error never says the password', async () => {
    await open(ACCOUNT_SIGNED_OUT_HTML);
    let answer: Answer = { status: 401, json: { error: 'Invalid email or password.', code: 'INVALID_CREDENTIALS' } };
    page.fetch.on('POST', '/api/site-users/account/session', () => answer);
    const email = document.querySelector<HTMLInputElement>('input[name="email"]')!;
    const password = document.querySelector<HTMLInputElement>('input[name="password"]')!;
    const button = document.querySelector<HTMLButtonElement>('.sf-login button[type="submit"]')!;
    button.focus();
    await fillAndSubmit('a@b.co', 'hunter2-secret');
    const error = document.querySelector<HTMLElement>('.sf-login-error')!;
    expect(error.textContent).toBe('Invalid email or password.');
    // Read with the focus moved to the password, so no alert says it as well; nothing else is said.
    expect(error.hasAttribute('role')).toBe(false);
    expect(document.querySelector('body > .sf-announcer')!.textContent).toBe('');
    for (const input of [email, password]) {
      expect(input.getAttribute('aria-invalid')).toBe('true');
      expect(document.getElementById(input.getAttribute('aria-describedby')!)).toBe(error);
    }
    expect(document.activeElement).toBe(password);
    expect([password.selectionStart, password.selectionEnd]).toEqual([0, 'hunter2-secret'.length]);
    expect(document.querySelector('.sf-account')!.textContent).not.toContain('hunter2');
    expect(page.recoverableErrors).toEqual([]);

    // Sent again: the marks go with the error while it is on its way.
    answer = 'hang';
    await fillAndSubmit('a@b.co', 'right-password');
    expect(password.hasAttribute('aria-invalid')).toBe(false);
    expect(error.hidden).toBe(true);
    expect(error.hasAttribute('id')).toBe(false);
    // Back to an alert before any other failure (no connection) is shown in it.
    expect(error.getAttribute('role')).toBe('alert');
  });

  test('a wrong password with Enter pressed in the password field (focus stays) is said by the status region, once', async () => {
    await open(ACCOUNT_SIGNED_OUT_HTML);
    page.fetch.on('POST', '/api/site-users/account/session', { status: 401, json: { error: 'Invalid email or password.', code: 'INVALID_CREDENTIALS' } });
    document.querySelector<HTMLInputElement>('input[name="password"]')!.focus();
    await fillAndSubmit('a@b.co', 'wrong-password');
    await page.advance(0);
    expect(document.querySelector('.sf-login-error')!.hasAttribute('role')).toBe(false);
    expect(document.querySelector('body > .sf-announcer')!.textContent).toBe('Invalid email or password.');
  });

  test('a refusal that is not about the fields (429) marks neither field and leaves focus where it was', async () => {
    await open(ACCOUNT_SIGNED_OUT_HTML);
    page.fetch.on('POST', '/api/site-users/account/session', { status: 429, json: { error: 'Too many requests.', code: 'RATE_LIMITED' } });
    const button = document.querySelector<HTMLButtonElement>('.sf-login button[type="submit"]')!;
    await fillAndSubmit('a@b.co', 'pw');
    button.focus();
    await page.advance(0);
    expect(document.querySelector('input[name="password"]')!.hasAttribute('aria-invalid')).toBe(false);
    expect(document.activeElement).toBe(button);
  });

  test('signed in, the reloaded page says so, focused, once; signed out, the same; a word left for the other state is not said', async () => {
    await open(ACCOUNT_SIGNED_OUT_HTML);
    page.fetch.on('POST', '/api/site-users/account/session', { json: { xsrfToken: 'X1' } });
    await fillAndSubmit('a@b.co', 'pw');
    expect(page.reload).toHaveBeenCalledTimes(1);
    expect(sessionStorage.getItem('sf.accountNotice')).toBe('signed-in');
    page.cleanup();

    // The reloaded page: the server's signed-in block, hydrated without a mismatch, then the word.
    await open(ACCOUNT_SIGNED_IN_HTML, signedIn);
    await page.advance(0);
    expect(page.recoverableErrors).toEqual([]);
    const said = document.querySelector<HTMLElement>('.sf-account-notice')!;
    expect(said.textContent).toBe("You're signed in.");
    expect(said.getAttribute('role')).toBe('status');
    expect(document.activeElement).toBe(said);
    expect(sessionStorage.getItem('sf.accountNotice')).toBeNull();
    // Its order history is linked from the block, before Sign Out.
    const orders = document.querySelector<HTMLAnchorElement>('.sf-account-orders a')!;
    expect([orders.textContent, orders.getAttribute('href')]).toEqual(['Your orders', '/commerce/orders/status']);
    expect(orders.compareDocumentPosition(document.querySelector('.sf-logout')!) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();

    page.fetch.on('DELETE', '/api/site-users/account/session', { json: {} });
    await page.act(() => document.querySelector<HTMLElement>('.sf-logout')!.click());
    await page.advance(0);
    expect(sessionStorage.getItem('sf.accountNotice')).toBe('signed-out');
    page.cleanup();
    await open(ACCOUNT_SIGNED_OUT_HTML);
    await page.advance(0);
    expect(page.recoverableErrors).toEqual([]);
    expect(document.activeElement?.textContent).toBe("You're signed out.");
    page.cleanup();

    // Another load of the page says nothing; nor does a word that no longer holds (signed out
    // again in another tab before this page loaded).
    await open(ACCOUNT_SIGNED_OUT_HTML);
    await page.advance(0);
    expect(document.querySelector('.sf-account-notice')).toBeNull();
    page.cleanup();
    sessionStorage.setItem('sf.accountNotice', 'signed-in');
    await open(ACCOUNT_SIGNED_OUT_HTML);
    await page.advance(0);
    expect(document.querySelector('.sf-account-notice')).toBeNull();
    expect(sessionStorage.getItem('sf.accountNotice')).toBeNull();
  });
});

// A member's forgotten password (designed here): the steps follow the address's fragment.
describe('password reset steps', () => {
  afterEach(() => history.replaceState(null, '', location.pathname));
  const submit = async (selector: string) => {
    await page.act(() => document.querySelector<HTMLFormElement>(selector)!.requestSubmit());
    await page.advance(0);
  };

  test('"Forgot your password?" asks for the email, sends nothing empty, then says the neutral answer', async () => {
    await open(ACCOUNT_SIGNED_OUT_HTML);
    const link = document.querySelector<HTMLAnchorElement>('.sf-login-forgot a')!;
    expect(link.textContent).toBe('Forgot your password?');
    expect(link.getAttribute('href')).toBe('#forgot-password');
    await page.act(() => {
      history.replaceState(null, '', '#forgot-password');
      window.dispatchEvent(new Event('hashchange'));
    });
    const form = document.querySelector('form.sf-forgot')!;
    expect(document.activeElement!.textContent).toBe('Reset your password');
    await submit('form.sf-forgot');
    const email = form.querySelector<HTMLInputElement>('input[name="email"]')!;
    expect(document.getElementById(email.getAttribute('aria-describedby')!)!.textContent).toBe('Required');
    // Focus (on the button pressed) moved to the field, which reads its error: no alert says it again.
    expect(document.activeElement).toBe(email);
    expect(document.getElementById(email.getAttribute('aria-describedby')!)!.hasAttribute('role')).toBe(false);
    expect(document.querySelector('body > .sf-announcer')!.textContent).toBe('');
    // Enter pressed in the field (focus stays): the status region says it.
    await submit('form.sf-forgot');
    expect(document.querySelector('body > .sf-announcer')!.textContent).toBe('Required');
    expect(page.fetch.callsTo('/api/site-users/account/password-reset')).toHaveLength(0);
    const neutral = "If an account uses that address, we've emailed a link to reset its password.";
    page.fetch.on('POST', '/api/site-users/account/password-reset', { json: { success: true, message: neutral } });
    await page.act(() => typeInto(email, 'a@b.co'));
    await submit('form.sf-forgot');
    expect(page.fetch.callsTo('/api/site-users/account/password-reset', 'POST').map((c) => c.json)).toEqual([{ email: 'a@b.co' }]);
    expect(document.querySelector('[role="status"]')!.textContent).toBe(neutral);
  });

  test('a refused request (429) says how long to wait, from the answer, at the email field', async () => {
    await open(ACCOUNT_SIGNED_OUT_HTML);
    await page.act(() => {
      history.replaceState(null, '', '#forgot-password');
      window.dispatchEvent(new Event('hashchange'));
    });
    const email = document.querySelector<HTMLInputElement>('form.sf-forgot input[name="email"]')!;
    const wait = 'Too many password reset requests. Please try again in 42 minutes.';
    page.fetch.on('POST', '/api/site-users/account/password-reset', { status: 429, json: { error: 'Too many requests.', code: 'RATE_LIMITED', errors: { email: wait } } });
    await page.act(() => typeInto(email, 'a@b.co'));
    await submit('form.sf-forgot');
    // It read A0.2's generic "Please try again in a few seconds." for a wait of up to an hour.
    expect(document.getElementById(email.getAttribute('aria-describedby')!)!.textContent).toBe(wait);
    expect(document.activeElement).toBe(email);
  });

  test('a used link says so as it opens and offers a new one', async () => {
    history.replaceState(null, '', '#reset-password=tok-1');
    page = createPage({ body: ACCOUNT_SIGNED_OUT_HTML, context: {}, cookies: {} });
    page.fetch.on('POST', '/api/site-users/account/password-reset/check', {
      status: 400,
      json: { error: 'This reset link was already used. Ask for a new one.', code: 'RESET_LINK_USED' },
    });
    await page.boot();
    await page.advance(0);
    expect(page.fetch.callsTo('/api/site-users/account/password-reset/check').map((c) => c.json)).toEqual([{ token: 'tok-1' }]);
    expect(document.querySelector('[role="alert"]')!.textContent).toBe('This reset link was already used. Ask for a new one.');
    expect(document.querySelector<HTMLAnchorElement>('.sf-login-back a')!.getAttribute('href')).toBe('#forgot-password');
  });

  test('a new password shorter than the rule is said and not sent; a good one is set and the visitor is asked to sign in', async () => {
    history.replaceState(null, '', '#reset-password=tok-2');
    page = createPage({ body: ACCOUNT_SIGNED_OUT_HTML, context: {}, cookies: {} });
    page.fetch.on('POST', '/api/site-users/account/password-reset/check', { json: { valid: true } });
    page.fetch.on('POST', '/api/site-users/account/password', { json: { success: true } });
    await page.boot();
    await page.advance(0);
    const input = document.querySelector<HTMLInputElement>('form.sf-reset input[name="password"]')!;
    expect(document.getElementById('sf-reset-password-rule')!.textContent).toBe('At least 8 characters.');
    await page.act(() => typeInto(input, 'short'));
    await submit('form.sf-reset');
    expect(document.querySelector('#sf-reset-password-error')!.textContent).toBe('Choose a password of at least 8 characters.');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(page.fetch.callsTo('/api/site-users/account/password', 'POST').filter((c) => !c.path.includes('reset'))).toHaveLength(0);
    await page.act(() => typeInto(input, 'long enough'));
    await submit('form.sf-reset');
    expect(page.fetch.callsTo('/api/site-users/account/password', 'POST').filter((c) => !c.path.includes('reset')).map((c) => c.json)).toEqual([
      { token: 'tok-2', password: 'long enough' },
    ]);
    await page.advance(0);
    expect(document.querySelector('.sf-reset-done')!.textContent).toBe('Password changed. Sign in with your new password.');
    expect(location.hash).toBe('');
    expect(document.querySelector<HTMLAnchorElement>('.sf-login-back a')!.textContent).toBe('Sign in');
  });
});
