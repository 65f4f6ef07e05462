// The field and amount `relative-time` prints, computed as the CLDR engine computes them
// (@phensley/cldr-core `CalendarDate.relativeTime` and its Temporal-style `difference`) without
// building the engine's calendar dates: that was ~50% of a call (time zone lookups, calendar
// fields, two passes of the difference). `relative-time` takes both instants in UTC, where a day
// is always 24 hours, so the engine's DST adjustments (`TZ.fromWall`, `roundResult`) change
// nothing and are left out, and its time difference is the same for both of its passes. Only
// the Gregorian calendar, integral instants in the years 1600–8651, and the field the engine
// picks or one given (not `quarter`); anything else stays with the engine.
// relative-period.test.ts compares the two on random pairs and fields.
import type { CLDR, RelativeTimeFormatOptions } from '@phensley/cldr';
import { type DateFields, dateFieldsInto, newFields } from './date-pattern.ts';
import { inPlannedYears, SharedPlans } from './datetime-plan.ts';

const YEAR = 1;
const MONTH = 2;
const WEEK = 4;
const DAY = 8;
const HOUR = 16;
const MINUTE = 32;
const SECOND = 64;
const MILLIS = 128;
const DEFAULT_FLAGS = YEAR | MONTH | DAY | HOUR | MINUTE | SECOND | MILLIS;

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;
const SECOND_MS = 1000;

export type PeriodField = 'year' | 'month' | 'week' | 'day' | 'hour' | 'minute' | 'second';
/** A field `relativePeriod` may be given: a `PeriodField` or `millis`. */
export type PeriodKey = PeriodField | 'millis';

interface Period {
  year: number;
  month: number;
  week: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millis: number;
}

const FIELD_FLAGS: Record<keyof Period, number> = { year: YEAR, month: MONTH, week: WEEK, day: DAY, hour: HOUR, minute: MINUTE, second: SECOND, millis: MILLIS };
const FIELDS_IN_ORDER: readonly (keyof Period)[] = ['year', 'month', 'week', 'day', 'hour', 'minute', 'second', 'millis'];

/** The result of `relativePeriod`, one record reused: read it before the next call. */
export interface RelativePeriod {
  field: PeriodField;
  amount: number;
}

const out: RelativePeriod = { field: 'second', amount: 0 };
const period: Period = { year: 0, month: 0, week: 0, day: 0, hour: 0, minute: 0, second: 0, millis: 0 };
const one = newFields();
const two = newFields();
const scratch = newFields();

/** A field `relativePeriod` can be given: the engine's time period fields (not `quarter`). */
export function isPeriodField(name: string | undefined): name is PeriodKey {
  return name !== undefined && Object.prototype.hasOwnProperty.call(FIELD_FLAGS, name);
}

/**
 * The field and amount the engine's `formatRelativeTime(start, end, { field, allowWeeks })`
 * formats, both instants in UTC (the engine's `[field, amount]` of `relativeTime`, with
 * milliseconds as seconds); null outside the years 1600–8651, for NaN or a fractional instant.
 */
export function relativePeriod(startMs: number, endMs: number, includeWeeks: boolean, given?: PeriodKey): RelativePeriod | null {
  // A fractional instant (a host's "now") is left to the engine, which rounds its time of day.
  if (!Number.isInteger(startMs) || !Number.isInteger(endMs)) return null;
  const a = dateFieldsInto(one, startMs, 'UTC');
  const b = dateFieldsInto(two, endMs, 'UTC');
  if (!inPlannedYears(a.year) || !inPlannedYears(b.year)) return null;
  // Without a field, the engine's two passes: every field without fractions, to pick the
  // largest that is not zero; then that field alone, with the smaller ones as its fraction.
  timeSpan(startMs, endMs);
  let field: keyof Period = 'millis';
  if (given !== undefined) field = given;
  else {
    difference(DEFAULT_FLAGS, MILLIS, false, includeWeeks, period);
    for (const f of FIELDS_IN_ORDER) {
      if (period[f]) {
        field = f;
        break;
      }
    }
  }
  const flag = FIELD_FLAGS[field];
  difference(flag, flag, true, includeWeeks, period);
  const amount = period[field] || 0;
  if (field === 'millis') {
    out.field = 'second';
    out.amount = amount / 1000.0;
  } else {
    out.field = field;
    out.amount = amount;
  }
  return out;
}

/** Days since 1970-01-01 of a valid proleptic Gregorian date (Howard Hinnant's days_from_civil). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

let ymYear = 0;
let ymMonth = 0;

/** The engine's `adjustYM`: a month outside 1–12 carried into the year (into `ymYear`, `ymMonth`). */
function adjustYM(year: number, month: number): void {
  let m = month - 1;
  ymYear = year + Math.floor(m / 12);
  m %= 12;
  if (m < 0) m += 12;
  ymMonth = m + 1;
}

