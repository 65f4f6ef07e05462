import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { JavaError } from '../../engine/plugin-api.ts';
import {
  compareDecimal,
  decimalToDouble,
  exactDecimalOfDouble,
  movePointRight,
  parseDecimal,
  roundHalfEven,
  toPlainString,
} from './decimal.ts';

function javaErrorOf(run: () => unknown): JavaError | null {
  try {
    run();
    return null;
  } catch (e) {
    if (e instanceof JavaError) return e;
    throw e;
  }
}

describe('parseDecimal (Java BigDecimal grammar)', () => {
  it('keeps the written scale', () => {
    expect(parseDecimal('3.00')).toEqual({ unscaled: 300n, scale: 2 });
    expect(parseDecimal('.1')).toEqual({ unscaled: 1n, scale: 1 });
    expect(parseDecimal('5.')).toEqual({ unscaled: 5n, scale: 0 });
    expect(parseDecimal('-12')).toEqual({ unscaled: -12n, scale: 0 });
    expect(parseDecimal('+7')).toEqual({ unscaled: 7n, scale: 0 });
  });

  it('applies an exponent to the scale', () => {
    expect(parseDecimal('1.5E3')).toEqual({ unscaled: 15n, scale: -2 });
    expect(parseDecimal('25e-1')).toEqual({ unscaled: 25n, scale: 1 });
    expect(toPlainString(parseDecimal('1.0E21'))).toBe('1000000000000000000000');
  });

  it('rejects text that is not a decimal with NumberFormatException', () => {
    for (const bad of ['', 'abc', '1.2.3', '--1', '1e', '1e+', ' 1', '1 ', 'NaN', '0x10', '.', '1,000']) {
      const err = javaErrorOf(() => parseDecimal(bad));
      expect(err?.javaClass, bad).toBe('NumberFormatException');
    }
  });

  it('names the first character that is not part of a number, a whole code point, in its message', () => {
    const message = (text: string) => javaErrorOf(() => parseDecimal(text))?.message;
    const neither = (ch: string) => `Character ${ch} is neither a decimal digit number, decimal point, nor "e" notation exponential mark.`;
    expect(message('12a4')).toBe(neither('a'));
    expect(message('1,000')).toBe(neither(','));
    expect(message('1\u{1F600}2x')).toBe(neither('\u{1F600}'));
    expect(message('<p>' + 'Lorem ipsum. '.repeat(20_000))).toBe(neither('<'));
    expect(message('')).toBe('Empty string');
    expect(message('1.2.3')).toBe('No digits found.');
  });

  it('refuses exponents that would print megabytes of zeros', () => {
    expect(javaErrorOf(() => parseDecimal('1e999999'))?.javaClass).toBe('NumberFormatException');
    expect(javaErrorOf(() => parseDecimal('1e9999999999'))?.javaClass).toBe('NumberFormatException');
  });
});

