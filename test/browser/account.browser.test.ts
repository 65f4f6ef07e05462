// The visitor's account journeys in Debian's Chromium against the demo store: signing out in
// one tab while another shows the members' page, and what each tab then says; the whole walk by
// keyboard (ACCT-10): sign in from the header, a wrong password, the orders, sign out.
import type { Page } from 'playwright-core';
import { describe, expect, inject, test } from 'vitest';
import { hashPassword } from '../../renderer/store/password.ts';
import { axeViolations } from './support/axe.ts';
import { useBrowserTier } from './support/tier.ts';
import { fillCheckout, holdIslands, settle, teeToCheckout, visit, waitForBoot } from './support/visit.ts';

const chromiumPath = inject('chromiumPath');
const MEMBERS = '/members';

async function signIn(page: Page): Promise<void> {
  const login = page.locator('[data-island="account"] form.sf-login');
  await login.locator('input[name="email"]').fill('demo@example.com');
  await login.locator('input[name="password"]').fill('demo-password');
  await Promise.all([page.waitForNavigation(), login.locator('button[type="submit"]').click()]);
  await waitForBoot(page);
}

/** The focused control as a keyboard user meets it: its name, role-ish tag, and whether it shows a ring. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body || el === document.documentElement) return { tag: 'body', name: '', ring: false, id: '', describedBy: '', invalid: null as string | null };
    const label = (el as HTMLInputElement).labels?.[0]?.textContent ?? '';
    const s = getComputedStyle(el);
    return {
      tag: el.tagName.toLowerCase(),
      name: (el.getAttribute('aria-label') || label || el.textContent || '').replace(/\s+/g, ' ').trim(),
      ring: (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0) || s.boxShadow !== 'none',
      id: el.id,
      describedBy: (el.getAttribute('aria-describedby') ?? '').split(/\s+/).map((id) => document.getElementById(id)?.textContent ?? '').join(' ').trim(),
      invalid: el.getAttribute('aria-invalid'),
    };
  });

/** Tab until the focused control is named `name`; every control on the way is never <body> and shows a ring. */
async function tabTo(page: Page, name: RegExp, limit = 40): Promise<void> {
  const passed: string[] = [];
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    const now = await focused(page);
    expect(now.tag, `Tab ${i + 1} after ${passed.join(' | ')}`).not.toBe('body');
    expect(now.ring, `the focus ring of "${now.name}"`).toBe(true);
    passed.push(now.name);
    if (name.test(now.name)) return;
  }
  throw new Error(`no control named ${name} within ${limit} Tabs: ${passed.join(' | ')}`);
}

// Headless Chromium moves no window focus between tabs of one context, so the test says what a
// visitor's switch of tabs tells the page: the window lost focus, then got it back.
const leaveTab = (page: Page) => page.evaluate(() => void window.dispatchEvent(new Event('blur')));
const comeBackToTab = (page: Page) => page.evaluate(() => void window.dispatchEvent(new Event('focus')));