/** The engine's `greaterThanYMD`: whether (y1, m1, d1), not clamped, is past `date2` in the direction `sign`. */
function greaterThanYMD(sign: number, y1: number, m1: number, d1: number, date2: DateFields): boolean {
  if (y1 !== date2.year) return sign * (y1 - date2.year) > 0;
  if (m1 !== date2.month) return sign * (m1 - date2.month) > 0;
  if (d1 !== date2.day) return sign * (d1 - date2.day) > 0;
  return false;
}

// The engine's `timeDifference` of the two instants, the same for both of its passes and so
// made once (`timeSpan`): the sign of end against start, the time left over after whole days,
// and (in `scratch`) the end's date moved back a day or two towards the start, unless both
// instants fall on one day.
let spanSign = 0;
let spanMillis = 0;
let spanDays = false;

function timeSpan(e1: number, e2: number): void {
  spanSign = e1 < e2 ? -1 : e1 > e2 ? 1 : 0;
  const d1 = Math.floor(e1 / DAY_MS);
  const d2 = Math.floor(e2 / DAY_MS);
  spanDays = d1 !== d2;
  if (!spanDays) {
    spanMillis = e2 - e1;
    return;
  }
  // The end moved back until the time of day left over has the sign of the whole difference.
  const incr = -spanSign;
  const ms1 = e1 - d1 * DAY_MS;
  let dayshift = 0;
  const maxshift = incr === 1 ? 2 : 1;
  let delta = e2 - d2 * DAY_MS - ms1;
  if (Math.sign(delta) === -incr) dayshift++;
  let intermediate = d2;
  for (; dayshift <= maxshift; dayshift++) {
    intermediate = d2 - dayshift * incr;
    delta = e2 - (intermediate * DAY_MS + ms1);
    if (Math.sign(delta) !== -incr) break;
  }
  spanMillis = delta;
  dateFieldsInto(scratch, intermediate * DAY_MS, 'UTC');
}

/**
 * The engine's `difference(date1, date2, options)` in UTC, into `r`, from `timeSpan`. Its
 * `roundResult` is left out: in UTC the day it measures is 24 hours, longer than any time of
 * day `timeSpan` leaves over, so it never changes the result.
 */
function difference(flags: number, smallest: number, fractions: boolean, includeWeeks: boolean, r: Period): void {
  r.year = r.month = r.week = r.day = r.hour = r.minute = r.second = r.millis = 0;
  if (spanSign === 0) return;
  if (spanDays) dateDifference(scratch, -spanSign, flags, smallest, fractions, includeWeeks, r);
  r.millis = spanMillis;
  if (!(flags & DAY)) {
    r.millis += r.day * DAY_MS;
    r.day = 0;
  }
  if (fractions) {
    if (smallest <= DAY) rollDateFractions(smallest, r);
    else rollTimeFractions(smallest, r);
    return;
  }
  if (flags & HOUR) {
    r.hour = (r.millis / HOUR_MS) | 0;
    r.millis -= r.hour * HOUR_MS;
  }
  if (flags & MINUTE) {
    r.minute = (r.millis / MINUTE_MS) | 0;
    r.millis -= r.minute * MINUTE_MS;
  }
  if (flags & SECOND) {
    r.second = (r.millis / SECOND_MS) | 0;
    r.millis -= r.second * SECOND_MS;
  }
  if (!(flags & MILLIS)) r.millis = 0;
}

/** The engine's `dateDifference`, from the start's date (`one`) to `end`'s. */
function dateDifference(end: DateFields, incr: number, flags: number, smallest: number, fractions: boolean, includeWeeks: boolean, r: Period): void {
  if (flags & (YEAR | MONTH)) {
    let guessYears = end.year - one.year;
    if (guessYears !== 0) guessYears -= incr;
    while (!greaterThanYMD(incr, one.year + guessYears, one.month, one.day, end)) {
      r.year = guessYears;
      guessYears += incr;
    }
    let guessMonths = incr;
    adjustYM(one.year + r.year, one.month + guessMonths);
    while (!greaterThanYMD(incr, ymYear, ymMonth, one.day, end)) {
      r.month = guessMonths;
      guessMonths += incr;
      adjustYM(ymYear, ymMonth + incr);
    }
    if (!(flags & YEAR)) {
      r.month += r.year * 12;
      r.year = 0;
    } else if (!(flags & MONTH) && ((!fractions && smallest === YEAR) || smallest !== YEAR)) {
      r.month = 0;
    }
  }
  adjustYM(one.year + r.year, one.month + r.month);
  const month = Math.min(12, Math.max(1, ymMonth));
  const clampedDay = Math.min(daysInMonth(ymYear, month), Math.max(1, one.day));
  let day = daysFromCivil(end.year, end.month, end.day) - daysFromCivil(ymYear, month, clampedDay);
  let week = 0;
  if ((includeWeeks && flags === DEFAULT_FLAGS) || flags & WEEK) {
    week = Math.trunc(day / 7);
    day %= 7;
  }
  r.day = day;
  r.week = week;
}

