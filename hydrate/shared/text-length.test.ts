import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countedLength, exceedsMaxLength } from './text-length.ts';

describe('the character-limit rule (site forms, client and server)', () => {
  it.each([
    ['', 0],
    ['hello', 5],
    ['  hello \n', 5],
    ['👍', 1],
    ['👍👍👍', 3],
    ['josé', 4],
    ['日本語', 3],
    ['a\u{1F600}b', 3],
    ['\ud800', 1],
  ])('%j counts %i', (text, length) => {
    expect(countedLength(text)).toBe(length);
  });

  it('a limit of 3 takes three emoji and refuses a fourth; surrounding spaces never count', () => {
    expect(exceedsMaxLength('😀😀😀', 3)).toBe(false);
    expect(exceedsMaxLength('😀😀😀😀', 3)).toBe(true);
    expect(exceedsMaxLength('  abc  \n', 3)).toBe(false);
    expect(exceedsMaxLength('abcd', 3)).toBe(true);
  });

  it('counts code points: never more than UTF-16 units, equal for text within the BMP', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        const trimmed = text.trim();
        expect(countedLength(text)).toBe(Array.from(trimmed).length);
        expect(countedLength(text)).toBeLessThanOrEqual(trimmed.length);
      }),
    );
    fc.assert(fc.property(fc.string({ unit: 'binary-ascii' }), (text) => {
        expect(countedLength(text)).toBe(text.trim().length);
      }),
    );
  });
});
