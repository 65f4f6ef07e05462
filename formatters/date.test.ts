import { describe, expect, it } from 'vitest';
import { JDouble, parseJson, type Value } from '../engine/plugin-api.ts';
import { dateFormatters } from './date.ts';
import { bindFormatter, TestPluginContext, type TestFrame } from './util/plugin-test-context.ts';

const date = dateFormatters.find((f) => f.name === 'date')!;

function run(args: string[], value: Value, outer: TestFrame[] = [{ node: {} }], opts: { delimiter?: string; locale?: string } = {}): Value {
  const bound = bindFormatter(date, args, opts.delimiter ?? ' ');
  const ctx = new TestPluginContext([...outer, { node: value }], { locale: opts.locale });
  return date.apply(value, bound, ctx, []);
}

const tokyo: TestFrame[] = [{ node: parseJson('{"website":{"timeZone":"Asia/Tokyo"}}') }];
// 2013-05-12 21:00 EDT
const MAY_12 = 1368406800000;

describe('date', () => {
  it('is registered once and requires arguments', () => {
    expect(dateFormatters.map((f) => f.name)).toEqual(['date']);
    expect(date.requiresArgs).toBe(true);
  });

  it('joins the arguments with the original delimiter', () => {
    expect(run(['%Y', '%m'], MAY_12)).toBe('2013 05');
    expect(run(['%Y', '%m'], MAY_12, undefined, { delimiter: '/' })).toBe('2013/05');
  });

  it('defaults to America/New_York and reads website.timeZone outward from the value', () => {
    expect(run(['%H:%M', '%Z'], MAY_12)).toBe('21:00 EDT');
    expect(run(['%H:%M', '%Z'], MAY_12, tokyo)).toBe('10:00 JST');
  });

  it('prefers a website.timeZone found inside the formatted value (its own frame)', () => {
    const value = parseJson('{"website":{"timeZone":"UTC"}}');
    expect(run(['%Z'], value, tokyo)).toBe('UTC');
  });

  it('treats a null, empty or non-text zone as UTC', () => {
    for (const zone of ['null', '""', '5', '{"id":"Asia/Tokyo"}']) {
      expect(run(['%H', '%Z'], MAY_12, [{ node: parseJson(`{"website":{"timeZone":${zone}}}`) }])).toBe('01 UTC');
    }
  });

  it('takes the integer of the node: strings parsed, floats truncated', () => {
    expect(run(['%s'], String(MAY_12))).toBe('1368406800');
    expect(run(['%s', '%N'], MAY_12 + 0.9)).toBe('1368406800 000000000');
    expect(run(['%s'], new JDouble(MAY_12))).toBe('1368406800');
    expect(run(['%s'], ' 1000 ')).toBe('1');
  });

  it('renders 1970-01-01T00:00Z for missing, null and non-numeric input', () => {
    for (const v of [undefined, null, 'abc', parseJson('{"a":1}'), [1, 2]]) {
      expect(run(['%F', '%T', '%Z'], v, [{ node: parseJson('{"website":{"timeZone":"UTC"}}') }])).toBe('1970-01-01 00:00:00 UTC');
    }
    expect(run(['%F'], true, [{ node: parseJson('{"website":{"timeZone":"UTC"}}') }])).toBe('1970-01-01');
  });

  it('localizes month and weekday names with the execution locale', () => {
    expect(run(['%B', '%d'], MAY_12, undefined, { locale: 'de-DE' })).toBe('Mai 12');
    expect(run(['%Y', '%%', '%d'], MAY_12 + 3 * 86_400_000)).toBe('2013 % 15');
  });

  it('survives extreme inputs without throwing', () => {
    for (const v of [Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 12345678901234567890n, 1e300]) {
      expect(typeof run(['%c'], v)).toBe('string');
    }
  });
});
