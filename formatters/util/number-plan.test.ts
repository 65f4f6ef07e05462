import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Decimal } from '@phensley/cldr';
import { JDouble, type FormatterSpec, type Value } from '../../engine/plugin-api.ts';
import { i18nFormatters } from '../i18n.ts';
import { cldrFor, currencyOptions, decimalOptions } from './cldr.ts';
import { numberText, parseDecimal } from './cldr-values.ts';
import { currencyPlanFor, decimalPlanFor, formatPlanned } from './number-plan.ts';
import { bindFormatter, TestPluginContext } from './plugin-test-context.ts';

// The currencies of the demo catalog, the fixtures, the tests and the conformance cases, the
// legacy table's, and some with other digit counts (BHD 3, KRW/CLP 0) or none at all (ZZZ).
const CURRENCIES = ['USD', 'EUR', 'GBP', 'JPY', 'AUD', 'CAD', 'SEK', 'CHF', 'DKK', 'NOK', 'BHD', 'KRW', 'CLP', 'INR', 'ZZZ'];
// The conformance cases' locales (`en` by default, en-US, de-DE, fr-FR, ja), the fixtures'
// (fr, es, pl) and some with other grouping or digits (Indian grouping, Arabic digits,
// a minimum of two grouping digits, an unknown tag that falls back to English).
const LOCALES = ['en', 'en-US', 'de-DE', 'fr-FR', 'ja', 'fr', 'es', 'pl', 'de-CH', 'en-IN', 'ar-EG', 'pt-PT', 'xx-YY'];

// Option words as the formatters receive them (PLUGINS §15.3), including shapes a plan
// leaves to the engine (significant digits, compact, scientific, name/code, minInt:0).
const NUMBER_WORDS = [
  'group', 'group:false', 'no-group', 'grouping:true', 'minInt:4', 'minInt:0', 'minint:2', 'maxFrac:0', 'maxFrac:1',
  'maxFrac:3', 'maxFrac:7', 'minFrac:0', 'minFrac:2', 'minFrac:5', 'round:truncate', 'round:ceil', 'round:floor',
  'round:up', 'round:down', 'round:half-up', 'round:half-down', 'round:half-even', 'maxSig:3', 'minSig:2', 'mode:significant',
];
const MONEY_WORDS = [...NUMBER_WORDS, 'style:symbol', 'style:accounting', 'style:code', 'style:name', 'style:short', 'symbol:narrow'];
const DECIMAL_WORDS = [
  ...NUMBER_WORDS, 'style:decimal', 'style:percent', 'style:percent-scaled', 'style:permille', 'style:permille-scaled',
  'style:short', 'style:long', 'style:scientific',
];

const digits = (min: number, max: number) => fc.stringMatching(new RegExp(`^[0-9]{${min},${max}}$`));
const sign = fc.constantFrom('', '', '-');

/** Amount texts: integers, long decimals, huge values, zeros, and ties at every position. */
const amountText = fc.oneof(
  fc.bigInt({ min: -(10n ** 25n), max: 10n ** 25n }).map(String),
  fc.tuple(sign, digits(1, 24), digits(1, 24)).map(([s, i, f]) => `${s}${i}.${f}`),
  fc.tuple(sign, digits(1, 4), digits(0, 6), fc.constantFrom('5', '50', '500', '51', '49', '4999', '5001')).map(([s, i, f, t]) => `${s}${i}.${f}${t}`),
  fc.tuple(sign, fc.constantFrom('9', '99', '999', '9999', '999999', '999999999999999', '0'), fc.constantFrom('.5', '.95', '.995', '.9995', '.49', '.0')).map(([s, i, f]) => s + i + f),
  fc.constantFrom('0', '-0', '0.0', '-0.00', '000.5', '-000', '00012.50', '1e3', '+5', '.5', '5.', ' 5', 'abc', '', '1E+21', '0.00000000000000000001'),
  fc.tuple(sign, fc.constantFrom('1000000000000000', '999999999999999', '1000000000000000000000', '999999999999999999999'), digits(0, 3)).map(([s, i, f]) => (f ? `${s}${i}.${f}` : s + i)),
  // Exponents, as Java prints doubles (`1.2345E7`, `5.0E-4`) and as data may hold them.
  fc.tuple(sign, digits(1, 3), digits(0, 6), fc.constantFrom('E', 'e', 'E+', 'E-', 'e-'), fc.integer({ min: 0, max: 40 })).map(
    ([s, i, f, e, x]) => `${s}${i}${f ? '.' + f : ''}${e}${x}`,
  ),
);

