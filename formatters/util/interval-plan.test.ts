import { describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { cldrFor, resolveZone } from './cldr.ts';
import { intervalOptions } from './cldr-values.ts';
import { dateFields } from './date-pattern.ts';
import { differenceMask, formatIntervalPlanned, intervalPlan } from './interval-plan.ts';

// Option words of the conformance cases, the spec's examples and others: no skeleton (the
// engine picks one by the difference), date and time skeletons, compound skeletons (a date
// with a time range, the fallback for differing dates), 24-hour, flexible day periods, zone
// names, weekdays, quarters, eras, weeks, contexts.
const ARGS: readonly (readonly string[])[] = [
  [], ['yMMMd'], ['hm'], ['skeleton:yMMMdhm'], ['date:yMMMd', 'time:hm'], ['MMMd'], ['yMMMMEEEEd'], ['Hm'], ['jm'], ['yMd'],
  ['MMMMd', 'context:begin-sentence'], ['Bhm'], ['hmv'], ['yMMMdjm'], ['h'], ['m'], ['s'], ['hms'], ['yQQQ'], ['time:hms'],
  ['MMMEd'], ['GyMMMd'], ['yw'], ['date:yMMMMd'], ['time:Hm'], ['yMMM'], ['EEEE'], ['d'], ['xyz'], ['MMMMEEEEd', 'context:standalone'],
];
const LOCALES = ['en', 'en-US', 'de-DE', 'fr-FR', 'ja', 'es', 'pl', 'en-GB', 'ar-EG', 'zh', 'ko', 'hi', 'th', 'fa', 'ar-SA'];
const ZONES = ['America/New_York', 'Europe/Paris', 'Asia/Tokyo', 'Australia/Sydney', 'Asia/Kolkata', 'Pacific/Chatham', 'UTC', 'nowhere'];

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** A mask's plan is built by its ninth call (the first eight are the engine's) if the host was not idle before. */
function planned(locale: string, options: ReturnType<typeof intervalOptions>, s: number, e: number, zone: string): string | null {
  const cldr = cldrFor(locale)!;
  for (let i = 0; i < 8; i++) {
    const text = formatIntervalPlanned(cldr, options, s, e, zone);
    if (text !== null) return text;
  }
  return formatIntervalPlanned(cldr, options, s, e, zone);
}

function engineText(locale: string, options: ReturnType<typeof intervalOptions>, s: number, e: number, zone: string): string {
  return cldrFor(locale)!.Calendars.formatDateInterval({ date: s, zoneId: zone }, { date: e, zoneId: zone }, options);
}

