import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { JavaError, JDouble, parseJson, type FormatterSpec, type Value } from '../engine/plugin-api.ts';
import { i18nFormatters } from './i18n.ts';
import { cldrFor } from './util/cldr.ts';
import { messageFormatterFor } from './util/i18n-message.ts';
import { relativeTimeOptions } from './util/cldr-values.ts';
import { argsErrorOf, bindFormatter, TestPluginContext, type TestFrame } from './util/plugin-test-context.ts';

const byName = new Map(i18nFormatters.map((f) => [f.name, f]));

function spec(name: string): FormatterSpec<any> {
  const f = byName.get(name);
  if (!f) throw new Error(`no formatter ${name}`);
  return f;
}

interface RunOptions {
  outer?: TestFrame[];
  others?: Value[];
  locale?: string;
  now?: number;
}

/** Runs `name args` as an output instruction: the value is pushed above `outer`. */
function run(name: string, args: string, value: Value, opts: RunOptions = {}): Value {
  const f = spec(name);
  const bound = bindFormatter(f, args.split(' ').filter((a) => a.length > 0));
  const ctx = new TestPluginContext([...(opts.outer ?? [{ node: {} }]), { node: value }], { locale: opts.locale ?? 'en-US', now: opts.now });
  return f.apply(value, bound, ctx, opts.others ?? []);
}

const j = (text: string): Value => parseJson(text);
const zone = (id: string): TestFrame[] => [{ node: { website: { timeZone: id } } }];

// CLDR spacing characters the spec prints as plain spaces (PLUGINS §11).
const NNBSP = '\u202f';
const THIN = '\u2009';
const NBSP = '\u00a0';

describe('registry', () => {
  it('registers the ten i18n formatters', () => {
    expect(i18nFormatters.map((f) => f.name).sort()).toEqual(
      ['datetime', 'datetime-interval', 'datetimefield', 'decimal', 'i18n-money-format', 'message', 'money', 'plural', 'relative-time', 'unit'],
    );
  });
  it('flags only datetimefield as requiring arguments', () => {
    expect(i18nFormatters.filter((f) => f.requiresArgs).map((f) => f.name)).toEqual(['datetimefield']);
  });
  it('prints nothing without locale data (locale none)', () => {
    const inputs: [string, string, Value, Value[]][] = [
      ['datetime', '', 1509647217000, []],
      ['datetime-interval', '', 1509647217000, [1510641417000]],
      ['decimal', '', 12, []],
      ['money', '', j('{"value":"1","currency":"USD"}'), []],
      ['relative-time', '', 1509647217000, [1510641417000]],
      ['message', '', 'hello', []],
      ['plural', '', 'hello', []],
    ];
    for (const [name, args, value, others] of inputs) {
      expect(run(name, args, value, { locale: 'none', others }), name).toBeUndefined();
      expect(run(name, args, value, { locale: 'en-US', others }), name).toBeTypeOf('string');
    }
  });
});

