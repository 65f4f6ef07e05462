// `pure: true` lets the engine call a formatter without a frame for its value and without
// handing it the output (engine/compile.ts). The claim is checked here for every formatter
// that makes it: applied to values of every kind with a context that refuses every use but
// `work`, which charges the render's budget and reads nothing (`count` of an object).
import { describe, expect, it } from 'vitest';
import { JDouble, type PluginContext, type Value } from '../engine/plugin-api.ts';
import { defaultFormatters } from './index.ts';
import { bindFormatter } from './util/plugin-test-context.ts';

class ContextUsed extends Error {}

const REFUSING = new Proxy({} as PluginContext, {
  get(_target, key) {
    if (key === 'work') return () => undefined;
    throw new ContextUsed(`the context's ${String(key)} was read`);
  },
});

/** Arguments for the formatters that need some, and a second form for those that take options. */
const ARGS: Record<string, string[][]> = {
  cycle: [['a', 'b', 'c']],
  'key-by': [['id']],
  mod: [[], ['3'], ['0']],
  truncate: [[], ['4', '…']],
  prop: [[], ['a.b'], ['a', '0']],
  output: [[], ['x', 'y']],
  pluralize: [[], ['one', 'many']],
  'percentage-format': [[], ['trim']],
  'i18n-money-format': [[], ['de-DE']],
  datetimefield: [['year']],
  resizedHeightForWidth: [['750']],
  resizedWidthForHeight: [['300']],
  squarespaceThumbnailForHeight: [['200']],
  squarespaceThumbnailForWidth: [['1200']],
};

const VALUES: Value[] = [
  undefined, null, true, 0, -2, 3.5, 1e21, new JDouble(2), '', 'a b <c> "d" \'e\' --', 'ï—😀', '1500x1000', 'x20xx30x',
  [], [1, 'x', { id: 'k' }], {}, { a: { b: 1 }, id: 'q' },
];

describe('pure formatters', () => {
  const pure = defaultFormatters.filter((f) => f.pure === true);
  it('are the ones expected (a formatter that turns pure is added here on purpose)', () => {
    expect(pure.map((f) => f.name).sort()).toEqual([
      'bookkeeper-money-format', 'cart-quantity', 'cart-subtotal', 'cart-url', 'from-price', 'money-format', 'moneyFormat',
      'money-string', 'normal-price', 'sale-price', 'variant-descriptor',
      'capitalize', 'count', 'cycle', 'datetimefield', 'encode-uri', 'encode-uri-component', 'encode-space', 'height', 'html',
      'htmlattr', 'htmltag', 'i18n-money-format', 'json', 'json-pretty', 'key-by', 'line-breaks', 'mod', 'output',
      'percentage-format', 'pluralize', 'prop', 'raw', 'resizedHeightForWidth', 'resizedWidthForHeight', 'round', 'safe',
      'slugify', 'smartypants', 'squarespaceThumbnailForHeight', 'squarespaceThumbnailForWidth', 'str', 'truncate',
      'unit', 'url-encode', 'width',
    ].sort());
  });
  for (const f of pure) {
    it(`${f.name} reads nothing from its context`, () => {
      for (const args of ARGS[f.name] ?? [[]]) {
        const bound = bindFormatter(f, args);
        for (const v of VALUES) {
          try {
            f.apply(v, bound, REFUSING, []);
          } catch (e) {
            // A Java error of the formatter's own (`mod` by zero) is its answer; reading the context is not.
            expect(e).not.toBeInstanceOf(ContextUsed);
          }
        }
      }
    });
  }
});