describe('datetime-interval plans', () => {
  it('write what the CLDR engine writes, for random pairs, zones, locales and options', () => {
    // One options object per case, as a call site binds it (plans are kept per options object).
    const bound = ARGS.map((a) => intervalOptions(a));
    let plannedCount = 0;
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: ARGS.length - 1 }),
        fc.constantFrom(...LOCALES),
        fc.constantFrom(...ZONES),
        fc.oneof(fc.integer({ min: -2_000_000_000_000, max: 5_000_000_000_000 }), fc.integer({ min: 1_700_000_000_000, max: 1_800_000_000_000 }), fc.integer({ min: 210_800_000_000_000, max: 211_000_000_000_000 })),
        // Pairs a few seconds to years apart, either way round.
        fc.oneof(
          fc.integer({ min: -120_000, max: 120_000 }),
          fc.integer({ min: -3 * HOUR, max: 3 * HOUR }),
          fc.integer({ min: -DAY, max: DAY }),
          fc.integer({ min: -40 * DAY, max: 40 * DAY }),
          fc.integer({ min: -800 * DAY, max: 800 * DAY }),
          fc.constantFrom(0, 12 * HOUR, DAY, 7 * DAY, 365 * DAY),
        ),
        (i, locale, zoneText, s, delta) => {
          const zone = resolveZone(zoneText);
          const text = planned(locale, bound[i], s, s + delta, zone);
          if (text === null) return;
          plannedCount++;
          expect(text).toBe(engineText(locale, bound[i], s, s + delta, zone));
        },
      ),
      { numRuns: 3000 },
    );
    // About half the pairs have a plan (zone names, eras, other calendars and years past 8651
    // have none): the test compares something.
    expect(plannedCount).toBeGreaterThan(1000);
  });

  it('plan the common options for every kind of difference', () => {
    const en = cldrFor('en-US')!;
    const s = Date.UTC(2025, 2, 5, 9, 7, 11);
    const ends = [s + 5_000, s + 20 * MINUTE, s + 2 * HOUR, s + 5 * HOUR, s + 12 * HOUR, s + 3 * DAY, s + 40 * DAY, s + 400 * DAY];
    for (const args of [[], ['yMMMd'], ['hm'], ['yMMMdhm'], ['date:yMMMd', 'time:hm'], ['Hm'], ['MMMEd']]) {
      const options = intervalOptions(args);
      for (const e of ends) {
        const text = planned('en-US', options, s, e, 'America/New_York');
        expect(text, `${args.join(' ')} ${e - s}`).not.toBeNull();
        expect(text).toBe(engineText('en-US', options, s, e, 'America/New_York'));
      }
    }
    // Zone names and eras stay with the engine.
    const zoned = intervalOptions(['hmv']);
    expect(planned('en-US', zoned, s, s + 2 * HOUR, 'UTC')).toBeNull();
    expect(intervalPlan(en, intervalOptions(['GyMMMd']), 0)).toBeNull();
  });

  it('key a pair by the fields that differ', () => {
    const mask = (a: number, b: number) => differenceMask({ ...dateFields(a, 'UTC') }, dateFields(b, 'UTC'));
    const t = Date.UTC(2025, 2, 5, 9, 7, 11);
    expect(mask(t, t + 30_000)).toBe(0);
    expect(mask(t, t + 5 * MINUTE)).toBe(64);
    expect(mask(t, t + HOUR)).toBe(16 | 32);
    expect(mask(t, t + 12 * HOUR)).toBe(8 | 32);
    expect(mask(t, t + DAY)).toBe(4);
    expect(mask(t, Date.UTC(2026, 2, 5, 9, 7))).toBe(1);
  });

  it('are built once the event loop turns after a mask is first met', async () => {
    const en = cldrFor('en-US')!;
    // Options no other test has used: plans are shared by the options' text.
    const options = intervalOptions(['yMMMMd']);
    const s = Date.UTC(2024, 6, 1);
    expect(formatIntervalPlanned(en, options, s, s + 3 * DAY, 'UTC')).toBeNull();
    await new Promise<void>((resolve) => setImmediate(resolve));
    const engine = vi.spyOn(en.Calendars, 'formatDateIntervalToParts');
    try {
      expect(formatIntervalPlanned(en, options, s, s + 3 * DAY, 'UTC')).toBe(engineText('en-US', options, s, s + 3 * DAY, 'UTC'));
      expect(engine).not.toHaveBeenCalled();
    } finally {
      engine.mockRestore();
    }
  });

  it("serve a mask's first eight calls by the engine, and plan it on the ninth when the host was never idle", () => {
    const en = cldrFor('en-US')!;
    const options = intervalOptions(['MMMMd']);
    const s = Date.UTC(2024, 6, 1);
    // Seconds apart: one mask.
    const texts = Array.from({ length: 9 }, (_, i) => formatIntervalPlanned(en, options, s + i * 1000, s + 3 * DAY, 'UTC'));
    expect(texts.slice(0, 8)).toEqual(new Array(8).fill(null));
    expect(texts[8]).toBe(engineText('en-US', options, s + 8000, s + 3 * DAY, 'UTC'));
    // Another call site of the same options (another compile) finds the plan at once.
    expect(formatIntervalPlanned(en, intervalOptions(['MMMMd']), s, s + 3 * DAY, 'UTC')).toBe(engineText('en-US', options, s, s + 3 * DAY, 'UTC'));
  });

  it('leave dates outside 1600–8651 and NaN to the engine', () => {
    const options = intervalOptions([]);
    const s = Date.UTC(2025, 9, 9);
    expect(planned('en-US', options, s, s + DAY, 'UTC')).toBe(engineText('en-US', options, s, s + DAY, 'UTC'));
    expect(planned('en-US', options, Date.UTC(1500, 0, 1), s, 'UTC')).toBeNull();
    expect(planned('en-US', options, s, Number.NaN, 'UTC')).toBeNull();
    expect(planned('en-US', options, Date.UTC(8652, 0, 1), Date.UTC(8653, 0, 1), 'UTC')).toBeNull();
  });
});