describe('datetime', () => {
  const T = 1509647217000; // 2017-11-02 14:26:57 EDT
  const cases: [string, string][] = [
    ['', 'November 2, 2017'],
    ['short', `11/2/17, 2:26${NNBSP}PM`],
    ['long', `November 2, 2017 at 2:26:57${NNBSP}PM EDT`],
    ['date', '11/2/17'],
    ['time:medium', `2:26:57${NNBSP}PM`],
    ['date:full time:short', `Thursday, November 2, 2017 at 2:26${NNBSP}PM`],
    ['date:yMMMd time:medium wrap:short', `Nov 2, 2017, 2:26:57${NNBSP}PM`],
  ];
  for (const [args, out] of cases) {
    it(`'${args}' → ${JSON.stringify(out)}`, () => expect(run('datetime', args, T)).toBe(out));
  }
  it('concatenates bare words into a skeleton', () => {
    expect(run('datetime', 'yMMMd hm', T)).toBe(run('datetime', 'skeleton:yMMMdhm', T));
    expect(run('datetime', 'yMMMd', T)).toBe('Nov 2, 2017');
  });
  it('uses the execution locale and its calendars', () => {
    expect(run('datetime', 'date:full time:short', T, { locale: 'fr' })).toBe('jeudi 2 novembre 2017 à 14:26');
    expect(run('datetime', 'date:full', 1520751625000, { locale: 'ja' })).toBe('2018年3月11日日曜日');
    expect(run('datetime', 'date:full calendar:japanese', 1520751625000, { locale: 'ja' })).toBe('平成30年3月11日日曜日');
  });
  it('reads the zone from website.timeZone, unknown zones being UTC', () => {
    expect(run('datetime', 'time:short', T, { outer: zone('America/Los_Angeles') })).toBe(`11:26${NNBSP}AM`);
    expect(run('datetime', 'time:short', T, { outer: zone('Mars/Base') })).toBe(`6:26${NNBSP}PM`);
  });
  it('ignores unknown option values', () => {
    expect(run('datetime', 'wrap:huge context:loud calendar:mayan', T)).toBe('November 2, 2017');
  });
  it('treats missing, null and non-numeric input as the epoch', () => {
    for (const v of [undefined, null, 'abc', j('{"a":1}')]) expect(run('datetime', 'date:short', v, { outer: zone('UTC') })).toBe('1/1/70');
    expect(run('datetime', 'date:short', String(T))).toBe('11/2/17');
  });
});

describe('datetime-interval', () => {
  const S = 1509647217000;
  it('formats the greatest differing field', () => {
    expect(run('datetime-interval', '', S, { others: [S + 11 * 86_400_000] })).toBe(`Nov 2${THIN}–${THIN}13, 2017`);
  });
  it('formats times of day in the website zone', () => {
    const ten = Date.UTC(2017, 10, 2, 17); // 10:00 in Los Angeles
    const out = run('datetime-interval', '', ten, { others: [ten + 2 * 3_600_000], outer: zone('America/Los_Angeles') });
    expect(out).toBe(`10:00${NNBSP}AM${THIN}–${THIN}12:00${NNBSP}PM`);
  });
  it('takes a bare word or skeleton: as the skeleton', () => {
    const aug9 = Date.UTC(2017, 7, 9, 14);
    expect(run('datetime-interval', 'yMMMd', aug9, { others: [aug9 + 3_600_000] })).toBe('Aug 9, 2017');
    expect(run('datetime-interval', 'skeleton:yMMMd', aug9, { others: [aug9 + 3_600_000] })).toBe('Aug 9, 2017');
  });
  it('leaves the value unchanged with a single variable', () => {
    expect(run('datetime-interval', '', S)).toBe(S);
    expect(run('datetime-interval', '', undefined)).toBeUndefined();
  });
  it('treats unparsable ends as 0', () => {
    expect(run('datetime-interval', 'yMMMd', 'x', { others: [null], outer: zone('UTC') })).toBe('Jan 1, 1970');
  });
});

describe('datetimefield and unit (deprecated)', () => {
  it('always yield missing', () => {
    for (const v of [1, 'x', null, undefined, j('{"a":1}')]) {
      expect(run('datetimefield', 'anything', v)).toBeUndefined();
      expect(run('unit', '', v)).toBeUndefined();
      expect(run('unit', 'in:byte out:bit', v)).toBeUndefined();
    }
  });
});

