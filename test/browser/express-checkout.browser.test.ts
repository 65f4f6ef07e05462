// Express checkout in Debian's Chromium against the real server (issue 15): with the site's
// express checkout on (catalogue `site.settings.expressCheckout`, as the page tests switch it),
// the product page's button skips the cart: it makes an express cart of its own and goes
// straight to /checkout with the checkout island, where the test card places the order. The
// visitor's main cart is left alone, no pill cart is shown, and the pages are clean under axe.
import { describe, expect, inject, test } from 'vitest';
import { axeViolations } from './support/axe.ts';
import { viewportShot } from './support/chromium.ts';
import { ADMIN_TOKEN } from './support/storefront.ts';
import { useBrowserTier } from './support/tier.ts';
import { pageContext, visit, waitForBoot } from './support/visit.ts';

const chromiumPath = inject('chromiumPath');

describe.skipIf(!chromiumPath)(`express checkout in Chromium${chromiumPath ? '' : ` (skipped: ${inject('browserSkipReason')})`}`, () => {
  const tier = useBrowserTier(chromiumPath!, {
    seed: (catalog) => {
      catalog.site.settings = { ...catalog.site.settings, expressCheckout: true };
      return catalog;
    },
  });

  const api = async (url: string) => {
    const response = await tier.server.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as Record<string, unknown>;
  };
  const teeStock = async (sku: string) => {
    const { results } = (await api('/api/commerce/inventory/stock?itemId=tee')) as { results: Array<{ sku: string; qtyInStock: number }> };
    return results.find((r) => r.sku === sku)!.qtyInStock;
  };
  const orders = async () => ((await api('/api/commerce/orders?limit=50')) as { orders: Array<Record<string, unknown>> }).orders;

  test('the product button goes straight to /checkout with the island; the test card places the order', async () => {
    const v = await tier.newVisitor();
    const stockBefore = await teeStock('TEE-M');
    const ordersBefore = (await orders()).length;
    expect(await visit(v.page, '/shop/tee')).toBe(200);
    expect((await pageContext(v.page)).store).toMatchObject({ expressCheckout: true });
    // Express checkout leaves the pill cart out (seed: not shown in express checkout).
    expect(await v.page.locator('.sf-pill-cart:visible').count()).toBe(0);
    expect(await axeViolations(v.page)).toEqual([]);
    await v.page.selectOption('.product-variants select[data-variant-option-name="Size"]', 'M');
    const [added] = await Promise.all([
      v.page.waitForResponse((r) => new URL(r.url()).pathname === '/api/commerce/shopping-cart/entries'),
      v.page.waitForURL(/\/checkout\?cartToken=/),
      v.page.click('.sqs-add-to-cart-button'),
    ]);
    expect(new URL(added.url()).searchParams.get('express')).toBe('true');
    expect(added.status()).toBe(200);
    await waitForBoot(v.page);
    await v.page.locator('[data-island="checkout"][data-checkout-state="ready"]').waitFor();
    expect((await pageContext(v.page)).pageType).toBe(201);
    expect(await v.page.locator('[data-island="checkout"] .sf-order-line').allTextContents()).toEqual([expect.stringContaining('Classic Tee')]);
    expect(await axeViolations(v.page)).toEqual([]);
    await viewportShot(v.page, 'express-checkout-1-desktop');
    await v.page.setViewportSize({ width: 390, height: 844 });
    expect(await axeViolations(v.page)).toEqual([]);
    await viewportShot(v.page, 'express-checkout-1-phone');

    await v.page.getByLabel('Email').fill('eve@example.com');
    await v.page.getByLabel('First name').fill('Eve');
    await v.page.getByLabel('Last name').fill('Express');
    await v.page.getByRole('textbox', { name: /^Address/ }).fill('3 Quick Lane');
    await v.page.getByLabel('City').fill('Albany');
    await v.page.getByLabel('State / region').fill('NY');
    await v.page.getByLabel('Postal code').fill('12207');
    await v.page.getByLabel('Country').selectOption('US');
    await Promise.all([
      v.page.waitForResponse((r) => new URL(r.url()).pathname === '/api/commerce/checkout/quote'),
      v.page.getByLabel('Country').press('Tab'),
    ]);
    await v.page.locator('.sf-checkout-shipping').getByRole('radio').first().check();
    await v.page.getByLabel('Card number').fill('4242424242424242');
    await v.page.getByLabel('Expiry (MM/YY)').fill('12/34');
    await v.page.getByLabel('Security code (CVC)').fill('123');
    await Promise.all([v.page.waitForURL(/\/commerce\/orders\/[^/]+\/confirmed$/), v.page.getByRole('button', { name: 'Place order' }).click()]);
    await waitForBoot(v.page);
    const heading = v.page.getByText(/Order #\d+/).first();
    await heading.waitFor();
    const number = Number(/Order #(\d+)/.exec((await heading.textContent()) ?? '')![1]);
    expect(await v.page.locator('.sf-order-line').first().textContent()).toContain('Classic Tee');
    expect(await axeViolations(v.page)).toEqual([]);
    await viewportShot(v.page, 'express-checkout-2-confirmed');

    expect(await teeStock('TEE-M')).toBe(stockBefore - 1);
    const list = await orders();
    expect(list).toHaveLength(ordersBefore + 1);
    expect(list.find((o) => o.orderNumber === number)).toMatchObject({ email: 'eve@example.com', status: 'paid', testMode: true });
    // The express cart was the visitor's only cart: the main cart was never made.
    expect(await visit(v.page, '/cart')).toBe(200);
    await waitForBoot(v.page);
    expect(await v.page.locator('.sf-cart-empty').isVisible()).toBe(true);
  });
});
