// Conversions from JSON-T values to the inputs of the CLDR formatters, and the option
// parsers of `datetime`, `datetime-interval` and `relative-time` shared by the formatters
// and by the custom argument formatters of `message`.
import { Decimal } from '@phensley/cldr';
import type {
  CLDR,
  ContextType,
  DateFieldWidthType,
  DateFormatOptions,
  DateIntervalFormatOptions,
  FormatWidthType,
  RelativeTimeFormatOptions,
  TimePeriodField,
} from '@phensley/cldr';
import { JDouble, isObject, javaDouble, member, type Value } from '../../engine/plugin-api.ts';
import { applyNumberOption, calendarKind, parseOptionArgs, toCalendarDate, type CalendarKind } from './cldr.ts';
import { dateTimePlan, formatDateTimePlanned } from './datetime-plan.ts';
import { formatIntervalPlanned } from './interval-plan.ts';

// ---- numbers --------------------------------------------------------------------------

/** Exact decimal text of a JSON number (Java double text for floats, so `1.0` stays `1.0`). */
export function numberText(v: number | bigint | JDouble): string {
  if (typeof v === 'bigint') return v.toString();
  if (v instanceof JDouble) return javaDouble(v.value);
  return Number.isInteger(v) ? String(v) : javaDouble(v);
}

/**
 * Parses decimal text; null when it is not a finite number. `Decimal` throws on bad input
 * and accepts `NaN`/`Infinity`, which the reference's BigDecimal parsing rejects.
 */
export function parseDecimal(text: string): Decimal | null {
  if (text.length === 0 || text.length > 400 || !decimalShaped(text)) return null;
  try {
    const d = new Decimal(text);
    return d.isFinite() ? d : null;
  } catch {
    return null;
  }
}

/**
 * Whether `text` holds only what a finite `Decimal` is written with (digits, signs, points,
 * exponent letters) and a digit. `Decimal` rejects anything else by throwing, and the throw
 * (an `Error` and its stack) cost ~11 µs a value: a text such as `abc` in every item of a
 * list paid it per item (bench/README.md, "Error paths and `same-day?`"). Its `NaN` and
 * `Infinity` fail here too, as they fail `isFinite` above.
 */
function decimalShaped(text: string): boolean {
  let digit = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x30 && c <= 0x39) digit = true;
    else if (c !== 0x2b && c !== 0x2d && c !== 0x2e && c !== 0x45 && c !== 0x65) return false;
  }
  return digit;
}

/**
 * The decimal text of an amount: a string as it is, a number node exactly; null for
 * anything else (booleans, containers, null, missing, NaN and infinities).
 */
export function amountText(v: Value): string | null {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'bigint' || v instanceof JDouble) {
    if (typeof v === 'number' && !Number.isFinite(v)) return null;
    return numberText(v);
  }
  return null;
}

// ---- money objects ----------------------------------------------------------------------

/**
 * The currency of the money object last read by `moneyAmountText`, valid until its next
 * call: a second result without an object allocated per formatted price.
 */
export let moneyCurrency = '';

/**
 * The amount text of a money object: `decimalValue` + `currencyCode`, else `value` +
 * `currency` (the pairs are never mixed), its currency left in `moneyCurrency`. Null when
 * neither pair is complete, the currency is not a non-empty string or the amount is not a
 * number or text (see `amountText`); the text is not parsed yet (a number that does not
 * parse also prints nothing).
 */
export function moneyAmountText(v: Value): string | null {
  if (!isObject(v)) return null;
  // Read at the call site, each read with an inline cache of its own (formatters/util/product.ts).
  let amount = v.decimalValue;
  let currency = v.currencyCode;
  if (amount === undefined || currency === undefined) {
    amount = v.value;
    currency = v.currency;
    if (amount === undefined || currency === undefined) return null;
  }
  if (typeof currency !== 'string' || currency.length === 0) return null;
  moneyCurrency = currency;
  return amountText(amount);
}

/** The amount of a money object as JSON (for conversions that only need the number). */
export function moneyAmountValue(v: Value): Value {
  if (!isObject(v)) return undefined;
  const d = member(v, 'decimalValue');
  return d !== undefined ? d : member(v, 'value');
}

export function isMoneyObject(v: Value): boolean {
  return isObject(v) && (member(v, 'decimalValue') !== undefined || member(v, 'value') !== undefined);
}

// ---- datetime options ------------------------------------------------------------------

const WIDTHS = new Set<string>(['short', 'medium', 'long', 'full']);
const CONTEXTS = new Set<string>(['middle-of-text', 'begin-sentence', 'standalone', 'ui-list-or-menu']);

export interface DateTimeOptions {
  readonly format: DateFormatOptions;
  readonly calendar: CalendarKind;
}