describe('decimal', () => {
  const cases: [Value, string, string][] = [
    ['8915.34567', '', '8,915.346'],
    ['8915.34567', 'style:percent', '891,535%'],
    ['8915.34567', 'style:permille', '8,915,346‰'],
    ['8915.34567', 'style:short', '8.9K'],
    ['8915.34567', 'style:long', '8.9 thousand'],
    ['-15789.12', 'style:short', '-16K'],
    [3.59, 'style:short', '3.6'],
    [99999, 'style:short', '100K'],
    [-100200300.4, 'style:short', '-100M'],
    [1200, 'group:false', '1200'],
    [123.45, 'minInt:5 no-group', '00123.45'],
    [3.14159, 'round:truncate maxFrac:3', '3.141'],
    [3.14159, 'maxFrac:1 round:ceil', '3.2'],
  ];
  for (const [value, args, out] of cases) {
    it(`${JSON.stringify(value)} '${args}' → ${out}`, () => expect(run('decimal', args, value)).toBe(out));
  }
  it('uses the locale separators and minimum grouping digits', () => {
    expect(run('decimal', '', 1200, { locale: 'es' })).toBe('1200');
    expect(run('decimal', '', '-15789.12', { locale: 'es' })).toBe('-15.789,12');
    expect(run('decimal', 'style:short', '-100200300.40', { locale: 'de' })).toBe(`-100${NBSP}Mio.`);
  });
  it('keeps exact digits of big and float inputs', () => {
    expect(run('decimal', 'maxFrac:0', 12345678901234567890n)).toBe('12,345,678,901,234,567,890');
    expect(run('decimal', '', new JDouble(2))).toBe('2');
  });
  it('reads digit counts from leading digits, clamped', () => {
    expect(run('decimal', 'minFrac:2x', 1)).toBe('1.00');
    expect(run('decimal', 'maxFrac:x', 1.5)).toBe('2');
    expect(run('decimal', 'minFrac:-2', 1)).toBe('1');
  });
  it('ignores unknown options and styles', () => {
    expect(run('decimal', 'mode:significant style:weird', 1234.5)).toBe('1,234.5');
  });
  it('yields missing for unparsable text, booleans, containers, null and missing', () => {
    for (const v of ['abc', '', ' 1', 'NaN', 'Infinity', true, null, undefined, j('[1]'), j('{"a":1}')]) expect(run('decimal', '', v)).toBeUndefined();
  });
});

describe('money', () => {
  const usd = j('{"decimalValue":"123456.7890","currencyCode":"USD"}');
  it('formats decimalValue/currencyCode and value/currency objects', () => {
    expect(run('money', '', j('{"value":"0.50","currency":"USD"}'))).toBe('$0.50');
    expect(run('money', '', usd)).toBe('$123,456.79');
    expect(run('money', 'style:short', usd)).toBe('$123K');
    expect(run('money', 'style:name', usd)).toBe('123,456.79 US dollars');
  });
  it('supports the CLDR styles and number options', () => {
    expect(run('money', 'style:accounting', j('{"value":-1551.75,"currency":"USD"}'))).toBe('($1,551.75)');
    expect(run('money', 'style:code minInt:4', j('{"value":1.57,"currency":"USD"}'))).toBe('0,001.57 USD');
    expect(run('money', 'style:name minSig:1', j('{"value":1,"currency":"USD"}'))).toBe('1 US dollar');
    expect(run('money', 'style:name minSig:1', j('{"value":1,"currency":"EUR"}'))).toBe('1 euro');
  });
  it('uses the execution locale', () => {
    const neg = j('{"value":"-15789.12","currency":"USD"}');
    expect(run('money', 'style:short', neg)).toBe('-$16K');
    expect(run('money', 'style:short', neg, { locale: 'fr' })).toBe(`-16${NBSP}k${NBSP}$US`);
    expect(run('money', 'style:short', neg, { locale: 'de-DE' })).toBe(`-15.789${NBSP}$`);
  });
  it('never mixes the two field pairs and yields missing for incomplete or bad input', () => {
    for (const v of [
      j('{"value":"1","currencyCode":"USD"}'),
      j('{"decimalValue":"1"}'),
      j('{"decimalValue":"abc","currencyCode":"USD"}'),
      j('{"decimalValue":"1","currencyCode":7}'),
      j('{"decimalValue":"Infinity","currencyCode":"USD"}'),
      j('{"value":"NaN","currency":"USD"}'),
      'USD 1', 12, null, undefined, j('[1]'),
    ]) {
      expect(run('money', '', v)).toBeUndefined();
    }
  });
});

