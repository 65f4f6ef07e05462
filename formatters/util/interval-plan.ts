// `datetime-interval` (and a message's `{0;1 datetime-interval}`) without the CLDR engine on
// every call, as datetime-plan.ts does for one date. What the engine writes for a pair of
// dates depends, beyond the dates' own fields, only on which fields differ between them: it
// picks the skeleton, the interval pattern and the fallback from the field of visual
// difference and from it masked by the matched skeleton (@phensley/cldr-core
// `getDateIntervalFormatRequest`, `maskedFOVD`). Those are functions of which of year, month,
// day, half of the day, hour of the half, hour of the day and minute differ: the plan's key,
// a mask of seven bits. A plan per (options of a call site, locale, mask) is built from probe
// pairs with exactly that mask, and writes each field from the start's or the end's fields.
// Anything a probe pair cannot pin down stays with the engine (datetime-plan.ts), and so do
// dates outside 1600–8651. interval-plan.test.ts compares plans with the engine on random
// pairs, zones, locales and options.
import type { CLDR, DateIntervalFormatOptions } from '@phensley/cldr';
import { type DateFields, dateFields, dateFieldsInto, newFields } from './date-pattern.ts';
import { DATE_PROBES, type DateTimePlan, inPlannedYears, NOT_YET, PROBE_ZONE, probesFor, type Sample, SharedPlans, stepsFromSamples, type Writer, whenIdle } from './datetime-plan.ts';

const YEAR = 1;
const MONTH = 2;
const DAY = 4;
const HALF = 8;
const HOUR12 = 16;
const HOUR = 32;
const MINUTE = 64;

/** Which of the fields the engine compares differ between two dates' fields. */
export function differenceMask(a: DateFields, b: DateFields): number {
  let m = 0;
  if (a.year !== b.year) m |= YEAR;
  if (a.month !== b.month) m |= MONTH;
  if (a.day !== b.day) m |= DAY;
  if (a.hour < 12 !== b.hour < 12) m |= HALF;
  if (a.hour % 12 !== b.hour % 12) m |= HOUR12;
  if (a.hour !== b.hour) m |= HOUR;
  if (a.minute !== b.minute) m |= MINUTE;
  return m;
}

interface Slots {
  readonly plans: (DateTimePlan | null | undefined)[];
  /** Calls served by the engine while a mask's plan waits for the host to be idle. */
  readonly waiting: Uint8Array;
}

// Shared as datetime plans are: by the options a call site binds, and the bundle.
const plans = new SharedPlans<DateIntervalFormatOptions, Slots>();

/**
 * Calls of one mask the engine serves before the plan is built in the call itself: a plan
 * takes up to ~140 engine calls (5–25 ms while the engine is cold), more than a `datetime`
 * plan, so a first page listing a few events is served by the engine and the plan is built
 * once the host is idle (after the page is sent); a long list, or a render loop, builds it.
 */
const SERVED_BEFORE_PLAN = 8;

/** The plan for these options, locale and mask, or null (built when the host is idle, or after `SERVED_BEFORE_PLAN` calls). */
export function intervalPlan(cldr: CLDR, options: DateIntervalFormatOptions, mask: number): DateTimePlan | null {
  const byLocale = plans.slotsOf(options);
  let slots = byLocale.get(cldr);
  if (slots === undefined) byLocale.set(cldr, (slots = { plans: new Array<DateTimePlan | null | undefined>(128).fill(undefined), waiting: new Uint8Array(128) }));
  const p = slots.plans;
  const plan = p[mask];
  if (plan === undefined) {
    p[mask] = NOT_YET;
    whenIdle(() => {
      if (p[mask] === NOT_YET) p[mask] = buildPlan(cldr, options, mask);
    });
    return null;
  }
  if (plan === NOT_YET) {
    if (++slots.waiting[mask] < SERVED_BEFORE_PLAN) return null;
    return (p[mask] = buildPlan(cldr, options, mask));
  }
  return plan;
}

const start = newFields();
const end = newFields();

/** The plan's text for a pair of instants in a resolved zone; null for a pair it leaves to the engine. */
export function formatIntervalPlanned(cldr: CLDR, options: DateIntervalFormatOptions, startMs: number, endMs: number, zoneId: string): string | null {
  const a = dateFieldsInto(start, startMs, zoneId);
  const b = dateFieldsInto(end, endMs, zoneId);
  if (!inPlannedYears(a.year) || !inPlannedYears(b.year)) return null;
  const plan = intervalPlan(cldr, options, differenceMask(a, b));
  if (plan === null) return null;
  const steps = plan.steps;
  let out = '';
  for (let i = 0; i < steps.length; i++) {
    const s = steps[i];
    out += s.text !== null ? s.text : (s.write as Writer)(s.side === 0 ? a : b);
  }
  return out;
}

/**
 * The end of a probe pair whose start is `t` (UTC fields): every field in `mask` moved, the
 * rest kept, and the seconds always moved, so that a field is told apart from the seconds'.
 * Each start gets two ends (`variant` 0 and 1) moved by different amounts, so that no field
 * of the end is a function of the start's (a month five on would fill a table of the
 * start's months with the end's names); the amounts take the end's months, weekdays and
 * hours through all their values as the start's go through theirs, and the end's minutes and
 * seconds through some of one digit (a pad must be seen to be told apart). The caller keeps only
 * pairs whose mask comes out exact.
 */
function probeEnd(t: number, mask: number, variant: number): number {
  const f = dateFields(t, PROBE_ZONE);
  const year = mask & YEAR ? f.year + 1 + 2 * variant : f.year;
  const month = mask & MONTH ? ((f.month - 1 + 5 + 2 * variant) % 12) + 1 : f.month;
  const dayStep = 13 - 2 * variant;
  const day = mask & DAY ? (f.day <= 14 ? f.day + dayStep : f.day - dayStep) : f.day;
  const pm = f.hour >= 12 !== ((mask & HALF) !== 0);
  const hour12 = mask & HOUR12 ? ((f.hour % 12) + 5 + 2 * variant) % 12 : f.hour % 12;
  const minute = mask & MINUTE ? (f.minute + 17 + 34 * variant) % 60 : f.minute;
  return Date.UTC(year, month - 1, day, (pm ? 12 : 0) + hour12, minute, (f.second + 23 + 28 * variant) % 60);
}

function buildPlan(cldr: CLDR, options: DateIntervalFormatOptions, mask: number): DateTimePlan | null {
  const sampleAt = (s: number, variant: number): Sample | null => {
    const e = probeEnd(s, mask, variant);
    const sides = [dateFields(s, PROBE_ZONE), dateFields(e, PROBE_ZONE)];
    if (differenceMask(sides[0], sides[1]) !== mask) return null;
    return { parts: cldr.Calendars.formatDateIntervalToParts({ date: s, zoneId: PROBE_ZONE }, { date: e, zoneId: PROBE_ZONE }, options), sides };
  };
  const samples: Sample[] = [];
  let probes = DATE_PROBES;
  let probesKnown = false;
  for (let i = 0; i < 2 * probes.length; i++) {
    const sample = sampleAt(probes[i >> 1], i & 1);
    if (sample === null) continue;
    // The first pair's text tells whether the time probes are needed (they follow the date probes).
    if (!probesKnown) {
      probes = probesFor(sample.parts);
      probesKnown = true;
    }
    samples.push(sample);
  }
  if (samples.length === 0) return null;
  const steps = stepsFromSamples(samples);
  return steps === null ? null : { steps };
}
