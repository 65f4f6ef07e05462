// The storefront's forms as a keyboard and screen-reader visitor meets them when several fields
// are wrong (issue: only the first error was said), in Debian's Chromium against the real server
// on the demo site, at a desktop window and a 375 px phone: Tab order with a visible focus ring,
// every wrong field marked invalid and described by its own error shown beside it, focus on the
// first, how many fields need attention said once (the site form's bottom alert, else the page's
// status region), a corrected field unmarked as it is typed without the others said again, and
// axe clean in each error state.
import type { Locator, Page } from 'playwright-core';
import { describe, expect, inject, test } from 'vitest';
import { axeViolations } from './support/axe.ts';
import { NARROW_WINDOWS, type NarrowWindowName, viewportShot } from './support/chromium.ts';
import { useBrowserTier } from './support/tier.ts';
import { focusedNow, walk } from './support/focus.ts';
import { teeToCheckout, visit } from './support/visit.ts';

const chromiumPath = inject('chromiumPath');

const WINDOWS = NARROW_WINDOWS;
type WindowName = NarrowWindowName;

interface Marked {
  control: string;
  error: string;
  /** The error shown, not hidden, and beside its control (right above it, or just below). */
  beside: boolean;
}

/** Every control marked invalid inside `root`, each with the text of the element that describes it. */
const markedIn = (root: Locator): Promise<Marked[]> =>
  root.evaluate((el) => {
    const seen = new Set<string>();
    const out: Marked[] = [];
    for (const c of el.querySelectorAll<HTMLElement>('[aria-invalid="true"]')) {
      // A radio's error describes its group (the fieldset), read as focus enters it.
      const describer = c.hasAttribute('aria-describedby') ? c : (c.closest('fieldset[aria-describedby], [role="radiogroup"][aria-describedby]') ?? c);
      const ids = (describer.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean);
      const error = ids.map((id) => document.getElementById(id)).find((e) => e?.matches('.field-error, .product-restock-error, .sf-login-error')) ?? null;
      const key = error?.id ?? c.id;
      if (seen.has(key)) continue;
      seen.add(key);
      const e = error?.getBoundingClientRect();
      const r = c.getBoundingClientRect();
      const gap = e ? Math.min(Math.abs(r.top - e.bottom), Math.abs(e.top - r.bottom)) : Infinity;
      out.push({ control: c.id || c.getAttribute('name') || '', error: (error?.textContent ?? '').trim(), beside: !!e && e.height > 0 && gap < 120 });
    }
    return out;
  });

/** What the page's status region says (none: ''). */
const status = (page: Page) => page.evaluate(() => document.querySelector('body > .sf-announcer')?.textContent ?? '');

/** Whether the error describing the focused control is inside the window (scrolled there with focus). */
const focusedErrorInView = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    const ids = (el?.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean);
    const error = ids.map((id) => document.getElementById(id)).find((e) => e?.matches('.field-error, .product-restock-error, .sf-login-error'));
    if (!error) return false;
    const r = error.getBoundingClientRect();
    return r.top >= 0 && r.bottom <= innerHeight + 1;
  });

/**
 * One field sent wrong by its button: marked and described beside it, focus on it with a ring
 * in the window and its error in view, said once by the focus (no alert, nothing in the status
 * region), axe clean.
 */
async function expectOneFieldError(page: Page, root: Locator, control: string, error: string): Promise<void> {
  await expect.poll(() => markedIn(root)).toEqual([{ control, error, beside: true }]);
  expect(await focusedNow(page)).toMatchObject({ id: control, ring: true, inViewport: true, onTop: true });
  expect(await focusedErrorInView(page)).toBe(true);
  expect(await page.getByRole('alert').count()).toBe(0);
  expect(await status(page)).toBe('');
  expect(await axeViolations(page)).toEqual([]);
}

