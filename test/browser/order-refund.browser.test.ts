// [browser] The owner's refund without a cancel (renderer/orders/order-refund.ts) in Chromium
// against the real server on the demo site: from the admin's orders panel, with the keyboard
// alone, the owner refunds part of a paid order (a returned poster); the dialog says where the
// money goes, refuses more than is left before sending, and the row then says Partially refunded
// with what was refunded and what is left; axe finds nothing serious in the panel, the dialog or
// the buyer's page. The buyer's order status page (211) shows the status and the amount, and
// the buyer is mailed (its confirmation page, 202, says it too); neither names the provider's reference or the owner's note. On a phone the
// dialog fits the screen, and Escape closes it with the focus back on Refund….
// REFUND-2: returned goods. The owner counts a returned tee in the dialog's Returned items (first:
// what came back, the amount it sets, then why), the amount follows what was paid for it,
// "Restock items" appears (on) for the physical line only (a poster alone is said to stay out of stock),
// a count over what is left is refused at its field before sending, and the refund puts the
// sold-out variant back in stock, once; the row says what came back.
// REFUND-3: a returned seat of the Print Workshop (a limited service) is offered Restock items, on,
// and the refund frees the seat, as a cancel frees it.
import { describe, expect, inject, test } from 'vitest';
import { ensureFirstOwner } from '../../renderer/admin/first-owner.ts';
import { formatMoney } from '../../renderer/pages/money.ts';
import { linesPaidCents } from '../../hydrate/shared/order-statuses.ts';
import { axeViolations } from './support/axe.ts';
import { useBrowserTier } from './support/tier.ts';
import { visit } from './support/visit.ts';

const chromiumPath = inject('chromiumPath');
const EMAIL = 'owner@demo-shop.test';
const PASSWORD = 'browser tier owner password';
const TEST_CARD = { provider: 'test', cardNumber: '4242424242424242', expMonth: 12, expYear: 2030, cvc: '123' };

