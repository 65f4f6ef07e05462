import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JDouble, toJsonPretty, type Value } from '../../engine/value.ts';
import { escapeScriptClose, toPrettyJson } from './json-text.ts';

// Random JSON trees with what the writers treat apart: doubles, bigints, missing values,
// control characters, lone surrogates, quotes, `</`.
const text = fc.string({ unit: fc.oneof(fc.constantFrom('\u0000', '\u001f', '\u000b', '\ud800', '\\', '"', '\n', 'u', '</', 'é'), fc.string({ maxLength: 1 })) });
const scalar = fc.oneof(text, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.constant(undefined), fc.double().map((x) => new JDouble(Math.trunc(x))), fc.bigInt());
const { tree } = fc.letrec((tie) => ({
  tree: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, fc.array(tie('tree'), { maxLength: 4 }), fc.dictionary(text, tie('tree'), { maxKeys: 4 })),
}));

describe('json-text', () => {
  // engine/value.ts toJsonPretty is the plain recursive form of the same layout.
  it('toPrettyJson writes the layout of toJsonPretty', () => {
    fc.assert(fc.property(tree as fc.Arbitrary<Value>, (v) => {
      expect(toPrettyJson(v)).toBe(toJsonPretty(v));
    }), { numRuns: 1000 });
    expect(toPrettyJson({ a: [1, { b: 2 }], e: {}, f: [] })).toBe('{\n  "a": [ 1, {\n    "b": 2\n  } ],\n  "e": { },\n  "f": [ ]\n}');
  });

  it('escapeScriptClose escapes every </', () => {
    expect(escapeScriptClose('a</b></c<</')).toBe('a<\\/b><\\/c<<\\/');
    expect(escapeScriptClose('none')).toBe('none');
  });
});
