// Exact decimals for the commerce formatters. The reference holds money amounts as Java
// BigDecimal and formats legacy prices with DecimalFormat, which rounds the *exact binary
// value* of a double. Both need arithmetic that JavaScript numbers cannot give, so amounts
// are kept as an unscaled bigint with a decimal scale (value = unscaled × 10^-scale).

import { JavaError } from '../../engine/plugin-api.ts';

export interface Decimal {
  readonly unscaled: bigint;
  /** Number of digits after the decimal point; never negative once normalized by `movePointRight`. */
  readonly scale: number;
}

export const DECIMAL_ZERO: Decimal = { unscaled: 0n, scale: 0 };

// A scale this large would make `toPlainString` print megabytes of zeros; the reference
// would build that string, we refuse the input as the reference refuses an exponent overflow.
const MAX_SCALE = 10_000;

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/**
 * Java `new BigDecimal(String)`: optional sign, digits with at most one point (at least one
 * digit), optional exponent. Throws `JavaError('NumberFormatException')` otherwise.
 */
export function parseDecimal(text: string): Decimal {
  const n = text.length;
  let i = 0;
  let negative = false;
  if (i < n && (text[i] === '+' || text[i] === '-')) {
    negative = text[i] === '-';
    i++;
  }
  // The digits' value is summed as a number while it is exact (at most 15 digits, below
  // 2^53), and taken from the text's slices otherwise: a price's `BigInt` from a number is
  // ~27 ns, from a string of digits ~65, and the slices and their concatenation cost more.
  const intStart = i;
  let value = 0;
  while (i < n) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) break;
    value = value * 10 + d;
    i++;
  }
  const intEnd = i;
  let fraction = 0;
  let fracStart = i;
  if (i < n && text.charCodeAt(i) === 46 /* . */) {
    fracStart = ++i;
    while (i < n) {
      const d = text.charCodeAt(i) - 48;
      if (d < 0 || d > 9) break;
      value = value * 10 + d;
      i++;
    }
    fraction = i - fracStart;
  }
  const count = intEnd - intStart + fraction;
  if (count === 0) throw badDecimal(text);
  let exponent = 0;
  if (i < n && (text[i] === 'e' || text[i] === 'E')) {
    i++;
    let expNegative = false;
    if (i < n && (text[i] === '+' || text[i] === '-')) {
      expNegative = text[i] === '-';
      i++;
    }
    const start = i;
    while (i < n && isDigit(text.charCodeAt(i))) i++;
    if (i === start || i - start > 9) throw badDecimal(text);
    exponent = Number(text.slice(start, i)) * (expNegative ? -1 : 1);
  }
  if (i !== n) throw badDecimal(text);
  const scale = fraction - exponent;
  if (Math.abs(scale) > MAX_SCALE) throw new JavaError('NumberFormatException', 'Exponent overflow.');
  const magnitude = count <= EXACT_DIGITS ? BigInt(value) : BigInt(text.slice(intStart, intEnd) + text.slice(fracStart, fracStart + fraction));
  return { unscaled: negative ? -magnitude : magnitude, scale };
}

function badDecimal(text: string): JavaError {
  // The first character that is not part of a number, by code point, read no further: spread
  // into an array of every code point (`[...text]`), a 176 K post body cost 7 ms a call.
  let bad: string | undefined;
  for (const ch of text) {
    if (!DECIMAL_CHARACTER.test(ch)) {
      bad = ch;
      break;
    }
  }
  if (bad !== undefined) {
    return new JavaError(
      'NumberFormatException',
      `Character ${bad} is neither a decimal digit number, decimal point, nor "e" notation exponential mark.`,
    );
  }
  return new JavaError('NumberFormatException', text.length === 0 ? 'Empty string' : 'No digits found.');
}

const DECIMAL_CHARACTER = /[0-9.+\-eE]/;

/** Digits whose value a double holds exactly (10^15 < 2^53). */
const EXACT_DIGITS = 15;

const TEN = 10n;
/** 10^0 … 10^18 made once: `10n ** BigInt(n)` is two BigInt operations a call. */
const POW10_BIG: readonly bigint[] = Array.from({ length: 19 }, (_, k) => TEN ** BigInt(k));

