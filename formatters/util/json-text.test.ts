import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasParsedText, JDouble, JSON_PIECE, parseJson, PIECE_PART, toJson, toJsonPretty, type Value } from '../../engine/value.ts';
import { escapeScriptClose, escapeScriptCloseInto, prettyJsonPieces, toPrettyJson } from './json-text.ts';

// Random JSON trees with what the writers treat apart: doubles, bigints, missing values,
// control characters, lone surrogates, quotes, `</`.
const text = fc.string({ unit: fc.oneof(fc.constantFrom('\u0000', '\u001f', '\u000b', '\ud800', '\\', '"', '\n', 'u', '</', 'é'), fc.string({ maxLength: 1 })) });
const scalar = fc.oneof(text, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.constant(undefined), fc.double().map((x) => new JDouble(Math.trunc(x))), fc.bigInt());
const { tree } = fc.letrec((tie) => ({
  tree: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, fc.array(tie('tree'), { maxLength: 4 }), fc.dictionary(text, tie('tree'), { maxKeys: 4 })),
}));

describe('json-text', () => {
  // Texts with `</` now and then, long stretches between them or short ones, `<` and `/` alone.
  it('escapeScriptCloseInto pushes escapeScriptClose in pieces, each long stretch between two `</` a piece of its own', () => {
    const part = fc.oneof(fc.constantFrom('</', '<', '/', '<<', '//', 'é—'), fc.nat(3 * PIECE_PART).map((k) => 'x'.repeat(k)));
    fc.assert(fc.property(fc.array(part, { maxLength: 12 }), (parts) => {
      const s = parts.join('');
      const out: string[] = ['before'];
      escapeScriptCloseInto(s, out);
      expect(out[0]).toBe('before');
      expect(out.slice(1).join('')).toBe(escapeScriptClose(s));
      const stretches = s.split('</').map((t, i, all) => (i > 0 ? '/' : '') + t + (i < all.length - 1 ? '<' : ''));
      expect(out.slice(1).filter((t) => t.length >= PIECE_PART && !t.includes('\\'))).toEqual(stretches.filter((t) => t.length >= PIECE_PART));
    }), { numRuns: 500 });
  });

  // engine/value.ts toJsonPretty is the plain recursive form of the same layout.
  it('toPrettyJson writes the layout of toJsonPretty', () => {
    fc.assert(fc.property(tree as fc.Arbitrary<Value>, (v) => {
      expect(toPrettyJson(v)).toBe(toJsonPretty(v));
    }), { numRuns: 1000 });
    expect(toPrettyJson({ a: [1, { b: 2 }], e: {}, f: [] })).toBe('{\n  "a": [ 1, {\n    "b": 2\n  } ],\n  "e": { },\n  "f": [ ]\n}');
  });

  // Small trees of objects alone, which JSON.stringify(v, null, 2) may write: every kind of
  // leaf, empty objects, inherited names.
  it('toPrettyJson of small objects writes the layout of toJsonPretty', () => {
    const { obj } = fc.letrec((tie) => ({
      obj: fc.dictionary(text, fc.oneof({ depthSize: 'small' }, scalar, fc.constantFrom(1e-3, 9.99e-4, 1e7, 9999999.5, -0, 2.5, NaN, Infinity, -Infinity), tie('obj')), { maxKeys: 5 }),
    }));
    fc.assert(fc.property(obj as fc.Arbitrary<Value>, (v) => {
      expect(toPrettyJson(v)).toBe(toJsonPretty(v));
      expect(toPrettyJson(v, true)).toBe(escapeScriptClose(toJsonPretty(v)));
    }), { numRuns: 2000 });
    Object.defineProperty(Object.prototype, 'inherited', { value: 1, enumerable: true, writable: true, configurable: true });
    try {
      expect(toPrettyJson({ a: {} })).toBe('{\n  "a": { }\n}');
    } finally {
      delete (Object.prototype as Record<string, unknown>).inherited;
    }
  });

  // Texts that take each path of the byte layout: one-byte, UTF-8 (wide characters and
  // surrogate pairs), lone surrogates (laid out as a string), and outputs past the scratch size.
  it('toPrettyJson lays out every kind of text, script-safe or not', () => {
    const wide = fc.string({ unit: fc.constantFrom('a', '—', '😀', '\ud800', '\udc00', '</', '"', '\\', 'é', '{', '[', ',', ':') });
    const { big } = fc.letrec((tie) => ({
      big: fc.oneof({ depthSize: 'small' }, wide, fc.integer(), fc.array(tie('big'), { maxLength: 6 }), fc.dictionary(wide, tie('big'), { maxKeys: 6 })),
    }));
    fc.assert(fc.property(big as fc.Arbitrary<Value>, (v) => {
      expect(toPrettyJson(v)).toBe(toJsonPretty(v));
      expect(toPrettyJson(v, true)).toBe(escapeScriptClose(toJsonPretty(v)));
    }), { numRuns: 1000 });
    const deep = (d: number): Value => (d === 0 ? { k: 'v' } : ({ a: [deep(d - 1), deep(d - 1)], b: 'x—y' } as Value));
    for (const v of [deep(12), { list: Array.from({ length: 20_000 }, (_, i) => ({ i, s: 'é'.repeat(i % 7) })) }]) {
      expect(toPrettyJson(v)).toBe(toJsonPretty(v));
    }
  });

  // A string's first units are copied as they are scanned, the rest of a longer one found
  // with indexOf: escapes (a quote, a backslash, a surrogate pair) at and around that edge.
  it('toPrettyJson copies strings of every length around the scan edge', () => {
    const unit = fc.constantFrom('a', 'a', 'a', '"', '\\', '\n', '—', '😀', '\u0001');
    const long = fc.string({ unit, minLength: 20, maxLength: 90 });
    fc.assert(fc.property(fc.array(long, { minLength: 1, maxLength: 30 }), fc.boolean(), (texts, inObject) => {
      const v: Value = inObject ? Object.fromEntries(texts.map((t, i) => [t + i, [t, { t }]])) : texts.map((t) => [t, { [t]: t }]);
      expect(toPrettyJson(v)).toBe(toJsonPretty(v));
    }), { numRuns: 500 });
    for (let n = 28; n <= 36; n++) {
      for (const tail of ['\\', '\\"', '"', '😀']) {
        const t = 'x'.repeat(n - tail.length) + tail + 'y';
        const v: Value = { a: Array.from({ length: 30 }, () => t), [t]: t };
        expect(toPrettyJson(v), `${n} ${tail}`).toBe(toJsonPretty(v));
      }
    }
  });

  // Small trees and large ones, with arrays (written from the tree) or of objects alone (which
  // JSON.stringify lays out when small).
  it('toPrettyJson writes small trees and large ones alike', () => {
    const nested = (n: number): Value => Array.from({ length: n }, (_, i) => (i % 3 === 0 ? { k: i, s: '</x"é' } : i % 3 === 1 ? [i, new JDouble(i)] : 'v' + i));
    for (const n of [0, 1, 5, 8, 9, 20, 40, 200]) {
      for (const v of [nested(n), { a: nested(n), b: {}, c: [] }]) {
        expect(toPrettyJson(v), `${n}`).toBe(toJsonPretty(v));
        expect(toPrettyJson(v, true), `${n}`).toBe(escapeScriptClose(toJsonPretty(v)));
      }
    }
  });

  it('prettyJsonPieces hands a long text back in pieces, a surrogate pair never split', () => {
    for (const s of ['</a>"x', '😀😀😀—', 'é']) {
      const big: Value = { list: Array.from({ length: 4_000 }, (_, i) => ({ i, s: s.repeat(1 + (i % 5)), d: new JDouble(i) })), e: {} };
      const p = prettyJsonPieces(big, true);
      expect(Array.isArray(p)).toBe(true);
      expect((p as string[]).join('')).toBe(escapeScriptClose(toJsonPretty(big)));
      for (const piece of p as string[]) {
        expect(piece.length).toBeLessThanOrEqual(JSON_PIECE + 1);
        expect(/^[\udc00-\udfff]/.test(piece)).toBe(false);
      }
      expect(prettyJsonPieces({ s }, false)).toBe(toJsonPretty({ s }));
    }
  });

  // Long trees: the compact text comes in pieces (`toJsonPieces`), some ending with `[`, with
  // empty containers at a piece's edge and arrays in objects in arrays.
  it('prettyJsonPieces lays out long trees as toJsonPretty does', () => {
    fc.assert(fc.property(tree as fc.Arbitrary<Value>, fc.integer({ min: 1, max: 40 }), fc.integer({ min: 0, max: 3000 }), (v, copies, fill) => {
      const long = 'x'.repeat(fill);
      const big = {
        head: long.repeat(12),
        a: Array.from({ length: copies }, (_, i) => ({ i, v, e: {}, f: [], s: long, n: [[], [{}], [v, { w: [long] }]] })),
        b: { c: [long.repeat(8), { d: [] }, [long.repeat(8)]], e: {} },
      } as Value;
      for (const x of [big, [big, {}, [], big] as Value]) {
        const p = prettyJsonPieces(x, true);
        expect(typeof p === 'string' ? p : p.join('')).toBe(escapeScriptClose(toJsonPretty(x)));
      }
    }), { numRuns: 150 });
  });

  // A container parseJson kept the text of is laid out from that text (`layOutUnits`); any
  // other tree is written from the tree (json-pretty-writer.ts, tested there too).
  it('lays out the text parseJson kept as toJsonPretty does', () => {
    const unit = fc.constantFrom('a', 'a', 'a', '"', '\\', '\n', '\t', '—', '😀', '\ud800', '</', '{', '[', ',', ':', 'é');
    const str = fc.string({ unit, maxLength: 90 });
    const { node } = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, str, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(true, null, 1e21, 12345678.5),
        fc.array(tie('node'), { maxLength: 5 }), fc.dictionary(str, tie('node'), { maxKeys: 5 })),
    }));
    // Padded past the size parseJson keeps the text of.
    const parsed = (v: Value): Value => parseJson('{"pad":"' + 'p'.repeat(9000) + '","v":' + toJson(v) + ',"e":{},"f":[]}');
    // Most such texts are kept (a Java double, `1.0E21`, is kept for its text alone).
    let laidOut = 0;
    fc.assert(fc.property(node as fc.Arbitrary<Value>, fc.boolean(), (v, safe) => {
      const x = parsed(v);
      if (hasParsedText(x)) laidOut++;
      expect(toPrettyJson(x, safe)).toBe(safe ? escapeScriptClose(toJsonPretty(x)) : toJsonPretty(x));
      const p = prettyJsonPieces(x, safe);
      expect(typeof p === 'string' ? p : p.join('')).toBe(safe ? escapeScriptClose(toJsonPretty(x)) : toJsonPretty(x));
    }), { numRuns: 300 });
    expect(laidOut).toBeGreaterThan(150);
    for (let n = 28; n <= 36; n++) {
      for (const tail of ['\\', '\\"', '"', '😀']) {
        const t = 'x'.repeat(n - tail.length) + tail + 'y';
        const x = parsed({ a: Array.from({ length: 30 }, () => t), [t]: t, list: Array.from({ length: 3000 }, (_, i) => ({ i, t })) });
        expect(hasParsedText(x)).toBe(true);
        expect(toPrettyJson(x), `${n} ${tail}`).toBe(toJsonPretty(x));
        const p = prettyJsonPieces(x, true);
        expect(Array.isArray(p)).toBe(true);
        expect((p as string[]).join('')).toBe(escapeScriptClose(toJsonPretty(x)));
      }
    }
  });

  it('escapeScriptClose escapes every </', () => {
    expect(escapeScriptClose('a</b></c<</')).toBe('a<\\/b><\\/c<<\\/');
    expect(escapeScriptClose('none')).toBe('none');
  });
});
