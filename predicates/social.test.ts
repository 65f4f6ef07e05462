import { describe, expect, it } from 'vitest';
import type { Value } from '../engine/plugin-api.ts';
import { bindPredicate, TestPluginContext, type TestFrame } from '../formatters/util/plugin-test-context.ts';
import { socialPredicates } from './social.ts';

function is(name: string, node: Value, outer: TestFrame[] = []): boolean {
  const p = socialPredicates.find((s) => s.name === name);
  if (!p) throw new Error(`no predicate ${name}`);
  return p.test(node, bindPredicate(p, []), new TestPluginContext([...outer, { node }]));
}

describe('comments?', () => {
  it('is on for comment state 1 or a positive public count', () => {
    expect(is('comments?', { commentState: 1 })).toBe(true);
    expect(is('comments?', { commentState: 2, publicCommentCount: 3 })).toBe(true);
    expect(is('comments?', { commentState: '1' })).toBe(true);
    expect(is('comments?', { commentState: 2, publicCommentCount: 0 })).toBe(false);
  });
  it('is switched off by site settings without commentsEnabled', () => {
    const on = { commentState: 1 };
    expect(is('comments?', on, [{ node: { websiteSettings: { commentsEnabled: true } } }])).toBe(true);
    expect(is('comments?', on, [{ node: { websiteSettings: { commentsEnabled: false } } }])).toBe(false);
    expect(is('comments?', on, [{ node: { websiteSettings: {} } }])).toBe(false);
    expect(is('comments?', { ...on, websiteSettings: null })).toBe(false);
  });
  it('is false for missing or wrong-typed nodes', () => {
    for (const node of [undefined, null, 'x', [1], 5]) expect(is('comments?', node)).toBe(false);
  });
});

describe('disqus?', () => {
  it('reads websiteSettings.disqusShortName (capital N) outward', () => {
    expect(is('disqus?', {}, [{ node: { websiteSettings: { disqusShortName: 'abc' } } }])).toBe(true);
    expect(is('disqus?', { websiteSettings: { disqusShortname: 'abc' } })).toBe(false);
    expect(is('disqus?', { websiteSettings: { disqusShortName: '' } })).toBe(false);
  });
  it('is false for missing or wrong-typed nodes', () => {
    for (const node of [undefined, null, 'x', [1], 5]) expect(is('disqus?', node)).toBe(false);
  });
});
