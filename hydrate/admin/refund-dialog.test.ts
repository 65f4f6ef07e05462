import { describe, expect, it } from 'vitest';
import { amountField, newRefundKey, parseAmount, parseCount, restockNote, returnableLines } from './refund-dialog.tsx';

describe('refund amounts', () => {
  it('reads what an owner types in major units as cents, refusing more decimals than the currency has', () => {
    const cases: [string, string, number | null][] = [
      ['20', 'USD', 2000], ['20.5', 'USD', 2050], ['20.50', 'USD', 2050], [' $1,012.50 ', 'USD', 101250], ['0.01', 'USD', 1], ['.5', 'USD', null],
      ['12.345', 'USD', null], ['-5', 'USD', null], ['ten', 'USD', null], ['', 'USD', null], ['1e3', 'USD', null], ['500', 'JPY', 500], ['500.5', 'JPY', null],
    ];
    for (const [text, currency, cents] of cases) expect(parseAmount(text, currency), `${text} ${currency}`).toBe(cents);
  });

  it('shows cents in the field as major units, and each refund gets its own key', () => {
    expect(amountField(2000, 'USD')).toBe('20.00');
    expect(amountField(500, 'JPY')).toBe('500');
    expect(newRefundKey()).not.toBe(newRefundKey());
  });
});

describe('returned lines', () => {
  it('offers each line with something left to return, less what earlier refunds gave back, and reads a count from 0 to it', () => {
    const order = {
      id: 'o1', orderNumber: 1, email: 'b@example.com', grandTotal: 5800, refundableCents: 5800, subtotal: 5300, shippingTotal: 500,
      items: [
        { productName: 'T-shirt', variantLabel: 'M', quantity: 2, unitPrice: 2500, productType: 1 },
        { productName: 'Wallpaper', quantity: 1, unitPrice: 300, productType: 2 },
        { productName: 'Print Workshop', quantity: 1, unitPrice: 0, productType: 3 },
      ],
      refunds: [{ lines: [{ lineId: 'line-2', quantity: 1 }] }, {}],
    };
    expect(returnableLines(order)).toEqual([
      { lineId: 'line-1', name: 'T-shirt (M)', left: 2, restockable: true },
      { lineId: 'line-3', name: 'Print Workshop', left: 1, restockable: true },
    ]);
    // Goods and a service's seats go back into stock; a download does not.
    expect(returnableLines({ ...order, refunds: [] }).map((line) => [line.lineId, line.restockable])).toEqual([['line-1', true], ['line-2', false], ['line-3', true]]);
    // An order JSON without its totals (an older server) offers no lines: an amount only.
    expect(returnableLines({ ...order, subtotal: undefined })).toEqual([]);
    const cases: [string, number | null][] = [['', 0], [' 2 ', 2], ['0', 0], ['3', null], ['1.5', null], ['-1', null], ['two', null]];
    for (const [text, count] of cases) expect(parseCount(text, 2), text).toBe(count);
  });
});

describe('restock note', () => {
  const returnable = [
    { lineId: 'line-1', name: 'T-shirt (M)', left: 2, restockable: true },
    { lineId: 'line-2', name: 'Wallpaper', left: 1, restockable: false },
    { lineId: 'line-3', name: 'Gift card', left: 1, restockable: false },
    { lineId: 'line-4', name: 'Print Workshop', left: 1, restockable: true },
  ];
  it('tells the owner that counted downloads and gift cards stay out of stock, instead of restocking nothing in silence; a service\'s seat goes back', () => {
    expect(restockNote(returnable, [], true)).toBeNull();
    expect(restockNote(returnable, [{ lineId: 'line-1', quantity: 1 }], true)).toBeNull();
    expect(restockNote(returnable, [{ lineId: 'line-2', quantity: 1 }], false)).toBe('Wallpaper is not a physical item, so it does not go back into stock: nothing is restocked.');
    expect(restockNote(returnable, [{ lineId: 'line-2', quantity: 1 }, { lineId: 'line-3', quantity: 1 }], false)).toBe(
      'Wallpaper and Gift card are not physical items, so they do not go back into stock: nothing is restocked.',
    );
    // With a physical line: said while Restock items is on; off, nothing goes back anyway.
    expect(restockNote(returnable, [{ lineId: 'line-1', quantity: 1 }, { lineId: 'line-2', quantity: 1 }], true)).toBe('Wallpaper is not a physical item, so it does not go back into stock; the other items do.');
    expect(restockNote(returnable, [{ lineId: 'line-1', quantity: 1 }, { lineId: 'line-2', quantity: 1 }], false)).toBeNull();
    expect(restockNote(returnable, [{ lineId: 'line-4', quantity: 1 }], true)).toBeNull();
  });
});
