// The strftime-like pattern language of the `date` formatter (PLUGINS §14). A pattern is
// compiled once into a list of steps; formatting walks the steps over calendar fields
// computed by hand from the epoch and the zone offset. That is several times faster than
// asking Intl.DateTimeFormat for parts on every call, and it lets `%Z` print the tz
// abbreviations (`JST`, `EDT`) that Intl does not give for every zone.
import { narrowText } from '../../engine/plugin-api.ts';
import { baseCldr, cldrFor, MS_PER_DAY, resolveZone, zoneAt } from './cldr.ts';

/** One field code (a letter of §14.3, or an internal code for composite expansions). */
type FieldCode =
  | 'a' | 'A' | 'b' | 'B' | 'C' | 'd' | 'e' | 'g' | 'G' | 'H' | 'i' | 'I' | 'j' | 'k' | 'l'
  | 'm' | 'M' | 'N' | 'p' | 'P' | 'q' | 's' | 'S' | 'u' | 'U' | 'V' | 'w' | 'y' | 'Y' | 'z' | 'Z'
  /** day of month, unpadded (inside `%c`) */
  | 'day';

export type DateStep =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'field'; readonly code: FieldCode; /** Index in FIELD_CODES: `field` switches on a number. */ readonly id: number };

const FIELD_CODES: readonly FieldCode[] = ['a', 'A', 'b', 'B', 'C', 'd', 'day', 'e', 'g', 'G', 'H', 'i', 'I', 'j', 'k', 'l', 'm', 'M', 'N', 'p', 'P', 'q', 's', 'S', 'u', 'U', 'V', 'w', 'y', 'Y', 'z', 'Z'];

function fieldStep(code: FieldCode): DateStep {
  return { kind: 'field', code, id: FIELD_CODES.indexOf(code) };
}

export interface CompiledDatePattern {
  readonly steps: readonly DateStep[];
  /** The steps as parallel arrays for formatting: a field id, or -1 for the text at the same index. */
  readonly ids: readonly number[];
  readonly texts: readonly string[];
  /** True when a step prints a locale-dependent name. */
  readonly usesNames: boolean;
}

// Composite codes expand to primitive steps at compile time.
const COMPOSITES: Record<string, string> = {
  c: '%a, %b \u0000day, %Y %i:%M:%S %p %Z',
  D: '%m/%d/%y',
  F: '%Y-%m-%d',
  r: '%i:%M:%S %p',
  R: '%H:%M',
  T: '%H:%M:%S',
  v: '%e-%b-%Y',
  x: '%m/%d/%Y',
  X: '%I:%M:%S %p',
};

const PRIMITIVES = new Set('aAbBCdeGgHiIjklmMNpPqsSuUVwWyYzZh');
const NAME_CODES = new Set(['a', 'A', 'b', 'B']);

const patternCache = new Map<string, CompiledDatePattern>();

/** Compiles a `%` pattern (cached per pattern text). */
export function compileDatePattern(pattern: string): CompiledDatePattern {
  let compiled = patternCache.get(pattern);
  if (!compiled) {
    const steps: DateStep[] = [];
    scan(pattern, steps, false);
    const merged = mergeText(steps);
    compiled = {
      steps: merged,
      ids: merged.map((s) => (s.kind === 'field' ? s.id : -1)),
      texts: merged.map((s) => (s.kind === 'text' ? s.text : '')),
      usesNames: steps.some((s) => s.kind === 'field' && NAME_CODES.has(s.code)),
    };
    if (patternCache.size > 4096) patternCache.clear();
    patternCache.set(pattern, compiled);
  }
  return compiled;
}