describe.skipIf(!chromiumPath)(`account journeys in Chromium${chromiumPath ? '' : ` (skipped: ${inject('browserSkipReason')})`}`, () => {
  const tier = useBrowserTier(chromiumPath!);

  test('ACCT-1 signed out in another tab, the members page no longer says signed in once the visitor comes back to it', async () => {
    const v = await tier.newVisitor();
    // The members page answers 403 to a visitor (its sign-in form); Chromium logs that.
    v.allowConsoleError(/status of 403/);
    expect(await visit(v.page, MEMBERS)).toBe(403);
    await signIn(v.page);
    expect(await v.page.locator('.sf-logout').textContent()).toBe('Sign Out');
    expect(await v.page.locator('.demo-account-link').textContent()).toBe('demo');
    await leaveTab(v.page);

    const other = await v.context.newPage();
    expect(await visit(other, '/shop')).toBe(200);
    await Promise.all([other.waitForNavigation(), other.locator('.demo-account-link').click()]);
    await waitForBoot(other);
    await Promise.all([other.waitForNavigation(), other.locator('.sf-logout').click()]);
    await waitForBoot(other);
    expect(await other.locator('.demo-account-link').textContent()).toBe('Sign In');
    await other.close();

    const [reloaded] = await Promise.all([v.page.waitForNavigation(), comeBackToTab(v.page)]);
    expect(reloaded?.status()).toBe(403);
    await waitForBoot(v.page);
    expect(await v.page.locator('.sf-logout').count()).toBe(0);
    expect(await v.page.locator('form.sf-login').isVisible()).toBe(true);
    expect(await v.page.locator('.demo-account-link').textContent()).toBe('Sign In');
    await v.screenshot('acct-1-signed-out-elsewhere');
  });

  test('ACCT-2 what the visitor typed stays: a contact message half written when another tab signs in is not reloaded away', async () => {
    const v = await tier.newVisitor();
    v.allowConsoleError(/status of 403/);
    expect(await visit(v.page, '/contact')).toBe(200);
    const message = v.page.locator('textarea').first();
    await message.fill('Half a message about my order');
    await leaveTab(v.page);

    const other = await v.context.newPage();
    expect(await visit(other, MEMBERS)).toBe(403);
    await signIn(other);
    await other.close();

    // A mark on this document: a reload (which the focus handler would start at once) makes a
    // new document without it, so the page staying is checked by the mark, never by a wait.
    await v.page.evaluate(() => void ((window as unknown as { stayed: boolean }).stayed = true));
    await comeBackToTab(v.page);
    await settle(v.page);
    expect(await v.page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
    expect(await message.inputValue()).toBe('Half a message about my order');
    // The header still says how the page was served; a reload once the message is sent says the rest.
  });

  test('ACCT-3 Sign In pressed before its island is ready sends nothing and keeps the email typed, nothing in the URL; once ready it signs in', async () => {
    const v = await tier.newVisitor();
    v.allowConsoleError(/status of 403/);
    const { release, navigations } = await holdIslands(v.page);
    await v.page.goto(MEMBERS, { waitUntil: 'commit' });
    const login = v.page.locator('[data-island="account"] form.sf-login');
    const email = login.locator('input[name="email"]');
    const password = login.locator('input[name="password"]');
    const button = login.locator('button[type="submit"]');
    await button.waitFor();
    expect(await button.isDisabled()).toBe(true);
    await email.fill('demo@example.com');
    await password.fill('demo-password');
    const entries = await v.page.evaluate(() => history.length);
    // Enter in the password field is the implicit submission a disabled default button stops.
    await password.press('Enter');
    await v.screenshot('acct-3-early-press');

    release();
    await waitForBoot(v.page);
    // Before, the press went as a GET to /members?email=…&password=…, sent on to /members with
    // the fields gone: a second entry, the email to type again, and no word of why.
    expect(navigations).toEqual([v.page.url()]);
    expect(new URL(v.page.url()).search).toBe('');
    expect(await v.page.evaluate(() => history.length)).toBe(entries);
    expect(await email.inputValue()).toBe('demo@example.com');
    expect(await button.isEnabled()).toBe(true);
    await Promise.all([v.page.waitForNavigation(), button.click()]);
    await waitForBoot(v.page);
    expect(await v.page.locator('.sf-logout').textContent()).toBe('Sign Out');
  });

  test('ACCT-4 Sign Out without a connection says the visitor is still signed in, keeps the focus on Sign Out, and works once the connection is back', async () => {
    const v = await tier.newVisitor();
    v.allowConsoleError(/status of 403/);
    v.allowConsoleError(/net::ERR_FAILED|ERR_INTERNET_DISCONNECTED/);
    expect(await visit(v.page, MEMBERS)).toBe(403);
    await signIn(v.page);
    const signOut = v.page.locator('.sf-logout');
    // The connection drops for the sign-out call only (the page around it stays served).
    await v.page.route('**/api/site-users/account/session*', (route) => route.abort('internetdisconnected'));
    const navigations: string[] = [];
    v.page.on('framenavigated', (frame) => frame === v.page.mainFrame() && navigations.push(frame.url()));
    await signOut.focus();
    await v.page.keyboard.press('Enter');
    const alert = v.page.getByRole('alertdialog', { name: 'Not Signed Out' });
    await alert.waitFor();
    expect(await alert.locator('.sf-alert-message').textContent()).toBe('You are still signed in. Please check your internet connection.');
    await v.screenshot('acct-4-not-signed-out');
    await v.page.keyboard.press('Enter');
    await alert.waitFor({ state: 'detached' });
    // Before, the page reloaded at once and was drawn signed in again, without a word.
    expect(navigations).toEqual([]);
    expect(await signOut.evaluate((e) => e === document.activeElement)).toBe(true);

    await v.page.unroute('**/api/site-users/account/session*');
    await Promise.all([v.page.waitForNavigation(), v.page.keyboard.press('Enter')]);
    await waitForBoot(v.page);
    expect(await v.page.locator('form.sf-login').isVisible()).toBe(true);
    expect(await v.page.locator('.demo-account-link').textContent()).toBe('Sign In');
  });

  test('ACCT-5 signed out in another tab mid-checkout: Place order says so and what to do, the form keeps what was typed, no order', async () => {
    const v = await tier.newVisitor();
    v.allowConsoleError(/status of 403/);
    v.allowConsoleError(/status of 401/);
    expect(await visit(v.page, MEMBERS)).toBe(403);
    await signIn(v.page);
    await teeToCheckout(v.page, 'S');
    const ordersBefore = (await tier.server.store.read.orders.list((await tier.server.store.read.getSite())!.websiteId, null, 100)).length;
    const page = v.page;
    await fillCheckout(page, '4242 4242 4242 4242');
    await leaveTab(v.page);

    const other = await v.context.newPage();
    expect(await visit(other, MEMBERS)).toBe(200);
    await Promise.all([other.waitForNavigation(), other.locator('.sf-logout').click()]);
    await other.close();
    await comeBackToTab(v.page);

    await v.page.getByRole('button', { name: 'Place order' }).click();
    // Before: "This cart cannot be checked out.", and nothing said why.
    await v.page.getByText('You are signed out. Sign in again to check out this cart.').first().waitFor();
    expect(await v.page.getByLabel('Email').inputValue()).toBe('ada@example.com');
    expect(await v.page.getByLabel('First name').inputValue()).toBe('Ada');
    await v.screenshot('acct-5-checkout-signed-out');
    const site = (await tier.server.store.read.getSite())!;
    expect((await tier.server.store.read.orders.list(site.websiteId, null, 100)).length).toBe(ordersBefore);
  });

  test('ACCT-6 a checkout tab left untouched while the visitor signs out in another comes back as the cart page with the copy of the cart, never "page not found"', async () => {
    const v = await tier.newVisitor();
    v.allowConsoleError(/status of 403/);
    expect(await visit(v.page, MEMBERS)).toBe(403);
    await signIn(v.page);
    await teeToCheckout(v.page, 'M');
    await leaveTab(v.page);

    const other = await v.context.newPage();
    expect(await visit(other, MEMBERS)).toBe(200);
    await Promise.all([other.waitForNavigation(), other.locator('.sf-logout').click()]);
    await other.close();

    // Before, this reload (or any) drew "We couldn't find that page" (404) for the visitor's own checkout.
    const [landed] = await Promise.all([v.page.waitForNavigation(), comeBackToTab(v.page)]);
    expect(landed?.status()).toBe(200);
    await waitForBoot(v.page);
    expect(new URL(v.page.url()).pathname).toBe('/cart');
    expect(await v.page.locator('.demo-account-link').textContent()).toBe('Sign In');
    expect(await v.page.locator('main').textContent()).toContain('Classic Tee');
    await v.screenshot('acct-6-checkout-to-cart');
  });

  test("ACCT-7 a signed-in buyer's order is listed under 'Your orders' on the order status page, and its link opens it without the email", async () => {
    const v = await tier.newVisitor();
    v.allowConsoleError(/status of 403/);
    expect(await visit(v.page, MEMBERS)).toBe(403);
    await signIn(v.page);
    await teeToCheckout(v.page, 'S');
    const page = v.page;
    await fillCheckout(page, '4242 4242 4242 4242');
    await Promise.all([page.waitForURL(/\/commerce\/orders\/[^/]+\/confirmed$/), page.getByRole('button', { name: 'Place order' }).click()]);
    await waitForBoot(page);
    const heading = page.getByText(/Order #\d+/).first();
    await heading.waitFor();
    const number = Number(/Order #(\d+)/.exec((await heading.textContent()) ?? '')![1]);

    expect(await visit(page, '/commerce/orders/status')).toBe(200);
    const mine = page.getByRole('region', { name: 'Your orders' });
    const row = mine.getByRole('row').filter({ has: page.getByRole('link', { name: `#${number}` }) });
    await row.waitFor();
    expect(await row.getByRole('cell').allTextContents()).toEqual([`#${number}`, expect.stringMatching(/^[A-Z][a-z]+ \d{1,2}, \d{4}$/), 'Paid', expect.stringMatching(/^\$\d+\.\d\d$/)]);
    // The look-up form is still there, below the list.
    expect(await page.getByRole('button', { name: 'Look up order' }).isVisible()).toBe(true);
    expect(await axeViolations(page, undefined, { everyImpact: true })).toEqual([]);
    await v.screenshot('acct-7-your-orders');

    await Promise.all([page.waitForURL(new RegExp(`/commerce/orders/status\\?order=${number}$`)), row.getByRole('link', { name: `#${number}` }).click()]);
    await waitForBoot(page);
    expect(await page.locator('.sf-order-number').textContent()).toBe(`Order #${number}`);
    expect(await page.locator('.sf-order-status-state').textContent()).toBe('Status: Paid');
    expect(await page.locator('.sf-order-line').first().textContent()).toContain('Classic Tee');
    expect(await axeViolations(page, undefined, { everyImpact: true })).toEqual([]);

    // Signed out, the same link is the look-up form as ever: the order needs its number and email.
    expect(await visit(page, MEMBERS)).toBe(200);
    await Promise.all([page.waitForNavigation(), page.locator('.sf-logout').click()]);
    await waitForBoot(page);
    expect(await visit(page, `/commerce/orders/status?order=${number}`)).toBe(200);
    expect(await page.locator('.sf-order-number').count()).toBe(0);
    expect(await page.locator('.sf-my-orders').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Look up order' }).isVisible()).toBe(true);
  });

  test('ACCT-8 a member who forgot their password asks for a link, gets it by mail, chooses a new password and signs in with it; the old one no longer works', async () => {
    // A member of their own, so the demo account the other journeys sign in with keeps its password.
    const email = 'forgetful@example.com';
    await tier.server.store.read.putUser({ id: 'u-forgetful', email, passwordHash: await hashPassword('old-password-1'), locale: null });
    const v = await tier.newVisitor();
    v.allowConsoleError(/status of 403/);
    v.allowConsoleError(/status of 401/);
    v.allowConsoleError(/status of 400/);
    const page = v.page;
    expect(await visit(page, MEMBERS)).toBe(403);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    const forgot = page.locator('form.sf-forgot');
    await forgot.waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Reset your password');
    expect(await axeViolations(page, undefined, { everyImpact: true })).toEqual([]);
    await forgot.getByLabel('Email').fill(email);
    const outboxBefore = (await tier.server.store.read.listOutbox()).length;
    await forgot.getByRole('button', { name: 'Email Me a Link' }).click();
    const neutral = "If an account uses that address, we've emailed a link to reset its password.";
    await page.getByRole('status').filter({ hasText: neutral }).waitFor();
    await v.screenshot('acct-8-forgot-sent');

    // The mail is queued after the answer (api/after-response.ts: its timing says nothing of an account).
    const resetMails = async () => (await tier.server.store.read.listOutbox()).slice(outboxBefore);
    await expect.poll(async () => (await resetMails()).map((m) => [m.to, m.subject])).toEqual([[email, 'Reset your password']]);
    const mails = await resetMails();
    const link = new URL(/https?:\/\/\S+#reset-password=\S+/.exec(mails[0]!.body)![0]);
    expect(link.pathname).toBe('/account/reset-password');

    // The mail's link opens the members' page (its sign-in form), on the new password step.
    expect(await visit(page, link.pathname + link.hash)).toBe(403);
    expect(new URL(page.url()).pathname).toBe(MEMBERS);
    const reset = page.locator('form.sf-reset');
    await reset.waitFor();
    expect(await reset.textContent()).toContain('At least 8 characters.');
    expect(await axeViolations(page, undefined, { everyImpact: true })).toEqual([]);
    await reset.getByLabel('New password').fill('short');
    await reset.getByRole('button', { name: 'Set New Password' }).click();
    await reset.getByText('Choose a password of at least 8 characters.').waitFor();
    await reset.getByLabel('New password').fill('new-password-2');
    await reset.getByRole('button', { name: 'Set New Password' }).click();
    await page.getByText('Password changed. Sign in with your new password.').waitFor();
    // The spent token leaves the address bar.
    expect(new URL(page.url()).hash).toBe('');
    expect(await axeViolations(page, undefined, { everyImpact: true })).toEqual([]);
    await v.screenshot('acct-8-password-changed');

    // The same link again says it was used, and offers a new one.
    expect(await visit(page, link.pathname + link.hash)).toBe(403);
    await page.getByText('This reset link was already used. Ask for a new one.').waitFor();
    expect(await page.getByRole('link', { name: 'Ask for a new link' }).isVisible()).toBe(true);
    expect(await axeViolations(page, undefined, { everyImpact: true })).toEqual([]);

    expect(await visit(page, MEMBERS)).toBe(403);
    const login = page.locator('[data-island="account"] form.sf-login');
    await login.locator('input[name="email"]').fill(email);
    await login.locator('input[name="password"]').fill('old-password-1');
    await login.locator('button[type="submit"]').click();
    await page.locator('.sf-login-error').filter({ hasText: 'Invalid email or password.' }).waitFor();
    await login.locator('input[name="password"]').fill('new-password-2');
    await Promise.all([page.waitForNavigation(), login.locator('button[type="submit"]').click()]);
    await waitForBoot(page);
    expect(await page.locator('.sf-logout').textContent()).toBe('Sign Out');
  });

  test('ACCT-9 past the reset request limit the forgot form says how long to wait (the answer\'s Retry-After in minutes), at the email field, focused', async () => {
    const v = await tier.newVisitor();
    v.allowConsoleError(/status of 403/);
    v.allowConsoleError(/status of 429/);
    const page = v.page;
    expect(await visit(page, `${MEMBERS}#forgot-password`)).toBe(403);
    const forgot = page.locator('form.sf-forgot');
    await forgot.waitFor();
    // Five requests an hour per address: used up with direct calls from the same visitor.
    const email = 'impatient@example.com';
    const crumb = (await v.context.cookies()).find((c) => c.name === 'crumb')!.value;
    for (let i = 0; i < 5; i++) {
      const answer = await page.request.post('/api/site-users/account/password-reset', { headers: { 'x-csrf-token': crumb }, data: { email } });
      expect(answer.status()).toBe(200);
    }
    await forgot.getByLabel('Email').fill(email);
    const [refused] = await Promise.all([
      page.waitForResponse((r) => new URL(r.url()).pathname === '/api/site-users/account/password-reset'),
      forgot.getByRole('button', { name: 'Email Me a Link' }).click(),
    ]);
    expect(refused.status()).toBe(429);
    const minutes = Math.ceil(Number(refused.headers()['retry-after']) / 60);
    expect(minutes).toBeGreaterThanOrEqual(59);
    // It read A0.2's "Please try again in a few seconds." for a wait of an hour.
    const said = `Too many password reset requests. Please try again in ${minutes} minutes.`;
    const field = forgot.getByLabel('Email');
    await expect.poll(() => field.evaluate((input) => document.getElementById(input.getAttribute('aria-describedby') ?? '')?.textContent)).toBe(said);
    expect(await field.evaluate((input) => input === document.activeElement)).toBe(true);
    expect(await axeViolations(page, undefined, { everyImpact: true })).toEqual([]);
    await v.screenshot('acct-9-forgot-limited');
  });

  test('ACCT-10 by keyboard only: the header\'s Sign In, a wrong password said at the password field (never echoed), signed in and told so, Your orders, Sign Out and told so', async () => {
    const v = await tier.newVisitor();
    v.allowConsoleError(/status of 403/);
    v.allowConsoleError(/status of 401/);
    const page = v.page;
    const { keyboard } = page;
    await page.setViewportSize({ width: 1280, height: 800 });
    const wrong = 'not-the-Passw0rd';

    // From the home page, Tab to the header's Sign In; Enter opens the members' sign-in.
    expect(await visit(page, '/')).toBe(200);
    await tabTo(page, /^Sign In$/);
    await Promise.all([page.waitForURL(/\/members$/), keyboard.press('Enter')]);
    await waitForBoot(page);
    expect(await axeViolations(page, undefined, { everyImpact: true })).toEqual([]);

    // The fields by their labels, typed; Enter in the password sends the form.
    await tabTo(page, /^Email$/);
    await keyboard.type('demo@example.com');
    await keyboard.press('Tab');
    expect((await focused(page)).name).toBe('Password');
    await keyboard.type(wrong);
    const [refused] = await Promise.all([page.waitForResponse((r) => new URL(r.url()).pathname === '/api/site-users/account/session'), keyboard.press('Enter')]);
    expect(refused.status()).toBe(401);
    const error = page.locator('.sf-login-error');
    await expect.poll(() => error.textContent()).toBe('Invalid email or password.');
    // Enter was pressed in the password, where focus stays: the status region says the error,
    // once (no alert as well, which said it twice when focus moved there from Sign In).
    expect(await error.getAttribute('role')).toBeNull();
    await expect.poll(() => page.locator('body > .sf-announcer').textContent()).toBe('Invalid email or password.');
    // Focus at the password, marked and described by the error (a screen reader reads it there), its text selected.
    await expect.poll(() => focused(page)).toMatchObject({ id: 'sf-login-password', invalid: 'true', describedBy: 'Invalid email or password.', ring: true });
    expect(await page.locator('#sf-login-email').getAttribute('aria-invalid')).toBe('true');
    expect(await page.evaluate(() => { const p = document.activeElement as HTMLInputElement; return [p.selectionStart, p.selectionEnd, p.value.length]; })).toEqual([0, wrong.length, wrong.length]);
    // The password is said nowhere: not in the answer, the page's text or attributes, or the address.
    expect(await refused.text()).not.toContain(wrong);
    expect(await page.evaluate((w) => document.documentElement.outerHTML.includes(w) || document.body.innerText.includes(w), wrong)).toBe(false);
    expect(page.url()).not.toContain(wrong);
    expect(await axeViolations(page, undefined, { everyImpact: true })).toEqual([]);
    await v.screenshot('acct-10-wrong-password');

    // Typed again over the selection and sent with Enter: the reloaded page says so, focused.
    await keyboard.type('demo-password');
    await Promise.all([page.waitForNavigation(), keyboard.press('Enter')]);
    await waitForBoot(page);
    const notice = page.getByRole('status').filter({ hasText: "You're signed in." });
    await expect.poll(() => focused(page)).toMatchObject({ name: "You're signed in.", ring: true });
    expect(await notice.count()).toBe(1);
    expect(await page.locator('.demo-account-link').getAttribute('aria-label')).toBe('Account: demo');
    expect(await axeViolations(page, undefined, { everyImpact: true })).toEqual([]);
    await v.screenshot('acct-10-signed-in');

    // The next Tab is the member's order history.
    await tabTo(page, /^Your orders$/, 1);
    await Promise.all([page.waitForURL(/\/commerce\/orders\/status$/), keyboard.press('Enter')]);
    await waitForBoot(page);
    expect(await page.getByRole('region', { name: 'Your orders' }).isVisible()).toBe(true);
    expect(await axeViolations(page, undefined, { everyImpact: true })).toEqual([]);

    // Back to the account by the header's link, and Sign Out by Enter: the page says so, focused.
    await tabTo(page, /^Account: demo$/);
    await Promise.all([page.waitForURL(/\/members$/), keyboard.press('Enter')]);
    await waitForBoot(page);
    await tabTo(page, /^Sign Out$/);
    await Promise.all([page.waitForNavigation(), keyboard.press('Enter')]);
    await waitForBoot(page);
    await expect.poll(() => focused(page)).toMatchObject({ name: "You're signed out.", ring: true });
    expect(await page.locator('.demo-account-link').textContent()).toBe('Sign In');
    expect(await page.locator('form.sf-login').isVisible()).toBe(true);
    // Said once: the next load of the page is quiet.
    expect(await visit(page, MEMBERS)).toBe(403);
    expect(await page.locator('.sf-account-notice').count()).toBe(0);
    expect(await axeViolations(page, undefined, { everyImpact: true })).toEqual([]);
    await v.screenshot('acct-10-signed-out');
  });
});
