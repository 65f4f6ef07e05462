import { describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { cldrFor, resolveZone, toCalendarDate } from './cldr.ts';
import { dateTimeOptions } from './cldr-values.ts';
import { dateTimePlan, formatDateTimePlanned } from './datetime-plan.ts';

// The option words of the conformance cases and the templates, and others: widths, wraps,
// skeletons with names, weekdays, day periods (`a`, flexible `B`), 24-hour and zone fields,
// contexts, other calendars.
const ARGS: readonly (readonly string[])[] = [
  [], ['full'], ['long'], ['medium'], ['short'], ['date:full'], ['date:long'], ['date:medium'], ['date:short'], ['time:full'],
  ['time:long'], ['time:medium'], ['time:short'], ['date:medium', 'time:short'], ['date:short', 'time:medium'],
  ['date:short', 'time:full'], ['date:full', 'time:short'], ['date:medium', 'time:hm', 'wrap:full'], ['date:yMd', 'time:hm'],
  ['yMMMMdEEEE', 'context:begin-sentence'], ['skeleton:yMMMEEEd'], ['skeleton:Bh'], ['skeleton:Hm'], ['skeleton:hms'],
  ['skeleton:yMMMd'], ['skeleton:MMMMd'], ['skeleton:EEEEd'], ['skeleton:yQQQ'], ['skeleton:GyMMMd'], ['skeleton:jmm'],
  ['skeleton:Kms'], ['xyz', 'foo'], ['date:full', 'calendar:japanese'], ['date:long', 'calendar:buddhist'],
  ['date:medium', 'context:standalone'], ['date:full', 'context:ui-list-or-menu'], ['skeleton:MMMMEEEEd', 'context:begin-sentence'],
];
const LOCALES = ['en', 'en-US', 'de-DE', 'fr-FR', 'ja', 'fr', 'es', 'pl', 'en-GB', 'de-CH', 'ar-EG', 'zh', 'ko', 'hi', 'xx-YY'];
const ZONES = ['America/New_York', 'Europe/Paris', 'Asia/Tokyo', 'Australia/Sydney', 'Asia/Kolkata', 'Pacific/Chatham', 'UTC', 'nowhere'];

/** Plans are built on a call site's second call (the first is the engine's). */
function planOf(cldr: ReturnType<typeof cldrFor> & object, options: ReturnType<typeof dateTimeOptions>) {
  return dateTimePlan(cldr, options) ?? dateTimePlan(cldr, options);
}

function engineText(locale: string, args: readonly string[], t: number, zone: string): string {
  const cldr = cldrFor(locale)!;
  const o = dateTimeOptions(args);
  return cldr.Calendars.formatDate(toCalendarDate(cldr, o.calendar, t, zone), o.format);
}

describe('datetime plans', () => {
  it('write what the CLDR engine writes, for random instants, zones, locales and options', () => {
    // One options object per case, as a call site binds it (plans are kept per options object).
    const bound = ARGS.map((a) => dateTimeOptions(a));
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: ARGS.length - 1 }),
        fc.constantFrom(...LOCALES),
        fc.constantFrom(...ZONES),
        fc.oneof(fc.integer({ min: -2_000_000_000_000, max: 5_000_000_000_000 }), fc.integer({ min: 1_700_000_000_000, max: 1_800_000_000_000 }), fc.integer({ min: 210_800_000_000_000, max: 211_000_000_000_000 })),
        (i, locale, zoneText, t) => {
          const cldr = cldrFor(locale)!;
          const zone = resolveZone(zoneText);
          const plan = planOf(cldr, bound[i]);
          const planned = plan && formatDateTimePlanned(plan, t, zone);
          if (planned !== null) expect(planned).toBe(engineText(locale, ARGS[i], t, zone));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('plan the common options and leave zone names, eras and other calendars to the engine', () => {
    const en = cldrFor('en-US')!;
    // Options no other test has used: plans are shared by the options' text.
    const once = dateTimeOptions(['date:medium', 'time:medium']);
    expect(dateTimePlan(en, once)).toBeNull();
    expect(dateTimePlan(en, once)).not.toBeNull();
    expect(planOf(en, dateTimeOptions(['date:full']))).not.toBeNull();
    expect(planOf(cldrFor('fr-FR')!, dateTimeOptions(['date:medium', 'time:short']))).not.toBeNull();
    expect(planOf(en, dateTimeOptions(['time:long']))).toBeNull();
    expect(planOf(en, dateTimeOptions(['skeleton:GyMMMd']))).toBeNull();
    expect(planOf(en, dateTimeOptions(['date:full', 'calendar:japanese']))).toBeNull();
  });

  it('are built once the event loop turns after a first call, not by the second call', async () => {
    const en = cldrFor('en-US')!;
    const options = dateTimeOptions(['date:long', 'time:short']);
    expect(dateTimePlan(en, options)).toBeNull();
    await new Promise<void>((resolve) => setImmediate(resolve));
    const engine = vi.spyOn(en.Calendars, 'formatDateToParts');
    try {
      const plan = dateTimePlan(en, options);
      expect(plan).not.toBeNull();
      expect(engine).not.toHaveBeenCalled();
      expect(formatDateTimePlanned(plan!, Date.UTC(2025, 9, 9, 15, 4), 'UTC')).toBe(engineText('en-US', ['date:long', 'time:short'], Date.UTC(2025, 9, 9, 15, 4), 'UTC'));
    } finally {
      engine.mockRestore();
    }
  });

  it('are shared by call sites of the same options, in one template or the next compiled', () => {
    const en = cldrFor('en-US')!;
    const first = dateTimeOptions(['date:long', 'time:medium']);
    expect(dateTimePlan(en, first)).toBeNull();
    const plan = dateTimePlan(en, first);
    expect(plan).not.toBeNull();
    const engine = vi.spyOn(en.Calendars, 'formatDateToParts');
    try {
      expect(dateTimePlan(en, dateTimeOptions(['date:long', 'time:medium']))).toBe(plan);
      expect(engine).not.toHaveBeenCalled();
    } finally {
      engine.mockRestore();
    }
    // Other options, or the same in another order or locale, are planned on their own.
    expect(dateTimePlan(en, dateTimeOptions(['time:medium', 'date:long']))).toBeNull();
    expect(dateTimePlan(cldrFor('de-DE')!, dateTimeOptions(['date:long', 'time:medium']))).toBeNull();
  });

  it("serve new call sites by the engine while their plan waits, and build it on a site's second call or the eighth site", () => {
    const en = cldrFor('en-US')!;
    const args = ['date:short', 'time:short'];
    // A first render with three call sites of these options: each the engine's, as with plans of their own.
    const sites = [dateTimeOptions(args), dateTimeOptions(args), dateTimeOptions(args)];
    for (const o of sites) expect(dateTimePlan(en, o)).toBeNull();
    // The first site's second call (a repeated section) builds the plan, which every site then has.
    const plan = dateTimePlan(en, sites[0]);
    expect(plan).not.toBeNull();
    for (const o of sites) expect(dateTimePlan(en, o)).toBe(plan);
    // Compiles in a loop that never lets the host be idle: the eighth new site builds it.
    const other = ['date:full', 'time:medium'];
    const firsts = Array.from({ length: 8 }, () => dateTimePlan(en, dateTimeOptions(other)));
    expect(firsts.slice(0, 7)).toEqual(new Array(7).fill(null));
    expect(firsts[7]).not.toBeNull();
  });

  it('leave instants outside 1600–8651 and NaN to the engine (its dates end in 8652)', () => {
    const plan = planOf(cldrFor('en-US')!, dateTimeOptions(['date:medium']))!;
    expect(formatDateTimePlanned(plan, Date.UTC(1500, 0, 1), 'UTC')).toBeNull();
    expect(formatDateTimePlanned(plan, Date.UTC(8652, 11, 31, 23), 'Asia/Tokyo')).toBeNull();
    expect(formatDateTimePlanned(plan, Date.UTC(9000, 5, 1), 'UTC')).toBeNull();
    expect(engineText('en-US', ['date:medium'], Date.UTC(9000, 5, 1), 'UTC')).toBe('Dec 31, 8652');
    expect(formatDateTimePlanned(plan, Date.UTC(8651, 5, 1), 'UTC')).toBe(engineText('en-US', ['date:medium'], Date.UTC(8651, 5, 1), 'UTC'));
    expect(formatDateTimePlanned(plan, Number.NaN, 'UTC')).toBeNull();
    expect(formatDateTimePlanned(plan, Date.UTC(2025, 9, 9), 'UTC')).toBe('Oct 9, 2025');
  });
});
