import { describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { cldrFor } from './cldr.ts';
import { relativeTimeOptions } from './cldr-values.ts';
import { type PeriodField, relativePeriod, relativeTimeText, usesGregorian } from './relative-period.ts';

const DAY = 86_400_000;
const en = cldrFor('en-US')!;

/** The engine's own `[field, amount]` (what `formatRelativeTime` formats, milliseconds as seconds). */
function engine(start: number, end: number, includeWeeks: boolean, field?: string): [string, number] {
  const a = en.Calendars.toGregorianDate({ date: start, zoneId: 'UTC' });
  const b = en.Calendars.toGregorianDate({ date: end, zoneId: 'UTC' });
  const [f, amount] = a.relativeTime(b, field as never, { rollupFractional: true, includeWeeks } as never) as [string, number];
  return f === 'millis' ? ['second', amount / 1000.0] : [f, amount];
}

// Instants around month ends, leap days and midnight, and anywhere; pairs seconds to decades apart.
const instant = fc.oneof(
  fc.integer({ min: -11_000_000_000_000, max: 250_000_000_000_000 }),
  fc.integer({ min: 210_800_000_000_000, max: 211_000_000_000_000 }),
  fc.integer({ min: 1_600_000_000_000, max: 1_900_000_000_000 }),
  fc.tuple(fc.integer({ min: 1800, max: 2200 }), fc.integer({ min: 0, max: 11 }), fc.constantFrom(1, 28, 29, 30, 31), fc.integer({ min: -3 * 3_600_000, max: 3 * 3_600_000 }))
    .map(([y, m, d, ms]) => Date.UTC(y, m, d) + ms),
);
const gap = fc.oneof(
  fc.integer({ min: -90_000, max: 90_000 }),
  fc.integer({ min: -2 * DAY, max: 2 * DAY }),
  fc.integer({ min: -70 * DAY, max: 70 * DAY }),
  fc.integer({ min: -4000 * DAY, max: 4000 * DAY }),
  fc.constantFrom(0, DAY, -DAY, 7 * DAY, 365 * DAY, 366 * DAY, 23 * 3_600_000, 25 * 3_600_000),
);
const FIELDS = [undefined, 'year', 'month', 'week', 'day', 'hour', 'minute', 'second', 'millis'] as const;

describe('relativePeriod', () => {
  it('gives the engine\'s field and amount, to the last bit, for random pairs and fields', () => {
    let compared = 0;
    fc.assert(
      fc.property(instant, gap, fc.boolean(), fc.constantFrom(...FIELDS), (start, delta, weeks, field) => {
        const end = start + delta;
        const p = relativePeriod(start, end, weeks, field);
        if (p === null) return;
        compared++;
        expect([p.field, p.amount]).toEqual(engine(start, end, weeks, field));
      }),
      { numRuns: 20000 },
    );
    expect(compared).toBeGreaterThan(10000);
  });

  it('leaves years outside 1600–8651 and NaN to the engine', () => {
    expect(relativePeriod(Date.UTC(1500, 0, 1), Date.UTC(2000, 0, 1), false)).toBeNull();
    expect(relativePeriod(Date.UTC(8652, 0, 1), Date.UTC(2000, 0, 1), false)).toBeNull();
    expect(relativePeriod(0, Number.NaN, false)).toBeNull();
    expect(relativePeriod(Date.UTC(2000, 0, 1) + 0.5, Date.UTC(2000, 0, 3), false)).toBeNull();
    expect(relativePeriod(Date.UTC(2000, 0, 1), Date.UTC(2000, 0, 3), false)).toEqual({ field: 'day', amount: 2 });
  });

  it('is used only where the locale\'s calendar is the Gregorian', () => {
    expect(usesGregorian(en)).toBe(true);
    expect(usesGregorian(cldrFor('fr-FR')!)).toBe(true);
    expect(usesGregorian(cldrFor('th-TH')!)).toBe(false);
    expect(usesGregorian(cldrFor('fa-IR')!)).toBe(false);
  });

  it('texts kept per rounded amount are the engine\'s for every amount that rounds alike', () => {
    // One options object per case, as a call site binds it (the texts are shared by options of one text).
    const ARGS = [[], ['numericOnly:true'], ['alwaysNow:true', 'numericOnly:true'], ['width:short', 'context:begin-sentence'], ['width:narrow'], ['maximumFractionDigits:1'], ['minimumIntegerDigits:2']];
    const bound = ARGS.map((a) => relativeTimeOptions(a));
    const amount = fc.oneof(
      fc.double({ min: -700, max: 700, noNaN: true }),
      fc.integer({ min: -40, max: 40 }).map((n) => n / 2),
      fc.integer({ min: -600, max: 600 }),
      fc.constantFrom(0, -0, 0.5, -0.5, 1.5, 2.5, -2.5, 511.5, 512, -512.5, 1e-7, -1e-7, 2.4999999999999996),
    );
    const field = fc.constantFrom<PeriodField>('year', 'month', 'week', 'day', 'hour', 'minute', 'second');
    fc.assert(
      fc.property(fc.integer({ min: 0, max: ARGS.length - 1 }), fc.constantFrom('en-US', 'fr-FR', 'pl', 'ar-EG', 'ja'), field, amount, (i, locale, f, x) => {
        const cldr = cldrFor(locale)!;
        expect(relativeTimeText(cldr, bound[i], f, x)).toBe(cldr.Calendars.formatRelativeTimeField(x, f, bound[i]));
      }),
      { numRuns: 20000 },
    );
  });

  it('texts are shared by call sites of the same options, and kept apart for others', () => {
    const engine = vi.spyOn(en.Calendars, 'formatRelativeTimeField');
    try {
      const first = relativeTimeText(en, relativeTimeOptions(['width:short', 'context:standalone']), 'day', 3);
      expect(engine).toHaveBeenCalledTimes(1);
      // Another call site (another compile) with the same options: the kept text.
      expect(relativeTimeText(en, relativeTimeOptions(['width:short', 'context:standalone']), 'day', 3)).toBe(first);
      expect(engine).toHaveBeenCalledTimes(1);
      // Other options ask the engine.
      relativeTimeText(en, relativeTimeOptions(['width:narrow', 'context:standalone']), 'day', 3);
      expect(engine).toHaveBeenCalledTimes(2);
    } finally {
      engine.mockRestore();
    }
  });
});
