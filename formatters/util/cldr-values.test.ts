import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Decimal } from '@phensley/cldr';
import { parseDecimal } from './cldr-values.ts';

/** What `parseDecimal` answered before it looked at the text first: the library alone. */
function libraryOnly(text: string): string | null {
  if (text.length === 0 || text.length > 400) return null;
  try {
    const d = new Decimal(text);
    return d.isFinite() ? d.toString() : null;
  } catch {
    return null;
  }
}

describe('parseDecimal', () => {
  it('answers what the library answers, on texts of number characters and others', () => {
    const char = fc.constantFrom(...'0123456789+-.eE aINnfity,_x\u0660');
    const text = fc.oneof(
      fc.string({ unit: char, maxLength: 12 }),
      fc.constantFrom('NaN', 'nan', 'Infinity', '-Infinity', '+infinity', '1e5', '-.5', '5.', 'e5', '1e', '--1', '1.2.3', ' 1', '١٢'),
    );
    fc.assert(
      fc.property(text, (s) => {
        expect(parseDecimal(s)?.toString() ?? null).toBe(libraryOnly(s));
      }),
      { numRuns: 20_000 },
    );
  });

  it('rejects a text without number characters without asking the library', () => {
    expect(parseDecimal('abc')).toBeNull();
    expect(parseDecimal('12 kg')).toBeNull();
    expect(parseDecimal('12')?.toString()).toBe('12');
  });
});
