import { describe, expect, it } from 'vitest';
import { JavaError, JDouble, textOf } from '../../engine/plugin-api.ts';
import fc from 'fast-check';
import { exactDecimalOfDouble, parseDecimal, roundHalfEven } from './decimal.ts';
import {
  formatCents,
  formatCentsText,
  formatCentsValue,
  formatDouble,
  moneyNativeSpan,
  MONEY_PATTERN,
  PERCENT_PATTERN,
  PERCENT_TRIM_PATTERN,
  USD_PATTERN,
} from './money-legacy.ts';

describe('formatDouble', () => {
  it('groups thousands and pads to the minimum fraction digits (#,##0.00)', () => {
    expect(formatDouble(1234567.891, MONEY_PATTERN)).toBe('1,234,567.89');
    expect(formatDouble(0, MONEY_PATTERN)).toBe('0.00');
    expect(formatDouble(999, MONEY_PATTERN)).toBe('999.00');
    expect(formatDouble(1000, MONEY_PATTERN)).toBe('1,000.00');
  });

  it('rounds the exact binary value half-even', () => {
    // 0.125 and 0.375 are exact in binary: true ties.
    expect(formatDouble(0.125, MONEY_PATTERN)).toBe('0.12');
    expect(formatDouble(0.375, MONEY_PATTERN)).toBe('0.38');
    // 1.005 is stored just below 1.005, 2.345 just above 2.345.
    expect(formatDouble(1.005, MONEY_PATTERN)).toBe('1.00');
    expect(formatDouble(2.345, MONEY_PATTERN)).toBe('2.35');
  });

  it('keeps the minus sign of negatives that round to zero, as DecimalFormat does', () => {
    expect(formatDouble(-0.001, MONEY_PATTERN)).toBe('-0.00');
    expect(formatDouble(-0, MONEY_PATTERN)).toBe('-0.00');
    expect(formatDouble(-1234.5, MONEY_PATTERN)).toBe('-1,234.50');
  });

  it('prints NaN without affixes and infinity with them', () => {
    expect(formatDouble(NaN, USD_PATTERN)).toBe('NaN');
    expect(formatDouble(Infinity, USD_PATTERN)).toBe('$\u221E');
    expect(formatDouble(-Infinity, USD_PATTERN)).toBe('-$\u221E');
  });

  it('uses 2-3 fraction digits for #,##0.00# and 0-3 for #,##0.###', () => {
    expect(formatDouble(123456, PERCENT_PATTERN)).toBe('123,456.00');
    expect(formatDouble(53.6, PERCENT_PATTERN)).toBe('53.60');
    expect(formatDouble(1.23456, PERCENT_PATTERN)).toBe('1.235');
    expect(formatDouble(123456, PERCENT_TRIM_PATTERN)).toBe('123,456');
    expect(formatDouble(53.6, PERCENT_TRIM_PATTERN)).toBe('53.6');
    expect(formatDouble(0.0004, PERCENT_TRIM_PATTERN)).toBe('0');
  });

  it('prints the dollar sign before the digits, and -$ for negatives', () => {
    expect(formatDouble(123.45, USD_PATTERN)).toBe('$123.45');
    expect(formatDouble(-1.23, USD_PATTERN)).toBe('-$1.23');
    expect(formatDouble(1e6, USD_PATTERN)).toBe('$1,000,000.00');
  });

  it('prints huge values in full, without exponent', () => {
    expect(formatDouble(1e21, MONEY_PATTERN)).toBe('1,000,000,000,000,000,000,000.00');
  });
});

