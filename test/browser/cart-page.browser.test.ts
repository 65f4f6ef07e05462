// The cart page's controls (C1 page type 200, B26, B27) in Debian's Chromium against the real
// server on the demo site: add a tee, open /cart, change its quantity, remove it.
import { describe, expect, inject, test } from 'vitest';
import { useBrowserTier } from './support/tier.ts';
import { pageContext, visit } from './support/visit.ts';

const chromiumPath = inject('chromiumPath');

describe.skipIf(!chromiumPath)(`cart page in Chromium${chromiumPath ? '' : ` (skipped: ${inject('browserSkipReason')})`}`, () => {
  const tier = useBrowserTier(chromiumPath!);

  test('a quantity change updates the totals and the stored cart; removing the only entry empties the cart', async () => {
    const v = await tier.newVisitor();
    expect(await visit(v.page, '/shop/tee')).toBe(200);
    await v.page.selectOption('.product-variants select[data-variant-option-name="Size"]', 'S');
    await Promise.all([
      v.page.waitForResponse((r) => new URL(r.url()).pathname === '/api/commerce/shopping-cart/entries' && r.status() === 200),
      v.page.click('.sqs-add-to-cart-button'),
    ]);

    expect(await visit(v.page, '/cart')).toBe(200);
    expect([200, 205]).toContain((await pageContext(v.page)).pageType);
    const island = v.page.locator('[data-island="cart-page"]');
    expect(await island.getAttribute('data-hydrated')).toBe('true');
    const quantity = v.page.getByRole('spinbutton', { name: 'Quantity of Classic Tee' });
    expect(await quantity.inputValue()).toBe('1');
    expect(await v.page.locator('.sf-entry-total').textContent()).toBe('$25.00');
    await v.screenshot('cart-page-1-one-tee');

    const cartId = (await v.context.cookies()).find((c) => c.name === 'CART')!.value;
    await quantity.fill('3');
    const [put] = await Promise.all([
      v.page.waitForResponse((r) => r.request().method() === 'PUT' && new URL(r.url()).pathname.startsWith('/api/commerce/shopping-cart/entries/')),
      quantity.press('Enter'),
    ]);
    expect(put.status()).toBe(200);
    expect(put.request().postDataJSON()).toEqual({ quantity: 3 });
    await expect.poll(() => v.page.locator('.sf-entry-total').textContent()).toBe('$75.00');
    expect(await v.page.locator('.sf-cart-subtotal').textContent()).toContain('$75.00');
    const stored = await tier.server.store.read.getCart(cartId);
    expect(stored!.entries.map((e) => e.quantity)).toEqual([3]);
    await v.screenshot('cart-page-2-three-tees');

    // Keyboard: focus the remove button and press Enter.
    await v.page.getByRole('button', { name: 'Remove Classic Tee' }).focus();
    const [del] = await Promise.all([
      v.page.waitForResponse((r) => r.request().method() === 'DELETE' && new URL(r.url()).pathname.startsWith('/api/commerce/shopping-cart/entries/')),
      v.page.keyboard.press('Enter'),
    ]);
    expect(del.status()).toBe(200);
    const empty = v.page.locator('.sf-cart-empty');
    await empty.waitFor({ state: 'visible' });
    expect(await empty.textContent()).toBe('You have nothing in your shopping cart.');
    expect(await v.page.locator('.sf-cart-entry').count()).toBe(0);
    expect(await v.page.locator('.sf-checkout-button').count()).toBe(0);
    expect((await tier.server.store.read.getCart(cartId))!.entries).toEqual([]);
    await v.screenshot('cart-page-3-empty');
  });
});
