// `datetime` without the CLDR engine on every call. A plan is built once per (options of a
// call site, locale): the engine formats a fixed set of probe instants into parts, and the
// plan keeps the parts' order and literal text and, for each field, the writer that gives
// the engine's text on every probe (a number with or without padding, or a table of names
// read from the probes: months, weekdays, day periods by hour). Rendering then computes the
// calendar fields by hand (date-pattern.ts) and writes them. Anything the probes cannot pin
// down (time zone names, eras, other numbering systems, day periods that change within an
// hour, other calendars) gets no plan and stays with the engine, as do instants outside the
// years 1600–8651. datetime-plan.test.ts compares plans with the engine on random instants,
// zones, locales and options.
import type { CLDR } from '@phensley/cldr';
import type { DateTimeOptions } from './cldr-values.ts';
import { toCalendarDate } from './cldr.ts';
import { type DateFields, dateFields, pad2, sharedDateFields } from './date-pattern.ts';

export type Writer = (f: DateFields) => string;

export interface Step {
  /** Literal text, or null for a field. */
  readonly text: string | null;
  readonly write: Writer | null;
  /** Which date of the text the field is of: 0, or 1 for an interval's end. */
  readonly side: number;
}

export interface DateTimePlan {
  readonly steps: readonly Step[];
}

const hour12 = (h: number): number => (h % 12 === 0 ? 12 : h % 12);

/** Numeric writers a field may be, tried in order. */
const NUMERIC: Record<string, readonly Writer[]> = {
  year: [(f) => String(f.year), (f) => pad2(f.year % 100)],
  month: [(f) => String(f.month), (f) => pad2(f.month)],
  day: [(f) => String(f.day), (f) => pad2(f.day)],
  hour: [(f) => String(hour12(f.hour)), (f) => pad2(hour12(f.hour)), (f) => String(f.hour), (f) => pad2(f.hour), (f) => String(f.hour % 12), (f) => String(f.hour === 0 ? 24 : f.hour)],
  minute: [(f) => String(f.minute), (f) => pad2(f.minute)],
  second: [(f) => String(f.second), (f) => pad2(f.second)],
};

/** Text fields: the key of a table filled from the probes, and how many entries it needs. */
const TABLES: Record<string, { key: (f: DateFields) => number; size: number }> = {
  month: { key: (f) => f.month - 1, size: 12 },
  weekday: { key: (f) => f.weekday, size: 7 },
  dayperiod: { key: (f) => f.hour, size: 24 },
};

/** Every month (days of one and two digits), every weekday, years whose last two digits need padding. */
export const DATE_PROBES: readonly number[] = (() => {
  const t: number[] = [];
  for (let m = 0; m < 12; m++) t.push(Date.UTC(2023, m, 3 + 2 * m, (5 * m) % 24, 7 + m, 11 + m));
  for (let d = 0; d < 7; d++) t.push(Date.UTC(2024, 1, 25 + d, 13, 59, 5));
  t.push(Date.UTC(2009, 0, 1, 0, 0, 0), Date.UTC(1999, 11, 31, 23, 59, 59), Date.UTC(2100, 5, 15, 12, 0, 0));
  return t;
})();

/** Every hour, on the hour and half past (a day period must not change within the hour). */
const TIME_PROBES: readonly number[] = (() => {
  const t: number[] = [];
  for (let h = 0; h < 24; h++) t.push(Date.UTC(2022, 10, 8, h, 0, 0), Date.UTC(2022, 10, 9, h, 30, 59));
  return t;
})();

const TIME_FIELDS = new Set(['hour', 'minute', 'second', 'dayperiod']);

export const PROBE_ZONE = 'UTC';

/** The plan for these options in this locale's bundle, or null (built once, then kept). */
export function dateTimePlan(cldr: CLDR, options: DateTimeOptions): DateTimePlan | null {
  const byLocale = plans.slotsOf(options);
  const slot = byLocale.get(cldr);
  if (slot !== undefined && slot.plan !== NOT_YET) return slot.plan;
  // A plan costs 20–70 engine calls (~2 ms cold): a call site that formats one instant (a
  // first render, a page with one date) is served by the engine, and the plan is built once
  // the host is idle (after the page is sent), or by the site's second call if that comes
  // first (a repeated section, a render loop). Built by the second call only, it made a
  // server's second render of a page with dates 3x the port's (1.8 against 0.6 ms,
  // bench:cold-start). Other call sites of the same options met while the plan waits are
  // served by the engine too, as they were when each had a plan of its own, up to
  // `SITES_BEFORE_PLAN` of them (a template compiled and rendered in a loop that never lets the
  // host be idle).
  if (slot === undefined) {
    const map = byLocale;
    const waiting: DateTimeSlot = { plan: NOT_YET, sites: 1 };
    map.set(cldr, waiting);
    waitingSites.add(options);
    whenIdle(() => {
      if (waiting.plan === NOT_YET) waiting.plan = buildPlan(cldr, options);
    });
    return null;
  }
  if (!waitingSites.has(options)) {
    waitingSites.add(options);
    if (++slot.sites < SITES_BEFORE_PLAN) return null;
  }
  return (slot.plan = buildPlan(cldr, options));
}

