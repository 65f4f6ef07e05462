// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { alertText, click, createPage, press, typeInto, type Page } from '../test-support/page.ts';
import { clampQuantity, maxQuantityOf, QUANTITY_DEBOUNCE_MS, readLines } from './cart-page.tsx';
import { lineTotalText } from '../shared/currency.ts';

let page: Page;
beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  page?.cleanup();
  vi.useRealTimers();
});

interface Entry {
  id: string;
  itemId: string;
  sku: string;
  title: string;
  unit: number;
  quantity: number;
  maxPerVariant?: number;
  maxPerItem?: number;
  /** The owner removed its product: the server's cart marks the entry (ITEM_UNAVAILABLE). */
  gone?: boolean;
  /** The page's markup says it too, as the renderer's templates do (`unavailableText`): no link, the sentence at the line. */
  said?: boolean;
}

const usd = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/** The renderer's built-in cart template output (renderer/site/builtin-templates.ts), for USD. */
function cartPageHtml(entries: Entry[], opts: { minimumCents?: number } = {}): string {
  const subtotal = entries.reduce((sum, e) => sum + e.unit * e.quantity, 0);
  const below = (opts.minimumCents ?? 0) > subtotal;
  const rows = entries
    .map(
      (e) => `
<tr class="sf-cart-entry" data-entry-id="${e.id}" data-item-id="${e.itemId}" data-sku="${e.sku}">
<td class="sf-entry-title">${e.said ? e.title : `<a href="/shop/${e.itemId}">${e.title}</a>`}</td>
<td class="sf-entry-price">${usd(e.unit)}</td>
<td class="sf-entry-quantity"><input class="sf-entry-quantity-input" type="number" min="1" max="${e.maxPerVariant ?? 9999}" step="1" value="${e.quantity}" aria-label="Quantity of ${e.title}"${e.said ? ` aria-describedby="sf-entry-unavailable-${e.id}"` : ''} data-unit-price-cents="${e.unit}" data-max-per-variant="${e.maxPerVariant ?? 9999}" data-max-per-item="${e.maxPerItem ?? 9999}">${e.said ? `<p class="sf-entry-message sf-entry-unavailable" id="sf-entry-unavailable-${e.id}" role="status">${UNAVAILABLE}</p>` : ''}</td>
<td class="sf-entry-total">${lineTotalText(e.unit * e.quantity, 'USD')}</td>
<td><button type="button" class="sf-entry-remove" aria-label="Remove ${e.title}">Remove</button></td>
</tr>`,
    )
    .join('');
  return `<section class="sf-cart-page" data-cart-id="cart-1">
<h1>Shopping Cart</h1>
<div class="sf-cart-contents" data-island="cart-page">
<table class="sf-cart-entries">
<thead><tr><th>Item</th><th>Price</th><th>Quantity</th><th>Total</th><th></th></tr></thead>
<tbody>${rows}
</tbody>
</table>
<div class="sf-cart-totals">
<p class="sf-cart-subtotal">Subtotal <span>${usd(subtotal)}</span></p>
${below ? `<p class="sf-cart-minimum" role="status">To check out, your order subtotal must be ${usd(opts.minimumCents!)} or more.</p>` : ''}
</div>
${below ? '' : '<a class="sf-checkout-button" href="/checkout?cartToken=cart-1">Checkout</a>'}
</div>
</section>`;
}

const UNAVAILABLE = 'Sorry, this item is no longer available. Please remove it from your cart.';
const TEE: Entry = { id: 'e1', itemId: 'tee', sku: 'TEE-S', title: 'Tee', unit: 2500, quantity: 1, maxPerVariant: 5 };
const MUG: Entry = { id: 'e2', itemId: 'mug', sku: 'MUG-1', title: 'Mug', unit: 1200, quantity: 2 };

/** The B0.4 cart the server would answer for these entries. */
function cartOf(entries: Entry[]): Record<string, unknown> {
  const subtotal = entries.reduce((sum, e) => sum + e.unit * e.quantity, 0);
  return {
    id: 'cart-1',
    entries: entries.map((e) => ({
      id: e.id, itemId: e.itemId, quantity: e.quantity, productType: 1, chosenVariant: { sku: e.sku }, purchasePriceCents: e.unit, subTotal: e.unit * e.quantity,
      ...(e.gone ? { unavailable: { code: 'ITEM_UNAVAILABLE', message: UNAVAILABLE } } : {}),
    })),
    subtotalCents: subtotal,
    grandTotalCents: subtotal,
    totalQuantity: entries.reduce((sum, e) => sum + e.quantity, 0),
  };
}

