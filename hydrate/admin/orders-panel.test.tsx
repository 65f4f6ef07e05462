// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeAdminServer, mountPanel, unmountPanels } from '../test-support/admin-panel-harness.ts';
import { OrdersPanel, returnedText } from './orders-panel.tsx';

// The orders panel against the orders contract (helper B's "Admin orders API"): GET
// /api/commerce/orders -> {orders, nextCursor}; POST /api/commerce/orders/:id/status
// {status} -> Order, or 409 INVALID_ORDER_STATUS. A fake server answers as the contract says.

const order = (n: number, status: string) => ({
  id: `o${n}`,
  orderNumber: n,
  email: `buyer${n}@example.com`,
  status,
  createdOn: Date.UTC(2026, 0, n, 10, 0),
  currency: 'USD',
  grandTotal: 2500 * n,
  testMode: true,
  items: [
    { sku: 'TEE-S', productName: 'Classic Tee', quantity: n, unitPrice: 2500, variantLabel: 'S' },
    { sku: 'MUG', productName: 'Enamel Mug', quantity: 1, unitPrice: 1800, variantLabel: '', fieldValues: [{ label: 'Engraving text', value: 'For Ada' }] },
  ],
});

afterEach(unmountPanels);

describe('orders panel', () => {
  it('lists orders a page at a time and changes a status; a refused transition shows the server message', async () => {
    const server = fakeAdminServer((method, url, body) => {
      if (method === 'GET' && url === '/api/commerce/orders?limit=20') return { status: 200, body: { orders: [order(2, 'paid'), order(1, 'fulfilled')], nextCursor: 'c2' } };
      if (method === 'GET' && url === '/api/commerce/orders?limit=20&cursor=c2') return { status: 200, body: { orders: [order(0, 'awaiting-payment')], nextCursor: null } };
      if (method === 'POST' && url === '/api/commerce/orders/o2/status') return { status: 200, body: { ...order(2, (body as { status: string }).status) } };
      if (method === 'POST') return { status: 409, body: { error: 'That status change is not allowed.', code: 'INVALID_ORDER_STATUS' } };
      return { status: 404, body: { error: 'Not found.', code: 'NOT_FOUND' } };
    });
    const el = await mountPanel(OrdersPanel, server);
    const rows = () => [...el.querySelectorAll('tbody tr')].map((tr) => tr.querySelector('th')!.textContent);
    expect(rows()).toEqual(['#2 test', '#1 test']);
    expect(el.querySelector('tr[data-order-id="o2"]')!.textContent).toContain('$50.00');
    // Each line with its variant and the buyer's engraving: what the owner makes and sends.
    const lines = el.querySelector('tr[data-order-id="o2"]')!;
    expect([...lines.querySelectorAll('.admin-order-item')].map((item) => item.textContent)).toEqual(['2 × Classic Tee (S)', '1 × Enamel MugEngraving text: For Ada']);
    expect(lines.querySelector('.admin-order-item-field')!.textContent).toBe('Engraving text: For Ada');

    await act(async () => (el.querySelector('.admin-secondary') as HTMLButtonElement).click());
    expect(rows()).toEqual(['#2 test', '#1 test', '#0 test']);
    expect(el.querySelector('.admin-secondary')).toBeNull();
    // The More button is gone with the last page: the first new row has the focus, not the page.
    expect(document.activeElement).toBe(el.querySelector('tr[data-order-id="o0"] th'));

    const row = el.querySelector('tr[data-order-id="o2"]')!;
    const select = row.querySelector('select')!;
    await act(async () => {
      select.value = 'fulfilled';
      select.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await act(async () => (row.querySelector('button') as HTMLButtonElement).click());
    expect(server.calls).toContain('POST /api/commerce/orders/o2/status');
    expect(el.querySelector('[role="status"]')!.textContent).toBe('Order #2 is now fulfilled.');
    expect(el.querySelector('tr[data-order-id="o2"] .admin-order-status')!.textContent).toBe('Fulfilled');
    // Fulfilled has no further moves, so the select and button left: the new status has the focus.
    expect(el.querySelector('tr[data-order-id="o2"] select')).toBeNull();
    expect(document.activeElement).toBe(el.querySelector('tr[data-order-id="o2"] .admin-order-status'));

    // A refused change (another owner moved the order meanwhile) shows the server's message.
    const waiting = el.querySelector('tr[data-order-id="o0"]')!;
    await act(async () => (waiting.querySelector('button') as HTMLButtonElement).click());
    expect(el.querySelector('[role="status"]')!.textContent).toBe('That status change is not allowed.');
  });

  it('offers only the moves the server allows from each status, and shows where the order ships', async () => {
    const shipped = {
      ...order(3, 'paid'),
      shippingAddress: { firstName: 'Ada', lastName: 'Lovelace', line1: '12 St James Sq', city: 'London', region: 'LDN', postalCode: 'SW1Y 4JH', country: 'GB' },
    };
    const server = fakeAdminServer((method, url) => {
      if (method === 'GET') return { status: 200, body: { orders: [shipped, order(2, 'awaiting-payment'), order(1, 'fulfilled'), order(0, 'cancelled')], nextCursor: null } };
      return { status: 404, body: { error: 'Not found.', code: 'NOT_FOUND' } };
    });
    const el = await mountPanel(OrdersPanel, server);
    const options = (id: string) => [...el.querySelectorAll(`tr[data-order-id="${id}"] option`)].map((o) => o.textContent);
    expect(options('o3')).toEqual(['Fulfilled', 'Cancelled']);
    expect(options('o2')).toEqual(['Paid', 'Cancelled']);
    // Fulfilled and cancelled orders are final: no select, no button.
    for (const id of ['o1', 'o0']) {
      expect(el.querySelector(`tr[data-order-id="${id}"] select`)).toBeNull();
      expect(el.querySelector(`tr[data-order-id="${id}"] button`)).toBeNull();
    }
    expect([...el.querySelectorAll('tr[data-order-id="o3"] .admin-order-address div')].map((d) => d.textContent)).toEqual([
      'Ada Lovelace',
      '12 St James Sq',
      'London, LDN SW1Y 4JH',
      'GB',
    ]);
    expect(el.querySelector('tr[data-order-id="o2"] .admin-order-address')!.textContent).toBe('No shipping');
    expect([...el.querySelectorAll('thead th')].map((th) => th.textContent)).toContain('Ships to');
  });

  it('cancelling asks first, saying the buyer is mailed and the payment is refunded first; Keep order sends nothing; the refund shows', async () => {
    const paid = { ...order(5, 'paid'), testMode: false, payment: { provider: 'card', label: 'Visa ending 4242', kind: 'card' } };
    const refund = { kind: 'refunded', amountCents: 12500, reference: 're_5', label: 'Visa ending 4242', on: '2026-01-01T00:00:00.000Z' };
    const server = fakeAdminServer((method, url, body) => {
      if (method === 'GET') return { status: 200, body: { orders: [paid], nextCursor: null } };
      return { status: 200, body: { ...paid, status: (body as { status: string }).status, refund } };
    });
    const el = await mountPanel(OrdersPanel, server);
    const row = el.querySelector('tr[data-order-id="o5"]')!;
    const select = row.querySelector('select')!;
    await act(async () => {
      select.value = 'cancelled';
      select.dispatchEvent(new Event('change', { bubbles: true }));
    });
    const update = row.querySelector('button') as HTMLButtonElement;
    update.focus();
    await act(async () => update.click());
    const dialog = el.querySelector('[role="alertdialog"]')!;
    expect(dialog.querySelector('h2')!.textContent).toBe('Cancel order #5?');
    expect(document.getElementById(dialog.getAttribute('aria-describedby')!)!.textContent).toBe(
      'Its items go back into stock and buyer5@example.com gets an email saying the order is cancelled. The payment (Visa ending 4242, $125.00) is refunded first; if the refund fails, the order stays as it is. This cannot be undone.',
    );
    await act(async () => ([...dialog.querySelectorAll('button')].find((b) => b.textContent === 'Keep order') as HTMLButtonElement).click());
    expect(el.querySelector('[role="alertdialog"]')).toBeNull();
    expect(server.calls.filter((call) => call.startsWith('POST'))).toEqual([]);
    expect(document.activeElement).toBe(update);

    await act(async () => update.click());
    await act(async () => (el.querySelector('[data-action="confirm-cancel"]') as HTMLButtonElement).click());
    await act(async () => {});
    expect(server.calls.filter((call) => call.startsWith('POST'))).toEqual(['POST /api/commerce/orders/o5/status']);
    expect(el.querySelector('[role="status"]')!.textContent).toBe('Order #5 is now cancelled. Refunded $125.00 to Visa ending 4242. buyer5@example.com is emailed about it.');
    expect(el.querySelector('tr[data-order-id="o5"] .admin-order-refund')!.textContent).toBe('Refunded $125.00 to Visa ending 4242Refund re_5');
    // Cancelled is final: the focus is on the row's new status.
    expect(document.activeElement).toBe(el.querySelector('tr[data-order-id="o5"] .admin-order-status'));
  });

  it('a refused refund leaves the row as it was and says why; an offline payment is the owner to give back', async () => {
    const paid = { ...order(6, 'paid'), testMode: true, payment: { provider: 'test', label: 'Visa ending 5126 (test)', kind: 'card' } };
    const offline = { ...order(7, 'paid'), testMode: false, payment: { provider: 'manual', label: 'Bank transfer or pay on pickup', kind: 'offline' } };
    const refused = { error: "The refund failed, so the order was not cancelled: The card's bank refused the refund.", code: 'REFUND_FAILED' };
    const server = fakeAdminServer((method) =>
      method === 'GET' ? { status: 200, body: { orders: [paid, offline], nextCursor: null } } : { status: 502, body: refused },
    );
    const el = await mountPanel(OrdersPanel, server);
    const cancelFrom = async (id: string) => {
      const row = el.querySelector(`tr[data-order-id="${id}"]`)!;
      const select = row.querySelector('select')!;
      await act(async () => {
        select.value = 'cancelled';
        select.dispatchEvent(new Event('change', { bubbles: true }));
      });
      await act(async () => (row.querySelector('button') as HTMLButtonElement).click());
      const dialog = el.querySelector('[role="alertdialog"]')!;
      return document.getElementById(dialog.getAttribute('aria-describedby')!)!.textContent;
    };
    expect(await cancelFrom('o6')).toContain('The payment (Visa ending 5126 (test), $150.00) is refunded first (a test payment: no real money moves); if the refund fails, the order stays as it is.');
    await act(async () => (el.querySelector('[data-action="confirm-cancel"]') as HTMLButtonElement).click());
    await act(async () => {});
    expect(el.querySelector('[role="status"]')!.textContent).toBe(refused.error);
    expect(el.querySelector('tr[data-order-id="o6"] .admin-order-status')!.textContent).toBe('Paid');
    expect(el.querySelector('tr[data-order-id="o6"] .admin-order-refund')).toBeNull();
    expect(await cancelFrom('o7')).toContain('The payment (Bank transfer or pay on pickup, $175.00) was made offline: give it back to the buyer yourself; the email tells the buyer you will.');
  });

  it('a double press sends one change; two rows changed at once both keep their new status', async () => {
    const server = fakeAdminServer((method, url, body) => {
      if (method === 'GET') return { status: 200, body: { orders: [order(2, 'paid'), order(1, 'paid')], nextCursor: null } };
      const id = /orders\/(o\d)\/status/.exec(url)![1]!;
      return { status: 200, body: { ...order(Number(id.slice(1)), (body as { status: string }).status) } };
    });
    const el = await mountPanel(OrdersPanel, server);
    const update = (id: string) => el.querySelector(`tr[data-order-id="${id}"] button`) as HTMLButtonElement;
    await act(async () => {
      update('o2').click();
      update('o2').click();
      update('o1').click();
    });
    await act(async () => {});
    expect(server.calls.filter((call) => call.startsWith('POST'))).toEqual(['POST /api/commerce/orders/o2/status', 'POST /api/commerce/orders/o1/status']);
    expect([...el.querySelectorAll('.admin-order-status')].map((status) => status.textContent)).toEqual(['Fulfilled', 'Fulfilled']);
  });

  it('a move refused because the order moved meanwhile reads the row again: it shows the status now and its moves', async () => {
    const server = fakeAdminServer((method, url) => {
      if (method === 'GET' && url === '/api/commerce/orders/o4') return { status: 200, body: order(4, 'cancelled') };
      if (method === 'GET') return { status: 200, body: { orders: [order(4, 'paid')], nextCursor: null } };
      return { status: 409, body: { error: 'An order that is cancelled cannot be marked fulfilled.', code: 'INVALID_ORDER_STATUS' } };
    });
    const el = await mountPanel(OrdersPanel, server);
    await act(async () => (el.querySelector('tr[data-order-id="o4"] button') as HTMLButtonElement).click());
    await act(async () => {});
    expect(el.querySelector('[role="status"]')!.textContent).toBe('An order that is cancelled cannot be marked fulfilled.');
    expect(el.querySelector('tr[data-order-id="o4"] .admin-order-status')!.textContent).toBe('Cancelled');
    expect(el.querySelector('tr[data-order-id="o4"] select')).toBeNull();
  });

  it("a move refused while the order's refund is under way reads the row again: it says the refund is under way", async () => {
    const pending = { error: "This order's refund is under way. Wait a moment, then look at the order again.", code: 'REFUND_PENDING' };
    const server = fakeAdminServer((method, url) => {
      if (method === 'GET' && url === '/api/commerce/orders/o5') return { status: 200, body: { ...order(5, 'paid'), refundPending: true } };
      if (method === 'GET') return { status: 200, body: { orders: [order(5, 'paid')], nextCursor: null } };
      return { status: 409, body: pending };
    });
    const el = await mountPanel(OrdersPanel, server);
    expect(el.querySelector('tr[data-order-id="o5"] [data-refund-pending]')).toBeNull();
    await act(async () => (el.querySelector('tr[data-order-id="o5"] button') as HTMLButtonElement).click());
    await act(async () => {});
    expect(el.querySelector('[role="status"]')!.textContent).toBe(pending.error);
    expect(el.querySelector('tr[data-order-id="o5"] .admin-order-status')!.textContent).toBe('Paid');
    expect(el.querySelector('tr[data-order-id="o5"] [data-refund-pending]')!.textContent).toBe('Refund under way or unfinished: cancelling again finishes it.');
  });

  it("a digital line shows its downloads used of the limit; Reset count and Email download links send one request each and say what was done", async () => {
    const downloads = (used: number) => [{ itemId: 'poster', title: 'Poster', used, limit: 10 }];
    const paid = { ...order(8, 'paid'), downloads: downloads(10), downloadsOpen: true };
    const cancelled = { ...order(9, 'cancelled'), downloads: downloads(2), downloadsOpen: false };
    const server = fakeAdminServer((method, url) => {
      if (method === 'GET') return { status: 200, body: { orders: [paid, cancelled], nextCursor: null } };
      if (url.endsWith('/downloads/reset')) return { status: 200, body: { ...paid, downloads: downloads(0) } };
      return { status: 200, body: paid };
    });
    const el = await mountPanel(OrdersPanel, server);
    const row = (id: string) => el.querySelector(`tr[data-order-id="${id}"]`)!;
    expect(row('o8').querySelector('.admin-order-download-count')!.textContent).toBe('Poster: 10 of 10 downloads used');
    // Cancelled: the count stays to read, the links are closed, nothing to reset or send.
    expect(row('o9').querySelector('.admin-order-download-count')!.textContent).toBe('Poster: 2 of 10 downloads used');
    expect(row('o9').textContent).toContain('Download links closed');
    expect([...row('o9').querySelectorAll('.admin-order-downloads button')]).toHaveLength(0);
    const button = (name: RegExp) => [...row('o8').querySelectorAll('button')].find((candidate) => name.test(candidate.textContent ?? '')) as HTMLButtonElement;
    expect(button(/^Reset count/).textContent).toBe('Reset count of Poster, order #8');
    await act(async () => {
      button(/^Reset count/).click();
      button(/^Reset count/).click();
    });
    await act(async () => {});
    expect(server.calls.filter((call) => call.startsWith('POST'))).toEqual(['POST /api/commerce/orders/o8/downloads/reset']);
    expect(row('o8').querySelector('.admin-order-download-count')!.textContent).toBe('Poster: 0 of 10 downloads used');
    expect(el.querySelector('[role="status"]')!.textContent).toBe('Poster of order #8 can be downloaded 10 times again.');
    await act(async () => button(/^Email download links/).click());
    await act(async () => {});
    expect(server.calls.filter((call) => call.startsWith('POST'))).toEqual(['POST /api/commerce/orders/o8/downloads/reset', 'POST /api/commerce/orders/o8/downloads/resend']);
    expect(el.querySelector('[role="status"]')!.textContent).toBe('The download links of order #8 are emailed to buyer8@example.com again.');
  });

  it('Find narrows the list by status and number or email; an answer to an older Find is not shown under a newer one', async () => {
    const base = fakeAdminServer((method, url) => {
      if (url === '/api/commerce/orders?limit=20') return { status: 200, body: { orders: [order(3, 'paid'), order(2, 'cancelled'), order(1, 'paid')], nextCursor: null } };
      if (url === '/api/commerce/orders?limit=20&status=paid&q=buyer1') return { status: 200, body: { orders: [order(1, 'paid')], nextCursor: null } };
      if (url.includes('q=slow')) return { status: 200, body: { orders: [order(9, 'paid')], nextCursor: null } };
      return { status: 200, body: { orders: [], nextCursor: null } };
    });
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const server = {
      ...base,
      fetch: () => (async (url: string, init: RequestInit) => {
        if (url.includes('q=slow')) await gate;
        return base.fetch()(url, init);
      }) as unknown as typeof fetch,
    };
    const el = await mountPanel(OrdersPanel, server);
    const find = async (text: string, status: string) => {
      const input = el.querySelector('input[type="search"]') as HTMLInputElement;
      const select = el.querySelector('form[role="search"] select') as HTMLSelectElement;
      await act(async () => {
        const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
        setValue.call(input, text);
        input.dispatchEvent(new Event('input', { bubbles: true }));
        select.value = status;
        select.dispatchEvent(new Event('change', { bubbles: true }));
      });
      await act(async () => (el.querySelector('form[role="search"] button[type="submit"]') as HTMLButtonElement).click());
      await act(async () => {});
    };
    const rows = () => [...el.querySelectorAll('tbody tr')].map((tr) => tr.getAttribute('data-order-id'));
    expect(rows()).toEqual(['o3', 'o2', 'o1']);
    expect(el.querySelector('form[role="search"]')!.getAttribute('aria-label')).toBe('Search orders');
    const said = () => el.querySelector('[role="status"]')?.textContent;
    await find(' buyer1 ', 'paid');
    expect(base.calls).toContain('GET /api/commerce/orders?limit=20&status=paid&q=buyer1');
    expect(rows()).toEqual(['o1']);
    // Each Find says what it found, for whoever cannot see the table change.
    expect(said()).toBe('1 order found.');
    await find('nobody', '');
    expect(rows()).toEqual([]);
    expect(el.textContent).toContain('No orders match.');
    expect(said()).toBe('No orders found.');
    // The same Find again reads the list again, and says it again.
    const asked = base.calls.length;
    await find('nobody', '');
    expect(base.calls.length).toBe(asked + 1);
    expect(said()).toBe('No orders found.');
    // The slow answer comes after the next Find's: the list keeps the newer one.
    await find('slow', '');
    await find('', '');
    expect(rows()).toEqual(['o3', 'o2', 'o1']);
    await act(async () => release());
    await act(async () => {});
    expect(rows()).toEqual(['o3', 'o2', 'o1']);
    expect(said()).toBe('3 orders listed.');
  });

  it('says a change is on its way until the answer comes; marked paid, says the buyer is emailed', async () => {
    const base = fakeAdminServer((method, url, body) => {
      if (method === 'GET') return { status: 200, body: { orders: [order(8, 'awaiting-payment')], nextCursor: null } };
      return { status: 200, body: { ...order(8, (body as { status: string }).status) } };
    });
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const server = {
      ...base,
      fetch: () => (async (url: string, init: RequestInit) => {
        if (init.method === 'POST') await gate;
        return base.fetch()(url, init);
      }) as unknown as typeof fetch,
    };
    const el = await mountPanel(OrdersPanel, server);
    await act(async () => (el.querySelector('tr[data-order-id="o8"] button') as HTMLButtonElement).click());
    expect(el.querySelector('[role="status"]')!.textContent).toBe('Updating order #8…');
    await act(async () => release());
    await act(async () => {});
    expect(el.querySelector('[role="status"]')!.textContent).toBe('Order #8 is now paid. buyer8@example.com is emailed that the payment arrived.');
  });

  it('says plainly when the server has no orders API yet', async () => {
    const el = await mountPanel(OrdersPanel, fakeAdminServer(() => ({ status: 404, body: { error: 'Not found.', code: 'NOT_FOUND' } })));
    expect(el.querySelector('[role="alert"] p')!.textContent).toBe('Orders are not available on this server yet.');
    expect(el.querySelector('[role="alert"] button')!.textContent).toBe('Try again');
  });
  it('Refund… refunds part of a paid order: the dialog bounds the amount, sends one key, and the row shows what was refunded and what is left', async () => {
    const paid = { ...order(2, 'paid'), testMode: true, payment: { provider: 'test', label: 'Visa ending 4242 (test)', kind: 'card' }, refundedCents: 0, refundableCents: 5000, refunds: [] };
    const given = { kind: 'refunded', amountCents: 2000, reference: 'test_refund_1', label: 'Visa ending 4242 (test)', on: '2026-01-02T10:00:00.000Z', by: 'owner@example.com', reason: 'Returned tee' };
    let answer: { status: number; body: unknown } = { status: 200, body: { ...paid, status: 'partially-refunded', refundedCents: 2000, refundableCents: 3000, refunds: [given] } };
    const server = fakeAdminServer((method) => (method === 'GET' ? { status: 200, body: { orders: [paid], nextCursor: null } } : answer));
    const el = await mountPanel(OrdersPanel, server);
    const row = () => el.querySelector('tr[data-order-id="o2"]')!;
    const opener = row().querySelector('[data-action="refund"]') as HTMLButtonElement;
    expect(opener.textContent).toBe('Refund… order #2');
    opener.focus();
    await act(async () => opener.click());
    const dialog = el.querySelector('[role="dialog"]')!;
    expect(dialog.querySelector('h2')!.textContent).toBe('Refund order #2');
    expect(document.getElementById(dialog.getAttribute('aria-describedby')!)!.textContent).toBe(
      'It goes back to Visa ending 4242 (test) (a test payment: no real money moves). buyer2@example.com gets an email saying how much was refunded. Nothing goes back into stock.',
    );
    const amount = dialog.querySelector('input') as HTMLInputElement;
    // The focus starts on the amount, which holds all that is left.
    expect(document.activeElement).toBe(amount);
    expect(amount.value).toBe('50.00');
    const type = async (input: HTMLInputElement, value: string) =>
      act(async () => {
        Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, value);
        input.dispatchEvent(new Event('input', { bubbles: true }));
      });
    const submit = async () => act(async () => (dialog.querySelector('[data-action="confirm-refund"]') as HTMLButtonElement).click());
    for (const bad of ['50.01', '0', '12.345', 'ten']) {
      await type(amount, bad);
      await submit();
      expect(amount.getAttribute('aria-invalid'), bad).toBe('true');
      expect(document.getElementById(amount.getAttribute('aria-describedby')!.split(' ')[0]!)!.textContent).toBe('Enter an amount from $0.01 to $50.00.');
    }
    expect(server.calls.filter((call) => call.startsWith('POST'))).toEqual([]);
    await type(amount, '20');
    await type(dialog.querySelectorAll('input')[1] as HTMLInputElement, ' Returned tee ');
    await submit();
    await act(async () => {});
    expect(server.calls.filter((call) => call.startsWith('POST'))).toEqual(['POST /api/commerce/orders/o2/refunds']);
    const sent = server.bodies[server.calls.indexOf('POST /api/commerce/orders/o2/refunds')] as { amountCents: number; idempotencyKey: string; reason: string };
    expect(sent).toEqual({ amountCents: 2000, idempotencyKey: expect.stringMatching(/^rf-[0-9a-f]{24}$/), reason: 'Returned tee' });
    expect(el.querySelector('[role="dialog"]')).toBeNull();
    expect(el.querySelector('[role="status"]')!.textContent).toBe(
      'Order #2 is now partially refunded. Refunded $20.00 to Visa ending 4242 (test). $30.00 is left to refund. buyer2@example.com is emailed about it.',
    );
    expect(row().querySelector('.admin-order-status')!.textContent).toBe('Partially refunded');
    expect(row().querySelector('.admin-order-refund-sum')!.textContent).toBe('Refunded $20.00 of $50.00; $30.00 left to refund');
    expect(row().querySelector('.admin-order-refund-list li')!.textContent).toContain('$20.00 to Visa ending 4242 (test), by owner@example.com (Returned tee)');
    // The focus is back on Refund…, which stays while money is left; the row now offers Fulfilled.
    expect(document.activeElement).toBe(row().querySelector('[data-action="refund"]'));
    expect([...row().querySelectorAll('select option')].map((option) => option.textContent)).toEqual(['Fulfilled']);

    // Refused by the server (another owner refunded meanwhile): the dialog stays and says why.
    answer = { status: 422, body: { code: 'REFUND_TOO_LARGE', error: 'At most $5.00 is left to refund on this order.' } };
    await act(async () => (row().querySelector('[data-action="refund"]') as HTMLButtonElement).click());
    const again = el.querySelector('[role="dialog"]')!;
    expect((again.querySelector('input') as HTMLInputElement).value).toBe('30.00');
    await act(async () => (again.querySelector('[data-action="confirm-refund"]') as HTMLButtonElement).click());
    await act(async () => {});
    expect(el.querySelector('[role="dialog"] .admin-field-error')!.textContent).toBe('At most $5.00 is left to refund on this order.');
  });

  it('an owner refund that did not finish says so, and Refund… offers that amount, which finishes it', async () => {
    const stuck = { ...order(6, 'paid'), grandTotal: 5000, refundedCents: 0, refundableCents: 5000, refunds: [], refundPending: true, pendingRefundCents: 1500 };
    const el = await mountPanel(OrdersPanel, fakeAdminServer(() => ({ status: 200, body: { orders: [stuck], nextCursor: null } })));
    const row = el.querySelector('tr[data-order-id="o6"]')!;
    expect(row.querySelector('[data-refund-pending]')!.textContent).toBe('A refund of $15.00 is under way or did not finish: refunding that amount again finishes it.');
    await act(async () => (row.querySelector('[data-action="refund"]') as HTMLButtonElement).click());
    expect((el.querySelector('[role="dialog"] input') as HTMLInputElement).value).toBe('15.00');
  });

  it('an unfinished refund of returned lines is finished with the same lines and restock choice; counted lines go with a new one', async () => {
    const items = [
      { productName: 'Tee', variantLabel: 'M', quantity: 2, unitPrice: 2000, productType: 1 },
      { productName: 'Poster', quantity: 1, unitPrice: 900, productType: 2 },
    ];
    const stuck = {
      ...order(7, 'paid'), items, subtotal: 4900, shippingTotal: 500, grandTotal: 5400, refundedCents: 0, refundableCents: 5400, refunds: [],
      refundPending: true, pendingRefundCents: 2000, pendingRefundLines: [{ lineId: 'line-1', quantity: 1 }], pendingRefundRestock: true,
    };
    const fresh = { ...stuck, id: 'o8', orderNumber: 8, refundPending: false, pendingRefundCents: null, pendingRefundLines: undefined, pendingRefundRestock: undefined };
    const server = fakeAdminServer((method, url) =>
      method === 'GET' ? { status: 200, body: { orders: [stuck, fresh], nextCursor: null } } : { status: 200, body: { ...(url.includes('/o7/') ? stuck : fresh), refundPending: false, pendingRefundCents: null } },
    );
    const el = await mountPanel(OrdersPanel, server);
    await act(async () => (el.querySelector('tr[data-order-id="o7"] [data-action="refund"]') as HTMLButtonElement).click());
    // Not offered again to count: it is sent as it was asked.
    expect(el.querySelector('[role="dialog"] .admin-refund-lines')).toBeNull();
    await act(async () => (el.querySelector('[data-action="confirm-refund"]') as HTMLButtonElement).click());
    expect(server.bodies[server.calls.indexOf('POST /api/commerce/orders/o7/refunds')]).toMatchObject({ amountCents: 2000, lines: [{ lineId: 'line-1', quantity: 1 }], restock: true });

    await act(async () => (el.querySelector('tr[data-order-id="o8"] [data-action="refund"]') as HTMLButtonElement).click());
    const dialog = el.querySelector('[role="dialog"]')!;
    const [tee, poster] = [...dialog.querySelectorAll<HTMLInputElement>('.admin-refund-lines input[type="number"]')];
    const type = (input: HTMLInputElement, text: string) => {
      const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
      set.call(input, text);
      input.dispatchEvent(new Event('input', { bubbles: true }));
    };
    // What came back is asked before the amount it sets, and the amount before the reason.
    expect([...dialog.querySelectorAll('label')].map((label) => label.textContent)).toEqual(['Tee (M) returned (up to 2)', 'Poster returned (up to 1)', 'Amount to refund (USD)', 'Reason (optional, for your records)']);
    const note = () => dialog.querySelector('[data-restock-note]')?.textContent ?? null;
    expect(note()).toBeNull();
    // The poster alone: digital, so no Restock items, and the dialog says nothing goes back.
    await act(async () => type(poster!, '1'));
    expect(dialog.querySelector('input[type="checkbox"]')).toBeNull();
    expect(note()).toBe('Poster is not a physical item, so it does not go back into stock: nothing is restocked.');
    expect(dialog.querySelector('[data-restock-note]')!.parentElement!.getAttribute('aria-live')).toBe('polite');
    await act(async () => type(tee!, '2'));
    const restock = dialog.querySelector<HTMLInputElement>('input[type="checkbox"]')!;
    expect(restock.checked).toBe(true);
    expect(note()).toBe('Poster is not a physical item, so it does not go back into stock; the other items do.');
    expect(restock.getAttribute('aria-describedby')).toBe(dialog.querySelector('[data-restock-note]')!.id);
    // Both tees and the poster: all the goods came to (shipping not), so the amount is 4900.
    expect((dialog.querySelector('input[inputmode="decimal"]') as HTMLInputElement).value).toBe('49.00');
    await act(async () => restock.click());
    await act(async () => (dialog.querySelector('[data-action="confirm-refund"]') as HTMLButtonElement).click());
    expect(server.bodies[server.calls.indexOf('POST /api/commerce/orders/o8/refunds')]).toMatchObject({
      amountCents: 4900,
      lines: [{ lineId: 'line-1', quantity: 2 }, { lineId: 'line-2', quantity: 1 }],
      restock: false,
    });
  });

  it('an order with nothing left to refund offers no Refund…', async () => {
    const done = { ...order(3, 'refunded'), refundedCents: 7500, refundableCents: 0, refunds: [] };
    const unpaid = { ...order(4, 'awaiting-payment'), refundableCents: 0 };
    const el = await mountPanel(OrdersPanel, fakeAdminServer(() => ({ status: 200, body: { orders: [done, unpaid], nextCursor: null } })));
    expect(el.querySelector('[data-action="refund"]')).toBeNull();
    expect(el.querySelector('tr[data-order-id="o3"] .admin-order-status')!.textContent).toBe('Refunded');
  });

  it('a refund row says which returned lines went back into stock: only the physical ones', () => {
    const items = [
      { productName: 'Tee', variantLabel: 'M', quantity: 2, productType: 1 },
      { productName: 'Poster', quantity: 1, productType: 2 },
    ];
    expect(returnedText({ items }, [{ lineId: 'line-1', quantity: 1 }], true)).toBe('Returned: 1 × Tee (M), back in stock');
    expect(returnedText({ items }, [{ lineId: 'line-1', quantity: 1 }, { lineId: 'line-2', quantity: 1 }], true)).toBe('Returned: 1 × Tee (M) (back in stock), 1 × Poster');
    expect(returnedText({ items }, [{ lineId: 'line-1', quantity: 1 }, { lineId: 'line-2', quantity: 1 }], false)).toBe('Returned: 1 × Tee (M), 1 × Poster');
    expect(returnedText({ items }, [{ lineId: 'line-2', quantity: 1 }], false)).toBe('Returned: 1 × Poster');
  });
});
