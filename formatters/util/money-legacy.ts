// The reference's pre-CLDR en-US number formats (PLUGINS §15.1): java.text.DecimalFormat
// patterns with US symbols and half-even rounding of the double's exact binary value.
// The execution locale is deliberately ignored, as in the reference.

import { textOf, type Value } from '../../engine/plugin-api.ts';
import { parseDecimal, exactDecimalOfDouble, roundHalfEven, movePointRight, decimalToDouble, type Decimal } from './decimal.ts';

export interface DecimalPattern {
  readonly minFraction: number;
  readonly maxFraction: number;
  /** Text before the digits of a non-negative / negative number. */
  readonly positivePrefix: string;
  readonly negativePrefix: string;
}

/** `#,##0.00` */
export const MONEY_PATTERN: DecimalPattern = { minFraction: 2, maxFraction: 2, positivePrefix: '', negativePrefix: '-' };
/** `#,##0.00#` */
export const PERCENT_PATTERN: DecimalPattern = { minFraction: 2, maxFraction: 3, positivePrefix: '', negativePrefix: '-' };
/** `#,##0.###` */
export const PERCENT_TRIM_PATTERN: DecimalPattern = { minFraction: 0, maxFraction: 3, positivePrefix: '', negativePrefix: '-' };
/** en-US currency instance on Java 11 CLDR data: `¤#,##0.00`, negatives `-¤#,##0.00`. */
export const USD_PATTERN: DecimalPattern = { minFraction: 2, maxFraction: 2, positivePrefix: '$', negativePrefix: '-$' };

const POW10 = [1, 10, 100, 1000, 10000, 100000, 1000000];

/** `digits` (an integer's, no sign) with `sep` between groups of three from the right. */
export function groupDigits(digits: string, sep: string): string {
  if (digits.length <= 3) return digits;
  const head = digits.length % 3;
  let out = head > 0 ? digits.slice(0, head) : '';
  for (let i = head; i < digits.length; i += 3) out += (out ? sep : '') + digits.slice(i, i + 3);
  return out;
}

/**
 * |x| × 10^digits rounded half-even on x's exact binary value, when the nearest integer to the
 * product as doubles compute it is that: below 2^40 the product's rounding error is under
 * 2^-12, so more than 0.49 away from a tie the two agree. -1 when the exact decimal must decide.
 */
export function nearestScaled(x: number, digits: number): number {
  if (digits > 6) return -1;
  const scaled = Math.abs(x) * POW10[digits];
  const nearest = Math.round(scaled);
  return scaled < 2 ** 40 && Math.abs(scaled - nearest) < 0.49 ? nearest : -1;
}

/**
 * DecimalFormat.format(double) for the patterns above. Like Java, a negative value that
 * rounds to zero (and -0.0 itself) keeps its minus sign; NaN prints without prefix.
 */
export function formatDouble(x: number, pattern: DecimalPattern): string {
  if (Number.isNaN(x)) return 'NaN';
  const negative = x < 0 || Object.is(x, -0);
  const prefix = negative ? pattern.negativePrefix : pattern.positivePrefix;
  if (!Number.isFinite(x)) return prefix + '\u221E';
  let digits: string;
  let scale: number;
  // Without bigints when the double's product settles it (`nearestScaled`).
  const nearest = nearestScaled(x, pattern.maxFraction);
  if (nearest >= 0) {
    digits = String(nearest);
    scale = pattern.maxFraction;
  } else {
    const rounded = roundHalfEven(exactDecimalOfDouble(Math.abs(x)), pattern.maxFraction);
    digits = rounded.unscaled.toString();
    scale = rounded.scale;
  }
  if (digits.length <= scale) digits = '0'.repeat(scale - digits.length + 1) + digits;
  const integer = digits.slice(0, digits.length - scale);
  let fraction = digits.slice(digits.length - scale);
  let end = fraction.length;
  while (end > pattern.minFraction && fraction.charCodeAt(end - 1) === 48) end--;
  fraction = fraction.slice(0, end);
  while (fraction.length < pattern.minFraction) fraction += '0';
  return prefix + groupDigits(integer, ',') + (fraction.length > 0 ? '.' + fraction : '');
}

/** Cents (exact) → `#,##0.00` of cents ÷ 100 taken as a double: `12345` → `123.45`. */
export function formatCents(cents: Decimal): string {
  return formatDouble(decimalToDouble(movePointRight(cents, -2)), MONEY_PATTERN);
}

/** Text parsed as cents, as `money-format` does; unparsable text is a runtime error. */
export function formatCentsText(text: string): string {
  return formatCents(parseDecimal(text));
}

/**
 * Below this many cents a whole number of cents ÷ 100, taken as a double and rounded to two
 * places as DecimalFormat rounds its exact binary value, is that number's own digits.
 */
const WHOLE_CENTS_MAX = 2 ** 40;

/**
 * `formatCentsText(textOf(value))`, as `money-format` and `money-string` print a value. Their
 * values are mostly whole cents (a number), whose text is written from the number directly:
 * no decimal parse and no double (the general path cost `money-format`
 * more than the port's `money-format`, which prints its input as it is; formatter sweep of
 * 2026-11-29). money-legacy.test.ts holds the two to the same text.
 */
export function formatCentsValue(value: Value): string {
  if (typeof value === 'number' && Number.isInteger(value) && value > -WHOLE_CENTS_MAX && value < WHOLE_CENTS_MAX && !Object.is(value, -0)) {
    const negative = value < 0;
    const cents = negative ? -value : value;
    const fraction = cents % 100;
    const text = groupWhole((cents - fraction) / 100) + (fraction < 10 ? '.0' : '.') + fraction;
    return negative ? '-' + text : text;
  }
  return formatCentsText(textOf(value));
}

/**
 * `groupDigits` of a whole number from 0 to 2^53 (`#,##0`), by arithmetic: ~25 ns against
 * ~50 ns for its text grouped (2026-11-29), a sixth of a `money-format` call.
 */
function groupWhole(n: number): string {
  if (n < 1000) return '' + n;
  let out = '';
  while (n >= 1000) {
    const r = n % 1000;
    out = (r < 10 ? ',00' : r < 100 ? ',0' : ',') + r + out;
    n = (n - r) / 1000;
  }
  return n + out;
}

/** The legacy money markup of product prices and `money-string`. */
export function moneyNativeSpan(formatted: string): string {
  return '<span class="sqs-money-native">' + formatted + '</span>';
}
