// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { lineTotalText } from '../shared/currency.ts';
import { alertText, click, createPage, press, typeInto, type Page } from '../test-support/page.ts';
import { PILL_CART_HTML } from '../test-support/renderer-markup.ts';
import { CART_DRAWER_TITLE, closeCartDrawer, LOADING_TEXT, readCartMarkup, VIEW_CART_TEXT } from './cart-drawer.tsx';
import { EMPTY_CART_TEXT, QUANTITY_DEBOUNCE_MS } from './cart-page.tsx';

let page: Page;
beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  closeCartDrawer();
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
}

const TEE: Entry = { id: 'e1', itemId: 'tee', sku: 'TEE-S', title: 'Tee', unit: 2500, quantity: 1 };
const MUG: Entry = { id: 'e2', itemId: 'mug', sku: 'MUG-1', title: 'Mug', unit: 1200, quantity: 2 };
const usd = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/** The renderer's built-in cart page (renderer/site/builtin-templates.ts) for these entries, in USD. */
function cartPageHtml(entries: Entry[], minimumCents = 0): string {
  const subtotal = entries.reduce((sum, e) => sum + e.unit * e.quantity, 0);
  const below = minimumCents > subtotal;
  if (entries.length === 0) {
    return '<section class="sf-cart-page" data-cart-id=""><h1>Shopping Cart</h1><p class="sf-cart-empty">You have nothing in your shopping cart.</p></section>';
  }
  const rows = entries
    .map(
      (e) =>
        `<tr class="sf-cart-entry" data-entry-id="${e.id}" data-item-id="${e.itemId}" data-sku="${e.sku}">` +
        `<td class="sf-entry-title"><a href="/shop/${e.itemId}">${e.title}</a></td><td class="sf-entry-price">${usd(e.unit)}</td>` +
        `<td class="sf-entry-quantity"><input class="sf-entry-quantity-input" type="number" min="1" max="9999" step="1" value="${e.quantity}" aria-label="Quantity of ${e.title}" data-unit-price-cents="${e.unit}" data-max-per-variant="9999" data-max-per-item="9999"></td>` +
        `<td class="sf-entry-total">${lineTotalText(e.unit * e.quantity, 'USD')}</td>` +
        `<td><button type="button" class="sf-entry-remove" aria-label="Remove ${e.title}">×</button></td></tr>`,
    )
    .join('\n');
  return `<section class="sf-cart-page" data-cart-id="cart-1"><h1>Shopping Cart</h1>
<div class="sf-cart-contents" data-island="cart-page">
<table class="sf-cart-entries"><tbody>
${rows}
</tbody></table>
<div class="sf-cart-totals">
<p class="sf-cart-subtotal">Subtotal <span>${usd(subtotal)}</span></p>
${below ? `<p class="sf-cart-minimum" role="status">To check out, your order subtotal must be ${usd(minimumCents)} or more.</p>` : ''}
${below ? '' : '<a class="sf-checkout-button" href="/checkout?cartToken=cart-1">Checkout</a>'}
</div>
</div>
</section>`;
}

function cartOf(entries: Entry[]): Record<string, unknown> {
  const subtotal = entries.reduce((sum, e) => sum + e.unit * e.quantity, 0);
  return {
    id: 'cart-1',
    entries: entries.map((e) => ({ id: e.id, itemId: e.itemId, quantity: e.quantity, productType: 1, chosenVariant: { sku: e.sku }, purchasePriceCents: e.unit, subTotal: e.unit * e.quantity })),
    subtotalCents: subtotal,
    grandTotalCents: subtotal,
    totalQuantity: entries.reduce((sum, e) => sum + e.quantity, 0),
  };
}

let serverEntries: Entry[] = [];

/** A product page with the header's cart link and the pill, a cart of `entries` stored. */
async function productPage(entries: Entry[], opts: { minimumCents?: number; cartPage?: 'reject' } = {}) {
  serverEntries = entries;
  page = createPage({
    body: `<header><a class="sf-cart-link" href="/cart">Cart</a></header><main><h1>Tee</h1></main>${PILL_CART_HTML}`,
    context: { pageType: 50, store: { selectedCurrency: 'USD', minimumOrderSubtotalCents: opts.minimumCents ?? 0 } },
    cookies: { CART: 'cart-1', hasCart: 'true', crumb: 'crumb-value-123456' },
  });
  page.fetch.on('GET', '/api/commerce/shopping-cart', () => ({ json: cartOf(serverEntries) }));
  page.fetch.on('GET', '/cart', () => (opts.cartPage === 'reject' ? 'reject' : { text: `<!doctype html><html><body>${cartPageHtml(serverEntries, opts.minimumCents)}</body></html>` }));
  await page.boot();
  await page.advance(0);
  expect(page.recoverableErrors).toEqual([]);
}

