// [browser] checks of the site form and newsletter (STOREFRONT A7) in Chromium against the
// real server: the status-specific messages of the A7 response table, each produced by the
// server itself. Where a status cannot be reached by typing (a used key, a missing crumb, a
// field the client already validates), the test alters the request on its way out with
// page.route and lets the real server answer it.
import type { Page } from 'playwright-core';
import { describe, expect, inject, test } from 'vitest';
import { launchChromium, openVisitor, type VisitorPage } from './support/chromium.ts';
import { useBrowserTier } from './support/tier.ts';
import { holdIslands, visit, waitForBoot } from './support/visit.ts';

const chromiumPath = inject('chromiumPath');
const CONTACT_PAGE = '/contact';
const SAVE = '/api/form/SaveFormSubmission';

describe.skipIf(!chromiumPath)(`site forms in Chromium${chromiumPath ? '' : ` (skipped: ${inject('browserSkipReason')})`}`, () => {
  const tier = useBrowserTier(chromiumPath!);

  async function newVisitor(): Promise<VisitorPage> {
    const visitor = await tier.newVisitor();
    await visit(visitor.page, CONTACT_PAGE);
    return visitor;
  }

  const contact = (page: Page) => page.locator('form[data-island="site-form"][data-form-id="contact"]');
  const newsletter = (page: Page) => page.locator('form[data-island="site-form"][data-newsletter="true"]');
  const bottom = (form: ReturnType<Page['locator']>) => form.locator('.sf-form-message-bottom');

  async function subscribe(page: Page, email: string): Promise<void> {
    const form = newsletter(page);
    await form.locator('input[type="email"]').fill(email);
    await form.locator('.sf-form-submit').click();
  }

  /** Waits until the submit button is usable again, i.e. the response has been handled. */
  async function settled(form: ReturnType<Page['locator']>): Promise<void> {
    await expect.poll(() => form.locator('.sf-form-submit').isEnabled()).toBe(true);
  }

  test('SF-21 the contact form: field errors on an empty submit, then a filled, captcha-checked submit shows the submission text and is stored', async () => {
    const v = await newVisitor();
    const form = contact(v.page);
    await form.locator('.sf-form-submit').click();
    await expect.poll(() => form.locator('.sf-form-message-top').textContent()).toBe('Your form has encountered a problem. Please scroll down to review.');
    // Two fields are wrong: the alert also says so, unseen (form-errors.browser.test.ts).
    expect(await bottom(form).textContent()).toBe('Your form has encountered a problem. Please scroll up to review. 2 fields need attention.');
    expect(await form.locator('[data-field-id="contact-name"] .field-error').textContent()).toBe('Required');
    expect(await form.locator('[data-field-id="contact-email"] .field-error').textContent()).toBe(
      'Email is not valid. Email addresses should follow the format user@domain.com.',
    );
    await v.screenshot('site-form-1-required');

    const name = form.locator('[data-field-id="contact-name"] input');
    await name.nth(0).fill('Ada');
    await name.nth(1).fill('Lovelace');
    await form.locator('[data-field-id="contact-email"] input').fill('ada@example.com');
    await form.locator('[data-field-id="contact-message"] textarea').fill('Do you ship to Lisbon?');
    await form.locator('.sf-form-submit').click();
    await expect.poll(() => bottom(form).textContent()).toBe('Complete CAPTCHA before submitting.');
    await form.locator('.captcha-container input.sf-captcha-local').check();
    await form.locator('.sf-form-submit').click();
    const submission = form.locator('.sf-form-submission');
    await submission.waitFor({ state: 'visible' });
    expect(await submission.innerText()).toContain('Thanks, we will be in touch.');
    expect(await form.locator('.sf-form-submit').isVisible()).toBe(false);
    await v.screenshot('site-form-2-submitted');

    const saved = (await tier.server.store.read.listSubmissions()).filter((s) => s.formId === 'contact');
    expect(saved).toHaveLength(1);
    expect(JSON.stringify(saved[0])).toContain('ada@example.com');
    expect(JSON.stringify(saved[0])).toContain('Do you ship to Lisbon?');
  });

  test('the message limit counts what the visitor reads: over it is said while typing; 2000 with emoji and a trailing newline fits, and the server takes it', async () => {
    const v = await newVisitor();
    const form = contact(v.page);
    const message = form.locator('[data-field-id="contact-message"] textarea');
    const counter = form.locator('[data-field-id="contact-message"] .sf-char-counter');
    const error = form.locator('[data-field-id="contact-message"] .field-error');
    // 2001 characters as read (1999 letters, 2 emoji of 2 UTF-16 units each): over, before any submit.
    await message.fill(`${'x'.repeat(1999)}😀😀`);
    await expect.poll(() => error.textContent()).toBe('You have exceeded the character limit.');
    expect(await counter.textContent()).toBe('2001/2000');
    expect(await message.getAttribute('aria-invalid')).toBe('true');
    await v.screenshot('site-form-limit-1-over-while-typing');
    // 2000 as read (4002 UTF-16 units with the newlines): fits, the error goes.
    await message.fill(`${'x'.repeat(1998)}😀😀\n\n`);
    await expect.poll(() => error.count()).toBe(0);
    expect(await counter.textContent()).toBe('2000/2000');
    const name = form.locator('[data-field-id="contact-name"] input');
    await name.nth(0).fill('Ada');
    await name.nth(1).fill('Lovelace');
    await form.locator('[data-field-id="contact-email"] input').fill('ada@example.com');
    await form.locator('.captcha-container input.sf-captcha-local').check();
    await form.locator('.sf-form-submit').click();
    await form.locator('.sf-form-submission').waitFor({ state: 'visible' });
    const saved = (await tier.server.store.read.listSubmissions()).filter((s) => s.formId === 'contact');
    expect(JSON.stringify(saved.at(-1)!.values)).toContain('😀😀');
    await v.screenshot('site-form-limit-2-sent');
  });

  test('a form pressed before its island is ready sends nothing and keeps what was typed, none of it in the URL; once ready it is sent', async () => {
    const v = await tier.newVisitor();
    // The islands' script is held back: the page is there, its forms not yet taken by the islands.
    const { release, navigations } = await holdIslands(v.page);
    await v.page.goto(CONTACT_PAGE, { waitUntil: 'commit' });
    const form = newsletter(v.page);
    const email = form.locator('input[type="email"]');
    const button = form.locator('.sf-form-submit');
    await email.waitFor();
    expect(await form.getAttribute('data-hydrated')).toBeNull();
    expect(await button.isDisabled()).toBe(true);
    await email.fill('early.bird@example.com');
    const entries = await v.page.evaluate(() => history.length);
    // Enter in the field is the implicit submission a disabled default button stops.
    await email.press('Enter');
    // A script this late gets a word: the disabled button is explained, a reload offered.
    const late = v.page.locator('.demo-script-late');
    await expect.poll(() => late.isVisible()).toBe(true);
    await v.screenshot('site-form-early-1-waiting');

    release();
    await waitForBoot(v.page);
    // Once the script has booted, the note is gone.
    expect(await late.isVisible()).toBe(false);
    // Before, the press went as a GET to the page: a second entry with the address in its URL.
    expect(navigations).toEqual([v.page.url()]);
    expect(new URL(v.page.url()).search).toBe('');
    expect(await v.page.evaluate(() => history.length)).toBe(entries);
    expect(await email.inputValue()).toBe('early.bird@example.com');
    expect(await button.isEnabled()).toBe(true);
    await button.click();
    await form.locator('.sf-form-submission').waitFor({ state: 'visible' });
    await v.screenshot('site-form-early-2-sent');
    const list = await tier.server.store.read.listMailingList();
    expect(list.map((entry) => entry.email)).toContain('early.bird@example.com');
  });

  test('the islands script lost: the page says its buttons have not loaded and offers a reload, on a form and on a product page', async () => {
    const v = await tier.newVisitor();
    v.allowConsoleError(/net::ERR_FAILED/);
    await v.page.route('**/assets/islands.js', (route) => route.abort());
    const late = v.page.locator('.demo-script-late');
    for (const path of [CONTACT_PAGE, '/shop/tee']) {
      await v.page.goto(path, { waitUntil: 'load' });
      // Before, nothing said why Submit stayed disabled or why there was no Add To Cart.
      await expect.poll(() => late.isVisible(), { message: path }).toBe(true);
      expect(await late.getAttribute('role')).toBe('status');
      expect(await late.textContent()).toContain("This page's buttons have not loaded yet");
      expect(await late.getByRole('link', { name: 'reload the page' }).getAttribute('href')).toBe('');
      const foot = await late.evaluate((el) => el.getBoundingClientRect().bottom);
      expect(foot).toBe(await v.page.evaluate(() => window.innerHeight));
      await v.screenshot(`site-form-script-lost-${path === CONTACT_PAGE ? 'form' : 'product'}`);
    }
    expect(await v.page.locator('.sqs-add-to-cart-button').first().evaluate((el) => getComputedStyle(el).visibility)).toBe('hidden');

    // With the script there, the note is never shown: its timer does not run once the page has booted.
    await v.page.unroute('**/assets/islands.js');
    await visit(v.page, CONTACT_PAGE);
    expect(await late.evaluate((el) => getComputedStyle(el).animationName)).toBe('none');
    expect(await late.isVisible()).toBe(false);
  });

  test("one island's script lost (its chunk fails, as after a deploy): the page says so at once; the form's button stays disabled", async () => {
    // A browser of its own: this scenario provokes the island_load error report on purpose, and
    // answers it itself so the store's end-of-file check stays about unprovoked errors.
    const browser = await launchChromium(chromiumPath!);
    try {
      const v = await openVisitor(browser, tier.server.url);
      v.allowConsoleError(/net::ERR_FAILED/);
      await v.page.route('**/assets/chunks/site-form-*.js', (route) => route.abort());
      await v.page.route('**/api/events/RecordJavascriptErrors', (route) => route.fulfill({ status: 204 }));
      await v.page.goto(CONTACT_PAGE, { waitUntil: 'load' });
      await v.page.waitForFunction(() => document.documentElement.classList.contains('sf-cart-ready'));
      const late = v.page.locator('.demo-script-late');
      // Before, the page had booted and nothing said why Submit never came alive.
      await expect.poll(() => late.isVisible()).toBe(true);
      expect(await v.page.evaluate(() => document.documentElement.classList.contains('sf-island-lost'))).toBe(true);
      expect(await contact(v.page).locator('.sf-form-submit').isDisabled()).toBe(true);
      await v.screenshot('site-form-island-lost');
      expect(v.problems().filter((p) => !p.startsWith('reported:'))).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  test("the captcha's checkbox keeps its own size, on one line with its text (the form's full-width inputs are text-like only)", async () => {
    const v = await newVisitor();
    const label = contact(v.page).locator('.captcha-container label');
    const box = await label.locator('input.sf-captcha-local').boundingBox();
    const text = await label.boundingBox();
    // Stretched to the form's width, the checkbox sat alone on a line with "I'm not a robot" below it.
    expect(box!.width).toBeLessThan(40);
    expect(text!.height).toBeLessThan(2 * box!.height + 16);
    await v.screenshot('site-form-captcha-line');
  });

  test('SF-13 and SF-18 a newsletter sign-up shows the submission text and joins the mailing list', async () => {
    const v = await newVisitor();
    await subscribe(v.page, 'reader@example.com');
    await newsletter(v.page).locator('.sf-form-submission').waitFor({ state: 'visible' });
    await v.screenshot('site-form-3-newsletter-done');
    const list = await tier.server.store.read.listMailingList();
    expect(list.map((m) => m.email)).toContain('reader@example.com');
  });

  test('SF-10 a 400 with field errors from the server puts them above the field, with the top message', async () => {
    const v = await newVisitor();
    // The client refuses an empty required email, so the test empties it on the wire.
    await v.page.route(`**${SAVE}`, async (route) => {
      const body = route.request().postDataJSON() as Record<string, unknown>;
      await route.continue({ postData: JSON.stringify({ ...body, form: JSON.stringify({ 'newsletter-email': '' }) }) });
    });
    v.allowConsoleError(/status of 400/);
    const form = newsletter(v.page);
    await subscribe(v.page, 'reader2@example.com');
    await expect.poll(() => form.locator('.sf-form-message-top').textContent()).toBe(
      'One or more fields is invalid, please check your entries.',
    );
    expect(await bottom(form).textContent()).toBe('Your form has encountered a problem. Please scroll up to review.');
    expect((await form.locator('[data-field-id="newsletter-email"] .field-error').textContent())?.length).toBeGreaterThan(0);
    await settled(form);
    await v.screenshot('site-form-4-server-field-error');
  });

  test('SF-9 a used submission key is a 401: Unable to submit form. Please try again later.', async () => {
    const v = await newVisitor();
    // Keys are single-use (B16) and spent once they pass the key check: spend the page's key
    // on a save for an unknown form (a 404 that does not count against the rate limit), then
    // let the page's own save arrive with it.
    await v.page.route(`**${SAVE}`, async (route) => {
      const body = route.request().postDataJSON() as Record<string, unknown>;
      const crumb = (await v.context.cookies()).find((c) => c.name === 'crumb')!.value;
      const spent = await v.page.request.post(SAVE, { headers: { 'x-csrf-token': crumb }, data: { ...body, formId: 'no-such-form' } });
      expect(spent.status()).toBe(404);
      await route.continue();
    });
    v.allowConsoleError(/status of 401/);
    const form = newsletter(v.page);
    await subscribe(v.page, 'reader3@example.com');
    await expect.poll(() => bottom(form).textContent()).toBe('Unable to submit form. Please try again later.');
    await settled(form);
    await v.screenshot('site-form-5-401');
  });

  test('SF-9 a form the server does not know is a 404: This form has not been configured yet.', async () => {
    const v = await newVisitor();
    await v.page.route(`**${SAVE}`, async (route) => {
      const body = route.request().postDataJSON() as Record<string, unknown>;
      await route.continue({ postData: JSON.stringify({ ...body, formId: 'no-such-form' }) });
    });
    v.allowConsoleError(/status of 404/);
    const form = newsletter(v.page);
    await subscribe(v.page, 'reader4@example.com');
    await expect.poll(() => bottom(form).textContent()).toBe('This form has not been configured yet.');
    await settled(form);
    await v.screenshot('site-form-6-404');
  });

  test('SF-11 a save without the crumb header is refused with crumbFail: Your session has expired…', async () => {
    const v = await newVisitor();
    await v.page.route(`**${SAVE}`, async (route) => {
      const headers = { ...route.request().headers() };
      delete headers['x-csrf-token'];
      await route.continue({ headers });
    });
    v.allowConsoleError(/status of 403/);
    const form = newsletter(v.page);
    await subscribe(v.page, 'reader5@example.com');
    await expect.poll(() => bottom(form).textContent()).toBe('Your session has expired. Please reload the page and try again.');
    await settled(form);
    await v.screenshot('site-form-7-crumb-fail');
  });

  test('SF-12 a save that never reaches the server: Error processing form submission. Please reload and try again.', async () => {
    const v = await newVisitor();
    await v.page.route(`**${SAVE}`, (route) => route.abort('connectionrefused'));
    v.allowConsoleError(/net::ERR_CONNECTION_REFUSED/);
    const form = newsletter(v.page);
    await subscribe(v.page, 'offline@example.com');
    await expect.poll(() => bottom(form).textContent()).toBe('Error processing form submission. Please reload and try again.');
    await settled(form);
    await v.screenshot('site-form-8-network-failure');
  });

  test('SF-9 past the rate limit the server answers 429: Unable to submit form. Submission rate limit exceeded. Please try again later.', async () => {
    const v = await newVisitor();
    // D10: 5 saves per minute per client IP and form. Use up what is left with direct calls
    // from the same visitor, then let the page try.
    const crumb = (await v.context.cookies()).find((c) => c.name === 'crumb')!.value;
    const headers = { 'x-csrf-token': crumb };
    let status = 0;
    for (let i = 0; i < 10 && status !== 429; i++) {
      const { key } = (await (await v.page.request.post('/api/form/FormSubmissionKey', { headers })).json()) as { key: string };
      const response = await v.page.request.post(SAVE, {
        headers,
        data: {
          key,
          formId: 'newsletter',
          form: JSON.stringify({ 'newsletter-email': `bulk${i}@example.com` }),
          pageTitle: 'Contact',
          pageId: 'contact',
          contentSource: 'c',
          pagePath: CONTACT_PAGE,
          pagePermissionTypeValue: 1,
        },
      });
      status = response.status();
    }
    expect(status).toBe(429);
    v.allowConsoleError(/status of 429/);
    const form = newsletter(v.page);
    await subscribe(v.page, 'late@example.com');
    await expect.poll(() => bottom(form).textContent()).toBe(
      'Unable to submit form. Submission rate limit exceeded. Please try again later.',
    );
    await settled(form);
    await v.screenshot('site-form-9-429');
  });
});
