import { describe, expect, it } from 'vitest';
import { JSON_PIECE, JSON_WHOLE } from '../../engine/plugin-api.ts';
import { decodeUnitPieces, decodeUnits } from './unit-text.ts';

/** The UTF-16 units of `s` (not its code points, which iterating a string gives). */
const unitsOf = (s: string): Uint16Array => Uint16Array.from({ length: s.length }, (_, i) => s.charCodeAt(i));

describe('unit-text', () => {
  it('decodes a range of bytes or UTF-16 units, from a view at any offset', () => {
    const bytes = Uint8Array.from('xxabcé', (c) => c.charCodeAt(0));
    expect(decodeUnits(bytes.subarray(2), 0, 4, false)).toBe('abcé');
    expect(decodeUnits(unitsOf('a—😀b'), 1, 4, true)).toBe('—😀');
  });

  it('hands a long text back in pieces that join to it, no surrogate pair split', () => {
    const short = 'a'.repeat(JSON_WHOLE);
    expect(decodeUnitPieces(unitsOf(short), short.length, true)).toBe(short);
    // A pair straddles the first cut.
    const long = 'a'.repeat(JSON_PIECE - 1) + '😀'.repeat(JSON_PIECE);
    const pieces = decodeUnitPieces(unitsOf(long), long.length, true) as string[];
    expect(Array.isArray(pieces) && pieces.length > 1).toBe(true);
    expect(pieces.join('') === long).toBe(true);
    for (const p of pieces) expect(p.length <= JSON_PIECE + 1 && !/[\ud800-\udbff]$/.test(p)).toBe(true);
  });
});