/** What the server's cart holds now: another tab may change it after the page was rendered. */
let serverEntries: Entry[] = [];

async function open(entries: Entry[], opts: { minimumCents?: number } = {}) {
  serverEntries = entries;
  page = createPage({
    body: cartPageHtml(entries, opts),
    context: { pageType: 200, store: { selectedCurrency: 'USD', minimumOrderSubtotalCents: opts.minimumCents ?? 0 } },
    cookies: { CART: 'cart-1', crumb: 'crumb-value-123456' },
  });
  page.fetch.on('GET', '/api/commerce/shopping-cart', () => ({ json: cartOf(serverEntries) }));
  // The cart page as the server renders it for the cart it holds now.
  page.fetch.on('GET', '/cart', () => ({ text: `<!doctype html><html><body>${cartPageHtml(serverEntries, opts)}</body></html>` }));
  await page.boot();
  await page.advance(0);
  expect(page.recoverableErrors).toEqual([]);
}

const row = (id: string) => document.querySelector<HTMLElement>(`[data-entry-id="${id}"]`);
const input = (id: string) => row(id)!.querySelector<HTMLInputElement>('.sf-entry-quantity-input')!;
const lineTotal = (id: string) => row(id)!.querySelector('.sf-entry-total')!.textContent;
const removeButton = (id: string) => row(id)!.querySelector<HTMLButtonElement>('.sf-entry-remove')!;
const subtotal = () => document.querySelector('.sf-cart-subtotal span')!.textContent;
const minimum = () => document.querySelector('.sf-cart-minimum')?.textContent ?? null;
const checkout = () => document.querySelector<HTMLAnchorElement>('.sf-checkout-button');
const message = (id: string) => row(id)!.querySelector('.sf-entry-message')?.textContent ?? null;