describe('decimal arithmetic', () => {
  it('compares numerically, ignoring scale', () => {
    expect(compareDecimal(parseDecimal('2.0'), parseDecimal('2'))).toBe(0);
    expect(compareDecimal(parseDecimal('.5'), parseDecimal('0.75'))).toBe(-1);
    expect(compareDecimal(parseDecimal('-1'), parseDecimal('-1.5'))).toBe(1);
  });

  it('moves the point right the way Java does (scale never below zero)', () => {
    const cents = (s: string) => toPlainString(movePointRight(parseDecimal(s), 2));
    expect(cents('1')).toBe('100');
    expect(cents('.1')).toBe('10');
    expect(cents('3.00')).toBe('300');
    expect(cents('1.555')).toBe('155.5');
    expect(cents('-0.01')).toBe('-1');
    expect(cents('2E+3')).toBe('200000');
  });

  it('moves the point left with a negative count', () => {
    expect(toPlainString(movePointRight(parseDecimal('12345'), -2))).toBe('123.45');
    expect(toPlainString(movePointRight(parseDecimal('5'), -2))).toBe('0.05');
    expect(toPlainString(movePointRight(parseDecimal('-5'), -3))).toBe('-0.005');
  });

  it('round-trips plain decimal text', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.integer({ min: 0, max: 12 }), (unscaled, scale) => {
        const text = toPlainString({ unscaled, scale });
        expect(compareDecimal(parseDecimal(text), { unscaled, scale })).toBe(0);
      }),
    );
  });

  // parseDecimal sums up to 15 digits as a number and reads longer ones from the text;
  // compareDecimal compares equal scales directly and scales the others from a table.
  it('reads the digits exactly on both sides of the 15-digit bound', () => {
    const digits = fc.string({ unit: fc.constantFrom('0', '1', '5', '8', '9'), minLength: 0, maxLength: 24 });
    fc.assert(
      fc.property(fc.constantFrom('', '-', '+'), digits, fc.option(digits, { nil: null }), (sign, int, frac) => {
        const all = int + (frac ?? '');
        fc.pre(all.length > 0);
        const text = sign + int + (frac === null ? '' : '.' + frac);
        expect(parseDecimal(text)).toEqual({ unscaled: BigInt((sign === '-' ? '-' : '') + all), scale: frac === null ? 0 : frac.length });
      }),
      { numRuns: 500 },
    );
    expect(parseDecimal('999999999999999.5')).toEqual({ unscaled: 9999999999999995n, scale: 1 });
    expect(parseDecimal('-00000000000000012.30')).toEqual({ unscaled: -1230n, scale: 2 });
  });

  it('compares as the cross-multiplied values do, at any two scales', () => {
    const decimal = fc.record({ unscaled: fc.bigInt({ min: -(10n ** 25n), max: 10n ** 25n }), scale: fc.integer({ min: -3, max: 24 }) });
    const sign = (x: bigint) => (x < 0n ? -1 : x > 0n ? 1 : 0);
    const scaled = (d: { unscaled: bigint; scale: number }, to: number) => d.unscaled * 10n ** BigInt(to - d.scale);
    fc.assert(
      fc.property(decimal, decimal, fc.boolean(), (a, b, sameScale) => {
        const c = sameScale ? { unscaled: b.unscaled, scale: a.scale } : b;
        const to = Math.max(a.scale, c.scale);
        expect(compareDecimal(a, c)).toBe(sign(scaled(a, to) - scaled(c, to)));
      }),
      { numRuns: 500 },
    );
  });
});

describe('exact value of a double', () => {
  it('expands the binary value exactly', () => {
    const exactly = (x: number, text: string) => expect(compareDecimal(exactDecimalOfDouble(x), parseDecimal(text)), text).toBe(0);
    exactly(0.1, '0.1000000000000000055511151231257827021181583404541015625');
    exactly(0.125, '0.125');
    exactly(-2.5, '-2.5');
    exactly(1e21, '1000000000000000000000');
    expect(exactDecimalOfDouble(5e-324).scale).toBe(1074);
  });

  it('converts back to the same double', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        expect(decimalToDouble(exactDecimalOfDouble(x))).toBe(x === 0 ? 0 : x);
      }),
    );
  });
});

describe('roundHalfEven', () => {
  const round = (s: string, digits: number) => toPlainString(roundHalfEven(parseDecimal(s), digits));

  it('rounds ties to the even neighbour', () => {
    expect(round('0.125', 2)).toBe('0.12');
    expect(round('0.135', 2)).toBe('0.14');
    expect(round('-0.125', 2)).toBe('-0.12');
    expect(round('2.5', 0)).toBe('2');
    expect(round('3.5', 0)).toBe('4');
  });

  it('rounds non-ties to the nearest', () => {
    expect(round('0.1251', 2)).toBe('0.13');
    expect(round('0.1249', 2)).toBe('0.12');
    expect(round('-7.777', 1)).toBe('-7.8');
  });

  it('leaves values that already fit', () => {
    expect(round('1.5', 3)).toBe('1.5');
  });
});

describe('decimalToDouble', () => {
  it('is the nearest double, as parsing the plain string is', () => {
    const decimal = fc.record({ unscaled: fc.bigInt({ min: -(2n ** 60n), max: 2n ** 60n }), scale: fc.integer({ min: -30, max: 30 }) });
    fc.assert(
      fc.property(decimal, (d) => {
        expect(decimalToDouble(d)).toBe(Number(toPlainString(d)));
      }),
      { numRuns: 2000 },
    );
  });
});