// `internal` is set while expanding a composite, the only place the unpadded-day marker
// may appear (so a user pattern containing NUL cannot reach it).
function scan(pattern: string, steps: DateStep[], internal: boolean): void {
  let text = '';
  const flush = () => {
    if (text) steps.push({ kind: 'text', text });
    text = '';
  };
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (internal && c === '\u0000' && pattern.startsWith('\u0000day', i)) {
      flush();
      steps.push(fieldStep('day'));
      i += 3;
      continue;
    }
    if (c !== '%') {
      text += c;
      continue;
    }
    if (i + 1 >= pattern.length) {
      text += '%';
      continue;
    }
    const code = pattern[++i];
    if (code === '%') text += '%';
    else if (code === 'n') text += '\n';
    else if (code === 't') text += '\t';
    else if (COMPOSITES[code] !== undefined) {
      flush();
      scan(COMPOSITES[code], steps, true);
    } else if (PRIMITIVES.has(code)) {
      flush();
      const field = (code === 'h' ? 'b' : code === 'W' ? 'U' : code) as FieldCode;
      steps.push(fieldStep(field));
    } else text += '%' + code;
  }
  flush();
}

function mergeText(steps: DateStep[]): DateStep[] {
  const out: DateStep[] = [];
  for (const s of steps) {
    const last = out[out.length - 1];
    if (s.kind === 'text' && last?.kind === 'text') out[out.length - 1] = { kind: 'text', text: last.text + s.text };
    else out.push(s);
  }
  return out;
}

// ---- calendar fields ------------------------------------------------------------------

export interface DateFields {
  year: number;
  /** 1–12 */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millis: number;
  /** 0 = Sunday … 6 = Saturday */
  weekday: number;
  /** 1-based day of the year */
  dayOfYear: number;
  offsetMs: number;
  abbr: string;
}

/**
 * Writes the proleptic Gregorian civil date of a day number (days since 1970-01-01) into
 * `f.year`, `f.month` and `f.day`.
 */
function civilFromDays(days: number, f: DateFields): void {
  // Howard Hinnant's days_from_civil inverse; exact for the whole double range we accept.
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const month = mp < 10 ? mp + 3 : mp - 9;
  f.day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  f.month = month;
  f.year = yoe + era * 400 + (month <= 2 ? 1 : 0);
}

function isLeap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

const CUMULATIVE_DAYS = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334];

function dayOfYear(year: number, month: number, day: number): number {
  return CUMULATIVE_DAYS[month - 1] + day + (month > 2 && isLeap(year) ? 1 : 0);
}

/** Calendar fields of an instant in a resolved zone. */
export function dateFields(epochMs: number, zoneId: string): DateFields {
  return fillDateFields(newFields(), epochMs, zoneId);
}

/** `dateFields` written into a record the caller keeps (an interval's two dates, each its own). */
export function dateFieldsInto(f: DateFields, epochMs: number, zoneId: string): DateFields {
  return fillDateFields(f, epochMs, zoneId);
}

export function newFields(): DateFields {
  return { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0, millis: 0, weekday: 0, dayOfYear: 0, offsetMs: 0, abbr: '' };
}

let lastDays = Number.NaN;
const lastCivil = { year: 0, month: 0, day: 0 };

function fillDateFields(f: DateFields, epochMs: number, zoneId: string): DateFields {
  const zone = zoneAt(zoneId, epochMs);
  const local = epochMs + zone.offset;
  const days = Math.floor(local / MS_PER_DAY);
  const msOfDay = local - days * MS_PER_DAY;
  // Consecutive instants usually fall on one day (a thread of comments).
  if (days === lastDays) {
    f.year = lastCivil.year;
    f.month = lastCivil.month;
    f.day = lastCivil.day;
  } else {
    civilFromDays(days, f);
    lastDays = days;
    lastCivil.year = f.year;
    lastCivil.month = f.month;
    lastCivil.day = f.day;
  }
  f.hour = Math.floor(msOfDay / 3_600_000);
  f.minute = Math.floor(msOfDay / 60_000) % 60;
  f.second = Math.floor(msOfDay / 1000) % 60;
  f.millis = msOfDay % 1000;
  f.weekday = (((days + 4) % 7) + 7) % 7;
  f.dayOfYear = dayOfYear(f.year, f.month, f.day);
  f.offsetMs = zone.offset;
  f.abbr = zone.abbr;
  return f;
}

// ---- week numbers ---------------------------------------------------------------------

/**
 * `%U`/`%W`: the reference asks its calendar engine for week-of-year with first day 0 and
 * minimal days 0, which makes weeks start on Saturday; week 1 holds 1 January, and a week
 * straddling 31 December is week 1 of the next year (PLUGINS §14.4).
 */