const pill = () => document.querySelector<HTMLAnchorElement>('.sf-pill-cart')!;
const drawer = () => document.querySelector<HTMLElement>('.sf-cart-drawer');
const inDrawer = <T extends Element = HTMLElement>(selector: string) => drawer()?.querySelector<T>(selector) ?? null;
const row = (id: string) => inDrawer(`[data-entry-id="${id}"]`);
const input = (id: string) => row(id)!.querySelector<HTMLInputElement>('.sf-entry-quantity-input')!;

/** Clicks the pill as a visitor does and waits until the drawer shows the cart (or its failure). */
async function openDrawer(init: MouseEventInit = {}): Promise<MouseEvent> {
  const event = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0, ...init });
  await page.act(() => void pill().dispatchEvent(event));
  if (event.defaultPrevented) await vi.waitFor(() => expect(inDrawer('.sf-cart-drawer-body')?.hasAttribute('aria-busy')).toBe(false));
  await page.advance(0);
  return event;
}

describe('cart drawer (the pill opens the cart over the page)', () => {
  test('the pill hydrates as the server wrote it, then says it opens a dialog', async () => {
    await productPage([TEE]);
    expect(pill().getAttribute('href')).toBe('/cart');
    expect(pill().getAttribute('aria-haspopup')).toBe('dialog');
    expect(drawer()).toBeNull();
  });

  test('a click opens a labelled modal dialog with the lines, focus on its close button, the page held', async () => {
    await productPage([TEE, MUG]);
    const event = await openDrawer();
    expect(event.defaultPrevented).toBe(true);
    const root = drawer()!;
    expect(root.getAttribute('role')).toBe('dialog');
    expect(root.getAttribute('aria-modal')).toBe('true');
    expect(document.getElementById(root.getAttribute('aria-labelledby')!)!.textContent).toBe(CART_DRAWER_TITLE);
    expect(document.activeElement).toBe(inDrawer('.sf-cart-drawer-close'));
    expect(document.documentElement.classList.contains('sf-dialog-open')).toBe(true);
    expect(page.fetch.callsTo('/cart', 'GET')).toHaveLength(1);
    expect(inDrawer('[data-island="cart-page"]')!.getAttribute('data-hydrated')).toBe('true');
    expect(input('e1').getAttribute('aria-label')).toBe('Quantity of Tee');
    expect(inDrawer('.sf-cart-subtotal span')!.textContent).toBe('$49.00');
    expect(inDrawer<HTMLAnchorElement>('.sf-checkout-button')!.getAttribute('href')).toBe('/checkout?cartToken=cart-1');
    const view = inDrawer<HTMLAnchorElement>('.sf-cart-drawer-view')!;
    expect([view.textContent, view.getAttribute('href')]).toEqual([VIEW_CART_TEXT, '/cart']);
    expect(page.recoverableErrors).toEqual([]);
    expect(page.consoleErrors).toEqual([]);
  });

  test('while the cart is read the drawer says so and is busy', async () => {
    await productPage([TEE]);
    page.fetch.routes.unshift((call) => (call.method === 'GET' && call.path === '/cart' ? { text: `<html><body>${cartPageHtml([TEE])}</body></html>`, delayMs: 500 } : undefined));
    await page.act(() => void pill().dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 })));
    await vi.waitFor(() => expect(drawer()).not.toBeNull());
    expect(inDrawer('.sf-cart-drawer-body')!.getAttribute('aria-busy')).toBe('true');
    expect(inDrawer('.sf-cart-drawer-status')!.textContent).toBe(LOADING_TEXT);
    await page.advance(500);
    expect(inDrawer('.sf-cart-drawer-body')!.hasAttribute('aria-busy')).toBe(false);
    expect(row('e1')).not.toBeNull();
  });

  test('a click with a modifier, or another button, keeps the link (a new tab on /cart)', async () => {
    await productPage([TEE]);
    for (const init of [{ ctrlKey: true }, { metaKey: true }, { shiftKey: true }, { button: 1 }]) {
      const event = await openDrawer(init);
      expect(event.defaultPrevented).toBe(false);
    }
    expect(drawer()).toBeNull();
  });

  test('a quantity changed in the drawer is sent (B26); line, subtotal and the pill follow', async () => {
    await productPage([TEE, MUG]);
    await openDrawer();
    page.fetch.on('PUT', '/api/commerce/shopping-cart/entries/e1', () => {
      serverEntries = [{ ...TEE, quantity: 3 }, MUG];
      return { json: { shoppingCart: cartOf(serverEntries) } };
    });
    await page.act(() => typeInto(input('e1'), '3'));
    await page.advance(QUANTITY_DEBOUNCE_MS);
    expect(page.fetch.callsTo('/api/commerce/shopping-cart/entries/e1', 'PUT').map((c) => c.json)).toEqual([{ quantity: 3 }]);
    expect(row('e1')!.querySelector('.sf-entry-total')!.textContent).toBe('$75.00');
    expect(inDrawer('.sf-cart-subtotal span')!.textContent).toBe('$99.00');
    expect(document.querySelector('.sf-pill-count')!.textContent).toBe('5');
  });

  test('a quantity typed and the drawer closed before the debounce is still sent, and the pill follows', async () => {
    await productPage([TEE]);
    await openDrawer();
    page.fetch.on('PUT', '/api/commerce/shopping-cart/entries/e1', () => {
      serverEntries = [{ ...TEE, quantity: 2 }];
      return { json: { shoppingCart: cartOf(serverEntries) } };
    });
    await page.act(() => typeInto(input('e1'), '2'));
    await page.act(() => press(input('e1'), 'Escape'));
    expect(drawer()).toBeNull();
    await page.advance(0);
    expect(page.fetch.callsTo('/api/commerce/shopping-cart/entries/e1', 'PUT').map((c) => c.json)).toEqual([{ quantity: 2 }]);
    expect(document.querySelector('.sf-pill-count')!.textContent).toBe('2');
    await page.advance(QUANTITY_DEBOUNCE_MS);
    expect(page.fetch.callsTo('/api/commerce/shopping-cart/entries/e1', 'PUT')).toHaveLength(1);
  });

  test('removing the last line (B27) leaves the empty cart, focused; closing gives focus to the header cart link as the pill is gone', async () => {
    await productPage([TEE]);
    await openDrawer();
    page.fetch.on('DELETE', '/api/commerce/shopping-cart/entries/e1', () => {
      serverEntries = [];
      return { json: { shoppingCart: cartOf([]) } };
    });
    const remove = row('e1')!.querySelector<HTMLButtonElement>('.sf-entry-remove')!;
    remove.focus();
    await page.act(() => click(remove));
    await page.advance(0);
    const empty = inDrawer('.sf-cart-empty')!;
    expect(empty.textContent).toBe(EMPTY_CART_TEXT);
    expect(document.activeElement).toBe(empty);
    expect(inDrawer('.sf-checkout-button')).toBeNull();
    expect(document.querySelector('.sf-pill-cart-wrapper')!.hasAttribute('hidden')).toBe(true);
    await page.act(() => press(document.activeElement!, 'Escape'));
    expect(drawer()).toBeNull();
    expect(document.activeElement).toBe(document.querySelector('.sf-cart-link'));
    expect(document.documentElement.classList.contains('sf-dialog-open')).toBe(false);
  });

  test('an empty cart (the cart page has no entries section) says so', async () => {
    await productPage([TEE]);
    serverEntries = [];
    await openDrawer();
    expect(inDrawer('.sf-cart-empty')!.textContent).toBe(EMPTY_CART_TEXT);
    expect(inDrawer('.sf-cart-empty')!.getAttribute('role')).toBe('status');
  });

  test('failures say the catalogue texts: the cart unread offline, a refused quantity, a removal offline', async () => {
    await productPage([TEE], { cartPage: 'reject' });
    await openDrawer();
    const error = inDrawer('.sf-cart-drawer-error')!;
    expect([error.textContent, error.getAttribute('role')]).toEqual(['Please check your internet connection.', 'alert']);
    await page.act(() => click(inDrawer('.sf-cart-drawer-close')!));
    expect(drawer()).toBeNull();

    page.cleanup();
    await productPage([TEE]);
    await openDrawer();
    page.fetch.on('PUT', '/api/commerce/shopping-cart/entries/e1', { status: 500, json: { error: 'The store is resting.' } });
    await page.act(() => typeInto(input('e1'), '2'));
    await page.act(() => press(input('e1'), 'Enter'));
    await page.advance(0);
    expect(alertText()).toEqual({ title: 'Unable to update quantity', message: 'The store is resting.' });
    expect(input('e1').value).toBe('1');
    await page.act(() => click(document.querySelector('.sf-alert-ok')!));
    // The alert closed over the drawer: the drawer and its hold on the page stay.
    expect(drawer()).not.toBeNull();
    expect(document.documentElement.classList.contains('sf-dialog-open')).toBe(true);

    page.fetch.on('DELETE', '/api/commerce/shopping-cart/entries/e1', 'reject');
    await page.act(() => click(row('e1')!.querySelector('.sf-entry-remove')!));
    await page.advance(0);
    expect(alertText()).toEqual({ title: 'Unable to remove item', message: 'Please check your internet connection.' });
    expect(row('e1')).not.toBeNull();
  });

  test('below the minimum subtotal the drawer says the C6 notice and offers no Checkout', async () => {
    await productPage([TEE], { minimumCents: 5000 });
    await openDrawer();
    expect(inDrawer('.sf-cart-minimum')!.textContent).toBe('To check out, your order subtotal must be $50.00 or more.');
    expect(inDrawer('.sf-checkout-button')).toBeNull();
  });

  test('Escape, the × and the dimmed page close it and give focus back to the pill; Tab stays inside', async () => {
    await productPage([TEE]);
    await openDrawer();
    const close = inDrawer<HTMLButtonElement>('.sf-cart-drawer-close')!;
    const view = inDrawer<HTMLAnchorElement>('.sf-cart-drawer-view')!;
    view.focus();
    await page.act(() => press(view, 'Tab'));
    expect(document.activeElement).toBe(close);
    await page.act(() => press(close, 'Tab', { shiftKey: true }));
    expect(document.activeElement).toBe(view);
    await page.act(() => press(view, 'Escape'));
    expect(drawer()).toBeNull();
    expect(document.activeElement).toBe(pill());

    await openDrawer();
    await page.act(() => click(inDrawer('.sf-cart-drawer-close')!));
    expect(drawer()).toBeNull();
    expect(document.activeElement).toBe(pill());

    await openDrawer();
    await page.act(() => void drawer()!.dispatchEvent(new MouseEvent('click', { bubbles: true })));
    expect(drawer()).toBeNull();
    expect(document.activeElement).toBe(pill());
    // A click inside the panel is no click on the dimmed page.
    await openDrawer();
    await page.act(() => void inDrawer('.sf-cart-drawer-panel')!.dispatchEvent(new MouseEvent('click', { bubbles: true })));
    expect(drawer()).not.toBeNull();
    expect(page.fetch.callsTo('/cart', 'GET')).toHaveLength(4);
  });

  test('View cart is a plain link to the cart page: the entries island does not take it over', async () => {
    await productPage([TEE]);
    await openDrawer();
    const event = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 });
    // happy-dom would follow the link: the default is stopped after the page's handlers ran.
    window.addEventListener('click', (e) => e.preventDefault(), { once: true });
    const seen: boolean[] = [];
    document.addEventListener('click', (e) => seen.push(e.defaultPrevented), { once: true });
    await page.act(() => void inDrawer('.sf-cart-drawer-view')!.dispatchEvent(event));
    expect(seen).toEqual([false]);
  });

  test('readCartMarkup takes the entries, the cart id and the forms block; null for another page', () => {
    const markup = readCartMarkup(`<html><body>${cartPageHtml([TEE])}<script type="application/json" data-cart-forms>{}</script></body></html>`)!;
    expect(markup.cartId).toBe('cart-1');
    expect(markup.entries!.querySelectorAll('[data-entry-id]')).toHaveLength(1);
    expect(markup.forms).not.toBeNull();
    expect(readCartMarkup(`<html><body>${cartPageHtml([])}</body></html>`)!.entries).toBeNull();
    expect(readCartMarkup('<html><body><h1>Sign in</h1></body></html>')).toBeNull();
  });
});
