import { describe, expect, it } from 'vitest';
import { parseJson, type Value } from '../engine/plugin-api.ts';
import { bindPredicate, TestPluginContext } from '../formatters/util/plugin-test-context.ts';
import { i18nPredicates } from './i18n.ts';

const unitsMetric = i18nPredicates.find((p) => p.name === 'units-metric?')!;

function check(args: string[], node: Value): boolean {
  const bound = bindPredicate(unitsMetric, args);
  return unitsMetric.test(node, bound, new TestPluginContext([{ node }]));
}

describe('units-metric?', () => {
  it('is the only i18n predicate and takes optional arguments', () => {
    expect(i18nPredicates.map((p) => p.name)).toEqual(['units-metric?']);
    expect(unitsMetric.requiresArgs).toBeFalsy();
  });
  it('is always true, whatever the node and arguments (reference behaviour)', () => {
    for (const node of [undefined, null, 0, '', 'imperial', parseJson('{"units":"imperial"}'), []]) {
      expect(check([], node)).toBe(true);
      expect(check(['a', 'b', 'c'], node)).toBe(true);
    }
  });
});
