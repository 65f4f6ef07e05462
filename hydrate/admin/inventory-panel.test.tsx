// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeAdminServer, mountPanel, unmountPanels } from '../test-support/admin-panel-harness.ts';
import { InventoryPanel } from './inventory-panel.tsx';

// The inventory panel's stock edit against B28 with `expected`: a count or Unlimited, saved
// from the stock the field was filled with; a 409 STOCK_CHANGED shows the stock as it is now.

afterEach(unmountPanels);

function inventoryServer(stock: { qtyInStock: number; unlimited: boolean }, options: { conflictWith?: { qtyInStock: number; unlimited: boolean }; signUps?: { notifiedOn: string | null }[] } = {}) {
  const variant = () => ({ id: 'v1', sku: 'TOTE-1', label: '', priceCents: 1000, regularPriceCents: null, qtyInStock: stock.unlimited ? 0 : stock.qtyInStock, unlimited: stock.unlimited });
  return fakeAdminServer((method, url, body) => {
    if (method === 'GET' && url.startsWith('/api/admin/inventory')) {
      return {
        status: 200,
        body: { products: [{ id: 'tote', title: 'Market Tote', productType: 1, stockTotal: stock.unlimited ? null : stock.qtyInStock, priceCents: 1000, regularPriceCents: null, variants: [variant()] }], total: 1, page: 1, nextPage: null, currency: 'USD' },
      };
    }
    if (method === 'GET' && url.startsWith('/api/site-users/account/notifications/restock?')) return { status: 200, body: { signUps: options.signUps ?? [], hasNextPage: false, nextPageCursor: null } };
    if (method === 'GET' && url.startsWith('/api/commerce/inventory/stock/')) return { status: 200, body: { results: [{ ...variant(), itemId: 'tote', variantId: 'v1' }] } };
    if (method === 'PUT') {
      const change = body as { qtyInStock?: number; unlimited?: boolean };
      if (options.conflictWith) {
        Object.assign(stock, options.conflictWith);
        return { status: 409, body: { error: 'The stock of TOTE-1 changed since you read it: it is now 9. Nothing was saved.', code: 'STOCK_CHANGED' } };
      }
      if (change.unlimited !== undefined) stock.unlimited = change.unlimited;
      if (change.qtyInStock !== undefined) stock.qtyInStock = change.qtyInStock;
      return { status: 200, body: { result: { itemId: 'tote', variantId: 'v1', sku: 'TOTE-1', unlimited: stock.unlimited, qtyInStock: stock.unlimited ? 0 : stock.qtyInStock } } };
    }
    return { status: 404, body: { error: 'Not found.', code: 'NOT_FOUND' } };
  });
}

async function openVariants(el: HTMLElement) {
  await act(async () => (el.querySelector('.admin-expander') as HTMLButtonElement).click());
  return {
    count: el.querySelector<HTMLInputElement>('li[data-variant-id="v1"] input[type="number"]')!,
    unlimited: el.querySelector<HTMLInputElement>('li[data-variant-id="v1"] input[type="checkbox"]')!,
    save: el.querySelector<HTMLButtonElement>('li[data-variant-id="v1"] button[type="submit"]')!,
  };
}

async function type(input: HTMLInputElement, text: string) {
  await act(async () => {
    const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
    setter.call(input, text);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

describe('inventory panel stock edit', () => {
  it('switches a counted variant to Unlimited and back to a count, each save naming the stock it was made from; focus stays on the field', async () => {
    const server = inventoryServer({ qtyInStock: 4, unlimited: false });
    const el = await mountPanel(InventoryPanel, server, { csrf: 't' });
    const f = await openVariants(el);
    expect(f.count.value).toBe('4');
    expect(f.unlimited.checked).toBe(false);

    await act(async () => f.unlimited.click());
    expect(f.count.disabled).toBe(true);
    f.save.focus();
    await act(async () => f.save.click());
    await act(async () => {});
    const puts = server.calls.map((call, i) => [call, server.bodies[i]] as const).filter(([call]) => call.startsWith('PUT'));
    expect(puts[0]).toEqual(['PUT /api/commerce/inventory/stock/tote/v1', { unlimited: true, expected: { qtyInStock: 4, unlimited: false } }]);
    expect(el.querySelector('[role="status"]')!.textContent).toBe('Stock of TOTE-1 set to Unlimited.');
    expect(el.querySelector('tr[data-product-id="tote"]')!.querySelectorAll('td')[2]!.textContent).toBe('Unlimited');
    // The saved field keeps the focus, never the page.
    expect(document.activeElement).toBe(f.unlimited);

    await act(async () => f.unlimited.click());
    expect(f.count.disabled).toBe(false);
    await type(f.count, '12');
    await act(async () => f.save.click());
    await act(async () => {});
    const second = server.calls.map((call, i) => [call, server.bodies[i]] as const).filter(([call]) => call.startsWith('PUT'))[1];
    expect(second![1]).toEqual({ qtyInStock: 12, unlimited: false, expected: { qtyInStock: 0, unlimited: true } });
    expect(el.querySelector('[role="status"]')!.textContent).toBe('Stock of TOTE-1 set to 12.');
    expect(document.activeElement).toBe(f.count);
  });

  it('a save refused as stale (409 STOCK_CHANGED) shows the stock as it is now and says the value was not saved; the next save is made from it', async () => {
    const server = inventoryServer({ qtyInStock: 4, unlimited: false }, { conflictWith: { qtyInStock: 9, unlimited: false } });
    const el = await mountPanel(InventoryPanel, server, { csrf: 't' });
    const f = await openVariants(el);
    await type(f.count, '3');
    await act(async () => f.save.click());
    await act(async () => {});
    expect(f.count.value).toBe('9');
    expect(f.count.getAttribute('aria-invalid')).toBe('true');
    const message = el.querySelector(`[id="${f.count.getAttribute('aria-describedby')}"]`)!.textContent;
    expect(message).toBe('Not saved: the stock changed to 9 since you opened it (another tab or a sale). Your 3 was not saved; check it and save again.');
    expect(document.activeElement).toBe(f.count);
    expect(el.querySelector('[role="status"]')!.textContent).toBe('');
  });

  it('a sold-out variant saved back in stock says how many visitors wait for its notice; a save that was not sold out asks nothing', async () => {
    const waiting = { notifiedOn: null };
    const server = inventoryServer({ qtyInStock: 0, unlimited: false }, { signUps: [waiting, waiting, { notifiedOn: '2026-01-01T00:00:00.000Z' }] });
    const el = await mountPanel(InventoryPanel, server, { csrf: 't' });
    const f = await openVariants(el);
    await type(f.count, '4');
    await act(async () => f.save.click());
    await act(async () => {});
    await act(async () => {});
    expect(server.calls).toContain('GET /api/site-users/account/notifications/restock?productId=tote&variantId=v1&limit=100');
    expect(el.querySelector('[role="status"]')!.textContent).toBe('Stock of TOTE-1 set to 4. 2 visitors are waiting for it: send the notice in Restock sign-ups.');
    const asked = server.calls.filter((call) => call.includes('notifications/restock')).length;
    await type(f.count, '6');
    await act(async () => f.save.click());
    await act(async () => {});
    expect(server.calls.filter((call) => call.includes('notifications/restock')).length).toBe(asked);
    expect(el.querySelector('[role="status"]')!.textContent).toBe('Stock of TOTE-1 set to 6.');
  });
});