/** Amounts as JSON numbers: doubles near 1e15 and 1e21, -0, exact floats (`1.0` stays a JDouble). */
const amountNumber: fc.Arbitrary<Value> = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e25, max: 1e25 }),
  fc.integer({ min: -1e9, max: 1e9 }),
  fc.constantFrom(-0, 0.5, 1.005, 2.675, 1e15, 1e15 + 0.5, 999999999999999.9, 1e21, 1e21 - 65536, 123456789.125, -1e-7, 5e-324),
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }).map((v) => new JDouble(v)),
);

const words = (vocabulary: string[]) => fc.uniqueArray(fc.constantFrom(...vocabulary), { maxLength: 3 });

const money = i18nFormatters.find((f) => f.name === 'money') as FormatterSpec<any>;
const decimal = i18nFormatters.find((f) => f.name === 'decimal') as FormatterSpec<any>;

function apply(f: FormatterSpec<any>, args: string[], value: Value, locale: string): Value {
  const ctx = new TestPluginContext([{ node: {} }, { node: value }], { locale });
  return f.apply(value, bindFormatter(f, args), ctx, []);
}

/** The CLDR engine's own answer, as `money` and `decimal` gave it before plans. */
function engineText(v: Value): string | null {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || v instanceof JDouble) return typeof v === 'number' && !Number.isFinite(v) ? null : numberText(v);
  return null;
}

function engineMoney(args: string[], amount: Value, currency: string, locale: string): Value {
  const text = engineText(amount);
  const d = text === null ? null : parseDecimal(text);
  return d === null ? undefined : cldrFor(locale)!.Numbers.formatCurrency(d, currency as never, currencyOptions(args));
}

function engineDecimal(args: string[], amount: Value, locale: string): Value {
  const text = engineText(amount);
  const d = text === null ? null : parseDecimal(text);
  return d === null ? undefined : cldrFor(locale)!.Numbers.formatDecimal(d, decimalOptions(args));
}

// Each property runs a few thousand cases; plans are built once per (locale, currency, options).
const RUNS = { numRuns: 2500 };

