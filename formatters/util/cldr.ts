// One CLDR engine per process, one locale bundle per execution locale. The reference's
// CLDR output comes from cldr-engine, whose TypeScript twin is @phensley/cldr, so every
// CLDR-based plugin formats through it rather than through Node's ICU (whose data and
// spacing characters differ in places). Resource packs are read synchronously the first
// time a language is asked for; later calls are a Map lookup.
import { readFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { CLDRFramework } from '@phensley/cldr';
import { textOf, type PluginContext, type Ref } from '../../engine/plugin-api.ts';
import type {
  CLDR,
  CalendarDate,
  CurrencyFormatOptions,
  DecimalFormatOptions,
  NumberFormatOptions,
  RoundingModeType,
} from '@phensley/cldr';
import { TZ } from '@phensley/timezone';

const require = createRequire(import.meta.url);
const PACK_DIR = require.resolve('@phensley/cldr/packs/en.json').replace(/en\.json$/, '');
const FALLBACK_LANGUAGE = 'en';

function packExists(language: string): boolean {
  return /^[a-z]{2,3}$/.test(language) && existsSync(PACK_DIR + language + '.json');
}

let framework: CLDRFramework | undefined;

function getFramework(): CLDRFramework {
  if (!framework) {
    framework = new CLDRFramework({
      // A language without a pack resolves to English data instead of failing.
      loader: (language: string) =>
        readFileSync(PACK_DIR + (packExists(language) ? language : FALLBACK_LANGUAGE) + '.json', 'utf8'),
      packCacheSize: 16,
      patternCacheSize: 256,
    });
  }
  return framework;
}

const bundles = new Map<string, CLDR | null>();

/** The literal execution locale that means "no locale data". */
export const NO_LOCALE = 'none';

/**
 * The CLDR bundle for an execution locale (BCP 47, `_` accepted); null for `none`. An
 * unknown or malformed tag falls back to English (`en-US`), as the reference's default.
 */
export function cldrFor(locale: string): CLDR | null {
  let cldr = bundles.get(locale);
  if (cldr !== undefined) return cldr;
  if (locale === NO_LOCALE) cldr = null;
  else {
    const tag = locale.replace(/_/g, '-');
    const language = tag.split('-')[0].toLowerCase();
    try {
      cldr = getFramework().get(packExists(language) ? tag : 'en-US');
    } catch {
      cldr = getFramework().get('en-US');
    }
  }
  // Locales come from render options, not template data; the bound only guards misuse.
  if (bundles.size > 256) bundles.clear();
  bundles.set(locale, cldr);
  return cldr;
}

/** English bundle: time-zone data and fallbacks that do not depend on the locale. */
export function baseCldr(): CLDR {
  return cldrFor('en-US') as CLDR;
}

// ---- time zones ---------------------------------------------------------------------

const UTC = 'UTC';
const zoneIds = new Map<string, string>();

/**
 * Canonical IANA id for a zone text (aliases and case variants accepted); UTC for an
 * unknown id, including '' and the text `null` of a JSON null (PLUGINS §14.1).
 */
let lastZoneText = '';
let lastZoneId = UTC;

export function resolveZone(text: string): string {
  // A page asks for the same zone text (the same string) on every date.
  if (text === lastZoneText && text !== '') return lastZoneId;
  let id = zoneIds.get(text);
  if (id === undefined) {
    id = (text && baseCldr().Calendars.resolveTimeZoneId(text)) || UTC;
    if (zoneIds.size > 1024) zoneIds.clear();
    zoneIds.set(text, id);
  }
  lastZoneText = text;
  lastZoneId = id;
  return id;
}

/** Binds the reference to `website.timeZone` (once per template, in `bind`). */
export function timeZoneRef(ctx: { parseRef(text: string): Ref | null }): Ref | null {
  return ctx.parseRef('website.timeZone');
}

/**
 * The zone text of PLUGINS §14.1: `website.timeZone` looked up from the formatter's scope
 * outward; a present value is used as text even when it is empty or JSON null (both then
 * resolve to UTC); only a missing one falls back to the engine's default zone.
 */
export function zoneText(ctx: PluginContext, ref: Ref | null): string {
  if (ref !== null) {
    const v = ctx.resolve(ref);
    if (v !== undefined) return textOf(v);
  }
  return ctx.timeZone();
}

/** What a date prints of its zone at an instant: the UTC offset (ms) and the abbreviation. */
export interface ZoneOffset {
  readonly offset: number;
  readonly abbr: string;
}

/**
 * A zone's transition table as the time-zone library holds it: `untils[i]` is the instant
 * from which `localtime[types[i]]` applies (before the first, `localtime[0]`). The
 * library's own query (`timeZoneFromUTC`) searches this table and answers with fresh copies
 * of the record (two object spreads and an array), a tenth of a date-heavy page's render;
 * here the table is searched the same way and the record itself returned. A zone's answer
 * is constant between two transitions (about half a year), so the interval of the last
 * answer is checked first: every instant in it is answered without a search, whichever
 * instant it is (formatters/util/zone-table.test.ts checks the answers against the engine's).
 */
interface ZoneTable {
  readonly untils: readonly number[];
  readonly types: readonly number[];
  readonly localtime: readonly ZoneOffset[];
  /** The interval [from, to) of the last answer, and the answer. */
  from: number;
  to: number;
  last: ZoneOffset;
}

/**
 * The library's decoded record of a zone (id or alias). Its types declare `record` private;
 * the version is pinned (~1.14.0) and zone-table.test.ts compares every answer built from it
 * with the library's public query, so a change of shape fails there, not on a page.
 */
const tzRecords = TZ as unknown as { record(zoneId: string): [string, { untils: number[]; types: number[]; localtime: ZoneOffset[] }] | undefined };

const zoneTables = new Map<string, ZoneTable | null>();
let lastTableZone = '';
let lastTable: ZoneTable | null = null;

function zoneTable(zoneId: string): ZoneTable | null {
  if (zoneId === lastTableZone) return lastTable;
  let table = zoneTables.get(zoneId);
  if (table === undefined) {
    const rec = tzRecords.record(zoneId);
    // The interval check needs strictly increasing transitions (with two equal ones the
    // search may stop at either); any other table is left to the library.
    table = rec && increasing(rec[1].untils) ? { untils: rec[1].untils, types: rec[1].types, localtime: rec[1].localtime, from: 0, to: 0, last: rec[1].localtime[0] } : null;
    // Zone ids are canonical ids (resolveZone), a few hundred at most.
    zoneTables.set(zoneId, table);
  }
  lastTableZone = zoneId;
  lastTable = table;
  return table;
}

function increasing(a: readonly number[]): boolean {
  for (let i = 1; i < a.length; i++) if (!(a[i] > a[i - 1])) return false;
  return true;
}

/**
 * The library's search (cldr-utils `binarySearch(untils, true, t)`), step for step: the
 * index of an element equal to `t` if the search meets one, else of the last one below.
 */
function transitionIndex(untils: readonly number[], t: number): number {
  let lo = 0;
  let hi = untils.length - 1;
  while (lo <= hi) {
    const mid = lo + ((hi - lo) >> 1);
    const e = untils[mid];
    if (e < t) lo = mid + 1;
    else if (e > t) hi = mid - 1;
    else return mid;
  }
  return lo - 1;
}

/** Offset (ms) and abbreviation of a resolved zone at an instant. */
export function zoneAt(zoneId: string, epochMs: number): ZoneOffset {
  const table = zoneTable(zoneId);
  if (table !== null) {
    if (epochMs >= table.from && epochMs < table.to) return table.last;
    // NaN and other oddities (the library's search answers them too) take its own path.
    if (epochMs === epochMs) {
      const untils = table.untils;
      const i = transitionIndex(untils, epochMs);
      const info = table.localtime[i === -1 ? 0 : table.types[i]];
      table.from = i === -1 ? -Infinity : untils[i];
      table.to = i + 1 < untils.length ? untils[i + 1] : Infinity;
      table.last = info;
      return info;
    }
  }
  return baseCldr().Calendars.timeZoneFromUTC(epochMs, zoneId) ?? baseCldr().Calendars.timeZoneFromUTC(epochMs, UTC)!;
}

/**
 * A table whose last transition is this late was cut off by the library (it stops at 2037)
 * while the zone's clocks go on changing; a zone whose clocks stopped changing ends earlier.
 */
const TABLE_CUT = Date.UTC(2037, 0, 1);

export const MS_PER_DAY = 86_400_000;
/** The instants a `Date` holds; beyond them a date is invalid. */
const MAX_INSTANT = 8.64e15;

/**
 * The date of an instant in a resolved zone, as days since the epoch, where the zone's table
 * is whole, else null: after the last transition of a table cut off at 2037, for a zone
 * without a plain table, and for an instant a `Date` does not hold (NaN included). Where it
 * answers, the table agrees with the host's own zone data (Intl) on every zone but one
 * (America/Tijuana in 1970) in a scan of 1970–2037 (bench/README.md, "Error paths and
 * `same-day?`").
 */
export function tabledDay(zoneId: string, epochMs: number): number | null {
  if (!(epochMs >= -MAX_INSTANT && epochMs <= MAX_INSTANT)) return null;
  const table = zoneTable(zoneId);
  if (table === null) return null;
  const untils = table.untils;
  const last = untils.length > 0 ? untils[untils.length - 1] : -Infinity;
  if (last >= TABLE_CUT && epochMs >= last) return null;
  return Math.floor((epochMs + zoneAt(zoneId, epochMs).offset) / MS_PER_DAY);
}

// ---- calendars ----------------------------------------------------------------------

export type CalendarKind = 'gregory' | 'buddhist' | 'japanese' | 'persian' | 'iso8601';

const CALENDAR_ALIASES: Record<string, CalendarKind> = {
  gregory: 'gregory',
  gregorian: 'gregory',
  buddhist: 'buddhist',
  japanese: 'japanese',
  persian: 'persian',
  iso8601: 'iso8601',
};

/** Calendar named by a `calendar:` option; unknown names give the Gregorian calendar. */
export function calendarKind(name: string): CalendarKind {
  return CALENDAR_ALIASES[name] ?? 'gregory';
}

/** Converts an instant in a zone to a date of the given calendar. */
export function toCalendarDate(cldr: CLDR, kind: CalendarKind, epochMs: number, zoneId: string): CalendarDate {
  const zoned = { date: epochMs, zoneId };
  const c = cldr.Calendars;
  switch (kind) {
    case 'buddhist':
      return c.toBuddhistDate(zoned);
    case 'japanese':
      return c.toJapaneseDate(zoned);
    case 'persian':
      return c.toPersianDate(zoned);
    case 'iso8601':
      return c.toISO8601Date(zoned);
    default:
      return c.toGregorianDate(zoned);
  }
}

// ---- options: key:value argument lists (PLUGINS §1.1, §15.3) ------------------------

export interface OptionArg {
  readonly key: string;
  /** The text after the first ':', or null for a bare word. */
  readonly value: string | null;
}

/** Splits each argument at its first `:` (and, for `message`, also `=`). */
export function parseOptionArgs(args: readonly string[]): OptionArg[] {
  return args.map((a) => {
    const at = a.indexOf(':');
    return at < 0 ? { key: a, value: null } : { key: a.slice(0, at), value: a.slice(at + 1) };
  });
}

const ROUNDING: Record<string, RoundingModeType> = {
  ceil: 'ceiling',
  truncate: 'down',
  up: 'up',
  down: 'down',
  ceiling: 'ceiling',
  floor: 'floor',
  'half-up': 'half-up',
  'half-down': 'half-down',
  'half-even': 'half-even',
};

/** Leading ASCII digits of a value, clamped to 0…50 (`3x` → 3, `x` → 0, `-2` → 0). */
export function digitCount(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) break;
    n = Math.min(50, n * 10 + (c - 48));
  }
  return n;
}

