// Edge states a store visitor meets that the journeys passed by, in Debian's Chromium against
// the real server on the demo site: each scenario is a defect found by walking the shop with
// fresh eyes, kept here so that it stays fixed.
import type { Page } from 'playwright-core';
import { describe, expect, inject, test } from 'vitest';
import { axeViolations } from './support/axe.ts';
import { useBrowserTier } from './support/tier.ts';
import { fillCheckout, teeToCheckout, visit, waitForBoot } from './support/visit.ts';

const chromiumPath = inject('chromiumPath');

/** What has focus: its id, else its class, and its text. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    return el && el !== document.body ? `${el.id || el.className}: ${(el.textContent ?? '').trim()}` : 'body';
  });

describe.skipIf(!chromiumPath)(`visitor edge states in Chromium${chromiumPath ? '' : ` (skipped: ${inject('browserSkipReason')})`}`, () => {
  const tier = useBrowserTier(chromiumPath!);

  test('EDGE-1 the vinyl has a restock box per sold-out edition: each one\'s label and error name its own field (ids unique on the page)', async () => {
    const v = await tier.newVisitor();
    await visit(v.page, '/shop/vinyl');
    const duplicateIds = () =>
      v.page.evaluate(() => {
        const ids = [...document.querySelectorAll('[id]')].map((e) => e.id);
        return ids.filter((id, i) => ids.indexOf(id) !== i);
      });
    expect(await duplicateIds()).toEqual([]);
    await v.page.selectOption('.sf-product select[data-variant-option-name="Edition"]', 'Red');
    const red = v.page.locator('.product-restock-notification[data-variant-id="vinyl-red"]');
    await expect.poll(() => red.isVisible()).toBe(true);
    // Clicking the visible box's label puts the cursor in that box's field, not the hidden one's.
    await red.locator('label.product-restock-label').click();
    expect(await red.locator('input[name="email"]').evaluate((el) => el === document.activeElement)).toBe(true);
    await v.page.keyboard.type('foo@bar');
    await v.page.keyboard.press('Enter');
    await expect.poll(() => red.locator('.product-restock-error').textContent()).toBe('Email is invalid');
    const field = v.page.getByRole('textbox', { name: 'Email Address' });
    expect(await field.count()).toBe(1);
    expect(await field.evaluate((el) => document.getElementById(el.getAttribute('aria-describedby') ?? '')?.textContent)).toBe('Email is invalid');
    expect(await duplicateIds()).toEqual([]);
    expect(await axeViolations(v.page)).toEqual([]);
  });

  test('EDGE-2 the order status look-up (a form POSTed to its page) comes back with focus on its answer: the first wrong field, the not-found message, the order', async () => {
    const v = await tier.newVisitor();
    const { page } = v;
    await teeToCheckout(page, 'S');
    await fillCheckout(page, '4242 4242 4242 4242');
    await Promise.all([page.waitForURL(/\/confirmed$/), page.getByRole('button', { name: 'Place order' }).click()]);
    const number = /Order #(\d+)/.exec((await page.locator('.sf-order-number').textContent()) ?? '')![1]!;

    const lookUp = async (orderNumber: string, email: string) => {
      await page.getByLabel('Order number').fill(orderNumber);
      await page.getByLabel('Email').fill(email);
      await page.getByRole('button', { name: 'Look up order' }).focus();
      await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.keyboard.press('Enter')]);
      await waitForBoot(page);
    };
    expect(await visit(page, '/commerce/orders/status')).toBe(200);
    // An address the browser's own email check lets through (so the form is sent) that D5 refuses.
    await lookUp('abc', 'ada@example');
    await expect.poll(() => focused(page)).toBe('sf-order-status-number: ');
    await lookUp(number, 'ada@example');
    await expect.poll(() => focused(page)).toBe('sf-order-status-email: ');
    await lookUp(number, 'eve@example.com');
    await expect.poll(() => focused(page)).toBe('sf-order-status-message: We could not find an order with that number and email. Check both and try again.');
    await lookUp(number, 'ada@example.com');
    await expect.poll(() => focused(page)).toBe(`sf-order-number: Order #${number}`);
    // The heading sits below the form; focus brought it into the window, and Tab goes on into the order.
    expect(await page.locator('.sf-order-number').evaluate((el) => { const r = el.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; })).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
  });

  test('EDGE-3 Back to a product page (no back/forward cache): the choice the browser puts back in the dropdowns is the one the price, the sold-out mark, the restock box and Add To Cart show', async () => {
    const v = await tier.newVisitor();
    const { page } = v;
    const shown = () =>
      page.evaluate(() => ({
        size: (document.querySelector('select[data-variant-option-name="Size"]') as HTMLSelectElement).value,
        color: (document.querySelector('select[data-variant-option-name="Color"]') as HTMLSelectElement).value,
        price: document.querySelector('.sf-product .product-price')?.textContent?.trim(),
        mark: document.querySelector('.sf-product .sf-product-status')?.textContent?.trim(),
        button: document.querySelector('.sf-product .sqs-add-to-cart-button')?.textContent?.trim(),
        restock: [...document.querySelectorAll<HTMLElement>('.product-restock-notification')].filter((box) => !box.hidden).map((box) => box.dataset.variantId),
      }));
    await visit(page, '/shop/hoodie');
    await page.selectOption('.sf-product select[data-variant-option-name="Size"]', 'M');
    await page.selectOption('.sf-product select[data-variant-option-name="Color"]', 'Sand');
    const chosen = { size: 'M', color: 'Sand', price: '55.00', mark: 'sold out', button: 'Sold Out', restock: ['hoodie-m-sand'] };
    await expect.poll(shown).toEqual(chosen);
    await visit(page, '/journal');
    await page.goBack();
    await waitForBoot(page);
    // It showed M / Sand in the dropdowns and said Sold Out, beside the server's "from 55.00",
    // no sold-out mark and no restock box.
    await expect.poll(shown).toEqual(chosen);

    // The pay-later line prices the restored variant too: the large candle on sale ($24.00), not the small one's "from" price.
    await visit(page, '/shop/candle');
    await page.selectOption('.sf-product select[data-variant-option-name="Size"]', 'Large');
    const bnpl = () => page.locator('.sf-product [data-island="bnpl"]').innerText();
    await expect.poll(bnpl).toContain('$6.00');
    await visit(page, '/journal');
    await page.goBack();
    await waitForBoot(page);
    expect(await page.locator('.sf-product select[data-variant-option-name="Size"]').inputValue()).toBe('Large');
    await expect.poll(bnpl).toContain('$6.00');
    expect(await page.locator('.sf-product .product-price').textContent()).toContain('24.00');
    expect(await axeViolations(page)).toEqual([]);
  });

  test('EDGE-4 "Forgot your password?" by keys: Enter in the email field with it blank, then with an address the server refuses, says each error aloud (the status region, once) beside the field; the button pressed moves focus to the field, which reads it, and nothing else says it', async () => {
    const v = await tier.newVisitor();
    const { page } = v;
    // The member area answers 403 to a visitor (C1 106); the refused address is a 400.
    v.allowConsoleError(/status of 403/);
    v.allowConsoleError(/status of 400/);
    await visit(page, '/members#forgot-password');
    const field = page.locator('#sf-forgot-email');
    await field.focus();
    const error = page.locator('#sf-forgot-email-error');
    await page.keyboard.press('Enter');
    const said = () => page.locator('body > .sf-announcer').textContent();
    await expect.poll(() => error.textContent()).toBe('Required');
    expect(await error.getAttribute('role')).toBeNull();
    await expect.poll(said).toBe('Required');
    expect(await field.getAttribute('aria-describedby')).toBe('sf-forgot-email-error');
    await page.keyboard.type('demo@example');
    await Promise.all([page.waitForResponse((r) => new URL(r.url()).pathname === '/api/site-users/account/password-reset'), page.keyboard.press('Enter')]);
    await expect.poll(() => error.textContent()).toBe('Enter a valid email address.');
    await expect.poll(said).toBe('Enter a valid email address.');
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await field.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    // Pressed by its button with the field blank: focus goes to the field (read with its error); the region is emptied, not said again.
    await field.fill('');
    await page.getByRole('button', { name: 'Email Me a Link' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => error.textContent()).toBe('Required');
    expect(await field.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await said()).toBe('');
  });

  test('EDGE-5 a coupon by keys: Enter in the empty code field, then a code already applied, says the error aloud (the status region, once) at the field; Apply pressed moves focus to the field, which reads it', async () => {
    const v = await tier.newVisitor();
    const { page } = v;
    await teeToCheckout(page, 'S');
    const code = page.getByLabel('Coupon code');
    await code.focus();
    await page.keyboard.press('Enter');
    const error = page.locator('.sf-checkout-coupon .field-error');
    const said = () => page.locator('body > .sf-announcer').textContent();
    await expect.poll(() => error.textContent()).toBe('Enter a coupon code.');
    expect(await error.getAttribute('role')).toBeNull();
    await expect.poll(said).toBe('Enter a coupon code.');
    await page.keyboard.type('WELCOME10');
    await Promise.all([page.waitForResponse((r) => new URL(r.url()).pathname === '/api/commerce/checkout/quote'), page.keyboard.press('Enter')]);
    await expect.poll(() => page.locator('.sf-coupon-valid').textContent()).toContain('WELCOME10 Applied');
    await code.fill('WELCOME10');
    await page.keyboard.press('Enter');
    await expect.poll(said).toBe('That coupon is already applied.');
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await code.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    // Apply pressed with the field empty: focus moves to the field, which reads the error; the region says nothing more.
    await code.fill('');
    await page.getByRole('button', { name: 'Apply' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => error.textContent()).toBe('Enter a coupon code.');
    expect(await code.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await said()).toBe('');
  });

  test('EDGE-6 Enter pressed in the one wrong field, which keeps focus, says its error aloud: the empty password at sign-in, the empty security code at checkout', async () => {
    const v = await tier.newVisitor();
    const { page } = v;
    v.allowConsoleError(/status of 403/);
    const said = () => page.locator('body > .sf-announcer').textContent();
    await visit(page, '/members');
    await page.locator('#sf-login-email').fill('demo@example.com');
    await page.locator('#sf-login-password').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#sf-login-password-error').textContent()).toBe('Required');
    expect(await page.locator('#sf-login-password').evaluate((el) => el === document.activeElement)).toBe(true);
    await expect.poll(said).toBe('Required');

    await teeToCheckout(page, 'S');
    await fillCheckout(page, '4242 4242 4242 4242');
    const cvc = page.getByLabel('Security code (CVC)');
    await cvc.fill('');
    await cvc.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => cvc.getAttribute('aria-invalid')).toBe('true');
    expect(await cvc.evaluate((el) => el === document.activeElement)).toBe(true);
    await expect.poll(said).toBe('Enter a valid security code.');
    expect(await axeViolations(page)).toEqual([]);
  });
});