/** Call sites of one plan's options served by the engine while it waits, at most (`dateTimePlan`). */
const SITES_BEFORE_PLAN = 8;

/** A plan, or `NOT_YET` while it waits, and the call sites that have asked for it meanwhile. */
interface DateTimeSlot {
  plan: DateTimePlan | null;
  sites: number;
}

/** Options objects (call sites) that have asked for a plan that was not built yet. */
const waitingSites = new WeakSet<DateTimeOptions>();

/**
 * Runs `task` after the current turn of the host's event loop (Node's `setImmediate`, else a
 * zero timeout), without keeping a process alive for it; where there is neither, never (the
 * second call builds the plan). A task that throws is dropped: the call site's next call
 * builds the plan (and throws) where the engine's errors are handled.
 */
export function whenIdle(task: () => void): void {
  const g = globalThis as { setImmediate?: (f: () => void) => unknown; setTimeout?: (f: () => void, ms: number) => unknown };
  const run = (): void => {
    try {
      task();
    } catch {
      // left to the next call
    }
  };
  const handle = typeof g.setImmediate === 'function' ? g.setImmediate(run) : typeof g.setTimeout === 'function' ? g.setTimeout(run, 0) : undefined;
  (handle as { unref?: () => void } | undefined)?.unref?.();
}

/** Longest options text (`JSON.stringify`) a plan is shared by; longer options keep their own. */
const MAX_SHARED_KEY = 512;
/** Options texts shared plans are kept for at most; the table is emptied when full. */
const MAX_SHARED = 512;

/**
 * Plans (or other locale work kept per options: relative-period.ts) by the options a call site
 * binds: found by the options object itself (one lookup a call), and on a call site's first
 * call by the options' text, so that every call site with the same options shares one plan per
 * bundle, in this template and in the next one compiled.
 * Keyed by the object alone, each compile of a template made new plans: a template compiled
 * and rendered once (a preview, a page's first render after a deploy) had its dates formatted
 * by the engine every time (conformance `f-datetime-1`, thirteen call sites, compile and first
 * render: 116 µs against the port's 61; bench/README.md, "Date plans shared by options").
 * The bundles (one per locale) and the options objects live as long as what uses them.
 */
export class SharedPlans<O extends object, S> {
  private readonly byObject = new WeakMap<O, WeakMap<CLDR, S>>();
  private readonly byText = new Map<string, WeakMap<CLDR, S>>();

  slotsOf(options: O): WeakMap<CLDR, S> {
    let slots = this.byObject.get(options);
    if (slots !== undefined) return slots;
    const text = JSON.stringify(options);
    if (text.length > MAX_SHARED_KEY) slots = new WeakMap();
    else {
      slots = this.byText.get(text);
      if (slots === undefined) {
        if (this.byText.size >= MAX_SHARED) this.byText.clear();
        this.byText.set(text, (slots = new WeakMap()));
      }
    }
    this.byObject.set(options, slots);
    return slots;
  }
}

const plans = new SharedPlans<DateTimeOptions, DateTimeSlot>();
export const NOT_YET: DateTimePlan = { steps: [] };

function buildPlan(cldr: CLDR, options: DateTimeOptions): DateTimePlan | null {
  if (options.calendar !== 'gregory') return null;
  const partsAt = (t: number) => cldr.Calendars.formatDateToParts(toCalendarDate(cldr, 'gregory', t, PROBE_ZONE), options.format);
  const first = partsAt(DATE_PROBES[0]);
  const samples: Sample[] = [];
  for (const t of probesFor(first)) samples.push({ parts: partsAt(t), sides: [dateFields(t, PROBE_ZONE)] });
  const steps = stepsFromSamples(samples);
  return steps === null ? null : { steps };
}

