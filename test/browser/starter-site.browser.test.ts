// A new shop owner's first purchase on the starter of `quire new` (renderer/preview/new-site.ts),
// in Chromium against the real server: every page a shop needs (home, shop, a product with
// variants, cart, checkout, order confirmed, not found) renders, hydrates and passes axe; a tote
// in Natural goes through the cart to checkout, which offers the starter's shipping option and
// the test card, and the order is placed, its stock one lower and its receipt mailed in the
// shop's name. The starter offered only paying offline, no shipping option under a filled
// address, and a receipt "from our shop"; its product page showed each variant twice, Add To
// Cart as plain text, and Quick View below the footer.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { writeStarterSite } from '../../renderer/preview/new-site.ts';
import { axeViolations } from './support/axe.ts';
import { useMailSink } from './support/mail.ts';
import { useBrowserTier } from './support/tier.ts';
import { pageContext, visit, waitForBoot } from './support/visit.ts';

const chromiumPath = inject('chromiumPath');
const starterDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'quire-starter-browser-')), 'my-shop');
const written = writeStarterSite(starterDir);
if (!written.ok) throw new Error(written.error);

describe.skipIf(!chromiumPath)(`the quire new starter in Chromium${chromiumPath ? '' : ` (skipped: ${inject('browserSkipReason')})`}`, () => {
  // The owner ships to the United States only (its option names its countries).
  const tier = useBrowserTier(chromiumPath!, {
    siteDir: starterDir,
    seed: (catalog) => {
      const commerce = catalog.site.settings!.commerce!;
      commerce.shippingOptions = commerce.shippingOptions!.map((option) => ({ ...option, countries: ['US'] }));
      return catalog;
    },
  });
  const mail = useMailSink(tier);

  afterAll(() => {
    fs.rmSync(path.dirname(starterDir), { recursive: true, force: true });
  });

  const toteStock = async (sku: string) => {
    const response = await tier.server.app.inject('/api/commerce/inventory/stock?itemId=tote');
    const { results } = response.json() as { results: Array<{ sku: string; qtyInStock: number }> };
    return results.find((r) => r.sku === sku)!.qtyInStock;
  };

  test("every page a shop needs renders and hydrates, with no serious or critical axe finding on a laptop and a phone; an unknown path is the starter's 404", async () => {
    const v = await tier.newVisitor();
    v.allowConsoleError(/status of 404/);
    const pages: Array<[string, number, number | undefined]> = [
      ['/', 200, 2],
      ['/shop', 200, 1],
      ['/shop/tote', 200, 50],
      ['/journal', 200, 1],
      ['/contact', 200, 2],
      ['/cart', 200, 200],
      ['/no-such-page', 404, 100],
    ];
    for (const [url, status, pageType] of pages) {
      expect(await visit(v.page, url), url).toBe(status);
      await waitForBoot(v.page);
      if (pageType !== undefined) expect((await pageContext(v.page)).pageType, url).toBe(pageType);
      expect(await axeViolations(v.page), url).toEqual([]);
      await v.screenshot(`starter-${url === '/' ? 'home' : url.slice(1).replaceAll('/', '-')}`);
      // And on a phone.
      await v.page.setViewportSize({ width: 390, height: 844 });
      expect(await axeViolations(v.page), `${url} at 390 px`).toEqual([]);
      await v.page.setViewportSize({ width: 1100, height: 900 });
    }
  });

  test('the product page offers each variant once, its buttons look like buttons, and Quick View opens over the shop', async () => {
    const v = await tier.newVisitor();
    const page = v.page;
    expect(await visit(page, '/shop/tote')).toBe(200);
    await waitForBoot(page);
    // One control per option (the radios duplicated the select), and a filled Add To Cart.
    expect(await page.locator('.product-variants select[data-variant-option-name="Colour"]').isVisible()).toBe(true);
    expect(await page.locator('.variant-radiobtn-wrapper').isVisible()).toBe(false);
    expect(await fill(page, '.sqs-add-to-cart-button')).not.toBe('rgba(0, 0, 0, 0)');

    expect(await visit(page, '/shop')).toBe(200);
    await waitForBoot(page);
    expect(await fill(page, '.sqs-product-quick-view-button')).not.toBe('rgba(0, 0, 0, 0)');
    await page.locator('.sqs-product-quick-view-button').first().click();
    const dialog = page.getByRole('dialog', { name: 'Stoneware Mug' });
    await dialog.waitFor();
    // Over the page, not drawn in the flow below the footer: the site title's corner is covered.
    const covered = await page.evaluate(() => document.elementFromPoint(5, 5)?.closest('.sf-quick-view') !== null);
    expect(covered).toBe(true);
    const box = (await dialog.boundingBox())!;
    const size = page.viewportSize()!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(size.height);
    expect(await axeViolations(page)).toEqual([]);
    await v.screenshot('starter-quick-view');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  /** The element's background colour: a button the starter styles is filled, not transparent. */
  const fill = (page: Page, selector: string) => page.locator(selector).first().evaluate((element) => getComputedStyle(element).backgroundColor);

  /** A tote in Natural, added on its page, then the cart's Checkout. */
  async function toteToCheckout(page: Page): Promise<void> {
    expect(await visit(page, '/shop/tote')).toBe(200);
    await page.selectOption('.product-variants select[data-variant-option-name="Colour"]', 'Natural');
    await Promise.all([
      page.waitForResponse((r) => new URL(r.url()).pathname === '/api/commerce/shopping-cart/entries' && r.status() === 200),
      page.click('.sqs-add-to-cart-button'),
    ]);
    expect(await visit(page, '/cart')).toBe(200);
    await page.locator('.sf-cart-page').getByText('Canvas Tote').first().waitFor();
    // The Remove column's header is named for screen readers (axe: empty-table-header) and hidden on screen.
    expect(await axeViolations(page, '.sf-cart-entries', { everyImpact: true })).toEqual([]);
    expect(await page.getByRole('columnheader', { name: 'Remove' }).evaluate((th) => th.querySelector('.visually-hidden')!.getBoundingClientRect().width)).toBeLessThanOrEqual(1);
    await Promise.all([page.waitForURL(/\/checkout\?cartToken=/), page.getByRole('link', { name: 'Checkout' }).click()]);
    await waitForBoot(page);
    await page.locator('[data-island="checkout"][data-checkout-state="ready"]').waitFor();
  }

  async function fillAddress(page: Page, address: { city: string; region: string; postalCode: string; country: string }): Promise<void> {
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByLabel('First name').fill('Ada');
    await page.getByLabel('Last name').fill('Lovelace');
    await page.getByRole('textbox', { name: /^Address/ }).fill('1 Analytical Way');
    await page.getByLabel('City').fill(address.city);
    await page.getByLabel('State / region').fill(address.region);
    await page.getByLabel('Postal code').fill(address.postalCode);
    await page.getByLabel('Country').selectOption(address.country);
    await Promise.all([page.waitForResponse((r) => new URL(r.url()).pathname === '/api/commerce/checkout/quote'), page.getByLabel('Country').press('Tab')]);
  }

  const card = async (page: Page) => {
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry (MM/YY)').fill('12/34');
    await page.getByLabel('Security code (CVC)').fill('123');
  };

  test('an address the shop does not ship to is said at the shipping field, and no order is placed', async () => {
    const v = await tier.newVisitor();
    v.allowConsoleError(/status of 400/);
    const before = await tier.server.store.read.orders.list('my-shop', null, 10);
    await toteToCheckout(v.page);
    await fillAddress(v.page, { city: 'London', region: 'London', postalCode: 'SW1A 1AA', country: 'GB' });
    // Said once the address is priced, before Place order (it said "Enter your shipping address
    // to see the shipping options" under the filled address).
    const shipping = v.page.locator('.sf-checkout-shipping');
    await shipping.getByText('We do not ship to that address.').waitFor();
    expect(await shipping.textContent()).not.toContain('Enter your shipping address');
    await card(v.page);
    await v.page.getByRole('button', { name: 'Place order' }).click();
    await shipping.locator('.field-error').getByText('We do not ship to that address.').waitFor();
    expect(await shipping.getByText('We do not ship to that address.').count()).toBe(1);
    expect(v.page.url()).toContain('/checkout?cartToken=');
    expect(await tier.server.store.read.orders.list('my-shop', null, 10)).toHaveLength(before.length);
    await v.screenshot('starter-no-shipping-to-address');
  });

  test('a tote in Natural bought with the test card and the Standard shipping: Order #, stock one lower, a receipt from My Shop', async () => {
    const v = await tier.newVisitor();
    const page = v.page;
    const before = await toteStock('TOTE-NAT');
    await toteToCheckout(page);
    expect(await axeViolations(page)).toEqual([]);
    await fillAddress(page, { city: 'Springfield', region: 'IL', postalCode: '62701', country: 'US' });
    const standard = page.locator('.sf-checkout-shipping').getByRole('radio', { name: /Standard/ });
    await standard.waitFor();
    await standard.check();
    expect(await page.locator('.sf-checkout-shipping').textContent()).toContain('$5.00');
    await card(page);
    // The header's count set apart from "Cart" (it read "Cart1"), and Place order a filled button.
    await page.locator('.sf-cart-link-count').waitFor();
    expect(await page.locator('.sf-cart-link').textContent()).toBe('Cart1');
    expect(await page.locator('.sf-cart-link-count').evaluate((element) => getComputedStyle(element).marginLeft)).not.toBe('0px');
    expect(await fill(page, '.sf-checkout-place')).not.toBe('rgba(0, 0, 0, 0)');
    expect(await axeViolations(page)).toEqual([]);
    await v.screenshot('starter-checkout-filled');

    await Promise.all([page.waitForURL(/\/commerce\/orders\/[^/]+\/confirmed$/), page.getByRole('button', { name: 'Place order' }).click()]);
    await waitForBoot(page);
    const heading = page.getByText(/Order #\d+/).first();
    await heading.waitFor();
    const number = Number(/Order #(\d+)/.exec((await heading.textContent()) ?? '')![1]);
    expect((await pageContext(page)).pageType).toBe(202);
    expect(await axeViolations(page)).toEqual([]);
    await v.screenshot('starter-order-confirmed');
    expect(await toteStock('TOTE-NAT')).toBe(before - 1);

    const [receipt] = await mail.delivered(1);
    expect(receipt!.to).toEqual(['ada@example.com']);
    expect(receipt!.raw).toContain(`Subject: Your order #${number} from My Shop`);
  });
});
