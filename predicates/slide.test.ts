import { describe, expect, it } from 'vitest';
import { JavaError } from '../engine/plugin-api.ts';
import type { Value } from '../engine/plugin-api.ts';
import { bindPredicate, TestPluginContext } from '../formatters/util/plugin-test-context.ts';
import { slidePredicates } from './slide.ts';

const currentType = slidePredicates[0];

function is(node: Value, args: string[]): boolean {
  return currentType.test(node, bindPredicate(currentType, args), new TestPluginContext([{ node }]));
}

describe('current-type?', () => {
  it('compares currentType with the code of the named slice type', () => {
    expect(currentType.name).toBe('current-type?');
    expect(is({ currentType: 5 }, ['gallery'])).toBe(true);
    expect(is({ currentType: 4 }, ['gallery'])).toBe(false);
    expect(is({ currentType: 19 }, ['twitter'])).toBe(true);
    expect(is({ currentType: '10' }, ['custom-form'])).toBe(true);
  });
  it('maps an unknown name to UNDEFINED (−1)', () => {
    expect(is({ currentType: -1 }, ['carousel'])).toBe(true);
    expect(is({ currentType: 5 }, ['carousel'])).toBe(false);
  });
  it('treats missing and wrong-typed nodes as type 0', () => {
    for (const node of [undefined, null, 'x', [1], {}]) expect(is(node, ['gallery'])).toBe(false);
  });
  it('fails at render time without an argument', () => {
    expect(currentType.requiresArgs).toBeFalsy();
    expect(() => is({ currentType: -1 }, [])).toThrow(JavaError);
  });
});