describe('cart page island', () => {
  test('hydrates the renderer markup cleanly, with labelled controls', async () => {
    await open([TEE, MUG]);
    const container = document.querySelector('[data-island="cart-page"]')!;
    expect(container.getAttribute('data-hydrated')).toBe('true');
    expect(page.consoleErrors).toEqual([]);
    expect(input('e1').getAttribute('aria-label')).toBe('Quantity of Tee');
    expect(removeButton('e2').getAttribute('aria-label')).toBe('Remove Mug');
    expect(removeButton('e2').type).toBe('button');
    expect(subtotal()).toBe('$49.00');
  });

  test('a cart link on the cart page scrolls to the cart by the seed tween instead of reloading (issue 18)', async () => {
    await open([TEE]);
    document.body.insertAdjacentHTML('afterbegin', '<header><a class="sf-cart-link" href="/cart">Cart</a></header>');
    const scrolls: number[] = [];
    vi.spyOn(window, 'scrollTo').mockImplementation(((_x: number, y: number) => void scrolls.push(y)) as unknown as typeof window.scrollTo);
    vi.spyOn(window, 'matchMedia').mockReturnValue({ matches: true } as MediaQueryList);
    vi.spyOn(document.querySelector('.sf-cart-page')!, 'getBoundingClientRect').mockReturnValue({ top: 900 } as DOMRect);
    const clickEvent = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 });
    await page.act(() => void document.querySelector('.sf-cart-link')!.dispatchEvent(clickEvent));
    expect(clickEvent.defaultPrevented).toBe(true);
    expect(scrolls).toEqual([870]);
    expect(document.activeElement?.tagName).toBe('H1');
    await page.advance(0);
    vi.restoreAllMocks();
  });

  test("a free line (seed freeIfZero) says 'Free' as the server wrote it, and hydrates cleanly", async () => {
    const sample: Entry = { id: 'e3', itemId: 'sample', sku: 'SMP-1', title: 'Sample', unit: 0, quantity: 2 };
    await open([TEE, sample]);
    expect(page.recoverableErrors).toEqual([]);
    expect(lineTotal('e3')).toBe('Free');
    expect(lineTotal('e1')).toBe('$25.00');
  });

  test('a typed quantity is sent once after the debounce; line total, subtotal and store follow', async () => {
    await open([TEE, MUG]);
    const updates: unknown[] = [];
    window.addEventListener('sf:cart-updated', (e) => updates.push((e as CustomEvent).detail));
    page.fetch.on('PUT', '/api/commerce/shopping-cart/entries/e1', { json: { shoppingCart: cartOf([{ ...TEE, quantity: 3 }, MUG]) }, delayMs: 100 });
    await page.act(() => typeInto(input('e1'), '2'));
    await page.act(() => typeInto(input('e1'), '3'));
    await page.advance(QUANTITY_DEBOUNCE_MS - 1);
    expect(page.fetch.callsTo('/api/commerce/shopping-cart/entries/', 'PUT')).toHaveLength(0);
    await page.advance(1);
    const puts = page.fetch.callsTo('/api/commerce/shopping-cart/entries/', 'PUT');
    expect(puts).toHaveLength(1);
    expect(puts[0]!.json).toEqual({ quantity: 3 });
    expect(puts[0]!.headers['x-csrf-token']).toBe('crumb-value-123456');
    // Shown at once, before the answer.
    expect(lineTotal('e1')).toBe('$75.00');
    expect(subtotal()).toBe('$99.00');
    expect(row('e1')!.getAttribute('aria-busy')).toBe('true');
    await page.advance(100);
    expect(row('e1')!.hasAttribute('aria-busy')).toBe(false);
    expect(input('e1').value).toBe('3');
    expect(updates).toHaveLength(1);
    expect((updates[0] as { totalQuantity: number }).totalQuantity).toBe(5);
    expect(page.recoverableErrors).toEqual([]);
  });

  test('Enter and blur send at once; quantities are clamped to the B2 limits', async () => {
    await open([TEE, MUG]);
    page.fetch.on('PUT', '/api/commerce/shopping-cart/entries/e1', (call) => ({ json: { shoppingCart: cartOf([{ ...TEE, quantity: (call.json as { quantity: number }).quantity }, MUG]) } }));
    await page.act(() => typeInto(input('e1'), '50'));
    await page.act(() => press(input('e1'), 'Enter'));
    await page.advance(0);
    expect(page.fetch.callsTo('/api/commerce/shopping-cart/entries/e1', 'PUT').map((c) => c.json)).toEqual([{ quantity: 5 }]);
    expect(input('e1').value).toBe('5');
    expect(input('e1').getAttribute('max')).toBe('5');
    await page.act(() => typeInto(input('e1'), '-4'));
    await page.act(() => input('e1').dispatchEvent(new FocusEvent('focusout', { bubbles: true })));
    await page.advance(0);
    expect(page.fetch.callsTo('/api/commerce/shopping-cart/entries/e1', 'PUT').map((c) => c.json)).toEqual([{ quantity: 5 }, { quantity: 1 }]);
    expect(lineTotal('e1')).toBe('$25.00');
    expect(message('e1')).toBe('Quantity must be between 1 and 9999. The quantity is now 1.');
    // No number at all: the last quantity comes back, nothing is sent, and the line says why.
    await page.act(() => typeInto(input('e1'), ''));
    await page.act(() => press(input('e1'), 'Enter'));
    await page.advance(QUANTITY_DEBOUNCE_MS);
    expect(input('e1').value).toBe('1');
    expect(message('e1')).toBe('Quantity must be a number.');
    expect(page.fetch.callsTo('/api/commerce/shopping-cart/entries/e1', 'PUT')).toHaveLength(2);
  });

  test('a quantity that is not whole becomes whole and the line says so; an emptied field waits for the visitor', async () => {
    await open([TEE, MUG]);
    page.fetch.on('PUT', '/api/commerce/shopping-cart/entries/e1', (call) => ({ json: { shoppingCart: cartOf([{ ...TEE, quantity: (call.json as { quantity: number }).quantity }, MUG]) } }));
    await page.act(() => typeInto(input('e1'), '2.5'));
    await page.act(() => input('e1').dispatchEvent(new FocusEvent('focusout', { bubbles: true })));
    await page.advance(0);
    expect(page.fetch.callsTo('/api/commerce/shopping-cart/entries/e1', 'PUT').map((c) => c.json)).toEqual([{ quantity: 2 }]);
    expect(input('e1').value).toBe('2');
    expect(message('e1')).toBe('Quantity must be a whole number. The quantity is now 2.');
    // Emptied to type another number: the debounce neither sends nor puts the old number back.
    await page.act(() => typeInto(input('e1'), ''));
    await page.advance(QUANTITY_DEBOUNCE_MS * 3);
    expect(input('e1').value).toBe('');
    expect(message('e1')).toBeNull();
    await page.act(() => typeInto(input('e1'), '3'));
    await page.advance(QUANTITY_DEBOUNCE_MS);
    expect(page.fetch.callsTo('/api/commerce/shopping-cart/entries/e1', 'PUT').map((c) => c.json)).toEqual([{ quantity: 2 }, { quantity: 3 }]);
    expect(page.recoverableErrors).toEqual([]);
  });

  test('a typed 0 removes the line once the visitor is done with the field (B26: 0 removes), not while typing', async () => {
    await open([TEE, MUG]);
    page.fetch.on('DELETE', '/api/commerce/shopping-cart/entries/e1', { json: { shoppingCart: cartOf([MUG]) } });
    await page.act(() => typeInto(input('e1'), '0'));
    await page.advance(QUANTITY_DEBOUNCE_MS * 3);
    expect(page.fetch.callsTo('/api/commerce/shopping-cart/entries/e1', 'DELETE')).toHaveLength(0);
    expect(row('e1')).not.toBeNull();
    await page.act(() => press(input('e1'), 'Enter'));
    await page.advance(0);
    expect(page.fetch.callsTo('/api/commerce/shopping-cart/entries/e1', 'DELETE')).toHaveLength(1);
    expect(page.fetch.callsTo('/api/commerce/shopping-cart/entries/e1', 'PUT')).toHaveLength(0);
    expect(row('e1')).toBeNull();
    expect(subtotal()).toBe('$24.00');
    // Focus was in the line: it moves on to the next line's remove button.
    expect(document.activeElement).toBe(row('e2')!.querySelector('.sf-entry-remove'));
    expect(page.recoverableErrors).toEqual([]);
  });

  test('checkout sends a typed quantity first and waits for it; a refused update keeps the visitor on the cart', async () => {
    await open([TEE, MUG]);
    page.fetch.on('PUT', '/api/commerce/shopping-cart/entries/e1', { json: { shoppingCart: cartOf([{ ...TEE, quantity: 3 }, MUG]) }, delayMs: 1500 });
    await page.act(() => typeInto(input('e1'), '3'));
    // Before the debounce: the click sends the quantity, and the page stays until it is saved.
    const click = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 });
    await page.act(() => void checkout()!.dispatchEvent(click));
    expect(click.defaultPrevented).toBe(true);
    expect(page.fetch.callsTo('/api/commerce/shopping-cart/entries/e1', 'PUT').map((c) => c.json)).toEqual([{ quantity: 3 }]);
    await page.advance(1000);
    expect(page.navigate).not.toHaveBeenCalled();
    await page.advance(500);
    expect(page.navigate).toHaveBeenCalledWith('/checkout?cartToken=cart-1');
    // Nothing pending: the link is followed as it is.
    const plain = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 });
    checkout()!.dispatchEvent(plain);
    expect(plain.defaultPrevented).toBe(false);

    page.navigate.mockClear();
    page.fetch.on('PUT', '/api/commerce/shopping-cart/entries/e2', { status: 409, json: { error: 'Sorry, we do not have enough of that item available.', code: 'OUT_OF_STOCK' } });
    await page.act(() => typeInto(input('e2'), '9'));
    await page.act(() => void checkout()!.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 })));
    await page.advance(0);
    expect(alertText()).toEqual({ title: 'Unable to update quantity', message: 'Sorry, we do not have enough of that item available.' });
    expect(page.navigate).not.toHaveBeenCalled();
  });

  test('a failed update shows "Unable to update quantity" with the server message and reverts', async () => {
    await open([TEE, MUG]);
    page.fetch.on('PUT', '/api/commerce/shopping-cart/entries/e1', { status: 409, json: { error: 'Sorry, we do not have enough of that item available.', code: 'OUT_OF_STOCK' } });
    await page.act(() => typeInto(input('e1'), '4'));
    await page.advance(QUANTITY_DEBOUNCE_MS);
    expect(alertText()).toEqual({ title: 'Unable to update quantity', message: 'Sorry, we do not have enough of that item available.' });
    expect(input('e1').value).toBe('1');
    expect(lineTotal('e1')).toBe('$25.00');
    expect(subtotal()).toBe('$49.00');
  });

  test('remove takes the row out, updates the totals and moves focus to the next remove button', async () => {
    await open([TEE, MUG]);
    page.fetch.on('DELETE', '/api/commerce/shopping-cart/entries/e1', { json: { shoppingCart: cartOf([MUG]) } });
    removeButton('e1').focus();
    await page.act(() => click(removeButton('e1')));
    await page.advance(0);
    const calls = page.fetch.callsTo('/api/commerce/shopping-cart/entries/e1', 'DELETE');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.headers['x-csrf-token']).toBe('crumb-value-123456');
    expect(calls[0]!.headers['content-type']).toBeUndefined();
    expect(row('e1')).toBeNull();
    expect(subtotal()).toBe('$24.00');
    expect(document.activeElement).toBe(removeButton('e2'));
    expect(page.recoverableErrors).toEqual([]);
  });

  test('removing the last entry shows the empty cart', async () => {
    await open([MUG]);
    const updates: unknown[] = [];
    window.addEventListener('sf:cart-updated', (e) => updates.push((e as CustomEvent).detail));
    page.fetch.on('DELETE', '/api/commerce/shopping-cart/entries/e2', { json: { shoppingCart: cartOf([]) } });
    removeButton('e2').focus();
    await page.act(() => click(removeButton('e2')));
    await page.advance(0);
    const empty = document.querySelector<HTMLElement>('.sf-cart-empty')!;
    expect(empty.textContent).toBe('You have nothing in your shopping cart.');
    expect(document.activeElement).toBe(empty);
    expect(document.querySelector('.sf-cart-entries')).toBeNull();
    expect(checkout()).toBeNull();
    expect(document.querySelector('[data-island="cart-page"]')!.getAttribute('data-state')).toBe('empty');
    expect((updates.at(-1) as { totalQuantity: number }).totalQuantity).toBe(0);
  });

  test('a failed removal shows "Unable to remove item" with the server message and keeps the row', async () => {
    await open([TEE, MUG]);
    page.fetch.on('DELETE', '/api/commerce/shopping-cart/entries/e2', { status: 429, json: { error: 'Too many requests.', code: 'RATE_LIMITED' } });
    await page.act(() => click(removeButton('e2')));
    await page.advance(0);
    expect(alertText()).toEqual({ title: 'Unable to remove item', message: 'Please try again in a few seconds.' });
    expect(row('e2')).not.toBeNull();
    expect(subtotal()).toBe('$49.00');
  });

  test('the minimum-subtotal notice appears and disappears with the subtotal, and so does checkout', async () => {
    await open([TEE], { minimumCents: 5000 });
    expect(minimum()).toBe('To check out, your order subtotal must be $50.00 or more.');
    expect(checkout()).toBeNull();
    page.fetch.on('PUT', '/api/commerce/shopping-cart/entries/e1', (call) => ({ json: { shoppingCart: cartOf([{ ...TEE, quantity: (call.json as { quantity: number }).quantity }]) } }));
    await page.act(() => typeInto(input('e1'), '2'));
    await page.advance(QUANTITY_DEBOUNCE_MS);
    expect(minimum()).toBeNull();
    expect(checkout()!.getAttribute('href')).toBe('/checkout?cartToken=cart-1');
    await page.act(() => typeInto(input('e1'), '1'));
    await page.advance(QUANTITY_DEBOUNCE_MS);
    expect(minimum()).toBe('To check out, your order subtotal must be $50.00 or more.');
    expect(checkout()).toBeNull();
    expect(page.recoverableErrors).toEqual([]);
  });

  test('a notice the server did not render appears when the subtotal drops below the minimum', async () => {
    await open([{ ...TEE, quantity: 3 }], { minimumCents: 5000 });
    expect(minimum()).toBeNull();
    page.fetch.on('PUT', '/api/commerce/shopping-cart/entries/e1', { json: { shoppingCart: cartOf([TEE]) } });
    await page.act(() => typeInto(input('e1'), '1'));
    await page.advance(QUANTITY_DEBOUNCE_MS);
    expect(minimum()).toBe('To check out, your order subtotal must be $50.00 or more.');
    expect(document.querySelector('.sf-cart-minimum')!.getAttribute('role')).toBe('status');
    expect(checkout()).toBeNull();
  });
});

