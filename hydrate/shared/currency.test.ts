import { describe, expect, it } from 'vitest';
import { CURRENCIES, FREE_LABEL_REQUIRED, formatMoney, fractionDigits, knownCurrency, lineTotalText, moneyDisplay } from './currency.ts';

describe('D2 currency table', () => {
  it('holds the 27 store currencies, JPY without minor digits', () => {
    expect(Object.keys(CURRENCIES)).toHaveLength(27);
    expect(fractionDigits('JPY')).toBe(0);
    expect(fractionDigits('EUR')).toBe(2);
  });

  it('falls back to USD for an unknown or inherited code', () => {
    expect(knownCurrency('XYZ')).toBe('USD');
    expect(knownCurrency('constructor')).toBe('USD');
    expect(formatMoney(1999, 'XYZ')).toBe('$19.99');
  });

  it('places the symbol per the table with fixed grouping', () => {
    expect(formatMoney(123456789, 'USD')).toBe('$1,234,567.89');
    expect(formatMoney(-250, 'CHF')).toBe('-CHF 2.50');
    expect(formatMoney(150000, 'SEK')).toBe('1,500.00 kr');
    expect(formatMoney(1500, 'JPY')).toBe('¥1,500');
  });

  it('refuses fractional minor units and amounts past 15 integer digits', () => {
    expect(() => formatMoney(1.5, 'USD')).toThrow(RangeError);
    expect(() => formatMoney(10 ** 17, 'USD')).toThrow(RangeError);
  });
});

describe('money display with freeIfZero (seed §5)', () => {
  it('shows the free label for 0 only, and requires the label', () => {
    expect(moneyDisplay(0, 'USD', { freeIfZero: true, freeLabel: 'Gratis' })).toBe('Gratis');
    expect(moneyDisplay(250, 'USD', { freeIfZero: true, freeLabel: 'Gratis' })).toBe('$2.50');
    expect(moneyDisplay(0, 'USD')).toBe('$0.00');
    for (const freeLabel of [undefined, '', '  ']) expect(() => moneyDisplay(0, 'USD', { freeIfZero: true, freeLabel })).toThrow(FREE_LABEL_REQUIRED);
    expect([lineTotalText(0, 'EUR'), lineTotalText(100, 'EUR')]).toEqual(['Free', '€1.00']);
  });
});