/** Options of `datetime` (PLUGINS §11), also used by `{0 datetime …}` in messages. */
export function dateTimeOptions(args: readonly string[]): DateTimeOptions {
  const format: DateFormatOptions = {};
  let skeleton = '';
  let calendar: CalendarKind = 'gregory';
  for (const { key, value } of parseOptionArgs(args)) {
    if (value === null) {
      if (key === 'date') format.date = 'short';
      else if (key === 'time') format.time = 'short';
      else if (WIDTHS.has(key)) format.datetime = key as FormatWidthType;
      else skeleton += key;
      continue;
    }
    switch (key) {
      case 'date':
      case 'time':
      case 'datetime':
        if (WIDTHS.has(value)) format[key] = value as FormatWidthType;
        else skeleton += value;
        break;
      case 'skeleton':
        skeleton = value;
        break;
      case 'wrap':
      case 'wrapper':
      case 'wrapped':
        if (WIDTHS.has(value)) format.wrap = value as FormatWidthType;
        break;
      case 'context':
        if (CONTEXTS.has(value)) format.context = value as ContextType;
        break;
      case 'calendar':
        calendar = calendarKind(value);
        break;
    }
  }
  if (skeleton) format.skeleton = zonedTimeSkeleton(skeleton);
  // The engine needs both the converted date and the calendar's patterns.
  format.ca = calendar;
  return { format, calendar };
}

const ZONE_FIELDS = /[zZOvVxX]/;
const TIME_FIELDS = /[hHkKjJCmsSAabB]/;

/**
 * A skeleton that asks for a time zone but no time of day. The reference's CLDR data has
 * no hour-only formats with a zone (`Hv`, `HH'h' v`), so its best match is hour and minute
 * with the zone: `{t|datetime xyz foo}` is `2017, 14:26 EDT` (PLUGINS §11), where the data of
 * @phensley/cldr 1.14 would give `2017, 14h EDT`. Asking for `Hm` as well selects that match.
 */
function zonedTimeSkeleton(skeleton: string): string {
  return ZONE_FIELDS.test(skeleton) && !TIME_FIELDS.test(skeleton) ? skeleton + 'Hm' : skeleton;
}

export function formatDateTime(cldr: CLDR, epochMs: number, zoneId: string, options: DateTimeOptions): string {
  // Most options have a plan (datetime-plan.ts): the fields written directly.
  const plan = dateTimePlan(cldr, options);
  const planned = plan === null ? null : formatDateTimePlanned(plan, epochMs, zoneId);
  return planned ?? cldr.Calendars.formatDate(toCalendarDate(cldr, options.calendar, epochMs, zoneId), options.format);
}

const INTERVAL_RESERVED = new Set(['context', 'skeleton', 'date', 'time']);

/** Options of `datetime-interval`: a bare word is the skeleton. */
export function intervalOptions(args: readonly string[]): DateIntervalFormatOptions {
  const out: DateIntervalFormatOptions = {};
  for (const { key, value } of parseOptionArgs(args)) {
    if (value === null) {
      if (!INTERVAL_RESERVED.has(key)) out.skeleton = key;
      continue;
    }
    switch (key) {
      case 'skeleton':
        out.skeleton = value;
        break;
      case 'date':
        out.date = value;
        break;
      case 'time':
        out.time = value;
        break;
      case 'context':
        if (CONTEXTS.has(value)) out.context = value as ContextType;
        break;
    }
  }
  return out;
}

export function formatInterval(cldr: CLDR, startMs: number, endMs: number, zoneId: string, options: DateIntervalFormatOptions): string {
  // Most pairs have a plan (interval-plan.ts): the fields written directly.
  return formatIntervalPlanned(cldr, options, startMs, endMs, zoneId) ?? cldr.Calendars.formatDateInterval({ date: startMs, zoneId }, { date: endMs, zoneId }, options);
}

// ---- relative time -----------------------------------------------------------------------

const FIELDS = new Set<string>(['year', 'quarter', 'month', 'week', 'day', 'hour', 'minute', 'second', 'millis']);
const FIELD_WIDTHS = new Set<string>(['short', 'narrow', 'wide']);

/** Options of `relative-time` (PLUGINS §11 and the number options of §15.3). */
export function relativeTimeOptions(args: readonly string[]): RelativeTimeFormatOptions {
  const out: RelativeTimeFormatOptions = {};
  for (const { key, value } of parseOptionArgs(args)) {
    const v = value ?? '';
    switch (key) {
      case 'context':
        if (CONTEXTS.has(v)) out.context = v as ContextType;
        break;
      case 'dayOfWeek':
        out.dayOfWeek = v === 'true';
        break;
      case 'field':
        if (FIELDS.has(v)) out.field = v as TimePeriodField;
        break;
      case 'numericOnly':
        out.numericOnly = v === 'true';
        break;
      case 'alwaysNow':
        out.alwaysNow = v === 'true';
        break;
      case 'allowWeeks':
        // Not in the reference (PLUGINS §11: TS-only); kept because the CLDR engine
        // supports it and published templates use it.
        out.allowWeeks = v === 'true';
        break;
      case 'width':
        if (FIELD_WIDTHS.has(v)) out.width = v as DateFieldWidthType;
        break;
      default:
        applyNumberOption(out, key, value);
    }
  }
  return out;
}
