import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseNodePath, walkNodePath } from './node-path.ts';

describe('parseNodePath', () => {
  it('splits at every dot, empty segments included, each with its index form', () => {
    expect(parseNodePath('a.0.b')).toEqual([{ name: 'a', index: -1 }, { name: '0', index: 0 }, { name: 'b', index: -1 }]);
    expect(parseNodePath('')).toEqual([{ name: '', index: -1 }]);
    expect(parseNodePath('.x.')).toEqual([{ name: '', index: -1 }, { name: 'x', index: -1 }, { name: '', index: -1 }]);
    expect(parseNodePath('2147483647.2147483648.007')).toEqual([
      { name: '2147483647', index: 2147483647 },
      { name: '2147483648', index: -1 },
      { name: '007', index: 7 },
    ]);
  });

  it('is `split(".")` of the text, segment for segment', () => {
    const text = fc.string({ unit: fc.constantFrom('.', 'a', 'B', '0', '9', '-', 'é'), maxLength: 16 });
    fc.assert(
      fc.property(text, (t) => {
        expect(parseNodePath(t).map((s) => s.name)).toEqual(t.split('.'));
      }),
      { numRuns: 500 },
    );
  });

  it('walks members and indexes', () => {
    const v = { a: [{ b: 1 }, { b: 2 }], '0': 'zero' };
    expect(walkNodePath(v, parseNodePath('a.1.b'))).toBe(2);
    expect(walkNodePath(v, parseNodePath('0'))).toBe('zero');
    expect(walkNodePath(v, parseNodePath('a.2.b'))).toBeUndefined();
  });
});
