// From cart to a confirmed, paid order (issue 15) in Debian's Chromium against the real server on
// the demo site: choose a variant, add it, open the cart, press Checkout, fill the labelled
// fields, take the first shipping option, pay with the test card, Place order. The order page
// says "Order #…", the variant's stock is one lower, the owner's order list has the order, and
// the receipt reaches an in-process SMTP server through the outbox worker. The digital poster's
// confirmation page links its file, which downloads as the PDF. A declined card is
// said next to the card field and makes no order. What was entered survives a reload and a
// trip back to the cart, never the card. An order placed from a second tab is linked from
// the first, which places nothing again; a line swapped in a second tab at the same total is
// refused with the focus on "Your cart changed…" and the new line shown, then ordered; the last
// candle bought by another shopper meanwhile is said with the focus and at its line, charging nothing; a cap the
// owner removes from the catalogue while it is in the cart is said to be no longer available (cart page, checkout,
// Place order refused, nothing charged), and once removed the tee is ordered alone; Place order
// double-clicked sends one request (one order, one receipt), and a reload of its page places none. A mistyped coupon re-sent with every change is never
// limited; past the coupon guess limit a new code is refused at its field. A shop whose offline
// orders hold 1 unit says so at the offline choice of a two-tee cart before any press, and the
// card pays. Axe on the checkout page (desktop and phone, and with that sentence shown) and the order pages.
import { readFile } from 'node:fs/promises';
import type { Locator, Page, Response } from 'playwright-core';
import { describe, expect, inject, test } from 'vitest';
import { axeViolations } from './support/axe.ts';
import { NARROW_WINDOWS, viewportShot } from './support/chromium.ts';
import { ADMIN_TOKEN, DEMO_SITE } from './support/storefront.ts';
import { loadSite } from '../../renderer/site/load-site.ts';
import { syncSiteContent } from '../../renderer/store/site-sync.ts';
import { useMailSink } from './support/mail.ts';
import { useBrowserTier } from './support/tier.ts';
import { addTeeToCart, fillCheckout, holdIslands, pageContext, pressCheckout, teeToCheckout, visit, waitForBoot } from './support/visit.ts';

/** Presses Place order and returns the place request's answer. */
async function pressPlaceOrder(page: Page): Promise<Response> {
  const [answer] = await Promise.all([
    page.waitForResponse((r) => new URL(r.url()).pathname === '/api/commerce/checkout/place'),
    page.getByRole('button', { name: 'Place order' }).click(),
  ]);
  return answer;
}

const chromiumPath = inject('chromiumPath');
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

