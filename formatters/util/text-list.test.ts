import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { listEnd, listStart, listText } from './text-list.ts';

describe('a text written as Latin-1 bytes', () => {
  it('decodes to the texts written', () => {
    const char = fc.constantFrom('a', ' ', '"', '-', 'é', 'ÿ', '\u0000', '\u0080');
    fc.assert(
      fc.property(fc.array(fc.array(char, { maxLength: 30 }).map((cs) => cs.join('')), { maxLength: 12 }), (texts) => {
        listStart();
        for (const t of texts) listText(t);
        expect(listEnd()).toBe(texts.join(''));
      }),
      { numRuns: 2000 },
    );
  });

  it('grows for a long text and lets the large array go', () => {
    listStart();
    for (let i = 0; i < 20000; i++) listText('ab-c');
    expect(listEnd()).toBe('ab-c'.repeat(20000));
    listStart();
    listText('x');
    expect(listEnd()).toBe('x');
    // One text longer than twice the array.
    listStart();
    listText('é'.repeat(5000));
    expect(listEnd()).toBe('é'.repeat(5000));
  });

  it('refuses a character beyond Latin-1 rather than write its low byte', () => {
    listStart();
    listText('a');
    // U+2014 would be written as 0x14, U+0161 as 0x61 ('a').
    expect(() => listText('—')).toThrow(RangeError);
    expect(() => listText('\u0161')).toThrow(RangeError);
    listStart();
    listText('b');
    expect(listEnd()).toBe('b');
  });
});
