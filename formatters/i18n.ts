// The i18n formatters (PLUGINS §11, §15.2–15.4). Everything except `i18n-money-format`
// formats through the CLDR engine in the execution locale; with locale `none` there is no
// locale data and they print nothing (the result is missing).
import {
  ArgsError,
  asDouble,
  asLong,
  expectArgs,
  isObject,
  member,
  textOf,
  JavaError,
  type FormatterSpec,
  type PluginContext,
  type Ref,
  type Value,
} from '../engine/plugin-api.ts';
import type { CalendarDate, CLDR, DateIntervalFormatOptions, RelativeTimeFormatOptions } from '@phensley/cldr';
import { cldrFor, currencyOptions, decimalOptions, resolveZone, timeZoneRef, zoneText } from './util/cldr.ts';
import {
  amountText,
  dateTimeOptions,
  formatDateTime,
  formatInterval,
  intervalOptions,
  moneyAmountText,
  moneyCurrency,
  relativeTimeOptions,
  type DateTimeOptions,
} from './util/cldr-values.ts';
import { CurrencySite, DecimalSite } from './util/number-plan.ts';
import { messageFormatterFor, messageString } from './util/i18n-message.ts';
import { isPeriodField, type PeriodKey, relativePeriod, relativeTimeText, usesGregorian } from './util/relative-period.ts';
import { formatLegacyMoney, legacyCurrency, parseLegacyLocale, type LegacyLocale } from './util/legacy-money.ts';

interface Zoned<T> {
  readonly options: T;
  /** `website.timeZone`, bound once. */
  readonly zone: Ref | null;
}

const datetime: FormatterSpec<Zoned<DateTimeOptions>> = {
  name: 'datetime',
  bind: (args, ctx) => ({ options: dateTimeOptions(args), zone: timeZoneRef(ctx) }),
  apply(value, bound, ctx) {
    const cldr = cldrFor(ctx.locale);
    if (cldr === null) return undefined;
    return formatDateTime(cldr, asLong(value), resolveZone(zoneText(ctx, bound.zone)), bound.options);
  },
};

const datetimeInterval: FormatterSpec<Zoned<DateIntervalFormatOptions>> = {
  name: 'datetime-interval',
  bind: (args, ctx) => ({ options: intervalOptions(args), zone: timeZoneRef(ctx) }),
  apply(value, bound, ctx, others) {
    // With a single variable the reference leaves the value as it is.
    if (others.length === 0) return value;
    const cldr = cldrFor(ctx.locale);
    if (cldr === null) return undefined;
    return formatInterval(cldr, asLong(value), asLong(others[0]), resolveZone(zoneText(ctx, bound.zone)), bound.options);
  },
};

/** Deprecated: accepts any arguments and always yields missing. */
const datetimefield: FormatterSpec<null> = {
  name: 'datetimefield',
  pure: true,
  requiresArgs: true,
  bind: () => null,
  apply: () => undefined,
};

/** Deprecated: always yields missing. */
const unit: FormatterSpec<null> = {
  name: 'unit',
  pure: true,
  bind: () => null,
  apply: () => undefined,
};

// `decimal` and `money` print through a plan bound to the call site (number-plan.ts): the
// locale's pattern, symbols and grouping resolved once, digits written directly. The CLDR
// engine formats what a plan does not cover.
const decimal: FormatterSpec<DecimalSite> = {
  name: 'decimal',
  bind: (args) => new DecimalSite(decimalOptions(args)),
  apply(value, site, ctx) {
    const cldr = cldrFor(ctx.locale);
    const text = amountText(value);
    if (cldr === null || text === null) return undefined;
    return site.format(cldr, ctx.locale, text);
  },
};

const money: FormatterSpec<CurrencySite> = {
  name: 'money',
  bind: (args) => new CurrencySite(currencyOptions(args)),
  apply(value, site, ctx) {
    const cldr = cldrFor(ctx.locale);
    const text = moneyAmountText(value);
    if (cldr === null || text === null) return undefined;
    return site.format(cldr, ctx.locale, moneyCurrency, text);
  },
};

/** What `{value|money}` prints at a call site bound to `site` (`product-price` prints its template's `money` in code). */
export function formatMoney(value: Value, site: CurrencySite, ctx: PluginContext): Value {
  return money.apply(value, site, ctx, NO_VALUES);
}

const NO_VALUES: readonly Value[] = [];

