import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JDouble, JSON_PIECE, JSON_WHOLE, toJsonPretty, type Value } from '../../engine/value.ts';
import { writePrettyJson } from './json-pretty-writer.ts';
import { escapeScriptClose } from './json-text.ts';

// What `json-pretty` prints: the reference's layout, and in a page `</` made `<\/`.
const expected = (v: Value, safe: boolean): string => (safe ? escapeScriptClose(toJsonPretty(v)) : toJsonPretty(v));
const whole = (p: string | string[]): string => (typeof p === 'string' ? p : p.join(''));

/** A text cut into pieces of JSON_PIECE units, a piece one longer where it would end on a high surrogate. */
function cut(s: string): string[] {
  const out: string[] = [];
  for (let start = 0; start < s.length; ) {
    let end = Math.min(start + JSON_PIECE, s.length);
    const c = s.charCodeAt(end - 1);
    if (end < s.length && c >= 0xd800 && c <= 0xdbff) end++;
    out.push(s.slice(start, end));
    start = end;
  }
  return out;
}

const text = fc.string({ unit: fc.oneof(fc.constantFrom('\u0000', '\u001f', '\b', '\f', '\n', '\r', '\t', '\ud800', '\udc00', '😀', '—', 'é', '\\', '"', '</', '<', '/', 'a'), fc.string({ maxLength: 1 })) });
const number = fc.oneof(fc.integer(), fc.integer({ min: -(2 ** 31) - 2, max: -(2 ** 31) + 2 }), fc.maxSafeInteger(), fc.double(), fc.constantFrom(-0, 2 ** 31, -(2 ** 31), 1e21, 1e-7, 12345678.5));
const scalar = fc.oneof(text, number, fc.boolean(), fc.constant(null), fc.constant(undefined), fc.double().map((x) => new JDouble(x)), fc.bigInt());
const { tree } = fc.letrec((tie) => ({
  tree: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, fc.array(tie('tree'), { maxLength: 5 }), fc.dictionary(text, tie('tree'), { maxKeys: 5 })),
}));

describe('writePrettyJson', () => {
  it('writes toJsonPretty(v), script-safe or not, for any tree', () => {
    fc.assert(fc.property(tree as fc.Arbitrary<Value>, fc.boolean(), (v, safe) => {
      expect(writePrettyJson(v, safe, false)).toBe(expected(v, safe));
      expect(whole(writePrettyJson(v, safe, true))).toBe(expected(v, safe));
    }), { numRuns: 2000 });
  });

  it('writes the layout of nested and empty containers, and integers at the edges of 32 bits', () => {
    const v: Value = { a: [1, { b: [2, [], {}], c: {} }, [[{ d: -2147483648 }]]], e: {}, f: [], g: [-0, 2147483647, -2147483647, 2 ** 31, 10, 100, 9, -10] };
    expect(writePrettyJson(v, true, false)).toBe(expected(v, true));
    expect(writePrettyJson(v, true, false)).toBe(
      '{\n  "a": [ 1, {\n    "b": [ 2, [ ], { } ],\n    "c": { }\n  }, [ [ {\n    "d": -2147483648\n  } ] ] ],\n' +
        '  "e": { },\n  "f": [ ],\n  "g": [ 0, 2147483647, -2147483647, 2147483648, 10, 100, 9, -10 ]\n}',
    );
    for (const x of [[] as Value, {} as Value, 'plain', 12, null, undefined]) expect(writePrettyJson(x, true, false)).toBe(expected(x, true));
  });

  it('starts afresh after a call that threw midway, pieces already decoded', () => {
    let deep: Value = [];
    for (let i = 0; i < 200_000; i++) deep = [deep];
    // 300,000 units in strings of 100: the array grows, and decodes, on the way to `deep`.
    expect(() => writePrettyJson([...Array.from({ length: 3000 }, () => 'y'.repeat(100)), deep], true, true)).toThrow(RangeError);
    const v: Value = { a: [1, 'é'] };
    expect(writePrettyJson(v, true, true)).toBe(expected(v, true));
  });

  it('lists own names only, as toJsonPretty does, when Object.prototype has an enumerable one', () => {
    Object.defineProperty(Object.prototype, 'inherited', { value: 1, enumerable: true, writable: true, configurable: true });
    try {
      const v: Value = { a: { b: 1 }, c: [{ d: 2 }] };
      expect(writePrettyJson(v, true, false)).toBe(expected(v, true));
    } finally {
      delete (Object.prototype as Record<string, unknown>).inherited;
    }
  });

  // Past FLUSH_AT units a text wanted in pieces is decoded as it is written: the same pieces
  // as the text cut once, a surrogate pair never split, one-byte pieces before the first wide
  // character and after it.
  it('hands a long text back in pieces of JSON_PIECE units, cut as decodeUnitPieces cuts', () => {
    for (const s of ['</a>"x', '😀😀😀—', 'é', 'plain']) {
      const big: Value = { list: Array.from({ length: 6_000 }, (_, i) => ({ i, s: s.repeat(1 + (i % 5)), d: new JDouble(i) })), tail: '😀'.repeat(JSON_PIECE) };
      const p = writePrettyJson(big, true, true);
      expect(Array.isArray(p)).toBe(true);
      expect(p).toEqual(cut(expected(big, true)));
      // Wanted whole, the same text as one string.
      expect(writePrettyJson(big, true, false)).toBe(expected(big, true));
    }
    // Under JSON_WHOLE, one string even when pieces are wanted.
    const small: Value = { s: 'x'.repeat(JSON_WHOLE - 20) };
    expect(writePrettyJson(small, true, true)).toBe(expected(small, true));
  });

  it('starts again small after a large text, and a string longer than its array still fits', () => {
    const big: Value = { list: Array.from({ length: 40_000 }, (_, i) => ({ i, s: 'x—y' })) };
    expect(whole(writePrettyJson(big, false, true))).toBe(expected(big, false));
    const long: Value = ['—'.repeat(300_000), { k: '"'.repeat(200_000) }];
    expect(whole(writePrettyJson(long, true, true))).toBe(expected(long, true));
    for (const v of [{ a: 'é' }, { a: '—' }, [1, 2.5, '"'], 'plain'] as Value[]) expect(writePrettyJson(v, true, false)).toBe(expected(v, true));
  });

  // Strings of escapes past the array kept between calls (100,000 escapes of six units), a
  // wide character before or after them, whole or in pieces.
  it('writes strings of many escapes, a wide character before them', () => {
    for (const esc of ['\u0001', '"', '</', '\n']) {
      for (const v of ['—' + esc.repeat(100_000) + 'é', 'é' + esc.repeat(100_000), [esc.repeat(70), '—'.repeat(3) + esc.repeat(200)]] as Value[]) {
        expect(whole(writePrettyJson(v, true, true))).toBe(expected(v, true));
        expect(writePrettyJson(v, false, false)).toBe(expected(v, false));
      }
    }
  });
});