describe('number plans: byte-identical to the CLDR engine', () => {
  it('money: every amount, currency, locale and option shape prints what @phensley/cldr prints', () => {
    fc.assert(
      fc.property(fc.oneof(amountText, amountNumber), fc.constantFrom(...CURRENCIES), fc.constantFrom(...LOCALES), words(MONEY_WORDS), (amount, currency, locale, args) => {
        const value = { decimalValue: amount, currencyCode: currency } as unknown as Value;
        expect(apply(money, args, value, locale)).toBe(engineMoney(args, amount, currency, locale));
      }),
      RUNS,
    );
  });

  it('decimal and percent: every amount, locale and option shape prints what @phensley/cldr prints', () => {
    fc.assert(
      fc.property(fc.oneof(amountText, amountNumber), fc.constantFrom(...LOCALES), words(DECIMAL_WORDS), (amount, locale, args) => {
        expect(apply(decimal, args, amount, locale)).toBe(engineDecimal(args, amount, locale));
      }),
      RUNS,
    );
  });

  it('a money argument of a message prints what @phensley/cldr prints', () => {
    const message = i18nFormatters.find((f) => f.name === 'message') as FormatterSpec<any>;
    fc.assert(
      fc.property(amountText, fc.constantFrom(...CURRENCIES), fc.constantFrom(...LOCALES), words(MONEY_WORDS), (amount, currency, locale, args) => {
        const pattern = `[{0 money ${args.join(' ')}}]`;
        const price = { decimalValue: amount, currencyCode: currency };
        const ctx = new TestPluginContext([{ node: { price } }, { node: pattern }], { locale });
        const out = message.apply(pattern, bindFormatter(message, ['price']), ctx, []);
        const expected = engineMoney(args, amount, currency, locale);
        expect(out).toBe(`[${expected ?? ''}]`);
      }),
      { numRuns: 800 },
    );
  });

  // The formatters fall back to the engine when a plan fails its self-check, which would hide a
  // wrong plan from the properties above; these call the plans themselves.
  it('money plans, where there is one, print what the engine prints', () => {
    let planned = 0;
    fc.assert(
      fc.property(amountText, fc.constantFrom(...CURRENCIES), fc.constantFrom(...LOCALES), words(MONEY_WORDS), (text, currency, locale, args) => {
        const cldr = cldrFor(locale)!;
        const options = currencyOptions(args);
        const plan = currencyPlanFor(cldr, currency, options);
        const out = plan === null ? undefined : formatPlanned(plan, text);
        if (out === undefined) return;
        planned++;
        expect(out).toBe(cldr.Numbers.formatCurrency(new Decimal(text), currency as never, options));
      }),
      RUNS,
    );
    expect(planned).toBeGreaterThan(RUNS.numRuns / 3);
  });

  it('decimal plans, where there is one, print what the engine prints', () => {
    let planned = 0;
    fc.assert(
      fc.property(amountText, fc.constantFrom(...LOCALES), words(DECIMAL_WORDS), (text, locale, args) => {
        const cldr = cldrFor(locale)!;
        const options = decimalOptions(args);
        const plan = decimalPlanFor(cldr, options);
        const out = plan === null ? undefined : formatPlanned(plan, text);
        if (out === undefined) return;
        planned++;
        expect(out).toBe(cldr.Numbers.formatDecimal(new Decimal(text), options));
      }),
      RUNS,
    );
    expect(planned).toBeGreaterThan(RUNS.numRuns / 3);
  });

  it('plans cover the shapes pages use, so the properties above test them', () => {
    const covered = (plan: unknown) => expect(plan).not.toBeNull();
    for (const locale of ['en', 'en-US', 'de-DE', 'fr-FR', 'ja', 'es', 'pl', 'en-IN']) {
      const cldr = cldrFor(locale)!;
      for (const currency of ['USD', 'EUR', 'GBP', 'JPY', 'BHD', 'ZZZ']) {
        covered(currencyPlanFor(cldr, currency, currencyOptions([])));
        covered(currencyPlanFor(cldr, currency, currencyOptions(['style:accounting'])));
        covered(currencyPlanFor(cldr, currency, currencyOptions(['minInt:4', 'maxFrac:3', 'round:ceil', 'group:false'])));
      }
      for (const style of ['decimal', 'percent', 'percent-scaled', 'permille', 'permille-scaled']) {
        covered(decimalPlanFor(cldr, decimalOptions([`style:${style}`])));
        covered(decimalPlanFor(cldr, decimalOptions([`style:${style}`, 'maxFrac:1', 'round:truncate'])));
      }
    }
    // Shapes a plan leaves to the engine.
    const en = cldrFor('en-US')!;
    expect(currencyPlanFor(en, 'USD', currencyOptions(['style:name']))).toBeNull();
    expect(decimalPlanFor(en, decimalOptions(['style:short']))).toBeNull();
    expect(decimalPlanFor(en, decimalOptions(['maxSig:2']))).toBeNull();
    expect(decimalPlanFor(cldrFor('ar-EG')!, decimalOptions([]))).toBeNull(); // Arabic digits
  });

  it('keeps the CLDR spacing characters (U+00A0, U+202F) of the engine', () => {
    const fr = currencyPlanFor(cldrFor('fr-FR')!, 'EUR', {})!;
    expect(formatPlanned(fr, '-1234567.891')).toBe('-1\u202f234\u202f567,89\u00a0€');
    const de = currencyPlanFor(cldrFor('de-CH')!, 'CHF', {})!;
    expect(formatPlanned(de, '1234.5')).toBe(cldrFor('de-CH')!.Numbers.formatCurrency(new Decimal('1234.5'), 'CHF'));
    const inr = decimalPlanFor(cldrFor('en-IN')!, {})!;
    expect(formatPlanned(inr, '1234567890.5')).toBe('1,23,45,67,890.5');
  });

  it('leaves text that is not plain decimal digits (with an exponent) to the engine', () => {
    const plan = currencyPlanFor(cldrFor('en-US')!, 'USD', {})!;
    for (const text of ['+5', '.5', '5.', ' 5', '', '-', '1_000', '0x10', '1e', '1e+', '1e0400', '1e1000', 'x'.repeat(401), '1'.repeat(401)]) {
      expect(formatPlanned(plan, text)).toBeUndefined();
    }
    expect([formatPlanned(plan, '1.2345E7'), formatPlanned(plan, '-5.1E-3'), formatPlanned(plan, '1e+3')]).toEqual(['$12,345,000.00', '-$0.01', '$1,000.00']);
  });
});
