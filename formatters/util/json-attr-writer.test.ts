import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JDouble, JSON_PIECE, toJson, type Value } from '../../engine/value.ts';
import { escapeHtmlAttr } from './escape-html.ts';
import { writeJsonAttr, writeJsonAttrPieces } from './json-attr-writer.ts';
import { escapeScriptClose } from './json-text.ts';

// What `json|htmlattr` means: the compact JSON, `</` made `<\/`, then attribute-escaped.
const expected = (v: Value): string => escapeHtmlAttr(escapeScriptClose(toJson(v)));

const text = fc.string({ unit: fc.oneof(fc.constantFrom('\u0000', '\u001f', '\b', '\f', '\n', '\r', '\t', '\ud800', '\udc00', '😀', '—', 'é', '\\', '"', '</', '<', '/', '&', '>', 'a'), fc.string({ maxLength: 1 })) });
const scalar = fc.oneof(text, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.constant(undefined), fc.double().map((x) => new JDouble(x)), fc.bigInt());
const { tree } = fc.letrec((tie) => ({
  tree: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, fc.array(tie('tree'), { maxLength: 5 }), fc.dictionary(text, tie('tree'), { maxKeys: 5 })),
}));

describe('writeJsonAttr', () => {
  it('writes escapeHtmlAttr(escapeScriptClose(toJson(v))) for any tree', () => {
    fc.assert(fc.property(tree as fc.Arbitrary<Value>, (v) => {
      expect(writeJsonAttr(v)).toBe(expected(v));
    }), { numRuns: 2000 });
  });

  it('grows past its first array and starts again small after a large text', () => {
    const big: Value = { list: Array.from({ length: 30_000 }, (_, i) => ({ i, s: i % 3 === 0 ? 'x—y' : '<a href="/">&</a>', d: new JDouble(i) })) };
    expect(writeJsonAttr(big)).toBe(expected(big));
    for (const v of [{ a: 'é' }, { a: '—' }, [1, 2.5, '"'], 'plain', 12, null] as Value[]) expect(writeJsonAttr(v)).toBe(expected(v));
  });

  it('hands a long text back in pieces of JSON_PIECE units, a surrogate pair never split', () => {
    for (const s of ['<a href="/">&</a>', '😀😀😀x', 'é']) {
      const big: Value = { list: Array.from({ length: 6_000 }, (_, i) => ({ i, s: s.repeat(1 + (i % 5)) })) };
      const p = writeJsonAttrPieces(big, true);
      expect(Array.isArray(p)).toBe(true);
      expect((p as string[]).join('')).toBe(expected(big));
      for (const piece of p as string[]) {
        expect(piece.length).toBeLessThanOrEqual(JSON_PIECE + 1);
        expect(/^[\udc00-\udfff]/.test(piece)).toBe(false);
      }
      expect(writeJsonAttrPieces({ s }, true)).toBe(expected({ s }));
    }
  });
});