/** A probe's text from the engine in parts, and the calendar fields of each date it formats. */
export interface Sample {
  readonly parts: readonly { readonly type: string; readonly value: string }[];
  readonly sides: readonly DateFields[];
}

/** The probe instants for a text with these parts: the time probes too when a part is a time field. */
export function probesFor(parts: readonly { readonly type: string }[]): readonly number[] {
  return parts.some((p) => TIME_FIELDS.has(p.type)) ? [...DATE_PROBES, ...TIME_PROBES] : DATE_PROBES;
}

/**
 * Steps that write every sample's text from its sides' fields, or null where the samples do
 * not agree on their parts and literals, or a field is neither a number nor a complete table
 * of one side's fields. A field equal on every side in every sample may be written from any.
 */
export function stepsFromSamples(samples: readonly Sample[]): Step[] | null {
  const first = samples[0].parts;
  const sides = samples[0].sides.length;
  const n = first.length;
  // Per field part: the (side, numeric writer) pairs still agreeing with every sample, and a
  // table per side.
  const alive: ({ side: number; write: Writer }[] | null)[] = [];
  const tables: ((Map<number, string> | null)[] | null)[] = [];
  for (const p of first) {
    if (p.type === 'literal') {
      alive.push(null);
      tables.push(null);
      continue;
    }
    if (NUMERIC[p.type] === undefined && TABLES[p.type] === undefined) return null;
    const numeric: { side: number; write: Writer }[] = [];
    for (let side = 0; side < sides; side++) for (const write of NUMERIC[p.type] ?? []) numeric.push({ side, write });
    alive.push(numeric);
    tables.push(TABLES[p.type] ? Array.from({ length: sides }, () => new Map<number, string>()) : null);
  }
  for (const { parts, sides: fields } of samples) {
    if (parts.length !== n) return null;
    for (let j = 0; j < n; j++) {
      const p = parts[j];
      if (p.type !== first[j].type) return null;
      if (p.type === 'literal') {
        if (p.value !== first[j].value) return null;
        continue;
      }
      alive[j] = (alive[j] as { side: number; write: Writer }[]).filter((c) => c.write(fields[c.side]) === p.value);
      const perSide = tables[j];
      if (perSide === null) continue;
      for (let side = 0; side < sides; side++) {
        const table = perSide[side];
        if (table === null) continue;
        const key = TABLES[p.type].key(fields[side]);
        const seen = table.get(key);
        if (seen === undefined) table.set(key, p.value);
        else if (seen !== p.value) perSide[side] = null;
      }
    }
  }
  const steps: Step[] = [];
  for (let j = 0; j < n; j++) {
    const p = first[j];
    if (p.type === 'literal') {
      // Adjacent literals are one step.
      const last = steps[steps.length - 1];
      if (last !== undefined && last.text !== null) steps[steps.length - 1] = { text: last.text + p.value, write: null, side: 0 };
      else steps.push({ text: p.value, write: null, side: 0 });
      continue;
    }
    const numeric = alive[j] as { side: number; write: Writer }[];
    if (numeric.length > 0) {
      steps.push({ text: null, write: numeric[0].write, side: numeric[0].side });
      continue;
    }
    const spec = TABLES[p.type];
    const side = spec === undefined ? -1 : (tables[j] as (Map<number, string> | null)[]).findIndex((t) => t !== null && t.size === spec.size);
    if (side < 0) return null;
    const table = (tables[j] as Map<number, string>[])[side];
    const names: string[] = [];
    for (let k = 0; k < spec.size; k++) names.push(table.get(k) as string);
    const key = spec.key;
    steps.push({ text: null, write: (f) => names[key(f)], side });
  }
  return steps;
}

/**
 * Whether a (local) year is one the plans write: also false for NaN. The engine's calendar
 * differs from the proleptic one before 1582, and it takes every instant after
 * 8652-12-31T23:59:59.999Z as that instant (its dates end there), which a local year of 8652
 * may already reach.
 */
export function inPlannedYears(year: number): boolean {
  return year >= 1600 && year <= 8651;
}

/** The plan's text for an instant in a resolved zone; null for an instant it leaves to the engine. */
export function formatDateTimePlanned(plan: DateTimePlan, epochMs: number, zoneId: string): string | null {
  const f = sharedDateFields(epochMs, zoneId);
  if (!inPlannedYears(f.year)) return null;
  const steps = plan.steps;
  let out = '';
  for (let i = 0; i < steps.length; i++) {
    const s = steps[i];
    out += s.text !== null ? s.text : (s.write as Writer)(f);
  }
  return out;
}
