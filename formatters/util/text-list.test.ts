import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { listEnd, listStart, listText } from './text-list.ts';

describe('a text written as code units', () => {
  it('decodes to the texts written, one byte a character or two', () => {
    const char = fc.constantFrom('a', ' ', '"', 'é', 'ÿ', 'ő', '—', '😀', '\ud800', '\udc00');
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
});