describe('relative-time', () => {
  const NOW = 1502298000000;
  it('formats from now to the value', () => {
    expect(run('relative-time', '', NOW + 2 * 3_600_000, { now: NOW })).toBe('in 2 hours');
    expect(run('relative-time', 'context:begin-sentence', NOW + 2 * 3_600_000, { now: NOW })).toBe('In 2 hours');
    expect(run('relative-time', '', NOW - 11 * 3_600_000, { now: NOW })).toBe('11 hours ago');
  });
  it('formats from the first variable to the second', () => {
    expect(run('relative-time', '', NOW, { others: [NOW + 14 * 86_400_000], now: 0 })).toBe('in 14 days');
    expect(run('relative-time', 'field:week', NOW, { others: [NOW + 14 * 86_400_000] })).toBe('in 2 weeks');
    expect(run('relative-time', 'allowWeeks:true', NOW, { others: [NOW + 14 * 86_400_000] })).toBe('in 2 weeks');
  });
  it('accepts width and numeric options', () => {
    expect(run('relative-time', 'field:day numericOnly:true', NOW, { others: [NOW + 86_400_000] })).toBe('in 1 day');
    expect(run('relative-time', 'field:day', NOW, { others: [NOW + 86_400_000] })).toBe('tomorrow');
  });
  it('treats unparsable input as the epoch', () => {
    expect(run('relative-time', 'field:year', 'abc', { now: Date.UTC(1972, 0, 1) })).toBe('2 years ago');
  });
  it('starts from now as it starts from the same instant given as the first variable (now is kept as a date)', () => {
    const instant = fc.integer({ min: -8_000_000_000_000, max: 8_000_000_000_000 });
    const args = fc.constantFrom('', 'context:begin-sentence', 'allowWeeks:true', 'field:day', 'dayOfWeek:true allowWeeks:true', 'width:short');
    fc.assert(
      fc.property(instant, instant, args, fc.constantFrom('en-US', 'fr-FR', 'th-TH', 'fa-IR', 'ja'), (now, t, a, locale) => {
        expect(run('relative-time', a, t, { now, locale })).toBe(run('relative-time', a, now, { others: [t], now: 0, locale }));
      }),
      { numRuns: 1500 },
    );
  });
  it('prints what the CLDR engine prints for random pairs, options and locales (the field and amount are computed here)', () => {
    const DAY = 86_400_000;
    const ARGS = ['', 'allowWeeks:true', 'field:day', 'field:week', 'field:quarter', 'field:millis', 'field:year', 'dayOfWeek:true allowWeeks:true',
      'width:short', 'numericOnly:true', 'context:begin-sentence', 'maximumFractionDigits:2', 'alwaysNow:true numericOnly:true'];
    // The field and amount alone are held to the engine's on harder instants in relative-period.test.ts.
    const instant = fc.oneof(fc.integer({ min: -11_000_000_000_000, max: 250_000_000_000_000 }), fc.integer({ min: 1_600_000_000_000, max: 1_900_000_000_000 }));
    const gap = fc.oneof(fc.integer({ min: -90_000, max: 90_000 }), fc.integer({ min: -2 * DAY, max: 2 * DAY }), fc.integer({ min: -70 * DAY, max: 70 * DAY }), fc.integer({ min: -4000 * DAY, max: 4000 * DAY }));
    fc.assert(
      fc.property(fc.constantFrom(...ARGS), fc.constantFrom('en-US', 'de-DE', 'fr-FR', 'ja-JP', 'th-TH', 'ar-EG', 'es'), instant, gap, (a, locale, t, delta) => {
        const cldr = cldrFor(locale)!;
        const options = relativeTimeOptions(a.split(' ').filter((x) => x.length > 0));
        const engine = cldr.Calendars.formatRelativeTime({ date: t, zoneId: 'UTC' }, { date: t + delta, zoneId: 'UTC' }, options);
        expect(run('relative-time', a, t, { others: [t + delta], locale })).toBe(engine);
      }),
      { numRuns: 4000 },
    );
  });
});