describe('cart page quantity rules', () => {
  test('clampQuantity keeps B2 range and truncates', () => {
    expect(clampQuantity('0', 10)).toBe(1);
    expect(clampQuantity('12', 10)).toBe(10);
    expect(clampQuantity('2.7', 10)).toBe(2);
    expect(clampQuantity(' ', 10)).toBeNull();
    expect(clampQuantity('abc', 10)).toBeNull();
  });

  test('stock is shared by entries of the same item and sku; a service limit by the item', () => {
    document.body.innerHTML = cartPageHtml([
      { ...TEE, maxPerVariant: 5, quantity: 2 },
      { ...TEE, id: 'e3', maxPerVariant: 5, quantity: 1 },
      { ...MUG, id: 'e4', itemId: 'lesson', sku: 'L-1', maxPerItem: 1, quantity: 1 },
    ]);
    const lines = readLines(document.querySelector('[data-island="cart-page"]')!);
    expect(maxQuantityOf(lines, lines[0]!)).toBe(4);
    expect(maxQuantityOf(lines, lines[1]!)).toBe(3);
    expect(maxQuantityOf(lines, lines[2]!)).toBe(1);
    document.body.innerHTML = '';
  });

  // Issue 16: a quantity above the stock is cut, and the line says so.
  test('50 of a tee with 5 in stock becomes 5 with a message next to the line, gone on the next edit', async () => {
    await open([TEE, MUG]);
    page.fetch.on('PUT', '/api/commerce/shopping-cart/entries/e1', (call) => ({ json: { shoppingCart: cartOf([{ ...TEE, quantity: (call.json as { quantity: number }).quantity }, MUG]) } }));
    await page.act(() => typeInto(input('e1'), '50'));
    await page.act(() => press(input('e1'), 'Enter'));
    await page.advance(0);
    expect(input('e1').value).toBe('5');
    const message = row('e1')!.querySelector('.sf-entry-quantity .sf-entry-message');
    expect(message?.textContent).toBe('Sorry, we do not have enough of that item available. The quantity is now 5, the most you can order.');
    expect(message!.getAttribute('role')).toBe('status');
    expect(input('e1').getAttribute('aria-describedby')).toBe(message!.id);
    await page.act(() => typeInto(input('e1'), '2'));
    expect(row('e1')!.querySelector('.sf-entry-message')).toBeNull();
    expect(input('e1').hasAttribute('aria-describedby')).toBe(false);
    expect(page.recoverableErrors).toEqual([]);
  });

  test('a line whose product the owner removed says so (the server\'s sentence, not the stock one), stays said while typing, and goes with the line', async () => {
    await open([TEE, { ...MUG, gone: true }]);
    const said = row('e2')!.querySelector('.sf-entry-quantity .sf-entry-unavailable');
    expect(said?.textContent).toBe(UNAVAILABLE);
    expect(said!.getAttribute('role')).toBe('status');
    expect(input('e2').getAttribute('aria-describedby')).toBe(said!.id);
    expect(row('e1')!.querySelector('.sf-entry-unavailable')).toBeNull();
    // A quantity for it is refused in the same words (B26 ITEM_UNAVAILABLE); the sentence stays at the line.
    page.fetch.on('PUT', '/api/commerce/shopping-cart/entries/e2', { status: 409, json: { error: UNAVAILABLE, code: 'ITEM_UNAVAILABLE' } });
    await page.act(() => typeInto(input('e2'), '3'));
    expect(row('e2')!.querySelector('.sf-entry-unavailable')?.textContent).toBe(UNAVAILABLE);
    await page.act(() => press(input('e2'), 'Enter'));
    await page.advance(0);
    expect(alertText()).toEqual({ title: 'Unable to update quantity', message: UNAVAILABLE });
    expect(input('e2').value).toBe('2');
    page.fetch.on('DELETE', '/api/commerce/shopping-cart/entries/e2', { json: { shoppingCart: cartOf([TEE]) } });
    await page.act(() => click(removeButton('e2')));
    await page.advance(0);
    expect(row('e2')).toBeNull();
    expect(document.querySelector('.sf-entry-unavailable')).toBeNull();
    expect(subtotal()).toBe('$25.00');
    expect(checkout()).not.toBeNull();
  });

  test('the sentence the server rendered at the line is adopted on hydration: the same node, never a second one, kept while typing, gone with the line', async () => {
    await open([TEE, { ...MUG, gone: true, said: true }]);
    expect(page.consoleErrors).toEqual([]);
    const said = () => row('e2')!.querySelectorAll('.sf-entry-unavailable');
    expect(said().length).toBe(1);
    const serverNode = said()[0]!;
    expect(serverNode.textContent).toBe(UNAVAILABLE);
    expect(serverNode.id).toBe('sf-entry-unavailable-e2');
    expect(input('e2').getAttribute('aria-describedby')).toBe('sf-entry-unavailable-e2');
    expect(row('e2')!.querySelector('.sf-entry-title a')).toBeNull();
    // A typed quantity that goes over the stock adds its own message beside it, not another sentence.
    page.fetch.on('PUT', '/api/commerce/shopping-cart/entries/e2', { status: 409, json: { error: UNAVAILABLE, code: 'ITEM_UNAVAILABLE' } });
    await page.act(() => typeInto(input('e2'), '3'));
    expect(said().length).toBe(1);
    expect(said()[0]).toBe(serverNode);
    await page.act(() => press(input('e2'), 'Enter'));
    await page.advance(0);
    expect(said().length).toBe(1);
    page.fetch.on('DELETE', '/api/commerce/shopping-cart/entries/e2', { json: { shoppingCart: cartOf([TEE]) } });
    await page.act(() => click(removeButton('e2')));
    await page.advance(0);
    expect(row('e2')).toBeNull();
    expect(document.querySelector('.sf-entry-unavailable')).toBeNull();
    expect(page.recoverableErrors).toEqual([]);
  });

  test('a line the server said was unavailable but the stored cart sells again (the owner put it back) loses the sentence and its reference', async () => {
    await open([TEE, { ...MUG, gone: true, said: true }]);
    expect(row('e2')!.querySelector('.sf-entry-unavailable')?.textContent).toBe(UNAVAILABLE);
    serverEntries = [TEE, MUG];
    // Back on the window: the stored cart is read again.
    await page.act(() => void window.dispatchEvent(new FocusEvent('focus')));
    await page.advance(0);
    expect(row('e2')!.querySelector('.sf-entry-unavailable')).toBeNull();
    expect(input('e2').hasAttribute('aria-describedby')).toBe(false);
  });

  test('a line with additional fields shows the submitted values, and the new ones after an edit', async () => {
    const fields = JSON.stringify({ 'engrave-text': 'Hi', 'engrave-font': 'Serif' });
    const forms = { engraving: { id: 'engraving', fields: [{ id: 'engrave-text', type: 'text', title: 'Engraving text' }, { id: 'engrave-font', type: 'select', title: 'Font' }] } };
    const html = cartPageHtml([TEE, MUG])
      .replace('data-sku="MUG-1">', `data-sku="MUG-1" data-form-id="engraving" data-additional-fields="${fields.replace(/"/g, '&quot;')}">`)
      .replace('>Mug</a></td>', '>Mug</a><dl class="sf-entry-fields"><div class="sf-entry-field"><dt>Engraving text</dt> <dd>Hi</dd></div><div class="sf-entry-field"><dt>Font</dt> <dd>Serif</dd></div></dl> <a class="sf-entry-edit-form" href="#">Edit form</a></td>')
      .replace('</section>', `<script type="application/json" data-cart-forms>${JSON.stringify(forms)}</script></section>`);
    page = createPage({ body: html, context: { pageType: 200, store: { selectedCurrency: 'USD' } }, cookies: { CART: 'cart-1', crumb: 'c' } });
    const withFields = (text: string) => {
      const cart = cartOf([TEE, MUG]);
      (cart.entries as Array<Record<string, unknown>>)[1]!.additionalFields = text;
      return cart;
    };
    page.fetch.on('GET', '/api/commerce/shopping-cart', { json: withFields(fields) });
    await page.boot();
    await page.advance(0);
    expect(page.recoverableErrors).toEqual([]);
    const shown = () => [...row('e2')!.querySelectorAll('.sf-entry-field')].map((f) => f.textContent);
    expect(shown()).toEqual(['Engraving text Hi', 'Font Serif']);
    await page.act(() => page.handle!.runtime.cart.set(withFields(JSON.stringify({ 'engrave-text': 'Bye', 'engrave-font': 'Script' })) as never));
    expect(shown()).toEqual(['Engraving text Bye', 'Font Script']);
    expect(page.recoverableErrors).toEqual([]);
  });
});