/**
 * Applies one shared number option (§15.3) to `out`; returns false when the key is not a
 * number option, so the caller can interpret it (unknown keys are ignored by all callers).
 */
export function applyNumberOption(out: NumberFormatOptions, key: string, value: string | null): boolean {
  switch (key) {
    case 'group':
    case 'grouping':
      out.group = value === null || value === '' || value === 'true';
      return true;
    case 'no-group':
    case 'no-grouping':
      out.group = false;
      return true;
    case 'round':
    case 'rounding': {
      const mode = ROUNDING[value ?? ''];
      if (mode) out.round = mode;
      return true;
    }
    case 'minint':
    case 'minInt':
    case 'minimumIntegerDigits':
      out.minimumIntegerDigits = digitCount(value ?? '');
      return true;
    case 'maxfrac':
    case 'maxFrac':
    case 'maximumFractionDigits':
      out.maximumFractionDigits = digitCount(value ?? '');
      return true;
    case 'minfrac':
    case 'minFrac':
    case 'minimumFractionDigits':
      out.minimumFractionDigits = digitCount(value ?? '');
      return true;
    case 'maxsig':
    case 'maxSig':
    case 'maximumSignificantDigits':
      out.maximumSignificantDigits = digitCount(value ?? '');
      return true;
    case 'minsig':
    case 'minSig':
    case 'minimumSignificantDigits':
      out.minimumSignificantDigits = digitCount(value ?? '');
      return true;
    default:
      return false;
  }
}

