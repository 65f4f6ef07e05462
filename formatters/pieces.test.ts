// `pieces` gives a formatter's text in pieces where the engine appends it to the output
// (engine/compile.ts, `piecesVariable`). The claim that joined they are `apply`'s text is checked
// here for every formatter that makes it, fused forms included, on small values and long ones.
import { describe, expect, it } from 'vitest';
import { JDouble, JSON_WHOLE, parseJson, type FormatterSpec, type Node, type Value } from '../engine/plugin-api.ts';
import { defaultFormatters } from './index.ts';
import { TestPluginContext } from './util/plugin-test-context.ts';

const SMALL: Value[] = [undefined, null, true, 0, 3.5, new JDouble(2), '', 'a </b> "c" &', 'ï—😀', [], [1, 'x', { id: 'k' }], {}, { a: { b: 1 } }];
const item = (i: number): Node => ({ id: 'p' + i, title: i % 50 === 0 ? 'Jar — </script> "x" 😀' : 'Jar ' + i, price: new JDouble(i), tags: ['a', 'b'], body: '<p>' + 'x'.repeat(200 + (i % 90)) + '</p>' });
const BUILT: Node[] = [
  { items: Array.from({ length: 2000 }, (_, i) => item(i)) },
  Array.from({ length: 3000 }, (_, i) => (i % 2 ? item(i) : 'é'.repeat(i % 40))),
  { deep: { deeper: { list: Array.from({ length: 2500 }, (_, i) => [i, item(i)]) } }, n: 1 },
];
// The same read with parseJson, whose text `json` and `raw` slice (engine/value.ts, `parsedPlain`).
const LONG: Value[] = [...BUILT, ...BUILT.map((v) => parseJson(JSON.stringify(v)))];

const joined = (p: string | readonly string[]): string => (typeof p === 'string' ? p : p.join(''));

describe('formatters that write in pieces', () => {
  const withPieces = defaultFormatters.filter((f) => f.pieces !== undefined);
  const fused: FormatterSpec[] = [];
  for (const f of defaultFormatters) {
    for (const next of defaultFormatters) {
      const g = f.fuse?.(next);
      if (g !== undefined && g.pieces !== undefined && !fused.includes(g)) fused.push(g);
    }
  }

  it('are the ones expected', () => {
    expect(withPieces.map((f) => f.name).sort()).toEqual(['apply', 'json', 'json-pretty', 'raw']);
    expect(fused.map((f) => f.name)).toEqual(['json|htmlattr']);
  });

  // `apply`'s pieces are the engine's chunked capture of a partial (engine/limits.test.ts).
  for (const f of [...withPieces, ...fused].filter((g) => g.name !== 'apply')) {
    it(`${f.name}: the pieces joined are apply's text, and a long text comes in pieces`, () => {
      const ctx = new TestPluginContext([]);
      for (const v of [...SMALL, ...LONG]) {
        const text = f.apply(v, undefined, ctx, []) as string;
        const p = f.pieces!(v, undefined, ctx, []);
        expect(joined(p) === text, f.name).toBe(true);
        if (text.length > 2 * JSON_WHOLE) expect(Array.isArray(p), f.name).toBe(true);
        if (text.length <= JSON_WHOLE / 2) expect(typeof p, f.name).toBe('string');
      }
    });
  }
});
