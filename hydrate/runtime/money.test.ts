import { describe, expect, test } from 'vitest';
import { cldrMoneyText, CURRENCIES, formatMoney, legacyMoneyHtml, toMinorUnits } from './money.ts';

describe('D2 formatMoney', () => {
  test.each([
    ['EUR', '€1,234.56'], ['USD', '$1,234.56'], ['AUD', 'A$1,234.56'], ['NOK', '1,234.56 kr'], ['CAD', 'CA$1,234.56'],
    ['NZD', 'NZ$1,234.56'], ['DKK', '1,234.56 kr'], ['GBP', '£1,234.56'], ['HKD', 'HK$1,234.56'], ['CHF', 'CHF 1,234.56'],
    ['MXN', 'MX$1,234.56'], ['SGD', 'S$1,234.56'], ['SEK', '1,234.56 kr'], ['CZK', '1,234.56 Kč'], ['ILS', '₪1,234.56'],
    ['PHP', '₱1,234.56'], ['RUB', '1,234.56 ₽'], ['PLN', '1,234.56 zł'], ['THB', '฿1,234.56'], ['MYR', 'RM1,234.56'],
    ['ARS', 'AR$1,234.56'], ['BRL', 'R$1,234.56'], ['COP', 'COL$1,234.56'], ['IDR', 'Rp1,234.56'], ['INR', '₹1,234.56'],
    ['JPY', '¥123,456'], ['ZAR', 'R1,234.56'],
  ])('%s 123456 minor units is %s', (code, expected) => {
    expect(formatMoney(123456, code)).toBe(expected);
  });

  test('the table has the 27 currencies of D2', () => {
    expect(Object.keys(CURRENCIES)).toHaveLength(27);
  });

  test('small, zero and negative amounts', () => {
    expect(formatMoney(5, 'USD')).toBe('$0.05');
    expect(formatMoney(0, 'JPY')).toBe('¥0');
    expect(formatMoney(-100, 'USD')).toBe('-$1.00');
    expect(formatMoney(-100, 'SEK')).toBe('-1.00 kr');
  });

  test('more than 15 integer digits and fractions of a minor unit are range errors', () => {
    expect(() => formatMoney(10 ** 17, 'USD')).toThrow(RangeError);
    expect(formatMoney(99_999_999_999_999, 'USD')).toBe('$999,999,999,999.99');
    expect(() => formatMoney(1.5, 'USD')).toThrow(RangeError);
  });
});

describe('variant money', () => {
  test('both template shapes convert to minor units', () => {
    expect(toMinorUnits({ value: '25.00', currency: 'USD' })).toEqual({ cents: 2500, currency: 'USD' });
    expect(toMinorUnits({ decimalValue: '1234', currencyCode: 'JPY' })).toEqual({ cents: 1234, currency: 'JPY' });
    expect(toMinorUnits({ value: '0.29', currency: '' })).toEqual({ cents: 29, currency: 'USD' });
    expect(toMinorUnits({ value: 'abc', currency: 'USD' }).cents).toBe(0);
    expect(toMinorUnits(null)).toEqual({ cents: 0, currency: 'USD' });
  });

  test('legacy spans always have two decimals, grouped, half-even', () => {
    expect(legacyMoneyHtml({ value: '1234', currency: 'JPY' })).toBe('<span class="sqs-money-native">1,234.00</span>');
    expect(legacyMoneyHtml({ value: '0.125', currency: 'USD' })).toBe('<span class="sqs-money-native">0.12</span>');
    expect(legacyMoneyHtml({ value: '-0.05', currency: 'USD' })).toBe('<span class="sqs-money-native">-0.05</span>');
  });

  test('CLDR text follows the locale', () => {
    expect(cldrMoneyText({ value: '2500', currency: 'USD' }, 'en-US')).toBe('$2,500.00');
    expect(cldrMoneyText({ value: '2500', currency: 'EUR' }, 'de-DE')).toBe('2.500,00\u00a0€');
  });
});