export function saturdayWeekOfYear(f: DateFields): number {
  // Days since the most recent Saturday (Saturday 0, Sunday 1, …, Friday 6).
  const rel = (f.weekday + 1) % 7;
  const weekStart = f.dayOfYear - rel;
  const daysInYear = isLeap(f.year) ? 366 : 365;
  if (weekStart + 6 > daysInYear) return 1;
  const jan1Rel = (((rel - (f.dayOfYear - 1)) % 7) + 7) % 7;
  return Math.floor((f.dayOfYear - 1 + jan1Rel) / 7) + 1;
}

/** ISO-8601 week number and week-based year (Monday start, week 1 holds ≥ 4 days). */
export function isoWeek(f: DateFields): { week: number; year: number } {
  const isoDow = f.weekday === 0 ? 7 : f.weekday;
  // The Thursday of this ISO week decides its year.
  const thursday = f.dayOfYear - isoDow + 4;
  let year = f.year;
  let doy = thursday;
  if (thursday < 1) {
    year -= 1;
    doy = thursday + (isLeap(year) ? 366 : 365);
  } else if (thursday > (isLeap(year) ? 366 : 365)) {
    doy = thursday - (isLeap(year) ? 366 : 365);
    year += 1;
  }
  return { week: Math.floor((doy - 1) / 7) + 1, year };
}

// ---- locale names ---------------------------------------------------------------------

export interface DateNames {
  readonly monthsShort: readonly string[];
  readonly monthsLong: readonly string[];
  /** Sunday first */
  readonly weekdaysShort: readonly string[];
  readonly weekdaysLong: readonly string[];
}

const namesCache = new Map<string, DateNames>();

/**
 * CLDR stand-alone month and weekday names of a locale (English for `none`). The engine's
 * field tables are the stand-alone forms; the `middle-of-text` context keeps them as they
 * are in the data (`mai`, `viernes`), whereas its `standalone` context would capitalize.
 */
let lastNamesLocale = '';
let lastNames: DateNames | null = null;

export function dateNames(locale: string): DateNames {
  if (locale === lastNamesLocale && lastNames !== null) return lastNames;
  let names = namesCache.get(locale);
  if (!names) {
    const cldr = cldrFor(locale) ?? baseCldr();
    const table = (fn: 'months' | 'weekdays', width: 'abbreviated' | 'wide', n: number): string[] => {
      const raw = cldr.Calendars[fn]({ context: 'middle-of-text', width }) as Record<string, string>;
      const out: string[] = [];
      // The locale pack's strings are two-byte (its text holds characters beyond Latin-1):
      // printed as they are, each would make its page chunk two-byte (engine/runtime.ts).
      for (let i = 1; i <= n; i++) out.push(narrowText(raw[String(i)] ?? ''));
      return out;
    };
    names = {
      monthsShort: table('months', 'abbreviated', 12),
      monthsLong: table('months', 'wide', 12),
      weekdaysShort: table('weekdays', 'abbreviated', 7),
      weekdaysLong: table('weekdays', 'wide', 7),
    };
    namesCache.set(locale, names);
  }
  lastNamesLocale = locale;
  lastNames = names;
  return names;
}

const scratchFields = newFields();
let scratchEpoch = Number.NaN;
let scratchZone = '';

// ---- formatting -----------------------------------------------------------------------

// '00'…'99', so that the common two-digit fields allocate nothing.
const TWO_DIGITS = Array.from({ length: 100 }, (_, i) => (i < 10 ? '0' + i : String(i)));

/** `n` with at least two digits (`07`); the table covers every two-digit field. */
export function pad2(n: number): string {
  return n >= 0 && n < 100 && n === Math.floor(n) ? TWO_DIGITS[n] : n < 10 && n >= 0 ? '0' + n : String(n);
}

function padZero(n: number, width: number): string {
  const neg = n < 0;
  let s = String(Math.abs(n));
  while (s.length < width) s = '0' + s;
  return neg ? '-' + s : s;
}

function space2(n: number): string {
  return n < 10 && n >= 0 ? ' ' + n : String(n);
}

function hour12(h: number): number {
  const x = h % 12;
  return x === 0 ? 12 : x;
}