interface RelativeTimeBound {
  readonly options: RelativeTimeFormatOptions;
  /** Whether the field and amount may be computed here (relative-period.ts): not a `quarter`, no weekday names. */
  readonly period: boolean;
  readonly field: PeriodKey | undefined;
}

/**
 * The execution's "now" as the CLDR engine's date, for the last (bundle, now) asked: every
 * `{t|relative-time}` of a render starts from the same now, and turning an instant into a
 * date (time zone lookup, calendar fields) was half of the engine's work for a call
 * (bench/results formatter sweep, 2026-11-29: 6.6 µs a call, `fromUnixEpoch` 27%). The engine
 * takes a date of its calendar as it is; another calendar's is converted, as an instant is.
 */
let nowCldr: CLDR | null = null;
let nowMs = NaN;
let nowDate: CalendarDate | null = null;

function nowAsDate(cldr: CLDR, now: number): CalendarDate {
  if (cldr !== nowCldr || now !== nowMs || nowDate === null) {
    nowDate = cldr.Calendars.toGregorianDate({ date: now, zoneId: 'UTC' });
    nowCldr = cldr;
    nowMs = now;
  }
  return nowDate;
}

const relativeTime: FormatterSpec<RelativeTimeBound> = {
  name: 'relative-time',
  bind: (args) => {
    const options = relativeTimeOptions(args);
    const field = options.field;
    const period = (field === undefined || isPeriodField(field)) && options.dayOfWeek !== true;
    return { options, period, field: field !== undefined && isPeriodField(field) ? field : undefined };
  },
  apply(value, bound, ctx, others) {
    const cldr = cldrFor(ctx.locale);
    if (cldr === null) return undefined;
    // One variable: from now to it; two: from the first to the second. Taken in UTC.
    const start = others.length === 0 ? ctx.now : asLong(value);
    const end = others.length === 0 ? asLong(value) : asLong(others[0]);
    // The field and amount computed as the engine does (half of its work), then formatted by it.
    if (bound.period && usesGregorian(cldr)) {
      const p = relativePeriod(start, end, bound.options.allowWeeks === true, bound.field);
      if (p !== null) return relativeTimeText(cldr, bound.options, p.field, p.amount);
    }
    if (others.length === 0) return cldr.Calendars.formatRelativeTime(nowAsDate(cldr, start), { date: end, zoneId: 'UTC' }, bound.options);
    return cldr.Calendars.formatRelativeTime({ date: start, zoneId: 'UTC' }, { date: end, zoneId: 'UTC' }, bound.options);
  },
};

// ---- i18n-money-format -------------------------------------------------------------------

const DEFAULT_LEGACY_LOCALE = parseLegacyLocale('en-US') as LegacyLocale;

const i18nMoneyFormat: FormatterSpec<LegacyLocale> = {
  name: 'i18n-money-format',
  pure: true,
  bind(args) {
    expectArgs(args, 0, 1);
    if (args.length === 0) return DEFAULT_LEGACY_LOCALE;
    const locale = parseLegacyLocale(args[0]);
    if (locale === null) throw new ArgsError(`Invalid locale: ${args[0]}`);
    return locale;
  },
  apply(value, locale) {
    const amount = isObject(value) ? asDouble(member(value, 'decimalValue')) : 0;
    const code = isObject(value) ? textOf(member(value, 'currencyCode')).trim() : '';
    const currency = legacyCurrency(code === '' ? 'USD' : code);
    if (currency === null) throw new JavaError('IllegalArgumentException', `Unknown currency code: ${code}`);
    return formatLegacyMoney(amount, currency, locale);
  },
};

// ---- message / plural ---------------------------------------------------------------------

interface MessageArgRef {
  /** The name of a `name:ref` / `name=ref` argument, or null for a positional one. */
  readonly name: string | null;
  /** null for a bare `@` (the enclosing scope's node) or text that is not a reference. */
  readonly ref: Ref | null;
  readonly enclosingNode: boolean;
}

interface MessageBound {
  readonly args: readonly MessageArgRef[];
  readonly zone: Ref | null;
}

/**
 * The engine may offer the node of the frame enclosing the formatter's frame; `message`
 * needs it for a bare `@` argument (PLUGINS §11).
 */
type FrameAwareContext = PluginContext & { parentNode?(): Value };