describe.skipIf(!chromiumPath)(`forms with several wrong fields, by keyboard, in Chromium${chromiumPath ? '' : ` (skipped: ${inject('browserSkipReason')})`}`, () => {
  const tier = useBrowserTier(chromiumPath!);

  for (const name of Object.keys(WINDOWS) as WindowName[]) {
    test(`FORM-1 the contact form (${name}): Tab order, then submit empty: both fields marked and described beside them, focus on the first, "2 fields need attention." said once with the alert, corrected fields unmarked as typed`, async () => {
      const v = await tier.newVisitor();
      const { page } = v;
      await page.setViewportSize(WINDOWS[name]);
      await visit(page, '/contact');
      const form = page.locator('form[data-island="site-form"][data-form-id="contact"]');
      await walk(page, form, `contact ${name}`);
      // The walk ends on the submit button.
      expect((await focusedNow(page)).id).toMatch(/Submit|Send/i);
      await page.keyboard.press('Enter');

      const bottom = form.locator('.sf-form-message-bottom');
      await expect.poll(() => bottom.textContent()).toBe('Your form has encountered a problem. Please scroll up to review. 2 fields need attention.');
      expect(await bottom.getAttribute('role')).toBe('alert');
      // The count is said, not drawn: the visible sentence is the spec's.
      expect(await bottom.locator('.sf-form-attention').evaluate((el) => { const r = el.getBoundingClientRect(); return r.width <= 1 && r.height <= 1; })).toBe(true);
      // Said once: the top message is no live region, and the page's region says nothing more.
      expect(await form.locator('.sf-form-message-top').getAttribute('role')).toBeNull();
      expect(await status(page)).toBe('');
      const marked = await markedIn(form);
      expect(marked).toEqual([
        { control: expect.stringMatching(/contact-name/), error: 'Required', beside: true },
        { control: expect.stringMatching(/contact-email/), error: 'Email is not valid. Email addresses should follow the format user@domain.com.', beside: true },
      ]);
      // Focus on the first wrong field, brought into the window with its error (the seed's tween).
      await expect.poll(() => focusedNow(page)).toMatchObject({ id: expect.stringMatching(/contact-name/), inViewport: true, onTop: true });
      await expect.poll(() => focusedErrorInView(page)).toBe(true);
      expect(await axeViolations(page)).toEqual([]);
      await viewportShot(page, `form-errors-contact-${name}`);

      // The first name typed: that field is no longer wrong; the count goes unsaid, the email's error stays.
      await page.keyboard.type('Ada');
      await expect.poll(() => markedIn(form).then((m) => m.map((x) => x.error))).toEqual(['Email is not valid. Email addresses should follow the format user@domain.com.']);
      expect(await bottom.textContent()).toBe('Your form has encountered a problem. Please scroll up to review.');
      expect(await status(page)).toBe('');
      await form.locator('[data-field-id="contact-email"] input').fill('ada@example.com');
      await expect.poll(() => markedIn(form)).toEqual([]);
      expect(await bottom.isHidden()).toBe(true);
      expect(await form.locator('.sf-form-message-top').isHidden()).toBe(true);
      expect(await axeViolations(page)).toEqual([]);
    });
  }

  test('FORM-2 the newsletter by keys: Enter in its empty email field keeps focus there, and the alert says the field\'s error with the spec\'s sentence', async () => {
    const v = await tier.newVisitor();
    const { page } = v;
    await page.setViewportSize(WINDOWS.phone);
    await visit(page, '/contact');
    const form = page.locator('form[data-island="site-form"][data-newsletter="true"]');
    await walk(page, form, 'newsletter phone');
    const email = form.locator('input[type="email"]');
    await email.focus();
    await page.keyboard.press('Enter');
    const bottom = form.locator('.sf-form-message-bottom');
    const error = 'Email is not valid. Email addresses should follow the format user@domain.com.';
    await expect.poll(() => bottom.textContent()).toBe(`Your form has encountered a problem. Please scroll up to review. ${error}`);
    expect(await email.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await markedIn(form)).toEqual([{ control: expect.stringMatching(/newsletter-email/), error, beside: true }]);
    expect(await status(page)).toBe('');
    expect(await axeViolations(page)).toEqual([]);
  });

  for (const name of Object.keys(WINDOWS) as WindowName[]) {
    test(`FORM-3 sign-in (${name}): Tab order, Sign In pressed empty: both fields marked, focus on Email, "2 fields need attention." in the status region; Email typed unmarks it and empties the region`, async () => {
      const v = await tier.newVisitor();
      const { page } = v;
      // The member area answers 403 to a visitor (C1 106).
      v.allowConsoleError(/status of 403/);
      await page.setViewportSize(WINDOWS[name]);
      await visit(page, '/members');
      const form = page.locator('form.sf-login');
      await walk(page, form, `sign-in ${name}`);
      await form.getByRole('button', { name: 'Sign In' }).focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => status(page)).toBe('2 fields need attention.');
      expect(await markedIn(form)).toEqual([
        { control: 'sf-login-email', error: 'Required', beside: true },
        { control: 'sf-login-password', error: 'Required', beside: true },
      ]);
      expect(await focusedNow(page)).toMatchObject({ id: 'sf-login-email', ring: true, inViewport: true, onTop: true });
      expect(await focusedErrorInView(page)).toBe(true);
      // No alert says the same again.
      expect(await page.getByRole('alert').filter({ hasText: 'Required' }).count()).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      await viewportShot(page, `form-errors-sign-in-${name}`);

      await page.keyboard.type('demo@example.com');
      await expect.poll(() => markedIn(form)).toEqual([{ control: 'sf-login-password', error: 'Required', beside: true }]);
      expect(await status(page)).toBe('');
      // Pressed again: focus moves to the password, which reads its own error; nothing else is said.
      await form.getByRole('button', { name: 'Sign In' }).focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => focusedNow(page).then((f) => f.id)).toBe('sf-login-password');
      expect(await status(page)).toBe('');
      expect(await axeViolations(page)).toEqual([]);
    });
  }

  for (const name of Object.keys(WINDOWS) as WindowName[]) {
    test(`FORM-5 the restock sign-up (${name}): Tab order, sent blank by its button: focus moves to the email, which reads its error (no alert, nothing else said); sent from the field: the status region says it, once`, async () => {
      const v = await tier.newVisitor();
      const { page } = v;
      await page.setViewportSize(WINDOWS[name]);
      await visit(page, '/shop/vinyl');
      await page.selectOption('.sf-product select[data-variant-option-name="Edition"]', 'Red');
      const box = page.locator('.product-restock-notification[data-variant-id="vinyl-red"]');
      await expect.poll(() => box.isVisible()).toBe(true);
      await walk(page, box.locator('form'), `restock ${name}`);
      await box.locator('input[type="submit"], button[type="submit"]').focus();
      await page.keyboard.press('Enter');
      const email = box.locator('input[name="email"]');
      await expect.poll(() => markedIn(box)).toEqual([{ control: expect.stringMatching(/email/), error: 'Email cannot be blank', beside: true }]);
      await expect.poll(() => focusedNow(page)).toMatchObject({ id: expect.stringMatching(/email/), ring: true, inViewport: true, onTop: true });
      // The error right above the field, in the window with it (it sat below the button, off a phone's screen).
      expect(await focusedErrorInView(page)).toBe(true);
      expect(await box.locator('form .product-restock-error + label + input[name="email"]').count()).toBe(1);
      expect(await page.getByRole('alert').count()).toBe(0);
      expect(await status(page)).toBe('');
      expect(await axeViolations(page)).toEqual([]);
      await viewportShot(page, `form-errors-restock-${name}`);
      await page.keyboard.type('foo@bar');
      await page.keyboard.press('Enter');
      await expect.poll(() => status(page)).toBe('Email is invalid');
      expect(await email.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await markedIn(box)).toEqual([{ control: expect.stringMatching(/email/), error: 'Email is invalid', beside: true }]);
      expect(await axeViolations(page)).toEqual([]);
    });
  }

  for (const name of Object.keys(WINDOWS) as WindowName[]) {
    test(`FORM-6 the review request (${name}): Tab order, sent empty: the three fields marked and described beside them, focus on the rating, "3 fields need attention." said once; the name typed unmarks it quietly`, async () => {
      const v = await tier.newVisitor();
      const { page } = v;
      await page.setViewportSize(WINDOWS[name]);
      expect(await visit(page, '/review?productId=tee')).toBe(200);
      const form = page.locator('form.sf-review-form');
      await walk(page, form, `review ${name}`);
      await form.locator('.sf-review-submit').focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => status(page)).toBe('3 fields need attention.');
      expect(await focusedNow(page)).toMatchObject({ id: expect.stringMatching(/rating/), ring: true, inViewport: true, onTop: true });
      const marked = await markedIn(form);
      // The rating's error describes its group (a fieldset), the others their own control.
      expect(marked.length).toBeGreaterThanOrEqual(2);
      expect(marked.every((m) => m.error !== '' && m.beside), JSON.stringify(marked)).toBe(true);
      expect(await form.locator('[aria-invalid="true"]').evaluateAll((els) => [...new Set(els.map((e) => e.getAttribute('name')))])).toEqual(['rating', 'name', 'text']);
      expect(await page.getByRole('alert').count()).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      await viewportShot(page, `form-errors-review-${name}`);
      await form.locator('input[name="name"]').fill('Ada');
      await expect.poll(() => form.locator('input[name="name"]').getAttribute('aria-invalid')).toBeNull();
      expect(await status(page)).toBe('');
      expect(await form.locator('textarea[name="text"]').getAttribute('aria-invalid')).toBe('true');
    });
  }

  test('FORM-7 on a 375 px phone, "Forgot your password?" and the coupon field sent empty by their buttons: focus on the field with its error in the window, said once (no alert)', async () => {
    const v = await tier.newVisitor();
    const { page } = v;
    v.allowConsoleError(/status of 403/);
    await page.setViewportSize(WINDOWS.phone);
    await visit(page, '/members#forgot-password');
    const forgot = page.locator('form.sf-forgot');
    await walk(page, forgot, 'forgot phone');
    await forgot.getByRole('button', { name: 'Email Me a Link' }).focus();
    await page.keyboard.press('Enter');
    await expectOneFieldError(page, forgot, 'sf-forgot-email', 'Required');

    await teeToCheckout(page, 'S');
    const coupon = page.locator('.sf-checkout-coupon');
    await page.getByRole('button', { name: 'Apply' }).focus();
    await page.keyboard.press('Enter');
    await expectOneFieldError(page, coupon, 'sf-checkout-coupon', 'Enter a coupon code.');
    await viewportShot(page, 'form-errors-coupon-phone');
  });

  for (const name of Object.keys(WINDOWS) as WindowName[]) {
    test(`FORM-4 checkout (${name}): Place order pressed empty: every wrong field marked and described beside it, focus on Email in the window, the count said once; a field typed right is unmarked and the count goes`, async () => {
      const v = await tier.newVisitor();
      const { page } = v;
      await page.setViewportSize(WINDOWS[name]);
      await teeToCheckout(page, 'S');
      const form = page.locator('form.sf-checkout-form');
      await walk(page, form, `checkout ${name}`);
      await page.getByRole('button', { name: 'Place order' }).focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => focusedNow(page)).toMatchObject({ id: 'sf-checkout-email', ring: true, inViewport: true, onTop: true });
      const marked = await markedIn(form);
      expect(marked.length).toBeGreaterThan(5);
      expect(marked.every((m) => m.beside && m.error !== ''), JSON.stringify(marked)).toBe(true);
      expect(marked[0]).toEqual({ control: 'sf-checkout-email', error: 'Enter your email address.', beside: true });
      expect(await status(page)).toBe(`${marked.length} fields need attention.`);
      expect(await focusedErrorInView(page)).toBe(true);
      // Field errors alone raise no alert of the whole form: the count is said once.
      expect(await page.locator('#sf-checkout-error').count()).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      await viewportShot(page, `form-errors-checkout-${name}`);

      await page.keyboard.type('ada@example');
      expect((await markedIn(form))[0]!.control).toBe('sf-checkout-email');
      await page.keyboard.type('.com');
      await expect.poll(() => markedIn(form).then((m) => m.length)).toBe(marked.length - 1);
      expect((await markedIn(form))[0]!.control).not.toBe('sf-checkout-email');
      expect(await status(page)).toBe('');
      // Pressed again, the rest are counted afresh, focus on the first of them.
      await page.getByRole('button', { name: 'Place order' }).focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => status(page)).toBe(`${marked.length - 1} fields need attention.`);
      expect((await focusedNow(page)).id).toBe(marked[1]!.control);
      expect(await axeViolations(page)).toEqual([]);
    });
  }
});