function pow10(n: number): bigint {
  return n < POW10_BIG.length ? POW10_BIG[n] : TEN ** BigInt(n);
}

/** `compareTo`: numeric order, scale ignored (`2.0` equals `2`). */
export function compareDecimal(a: Decimal, b: Decimal): number {
  // Prices of one product share their scale: no scaling then.
  if (a.scale === b.scale) return a.unscaled < b.unscaled ? -1 : a.unscaled > b.unscaled ? 1 : 0;
  const scale = Math.max(a.scale, b.scale);
  const x = a.unscaled * pow10(scale - a.scale);
  const y = b.unscaled * pow10(scale - b.scale);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Java `movePointRight(n)`: the result's scale is `max(scale - n, 0)`. */
export function movePointRight(d: Decimal, n: number): Decimal {
  const scale = d.scale - n;
  if (scale >= 0) return { unscaled: d.unscaled, scale };
  return { unscaled: d.unscaled * pow10(-scale), scale: 0 };
}

/** Java `toPlainString`: no exponent, all scale digits kept. */
export function toPlainString(d: Decimal): string {
  const negative = d.unscaled < 0n;
  let digits = (negative ? -d.unscaled : d.unscaled).toString();
  if (d.scale < 0) return (negative ? '-' : '') + digits + '0'.repeat(-d.scale);
  if (d.scale > 0) {
    if (digits.length <= d.scale) digits = '0'.repeat(d.scale - digits.length + 1) + digits;
    digits = digits.slice(0, digits.length - d.scale) + '.' + digits.slice(digits.length - d.scale);
  }
  return (negative ? '-' : '') + digits;
}

/** The nearest double (JavaScript's string-to-number conversion rounds correctly). */
export function decimalToDouble(d: Decimal): number {
  // Both operands exact (|unscaled| < 2^53, 10^k exact up to k = 22): IEEE division and
  // multiplication round correctly, so the result is the nearest double, as parsing is.
  if (d.unscaled < SAFE_BIG && d.unscaled > -SAFE_BIG && d.scale <= 22 && d.scale >= -22) {
    const u = Number(d.unscaled);
    return d.scale >= 0 ? u / EXACT_POW10[d.scale] : u * EXACT_POW10[-d.scale];
  }
  return Number(toPlainString(d));
}

const SAFE_BIG = 2n ** 53n;
// Literals, so each is the exact power (Math.pow need not be).
const EXACT_POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22];

// ---- exact binary value of a double --------------------------------------------------

const view = new DataView(new ArrayBuffer(8));

/** The exact decimal value of a finite double (every double is a finite decimal). */
export function exactDecimalOfDouble(x: number): Decimal {
  view.setFloat64(0, x);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const negative = hi >>> 31 === 1;
  const biased = (hi >>> 20) & 0x7ff;
  let mantissa = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let exponent: number;
  if (biased === 0) exponent = -1074;
  else {
    mantissa |= 1n << 52n;
    exponent = biased - 1075;
  }
  let unscaled: bigint;
  let scale: number;
  if (exponent >= 0) {
    unscaled = mantissa << BigInt(exponent);
    scale = 0;
  } else {
    // m × 2^-k = m × 5^k / 10^k
    unscaled = mantissa * 5n ** BigInt(-exponent);
    scale = -exponent;
  }
  return { unscaled: negative ? -unscaled : unscaled, scale };
}

/** Rounds to `digits` fraction digits, half-even (Java RoundingMode.HALF_EVEN). */
export function roundHalfEven(d: Decimal, digits: number): Decimal {
  if (d.scale <= digits) return d;
  const divisor = pow10(d.scale - digits);
  const negative = d.unscaled < 0n;
  const abs = negative ? -d.unscaled : d.unscaled;
  let q = abs / divisor;
  const r = abs % divisor;
  const twice = r * 2n;
  if (twice > divisor || (twice === divisor && q % 2n === 1n)) q += 1n;
  return { unscaled: negative ? -q : q, scale: digits };
}
