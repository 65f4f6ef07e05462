// The cart as a visitor reads it (issue 16), in Debian's Chromium against the real server on the
// demo site: a line with additional fields says what was submitted, a quantity above the stock
// is cut with a message next to the line (as is one below 1 or not whole; a 0 removes the
// line), and the header's Cart link counts the items.
import type { Locator, Page, Response } from 'playwright-core';
import { describe, expect, inject, test } from 'vitest';
import { axeViolations } from './support/axe.ts';
import { viewportShot } from './support/chromium.ts';
import { useBrowserTier } from './support/tier.ts';
import { visit } from './support/visit.ts';

const chromiumPath = inject('chromiumPath');
const PHONE = { width: 390, height: 844 };

async function addTee(page: Page, size: string): Promise<void> {
  await page.selectOption('.sf-product select[data-variant-option-name="Size"]', size);
  await Promise.all([
    page.waitForResponse((r) => new URL(r.url()).pathname === '/api/commerce/shopping-cart/entries' && r.status() === 200),
    page.click('.sf-product .sqs-add-to-cart-button'),
  ]);
}

/** Types `text` into a line's quantity, presses Enter, and answers the entry request it sends (`method`: PUT, or DELETE for a 0). */
async function enterQuantity(page: Page, input: Locator, text: string, method: 'PUT' | 'DELETE' = 'PUT'): Promise<Response> {
  await input.fill(text);
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === method && new URL(r.url()).pathname.startsWith('/api/commerce/shopping-cart/entries/')),
    input.press('Enter'),
  ]);
  return response;
}

