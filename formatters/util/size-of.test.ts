import { describe, expect, it } from 'vitest';
import { JDouble } from '../../engine/plugin-api.ts';
import { TestPluginContext } from './plugin-test-context.ts';
import { sizeOf } from './size-of.ts';

describe('sizeOf', () => {
  it('is an array length or an object member count, 0 for anything else, and charges an object its members', () => {
    const size = (v: unknown) => {
      const ctx = new TestPluginContext([]);
      return [sizeOf(v as never, ctx), ctx.worked];
    };
    expect(size([1, 2, 3])).toEqual([3, 0]);
    expect(size({ a: 1, b: 2 })).toEqual([2, 128]);
    expect(size({})).toEqual([0, 0]);
    for (const v of ['abc', 7, new JDouble(2), null, undefined, true]) expect(size(v)).toEqual([0, 0]);
  });
});
