import { describe, expect, it } from 'vitest';
import { amountField, newRefundKey, parseAmount } from './refund-dialog.tsx';

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
