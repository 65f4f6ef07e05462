// A store that is not en-US/USD, walked by a visitor in Chromium: the demo site in Japanese
// (`ja-JP`) selling in yen (JPY, no minor unit), with the site's CLDR money format on. Every
// amount the visitor meets, from the product page's per-variant prices through the pill
// cart, the cart page, the checkout, the order confirmation and the receipt, is in yen with no
// decimals, no dollar sign and no NaN; the text the server writes and the text an island writes
// for the same amount agree (no flash from one to the other); the order charges the yen the
// page showed; `<html lang>` is the site's; axe finds nothing serious. A test-local copy of the
// demo folder (only its site.json locale changed); the catalogue's currency is the seed's.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, inject, test } from 'vitest';
import { axeViolations } from './support/axe.ts';
import { useMailSink } from './support/mail.ts';
import { DEMO_SITE } from './support/storefront.ts';
import { useBrowserTier } from './support/tier.ts';
import { fillCheckout, pageContext, visit, waitForBoot } from './support/visit.ts';

const chromiumPath = inject('chromiumPath');

/** A copy of the demo site folder whose site.json says `locale`. */
function demoIn(locale: string): string {
  const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), `quire-${locale.toLowerCase()}-`)), 'shop');
  fs.cpSync(DEMO_SITE, dir, { recursive: true });
  const siteJson = JSON.parse(fs.readFileSync(path.join(dir, 'site.json'), 'utf8')) as Record<string, unknown>;
  fs.writeFileSync(path.join(dir, 'site.json'), JSON.stringify({ ...siteJson, locale }, null, 2));
  return dir;
}
const siteDir = demoIn('ja-JP');
const hebrewSiteDir = demoIn('he-IL');

/** Any sign of another currency or a broken amount in a text. */
const FOREIGN = /\$|€|£|NaN|undefined|Infinity/;
/** A yen amount written with a minor unit (`¥2,500.00`, `2,500.00`). */
const YEN_DECIMALS = /[¥￥]\s?[\d,]+\.\d|[\d,]+\.\d\d\b/;

/** The text of every element matching `selector`, trimmed, whitespace collapsed. */
const texts = (page: Page, selector: string) =>
  page.locator(selector).evaluateAll((elements) => elements.map((el) => (el.textContent ?? '').replace(/\s+/g, ' ').trim()));

/** Every text of the page's main content and the pill cart, for the whole-page checks. */
const pageText = (page: Page) => page.evaluate(() => (document.body.innerText ?? '').replace(/\s+/g, ' '));

/** The amount as the browser's Intl writes it in the site's locale: the CLDR money format's text. */
const intlYen = (page: Page, amount: number) =>
  page.evaluate((n) => new Intl.NumberFormat('ja-JP', { style: 'currency', currency: 'JPY' }).format(n), amount);