function enclosingNode(ctx: PluginContext): Value {
  const frames = ctx as FrameAwareContext;
  return typeof frames.parentNode === 'function' ? frames.parentNode() : ctx.node();
}

function messageSpec(name: string): FormatterSpec<MessageBound> {
  return {
    name,
    bind(args, ctx) {
      const parsed = args.map((arg): MessageArgRef => {
        const colon = arg.indexOf(':');
        const equals = arg.indexOf('=');
        const at = colon < 0 ? equals : equals < 0 ? colon : Math.min(colon, equals);
        const text = at < 0 ? arg : arg.slice(at + 1);
        return {
          name: at < 0 ? null : arg.slice(0, at),
          ref: text === '@' ? null : ctx.parseRef(text),
          enclosingNode: text === '@',
        };
      });
      return { args: parsed, zone: timeZoneRef(ctx) };
    },
    apply(value, bound, ctx) {
      const text = textOf(value);
      const plain = plainMessage(text, bound.args, ctx);
      if (plain !== null) {
        // Text and `{name}` arguments only (`{price}`, the text `product-price` hands its
        // template; `from {fromPrice}`): the engine would print each argument as
        // `messageString` converts it. Asked, it took ~0.8 µs a call (the pattern's cache, a
        // new evaluator, the time zone looked up for a formatter no such pattern uses).
        return cldrFor(ctx.locale) === null ? undefined : plain;
      }
      const mf = messageFormatterFor(ctx.locale, zoneText(ctx, bound.zone));
      if (mf === null) return undefined;
      const positional: Value[] = [];
      // No prototype: argument names come from the template.
      const named: Record<string, Value> = Object.create(null);
      for (const a of bound.args) {
        const v = a.enclosingNode ? enclosingNode(ctx) : a.ref === null ? undefined : ctx.resolve(a.ref);
        positional.push(v);
        if (a.name !== null) named[a.name] = v;
      }
      return mf.format(text, positional, named);
    },
  };
}

/**
 * A message pattern of text and `{name}` arguments only, printed as the CLDR engine prints it;
 * null for any other pattern (an apostrophe, which escapes; a `{` not followed by a name and
 * `}`: plural, select, formatters, spaces, positions). A name is a letter or `_` then letters,
 * digits and `_` (the engine takes more; those patterns go to it), and prints the last argument
 * bound by that name, as the engine's named map holds it. A `}` or `#` outside an argument is
 * text to the engine too.
 */
function plainMessage(text: string, args: readonly MessageArgRef[], ctx: PluginContext): string | null {
  return plainPattern(text, namedArgument, args, ctx);
}

/**
 * `plainMessage` of a pattern whose arguments `argument(a, b, text, from, to)` reads, by the
 * name `text[from, to)`: `product-price` prints its template's messages with the template's
 * variables. Null when the engine must print it.
 */
export function plainPattern<A, B>(text: string, argument: (a: A, b: B, text: string, from: number, to: number) => Value, a: A, b: B): string | null {
  const n = text.length;
  let out = '';
  let start = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x27) return null;
    if (c !== 0x7b) continue;
    let j = i + 1;
    for (; j < n; j++) {
      const d = text.charCodeAt(j);
      const letter = (d >= 0x61 && d <= 0x7a) || (d >= 0x41 && d <= 0x5a) || d === 0x5f;
      if (!(letter || (j > i + 1 && d >= 0x30 && d <= 0x39))) break;
    }
    if (j === i + 1 || j === n || text.charCodeAt(j) !== 0x7d) return null;
    out += text.slice(start, i) + messageString(argument(a, b, text, i + 1, j));
    start = j + 1;
    i = j;
  }
  return start === 0 ? text : out + text.slice(start);
}

/** The value of the argument named `text[from, to)`: the last one bound by that name, undefined if none. */
function namedArgument(args: readonly MessageArgRef[], ctx: PluginContext, text: string, from: number, to: number): Value {
  let v: Value = undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a.name === null || a.name.length !== to - from || !text.startsWith(a.name, from)) continue;
    v = a.enclosingNode ? enclosingNode(ctx) : a.ref === null ? undefined : ctx.resolve(a.ref);
  }
  return v;
}

export const i18nFormatters: FormatterSpec<any>[] = [
  datetime,
  datetimeInterval,
  datetimefield,
  decimal,
  i18nMoneyFormat,
  messageSpec('message'),
  messageSpec('plural'),
  money,
  relativeTime,
  unit,
];