describe('i18n-money-format (legacy)', () => {
  const money = (v: number, c: string) => ({ decimalValue: v, currencyCode: c });
  it('places the symbol by locale and separates with the Java locale data', () => {
    expect(run('i18n-money-format', 'de_DE', money(1234.56, 'AUD'))).toBe('1.234,56 A$');
    expect(run('i18n-money-format', 'en_US', money(-1234.56, 'SEK'))).toBe('kr -1,234.56');
    expect(run('i18n-money-format', 'fr_FR', money(1234.56, 'JPY'))).toBe(`1${NBSP}235¥`);
    expect(run('i18n-money-format', 'en-US', money(-1234.56, 'USD'))).toBe('-$1,234.56');
    expect(run('i18n-money-format', 'fr_FR', money(-1234.56, 'EUR'))).toBe(`-1${NBSP}234,56€`);
    expect(run('i18n-money-format', 'sv_SE', money(1234.56, 'SEK'))).toBe(`1${NBSP}234,56 kr`);
  });
  it('uses the ISO code for currencies outside the table', () => {
    expect(run('i18n-money-format', '', money(1234.5, 'CHF'))).toBe('CHF 1,234.50');
  });
  it('defaults to en-US, USD and 0', () => {
    expect(run('i18n-money-format', '', j('{}'))).toBe('$0.00');
    expect(run('i18n-money-format', '', j('{"decimalValue":"2.5","currencyCode":" "}'))).toBe('$2.50');
    for (const v of [undefined, null, 'x']) expect(run('i18n-money-format', '', v)).toBe('$0.00');
  });
  it('rounds half-even on the double value', () => {
    expect(run('i18n-money-format', '', money(0.125, 'USD'))).toBe('$0.12');
    expect(run('i18n-money-format', '', money(0.375, 'USD'))).toBe('$0.38');
    expect(run('i18n-money-format', '', money(1.015, 'USD'))).toBe('$1.01');
  });
  it('raises a runtime error for an unknown currency, every time (only known currencies are kept)', () => {
    for (let i = 0; i < 2; i++) expect(() => run('i18n-money-format', '', money(1, 'XYZ'))).toThrow('Unknown currency code: XYZ');
    expect(() => run('i18n-money-format', '', money(1, 'XYZ'))).toThrow(JavaError);
    // A currency's entry, once kept, serves every locale: symbol placement stays the locale's.
    expect(run('i18n-money-format', 'de_DE', money(5, 'CHF'))).toBe('5,00 CHF');
    expect(run('i18n-money-format', 'en_US', money(5, 'CHF'))).toBe('CHF 5.00');
  });
  it('validates its locale argument at compile time', () => {
    const f = spec('i18n-money-format');
    expect(argsErrorOf(() => bindFormatter(f, ['not a locale!']))).toBe('Invalid locale: not a locale!');
    expect(argsErrorOf(() => bindFormatter(f, ['en_US', 'de_DE']))).toBe('Too many args. Takes between 0 and 1');
    expect(argsErrorOf(() => bindFormatter(f, ['en_US']))).toBeNull();
  });
});