describe.skipIf(!chromiumPath)(`owner refunds in Chromium${chromiumPath ? '' : ` (skipped: ${inject('browserSkipReason')})`}`, () => {
  const tier = useBrowserTier(chromiumPath!);

  /** Posters bought through the API as the checkout island buys them (crumb, cart entry, place). */
  async function placePosters(quantity: number, email: string): Promise<{ orderId: string; orderNumber: number }> {
    const crumb = 'refund-browser-crumb-0123456789';
    const withCrumb = { cookies: { crumb }, headers: { 'x-csrf-token': crumb } };
    const added = await tier.server.app.inject({ method: 'POST', url: '/api/commerce/shopping-cart/entries', ...withCrumb, payload: { itemId: 'poster', sku: 'PST-1', quantity } });
    expect(added.statusCode, added.body).toBe(200);
    const placed = await tier.server.app.inject({
      method: 'POST',
      url: '/api/commerce/checkout/place',
      ...withCrumb,
      payload: { cartToken: added.json().shoppingCart.id, email, payment: TEST_CARD, idempotencyKey: 'refund-browser-0001' },
    });
    expect(placed.statusCode, placed.body).toBe(200);
    return placed.json();
  }

  /** Signs the owner in on a new visitor and opens the orders panel; answers the panel and the visitor. */
  async function ordersPanel() {
    await ensureFirstOwner(tier.server.store, { ADMIN_EMAIL: EMAIL, ADMIN_PASSWORD: PASSWORD });
    const v = await tier.newVisitor();
    await v.page.setViewportSize({ width: 1280, height: 800 });
    await v.page.goto('/admin');
    await v.page.getByLabel('Email').fill(EMAIL);
    await v.page.getByLabel('Password').fill(PASSWORD);
    await v.page.getByRole('button', { name: 'Sign in' }).click();
    await v.page.getByRole('heading', { name: 'Inventory', level: 2 }).waitFor();
    await v.page.getByRole('navigation', { name: 'Admin sections' }).getByRole('button', { name: 'Orders' }).click();
    return { v, orders: v.page.locator('[data-admin-panel="orders"]') };
  }

  test('REFUND-2 returned goods: the owner counts a returned tee from the keyboard, the amount follows its price, Restock items puts the sold-out size back in stock once', async () => {
    // Every medium tee (3) and a poster, shipped to New York (taxed).
    const crumb = 'refund-browser-crumb-0123456789';
    const withCrumb = { cookies: { crumb }, headers: { 'x-csrf-token': crumb } };
    const added = await tier.server.app.inject({ method: 'POST', url: '/api/commerce/shopping-cart/entries', ...withCrumb, payload: { itemId: 'tee', sku: 'TEE-M', quantity: 3 } });
    expect(added.statusCode, added.body).toBe(200);
    const cartToken = added.json().shoppingCart.id;
    const poster = await tier.server.app.inject({ method: 'POST', url: '/api/commerce/shopping-cart/entries', ...withCrumb, cookies: { crumb, CART: cartToken }, payload: { itemId: 'poster', sku: 'PST-1', quantity: 1 } });
    expect(poster.statusCode, poster.body).toBe(200);
    const address = { firstName: 'Ada', lastName: 'Lovelace', line1: '1 Main St', city: 'New York', region: 'NY', postalCode: '10001', country: 'US' };
    const placed = await tier.server.app.inject({
      method: 'POST',
      url: '/api/commerce/checkout/place',
      ...withCrumb,
      payload: { cartToken, email: 'tees@example.com', shippingAddress: address, shippingOptionId: 'standard', payment: TEST_CARD, idempotencyKey: 'refund-browser-0002' },
    });
    expect(placed.statusCode, placed.body).toBe(200);
    const { orderId, orderNumber } = placed.json() as { orderId: string; orderNumber: number };
    const order = (await tier.server.store.read.orders.get(orderId))!;
    const money = (cents: number) => formatMoney(cents, order.currency);
    const stock = async () => (await tier.server.store.read.getProduct('tee'))!.variants.find((variant) => variant.id === 'tee-m')!.qtyInStock;
    expect(await stock()).toBe(0);
    const [tee, print] = order.items;
    const teeName = `${tee!.productName} (${tee!.variantLabel})`;
    const oneTee = linesPaidCents(order, [{ lineId: 'line-1', quantity: 1 }]);

    const { v, orders } = await ordersPanel();
    const row = orders.locator(`tr[data-order-id="${orderId}"]`);
    await row.waitFor();
    const opener = row.getByRole('button', { name: `Refund… order #${orderNumber}` });
    await opener.focus();
    await v.page.keyboard.press('Enter');
    const dialog = v.page.getByRole('dialog', { name: `Refund order #${orderNumber}` });
    await dialog.waitFor();
    const amount = dialog.getByLabel(`Amount to refund (${order.currency})`);
    const returned = dialog.getByRole('group', { name: 'Returned items (optional)' });
    const teeCount = returned.getByLabel(`${teeName} returned (up to 3)`);
    const posterCount = returned.getByLabel(`${print!.productName} returned (up to 1)`);
    const reason = dialog.getByLabel('Reason (optional, for your records)');
    // In the order the owner fills it in: what came back (the dialog opens on it), the amount it sets, then why.
    await expect.poll(() => teeCount.evaluate((el) => el === document.activeElement)).toBe(true);
    const order1 = await dialog.locator('input').evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).labels?.[0]?.textContent));
    expect(order1).toEqual([`${teeName} returned (up to 3)`, `${print!.productName} returned (up to 1)`, `Amount to refund (${order.currency})`, 'Reason (optional, for your records)']);
    expect(await posterCount.count()).toBe(1);
    // Nothing counted yet: no restock offered, and the dialog says nothing goes back.
    const restock = dialog.getByRole('checkbox', { name: 'Restock items' });
    expect(await restock.count()).toBe(0);
    const describedBy = async () => v.page.locator(`[id="${await dialog.getAttribute('aria-describedby')}"]`).textContent();
    expect(await describedBy()).toMatch(/Nothing goes back into stock\.$/);

    // Four is more than was bought: refused at the field, nothing sent.
    await v.page.keyboard.type('4');
    await v.page.keyboard.press('Enter');
    await expect.poll(() => teeCount.getAttribute('aria-invalid')).toBe('true');
    expect(await returned.locator('.admin-field-error').textContent()).toBe(`Enter how many of ${teeName} came back: a whole number from 0 to 3.`);
    await expect.poll(() => teeCount.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await tier.server.store.read.orders.listRefunds(orderId)).toEqual([]);
    expect(await axeViolations(v.page)).toEqual([]);

    // One came back: the amount is what was paid for it (its sale price, with New York's tax), and Restock items is on.
    await v.page.keyboard.press('ControlOrMeta+a');
    await v.page.keyboard.type('1');
    expect(await amount.inputValue()).toBe((oneTee / 100).toFixed(2));
    expect(await dialog.locator('.admin-field-hint').last().textContent()).toBe(`${money(oneTee)} was paid for the returned items; you may refund less.`);
    await restock.waitFor();
    expect(await restock.isChecked()).toBe(true);
    expect(await describedBy()).toMatch(/The returned items go back into stock\.$/);
    expect(await axeViolations(v.page)).toEqual([]);
    await v.screenshot('refund-2-returned-tee');
    // Tab reaches the poster's count, then Restock items (Space would untick it), the amount, and the reason. Enter sends.
    await v.page.keyboard.press('Tab');
    await v.page.keyboard.press('Tab');
    await expect.poll(() => restock.evaluate((el) => el === document.activeElement)).toBe(true);
    await v.page.keyboard.press('Tab');
    await expect.poll(() => amount.evaluate((el) => el === document.activeElement)).toBe(true);
    await v.page.keyboard.press('Tab');
    await expect.poll(() => reason.evaluate((el) => el === document.activeElement)).toBe(true);
    await v.page.keyboard.type('Returned: wrong size');
    await v.page.keyboard.press('Enter');
    await expect
      .poll(() => orders.getByRole('status').textContent())
      .toBe(
        `Order #${orderNumber} is now partially refunded. Refunded ${money(oneTee)} to Visa ending 4242 (test). 1 item is back in stock. ${money(order.grandTotal - oneTee)} is left to refund. tees@example.com is emailed about it.`,
      );
    expect(await dialog.count()).toBe(0);
    expect(await row.locator('.admin-order-refund-list li').textContent()).toContain(`Returned: 1 × ${teeName}, back in stock`);
    await expect.poll(() => opener.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await stock()).toBe(1);
    expect((await tier.server.store.read.orders.get(orderId))!.refunds).toEqual([
      expect.objectContaining({ amountCents: oneTee, lines: [{ lineId: 'line-1', quantity: 1 }], restocked: true, reason: 'Returned: wrong size' }),
    ]);
    expect(await axeViolations(v.page)).toEqual([]);

    // Again: two tees are left to return; counting only the poster (digital) offers no restock.
    await v.page.keyboard.press('Enter');
    await dialog.waitFor();
    expect(await returned.getByLabel(`${teeName} returned (up to 2)`).count()).toBe(1);
    await returned.getByLabel(`${print!.productName} returned (up to 1)`).fill('1');
    expect(await restock.count()).toBe(0);
    expect(await describedBy()).toMatch(/Nothing goes back into stock\.$/);
    // Not in silence: the Returned items say, in a live region, why nothing is restocked.
    const note = returned.locator('[aria-live="polite"]');
    await expect.poll(() => note.textContent()).toBe(`${print!.productName} is not a physical item, so it does not go back into stock: nothing is restocked.`);
    expect(await axeViolations(v.page)).toEqual([]);
    await v.page.keyboard.press('Escape');
    expect(await dialog.count()).toBe(0);
    expect(await stock()).toBe(1);
    expect(await tier.server.store.read.orders.listRefunds(orderId)).toHaveLength(1);
  });

  test("REFUND-3 a returned seat of the Print Workshop (a limited service): Restock items is offered and on, and the refund frees the seat, as a cancel would", async () => {
    const crumb = 'refund-browser-crumb-0123456789';
    const withCrumb = { cookies: { crumb }, headers: { 'x-csrf-token': crumb } };
    const seats = async () => (await tier.server.store.read.getProduct('workshop'))!.variants[0]!.qtyInStock;
    const before = await seats();
    const added = await tier.server.app.inject({ method: 'POST', url: '/api/commerce/shopping-cart/entries', ...withCrumb, payload: { itemId: 'workshop', sku: 'WKS-1', quantity: 1 } });
    expect(added.statusCode, added.body).toBe(200);
    const placed = await tier.server.app.inject({
      method: 'POST',
      url: '/api/commerce/checkout/place',
      ...withCrumb,
      payload: { cartToken: added.json().shoppingCart.id, email: 'seat@example.com', payment: TEST_CARD, idempotencyKey: 'refund-browser-0003' },
    });
    expect(placed.statusCode, placed.body).toBe(200);
    const { orderId, orderNumber } = placed.json() as { orderId: string; orderNumber: number };
    expect(await seats()).toBe(before - 1);

    const { v, orders } = await ordersPanel();
    const row = orders.locator(`tr[data-order-id="${orderId}"]`);
    await row.waitFor();
    await row.getByRole('button', { name: `Refund… order #${orderNumber}` }).click();
    const dialog = v.page.getByRole('dialog', { name: `Refund order #${orderNumber}` });
    await dialog.waitFor();
    await dialog.getByRole('group', { name: 'Returned items (optional)' }).getByLabel('Print Workshop returned (up to 1)').fill('1');
    const restock = dialog.getByRole('checkbox', { name: 'Restock items' });
    await restock.waitFor();
    expect(await restock.isChecked()).toBe(true);
    // No note that it stays out of stock: a seat goes back.
    expect(await dialog.locator('[data-restock-note]').count()).toBe(0);
    expect(await axeViolations(v.page)).toEqual([]);
    await dialog.locator('[data-action="confirm-refund"]').click();
    await expect.poll(() => orders.getByRole('status').textContent()).toContain('1 item is back in stock.');
    expect(await row.locator('.admin-order-refund-list li').textContent()).toContain('Returned: 1 × Print Workshop, back in stock');
    expect(await seats()).toBe(before);
    expect((await tier.server.store.read.orders.get(orderId))!.refunds).toEqual([expect.objectContaining({ lines: [{ lineId: 'line-1', quantity: 1 }], restocked: true })]);
  });

  test('REFUND-1 the owner refunds part of a paid order from the keyboard; the row and the buyer\'s order status page say Partially refunded with the amounts', async () => {
    const { orderId, orderNumber } = await placePosters(2, 'returns@example.com');
    const order = (await tier.server.store.read.orders.get(orderId))!;
    const money = (cents: number) => formatMoney(cents, order.currency);
    const part = order.items[0]!.unitPrice;
    const total = order.grandTotal;

    await ensureFirstOwner(tier.server.store, { ADMIN_EMAIL: EMAIL, ADMIN_PASSWORD: PASSWORD });
    const v = await tier.newVisitor();
    await v.page.setViewportSize({ width: 1280, height: 800 });
    await v.page.goto('/admin');
    await v.page.getByLabel('Email').fill(EMAIL);
    await v.page.getByLabel('Password').fill(PASSWORD);
    await v.page.getByRole('button', { name: 'Sign in' }).click();
    await v.page.getByRole('heading', { name: 'Inventory', level: 2 }).waitFor();
    await v.page.getByRole('navigation', { name: 'Admin sections' }).getByRole('button', { name: 'Orders' }).click();
    const orders = v.page.locator('[data-admin-panel="orders"]');
    const row = orders.locator(`tr[data-order-id="${orderId}"]`);
    await row.waitFor();
    expect(await row.locator('.admin-order-status').textContent()).toBe('Paid');

    // Keyboard only: the row's Refund… opens the dialog on what came back (first, as the owner
    // fills it in); none counted, Tab reaches the amount (all that is left).
    const opener = row.getByRole('button', { name: `Refund… order #${orderNumber}` });
    await opener.focus();
    await v.page.keyboard.press('Enter');
    const dialog = v.page.getByRole('dialog', { name: `Refund order #${orderNumber}` });
    await dialog.waitFor();
    const amount = dialog.getByLabel(`Amount to refund (${order.currency})`);
    const posterCount = dialog.getByLabel(`${order.items[0]!.productName} returned (up to 2)`);
    await expect.poll(() => posterCount.evaluate((el) => el === document.activeElement)).toBe(true);
    await v.page.keyboard.press('Tab');
    await expect.poll(() => amount.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await amount.inputValue()).toBe((total / 100).toFixed(2));
    expect(await dialog.getAttribute('aria-describedby').then((id) => v.page.locator(`[id="${id}"]`).textContent())).toBe(
      'It goes back to Visa ending 4242 (test) (a test payment: no real money moves). returns@example.com gets an email saying how much was refunded. Nothing goes back into stock.',
    );
    expect(await axeViolations(v.page)).toEqual([]);

    // More than is left is refused before anything is sent, and said at the field.
    await v.page.keyboard.press('ControlOrMeta+a');
    await v.page.keyboard.type(((total + 1) / 100).toFixed(2));
    await v.page.keyboard.press('Enter');
    await expect.poll(() => amount.getAttribute('aria-invalid')).toBe('true');
    expect(await dialog.locator('.admin-field-error').textContent()).toBe(`Enter an amount from ${money(1)} to ${money(total)}.`);
    expect(await tier.server.store.read.orders.listRefunds(orderId)).toEqual([]);
    expect(await axeViolations(v.page)).toEqual([]);

    // One poster came back: its price, with a note for the owner's records.
    await v.page.keyboard.press('ControlOrMeta+a');
    await v.page.keyboard.type((part / 100).toFixed(2));
    await v.page.keyboard.press('Tab');
    await v.page.keyboard.type('Returned: bent corner');
    await v.page.keyboard.press('Enter');
    const left = total - part;
    await expect
      .poll(() => orders.getByRole('status').textContent())
      .toBe(`Order #${orderNumber} is now partially refunded. Refunded ${money(part)} to Visa ending 4242 (test). ${money(left)} is left to refund. returns@example.com is emailed about it.`);
    expect(await dialog.count()).toBe(0);
    expect(await row.locator('.admin-order-status').textContent()).toBe('Partially refunded');
    expect(await row.locator('.admin-order-refund-sum').textContent()).toBe(`Refunded ${money(part)} of ${money(total)}; ${money(left)} left to refund`);
    expect(await row.locator('.admin-order-refund-list li').textContent()).toContain(`${money(part)} to Visa ending 4242 (test), by ${EMAIL} (Returned: bent corner)`);
    // The focus is back on Refund… for the rest; the rest may still be sent.
    await expect.poll(() => opener.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await row.getByLabel(`New status for order #${orderNumber}`).locator('option').allTextContents()).toEqual(['Fulfilled']);
    expect(await axeViolations(v.page)).toEqual([]);
    await v.screenshot('refund-1-partially-refunded');

    // On a phone the dialog fits the screen and passes axe; Escape keeps the order as it is and gives the focus back.
    await v.page.setViewportSize({ width: 390, height: 844 });
    await opener.focus();
    await v.page.keyboard.press('Enter');
    await dialog.waitFor();
    expect(await amount.inputValue()).toBe((left / 100).toFixed(2));
    const box = (await dialog.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect(await axeViolations(v.page)).toEqual([]);
    await v.screenshot('refund-1-dialog-phone');
    await v.page.keyboard.press('Escape');
    expect(await dialog.count()).toBe(0);
    await expect.poll(() => opener.evaluate((el) => el === document.activeElement)).toBe(true);

    const stored = (await tier.server.store.read.orders.get(orderId))!;
    expect(stored).toMatchObject({ status: 'partially-refunded', refunds: [{ amountCents: part, by: EMAIL, reason: 'Returned: bent corner' }] });
    const reference = stored.refunds![0]!.reference!;
    const mails = (await tier.server.store.read.listOutbox()).filter((m) => m.to === 'returns@example.com' && m.subject.startsWith(`A refund of ${money(part)} for your order #${orderNumber} from `));
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail!.body).not.toContain(reference);
    expect(mail!.body).not.toContain('bent corner');

    // The buyer's order status page says it, without the reference or the note.
    const buyer = await tier.newVisitor();
    expect(await visit(buyer.page, '/commerce/orders/status')).toBe(200);
    await buyer.page.getByLabel('Order number').fill(String(orderNumber));
    await buyer.page.getByLabel('Email').fill('returns@example.com');
    await buyer.page.getByRole('button', { name: 'Look up order' }).click();
    await buyer.page.locator('.sf-order-refunds').waitFor();
    expect(await buyer.page.locator('.sf-order-status-state').textContent()).toBe('Status: Partially refunded');
    expect(await buyer.page.locator('.sf-order-refunds').textContent()).toBe(`Refunded ${money(part)} of ${money(total)} to Visa ending 4242 (test).`);
    const page = await buyer.page.content();
    expect(page).not.toContain(reference);
    expect(page).not.toContain('bent corner');
    // Said once (the summary's line, not also the cancel's refund line above it).
    expect(await buyer.page.locator('.sf-order-refund').count()).toBe(0);
    expect((await buyer.page.locator('main, body').first().innerText()).split(`Refunded ${money(part)}`).length - 1).toBe(1);
    expect(await axeViolations(buyer.page)).toEqual([]);
    await buyer.screenshot('refund-1-buyer-order-status');
    // Its confirmation page (202), opened again, says it too, under the payment.
    expect(await visit(buyer.page, `/commerce/orders/${orderId}/confirmed`)).toBe(200);
    expect(await buyer.page.locator('.sf-order-refunds').textContent()).toBe(`Refunded ${money(part)} of ${money(total)} to Visa ending 4242 (test).`);
    expect(await axeViolations(buyer.page)).toEqual([]);
  });
});