function offsetText(ms: number): string {
  const sign = ms < 0 ? '-' : '+';
  const minutes = Math.floor(Math.abs(ms) / 60_000);
  return sign + pad2(Math.floor(minutes / 60)) + ':' + pad2(minutes % 60);
}

function field(id: number, f: DateFields, epochMs: number, names: DateNames | null): string {
  switch (id) {
    case 0: // a
      return names!.weekdaysShort[f.weekday];
    case 1: // A
      return names!.weekdaysLong[f.weekday];
    case 2: // b
      return names!.monthsShort[f.month - 1];
    case 3: // B
      return names!.monthsLong[f.month - 1];
    case 4: // C
      return pad2(Math.trunc(f.year / 100));
    case 5: // d
      return pad2(f.day);
    case 6: // day
      return String(f.day);
    case 7: // e
      return space2(f.day);
    case 8: // g
      return pad2(((isoWeek(f).year % 100) + 100) % 100);
    case 9: // G
      return padZero(isoWeek(f).year, 4);
    case 10: // H
      return pad2(f.hour);
    case 11: // i
      return String(hour12(f.hour));
    case 12: // I
      return pad2(hour12(f.hour));
    case 13: // j
      return padZero(f.dayOfYear, 3);
    case 14: // k
      return space2(f.hour);
    case 15: // l
      return space2(hour12(f.hour));
    case 16: // m
      return pad2(f.month);
    case 17: // M
      return pad2(f.minute);
    case 18: // N
      return padZero(f.millis * 1_000_000, 9);
    case 19: // p
      return f.hour < 12 ? 'AM' : 'PM';
    case 20: // P
      return f.hour < 12 ? 'am' : 'pm';
    case 21: // q
      return String(Math.floor((f.month - 1) / 3) + 1);
    case 22: // s
      return String(Math.trunc(epochMs / 1000));
    case 23: // S
      return pad2(f.second);
    case 24: // u
      return String(f.weekday === 0 ? 7 : f.weekday);
    case 25: // U
      return pad2(saturdayWeekOfYear(f));
    case 26: // V
      return pad2(isoWeek(f).week);
    case 27: // w
      return String(f.weekday);
    case 28: // y
      return pad2(((f.year % 100) + 100) % 100);
    case 29: // Y
      return String(f.year);
    case 30: // z
      return offsetText(f.offsetMs);
    case 31: // Z
      return f.abbr;
  }
  throw new Error(`unknown date field ${id}`);
}

/**
 * Renders a compiled pattern for an instant, a zone text (unknown ⇒ UTC) and a locale.
 * (Until 2026-11-28 the results were also kept per (pattern, instant, zone, locale) in a
 * table of 256 slots: it paid only when a page printed the same instants on every render,
 * and cost its lookup and writes on every new one; with the zone found from its transition
 * table the whole call costs about what that lookup did. bench/RESULTS.md, event-list.)
 */
export function formatDatePattern(pattern: CompiledDatePattern, epochMs: number, zoneText: string, locale: string): string {
  return formatFields(pattern, epochMs, resolveZone(zoneText), locale);
}

/**
 * Calendar fields of an instant in a resolved zone, in one record shared by every caller:
 * read it before the next call. Formatting is synchronous and never re-entered, and pages
 * often print one instant twice in a row (a `datetime` attribute and its text).
 */
export function sharedDateFields(epochMs: number, zoneId: string): DateFields {
  const f = scratchFields;
  if (epochMs !== scratchEpoch || zoneId !== scratchZone || Number.isNaN(epochMs)) {
    fillDateFields(f, epochMs, zoneId);
    scratchEpoch = epochMs;
    scratchZone = zoneId;
  }
  return f;
}

function formatFields(pattern: CompiledDatePattern, epochMs: number, zoneId: string, locale: string): string {
  const f = sharedDateFields(epochMs, zoneId);
  const names = pattern.usesNames ? dateNames(locale) : null;
  let out = '';
  const ids = pattern.ids;
  const texts = pattern.texts;
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i];
    out += id < 0 ? texts[i] : field(id, f, epochMs, names);
  }
  return out;
}
