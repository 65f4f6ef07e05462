// [browser] The admin app at /admin (issue 17) in Chromium against the real server on the demo
// site: an owner signs in, finds a product by search, changes its stock and sees the storefront
// follow, sends a restock notice, downloads form submissions as CSV, creates and deletes an API
// key, changes an order's status, approves a pending review (the product page shows it), switches quick view off and on (the shop follows); every panel passes axe (no serious or critical finding) on desktop and phone, and the
// panels and dialogs work from the keyboard. Two tabs: signing in again in one leaves the other
// working, and its Sign out signs out. A stock save from a stale reading is refused and shows the
// stock now; Unlimited and back; long submission values wrap; times in the owner's zone, named;
// cancelling asks first, refunds the test card and says so in the row and the buyer's mail; an ended session keeps what was typed under a
// sign-in dialog; after each action the focus is somewhere, never the page (document.body).
// A refused refund leaves the order paid and says why; a stalled refund holds only its own order
// (the shop and another admin tab are served meanwhile, told the refund is under way); Find narrows many orders; Back goes to
// the panel before.
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, inject, test, vi } from 'vitest';
import { ensureFirstOwner } from '../../renderer/admin/first-owner.ts';
import { formatMoney } from '../../renderer/pages/money.ts';
import { testCardProvider } from '../../renderer/orders/payment-providers.ts';
import { OWNER_EVENTS } from '../../hydrate/admin/owner-events.ts';
import { axeViolations } from './support/axe.ts';
import { viewportShot, type VisitorPage } from './support/chromium.ts';
import { useBrowserTier } from './support/tier.ts';
import { visit } from './support/visit.ts';
import { useMailSink } from './support/mail.ts';

const chromiumPath = inject('chromiumPath');
const EMAIL = 'owner@demo-shop.test';
const PASSWORD = 'browser tier owner password';
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
// API keys last: ADMIN-3 goes on with its key-creation modal.
const PANEL_NAMES = ['Inventory', 'Restock sign-ups', 'Form submissions', 'Orders', 'Reviews', 'Features', 'API keys'] as const;

