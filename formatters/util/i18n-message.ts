// The `message` / `plural` formatters evaluate ICU-style patterns with the CLDR engine's
// message formatter, as the reference does. This module adapts JSON-T values to it: the
// argument conversions of PLUGINS §11 (`1.0` stays a float, so its plural category is
// `other` in English) and the custom argument formatters money/currency, number/decimal,
// datetime and datetime-interval. One formatter is built per (locale, time zone) and
// reused; it caches parsed patterns itself.
import { Decimal } from '@phensley/cldr';
import type { CLDR, MessageArg, MessageArgConverter, MessageFormatFuncMap, MessageFormatter } from '@phensley/cldr';
import { JDouble, asLong, isObject, javaDouble, type Value } from '../../engine/plugin-api.ts';
import { cldrFor, currencyOptions, decimalOptions, resolveZone } from './cldr.ts';
import {
  dateTimeOptions,
  formatDateTime,
  formatInterval,
  intervalOptions,
  isMoneyObject,
  moneyAmountText,
  moneyAmountValue,
  moneyCurrency,
  numberText,
  parseDecimal,
} from './cldr-values.ts';
import { CurrencySite } from './number-plan.ts';

const ZERO = new Decimal(0);
const ONE = new Decimal(1);

/** A message argument converted to a number (PLUGINS §11 "Argument conversion"). */
export function messageDecimal(v: Value): Decimal {
  if (isMoneyObject(v)) return messageDecimal(moneyAmountValue(v));
  switch (typeof v) {
    case 'boolean':
      return v ? ONE : ZERO;
    case 'number':
    case 'bigint':
      return typeof v === 'number' && !Number.isFinite(v) ? ZERO : (parseDecimal(numberText(v)) ?? ZERO);
    case 'string':
      return parseDecimal(v.trim()) ?? ZERO;
    default:
      return v instanceof JDouble ? (parseDecimal(numberText(v)) ?? ZERO) : ZERO;
  }
}

/** A message argument converted to text. */
export function messageString(v: Value): string {
  if (isMoneyObject(v)) return messageString(moneyAmountValue(v));
  switch (typeof v) {
    case 'string':
      return v;
    case 'boolean':
      return v ? 'true' : 'false';
    case 'number':
      return Number.isInteger(v) ? String(v) : javaDouble(v);
    case 'bigint':
      return v.toString();
    default:
      if (v instanceof JDouble) return javaDouble(v.value);
      return '';
  }
}

// The engine also hands back its own Decimal (the `#` of a plural branch).
const converter: MessageArgConverter = {
  asString: (arg: MessageArg | undefined) => (arg instanceof Decimal ? arg.toString() : messageString(arg as Value)),
  asDecimal: (arg: MessageArg | undefined) => (arg instanceof Decimal ? arg : messageDecimal(arg as Value)),
};

// Parsed options of the custom argument formatters, keyed by their option text.
const optionCache = new Map<string, unknown>();

function cachedOptions<T>(kind: string, options: string[], parse: (o: string[]) => T): T {
  const key = kind + '\u0000' + options.join('\u0001');
  let parsed = optionCache.get(key) as T | undefined;
  if (parsed === undefined) {
    parsed = parse(options.filter((o) => o.length > 0));
    if (optionCache.size > 2048) optionCache.clear();
    optionCache.set(key, parsed);
  }
  return parsed;
}

function epochOf(v: Value): number {
  if (isObject(v) || Array.isArray(v)) return 0;
  return asLong(v as Value);
}

function customFormatters(cldr: CLDR, locale: string, zoneId: string): MessageFormatFuncMap {
  // A money argument prints through the plan of its option text (number-plan.ts), as `money` does.
  const money = (args: MessageArg[], options: string[]): string => {
    const text = moneyAmountText(args[0] as Value);
    if (text === null) return '';
    const currency = moneyCurrency;
    const site = cachedOptions('money', options, (o) => new CurrencySite(currencyOptions(o)));
    return site.format(cldr, locale, currency, text) ?? '';
  };
  const number = (args: MessageArg[], options: string[]): string =>
    cldr.Numbers.formatDecimal(messageDecimal(args[0] as Value), cachedOptions('decimal', options, decimalOptions));
  const datetime = (args: MessageArg[], options: string[]): string =>
    formatDateTime(cldr, epochOf(args[0] as Value), zoneId, cachedOptions('datetime', options, dateTimeOptions));
  const interval = (args: MessageArg[], options: string[]): string => {
    if (args.length < 2) return '';
    return formatInterval(cldr, epochOf(args[0] as Value), epochOf(args[1] as Value), zoneId, cachedOptions('interval', options, intervalOptions));
  };
  return { money, currency: money, number, decimal: number, datetime, 'datetime-interval': interval };
}

// locale → zone id → formatter: two lookups, no key string built per call.
const formatters = new Map<string, Map<string, MessageFormatter | null>>();
let formatterCount = 0;

/** The message formatter of a locale and a zone text; null for locale `none`. */
export function messageFormatterFor(locale: string, zoneText: string): MessageFormatter | null {
  const zoneId = resolveZone(zoneText);
  let byZone = formatters.get(locale);
  let mf = byZone?.get(zoneId);
  if (mf === undefined) {
    const cldr = cldrFor(locale);
    mf = cldr === null ? null : cldr.General.messageFormatter({ converter, formatters: customFormatters(cldr, locale, zoneId), cacheSize: 256 });
    if (formatterCount > 256) {
      formatters.clear();
      formatterCount = 0;
      byZone = undefined;
    }
    if (byZone === undefined) formatters.set(locale, (byZone = new Map()));
    byZone.set(zoneId, mf);
    formatterCount++;
  }
  return mf;
}