// A second tab on the cart page: the page follows the stored cart, whatever tab changed it.
describe('cart page and other tabs', () => {
  const shown = () => [...document.querySelectorAll('[data-entry-id]')].map((r) => r.getAttribute('data-entry-id'));
  const empty = () => document.querySelector('.sf-cart-empty');
  const cartLoads = () => page.fetch.callsTo('/api/commerce/shopping-cart?', 'GET').length;
  const gone = { status: 404, json: { error: 'Cart entry not found.', code: 'ENTRY_NOT_FOUND' } };

  test('an entry added in another tab appears with its own row when the visitor comes back; the subtotal counts it', async () => {
    await open([TEE]);
    serverEntries = [TEE, MUG];
    Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
    await page.act(() => void document.dispatchEvent(new Event('visibilitychange')));
    await page.advance(0);
    expect(page.fetch.callsTo('/cart', 'GET')).toHaveLength(1);
    expect(shown()).toEqual(['e1', 'e2']);
    expect(input('e2').value).toBe('2');
    expect(lineTotal('e2')).toBe('$24.00');
    expect(subtotal()).toBe('$49.00');
    expect(page.recoverableErrors).toEqual([]);
    expect(page.consoleErrors).toEqual([]);
    // The new row is a working row.
    page.fetch.on('PUT', '/api/commerce/shopping-cart/entries/e2', { json: { shoppingCart: cartOf([TEE, { ...MUG, quantity: 3 }]) } });
    await page.act(() => typeInto(input('e2'), '3'));
    await page.advance(QUANTITY_DEBOUNCE_MS);
    expect(page.fetch.callsTo('/api/commerce/shopping-cart/entries/e2', 'PUT').map((c) => c.json)).toEqual([{ quantity: 3 }]);
    expect(subtotal()).toBe('$61.00');
  });

  test('removing the page\'s last line while the cart holds one added elsewhere shows that one, not the empty cart', async () => {
    await open([TEE]);
    serverEntries = [MUG];
    page.fetch.on('DELETE', '/api/commerce/shopping-cart/entries/e1', { json: { shoppingCart: cartOf([MUG]) }, delayMs: 10 });
    // The page's copy of the cart page answers late: meanwhile the entry counts, and the cart is not empty.
    page.fetch.routes.unshift((call) => (call.method === 'GET' && call.path === '/cart' ? { text: cartPageHtml([MUG]), delayMs: 500 } : undefined));
    removeButton('e1').focus();
    await page.act(() => click(removeButton('e1')));
    await page.advance(10);
    expect(shown()).toEqual([]);
    expect(empty()).toBeNull();
    expect(subtotal()).toBe('$24.00');
    await page.advance(500);
    expect(shown()).toEqual(['e2']);
    expect(empty()).toBeNull();
    expect(subtotal()).toBe('$24.00');
    expect(checkout()!.getAttribute('href')).toBe('/checkout?cartToken=cart-1');
    expect(page.recoverableErrors).toEqual([]);
  });

  test('an entry removed in another tab goes from the page when the stored cart is read again', async () => {
    await open([TEE, MUG]);
    serverEntries = [MUG];
    await page.act(() => void window.dispatchEvent(new FocusEvent('focus')));
    await page.advance(0);
    expect(shown()).toEqual(['e2']);
    expect(subtotal()).toBe('$24.00');
    serverEntries = [];
    await page.act(() => void window.dispatchEvent(new FocusEvent('focus')));
    await page.advance(0);
    expect(empty()!.textContent).toBe('You have nothing in your shopping cart.');
    expect(page.fetch.callsTo('/cart', 'GET')).toHaveLength(0);
  });

  test('the header cart link on the cart page reads the stored cart again (it does not reload the page)', async () => {
    await open([TEE]);
    document.body.insertAdjacentHTML('afterbegin', '<header><a class="sf-cart-link" href="/cart">Cart</a></header>');
    const scroll = vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
    serverEntries = [TEE, MUG];
    const before = cartLoads();
    await page.act(() => void document.querySelector('.sf-cart-link')!.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 })));
    await page.advance(0);
    expect(cartLoads()).toBe(before + 1);
    expect(shown()).toEqual(['e1', 'e2']);
    scroll.mockRestore();
  });

  test('a quantity change to an entry removed in another tab: the alert, then the line is gone and the page re-synced', async () => {
    await open([TEE, MUG]);
    serverEntries = [MUG];
    page.fetch.on('PUT', '/api/commerce/shopping-cart/entries/e1', gone);
    const before = cartLoads();
    input('e1').focus();
    await page.act(() => typeInto(input('e1'), '2'));
    await page.act(() => press(input('e1'), 'Enter'));
    await page.advance(0);
    expect(alertText()).toEqual({ title: 'Unable to update quantity', message: 'Cart entry not found.' });
    expect(row('e1')).toBeNull();
    expect(cartLoads()).toBe(before + 1);
    expect(subtotal()).toBe('$24.00');
    // Closing the alert puts focus on the next line, not on a row that is gone.
    await page.act(() => click(document.querySelector('.sf-alert-ok')!));
    expect(document.activeElement).toBe(removeButton('e2'));
  });

  test('removing an entry removed in another tab: the alert, then the line is gone (the empty cart if it was the last)', async () => {
    await open([MUG]);
    serverEntries = [];
    page.fetch.on('DELETE', '/api/commerce/shopping-cart/entries/e2', gone);
    removeButton('e2').focus();
    await page.act(() => click(removeButton('e2')));
    await page.advance(0);
    expect(alertText()).toEqual({ title: 'Unable to remove item', message: 'Cart entry not found.' });
    expect(row('e2')).toBeNull();
    expect(empty()).not.toBeNull();
    await page.act(() => click(document.querySelector('.sf-alert-ok')!));
    expect(document.activeElement).toBe(empty());
  });
});
