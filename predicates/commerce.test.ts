import { describe, expect, it } from 'vitest';
import type { Node, PredicateSpec, Value } from '../engine/plugin-api.ts';
import { commercePredicates } from './commerce.ts';
import { bindPredicate, TestPluginContext } from '../formatters/util/plugin-test-context.ts';

function test(name: string, node: Value, args: string[] = []): boolean {
  const spec = commercePredicates.find((p) => p.name === name) as PredicateSpec<unknown>;
  const bound = bindPredicate(spec, args);
  return spec.test(node, bound, new TestPluginContext([{ node }]));
}

const product = (structuredContent: { [key: string]: Node }): Node => ({ structuredContent });
const BAD_INPUT: Value[] = [undefined, null, 'x', 7, [], {}];

describe('commerce predicates', () => {
  it('registers the four predicates of PLUGINS §5 without required arguments', () => {
    expect(commercePredicates.map((p) => p.name).sort()).toEqual(['has-variants?', 'on-sale?', 'sold-out?', 'varied-prices?']);
    for (const p of commercePredicates) {
      expect(p.requiresArgs, p.name).toBeFalsy();
      expect(() => bindPredicate(p, ['extra']), p.name).not.toThrow();
    }
  });

  it('has-variants? needs two variants on a non-digital product', () => {
    expect(test('has-variants?', product({ productType: 1, variants: [{}, {}] }))).toBe(true);
    expect(test('has-variants?', product({ productType: 3, variants: [{}, {}, {}] }), ['ignored'])).toBe(true);
    expect(test('has-variants?', product({ productType: 2, variants: [{}, {}] }))).toBe(false);
    expect(test('has-variants?', product({ productType: 1, variants: [{}] }))).toBe(false);
    for (const v of BAD_INPUT) expect(test('has-variants?', v)).toBe(false);
  });

  it('on-sale? reads variants, or the digital product', () => {
    expect(test('on-sale?', product({ productType: 1, variants: [{ onSale: false }, { onSale: true }] }))).toBe(true);
    expect(test('on-sale?', product({ productType: 2, onSale: true }))).toBe(true);
    expect(test('on-sale?', product({ productType: 2, onSale: false }))).toBe(false);
    expect(test('on-sale?', product({ productType: 4, variants: [{ onSale: true }] }))).toBe(false);
    for (const v of BAD_INPUT) expect(test('on-sale?', v)).toBe(false);
  });

  it('sold-out? is true without stock, and for UNDEFINED or malformed products', () => {
    expect(test('sold-out?', product({ productType: 1, variants: [{ qtyInStock: 0 }] }))).toBe(true);
    expect(test('sold-out?', product({ productType: 1, variants: [] }))).toBe(true);
    expect(test('sold-out?', product({ productType: 1, variants: [{ qtyInStock: 3 }] }))).toBe(false);
    expect(test('sold-out?', product({ productType: 3, variants: [{ unlimited: true }] }))).toBe(false);
    expect(test('sold-out?', product({ productType: 2 }))).toBe(false);
    for (const v of BAD_INPUT) expect(test('sold-out?', v)).toBe(true);
  });

  it('varied-prices? compares the legacy price fields', () => {
    expect(test('varied-prices?', product({ productType: 1, variants: [{ price: 100 }, { price: 200 }] }))).toBe(true);
    expect(test('varied-prices?', product({ productType: 4, variants: [{ price: 1 }, { price: 1, onSale: true }] }))).toBe(true);
    expect(test('varied-prices?', product({ productType: 3, variants: [{ price: 100 }, { price: 100 }] }))).toBe(false);
    expect(test('varied-prices?', product({ productType: 2, variants: [{ price: 1 }, { price: 2 }] }))).toBe(false);
    for (const v of BAD_INPUT) expect(test('varied-prices?', v)).toBe(false);
  });
});