/** The engine's `rollDateFractions`: the smaller fields as a fraction of the smallest date field. */
function rollDateFractions(smallest: number, r: Period): void {
  const days = r.day + r.millis / DAY_MS;
  r.millis = 0;
  if (smallest === YEAR) {
    r.year += r.month / 12 + (r.week * 7 + days) / 365.25;
    r.month = r.week = r.day = 0;
  } else if (smallest === MONTH) {
    r.month += (r.week * 7 + days) / 30.44;
    r.week = r.day = 0;
  } else if (smallest === WEEK) {
    r.week += days / 7;
    r.day = 0;
  } else if (smallest === DAY) {
    r.day = days;
  }
}

/** The engine's `rollTimeFractions`. */
function rollTimeFractions(smallest: number, r: Period): void {
  if (smallest === HOUR) {
    r.hour += (r.minute * MINUTE_MS + r.second * SECOND_MS + r.millis) / HOUR_MS;
    r.minute = r.second = 0;
  }
  if (smallest === MINUTE) {
    r.minute = (r.second * MINUTE_MS + r.millis) / MINUTE_MS;
    r.second = 0;
  }
  if (smallest === SECOND) r.second = r.millis / SECOND_MS;
  if (smallest !== MILLIS) r.millis = 0;
}

const gregorianBundles = new WeakMap<CLDR, boolean>();

/**
 * Whether the engine takes dates in this locale in the Gregorian calendar: it converts both
 * instants of `formatRelativeTime` to the locale's calendar (a `-u-ca-` extension, or its
 * region's preference: Buddhist in Thailand, Persian in Iran). Told once per bundle by a date
 * it formats both ways; another calendar is left to the engine.
 */
export function usesGregorian(cldr: CLDR): boolean {
  let gregorian = gregorianBundles.get(cldr);
  if (gregorian === undefined) {
    const probe = { date: Date.UTC(2001, 0, 31, 12), zoneId: 'UTC' };
    gregorian = cldr.Calendars.formatDate(probe, { skeleton: 'GyMMMd' }) === cldr.Calendars.formatDate(probe, { skeleton: 'GyMMMd', ca: 'gregory' });
    gregorianBundles.set(cldr, gregorian);
  }
  return gregorian;
}

/** The options of `relative-time` that are not number options: with only these the amount is rounded to an integer. */
const WORD_OPTIONS = new Set(['context', 'dayOfWeek', 'field', 'numericOnly', 'alwaysNow', 'allowWeeks', 'width']);

/** Largest rounded amount whose text is kept: larger ones (centuries of seconds) go to the engine each time. */
const KEPT_AMOUNTS = 512;

type Texts = Record<string, (string | undefined)[]>;

// Per options (found by the object a call site binds, then by its text, so that call sites
// and compiles with the same options share them, as date plans are: datetime-plan.ts) and
// bundle: the texts by field, at 2k for an amount rounding to k and 2k + 1 for -k. Null for
// options with number options, whose texts are not kept.
const textsByOptions = new WeakMap<RelativeTimeFormatOptions, WeakMap<CLDR, Texts> | null>();
const sharedTexts = new SharedPlans<RelativeTimeFormatOptions, Texts>();

/**
 * `cldr.Calendars.formatRelativeTimeField(amount, field, options)`. With no number options the
 * engine rounds the amount half-even to an integer (`adjustDecimal`, pattern `0`) and the text
 * depends only on that integer and the amount's sign, so the text of each (field, integer,
 * sign) is asked of the engine once and kept: the engine's call was 56% of a `relative-time`
 * after its field and amount were computed here (CPU profile of fresh instants, 2026-11-29),
 * and the amounts a page prints are few (seconds to 59, days to 6, months to 11, a few years).
 */
export function relativeTimeText(cldr: CLDR, options: RelativeTimeFormatOptions, field: PeriodField, amount: number): string {
  let byBundle = textsByOptions.get(options);
  if (byBundle === undefined) {
    byBundle = Object.keys(options).every((k) => WORD_OPTIONS.has(k)) ? sharedTexts.slotsOf(options) : null;
    textsByOptions.set(options, byBundle);
  }
  const abs = Math.abs(amount);
  if (byBundle === null || !(abs < KEPT_AMOUNTS)) return cldr.Calendars.formatRelativeTimeField(amount, field, options);
  // Half-even on the double is half-even on its shortest decimal text, which the engine rounds:
  // a double is exactly n.5 when and only when that text is.
  const floor = Math.floor(abs);
  const frac = abs - floor;
  const k = frac > 0.5 || (frac === 0.5 && floor % 2 === 1) ? floor + 1 : floor;
  const at = 2 * k + (amount < 0 ? 1 : 0);
  let texts = byBundle.get(cldr);
  if (texts === undefined) byBundle.set(cldr, (texts = {}));
  const row = (texts[field] ??= []);
  return (row[at] ??= cldr.Calendars.formatRelativeTimeField(amount, field, options));
}
