import { describe, expect, it } from 'vitest';
import { decimalString, formatMoney, knownCurrency, moneyNode, moneySymbolCss } from './money.ts';

describe('D2 money', () => {
  it.each([
    [123456, 'USD', '$1,234.56'],
    [123456, 'JPY', '¥123,456'],
    [10000, 'DKK', '100.00 kr'],
    [123456, 'CHF', 'CHF 1,234.56'],
    [-100, 'USD', '-$1.00'],
    [5, 'EUR', '€0.05'],
    [0, 'GBP', '£0.00'],
    [2500, 'XXX', '$25.00'],
  ])('formatMoney(%i, %s) = %s', (cents, currency, text) => {
    expect(formatMoney(cents, currency)).toBe(text);
  });

  it('makes the {value, currency} nodes the formatters read', () => {
    expect(moneyNode(2500, 'USD')).toEqual({ value: '25.00', currency: 'USD' });
    expect(moneyNode(1234, 'JPY')).toEqual({ value: '1234', currency: 'JPY' });
    expect(moneyNode(7, 'nope')).toEqual({ value: '0.07', currency: 'USD' });
    expect(decimalString(-5, 'USD')).toBe('-0.05');
    expect(knownCurrency('SEK')).toBe('SEK');
  });

  it('puts the symbol before or after legacy money spans', () => {
    expect(moneySymbolCss('USD')).toBe('.sqs-money-native::before { content: "$" }');
    expect(moneySymbolCss('SEK')).toBe('.sqs-money-native::after { content: " kr" }');
    expect(moneySymbolCss('CHF')).toBe('.sqs-money-native::before { content: "CHF " }');
  });
});