describe.skipIf(!chromiumPath)(`cart details in Chromium${chromiumPath ? '' : ` (skipped: ${inject('browserSkipReason')})`}`, () => {
  const tier = useBrowserTier(chromiumPath!);

  test('CART-1 the mug line lists its engraving and font next to the edit action, desktop and phone, axe clean', async () => {
    const v = await tier.newVisitor();
    await visit(v.page, '/shop/mug');
    await v.page.click('.sqs-add-to-cart-button');
    const lightbox = v.page.locator('.sf-lightbox');
    await lightbox.waitFor({ state: 'visible' });
    // The Font select starts on its empty option (AF-6), which says what to do rather than
    // showing a blank box, and looks like the pop-up's text field beside it.
    const font = lightbox.getByRole('combobox', { name: 'Font' });
    expect(await font.inputValue()).toBe('');
    expect(await font.locator('option').first().textContent()).toBe('Select Font');
    const looks = (el: Element) => {
      const style = getComputedStyle(el);
      return { background: style.backgroundColor, color: style.color, border: style.border, radius: style.borderRadius, height: Math.round(el.getBoundingClientRect().height) };
    };
    expect(await font.evaluate(looks)).toEqual(await lightbox.locator('input[type="text"]').first().evaluate(looks));
    await viewportShot(v.page, 'cart-details-engraving-form');
    await lightbox.locator('input[type="text"]').first().fill('For Ada');
    await lightbox.locator('select').first().selectOption('Script');
    // The form closes once its values are accepted and the add to cart follows: wait for the
    // cart's answer before leaving the page (leaving at once could cancel the request).
    await Promise.all([
      v.page.waitForResponse((r) => new URL(r.url()).pathname === '/api/commerce/shopping-cart/entries' && r.status() === 200),
      lightbox.locator('.sf-af-submit').click(),
    ]);
    await lightbox.waitFor({ state: 'detached' });

    await visit(v.page, '/cart');
    const line = v.page.locator('.sf-cart-entry[data-item-id="mug"]');
    expect(await line.locator('.sf-entry-field').allTextContents()).toEqual(['Engraving text For Ada', 'Font Script']);
    expect(await line.locator('.sf-entry-title').innerText()).toMatch(/Enamel Mug[\s\S]*Engraving text\s*For Ada[\s\S]*Font\s*Script[\s\S]*Edit form/);
    expect(await axeViolations(v.page)).toEqual([]);
    await viewportShot(v.page, 'cart-details-desktop');
    await v.page.setViewportSize(PHONE);
    expect(await axeViolations(v.page)).toEqual([]);
    await viewportShot(v.page, 'cart-details-phone');
  });

  test('CART-2 50 tees in S (5 in stock) become 5, and the line says why', async () => {
    const v = await tier.newVisitor();
    await visit(v.page, '/shop/tee');
    await addTee(v.page, 'S');
    await visit(v.page, '/cart');
    const quantity = v.page.getByRole('spinbutton', { name: 'Quantity of Classic Tee' });
    const put = await enterQuantity(v.page, quantity, '50');
    expect(put.request().postDataJSON()).toEqual({ quantity: 5 });
    expect(await quantity.inputValue()).toBe('5');
    const message = v.page.locator('.sf-cart-entry .sf-entry-message');
    expect(await message.textContent()).toBe('Sorry, we do not have enough of that item available. The quantity is now 5, the most you can order.');
    expect(await quantity.getAttribute('aria-describedby')).toBe(await message.getAttribute('id'));
    expect(await axeViolations(v.page)).toEqual([]);
    await viewportShot(v.page, 'cart-stock-message-desktop');
    await v.page.setViewportSize(PHONE);
    await viewportShot(v.page, 'cart-stock-message-phone');
  });

  test('CART-4 a typed 2.5 becomes 2 and the line says why; a typed 0 and Enter removes the line, focus moves on', async () => {
    const v = await tier.newVisitor();
    await visit(v.page, '/shop/tee');
    await addTee(v.page, 'S');
    // The button takes clicks again once it is back at rest after Added!.
    await expect.poll(() => v.page.locator('.sf-product .sqs-add-to-cart-button-inner').textContent()).toBe('Add To Cart');
    await addTee(v.page, 'M');
    await visit(v.page, '/cart');
    const quantities = v.page.getByRole('spinbutton', { name: 'Quantity of Classic Tee' });
    expect(await quantities.count()).toBe(2);
    const first = quantities.first();
    const put = await enterQuantity(v.page, first, '2.5');
    expect(put.request().postDataJSON()).toEqual({ quantity: 2 });
    expect(await first.inputValue()).toBe('2');
    const message = v.page.locator('.sf-cart-entry .sf-entry-message');
    expect(await message.textContent()).toBe('Quantity must be a whole number. The quantity is now 2.');
    expect(await first.getAttribute('aria-describedby')).toBe(await message.getAttribute('id'));
    expect(await axeViolations(v.page)).toEqual([]);
    const removed = await enterQuantity(v.page, first, '0', 'DELETE');
    expect(removed.status()).toBe(200);
    await expect.poll(() => quantities.count()).toBe(1);
    // Focus was in the removed line: it is on the next line's remove button, not lost to the page.
    await expect.poll(() => v.page.evaluate(() => document.activeElement?.classList.contains('sf-entry-remove') ?? false)).toBe(true);
    await expect.poll(() => v.page.locator('header .sf-cart-link').getAttribute('aria-label')).toBe('Cart, 1 item');
  });

  test('CART-3 the header Cart link shows the item count after an add to cart, and on the next page', async () => {
    const v = await tier.newVisitor();
    await visit(v.page, '/shop/tee');
    const link = v.page.locator('header .sf-cart-link');
    expect(await link.textContent()).toBe('Cart');
    await addTee(v.page, 'S');
    await expect.poll(() => link.locator('.sf-cart-link-count').textContent()).toBe('1');
    expect(await link.getAttribute('aria-label')).toBe('Cart, 1 item');
    // The button is back to idle (after Added!) before the next add.
    await expect.poll(() => v.page.locator('.sf-product .sqs-add-to-cart-button-inner').textContent()).toBe('Add To Cart');
    await v.page.fill('.sf-product .product-quantity-input input', '2');
    await addTee(v.page, 'M');
    await expect.poll(() => link.getAttribute('aria-label')).toBe('Cart, 3 items');
    await viewportShot(v.page, 'cart-header-count-desktop');
    await visit(v.page, '/journal');
    expect(await link.locator('.sf-cart-link-count').textContent()).toBe('3');
    await v.page.setViewportSize(PHONE);
    await viewportShot(v.page, 'cart-header-count-phone');
  });
});