describe('message / plural', () => {
  const data = j(
    '{"count":3,"name":"Bob","one":1,"oneD":1.0,"flag":true,"nul":null,"price":{"decimalValue":"1234.5","currencyCode":"EUR"},"t":1509647217000,"t2":1510641417000}',
  );
  const outer: TestFrame[] = [{ node: data }];
  const msg = (args: string, pattern: Value, opts: RunOptions = {}) => run('message', args, pattern, { outer, ...opts });

  it('binds positional and named arguments (named ones also positional)', () => {
    expect(msg('count name', '{0} {1}')).toBe('3 Bob');
    expect(msg('who:name n=count', '{who} {n} {0} {1}')).toBe('Bob 3 Bob 3');
  });
  it('uses reference conversions to text', () => {
    expect(msg('oneD flag nul nope price', '[{0}][{1}][{2}][{3}][{4}]')).toBe('[1.0][true][][][1234.5]');
  });
  it('chooses plural categories from visible fraction digits', () => {
    const p = '{0 plural one{one} other{other}}';
    expect(msg('one', p)).toBe('one');
    expect(msg('oneD', p)).toBe('other');
    expect(msg('flag', p)).toBe('one');
    expect(msg('nope', p)).toBe('other');
    const fr = (v: Value) => run('message', '@', p, { outer: [{ node: {} }, { node: v }], locale: 'fr' });
    expect([0, '1.1', 2].map(fr)).toEqual(['one', 'one', 'other']);
    const pl = (v: Value) => run('message', '@', '{0 plural one{one} few{few} many{many} other{other}}', { outer: [{ node: {} }, { node: v }], locale: 'pl' });
    expect([0, 2, 3, '0.0'].map(pl)).toEqual(['many', 'few', 'few', 'other']);
  });
  it('supports #, exact matches, selectordinal and select', () => {
    expect(msg('count', '{0 plural =3{three} other{# items}}')).toBe('three');
    expect(msg('one', '{0 plural =3{three} other{# items}}')).toBe('1 items');
    expect(msg('count', '{0 selectordinal one{#st} two{#nd} few{#rd} other{#th}}')).toBe('3rd');
    expect(msg('name', '{0 select Bob{hi Bob} other{who?}}')).toBe('hi Bob');
    expect(msg('name', '{0 select Al{hi Al}}')).toBe('');
  });
  it('prints a pattern of text and named arguments as the engine does', () => {
    // Text and `{name}` arguments are printed without the engine (i18n.ts, `plainMessage`):
    // random patterns of text and arguments, every kind of value, missing names, a name bound
    // twice (the last wins), and pieces the short path must leave to the engine (apostrophes,
    // spaces, positions, hidden tags, unclosed braces, formatters), against the engine itself.
    const mf = messageFormatterFor('en-US', 'America/New_York')!;
    const pieces = ['a', 'b c', '#', '}', 'é—', '{price}', '{name}', '{x_1}', '{_}', '{X}', '{pric}', '{0}', '{ price }', "'", "''", "'{x}'", '{', '{-h}', '{a-b}', '{1a}', '{price,number}', '{price plural other{#}}'];
    const keys = ['count', 'name', 'one', 'oneD', 'flag', 'nul', 'price', 't', 'nope'];
    const node = data as Record<string, Value>;
    let seed = 7;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let k = 0; k < 2000; k++) {
      let pattern = '';
      for (let m = next(6); m > 0; m--) pattern += pieces[next(pieces.length)];
      const bound = ['price', 'name', 'x_1', '_', 'X', 'name'].map((name) => [name, keys[next(keys.length)]]);
      const positional = bound.map(([, key]) => node[key]);
      const named: Record<string, Value> = Object.create(null);
      for (const [name, key] of bound) named[name] = node[key];
      const expected = mf.format(pattern, positional as never, named as never);
      expect(msg(bound.map(([name, key]) => `${name}:${key}`).join(' '), pattern), JSON.stringify([pattern, bound])).toBe(expected);
    }
    expect(msg('price:name', '{price}')).toBe('Bob');
    expect(msg('n:count', 'from {n} # {n}}')).toBe('from 3 # 3}');
    expect(msg('x:name x:count', '{x}')).toBe('3');
    expect(run('message', 'x:@', '<{x}>', { outer: [{ node: {} }, { node: 'item' }] })).toBe('<item>');
    expect(msg('price:name', '{price}', { locale: 'none' })).toBeUndefined();
    expect(msg('price:name', 'plain', { locale: 'none' })).toBeUndefined();
  });
  it('resolves a bare @ to the node enclosing the formatted value', () => {
    expect(run('message', '@', '<{0}>', { outer: [{ node: {} }, { node: 'item' }] })).toBe('<item>');
  });
  it('formats money, numbers and dates inside the message', () => {
    expect(msg('price', '{0 money}|{0 currency style:code}')).toBe('€1,234.50|1,234.50 EUR');
    expect(msg('name', '[{0 money}]')).toBe('[]');
    expect(msg('count', '{0 number minFrac:1}|{0 decimal style:percent}')).toBe('3.0|300%');
    expect(msg('t', '{0 datetime date:short}')).toBe('11/2/17');
    expect(msg('t t2', '{0;1 datetime-interval}')).toBe(`Nov 2${THIN}–${THIN}14, 2017`);
  });
  it('uses the website zone for dates inside the message', () => {
    const la = [{ node: { ...(data as object), website: { timeZone: 'America/Los_Angeles' } } }] as TestFrame[];
    expect(run('message', 't', '{0 datetime time:short}', { outer: la })).toBe(`11:26${NNBSP}AM`);
  });
  it('uses the text of the input as the pattern', () => {
    expect(msg('', undefined)).toBe('');
    expect(msg('', 42)).toBe('42');
    expect(msg('', null)).toBe('null');
  });
  it('does not crash on malformed patterns', () => {
    for (const p of ['{0', '{0 plural one{x}', '}{', "it's", '{0 unknownfmt a b}']) expect(msg('count', p)).toBeTypeOf('string');
  });
  it('keeps argument names out of the object prototype', () => {
    expect(msg('__proto__:name', '{__proto__}')).toBe('Bob');
  });
  it('has the deprecated alias plural', () => {
    expect(run('plural', 'count', '{0 plural one{# item} other{# items}}', { outer })).toBe('3 items');
  });
});

