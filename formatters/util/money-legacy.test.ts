import { describe, expect, it } from 'vitest';
import { JavaError } from '../../engine/plugin-api.ts';
import { parseDecimal } from './decimal.ts';
import {
  formatCents,
  formatCentsText,
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