const DECIMAL_STYLES: Record<string, DecimalFormatOptions['style']> = {
  decimal: 'decimal',
  standard: 'decimal',
  short: 'short',
  long: 'long',
  percent: 'percent',
  'percent-scaled': 'percent-scaled',
  permille: 'permille',
  'permille-scaled': 'permille-scaled',
  scientific: 'scientific',
};

/** `decimal` options (also used by `{0 number …}` / `{0 decimal …}` inside messages). */
export function decimalOptions(args: readonly string[]): DecimalFormatOptions {
  const out: DecimalFormatOptions = {};
  for (const { key, value } of parseOptionArgs(args)) {
    if (key === 'style') out.style = DECIMAL_STYLES[value ?? ''] ?? 'decimal';
    else applyNumberOption(out, key, value);
  }
  return out;
}

const CURRENCY_STYLES: Record<string, CurrencyFormatOptions['style']> = {
  symbol: 'symbol',
  standard: 'symbol',
  accounting: 'accounting',
  code: 'code',
  name: 'name',
  short: 'short',
};

/** `money` options (also used by `{0 money …}` / `{0 currency …}` inside messages). */
export function currencyOptions(args: readonly string[]): CurrencyFormatOptions {
  const out: CurrencyFormatOptions = {};
  for (const { key, value } of parseOptionArgs(args)) {
    if (key === 'style') out.style = CURRENCY_STYLES[value ?? ''] ?? 'symbol';
    else if (key === 'symbol') out.symbolWidth = value === 'narrow' ? 'narrow' : 'default';
    else applyNumberOption(out, key, value);
  }
  return out;
}