describe.skipIf(!chromiumPath)(`admin app in Chromium${chromiumPath ? '' : ` (skipped: ${inject('browserSkipReason')})`}`, () => {
  const tier = useBrowserTier(chromiumPath!);
  const mail = useMailSink(tier);

  async function signedIn(viewport = DESKTOP): Promise<VisitorPage> {
    await ensureFirstOwner(tier.server.store, { ADMIN_EMAIL: EMAIL, ADMIN_PASSWORD: PASSWORD });
    const v = await tier.newVisitor();
    await v.page.setViewportSize(viewport);
    await v.page.goto('/admin');
    await v.page.getByLabel('Email').fill(EMAIL);
    await v.page.getByLabel('Password').fill(PASSWORD);
    await v.page.getByRole('button', { name: 'Sign in' }).click();
    await v.page.getByRole('heading', { name: 'Inventory', level: 2 }).waitFor();
    return v;
  }

  /**
   * Posters bought through the API as the checkout island buys them (crumb, cart entry, place);
   * `name` keeps each test's crumb and idempotency key its own.
   */
  async function placePosters(name: string, quantity: number, email: string, payment: Record<string, unknown>): Promise<{ orderId: string; orderNumber: number }> {
    const crumb = `admin-browser-crumb-${name}-0123456789`;
    const withCrumb = { cookies: { crumb }, headers: { 'x-csrf-token': crumb } };
    const added = await tier.server.app.inject({ method: 'POST', url: '/api/commerce/shopping-cart/entries', ...withCrumb, payload: { itemId: 'poster', sku: 'PST-1', quantity } });
    expect(added.statusCode, added.body).toBe(200);
    const placed = await tier.server.app.inject({
      method: 'POST',
      url: '/api/commerce/checkout/place',
      ...withCrumb,
      payload: { cartToken: added.json().shoppingCart.id, email, payment, idempotencyKey: `admin-browser-${name}-0001` },
    });
    expect(placed.statusCode, placed.body).toBe(200);
    return placed.json();
  }

  const TEST_CARD = { provider: 'test', cardNumber: '4242424242424242', expMonth: 12, expYear: 2030, cvc: '123' };

  const panel = (page: Page, name: string) => page.locator(`[data-admin-panel="${name}"]`);
  const openPanel = async (page: Page, label: string) => {
    await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('button', { name: label }).click();
    await page.getByRole('heading', { name: label, level: 2 }).waitFor();
  };
  /** What has the keyboard focus: never the page itself after an owner's action (an element's description). */
  const focused = (page: Page) =>
    page.evaluate(() => {
      const el = document.activeElement;
      if (!el || el === document.body) return 'body';
      return `${el.tagName.toLowerCase()}${el.getAttribute('role') ? `[role=${el.getAttribute('role')}]` : ''}${el.id ? `#${el.id}` : ''}: ${(el.textContent ?? '').trim().slice(0, 60)}`;
    });
  const isFocused = (locator: ReturnType<Page['locator']>) => locator.evaluate((el) => el === document.activeElement);
  const events = async () =>
    (await tier.server.store.client.query<{ schema_name: string }>('SELECT schema_name FROM clanker_events ORDER BY received_at, id')).map((r) => r.schema_name);

  test('ADMIN-1 sign-in: a wrong password is refused without echoing it, a bad email gets the editor wording; the form passes axe', async () => {
    await ensureFirstOwner(tier.server.store, { ADMIN_EMAIL: EMAIL, ADMIN_PASSWORD: PASSWORD });
    const v = await tier.newVisitor();
    v.allowConsoleError(/status of 401/);
    await v.page.setViewportSize(DESKTOP);
    await v.page.goto('/admin');
    await v.page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await axeViolations(v.page)).toEqual([]);
    await v.page.getByLabel('Email').fill('not-an-email');
    await v.page.getByRole('button', { name: 'Sign in' }).click();
    const email = v.page.getByLabel('Email');
    await expect.poll(() => email.getAttribute('aria-invalid')).toBe('true');
    const describedBy = await email.getAttribute('aria-describedby');
    expect(await v.page.locator(`[id="${describedBy}"]`).textContent()).toBe('Please enter a valid email.');
    // The focus goes to the field to correct, not left on the button.
    await expect.poll(() => isFocused(email)).toBe(true);
    await email.fill(EMAIL);
    const password = v.page.getByLabel('Password');
    await password.fill('wrong password 123');
    await v.page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => v.page.getByRole('alert').textContent()).toBe('Email or password is incorrect.');
    expect(await v.page.content()).not.toContain('wrong password 123');
    // The button pressed was disabled while the answer came, which dropped the focus to the page:
    // it is on the emptied password field, to type again.
    await expect.poll(() => isFocused(password)).toBe(true);
    expect(await password.inputValue()).toBe('');
    expect(await axeViolations(v.page)).toEqual([]);
    await v.screenshot('admin-1-sign-in-refused');
    // Typed again, Enter signs in: the focus goes to the open panel's heading, not the page.
    await v.page.keyboard.type(PASSWORD);
    await v.page.keyboard.press('Enter');
    const heading = v.page.getByRole('heading', { name: 'Inventory', level: 2 });
    await heading.waitFor();
    await expect.poll(() => isFocused(heading)).toBe(true);
  });

  test('ADMIN-2 search, stock edit the storefront follows, restock notice, CSV export, API key create and delete', async () => {
    const store = tier.server.store;
    await store.read.addRestockSignUp({ id: 'rs-admin-1', productId: 'tote', variantId: 'tote-1', siteVisitorEmail: 'ada@example.com', isJoinMailingList: false, createdOn: Date.now(), notifiedOn: null });
    const base = { pageId: 'contact', pageTitle: 'Contact', pagePath: '/contact', contentSource: 'c', pagePermissionTypeValue: 1, siteUserId: null };
    await store.read.insertSubmission({ ...base, id: 'sub-admin-1', formId: 'contact', values: { 'contact-name': ['Ada', 'Lovelace'], 'contact-email': 'ada@example.com', 'contact-message': '=SUM(A1:A2), "quoted"' }, createdOn: Date.now() });
    // A value with nowhere to break (a pasted link) and a long one: neither may widen the table.
    const longLink = `https://example.com/${'x'.repeat(400)}`;
    await store.read.insertSubmission({ ...base, id: 'sub-admin-0', formId: 'contact', values: { 'contact-name': ['Bo', 'Long'], 'contact-email': 'bo@example.com', 'contact-message': longLink }, createdOn: Date.now() - 60_000 });

    const v = await signedIn();
    const { page } = v;
    await v.context.grantPermissions(['clipboard-read', 'clipboard-write']);

    // Inventory: search, sort, expander, stock edit.
    const inventory = panel(page, 'inventory');
    expect(await axeViolations(page)).toEqual([]);
    await inventory.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => inventory.locator('.admin-count').textContent()).toContain('page 2');
    await inventory.locator('button[data-sort="price"]').click();
    await expect.poll(() => inventory.locator('th[aria-sort]').textContent()).toContain('Price');
    // A product on sale shows the price it sells at, its regular price struck through after "was".
    await inventory.getByLabel('Search products').fill('cap');
    await inventory.getByRole('button', { name: 'Search' }).click();
    const cap = inventory.locator('tr[data-product-id="cap"]');
    await cap.waitFor();
    expect(await cap.locator('td').nth(3).textContent()).toBe('$22.00 was $30.00');
    expect(await cap.locator('td').nth(3).locator('s').textContent()).toBe('$30.00');
    await inventory.getByLabel('Search products').fill('tote');
    await inventory.getByRole('button', { name: 'Search' }).click();
    const tote = inventory.locator('tr[data-product-id="tote"]');
    await tote.waitFor();
    expect(await inventory.locator('tbody tr[data-product-id]').count()).toBe(1);
    expect(await tote.locator('td').nth(2).textContent()).toBe('0');
    await tote.getByRole('button', { name: 'Variants of Market Tote' }).click();
    const stockInput = inventory.getByLabel('Stock for TOTE-1');
    await stockInput.waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await stockInput.fill('-2');
    await inventory.getByRole('button', { name: 'Save stock' }).click();
    await expect.poll(() => stockInput.getAttribute('aria-invalid')).toBe('true');
    expect(await inventory.locator('.admin-field-error').textContent()).toBe('-2 is not one of the expected options.');
    // The owner's reading goes stale: another tab (here the store itself) sets 6 first. The save
    // of 5 made from 0 is refused (409 STOCK_CHANGED), the field shows 6 and says so.
    v.allowConsoleError(/status of 409/);
    await store.transaction((repo) => repo.updateVariantStock('tote', 'tote-1', { qtyInStock: 6 }));
    await stockInput.fill('5');
    await inventory.getByRole('button', { name: 'Save stock' }).click();
    await expect.poll(() => stockInput.inputValue()).toBe('6');
    expect(await inventory.locator('.admin-field-error').textContent()).toBe(
      'Not saved: the stock changed to 6 since you opened it (another tab or a sale). Your 5 was not saved; check it and save again.',
    );
    expect(await isFocused(stockInput)).toBe(true);
    expect((await store.read.getProduct('tote'))?.variants[0]?.qtyInStock).toBe(6);
    await v.screenshot('admin-2-inventory-stock-changed');
    // Unlimited, and back to a count: each saved from the reading the field shows.
    const unlimited = inventory.getByRole('checkbox', { name: 'Unlimited for TOTE-1' });
    await unlimited.check();
    expect(await stockInput.isDisabled()).toBe(true);
    await inventory.getByRole('button', { name: 'Save stock' }).click();
    await expect.poll(() => inventory.getByRole('status').textContent()).toBe('Stock of TOTE-1 set to Unlimited.');
    await expect.poll(() => tote.locator('td').nth(2).textContent()).toBe('Unlimited');
    expect((await store.read.getProduct('tote'))?.variants[0]?.unlimited).toBe(true);
    expect(await isFocused(unlimited)).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await unlimited.uncheck();
    await stockInput.fill('4');
    // Save from the keyboard: the saved field keeps the focus, the page never gets it.
    await inventory.getByRole('button', { name: 'Save stock' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => inventory.getByRole('status').textContent()).toBe('Stock of TOTE-1 set to 4.');
    await expect.poll(() => tote.locator('td').nth(2).textContent()).toBe('4');
    expect(await isFocused(stockInput)).toBe(true);
    expect((await store.read.getProduct('tote'))?.variants[0]).toMatchObject({ unlimited: false, qtyInStock: 4 });
    // Sold out, then back: nobody is mailed unasked, but the owner is told who waits for the notice.
    await stockInput.fill('0');
    await page.keyboard.press('Enter');
    await expect.poll(() => inventory.getByRole('status').textContent()).toBe('Stock of TOTE-1 set to 0.');
    await stockInput.fill('4');
    await page.keyboard.press('Enter');
    await expect.poll(() => inventory.getByRole('status').textContent()).toBe('Stock of TOTE-1 set to 4. 1 visitor is waiting for it: send the notice in Restock sign-ups.');
    expect(await isFocused(stockInput)).toBe(true);
    expect((await store.read.listOutbox()).filter((m) => m.to === 'ada@example.com')).toEqual([]);
    await tote.getByRole('button', { name: 'Market Tote', exact: true }).click(); // the row click closes it again
    await expect.poll(() => tote.getByRole('button', { name: 'Market Tote', exact: true }).getAttribute('aria-expanded')).toBe('false');
    await v.screenshot('admin-2-inventory-stock-saved');

    // The storefront follows: the tote is buyable again.
    const shop = await v.context.newPage();
    await visit(shop, '/shop/tote');
    await expect
      .poll(() => shop.locator('.sf-product .sqs-add-to-cart-button .sqs-add-to-cart-button-inner').textContent())
      .toBe('Add To Cart');
    await shop.close();

    // Restock: the waiting sign-up for the tote, now in stock, gets its notice.
    await openPanel(page, 'Restock sign-ups');
    const restock = panel(page, 'restock');
    const row = restock.locator('tr[data-variant-id="tote-1"]');
    await row.waitFor();
    expect(await row.locator('td').first().textContent()).toBe('1');
    expect(await axeViolations(page)).toEqual([]);
    await row.getByRole('button', { name: /Send notice/ }).click();
    await expect.poll(() => restock.getByRole('status').textContent()).toBe('1 notice sent for Market Tote (TOTE-1).');
    // The button is disabled now (nobody waits): the line saying what was sent has the focus.
    await expect.poll(() => focused(page)).toBe('p[role=status]: 1 notice sent for Market Tote (TOTE-1).');
    const mail = (await store.read.listOutbox()).filter((m) => JSON.stringify(m).includes('ada@example.com'));
    expect(mail.length).toBe(1);
    // It says where to buy it: the sign-up was made on a page the visitor closed long ago.
    expect(mail[0]!.subject).toBe('Market Tote is back in stock');
    expect(mail[0]!.body).toMatch(/^Good news: Market Tote is back in stock at Quire Demo Shop\.\n\nOrder it here: https?:\/\/[^/\s]+\/shop\/tote\n$/);
    await v.screenshot('admin-3-restock-sent');

    // Submissions: the contact form's CSV, with the formula cell defused.
    await openPanel(page, 'Form submissions');
    const submissions = panel(page, 'submissions');
    await submissions.getByLabel('Form').selectOption('contact');
    await submissions.locator('tbody tr').first().waitFor();
    expect(await submissions.locator('tbody tr').first().textContent()).toContain('Ada Lovelace');
    expect(await axeViolations(page)).toEqual([]);
    // The long value wraps in its cell and shows its start; "Show all" opens the whole of it.
    const longCell = submissions.locator('tbody tr', { hasText: 'Bo Long' }).locator('td').nth(4);
    const box = await longCell.evaluate((cell) => ({ width: cell.getBoundingClientRect().width, overflow: cell.scrollWidth - cell.clientWidth }));
    expect(box.overflow).toBe(0);
    expect(box.width).toBeLessThanOrEqual(24 * 16 + 1);
    const wrap = submissions.locator('.admin-table-wrap');
    expect(await wrap.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    expect(await longCell.textContent()).not.toContain(longLink);
    await longCell.getByRole('button', { name: /Show all \(420 characters\)/ }).click();
    await expect.poll(() => longCell.textContent()).toContain(longLink);
    expect(await longCell.getByRole('button', { name: /Show less/ }).getAttribute('aria-expanded')).toBe('true');
    expect(await axeViolations(page)).toEqual([]);
    await v.screenshot('admin-3-submission-long-value');
    const [download] = await Promise.all([page.waitForEvent('download'), submissions.getByRole('link', { name: /Export as CSV/ }).click()]);
    expect(download.suggestedFilename()).toBe('contact-submissions.csv');
    const csv = readFileSync((await download.path())!, 'utf8');
    const lines = csv.split('\r\n');
    // A byte-order mark first, so Excel reads the file as UTF-8.
    expect(lines[0]).toBe('\uFEFF"Submitted on","Page","Name","Email","Message"');
    expect(lines[1]).toMatch(/^"[^"]+","\/contact","Ada Lovelace","ada@example.com","'=SUM\(A1:A2\), ""quoted"""$/);

    // API keys: create (name, next, copy, done), then delete with confirmation.
    await openPanel(page, 'API keys');
    const keys = panel(page, 'api-keys');
    expect(await axeViolations(page)).toEqual([]);
    await keys.getByRole('button', { name: 'Create key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create API key' });
    await dialog.waitFor();
    expect(await dialog.getAttribute('aria-modal')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.id === document.querySelector('[role="dialog"] input')?.id)).toBe(true);
    await dialog.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => dialog.getByLabel('Key name').getAttribute('aria-invalid')).toBe('true');
    await dialog.getByLabel('Key name').fill('Stock sync');
    await dialog.getByRole('button', { name: 'Next' }).click();
    const shown = page.getByRole('dialog', { name: 'Your new API key' });
    await shown.waitFor();
    // The second step moves the focus into its own content (the key), not to the page.
    await expect.poll(() => shown.locator('input[data-secret]').evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    const secret = await shown.locator('input[data-secret]').inputValue();
    expect(secret).toMatch(/^qk_/);
    await shown.getByRole('button', { name: 'Copy' }).click();
    await expect.poll(() => shown.getByRole('status').textContent()).toBe('Key copied to the clipboard.');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await v.screenshot('admin-4-key-created');
    await shown.getByRole('button', { name: 'Done' }).click();
    const keyRow = keys.locator('tbody tr', { hasText: 'Stock sync' });
    await keyRow.waitFor();
    expect(await keyRow.textContent()).not.toContain(secret);
    // The key works as a bearer for the admin API, from a script.
    const viaKey = await fetch(`${tier.server.url}/api/admin/inventory?q=tote`, { headers: { authorization: `Bearer ${secret}` } });
    expect(viaKey.status).toBe(200);

    await keyRow.getByRole('button', { name: 'Delete key Stock sync' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete API key?' });
    await confirm.waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await confirm.getByRole('button', { name: 'Delete key' }).click();
    await expect.poll(() => keys.getByRole('status').textContent()).toBe('Key “Stock sync” deleted.');
    // The status line can come a render before the row leaves the table on a busy machine.
    await expect.poll(() => keys.locator('tbody tr', { hasText: 'Stock sync' }).count()).toBe(0);
    // The dialog's opener (the row's Delete button) is gone: the focus is on the line saying so.
    expect(await focused(page)).toBe('p[role=status]: Key “Stock sync” deleted.');
    const revoked = await fetch(`${tier.server.url}/api/admin/inventory`, { headers: { authorization: `Bearer ${secret}` } });
    expect(revoked.status).toBe(401);

    // The owner events of the inventory panel and the key-creation modal reached the tracker endpoint.
    await expect
      .poll(events)
      .toEqual(
        expect.arrayContaining([
          OWNER_EVENTS.inventory.nextPage,
          OWNER_EVENTS.inventory.sortPrice,
          OWNER_EVENTS.inventory.search,
          OWNER_EVENTS.inventory.rowExpander,
          OWNER_EVENTS.inventory.rowClick,
          OWNER_EVENTS.apiKeys.createKey,
          OWNER_EVENTS.apiKeys.modalNext,
          OWNER_EVENTS.apiKeys.modalCopy,
          OWNER_EVENTS.apiKeys.modalComplete,
          OWNER_EVENTS.apiKeys.deleteKey,
          OWNER_EVENTS.apiKeys.deleteKeyConfirm,
        ]),
      );
  });

  test('ADMIN-4 orders: a placed order is listed with its total, and its status changes', async () => {
    const { orderId, orderNumber } = await placePosters('order', 2, 'buyer@example.com', TEST_CARD);
    // Twenty older orders (copies of it, without its download token, which is one order's): a second page, read with More orders.
    const order = (await tier.server.store.read.orders.get(orderId))!;
    for (let i = 1; i <= 20; i++) {
      await tier.server.store.read.orders.insert({ ...order, id: `${orderId}-older-${i}`, orderNumber: 9000 + i, createdOn: order.createdOn - i * 60_000, purchasedCartId: null, downloadToken: undefined }, null);
    }

    const v = await signedIn();
    // The owner's clock is in Berlin: times are shown there, with the zone named.
    const cdp = await v.context.newCDPSession(v.page);
    await cdp.send('Emulation.setTimezoneOverride', { timezoneId: 'Europe/Berlin' });
    await openPanel(v.page, 'Orders');
    const orders = panel(v.page, 'orders');
    const row = orders.locator(`tr[data-order-id="${orderId}"]`);
    await row.waitFor();
    expect(await row.textContent()).toContain('buyer@example.com');
    expect(await row.textContent()).toContain('2 × Poster (digital)');
    expect(await row.locator('.admin-order-status').textContent()).toBe('Paid');
    const placedAt = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Berlin', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(order.createdOn);
    expect(await row.locator('td').first().textContent()).toMatch(new RegExp(`^\\d{4}-\\d{2}-\\d{2} ${placedAt} GMT\\+1$`));
    expect(await axeViolations(v.page)).toEqual([]);
    // More orders reads the last page: the button goes, and the first new row has the focus.
    await orders.getByRole('button', { name: 'More orders' }).click();
    await expect.poll(() => orders.locator('tbody tr').count()).toBe(21);
    expect(await orders.getByRole('button', { name: 'More orders' }).count()).toBe(0);
    await expect.poll(() => focused(v.page)).toMatch(/^th\[role=rowheader\]: #9020\b/);
    await row.getByLabel(`New status for order #${orderNumber}`).selectOption('fulfilled');
    // A double click sends the move once (the second sent it again, and its 409 replaced the news).
    const statusPosts: string[] = [];
    const statusAnswers: number[] = [];
    v.page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/status')) statusPosts.push(request.url());
    });
    v.page.on('response', (response) => {
      if (response.request().method() === 'POST' && response.url().endsWith('/status')) statusAnswers.push(response.status());
    });
    await row.getByRole('button', { name: `Update order #${orderNumber}` }).dblclick();
    await expect.poll(() => orders.getByRole('status').textContent()).toBe(`Order #${orderNumber} is now fulfilled.`);
    await expect.poll(() => statusAnswers.length).toBe(1);
    expect(statusPosts).toHaveLength(1);
    expect(await row.locator('.admin-order-status').textContent()).toBe('Fulfilled');
    // Fulfilled has no further moves: the select and button are gone, the new status has the focus.
    expect(await row.getByRole('button', { name: /^Update/ }).count()).toBe(0);
    await expect.poll(() => isFocused(row.locator('.admin-order-status'))).toBe(true);
    // Cancelling asks first (what happens to the stock, the buyer and the money), then mails the buyer.
    const older = orders.locator(`tr[data-order-id="${orderId}-older-1"]`);
    await older.getByLabel('New status for order #9001').selectOption('cancelled');
    await older.getByRole('button', { name: 'Update order #9001' }).click();
    const confirm = v.page.getByRole('alertdialog', { name: 'Cancel order #9001?' });
    await confirm.waitFor();
    const total = formatMoney(order.grandTotal, order.currency);
    expect(await confirm.textContent()).toContain(
      `buyer@example.com gets an email saying the order is cancelled. The payment (Visa ending 4242 (test), ${total}) is refunded first (a test payment: no real money moves); if the refund fails, the order stays as it is.`,
    );
    expect(await axeViolations(v.page)).toEqual([]);
    await v.screenshot('admin-6-order-cancel-confirm');
    await confirm.getByRole('button', { name: 'Keep order' }).click();
    expect((await tier.server.store.read.orders.get(`${orderId}-older-1`))?.status).toBe('paid');
    await older.getByRole('button', { name: 'Update order #9001' }).click();
    await v.page.getByRole('alertdialog', { name: 'Cancel order #9001?' }).getByRole('button', { name: 'Cancel order' }).click();
    // Confirmed: the test card refunded the total before the cancel committed, and the row and the mail say so.
    await expect.poll(() => orders.getByRole('status').textContent()).toBe(`Order #9001 is now cancelled. Refunded ${total} to Visa ending 4242 (test). buyer@example.com is emailed about it.`);
    expect(await older.locator('.admin-order-status').textContent()).toBe('Cancelled');
    expect(await older.locator('.admin-order-refund').textContent()).toMatch(new RegExp(`^Refunded ${total.replace(/[$.]/g, '\\$&')} to Visa ending 4242 \\(test\\)Refund test_refund_`));
    const cancelledOrder = await tier.server.store.read.orders.get(`${orderId}-older-1`);
    expect(cancelledOrder).toMatchObject({ status: 'cancelled', refund: { kind: 'refunded', amountCents: order.grandTotal, reference: expect.stringMatching(/^test_refund_/) } });
    const cancelMail = (await tier.server.store.read.listOutbox()).filter((m) => m.subject.endsWith('#9001 from Demo Shop is cancelled') || /#9001 .*cancelled/.test(m.subject));
    expect(cancelMail).toHaveLength(1);
    expect(cancelMail[0]!.to).toBe('buyer@example.com');
    expect(cancelMail[0]!.body).toContain(`refunded ${total} to Visa ending 4242 (test).`);
    // The buyer's order status page says the same, without the provider's refund reference.
    const buyer = await tier.newVisitor();
    expect(await visit(buyer.page, '/commerce/orders/status')).toBe(200);
    await buyer.page.getByLabel('Order number').fill('9001');
    await buyer.page.getByLabel('Email').fill('buyer@example.com');
    await buyer.page.getByRole('button', { name: 'Look up order' }).click();
    await buyer.page.locator('.sf-order-refund').waitFor();
    expect(await buyer.page.locator('.sf-order-status-state').textContent()).toBe('Status: Cancelled');
    expect(await buyer.page.locator('.sf-order-refund').textContent()).toBe(`Refunded ${total} to Visa ending 4242 (test).`);
    expect(await buyer.page.content()).not.toContain(cancelledOrder!.refund!.reference!);
    expect(await axeViolations(buyer.page)).toEqual([]);
    // Its confirmation page, opened again from the buyer's history, says it is cancelled too.
    expect(await visit(buyer.page, `/commerce/orders/${orderId}-older-1/confirmed`)).toBe(200);
    expect(await buyer.page.locator('.sf-order-cancelled').textContent()).toBe(`This order has been cancelled. Refunded ${total} to Visa ending 4242 (test).`);
    expect(await buyer.page.getByText('Your order is confirmed.').count()).toBe(0);
    await expect.poll(() => isFocused(older.locator('.admin-order-status'))).toBe(true);
    expect((await tier.server.store.read.orders.get(orderId))?.status).toBe('fulfilled');
    await v.screenshot('admin-6-order-fulfilled');
    // On a phone the wide table scrolls inside its wrapper: the rows' visually hidden labels
    // (absolutely positioned) must not widen the page itself.
    await v.page.setViewportSize(PHONE);
    expect(await v.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  });

  test('ADMIN-5 features: the owner switches quick view off and the shop stops offering it; on again, it is back; reset to the site folder', async () => {
    const v = await signedIn();
    const { page } = v;
    await openPanel(page, 'Features');
    const features = panel(page, 'features');
    const quickView = features.getByRole('switch', { name: 'quick-view' });
    await quickView.waitFor();
    expect(await quickView.isChecked()).toBe(true);
    expect(await features.locator('tr[data-feature="quick-view"] [data-cell="folder"]').textContent()).toBe('On (default)');
    expect(await axeViolations(page)).toEqual([]);
    const shop = await v.context.newPage();
    const offered = shop.getByRole('button', { name: 'Quick View' });

    await quickView.click();
    await expect.poll(() => features.getByRole('status').textContent()).toBe('quick-view is now off.');
    expect(await quickView.isChecked()).toBe(false);
    expect(await features.locator('tr[data-feature="quick-view"] [data-cell="override"]').textContent()).toBe('Off');
    expect(await axeViolations(page)).toEqual([]);
    await v.screenshot('admin-7-quick-view-off');
    expect(await visit(shop, '/shop')).toBe(200);
    expect(await shop.locator('.sf-product-card').count()).toBeGreaterThan(0);
    expect(await offered.count()).toBe(0);

    await quickView.click();
    await expect.poll(() => features.getByRole('status').textContent()).toBe('quick-view is now on.');
    expect(await visit(shop, '/shop')).toBe(200);
    await expect.poll(() => offered.first().isVisible()).toBe(true);

    // Reset: the override is dropped (DELETE, nothing else was stored) and the folder's value applies.
    await features.getByRole('button', { name: "Reset quick-view to the site folder's value" }).click();
    await expect.poll(() => features.getByRole('status').textContent()).toBe("quick-view is back to the site folder's value (on).");
    expect((await tier.server.store.read.getSite())?.features ?? null).toBeNull();
    await shop.close();
  });

  test('ADMIN-6 reviews: the owner approves a pending review from the keyboard and the product page shows it', async () => {
    const store = tier.server.store;
    const websiteId = (await store.read.getSite())!.websiteId;
    await store.read.reviews.add({ id: 'rv-admin-1', websiteId, productId: 'tee', rating: 4, name: 'Ada', text: 'Holds its colour wash after wash.', status: 'pending', createdOn: Date.now() });
    const v = await signedIn();
    const { page } = v;
    const shop = await v.context.newPage();
    expect(await visit(shop, '/shop/tee')).toBe(200);
    expect(await shop.locator('.sf-reviews').textContent()).not.toContain('Holds its colour');

    await openPanel(page, 'Reviews');
    const reviews = panel(page, 'reviews');
    const row = reviews.locator('tr[data-review-id="rv-admin-1"]');
    await row.waitFor();
    expect(await row.locator('th').textContent()).toBe('Classic Tee');
    expect(await row.locator('.admin-stars .admin-visually-hidden').textContent()).toBe('4 of 5 stars');
    expect(await axeViolations(page)).toEqual([]);
    await v.screenshot('admin-8-review-pending');
    await row.getByRole('button', { name: 'Approve review by Ada of Classic Tee' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => reviews.getByRole('status').textContent()).toBe('Review by Ada of Classic Tee approved: it now shows on the product page.');
    await expect.poll(() => row.count()).toBe(0);
    await v.screenshot('admin-9-review-approved');

    expect(await visit(shop, '/shop/tee')).toBe(200);
    expect(await shop.locator('.sf-reviews').textContent()).toContain('Holds its colour wash after wash.');
    expect(await shop.locator('.sf-review-rating[aria-label="4 out of 5"]').count()).toBeGreaterThan(0);
    await shop.close();
  });

  test('ADMIN-3 every panel passes axe on desktop and phone, and is reachable from the keyboard', async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const v = await signedIn(viewport);
      const { page } = v;
      for (const name of PANEL_NAMES) {
        // Keyboard: focus the section's button and press Enter.
        const button = page.getByRole('navigation', { name: 'Admin sections' }).getByRole('button', { name });
        await button.focus();
        await page.keyboard.press('Enter');
        await page.getByRole('heading', { name, level: 2 }).waitFor();
        await expect.poll(() => button.getAttribute('aria-current')).toBe('page');
        await page.waitForLoadState('networkidle');
        expect(await axeViolations(page), `${name} at ${viewport.width}px`).toEqual([]);
        await viewportShot(page, `admin-5-${name.toLowerCase().replace(/\W+/g, '-')}-${viewport.width}`);
      }
      // No control is taken out of the tab order or pushed ahead of it.
      const order = await page.evaluate(() => [...document.querySelectorAll('[tabindex]')].map((el) => el.getAttribute('tabindex')).filter((t) => t !== '-1' && t !== '0'));
      expect(order).toEqual([]);
      // The key-creation modal from the keyboard: Enter opens it, focus is inside, Tab stays in,
      // Escape cancels and focus returns to the opener.
      const create = page.getByRole('button', { name: 'Create key' });
      await create.focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: 'Create API key' });
      await dialog.waitFor();
      for (let i = 0; i < 5; i++) {
        await page.keyboard.press('Tab');
        expect(await page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'))).toBe(true);
      }
      await page.keyboard.press('Escape');
      await expect.poll(() => dialog.count()).toBe(0);
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Create key');
      // Sign out from the keyboard too: back to the sign-in form, which says so and takes the
      // focus (the Sign out button pressed is gone).
      await page.getByRole('button', { name: 'Sign out' }).focus();
      await page.keyboard.press('Enter');
      const signInHeading = page.getByRole('heading', { name: 'Sign in' });
      await signInHeading.waitFor();
      await expect.poll(() => isFocused(signInHeading)).toBe(true);
      expect(await page.getByRole('status').textContent()).toBe('You are signed out.');
      expect(await axeViolations(page)).toEqual([]);
      expect(v.problems()).toEqual([]);
      await v.context.close();
    }
    expect(await events()).toContain(OWNER_EVENTS.apiKeys.modalCancel);
  });

  test('ADMIN-8 an ended session: the change is refused with a message, a sign-in dialog keeps what was typed, and the save goes through after it', async () => {
    const v = await signedIn();
    const { page } = v;
    v.allowConsoleError(/status of 401/);
    const inventory = panel(page, 'inventory');
    await inventory.getByLabel('Search products').fill('tote');
    await inventory.getByRole('button', { name: 'Search' }).click();
    const tote = inventory.locator('tr[data-product-id="tote"]');
    await tote.getByRole('button', { name: 'Variants of Market Tote' }).click();
    const stockInput = inventory.getByLabel('Stock for TOTE-1');
    await stockInput.fill('17');
    // The session runs out (12 hours) while the owner types.
    await tier.server.store.client.query('UPDATE owner_sessions SET expires_at = 0');
    await inventory.getByRole('button', { name: 'Save stock' }).click();
    const dialog = page.getByRole('dialog', { name: 'Sign in again' });
    await dialog.waitFor();
    expect(await dialog.getAttribute('aria-modal')).toBe('true');
    expect(await dialog.textContent()).toContain('Your session has ended.');
    expect(await dialog.getByLabel('Email').inputValue()).toBe(EMAIL);
    await expect.poll(() => page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'))).toBe(true);
    // Behind it, the field still holds 17 and says why it was not saved.
    expect(await stockInput.inputValue()).toBe('17');
    expect(await inventory.locator('.admin-field-error').textContent()).toBe('Not saved: your session has ended. Sign in again, then save once more.');
    expect(await axeViolations(page)).toEqual([]);
    await v.screenshot('admin-10-session-ended');
    await dialog.getByLabel('Password').fill(PASSWORD);
    await dialog.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    // Back where the owner was, with the value typed; saving now goes through.
    expect(await stockInput.inputValue()).toBe('17');
    expect(await focused(page)).not.toBe('body');
    await inventory.getByRole('button', { name: 'Save stock' }).click();
    await expect.poll(() => inventory.getByRole('status').textContent()).toBe('Stock of TOTE-1 set to 17.');
    expect((await tier.server.store.read.getProduct('tote'))?.variants[0]?.qtyInStock).toBe(17);
  });

  test('ADMIN-9 sorted by stock, a save that moves its row keeps the focus on the saved field', async () => {
    // The sold-out vinyl is the only product with no stock (the tote, sold out in the demo, is restocked as ADMIN-8 leaves it).
    await tier.server.store.transaction((repo) => repo.updateVariantStock('tote', 'tote-1', { qtyInStock: 17 }));
    const v = await signedIn();
    const { page } = v;
    const inventory = panel(page, 'inventory');
    await inventory.locator('button[data-sort="stock"]').click();
    await expect.poll(() => inventory.locator('th[aria-sort="ascending"]').textContent()).toContain('Stock');
    const ids = () => inventory.locator('tbody tr[data-product-id]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-product-id')));
    await expect.poll(async () => (await ids())[0]).toBe('vinyl');
    const second = (await ids())[1];
    const vinyl = inventory.locator('tr[data-product-id="vinyl"]');
    await vinyl.getByRole('button', { name: 'Variants of' }).click();
    const field = inventory.getByLabel('Stock for VNL-BLK');
    // Sold out before (0): 7 puts it after the second row, so its rows move in the table (React
    // gives the focus back to a moved element; this keeps it so).
    await field.fill('7');
    await inventory.getByRole('button', { name: 'Save stock for VNL-BLK' }).click();
    await expect.poll(() => inventory.getByRole('status').textContent()).toBe('Stock of VNL-BLK set to 7.');
    await expect.poll(async () => (await ids()).slice(0, 2)).toEqual([second, 'vinyl']);
    await expect.poll(() => isFocused(field)).toBe(true);
  });

  test('ADMIN-10 the browser Back goes to the panel before, not out of the admin; a reload opens the same panel', async () => {
    const v = await signedIn();
    const { page } = v;
    const heading = (label: string) => page.getByRole('heading', { name: label, level: 2 });
    await openPanel(page, 'Orders');
    expect(new URL(page.url()).hash).toBe('#orders');
    await openPanel(page, 'Reviews');
    await page.goBack();
    await heading('Orders').waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin');
    await page.goBack();
    await heading('Inventory').waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin');
    await page.goForward();
    await heading('Orders').waitFor();
    await page.reload();
    await heading('Orders').waitFor();
    expect(await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('button', { name: 'Orders' }).getAttribute('aria-current')).toBe('page');
  });

  test('ADMIN-11 orders: Find narrows many orders to one number, an email or a status, and back to all; Export as CSV takes those found', async () => {
    const placed = await placePosters('find', 1, 'find-me@example.com', { provider: 'manual' });
    const order = (await tier.server.store.read.orders.get(placed.orderId))!;
    // Sixty more, three of them Zoë's: more than three pages of 20.
    for (let i = 1; i <= 60; i++) {
      const email = i % 20 === 0 ? `zoë.${i}@example.com` : `crowd-${i}@example.com`;
      await tier.server.store.read.orders.insert({ ...order, id: `${order.id}-find-${i}`, orderNumber: 7000 + i, email, createdOn: order.createdOn - i * 1000, purchasedCartId: null }, null);
    }
    const v = await signedIn();
    await openPanel(v.page, 'Orders');
    const orders = panel(v.page, 'orders');
    await expect.poll(() => orders.locator('tbody tr').count()).toBe(20);
    const find = async (text: string, status = '') => {
      await orders.getByLabel('Find orders').fill(text);
      await orders.getByLabel('Status', { exact: true }).selectOption(status);
      await orders.getByRole('button', { name: 'Find' }).click();
    };
    const numbers = () => orders.locator('tbody tr th').evaluateAll((cells) => cells.map((cell) => (cell.textContent ?? '').trim()));
    await find('#7033');
    await expect.poll(numbers).toEqual(['#7033']);
    await find('ZOË.');
    await expect.poll(numbers).toEqual(['#7020', '#7040', '#7060']);
    // Said as well as shown: the status line tells a screen reader's user what the Find found.
    await expect.poll(() => orders.getByRole('status').textContent()).toBe('3 orders found.');
    // Export as CSV takes the orders found, with a byte-order mark so Excel reads `ë`.
    const [download] = await Promise.all([v.page.waitForEvent('download'), orders.getByRole('link', { name: /Export as CSV/ }).click()]);
    expect(download.suggestedFilename()).toBe('orders.csv');
    const csv = readFileSync((await download.path())!, 'utf8');
    expect(csv.startsWith('\uFEFF"Order","Placed on","Email"')).toBe(true);
    const exported = csv.slice(1).split('\r\n').filter((line) => line !== '');
    expect(exported.map((line) => line.split(',')[0])).toEqual(['"Order"', '"#7020"', '"#7040"', '"#7060"']);
    expect(exported[1]).toContain('"zoë.20@example.com","awaiting-payment","USD"');
    await find('', 'awaiting-payment');
    await expect.poll(() => orders.locator('tbody tr').count()).toBe(20);
    expect(await orders.getByRole('button', { name: 'More orders' }).count()).toBe(1);
    await expect.poll(() => orders.getByRole('status').textContent()).toBe('20 orders found, and more after them (More orders).');
    await find('nobody-at-all');
    await expect.poll(() => orders.getByText('No orders match.').count()).toBe(1);
    await expect.poll(() => orders.getByRole('status').textContent()).toBe('No orders found.');
    expect(await axeViolations(v.page)).toEqual([]);
    await find('');
    await expect.poll(() => orders.locator('tbody tr').count()).toBe(20);
    // The bank transfer arrived: marked paid, the buyer is mailed, and the owner is told so.
    const { orderNumber } = placed;
    await find(`#${orderNumber}`);
    await expect.poll(numbers).toEqual([`#${orderNumber}`]);
    await orders.getByRole('button', { name: `Update order #${orderNumber}` }).click();
    await expect.poll(() => orders.getByRole('status').textContent()).toBe(`Order #${orderNumber} is now paid. find-me@example.com is emailed that the payment arrived.`);
    const mails = (await tier.server.store.read.listOutbox()).filter((mail) => mail.to === 'find-me@example.com' && mail.subject.startsWith('Payment received: '));
    expect(mails).toHaveLength(1);
  });

  test('ADMIN-12 a refused refund: the order stays paid, the owner reads why, and the focus is not lost', async () => {
    const { orderId, orderNumber } = await placePosters('refund', 1, 'refund-refused@example.com', { ...TEST_CARD, cardNumber: '4000 0000 0000 5126' });
    const v = await signedIn();
    v.allowConsoleError(/status of 502/);
    await openPanel(v.page, 'Orders');
    const orders = panel(v.page, 'orders');
    const row = orders.locator(`tr[data-order-id="${orderId}"]`);
    await row.getByLabel(`New status for order #${orderNumber}`).selectOption('cancelled');
    await row.getByRole('button', { name: `Update order #${orderNumber}` }).click();
    await v.page.getByRole('alertdialog', { name: `Cancel order #${orderNumber}?` }).getByRole('button', { name: 'Cancel order' }).click();
    await expect.poll(() => orders.getByRole('status').textContent()).toBe("The refund failed, so the order was not cancelled: The card's bank refused the refund.");
    expect(await row.locator('.admin-order-status').textContent()).toBe('Paid');
    expect(await row.locator('.admin-order-refund').count()).toBe(0);
    expect(await focused(v.page)).not.toBe('body');
    expect((await tier.server.store.read.orders.get(orderId))?.status).toBe('paid');
    expect((await tier.server.store.read.listOutbox()).filter((mail) => mail.subject.includes(`#${orderNumber} `) && mail.subject.endsWith('is cancelled'))).toEqual([]);
  });

  test("ADMIN-13 a stalled refund holds only its own order: the shop and the admin's other tab are served meanwhile, and that tab is told the refund is under way", async () => {
    const { orderId, orderNumber } = await placePosters('stall', 1, 'stalled-refund@example.com', TEST_CARD);
    const order = (await tier.server.store.read.orders.get(orderId))!;
    const total = formatMoney(order.grandTotal, order.currency);
    const steps: string[] = [];
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let asked!: () => void;
    const askedOnce = new Promise<void>((resolve) => (asked = resolve));
    const realRefund = testCardProvider.refund;
    // The provider stalls until released: the embedded store has one connection, which the old
    // cancel held (row lock) for as long as the provider took.
    const refund = vi.spyOn(testCardProvider, 'refund').mockImplementation(async (...args) => {
      steps.push('refund asked');
      asked();
      await released;
      steps.push('refund answered');
      return realRefund.apply(testCardProvider, args);
    });
    try {
      const v = await signedIn();
      await openPanel(v.page, 'Orders');
      const orders = panel(v.page, 'orders');
      const row = orders.locator(`tr[data-order-id="${orderId}"]`);
      await row.getByLabel(`New status for order #${orderNumber}`).selectOption('cancelled');
      await row.getByRole('button', { name: `Update order #${orderNumber}` }).click();
      await v.page.getByRole('alertdialog', { name: `Cancel order #${orderNumber}?` }).getByRole('button', { name: 'Cancel order' }).click();
      await askedOnce;
      expect(await orders.getByRole('status').textContent()).toBe(`Cancelling order #${orderNumber}…`);
      // A shopper's pages (the cart reads the store) are served while the provider stalls.
      const shop = await v.context.newPage();
      expect(await visit(shop, '/cart')).toBe(200);
      expect(await visit(shop, '/shop/poster')).toBe(200);
      steps.push('shop served');
      // The owner's other tab: marking the same order fulfilled is refused, and its row says why.
      const other = await v.context.newPage();
      await other.goto('/admin');
      await other.getByRole('heading', { name: 'Inventory', level: 2 }).waitFor();
      await openPanel(other, 'Orders');
      const otherRow = panel(other, 'orders').locator(`tr[data-order-id="${orderId}"]`);
      await otherRow.getByLabel(`New status for order #${orderNumber}`).selectOption('fulfilled');
      await otherRow.getByRole('button', { name: `Update order #${orderNumber}` }).click();
      await expect.poll(() => panel(other, 'orders').getByRole('status').textContent()).toBe("This order's refund is under way. Wait a moment, then look at the order again.");
      await expect.poll(() => otherRow.locator('[data-refund-pending]').textContent()).toBe('Refund under way or unfinished: cancelling again finishes it.');
      expect(await otherRow.locator('.admin-order-status').textContent()).toBe('Paid');
      expect(await axeViolations(other)).toEqual([]);
      steps.push('other tab told');
      release();
      await expect.poll(() => orders.getByRole('status').textContent()).toBe(`Order #${orderNumber} is now cancelled. Refunded ${total} to Visa ending 4242 (test). stalled-refund@example.com is emailed about it.`);
      expect(await row.locator('.admin-order-status').textContent()).toBe('Cancelled');
      expect(await row.locator('[data-refund-pending]').count()).toBe(0);
      expect(refund).toHaveBeenCalledTimes(1);
      expect((await tier.server.store.read.orders.get(orderId))?.status).toBe('cancelled');
      expect((await tier.server.store.read.listOutbox()).filter((mail) => mail.to === 'stalled-refund@example.com' && mail.subject.endsWith('is cancelled'))).toHaveLength(1);
      await shop.close();
      await other.close();
    } finally {
      release();
      refund.mockRestore();
    }
    expect(steps).toEqual(['refund asked', 'shop served', 'other tab told', 'refund answered']);
  });

  test("ADMIN-14 downloads: the owner reads a digital line's downloads used of the limit, resets the count the buyer used up, and emails the links again", async () => {
    const { orderId, orderNumber } = await placePosters('downloads', 1, 'downloads@example.com', TEST_CARD);
    const token = (await tier.server.store.read.orders.get(orderId))!.downloadToken!;
    const download = () => tier.server.app.inject({ method: 'GET', url: `/commerce/downloads/${token}/poster` });
    for (let i = 0; i < 10; i++) expect((await download()).statusCode).toBe(200);
    const refused = await download();
    expect([refused.statusCode, refused.body]).toEqual([404, 'This download link has been used 10 times, its limit. Please contact the shop for a new one.']);
    // The buyer asks the shop: the owner finds the order.
    const v = await signedIn();
    await openPanel(v.page, 'Orders');
    const orders = panel(v.page, 'orders');
    const row = orders.locator(`tr[data-order-id="${orderId}"]`);
    await row.waitFor();
    expect(await row.locator('.admin-order-download-count').textContent()).toBe('Poster (digital): 10 of 10 downloads used');
    expect(await axeViolations(v.page)).toEqual([]);
    await v.screenshot('admin-14-downloads-used-up');
    const reset = row.getByRole('button', { name: `Reset count of Poster (digital), order #${orderNumber}` });
    await reset.focus();
    await v.page.keyboard.press('Enter');
    await expect.poll(() => orders.getByRole('status').textContent()).toBe(`Poster (digital) of order #${orderNumber} can be downloaded 10 times again.`);
    expect(await row.locator('.admin-order-download-count').textContent()).toBe('Poster (digital): 0 of 10 downloads used');
    expect(await isFocused(reset)).toBe(true);
    expect((await download()).statusCode).toBe(200);
    // The links again, by mail (the outbox, through nodemailer to SMTP), to the buyer only.
    await row.getByRole('button', { name: `Email download links of order #${orderNumber}` }).click();
    await expect.poll(() => orders.getByRole('status').textContent()).toBe(`The download links of order #${orderNumber} are emailed to downloads@example.com again.`);
    expect(await focused(v.page)).not.toBe('body');
    const linkMails = async () => (await mail.delivered(1)).filter((m) => m.to.includes('downloads@example.com') && m.subject.endsWith(`(order #${orderNumber})`));
    await expect.poll(async () => (await linkMails()).length).toBe(1);
    const [sent] = await linkMails();
    expect(sent!.to).toEqual(['downloads@example.com']);
    expect(sent!.subject).toBe(`Your downloads from Quire Demo Shop (order #${orderNumber})`);
    // Its parts are quoted-printable inside the multipart body: read as the mail client would.
    const body = sent!.raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    expect(body).toContain(`/commerce/downloads/${token}/poster (9 downloads left)`);
    expect(body).not.toContain('Visa');
    // The owner's page never holds the buyer's token (the links are the buyer's).
    expect(await v.page.content()).not.toContain(token);
    // Cancelled, the links close: the count stays to read, with nothing to reset or send.
    await row.getByLabel(`New status for order #${orderNumber}`).selectOption('cancelled');
    await row.getByRole('button', { name: `Update order #${orderNumber}` }).click();
    await v.page.getByRole('alertdialog', { name: `Cancel order #${orderNumber}?` }).getByRole('button', { name: 'Cancel order' }).click();
    await expect.poll(() => row.locator('.admin-order-status').textContent()).toBe('Cancelled');
    expect(await row.locator('.admin-order-download-count').textContent()).toBe('Poster (digital): 1 of 10 downloads used');
    expect(await row.getByText('Download links closed').count()).toBe(1);
    expect(await row.getByRole('button', { name: /^(Reset count|Email download links)/ }).count()).toBe(0);
    expect(await axeViolations(v.page)).toEqual([]);
  });

  test('ADMIN-15 orders on a phone (390 and 320 px): each order is a stack of its cells, named by column, its status and actions on the screen with no sideways scroll; the desktop table unchanged', async () => {
    const email = 'a-rather-long-mailbox-name-for-a-phone-screen@example.com';
    const { orderId, orderNumber } = await placePosters('phone', 1, email, TEST_CARD);
    const v = await signedIn();
    const { page } = v;
    await openPanel(page, 'Orders');
    const orders = panel(page, 'orders');
    const row = orders.locator(`tr[data-order-id="${orderId}"]`);
    await row.waitFor();
    const table = orders.locator('table');
    const status = row.locator('td').last();
    /** How the row lies: the table's display, whether the order number and its status share a line, and the header row's height. */
    const layout = () =>
      row.evaluate((tr) => {
        const top = (el: Element) => Math.round(el.getBoundingClientRect().top);
        const table = tr.closest('table')!;
        return { display: getComputedStyle(table).display, oneLine: top(tr.querySelector('th')!) === top(tr.querySelector('td:last-child')!), headerHeight: Math.round(table.querySelector('thead')!.getBoundingClientRect().height) };
      });
    // Desktop: the table as it was, one line per order under a visible header row, no column names in the cells.
    const desktop = await layout();
    expect(desktop.display).toBe('table');
    expect(desktop.oneLine).toBe(true);
    expect(desktop.headerHeight).toBeGreaterThan(1);
    expect(await status.evaluate((td) => getComputedStyle(td, '::before').content)).toBe('none');
    // The controls an order row offers, in the order Tab reaches them.
    const controls = row.locator('button, select');
    const names = ['Reset count', 'Email download links', 'New status', 'Update', 'Refund…'];
    expect(await controls.count()).toBe(names.length);
    for (const viewport of [{ width: 390, height: 844 }, { width: 320, height: 800 }]) {
      await page.setViewportSize(viewport);
      await expect.poll(() => layout()).toEqual({ display: 'block', oneLine: false, headerHeight: 1 });
      // No sideways scroll: not the page, not the table's own region.
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `page at ${viewport.width}px`).toBeLessThanOrEqual(viewport.width);
      expect(await orders.locator('.admin-table-wrap').evaluate((el) => el.scrollWidth - el.clientWidth), `region at ${viewport.width}px`).toBe(0);
      // Each cell shows its column's name; what is read of it is its content (the header cell names the column).
      expect(await row.locator('td').evaluateAll((cells) => cells.map((td) => getComputedStyle(td, '::before').content))).toEqual(
        ['Placed', 'Customer', 'Ships to', 'Items', 'Total', 'Status'].map((name) => `"${name}" / ""`),
      );
      expect(await row.locator('td').nth(1).textContent()).toBe(email);
      // Every control of every order lies inside the window, at least 24 px square.
      const boxes = await orders.locator('tbody').locator('button, select').evaluateAll((els) => els.map((el) => el.getBoundingClientRect().toJSON() as DOMRect));
      expect(boxes.length).toBeGreaterThan(0);
      for (const box of boxes) {
        expect(box.left, `left at ${viewport.width}px`).toBeGreaterThanOrEqual(0);
        expect(box.right, `right at ${viewport.width}px`).toBeLessThanOrEqual(viewport.width);
        expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(24);
      }
      // Chromium still reads a table: the column headers and the row's cells, with the stacked layout.
      const cdp = await v.context.newCDPSession(page);
      const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as { nodes: Array<{ role?: { value?: string }; name?: { value?: string }; ignored?: boolean }> };
      const named = (role: string) => nodes.filter((n) => !n.ignored && n.role?.value === role).map((n) => n.name?.value ?? '');
      expect(named('table')).toContain('Order list');
      expect(named('columnheader')).toEqual(expect.arrayContaining(['Order', 'Placed', 'Customer', 'Ships to', 'Items', 'Total', 'Status']));
      expect(named('rowheader')).toContain(`#${orderNumber} test`);
      await cdp.detach();
      // Keyboard: Tab goes through the row's controls in the order they read, each focused one on the screen with its ring.
      // (From the control before the row, so the first is reached by a key too and shows the ring keys bring.)
      await controls.first().focus();
      await page.keyboard.press('Shift+Tab');
      for (let i = 0; i < names.length; i++) {
        await page.keyboard.press('Tab');
        const seen = await page.evaluate(() => {
          const el = document.activeElement as HTMLButtonElement;
          const box = el.getBoundingClientRect();
          return { name: (el.getAttribute('aria-label') ?? el.labels?.[0]?.textContent ?? el.textContent ?? '').trim(), inside: box.left >= 0 && box.right <= innerWidth && box.top >= 0 && box.bottom <= innerHeight, ring: getComputedStyle(el).outlineStyle };
        });
        expect(seen.name.startsWith(names[i]!), `${seen.name} at ${viewport.width}px`).toBe(true);
        expect(seen.inside).toBe(true);
        expect(seen.ring).not.toBe('none');
      }
      expect(await axeViolations(page), `orders at ${viewport.width}px`).toEqual([]);
      await viewportShot(page, `admin-15-orders-${viewport.width}`);
      // The last control, Refund…, is clicked where it lies: its dialog opens, Escape gives the focus back.
      const refund = row.getByRole('button', { name: `Refund… order #${orderNumber}` });
      await refund.click();
      const dialog = page.getByRole('dialog', { name: `Refund order #${orderNumber}` });
      await dialog.waitFor();
      await page.keyboard.press('Escape');
      await expect.poll(() => dialog.count()).toBe(0);
      await expect.poll(() => isFocused(refund)).toBe(true);
    }
    // Back at desktop width, the table is as it was.
    await page.setViewportSize(DESKTOP);
    await expect.poll(() => layout()).toEqual(desktop);
  });

  test('ADMIN-7 two tabs: signing in again in one does not break the other; its Sign out really signs out', async () => {
    const v = await signedIn();
    // Tab A's first try with its old token is refused (403), as it should be; Chromium logs it.
    v.allowConsoleError(/status of 403/);
    const a = v.page;
    const b = await v.context.newPage();
    await b.goto('/admin');
    await b.getByRole('heading', { name: 'Inventory', level: 2 }).waitFor();
    // Tab B signs out and in again: the session's CSRF token changes under tab A.
    await b.getByRole('button', { name: 'Sign out' }).click();
    await b.getByLabel('Email').fill(EMAIL);
    await b.getByLabel('Password').fill(PASSWORD);
    await b.getByRole('button', { name: 'Sign in' }).click();
    await b.getByRole('heading', { name: 'Inventory', level: 2 }).waitFor();
    // Tab A's Sign out takes the new token, and the server ends the session.
    const [answer] = await Promise.all([
      a.waitForResponse((r) => new URL(r.url()).pathname === '/api/admin/session' && r.request().method() === 'DELETE' && r.status() === 200),
      a.getByRole('button', { name: 'Sign out' }).click(),
    ]);
    expect(answer.ok()).toBe(true);
    await a.getByRole('heading', { name: 'Sign in' }).waitFor();
    await a.reload();
    await a.getByRole('heading', { name: 'Sign in' }).waitFor();
    const session = await a.evaluate(async () => (await fetch('/api/admin/session')).json());
    expect(session).toEqual({ owner: null, csrfToken: null });
    await v.context.close();
  });
});
