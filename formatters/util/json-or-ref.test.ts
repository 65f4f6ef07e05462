import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJson } from '../../engine/value.ts';
import { plainConstant } from './json-or-ref.ts';

describe('plainConstant', () => {
  it('reads what parseJson reads, or leaves the argument to it', () => {
    const arg = fc.oneof(
      fc.string({ unit: fc.constantFrom('0', '1', '9', '-', '.', 'e', '"', '\\', ' ', 'a', 'é', '—', '\u0001', 't', 'r', 'u', 'n', 'l') }),
      fc.integer().map(String),
      fc.maxSafeInteger().map(String),
      fc.string().map((s) => JSON.stringify(s)),
      fc.constantFrom('true', 'false', 'null', '-0', '0', '01', '"', '""', '"a', 'a"', '1e3', '1.5', '9007199254740993', '123456789012345', '1234567890123456'),
    );
    fc.assert(
      fc.property(arg, (a) => {
        const plain = plainConstant(a);
        if (plain === undefined) return;
        expect(Object.is(plain, parseJson(a)), a).toBe(true);
      }),
      { numRuns: 5000 },
    );
    expect(plainConstant('3')).toBe(3);
    expect(plainConstant('"products"')).toBe('products');
    expect(plainConstant('1.5')).toBeUndefined();
    expect(plainConstant('"a\\"b"')).toBeUndefined();
  });
});