describe.skipIf(!chromiumPath)(`checkout in Chromium${chromiumPath ? '' : ` (skipped: ${inject('browserSkipReason')})`}`, () => {
  const tier = useBrowserTier(chromiumPath!);
  const mail = useMailSink(tier);

  const api = async (url: string, admin = false) => {
    const response = await tier.server.app.inject({ method: 'GET', url, headers: admin ? { authorization: `Bearer ${ADMIN_TOKEN}` } : {} });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as Record<string, unknown>;
  };
  const teeStock = async (sku: string) => {
    const { results } = (await api('/api/commerce/inventory/stock?itemId=tee')) as { results: Array<{ sku: string; qtyInStock: number }> };
    return results.find((r) => r.sku === sku)!.qtyInStock;
  };
  const orders = async () => ((await api('/api/commerce/orders?limit=50', true)) as { orders: Array<Record<string, unknown>> }).orders;

  /** The visitor's way in: the tee in S, added, the cart page, its Checkout button. */
  async function toCheckout(page: Page): Promise<void> {
    await teeToCheckout(page, 'S');
    expect((await pageContext(page)).pageType).toBe(201);
  }

  /** The checkout page at a viewport size, checked by axe (no serious or critical finding) and shot. */
  async function checkoutAt(page: Page, size: { width: number; height: number }, shot: string): Promise<void> {
    await toCheckout(page);
    await page.setViewportSize(size);
    expect(await axeViolations(page)).toEqual([]);
    await viewportShot(page, shot);
  }

  test('a tee bought with the test card: Order #, stock one lower, in the owner list, receipt delivered', async () => {
    const v = await tier.newVisitor();
    const stockBefore = await teeStock('TEE-S');
    const ordersBefore = (await orders()).length;
    await checkoutAt(v.page, DESKTOP, 'checkout-1-desktop');
    await fillCheckout(v.page, '4242 4242 4242 4242');
    await v.screenshot('checkout-2-filled');

    // Keyboard: focus Place order and press Enter.
    await v.page.getByRole('button', { name: 'Place order' }).focus();
    await Promise.all([v.page.waitForURL(/\/commerce\/orders\/[^/]+\/confirmed$/), v.page.keyboard.press('Enter')]);
    await waitForBoot(v.page);
    const heading = v.page.getByText(/Order #\d+/).first();
    await heading.waitFor();
    const number = Number(/Order #(\d+)/.exec((await heading.textContent()) ?? '')![1]);
    expect(await v.page.locator('.sf-order-line').first().textContent()).toContain('Classic Tee');
    const context = await pageContext(v.page);
    expect(context.pageType).toBe(202);
    // A test-card order is testMode: the page carries the seed's order fields, and A12.5 sends no purchase hit.
    expect(context.order).toMatchObject({ testMode: true, items: [expect.objectContaining({ sku: 'TEE-S', quantity: 1 })] });
    expect(Object.keys(context.order as object).sort()).toEqual(['grandTotal', 'id', 'items', 'purchasedCartId', 'shippingTotal', 'taxTotal', 'testMode', 'websiteId']);
    expect(await axeViolations(v.page)).toEqual([]);
    await v.screenshot('checkout-3-confirmed');

    // Back returns to the bought cart's checkout, which sends the buyer to this order again (it was a 404).
    const confirmed = v.page.url();
    const back = await v.page.goBack();
    expect(new URL(back!.request().redirectedFrom()!.url()).pathname).toBe('/checkout');
    expect(v.page.url()).toBe(confirmed);
    await v.page.getByText(`Order #${number}`).first().waitFor();

    expect(await teeStock('TEE-S')).toBe(stockBefore - 1);
    const list = await orders();
    expect(list).toHaveLength(ordersBefore + 1);
    const placed = list.find((o) => o.orderNumber === number)!;
    expect(placed).toMatchObject({ email: 'ada@example.com', status: 'paid', testMode: true });

    const [receipt] = await mail.delivered(1);
    expect(receipt!.to).toEqual(['ada@example.com']);
    expect(receipt!.raw).toContain(`#${number}`);
  });

  test('a declined card is said next to the card field and makes no order; phone layout and axe', async () => {
    const v = await tier.newVisitor();
    // Chromium logs the 402 answer as a failed resource load.
    v.allowConsoleError(/status of 402/);
    const stockBefore = await teeStock('TEE-S');
    const ordersBefore = (await orders()).length;
    await checkoutAt(v.page, PHONE, 'checkout-phone-1');
    await fillCheckout(v.page, '4000000000000002');
    const answer = await pressPlaceOrder(v.page);
    expect(answer.status()).toBe(402);
    const cardNumber = v.page.getByLabel('Card number');
    await expect.poll(() => cardNumber.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await cardNumber.getAttribute('aria-describedby'))!;
    expect(await v.page.locator(`#${describedBy}`).textContent()).toBe('Your card was declined.');
    expect(await v.page.evaluate(() => document.activeElement?.id)).toBe('sf-checkout-card-number');
    // The field fits the phone's width.
    const box = (await cardNumber.boundingBox())!;
    expect(box.x >= 0 && box.x + box.width <= PHONE.width).toBe(true);
    expect(await axeViolations(v.page)).toEqual([]);
    await viewportShot(v.page, 'checkout-phone-2-declined');
    expect(new URL(v.page.url()).pathname).toBe('/checkout');
    expect(await teeStock('TEE-S')).toBe(stockBefore);
    expect(await orders()).toHaveLength(ordersBefore);
  });

  test('an over-long address part is said next to its field with its limit, by the island before sending and by the server alike; no order', async () => {
    const v = await tier.newVisitor();
    v.allowConsoleError(/status of 400/);
    const ordersBefore = (await orders()).length;
    await toCheckout(v.page);
    await fillCheckout(v.page, '4242 4242 4242 4242');
    const places: string[] = [];
    v.page.on('request', (r) => new URL(r.url()).pathname === '/api/commerce/checkout/place' && places.push(r.method()));
    const line1 = v.page.getByRole('textbox', { name: /^Address/ });
    await line1.fill('1 Analytical Way '.repeat(12));
    await v.page.getByRole('button', { name: 'Place order' }).click();
    await expect.poll(() => line1.getAttribute('aria-invalid')).toBe('true');
    expect(await v.page.locator(`#${await line1.getAttribute('aria-describedby')}`).textContent()).toBe('The street address can be at most 200 characters.');
    expect(places).toEqual([]);
    await v.screenshot('checkout-address-too-long-1-island');

    // The server's own answer, for a line the island let through (the request is lengthened on its
    // way out): the same sentence, next to the apartment line.
    await line1.fill('1 Analytical Way');
    await v.page.route('**/api/commerce/checkout/place', async (route) => {
      const body = JSON.parse(route.request().postData()!);
      body.shippingAddress.line2 = 'z'.repeat(5000);
      await route.continue({ postData: JSON.stringify(body) });
    });
    const answer = await pressPlaceOrder(v.page);
    expect(answer.status()).toBe(400);
    const line2 = v.page.getByLabel('Apartment, suite, etc. (optional)');
    await expect.poll(() => line2.getAttribute('aria-invalid')).toBe('true');
    expect(await v.page.locator(`#${await line2.getAttribute('aria-describedby')}`).textContent()).toBe('The apartment or suite line can be at most 200 characters.');
    await v.screenshot('checkout-address-too-long-2-server');
    expect(await orders()).toHaveLength(ordersBefore);
  });

  test('keyboard only on a phone: Tab through every field in page order, arrows choose the option, Enter places the order', async () => {
    const v = await tier.newVisitor();
    await toCheckout(v.page);
    await v.page.setViewportSize(PHONE);
    const { keyboard } = v.page;
    const focusedLabel = () =>
      v.page.evaluate(() => {
        const el = document.activeElement as HTMLInputElement | null;
        return (el?.labels?.[0]?.textContent ?? el?.textContent ?? '').trim();
      });
    await v.page.getByLabel('Email').focus();
    const typed: Array<[string, string]> = [
      ['Email *', 'kay@example.com'],
      ['First name *', 'Kay'],
      ['Last name *', 'Board'],
      ['Address *', '2 Key St'],
      ['Apartment, suite, etc. (optional)', ''],
      ['City *', 'Albany'],
      ['State / region *', 'NY'],
      ['Postal code *', '12207'],
    ];
    for (const [label, text] of typed) {
      expect(await focusedLabel()).toBe(label);
      if (text) await keyboard.type(text);
      await keyboard.press('Tab');
    }
    expect(await focusedLabel()).toBe('Country *');
    await Promise.all([v.page.waitForResponse((r) => new URL(r.url()).pathname === '/api/commerce/checkout/quote'), (async () => {
      await keyboard.type('United S');
      await keyboard.press('Tab');
    })()]);
    // Focus is on the chosen (first) shipping option; ArrowDown moves to Express and prices it.
    await expect.poll(focusedLabel).toMatch(/^Standard/);
    await Promise.all([v.page.waitForResponse((r) => new URL(r.url()).pathname === '/api/commerce/checkout/quote'), keyboard.press('ArrowDown')]);
    await expect.poll(() => v.page.locator('[data-total="shipping"]').textContent()).toBe('$15.00');
    await keyboard.press('Tab');
    expect(await focusedLabel()).toBe('Coupon code');
    await keyboard.type('WELCOME10');
    await Promise.all([v.page.waitForResponse((r) => new URL(r.url()).pathname === '/api/commerce/checkout/quote'), keyboard.press('Enter')]);
    await v.page.locator('.sf-coupon-valid').waitFor();
    expect(new URL(v.page.url()).pathname).toBe('/checkout');
    await keyboard.press('Tab'); // Apply
    await keyboard.press('Tab'); // Remove coupon
    await keyboard.press('Tab'); // the chosen payment method
    expect(await focusedLabel()).toBe('Card (test mode)');
    for (const [label, text] of [['Card number *', '4242424242424242'], ['Expiry (MM/YY) *', '1230'], ['Security code (CVC) *', '999']]) {
      await keyboard.press('Tab');
      expect(await focusedLabel()).toBe(label);
      await keyboard.type(text!);
    }
    await keyboard.press('Tab');
    expect(await focusedLabel()).toBe('Place order');
    await viewportShot(v.page, 'checkout-phone-3-keyboard');
    await Promise.all([v.page.waitForURL(/\/commerce\/orders\/[^/]+\/confirmed$/), keyboard.press('Enter')]);
    await waitForBoot(v.page);
    expect(await v.page.getByText(/Order #\d+/).first().isVisible()).toBe(true);
    expect(await axeViolations(v.page)).toEqual([]);
    await viewportShot(v.page, 'checkout-phone-4-confirmed');
  });

  test('a gift card through the same island: no address asked, the code on the confirmation page', async () => {
    const v = await tier.newVisitor();
    expect(await visit(v.page, '/shop/gift-card')).toBe(200);
    await v.page.selectOption('.product-variants select', '$50.00');
    await Promise.all([v.page.waitForURL(/\/checkout\/gift-card\?/), v.page.click('.sqs-add-to-cart-button')]);
    await waitForBoot(v.page);
    await v.page.locator('[data-island="checkout"][data-checkout-state="ready"]').waitFor();
    expect(await v.page.locator('.sf-checkout-address').count()).toBe(0);
    expect(await v.page.locator('[data-total="grand"]').textContent()).toBe('$50.00');
    await v.page.getByLabel('Email').fill('giver@example.com');
    await v.page.getByLabel('Card number').fill('5555 5555 5555 4444');
    await v.page.getByLabel('Expiry (MM/YY)').fill('01/33');
    await v.page.getByLabel('Security code (CVC)').fill('321');
    await Promise.all([v.page.waitForURL(/\/commerce\/orders\/[^/]+\/confirmed$/), v.page.getByRole('button', { name: 'Place order' }).click()]);
    await waitForBoot(v.page);
    expect(await v.page.getByText(/Order #\d+/).first().isVisible()).toBe(true);
    expect(await v.page.locator('.sf-order-gift-cards code').count()).toBe(1);
    expect(await axeViolations(v.page)).toEqual([]);
    await v.screenshot('checkout-5-gift-card');
  });

  test('the digital poster bought with the test card: no address asked, a download link on the confirmation page that gives the PDF', async () => {
    const v = await tier.newVisitor();
    expect(await visit(v.page, '/shop/poster')).toBe(200);
    await Promise.all([
      v.page.waitForResponse((r) => new URL(r.url()).pathname === '/api/commerce/shopping-cart/entries' && r.status() === 200),
      v.page.click('.sqs-add-to-cart-button'),
    ]);
    expect(await visit(v.page, '/cart')).toBe(200);
    await pressCheckout(v.page);
    expect(await v.page.locator('.sf-checkout-address').count()).toBe(0);
    // Nothing to collect: paying offline is offered as a bank transfer, no pickup.
    expect(await v.page.getByRole('radio', { name: 'Pay offline (bank transfer)', exact: true }).count()).toBe(1);
    expect(await v.page.locator('[data-island="checkout"]').textContent()).not.toContain('pickup');
    await v.page.getByLabel('Email').fill('reader@example.com');
    await v.page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await v.page.getByLabel('Expiry (MM/YY)').fill('12/34');
    await v.page.getByLabel('Security code (CVC)').fill('123');
    await Promise.all([v.page.waitForURL(/\/commerce\/orders\/[^/]+\/confirmed$/), v.page.getByRole('button', { name: 'Place order' }).click()]);
    await waitForBoot(v.page);
    const link = v.page.getByRole('link', { name: 'Download Poster (digital)' });
    await link.waitFor();
    expect(await v.page.locator('.sf-order-page').textContent()).not.toMatch(/ship/i);
    expect(await axeViolations(v.page)).toEqual([]);
    await v.screenshot('checkout-6-digital');

    // Clicked, the browser saves the file under its own name.
    const [download] = await Promise.all([v.page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toBe('poster.pdf');
    const saved = await download.createReadStream();
    const chunks: Buffer[] = [];
    for await (const chunk of saved) chunks.push(chunk as Buffer);
    const poster = await readFile(new URL('../../fixtures/sites/demo/downloads/poster.pdf', import.meta.url));
    expect(Buffer.concat(chunks).equals(poster)).toBe(true);
    // Fetched by the page, the answer is the file: a PDF attachment nobody caches.
    const href = (await link.getAttribute('href'))!;
    const fetched = await v.page.evaluate(async (url) => {
      const response = await fetch(url);
      const bytes = new Uint8Array(await response.arrayBuffer());
      return { status: response.status, type: response.headers.get('content-type'), disposition: response.headers.get('content-disposition'), cache: response.headers.get('cache-control'), length: bytes.length, head: String.fromCharCode(...bytes.slice(0, 5)) };
    }, href);
    expect(fetched).toEqual({ status: 200, type: 'application/pdf', disposition: `attachment; filename="poster.pdf"; filename*=UTF-8''poster.pdf`, cache: 'private, no-store', length: poster.length, head: '%PDF-' });
  });

  test('a subscription through the same island ends on subscription confirmed (206) with its period', async () => {
    const v = await tier.newVisitor();
    expect(await visit(v.page, '/shop/coffee-club')).toBe(200);
    await Promise.all([v.page.waitForURL(/\/checkout\/subscription\?cartToken=/), v.page.click('.sqs-add-to-cart-button')]);
    await waitForBoot(v.page);
    await v.page.locator('[data-island="checkout"][data-checkout-state="ready"]').waitFor();
    await fillCheckout(v.page, '378282246310005');
    await v.page.getByLabel('Security code (CVC)').fill('1234');
    await Promise.all([v.page.waitForURL(/\/commerce\/orders\/[^/]+\/subscription-confirmed$/), v.page.getByRole('button', { name: 'Place order' }).click()]);
    await waitForBoot(v.page);
    expect((await pageContext(v.page)).pageType).toBe(206);
    expect(await v.page.locator('.sf-order-subscription').textContent()).toMatch(/every/);
    expect(await axeViolations(v.page)).toEqual([]);
    await v.screenshot('checkout-7-subscription');
  });

  test('entries survive a reload and a trip back to the cart; paying offline goes to order received (207), awaiting payment, with the purchase event', async () => {
    const v = await tier.newVisitor();
    await toCheckout(v.page);
    await fillCheckout(v.page, '');
    await v.page.locator('.sf-checkout-shipping').getByRole('radio').nth(1).check();
    await expect.poll(() => v.page.locator('[data-total="shipping"]').textContent()).toBe('$15.00');
    await v.page.getByLabel('Card number').fill('4242 4242 4242 4242');
    const ready = () => v.page.locator('[data-island="checkout"][data-checkout-state="ready"]').waitFor();
    const shippingTotal = () => v.page.locator('[data-total="shipping"]').textContent();
    // A reload: the address is back and priced with the chosen option; the card is not kept.
    await v.page.reload();
    await waitForBoot(v.page);
    await ready();
    expect(await v.page.getByLabel('Email').inputValue()).toBe('ada@example.com');
    expect(await v.page.getByLabel('City').inputValue()).toBe('Springfield');
    expect(await v.page.getByLabel('Country').inputValue()).toBe('US');
    await expect.poll(shippingTotal).toBe('$15.00');
    expect(await v.page.locator('.sf-checkout-shipping').getByRole('radio').nth(1).isChecked()).toBe(true);
    expect(await v.page.getByLabel('Card number').inputValue()).toBe('');
    expect(JSON.stringify(await v.page.evaluate(() => ({ ...sessionStorage })))).not.toContain('4242');
    // Back to the cart and on to checkout again: the same entries.
    expect(await visit(v.page, '/cart')).toBe(200);
    await Promise.all([v.page.waitForURL(/\/checkout\?cartToken=/), v.page.getByRole('link', { name: 'Checkout' }).click()]);
    await waitForBoot(v.page);
    await ready();
    expect(await v.page.getByLabel('Last name').inputValue()).toBe('Lovelace');
    await expect.poll(shippingTotal).toBe('$15.00');
    await v.page.getByRole('radio', { name: 'Pay offline (bank transfer or on pickup)', exact: true }).check();
    expect(await v.page.getByLabel('Card number').count()).toBe(0);
    const purchase = v.page.waitForRequest((r) => new URL(r.url()).pathname === '/api/census/RecordHit' && (r.postData() ?? '').includes('commerce_purchase'));
    await Promise.all([v.page.waitForURL(/\/commerce\/orders\/[^/]+\/received$/), v.page.getByRole('button', { name: 'Place order' }).click()]);
    await waitForBoot(v.page);
    const context = await pageContext(v.page);
    expect(context.pageType).toBe(207);
    expect(context.order).toMatchObject({ testMode: false, items: [{ sku: 'TEE-S', productName: 'Classic Tee', quantity: 1, unitPrice: 2500 }] });
    const sent = new URLSearchParams((await purchase).postData() ?? '');
    expect(sent.get('event')).toBe('commerce_purchase');
    expect(await v.page.getByText(/Order #\d+/).first().isVisible()).toBe(true);
    const placed = (await orders()).find((o) => o.id === (context.order as { id: string }).id)!;
    expect(placed.status).toBe('awaiting-payment');
    // The order is placed: the tab keeps no entries of it.
    expect(await v.page.evaluate(() => Object.keys(sessionStorage).filter((k) => k.startsWith('sf.checkout-draft.')))).toEqual([]);
    expect(await axeViolations(v.page)).toEqual([]);
    await v.screenshot('checkout-6-received');
  });

  test('the order status page finds an order by number and email', async () => {
    const [latest] = await orders();
    const v = await tier.newVisitor();
    expect(await visit(v.page, '/commerce/orders/status')).toBe(200);
    expect((await pageContext(v.page)).pageType).toBe(211);
    await v.page.getByLabel('Order number').fill(String(latest!.orderNumber));
    await v.page.getByLabel('Email').fill(String(latest!.email));
    // The form POSTs to its page: the answer comes back in place, the email never in the URL.
    const [answer] = await Promise.all([
      v.page.waitForResponse((r) => new URL(r.url()).pathname === '/commerce/orders/status' && r.request().method() === 'POST'),
      v.page.getByRole('button', { name: 'Look up order' }).click(),
    ]);
    expect(answer.status()).toBe(200);
    await v.page.locator('.sf-order-number').waitFor();
    await waitForBoot(v.page);
    expect(new URL(v.page.url()).search).toBe('');
    expect(v.page.url()).not.toContain('example.com');
    expect(await v.page.getByText(`Order #${latest!.orderNumber}`).first().isVisible()).toBe(true);
    expect(await axeViolations(v.page)).toEqual([]);
    await v.screenshot('checkout-4-order-status');

    // A wrong entry is said next to its field, and the field points at it.
    await v.page.getByLabel('Order number').fill('abc');
    await Promise.all([
      v.page.waitForResponse((r) => new URL(r.url()).pathname === '/commerce/orders/status' && r.request().method() === 'POST'),
      v.page.getByRole('button', { name: 'Look up order' }).click(),
    ]);
    await v.page.locator('#sf-order-status-number-error').waitFor();
    await waitForBoot(v.page);
    const numberField = v.page.getByLabel('Order number');
    expect(await numberField.getAttribute('aria-invalid')).toBe('true');
    expect(await numberField.getAttribute('aria-describedby')).toBe('sf-order-status-number-error');
    expect(await v.page.locator('#sf-order-status-number-error').textContent()).toBe('Enter the order number from your receipt.');
    expect(await axeViolations(v.page)).toEqual([]);
  });

  test('order status found by number and email shows no download link: its button mails the links to the order\'s address', async () => {
    // The digital poster's order (bought above): numbers are sequential, so a look-up by number
    // and email must not hand out the files; the links go by mail instead.
    const poster = (await orders()).find((order) => (order.items as Array<{ itemId: string }>).some((item) => item.itemId === 'poster'))!;
    const linkMails = async () => (await tier.server.store.read.listOutbox()).filter((m) => m.subject.endsWith(`(order #${poster.orderNumber})`) && m.subject.startsWith('Your downloads from '));
    const before = (await linkMails()).length;
    const v = await tier.newVisitor();
    expect(await visit(v.page, '/commerce/orders/status')).toBe(200);
    await v.page.getByLabel('Order number').fill(String(poster.orderNumber));
    await v.page.getByLabel('Email').fill(String(poster.email));
    await Promise.all([
      v.page.waitForResponse((r) => new URL(r.url()).pathname === '/commerce/orders/status' && r.request().method() === 'POST'),
      v.page.getByRole('button', { name: 'Look up order' }).click(),
    ]);
    await v.page.locator('.sf-order-number').waitFor();
    await waitForBoot(v.page);
    expect(await v.page.locator('a[href*="/commerce/downloads/"]').count()).toBe(0);
    const button = v.page.getByRole('button', { name: 'Email me the download links' });
    expect(await button.isVisible()).toBe(true);
    expect(await v.page.getByText('Your download links go to the email address you ordered with.').isVisible()).toBe(true);
    expect(await axeViolations(v.page)).toEqual([]);
    await v.screenshot('checkout-4b-order-status-downloads-by-mail');

    // Keyboard: the button is reached and pressed like any other.
    await button.focus();
    await Promise.all([
      v.page.waitForResponse((r) => new URL(r.url()).pathname === '/commerce/orders/status' && r.request().method() === 'POST'),
      v.page.keyboard.press('Enter'),
    ]);
    const sent = v.page.locator('.sf-order-status-message[role="status"]');
    await sent.waitFor();
    await waitForBoot(v.page);
    expect(await sent.textContent()).toBe('We emailed your download links to the address you ordered with.');
    expect(await v.page.locator('a[href*="/commerce/downloads/"]').count()).toBe(0);
    expect(await axeViolations(v.page)).toEqual([]);
    const mails = await linkMails();
    expect(mails).toHaveLength(before + 1);
    expect(mails.at(-1)!.to).toBe(String(poster.email));
    expect(mails.at(-1)!.body).toMatch(/\/commerce\/downloads\/[A-Za-z0-9_-]{32}\/poster/);
  });

  test('the order placed in another tab: Place order here says so and links that order (no second order)', async () => {
    const v = await tier.newVisitor();
    // The refused place answer (409 CART_PURCHASED) is a non-2xx response, which Chromium logs.
    v.allowConsoleError(/status of 409/);
    await toCheckout(v.page);
    const ordersBefore = (await orders()).length;
    await fillCheckout(v.page, '4242 4242 4242 4242');
    // The same checkout in a second tab, where the order is placed first.
    const other = await v.context.newPage();
    await other.goto(v.page.url());
    await waitForBoot(other);
    await other.locator('[data-island="checkout"][data-checkout-state="ready"]').waitFor();
    await fillCheckout(other, '4242 4242 4242 4242');
    await Promise.all([other.waitForURL(/\/commerce\/orders\/[^/]+\/confirmed$/), other.getByRole('button', { name: 'Place order' }).click()]);
    const orderPage = new URL(other.url()).pathname;
    await other.close();

    await v.page.bringToFront();
    const refused = await pressPlaceOrder(v.page);
    expect(refused.status()).toBe(409);
    const alert = v.page.getByRole('alert').filter({ hasText: 'This cart has already been purchased.' });
    await alert.waitFor();
    const link = alert.getByRole('link', { name: 'View your order' });
    await expect.poll(() => link.getAttribute('href')).toBe(orderPage);
    expect(await v.page.evaluate(() => document.activeElement?.id)).toBe('sf-checkout-error');
    expect(await axeViolations(v.page)).toEqual([]);
    await v.screenshot('checkout-5-placed-elsewhere');
    expect((await orders()).length).toBe(ordersBefore + 1);

    await Promise.all([v.page.waitForURL((url) => url.pathname === orderPage), link.click()]);
    await waitForBoot(v.page);
    await v.page.getByText(/Order #\d+/).first().waitFor();
  });

  /** A cart write from the page, as the cart page's island sends it (the crumb cookie as its header). */
  async function pageFetch(page: Page, method: 'POST' | 'DELETE', path: string, body?: Record<string, unknown>): Promise<{ status: number; body: Record<string, unknown> }> {
    return page.evaluate(
      async ({ method, path, body }) => {
        const crumb = /(?:^|; )crumb=([^;]*)/.exec(document.cookie)?.[1] ?? '';
        const response = await fetch(path, { method, headers: { 'content-type': 'application/json', 'X-CSRF-Token': decodeURIComponent(crumb) }, body: body ? JSON.stringify(body) : undefined });
        return { status: response.status, body: (await response.json().catch(() => ({}))) as Record<string, unknown> };
      },
      { method, path, body },
    );
  }
  const cartWrite = async (page: Page, method: 'POST' | 'DELETE', path: string, body?: Record<string, unknown>) => (await pageFetch(page, method, path, body)).status;
  const setStock = async (itemId: string, variantId: string, from: number, to: number) => {
    const response = await tier.server.app.inject({
      method: 'PUT', url: `/api/commerce/inventory/stock/${itemId}/${variantId}`, headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      payload: { qtyInStock: to, expected: { qtyInStock: from, unlimited: false } },
    });
    expect(response.statusCode, response.body).toBe(200);
  };

  test('a hoodie swapped for another size of the same price in a second tab: Place order here orders nothing, says the cart changed with the focus, and shows the new line; the next press orders it', async () => {
    const v = await tier.newVisitor();
    // The refused place answer (409 CART_CHANGED) is a non-2xx response, which Chromium logs.
    v.allowConsoleError(/status of 409/);
    expect(await visit(v.page, '/shop/hoodie')).toBe(200);
    expect(await cartWrite(v.page, 'POST', '/api/commerce/shopping-cart/entries', { itemId: 'hoodie', sku: 'HD-S-NAVY', quantity: 1 })).toBe(200);
    expect(await visit(v.page, '/cart')).toBe(200);
    await pressCheckout(v.page);
    await fillCheckout(v.page, '4242 4242 4242 4242');
    const summary = v.page.locator('.sf-order-variant');
    await expect.poll(() => summary.allTextContents()).toEqual([' S / Navy']);
    const totalShown = await v.page.locator('[data-total="grand"]').textContent();
    const ordersBefore = (await orders()).length;

    // The second tab: size M in, size S out. Same price, so the total this page shows still holds.
    const other = await v.context.newPage();
    expect(await visit(other, '/cart')).toBe(200);
    expect(await cartWrite(other, 'POST', '/api/commerce/shopping-cart/entries', { itemId: 'hoodie', sku: 'HD-M-NAVY', quantity: 1 })).toBe(200);
    const token = new URL(v.page.url()).searchParams.get('cartToken')!;
    const cart = await tier.server.app.inject({ method: 'GET', url: '/api/commerce/shopping-cart', cookies: { CART: token } });
    const entryS = (cart.json() as { entries: Array<{ id: string; chosenVariant: { sku: string } }> }).entries.find((e) => e.chosenVariant.sku === 'HD-S-NAVY')!;
    expect(await cartWrite(other, 'DELETE', `/api/commerce/shopping-cart/entries/${entryS.id}`)).toBe(200);
    await other.close();

    await v.page.bringToFront();
    const refused = await pressPlaceOrder(v.page);
    expect(refused.status()).toBe(409);
    await v.page.getByRole('alert').filter({ hasText: 'Your cart changed while you were checking out. Please review the totals.' }).waitFor();
    expect(await v.page.evaluate(() => document.activeElement?.id)).toBe('sf-checkout-error');
    // The summary is asked again: the line the order would now hold, at the same total.
    await expect.poll(() => summary.allTextContents()).toEqual([' M / Navy']);
    expect(await v.page.locator('[data-total="grand"]').textContent()).toBe(totalShown);
    expect((await orders()).length).toBe(ordersBefore);
    expect(await axeViolations(v.page)).toEqual([]);
    await v.screenshot('checkout-5b-lines-changed-elsewhere');

    // Shown the new line, the visitor places it.
    await Promise.all([v.page.waitForURL(/\/commerce\/orders\/[^/]+\/confirmed$/), v.page.getByRole('button', { name: 'Place order' }).click()]);
    const placed = (await orders())[0] as { items: Array<{ sku: string }> };
    expect(placed.items.map((item) => item.sku)).toEqual(['HD-M-NAVY']);
    expect((await orders()).length).toBe(ordersBefore + 1);
  });

  test('the last candle bought by another shopper while this one is at checkout: Place order charges nothing, says so with the focus and at the line; no second order', async () => {
    const v = await tier.newVisitor();
    v.allowConsoleError(/status of 409/);
    const candleStock = async () => ((await api('/api/commerce/inventory/stock?itemId=candle')) as { results: Array<{ sku: string; qtyInStock: number }> }).results.find((r) => r.sku === 'CDL-S')!.qtyInStock;
    const stockBefore = await candleStock();
    expect(await visit(v.page, '/shop/candle')).toBe(200);
    expect(await cartWrite(v.page, 'POST', '/api/commerce/shopping-cart/entries', { itemId: 'candle', sku: 'CDL-S', quantity: 1 })).toBe(200);
    expect(await visit(v.page, '/cart')).toBe(200);
    await pressCheckout(v.page);
    await fillCheckout(v.page, '4242 4242 4242 4242');

    // One small candle is left, and another shopper buys it first.
    await setStock('candle', 'candle-small', stockBefore, 1);
    try {
      const shopper = await tier.newVisitor();
      expect(await visit(shopper.page, '/shop/candle')).toBe(200);
      const added = await pageFetch(shopper.page, 'POST', '/api/commerce/shopping-cart/entries', { itemId: 'candle', sku: 'CDL-S', quantity: 1 });
      const cartToken = (added.body.shoppingCart as { id: string }).id;
      const bought = await pageFetch(shopper.page, 'POST', '/api/commerce/checkout/place', {
        cartToken, email: 'first@example.com', shippingOptionId: 'standard', idempotencyKey: 'last-candle-first-shopper',
        shippingAddress: { firstName: 'Bo', lastName: 'First', line1: '2 Main St', city: 'Springfield', region: 'IL', postalCode: '62701', country: 'US' },
        payment: { provider: 'test', cardNumber: '4242424242424242', expMonth: 12, expYear: 2034, cvc: '123' },
      });
      expect(bought.status, JSON.stringify(bought.body)).toBe(200);
      const ordersBefore = (await orders()).length;

      const refused = await pressPlaceOrder(v.page);
      expect(refused.status()).toBe(409);
      // The spec's words (B2's out-of-stock text), in the alert that takes the focus and at the line.
      const text = 'Sorry, we do not have enough of that item available.';
      await v.page.getByRole('alert').filter({ hasText: text }).waitFor();
      expect(await v.page.evaluate(() => document.activeElement?.id)).toBe('sf-checkout-error');
      expect(await v.page.locator('.sf-order-line-error').allTextContents()).toEqual([text]);
      expect((await orders()).length).toBe(ordersBefore);
      expect(await candleStock()).toBe(0);
      expect(await axeViolations(v.page)).toEqual([]);
      await v.screenshot('checkout-5c-sold-out-meanwhile');
    } finally {
      await setStock('candle', 'candle-small', 0, stockBefore);
    }
  });

  test('a cap the owner removes from the catalogue while it is in the cart: the cart page and the checkout say it is no longer available (not the out-of-stock sentence), Place order charges nothing, and once removed the tee is ordered alone', async () => {
    const v = await tier.newVisitor();
    v.allowConsoleError(/status of 409/);
    const gone = 'Sorry, this item is no longer available. Please remove it from your cart.';
    const catalog = (await loadSite(DEMO_SITE)).catalog!;
    // The tee this buys goes back to stock at the end: the scenarios after this one buy tees in S.
    const teeBefore = await teeStock('TEE-S');
    let teeSold = false;
    await addTeeToCart(v.page, 'S');
    expect(await cartWrite(v.page, 'POST', '/api/commerce/shopping-cart/entries', { itemId: 'cap', sku: 'CAP-1', quantity: 1 })).toBe(200);
    // The owner takes the cap out of catalog.json; the next start's sync hides it.
    await syncSiteContent(tier.server.store.client, { ...structuredClone(catalog), products: catalog.products!.filter((product) => product.id !== 'cap') });
    try {
      expect(await visit(v.page, '/cart')).toBe(200);
      const capRow = v.page.locator('.sf-cart-entry[data-item-id="cap"]');
      await expect.poll(() => capRow.locator('.sf-entry-unavailable').textContent()).toBe(gone);
      expect(await v.page.locator('.sf-cart-entry[data-item-id="tee"] .sf-entry-message').count()).toBe(0);
      expect(await v.page.getByText('Sorry, we do not have enough of that item available.').count()).toBe(0);
      const capQuantity = v.page.getByRole('spinbutton', { name: 'Quantity of Canvas Cap' });
      expect(await capQuantity.getAttribute('aria-describedby')).toBe(await capRow.locator('.sf-entry-unavailable').getAttribute('id'));
      // Hydrated, the server's sentence is the one shown: never a second beside it.
      expect(await capRow.locator('.sf-entry-unavailable').count()).toBe(1);
      // Its product page is gone: the title is text, no link to '#' (nor to anywhere).
      expect(await capRow.locator('.sf-entry-title a').count()).toBe(0);
      expect((await capRow.locator('.sf-entry-title').innerText()).trim()).toBe('Canvas Cap');
      expect(await v.page.locator('.sf-cart-page a[href="#"]').count()).toBe(0);
      expect(await v.page.locator('.sf-cart-entry[data-item-id="tee"] .sf-entry-title a').getAttribute('href')).toBe('/shop/tee');
      // B0.4: the subtotal is the sum of every entry's subTotal, the removed cap's ($22) too, beside the tee's $25.
      expect(await v.page.locator('.sf-cart-subtotal').textContent()).toContain('$47.00');
      expect(await axeViolations(v.page)).toEqual([]);
      await v.screenshot('checkout-removed-product-1-cart');

      // The checkout says it at the line before any press; Place order refuses it with the focus, charging nothing.
      await pressCheckout(v.page);
      expect(await v.page.locator('.sf-order-line[data-item-id="cap"] .sf-order-line-error').textContent()).toBe(gone);
      await fillCheckout(v.page, '4242 4242 4242 4242');
      const ordersBefore = (await orders()).length;
      const refused = await pressPlaceOrder(v.page);
      expect(refused.status()).toBe(409);
      expect(await refused.json()).toMatchObject({ code: 'ITEM_UNAVAILABLE', errors: { cap: gone } });
      const general = 'Sorry, an item in your cart is no longer available. Please remove it from your cart to check out.';
      await v.page.getByRole('alert').filter({ hasText: general }).waitFor();
      expect(await v.page.evaluate(() => document.activeElement?.id)).toBe('sf-checkout-error');
      expect(await v.page.locator('.sf-order-line-error').allTextContents()).toEqual([gone]);
      expect((await orders()).length).toBe(ordersBefore);
      expect(await axeViolations(v.page)).toEqual([]);
      await v.screenshot('checkout-removed-product-2-refused');

      // Back on the cart page the visitor removes the cap; the tee alone is ordered and charged.
      expect(await visit(v.page, '/cart')).toBe(200);
      await capRow.locator('.sf-entry-unavailable').waitFor();
      const [removed] = await Promise.all([
        v.page.waitForResponse((r) => r.request().method() === 'DELETE' && new URL(r.url()).pathname.startsWith('/api/commerce/shopping-cart/entries/')),
        v.page.getByRole('button', { name: 'Remove Canvas Cap' }).click(),
      ]);
      expect(removed.status()).toBe(200);
      await capRow.waitFor({ state: 'detached' });
      expect(await v.page.locator('.sf-entry-unavailable').count()).toBe(0);
      await expect.poll(() => v.page.locator('.sf-cart-subtotal').textContent()).toContain('$25.00');
      await pressCheckout(v.page);
      expect(await v.page.locator('.sf-order-line-error').count()).toBe(0);
      // The address came back with the draft (never the card), priced with the option chosen before.
      expect(await v.page.getByLabel('Last name').inputValue()).toBe('Lovelace');
      await expect.poll(() => v.page.locator('.sf-checkout-shipping').getByRole('radio').first().isChecked()).toBe(true);
      await v.page.getByLabel('Card number').fill('4242 4242 4242 4242');
      await v.page.getByLabel('Expiry (MM/YY)').fill('12/34');
      await v.page.getByLabel('Security code (CVC)').fill('123');
      const placed = await pressPlaceOrder(v.page);
      expect(placed.status()).toBe(200);
      await v.page.waitForURL(/\/confirmed$/);
      await waitForBoot(v.page);
      const placedId = ((await pageContext(v.page)).order as { id: string }).id;
      const order = (await orders()).find((candidate) => candidate.id === placedId) as { items: Array<{ itemId: string }>; subtotal: number };
      expect(order.items.map((item) => item.itemId)).toEqual(['tee']);
      expect(order.subtotal).toBe(2500);
      expect((await orders()).length).toBe(ordersBefore + 1);
      teeSold = true;
      expect(await teeStock('TEE-S')).toBe(teeBefore - 1);
      await v.screenshot('checkout-removed-product-3-ordered');
    } finally {
      // The cap comes back to the catalogue for the scenarios after this one.
      await syncSiteContent(tier.server.store.client, catalog);
      if (teeSold) await setStock('tee', 'tee-s', teeBefore - 1, teeBefore);
    }
  });

  test('a cap the owner removed, at 375 px: the server page says it at the line before any script runs (JavaScript off), no link to #, the B0.4 subtotal; hydrated, the same single sentence; axe clean both ways', async () => {
    const v = await tier.newVisitor();
    const gone = 'Sorry, this item is no longer available. Please remove it from your cart.';
    const catalog = (await loadSite(DEMO_SITE)).catalog!;
    await addTeeToCart(v.page, 'S');
    expect(await cartWrite(v.page, 'POST', '/api/commerce/shopping-cart/entries', { itemId: 'cap', sku: 'CAP-1', quantity: 1 })).toBe(200);
    await v.page.setViewportSize(NARROW_WINDOWS.phone);
    await syncSiteContent(tier.server.store.client, { ...structuredClone(catalog), products: catalog.products!.filter((product) => product.id !== 'cap') });
    // A second window with JavaScript off and the same cart cookie: what a visitor whose scripts are slow or off reads.
    const noScript = await v.context.browser()!.newContext({ baseURL: tier.server.url, viewport: NARROW_WINDOWS.phone, javaScriptEnabled: false });
    try {
      const origin = new URL(tier.server.url).origin;
      await noScript.route((url) => url.origin !== origin, (route) => route.abort());
      await noScript.addCookies(await v.context.cookies());
      const still = await noScript.newPage();
      expect((await still.goto('/cart', { waitUntil: 'load' }))?.status()).toBe(200);
      const stillCap = still.locator('.sf-cart-entry[data-item-id="cap"]');
      expect(await still.locator('[data-island="cart-page"]').getAttribute('data-hydrated')).toBeNull();
      expect(await stillCap.locator('.sf-entry-unavailable').textContent()).toBe(gone);
      expect(await stillCap.locator('.sf-entry-unavailable').getAttribute('role')).toBe('status');
      expect(await still.getByRole('spinbutton', { name: 'Quantity of Canvas Cap' }).getAttribute('aria-describedby')).toBe(await stillCap.locator('.sf-entry-unavailable').getAttribute('id'));
      expect(await still.locator('.sf-entry-unavailable').count()).toBe(1);
      expect(await stillCap.locator('.sf-entry-title a').count()).toBe(0);
      expect((await stillCap.locator('.sf-entry-title').innerText()).trim()).toBe('Canvas Cap');
      expect(await still.locator('a[href="#"]').count()).toBe(0);
      // B0.4: the subtotal is the sum of every entry's subTotal, the removed cap's $22 too, beside the tee's $25.
      expect(await still.locator('.sf-cart-subtotal').textContent()).toContain('$47.00');
      expect(await still.getByText('Sorry, we do not have enough of that item available.').count()).toBe(0);
      expect(await still.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      // axe needs scripts (its run waits on timers, which a page with JavaScript off never fires):
      // it checks the same server page in the visitor's window with the islands script held back.
      const held = await holdIslands(v.page);
      // 'commit': the held module script keeps DOMContentLoaded from firing until it is let go.
      expect((await v.page.goto('/cart', { waitUntil: 'commit' }))?.status()).toBe(200);
      await v.page.locator('.sf-cart-totals').waitFor({ state: 'attached' });
      await v.page.waitForFunction(() => [...document.querySelectorAll('link[rel="stylesheet"]')].every((link) => (link as HTMLLinkElement).sheet !== null));
      expect(await v.page.locator('[data-island="cart-page"]').getAttribute('data-hydrated')).toBeNull();
      expect(await v.page.locator('.sf-cart-entry[data-item-id="cap"] .sf-entry-unavailable').allTextContents()).toEqual([gone]);
      expect(await axeViolations(v.page)).toEqual([]);
      await viewportShot(v.page, 'checkout-removed-product-before-hydration-375');
      // Marked before hydration: the island must keep this node, not draw a new one (no flicker).
      await v.page.evaluate(() => Object.assign(document.querySelector('.sf-cart-entry[data-item-id="cap"] .sf-entry-unavailable')!, { sfServerNode: true }));
      held.release();
      await waitForBoot(v.page);
      expect(await v.page.evaluate(() => (document.querySelector('.sf-cart-entry[data-item-id="cap"] .sf-entry-unavailable') as unknown as { sfServerNode?: boolean } | null)?.sfServerNode)).toBe(true);

      // Hydrated: the island adopts the server's sentence (one, the same words, still describing the field).
      const capRow = v.page.locator('.sf-cart-entry[data-item-id="cap"]');
      expect(await capRow.locator('.sf-entry-unavailable').allTextContents()).toEqual([gone]);
      expect(await v.page.getByRole('spinbutton', { name: 'Quantity of Canvas Cap' }).getAttribute('aria-describedby')).toBe(await capRow.locator('.sf-entry-unavailable').getAttribute('id'));
      expect(await capRow.locator('.sf-entry-title a').count()).toBe(0);
      expect(await v.page.locator('.sf-cart-page a[href="#"]').count()).toBe(0);
      expect(await v.page.locator('.sf-cart-subtotal').textContent()).toContain('$47.00');
      expect(await v.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      expect(await axeViolations(v.page)).toEqual([]);
      await viewportShot(v.page, 'checkout-removed-product-hydrated-375');
    } finally {
      await noScript.close();
      // The cap comes back to the catalogue for the scenarios after this one (the cart's lines took no stock).
      await syncSiteContent(tier.server.store.client, catalog);
    }
  });

  test('Place order double-clicked: one request, one order, one receipt; reload on the order page shows the same order and places none', async () => {
    const v = await tier.newVisitor();
    expect(await visit(v.page, '/shop/cap')).toBe(200);
    expect(await cartWrite(v.page, 'POST', '/api/commerce/shopping-cart/entries', { itemId: 'cap', sku: 'CAP-1', quantity: 1 })).toBe(200);
    expect(await visit(v.page, '/cart')).toBe(200);
    await pressCheckout(v.page);
    await fillCheckout(v.page, '4242 4242 4242 4242');
    await v.page.getByLabel('Email').fill('double@example.com');
    const ordersBefore = (await orders()).length;
    let placeRequests = 0;
    v.page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/commerce/checkout/place') placeRequests++;
    });
    await Promise.all([v.page.waitForURL(/\/commerce\/orders\/[^/]+\/confirmed$/), v.page.getByRole('button', { name: 'Place order' }).dblclick()]);
    const heading = v.page.getByText(/Order #\d+/).first();
    await heading.waitFor();
    const shown = await heading.textContent();
    expect(placeRequests).toBe(1);
    expect((await orders()).length).toBe(ordersBefore + 1);
    await v.page.reload();
    await v.page.getByText(shown!).first().waitFor();
    expect((await orders()).length).toBe(ordersBefore + 1);
    const receipts = (await mail.delivered(1)).filter((m) => m.to.includes('double@example.com'));
    expect(receipts).toHaveLength(1);
  });

  // Coupon guesses are limited (limit couponGuesses: 10 distinct unknown codes per IP per hour,
  // renderer/api/context.ts). The checkout sends its codes again with every address or shipping
  // change; counted per request, one typo would lock an honest buyer out after ten changes.
  const isQuote = (url: string) => new URL(url).pathname === '/api/commerce/checkout/quote';

  /** Types a code in the coupon field and presses Enter; resolves with the quote's answer. */
  async function applyCoupon(page: Page, code: string) {
    await page.getByLabel('Coupon code').fill(code);
    const [answer] = await Promise.all([page.waitForResponse((r) => isQuote(r.url())), page.getByLabel('Coupon code').press('Enter')]);
    return answer;
  }

  test('a buyer who mistypes a coupon once, adds the right one and changes address and shipping a dozen times is never limited', async () => {
    const v = await tier.newVisitor();
    await toCheckout(v.page);
    await fillCheckout(v.page, '');
    expect((await applyCoupon(v.page, 'WELCOM10')).status()).toBe(200);
    await expect.poll(() => v.page.locator('.sf-coupon-invalid[data-coupon="WELCOM10"]').textContent()).toContain('This coupon code is not valid.');
    expect((await applyCoupon(v.page, 'WELCOME10')).status()).toBe(200);
    await v.page.locator('.sf-coupon-valid[data-coupon="WELCOME10"]').waitFor();

    // Every quote from here carries the typo again; every one is answered.
    const statuses: number[] = [];
    v.page.on('response', (r) => {
      if (isQuote(r.url()) && (r.request().postData() ?? '').includes('WELCOM10')) statuses.push(r.status());
    });
    const cities = ['Chicago', 'Peoria', 'Springfield', 'Naperville', 'Rockford', 'Evanston'];
    for (const city of cities) {
      await v.page.getByLabel('City').fill(city);
      await Promise.all([v.page.waitForResponse((r) => isQuote(r.url())), v.page.getByLabel('City').press('Tab')]);
      const options = v.page.locator('.sf-checkout-shipping').getByRole('radio');
      const other = (await options.first().isChecked()) ? options.nth(1) : options.first();
      await Promise.all([v.page.waitForResponse((r) => isQuote(r.url())), other.check()]);
    }
    await expect.poll(() => statuses.length).toBeGreaterThanOrEqual(2 * cities.length);
    // More re-sends than the limit's 10 places, all answered: the typo counted once.
    expect(statuses.length).toBeGreaterThan(10);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    expect(await v.page.locator('.sf-checkout-coupon .field-error').count()).toBe(0);
    await v.page.locator('.sf-coupon-valid[data-coupon="WELCOME10"]').waitFor();
    expect(await v.page.locator('.sf-coupon-invalid[data-coupon="WELCOM10"]').count()).toBe(1);
  });

  // Last in the file: it uses up the coupon limit of 127.0.0.1 for this server's hour.
  test('past the coupon guess limit a new code is refused at the coupon field, in words; the applied coupon stays applied', async () => {
    const v = await tier.newVisitor();
    // Chromium logs each refused quote as a failed resource; the page itself says what happened.
    v.allowConsoleError(/status of 429/);
    await toCheckout(v.page);
    await fillCheckout(v.page, '');
    expect((await applyCoupon(v.page, 'WELCOME10')).status()).toBe(200);
    await v.page.locator('.sf-coupon-valid[data-coupon="WELCOME10"]').waitFor();
    const discount = await v.page.locator('[data-total="discount"]').textContent();

    // A guesser on the same address uses up the places left, one unknown code at a time.
    const cartToken = new URL(v.page.url()).searchParams.get('cartToken')!;
    let answered = 0;
    for (let i = 0; i < 12; i++) {
      const response = await tier.server.app.inject({ method: 'POST', url: '/api/commerce/checkout/quote', remoteAddress: '127.0.0.1', payload: { cartToken, couponCodes: [`GUESS${i}`] } });
      if (response.statusCode === 429) break;
      expect(response.statusCode, response.body).toBe(200);
      answered++;
    }
    expect(answered).toBeLessThanOrEqual(10);

    // The buyer now types a new code: refused, said at the coupon field, the code left in it.
    const refused = await applyCoupon(v.page, 'SPRING20');
    expect(refused.status()).toBe(429);
    const message = v.page.locator('.sf-checkout-coupon .field-error');
    await expect.poll(() => message.textContent()).toMatch(/^Too many coupon codes were tried\. Please try again in \d+ minutes?\.$/);
    const input = v.page.getByLabel('Coupon code');
    expect(await input.getAttribute('aria-invalid')).toBe('true');
    await expect.poll(() => input.inputValue()).toBe('SPRING20');
    await expect.poll(() => v.page.evaluate(() => document.activeElement?.id)).toBe('sf-checkout-coupon');
    // The coupon applied before stays, with its discount; the refused code is not listed.
    await expect.poll(() => v.page.locator('[data-checkout-state]').getAttribute('data-checkout-state')).toBe('ready');
    await v.page.locator('.sf-coupon-valid[data-coupon="WELCOME10"]').waitFor();
    expect(await v.page.locator('[data-coupon="SPRING20"]').count()).toBe(0);
    await expect.poll(() => v.page.locator('[data-total="discount"]').textContent()).toBe(discount);
    // And the address can still change: it is priced, not refused.
    await v.page.getByLabel('City').fill('Chicago');
    const [moved] = await Promise.all([v.page.waitForResponse((r) => isQuote(r.url())), v.page.getByLabel('City').press('Tab')]);
    expect(moved.status()).toBe(200);
    expect(await axeViolations(v.page)).toEqual([]);
    await v.screenshot('checkout-6-coupon-limit');
  });
});

// A shop whose orders paid offline may hold 1 unit of stock (catalog.json
// commerce.offlineOrderMaxUnits): a cart of two tees is told so at the offline choice as soon as
// the checkout shows it, before any press (it heard the 422 only after Place order), Place order
// offline sends nothing and says it again, and the card pays for the same cart.
describe.skipIf(!chromiumPath)(`checkout over the offline bound in Chromium${chromiumPath ? '' : ` (skipped: ${inject('browserSkipReason')})`}`, () => {
  const tier = useBrowserTier(chromiumPath!, {
    seed: (catalog) => {
      const settings = catalog.site.settings ?? {};
      catalog.site.settings = { ...settings, commerce: { ...settings.commerce, offlineOrderMaxUnits: 1 } };
      return catalog;
    },
  });
  const MESSAGE = 'An order paid offline can hold at most 1 item from stock; this cart has 2. Remove some, or choose another payment method.';

  test('two tees: the sentence at the offline option (its description, in words), axe clean with it shown; Place order offline sends nothing; the card pays', async () => {
    const v = await tier.newVisitor();
    await addTeeToCart(v.page, 'M');
    await teeToCheckout(v.page, 'S');
    const offline = v.page.getByRole('radio', { name: 'Pay offline (bank transfer or on pickup)', exact: true });
    const card = v.page.getByRole('radio', { name: 'Card (test mode)', exact: true });
    // Shown before anything is chosen or pressed, the card still the chosen way to pay.
    expect(await card.isChecked()).toBe(true);
    const describedText = (handle: Locator) =>
      handle.evaluate((el) => (el.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent ?? '').join(' ').trim());
    expect(await describedText(offline)).toBe(MESSAGE);
    expect(await v.page.getByText(MESSAGE).isVisible()).toBe(true);
    expect(await card.getAttribute('aria-describedby')).toBeNull();

    await fillCheckout(v.page, '');
    await offline.check();
    const placeButton = v.page.getByRole('button', { name: 'Place order' });
    expect(await describedText(placeButton)).toBe(MESSAGE);
    expect(await axeViolations(v.page)).toEqual([]);
    await v.screenshot('checkout-8-offline-bound');

    const places: string[] = [];
    v.page.on('request', (r) => new URL(r.url()).pathname === '/api/commerce/checkout/place' && places.push(r.method()));
    await placeButton.click();
    await expect.poll(() => v.page.locator('#sf-checkout-error').textContent()).toBe(MESSAGE);
    await expect.poll(() => v.page.evaluate(() => document.activeElement?.id)).toBe('sf-checkout-error');
    expect(places).toEqual([]);
    expect(await axeViolations(v.page)).toEqual([]);

    // A card pays for the same two tees.
    await card.check();
    await v.page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await v.page.getByLabel('Expiry (MM/YY)').fill('12/34');
    await v.page.getByLabel('Security code (CVC)').fill('123');
    await Promise.all([v.page.waitForURL(/\/commerce\/orders\/[^/]+\/confirmed$/), placeButton.click()]);
    expect(places).toEqual(['POST']);
    await waitForBoot(v.page);
    expect((await pageContext(v.page)).order).toMatchObject({ items: [expect.objectContaining({ sku: 'TEE-M', quantity: 1 }), expect.objectContaining({ sku: 'TEE-S', quantity: 1 })] });
  });

  /** The cart's checkout address, from the cart page's Checkout link. */
  async function checkoutUrl(page: Page): Promise<string> {
    expect(await visit(page, '/cart')).toBe(200);
    return (await page.getByRole('link', { name: 'Checkout' }).getAttribute('href'))!;
  }

  /** The page's boxes, in page coordinates, of the offline sentence, the offline choice and the payment section (null when absent). */
  const boxes = (page: Page) =>
    page.evaluate(() => {
      const box = (el: Element | null | undefined) => {
        if (!el) return null;
        const r = el.getBoundingClientRect();
        return { x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: r.height };
      };
      const sentence = document.getElementById('sf-checkout-provider-manual-limit');
      return {
        sentence: box(sentence),
        colour: sentence ? getComputedStyle(sentence).color : null,
        // The placeholder's block stands where the island's label of the choice comes.
        choice: box(document.querySelector('label[for="sf-checkout-provider-manual"]') ?? sentence?.previousElementSibling),
        section: box(sentence?.parentElement),
      };
    });

  /**
   * Opens the checkout with the islands' script held back (a slow phone): the server's markup
   * only, styled; then lets the script load and waits for the form. Both states' boxes.
   */
  async function beforeAndAfter(v: { page: Page }, url: string) {
    const { release } = await holdIslands(v.page);
    await v.page.goto(url, { waitUntil: 'commit' });
    const app = v.page.locator('[data-island="checkout"]');
    await v.page.locator('.sf-checkout-pending .sf-checkout-ph-place').waitFor();
    // Laid out with the shop's stylesheets, as the visitor sees it.
    await v.page.waitForFunction(() => [...document.querySelectorAll('link[rel="stylesheet"]')].every((link) => (link as HTMLLinkElement).sheet !== null));
    await v.page.evaluate(() => document.fonts.ready.then(() => undefined));
    expect(await app.getAttribute('data-hydrated')).toBeNull();
    expect(await app.getAttribute('data-checkout-state')).toBeNull();
    const before = await boxes(v.page);
    const text = await v.page.locator('.sf-checkout-offline-limit').allTextContents();
    release();
    await waitForBoot(v.page);
    await v.page.locator('[data-island="checkout"][data-checkout-state="ready"]').waitFor();
    await v.page.locator('.sf-checkout-totals[aria-busy="false"]').waitFor();
    expect(await v.page.locator('.sf-checkout-pending').count()).toBe(0);
    const after = await boxes(v.page);
    await v.page.unroute('**/assets/islands.js');
    return { before, after, text };
  }

  /** Two boxes are the same to a twentieth of a pixel (layout rounds to 1/64 px). */
  const sameBox = (a: { x: number; y: number; width: number; height: number } | null, b: typeof a) => {
    expect(a).not.toBeNull();
    expect(b).not.toBeNull();
    for (const key of ['x', 'y', 'width', 'height'] as const) expect(Math.abs(a![key] - b![key]), `${key}: ${a![key]} then ${b![key]}`).toBeLessThan(0.05);
  };

  // The server draws the sentence too (pages/page-types/checkout.ts, one source of words and id
  // with the island in hydrate/shared/checkout-text.ts): before the island loads it is there, in
  // the error colour, and the form's arrival moves neither it, nor the offline choice above it,
  // nor the payment section holding both (their boxes before and after are the same).
  test('two tees, the islands held back: the server\'s page says the sentence at the offline choice; the form replaces it without moving it; a phone too; axe clean', async () => {
    const v = await tier.newVisitor();
    await addTeeToCart(v.page, 'M');
    await addTeeToCart(v.page, 'S');
    const url = await checkoutUrl(v.page);
    for (const size of [DESKTOP, PHONE]) {
      await v.page.setViewportSize(size);
      const { before, after, text } = await beforeAndAfter(v, url);
      expect(text, `${size.width}px`).toEqual([MESSAGE]);
      expect(before.colour).toBe(after.colour);
      expect(before.colour).not.toBe(await v.page.evaluate(() => getComputedStyle(document.body).color));
      sameBox(before.sentence, after.sentence);
      sameBox(before.choice, after.choice);
      sameBox(before.section, after.section);
      expect(await v.page.locator('.sf-checkout-offline-limit').allTextContents()).toEqual([MESSAGE]);
      expect(await v.page.getByRole('radio', { name: 'Pay offline (bank transfer or on pickup)', exact: true }).getAttribute('aria-describedby')).toBe('sf-checkout-provider-manual-limit');
      expect(await axeViolations(v.page)).toEqual([]);
    }
    await viewportShot(v.page, 'checkout-9-offline-bound-phone');
  });

  test('one tee, within the bound: no sentence before the island nor after', async () => {
    const v = await tier.newVisitor();
    await addTeeToCart(v.page, 'S');
    const { before, after, text } = await beforeAndAfter(v, await checkoutUrl(v.page));
    expect(text).toEqual([]);
    expect(before.sentence).toBeNull();
    expect(after.sentence).toBeNull();
    expect(await v.page.locator('.sf-checkout-offline-limit').count()).toBe(0);
    expect(await v.page.getByRole('radio', { name: 'Pay offline (bank transfer or on pickup)', exact: true }).getAttribute('aria-describedby')).toBeNull();
  });
});