describe('robustness', () => {
  const extremes: Value[] = [1e300, -1e300, Number.MAX_SAFE_INTEGER, 12345678901234567890n, new JDouble(1e21), '1e999', 'NaN', -1e-7];
  const inputs = fc.oneof(
    fc.jsonValue().map((v) => v as Value),
    fc.constantFrom(...extremes),
    fc.record({ decimalValue: fc.oneof(fc.string(), fc.double(), fc.constantFrom(...extremes)), currencyCode: fc.constantFrom('USD', 'JPY', '', 'usd', 'XYZ') }).map((v) => v as Value),
  );
  const argLists = fc.constantFrom('', 'short', 'style:short', 'style:name maxFrac:60', 'skeleton:', 'field:year', 'yMMMd', 'round:x minInt:999');

  it('never throws anything but a JavaError, and always gives text or missing', () => {
    fc.assert(
      fc.property(fc.constantFrom(...i18nFormatters.map((f) => f.name)), argLists, inputs, inputs, fc.constantFrom('en-US', 'fr', 'none', 'zz'), (name, args, value, other, locale) => {
        const raw = name === 'datetimefield' && args === '' ? 'x' : args;
        if (argsErrorOf(() => bindFormatter(spec(name), raw.split(' ').filter(Boolean))) !== null) return name === 'i18n-money-format';
        let out: Value;
        try {
          out = run(name, raw, value, { others: [other], locale, now: 1e15 });
        } catch (e) {
          return e instanceof JavaError && name === 'i18n-money-format';
        }
        return out === undefined || typeof out === 'string' || out === value;
      }),
      { numRuns: 400 },
    );
  });
});