describe('cents formats', () => {
  it('divides cents by one hundred (PLUGINS §15.1 examples)', () => {
    expect(formatCentsText('12345')).toBe('123.45');
    expect(formatCentsText('1')).toBe('0.01');
    expect(formatCentsText('100000')).toBe('1,000.00');
    expect(formatCentsText('1201')).toBe('12.01');
    expect(formatCentsText('100003')).toBe('1,000.03');
    expect(formatCentsText('-5')).toBe('-0.05');
    expect(formatCents(parseDecimal('12.5'))).toBe('0.12');
  });

  it('is a NumberFormatException for text that is not a decimal', () => {
    expect(() => formatCentsText('abc')).toThrow(JavaError);
    expect(() => formatCentsText('')).toThrow(JavaError);
  });

  it('wraps legacy money in the native span', () => {
    expect(moneyNativeSpan('1.00')).toBe('<span class="sqs-money-native">1.00</span>');
  });
});

describe('formatDouble fast path', () => {
  // The slow path alone: rounding the double's exact binary value with bigints.
  function exact(x: number, p: typeof MONEY_PATTERN): string {
    const rounded = roundHalfEven(exactDecimalOfDouble(Math.abs(x)), p.maxFraction);
    let digits = rounded.unscaled.toString();
    if (digits.length <= rounded.scale) digits = '0'.repeat(rounded.scale - digits.length + 1) + digits;
    const integer = digits.slice(0, digits.length - rounded.scale);
    let fraction = digits.slice(digits.length - rounded.scale);
    while (fraction.length > p.minFraction && fraction.endsWith('0')) fraction = fraction.slice(0, -1);
    while (fraction.length < p.minFraction) fraction += '0';
    const grouped = integer.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
    return (x < 0 || Object.is(x, -0) ? p.negativePrefix : p.positivePrefix) + grouped + (fraction ? '.' + fraction : '');
  }

  it('agrees with exact rounding, ties and near-ties included', () => {
    const patterns = [MONEY_PATTERN, PERCENT_PATTERN, PERCENT_TRIM_PATTERN, USD_PATTERN];
    const near = fc.integer({ min: -10_000_000, max: 10_000_000 }).chain((n) =>
      fc.constantFrom(n / 100, n / 1000, n / 200, n / 2000, n / 8, (n + 0.5) / 100, (n + 0.5) / 1000, n * 1.005, n / 3),
    );
    fc.assert(
      fc.property(fc.oneof(near, fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e15, max: 1e15 })), fc.constantFrom(...patterns), (x, p) => {
        expect(formatDouble(x, p)).toBe(exact(x, p));
      }),
      { numRuns: 1500 },
    );
  });

  it('rounds the binary value, not the decimal text: 0.125 → 0.12, 1.005 → 1.00, 0.135 → 0.14', () => {
    expect(formatDouble(0.125, MONEY_PATTERN)).toBe('0.12');
    expect(formatDouble(1.005, MONEY_PATTERN)).toBe('1.00');
    expect(formatDouble(0.135, MONEY_PATTERN)).toBe('0.14');
  });
});

describe('formatCentsValue', () => {
  it('prints whole cents as formatCentsText prints their text', () => {
    const edge = [0, -0, 1, -1, 5, 99, 100, 101, 999, 1000, 99999, 100000, 123456789, -123456789, 2 ** 40 - 1, -(2 ** 40) + 1, 2 ** 40, 2 ** 53 - 1, -(2 ** 53) + 1];
    for (const v of edge) expect(formatCentsValue(v)).toBe(formatCentsText(textOf(v)));
    fc.assert(
      fc.property(fc.oneof(fc.integer(), fc.integer({ min: -(2 ** 41), max: 2 ** 41 }), fc.maxSafeInteger(), fc.double({ noNaN: false })), (v) => {
        let expected: string;
        try {
          expected = formatCentsText(textOf(v));
        } catch {
          expect(() => formatCentsValue(v)).toThrow();
          return;
        }
        expect(formatCentsValue(v)).toBe(expected);
      }),
      { numRuns: 3000 },
    );
  });

  it('takes other values through their text', () => {
    expect(formatCentsValue('12345')).toBe('123.45');
    expect(formatCentsValue(new JDouble(1500))).toBe(formatCentsText(textOf(new JDouble(1500))));
  });
});