describe.skipIf(!chromiumPath)(`a ja-JP store selling in JPY in Chromium${chromiumPath ? '' : ` (skipped: ${inject('browserSkipReason')})`}`, () => {
  const tier = useBrowserTier(chromiumPath!, {
    siteDir,
    seed: (catalog) => {
      const settings = catalog.site.settings!;
      settings.currency = 'JPY';
      settings.flags = { ...settings.flags, useCLDRMoneyFormat: true };
      // The restock box without the captcha: its sign-up is the point here, not the captcha.
      settings.captcha = { ...settings.captcha!, siteKey: null };
      return catalog;
    },
  });
  const mail = useMailSink(tier);

  afterAll(() => {
    fs.rmSync(path.dirname(siteDir), { recursive: true, force: true });
  });

  test('LOC-1 the product page: lang ja-JP, every price in yen with no decimals, the server text and the variant island text the same', async () => {
    const v = await tier.newVisitor();
    const page = v.page;
    // The server's HTML as it arrives, before any island runs.
    const served = await (await page.request.get('/shop/tee')).text();
    expect(served).toContain('<html lang="ja-JP">');
    const servedPrice = /<div class="product-price">\s*([\s\S]*?)<\/div>/.exec(served)![1]!.replace(/<[^>]+>/g, '').replace(/\s+/g, ' ').trim();
    expect(await visit(page, '/shop/tee')).toBe(200);
    expect(await page.getAttribute('html', 'lang')).toBe('ja-JP');
    const price = page.locator('.sf-product .product-price');
    const shown = async () => ((await price.textContent()) ?? '').replace(/\s+/g, ' ').trim();
    // Hydrated, nothing chosen: the server's text stays (no flash to another format).
    expect(await shown()).toBe(servedPrice);
    expect(servedPrice).toContain(await intlYen(page, 2000));

    const size = page.locator('.sf-product select[data-variant-option-name="Size"]');
    await size.selectOption('S');
    await expect.poll(shown).toBe(await intlYen(page, 2500));
    await size.selectOption('M');
    // On sale: 2,000 yen, was 2,500 (the visually hidden labels are read, not shown).
    await expect.poll(() => price.locator('.original-price').textContent()).toBe(await intlYen(page, 2500));
    expect(await shown()).toContain(await intlYen(page, 2000));
    await size.selectOption('');
    await expect.poll(shown).toBe(servedPrice);

    // Every amount of the page, the demo's own price list and the pay-later line included.
    const all = await pageText(page);
    expect(all).not.toMatch(FOREIGN);
    expect(all).not.toMatch(YEN_DECIMALS);
    expect(await texts(page, '.demo-pd-variants td:nth-child(3)')).toEqual([await intlYen(page, 2500), `${await intlYen(page, 2500)} ${await intlYen(page, 2000)}`, await intlYen(page, 2500)]);
    expect(await axeViolations(page)).toEqual([]);
    await v.screenshot('locale-ja-jp-product');
  });

  test('LOC-2 a tee bought in yen: pill cart, cart page, checkout, confirmation and receipt agree, in yen, and the order charges what they said', async () => {
    const v = await tier.newVisitor();
    const page = v.page;
    expect(await visit(page, '/shop/tee')).toBe(200);
    await page.selectOption('.sf-product select[data-variant-option-name="Size"]', 'M');
    // The pay-later line for the chosen tee: a quarter of 2,000 yen, no decimals.
    await expect.poll(() => page.locator('.sf-product .sf-bnpl-text').textContent()).toMatch(/¥500\b/);
    await Promise.all([
      page.waitForResponse((r) => new URL(r.url()).pathname === '/api/commerce/shopping-cart/entries' && r.status() === 200),
      page.click('.sf-product .sqs-add-to-cart-button'),
    ]);
    // The pill cart: the count and the subtotal the island writes.
    await expect.poll(() => page.locator('.sf-pill-cart-wrapper').getAttribute('data-state')).toBe('visible');
    expect(await page.locator('.sf-pill-count').textContent()).toBe('1');
    expect(await page.locator('.sf-pill-subtotal').textContent()).toBe('¥2,000');

    // The cart page: what the server wrote, then what the island writes after a quantity change.
    const served = await (await page.request.get('/cart')).text();
    expect(await visit(page, '/cart')).toBe(200);
    expect(await texts(page, '.sf-entry-price, .sf-entry-total')).toEqual(['¥2,000', '¥2,000']);
    expect(served).toContain('<td class="sf-entry-total">¥2,000</td>');
    const quantity = page.getByRole('spinbutton', { name: 'Quantity of Classic Tee' });
    await quantity.fill('2');
    await Promise.all([page.waitForResponse((r) => r.request().method() === 'PUT'), quantity.press('Enter')]);
    await expect.poll(() => page.locator('.sf-entry-total').textContent()).toBe('¥4,000');
    expect(await page.locator('.sf-cart-subtotal').textContent()).toContain('¥4,000');
    let all = await pageText(page);
    expect(all).not.toMatch(FOREIGN);
    expect(all).not.toMatch(YEN_DECIMALS);
    expect(await axeViolations(page)).toEqual([]);
    await v.screenshot('locale-ja-jp-cart');

    // The checkout: the server's totals, then the island's once an address is priced.
    await Promise.all([page.waitForURL(/\/checkout\?cartToken=/), page.getByRole('link', { name: 'Checkout' }).click()]);
    await waitForBoot(page);
    await page.locator('[data-island="checkout"][data-checkout-state="ready"]').waitFor();
    expect(await texts(page, '.sf-checkout-totals [data-total="subtotal"]')).toEqual(['¥4,000']);
    await fillCheckout(page, '4242 4242 4242 4242');
    // Standard shipping, 500 in the catalogue: ¥500 (free over 10,000); Springfield, IL has no tax rule.
    await expect.poll(() => texts(page, '.sf-checkout-totals dd')).toEqual(['¥4,000', '¥500', '¥0', '¥4,500']);
    all = await pageText(page);
    expect(all).not.toMatch(FOREIGN);
    expect(all).not.toMatch(YEN_DECIMALS);
    expect(await axeViolations(page)).toEqual([]);
    await v.screenshot('locale-ja-jp-checkout');

    await Promise.all([page.waitForURL(/\/commerce\/orders\/[^/]+\/confirmed$/), page.getByRole('button', { name: 'Place order' }).click()]);
    await waitForBoot(page);
    const number = Number(/Order #(\d+)/.exec((await page.locator('.sf-order-number').textContent()) ?? '')![1]);
    expect(await page.getAttribute('html', 'lang')).toBe('ja-JP');
    expect(await texts(page, '.sf-order-totals dd')).toEqual(['¥4,000', '¥500', '¥0', '¥4,500']);
    all = await pageText(page);
    expect(all).not.toMatch(FOREIGN);
    expect(all).not.toMatch(YEN_DECIMALS);
    expect(await axeViolations(page)).toEqual([]);
    await v.screenshot('locale-ja-jp-confirmed');

    // The order as stored and charged: yen, whole, as the pages said.
    const websiteId = (await pageContext(page)).websiteId as string;
    const placed = (await tier.server.store.read.orders.list(websiteId, null, 10)).find((o) => o.orderNumber === number)!;
    expect({ currency: placed.currency, subtotal: placed.subtotal, shipping: placed.shippingTotal, tax: placed.taxTotal, grand: placed.grandTotal }).toEqual({ currency: 'JPY', subtotal: 4000, shipping: 500, tax: 0, grand: 4500 });
    expect((await pageContext(page)).order).toMatchObject({ grandTotal: 4500, shippingTotal: 500, taxTotal: 0 });

    const [receipt] = await mail.delivered(1);
    // Every part of the mail (plain and HTML), its quoted-printable UTF-8 decoded.
    const body = Buffer.from(receipt!.raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8');
    expect(body).toContain('Subtotal: ¥4,000');
    expect(body).toContain('Shipping (Standard): ¥500');
    expect(body).toContain('¥4,500');
    expect(body).not.toMatch(FOREIGN);
    expect(body).not.toMatch(YEN_DECIMALS);
  });

  test('LOC-5 dates are written in Japanese by the server, and the booted page keeps them as served', async () => {
    const v = await tier.newVisitor();
    const page = v.page;
    for (const [url, expected] of [['/journal', /^2026年\d{1,2}月\d{1,2}日$/], ['/events', /^20\d\d年\d{1,2}月\d{1,2}日.曜日$/]] as const) {
      const served = [...(await (await page.request.get(url)).text()).matchAll(/<time datetime="[^"]+">([^<]+)<\/time>/g)].map((m) => m[1]!);
      expect(served.length, url).toBeGreaterThan(0);
      for (const text of served) expect(text, url).toMatch(expected);
      expect(await visit(page, url)).toBe(200);
      expect(await texts(page, 'time[datetime]'), url).toEqual(served);
    }
    expect(await axeViolations(page)).toEqual([]);
  });

  test('LOC-3 the restock box of a sold-out size signs the visitor up; the page keeps no foreign amount', async () => {
    const v = await tier.newVisitor();
    const page = v.page;
    expect(await visit(page, '/shop/tee')).toBe(200);
    await page.selectOption('.sf-product select[data-variant-option-name="Size"]', 'L');
    const box = page.locator('.product-restock-notification[data-variant-id="tee-l"]');
    await box.waitFor({ state: 'visible' });
    await box.locator('input[name="email"]').fill('kaori@example.com');
    await box.locator('input[type="submit"]').click();
    await box.getByText('Signed up!').waitFor();
    expect(await pageText(page)).not.toMatch(FOREIGN);
    expect(await axeViolations(page)).toEqual([]);
    await v.screenshot('locale-ja-jp-restock');
  });
});

// A right-to-left store: the demo in Hebrew (`he-IL`) selling in shekels (ILS), in the legacy
// money format (the site's default): the symbol from the renderer's CSS, two decimals.
describe.skipIf(!chromiumPath)(`a he-IL store selling in ILS in Chromium${chromiumPath ? '' : ` (skipped: ${inject('browserSkipReason')})`}`, () => {
  const tier = useBrowserTier(chromiumPath!, {
    siteDir: hebrewSiteDir,
    seed: (catalog) => {
      catalog.site.settings!.currency = 'ILS';
      return catalog;
    },
  });

  afterAll(() => {
    fs.rmSync(path.dirname(hebrewSiteDir), { recursive: true, force: true });
  });

  /** The legacy price text as seen: the CSS symbol and the span's number. */
  const shownPrice = (page: Page) =>
    page.locator('.sf-product .product-price .sqs-money-native').first().evaluate((span) => `${getComputedStyle(span, '::before').content.replaceAll('"', '')}${span.textContent}`);

  test('LOC-4 the pages are right to left (dir="rtl"); a tee bought in shekels: product, pill, cart, checkout and confirmation in ₪, no page wider than the window, axe clean', async () => {
    const v = await tier.newVisitor();
    const page = v.page;
    expect(await visit(page, '/shop/tee')).toBe(200);
    // They were lang="he-IL" and laid out left to right.
    expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir, getComputedStyle(document.body).direction])).toEqual(['he-IL', 'rtl', 'rtl']);
    await page.selectOption('.sf-product select[data-variant-option-name="Size"]', 'S');
    await expect.poll(() => shownPrice(page)).toBe('₪25.00');
    await page.selectOption('.sf-product select[data-variant-option-name="Size"]', 'M');
    await expect.poll(() => page.locator('.sf-product .sf-bnpl-text').textContent()).toBe('or 4 interest-free payments of ₪5.00 with');
    expect(await pageText(page)).not.toMatch(FOREIGN);
    expect(await axeViolations(page)).toEqual([]);
    const sideways = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(await sideways()).toBeLessThanOrEqual(0);
    await v.screenshot('locale-he-il-product');
    await Promise.all([
      page.waitForResponse((r) => new URL(r.url()).pathname === '/api/commerce/shopping-cart/entries' && r.status() === 200),
      page.click('.sf-product .sqs-add-to-cart-button'),
    ]);
    await expect.poll(() => page.locator('.sf-pill-cart-wrapper').getAttribute('data-state')).toBe('visible');
    expect(await page.locator('.sf-pill-subtotal').textContent()).toBe('₪20.00');

    expect(await visit(page, '/cart')).toBe(200);
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    expect(await texts(page, '.sf-entry-price, .sf-entry-total')).toEqual(['₪20.00', '₪20.00']);
    expect(await pageText(page)).not.toMatch(FOREIGN);
    expect(await axeViolations(page)).toEqual([]);
    expect(await sideways()).toBeLessThanOrEqual(0);
    await v.screenshot('locale-he-il-cart');

    await Promise.all([page.waitForURL(/\/checkout\?cartToken=/), page.getByRole('link', { name: 'Checkout' }).click()]);
    await waitForBoot(page);
    await page.locator('[data-island="checkout"][data-checkout-state="ready"]').waitFor();
    await fillCheckout(page, '4242 4242 4242 4242');
    await expect.poll(() => texts(page, '.sf-checkout-totals dd')).toEqual(['₪20.00', '₪5.00', '₪0.00', '₪25.00']);
    expect(await pageText(page)).not.toMatch(FOREIGN);
    expect(await axeViolations(page)).toEqual([]);
    expect(await sideways()).toBeLessThanOrEqual(0);
    await v.screenshot('locale-he-il-checkout');
    await Promise.all([page.waitForURL(/\/commerce\/orders\/[^/]+\/confirmed$/), page.getByRole('button', { name: 'Place order' }).click()]);
    await waitForBoot(page);
    expect(await texts(page, '.sf-order-totals dd')).toEqual(['₪20.00', '₪5.00', '₪0.00', '₪25.00']);
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    expect(await axeViolations(page)).toEqual([]);
    await v.screenshot('locale-he-il-confirmed');
  });
});

