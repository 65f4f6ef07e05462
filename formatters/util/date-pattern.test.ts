import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DateTime } from 'luxon';
import { compileDatePattern, dateFields, formatDatePattern, isoWeek, saturdayWeekOfYear } from './date-pattern.ts';

const fmt = (pattern: string, epochMs: number, zone = 'UTC', locale = 'en') =>
  formatDatePattern(compileDatePattern(pattern), epochMs, zone, locale);

// 2021-02-18 06:26:05.345 in Tokyo (PLUGINS §14.3's example instant).
const TOKYO_EXAMPLE = Date.UTC(2021, 1, 17, 21, 26, 5, 345);

describe('pattern scanning (§14.2)', () => {
  it('copies text, expands %% and keeps a trailing %', () => {
    expect(fmt('a%%b%', 0)).toBe('a%b%');
    expect(fmt('', 0)).toBe('');
  });
  it('copies an unknown code together with its %', () => {
    expect(fmt('%Q %J %1', 0)).toBe('%Q %J %1');
  });
  it('emits line feed and tab for %n and %t', () => {
    expect(fmt('%n%t', 0)).toBe('\n\t');
  });
  it('does not let a NUL in the pattern reach the internal day marker', () => {
    expect(fmt('\u0000day', 0)).toBe('\u0000day');
  });
  it('caches compiled patterns', () => {
    expect(compileDatePattern('%Y-%m')).toBe(compileDatePattern('%Y-%m'));
  });
  it('keys remembered results by instant, zone and locale', () => {
    // One instant through one compiled pattern under other zones and locales, then again:
    // each answer must be its own, never the remembered text of another key.
    const p = '%A %d %H:%M %Z';
    for (let round = 0; round < 2; round++) {
      expect(fmt(p, TOKYO_EXAMPLE, 'UTC')).toBe('Wednesday 17 21:26 UTC');
      expect(fmt(p, TOKYO_EXAMPLE, 'Asia/Tokyo')).toBe('Thursday 18 06:26 JST');
      expect(fmt(p, TOKYO_EXAMPLE, 'UTC', 'fr')).toBe('mercredi 17 21:26 UTC');
      expect(fmt(p, TOKYO_EXAMPLE + 60_000, 'UTC')).toBe('Wednesday 17 21:27 UTC');
      expect(fmt(p, Number.NaN, 'UTC')).toBe(fmt(p, Number.NaN, 'UTC'));
    }
  });
});

describe('codes (§14.3) on the spec example instant in Asia/Tokyo', () => {
  const cases: [string, string][] = [
    ['%a', 'Thu'], ['%A', 'Thursday'], ['%b', 'Feb'], ['%h', 'Feb'], ['%B', 'February'],
    ['%c', 'Thu, Feb 18, 2021 6:26:05 AM JST'], ['%C', '20'], ['%d', '18'], ['%D', '02/18/21'],
    ['%e', '18'], ['%F', '2021-02-18'], ['%g', '21'], ['%G', '2021'], ['%H', '06'], ['%i', '6'],
    ['%I', '06'], ['%j', '049'], ['%k', ' 6'], ['%l', ' 6'], ['%m', '02'], ['%M', '26'],
    ['%N', '345000000'], ['%p', 'AM'], ['%P', 'am'], ['%q', '1'], ['%r', '6:26:05 AM'],
    ['%R', '06:26'], ['%s', '1613597165'], ['%S', '05'], ['%T', '06:26:05'], ['%u', '4'],
    ['%U', '08'], ['%W', '08'], ['%v', '18-Feb-2021'], ['%V', '07'], ['%w', '4'],
    ['%x', '02/18/2021'], ['%X', '06:26:05 AM'], ['%y', '21'], ['%Y', '2021'], ['%z', '+09:00'],
    ['%Z', 'JST'],
  ];
  for (const [code, out] of cases) {
    it(`${code} → ${JSON.stringify(out)}`, () => expect(fmt(code, TOKYO_EXAMPLE, 'Asia/Tokyo')).toBe(out));
  }
  it('pads the day with a space in %e and leaves it bare in %c', () => {
    const fifth = Date.UTC(2021, 1, 5, 12);
    expect(fmt('%e|%c', fifth)).toBe(' 5|Fri, Feb 5, 2021 12:00:00 PM UTC');
  });
  it('gives 12 for midnight and noon in the 12-hour codes', () => {
    expect(fmt('%i %I %l %p', Date.UTC(2021, 0, 1, 0))).toBe('12 12 12 AM');
    expect(fmt('%i %I %l %p', Date.UTC(2021, 0, 1, 12))).toBe('12 12 12 PM');
  });
});

describe('time zones (§14.1)', () => {
  // 2013-05-12 21:00 in New York (daylight time), from the spec's inline tests.
  const may12 = Date.UTC(2013, 4, 13, 1, 0, 0);
  it('uses offsets and abbreviations of the zone at that instant', () => {
    expect(fmt('%Y-%m-%d %H:%M:%S %Z', may12, 'America/New_York')).toBe('2013-05-12 21:00:00 EDT');
    expect(fmt('%Z %z', may12, 'America/New_York')).toBe('EDT -04:00');
    expect(fmt('%p %P %l', may12, 'America/New_York')).toBe('PM pm  9');
    expect(fmt('%Z %z', Date.UTC(2013, 0, 13), 'America/New_York')).toBe('EST -05:00');
    expect(fmt('%Z %z', may12, 'America/Los_Angeles')).toBe('PDT -07:00');
  });
  it('treats an unknown, empty or null zone as UTC', () => {
    for (const zone of ['Nowhere/City', '', 'null']) expect(fmt('%H:%M %Z %z', may12, zone)).toBe('01:00 UTC +00:00');
  });
  it('accepts zone aliases', () => {
    expect(fmt('%H %Z', may12, 'US/Eastern')).toBe('21 EDT');
  });
  it('prints half-hour offsets', () => {
    expect(fmt('%z', may12, 'Asia/Kolkata')).toBe('+05:30');
  });
});

describe('locale names (§14.5)', () => {
  const friday = Date.UTC(2013, 4, 17, 12);
  it('localizes only the month and weekday names', () => {
    expect(fmt('%B %d', Date.UTC(2013, 4, 12, 12), 'UTC', 'de-DE')).toBe('Mai 12');
    expect(fmt('%A', friday, 'UTC', 'de-DE')).toBe('Freitag');
    expect(fmt('%A', friday, 'UTC', 'es-MX')).toBe('viernes');
    expect(fmt('%B', friday, 'UTC', 'fr')).toBe('mai');
    expect(fmt('%p %Y', friday, 'UTC', 'fr')).toBe('PM 2013');
  });
  it('falls back to English without locale data or for an unknown locale', () => {
    expect(fmt('%a %b', friday, 'UTC', 'none')).toBe('Fri May');
    expect(fmt('%a %b', friday, 'UTC', 'zz-ZZ')).toBe('Fri May');
  });
});

describe('week of year (§14.4)', () => {
  it('starts %U/%W weeks on Saturday', () => {
    expect(fmt('%U %W', Date.UTC(2021, 1, 19, 12))).toBe('08 08');
    expect(fmt('%U %W', Date.UTC(2021, 1, 20, 12))).toBe('09 09');
    expect(fmt('%U', Date.UTC(2022, 0, 1, 12))).toBe('01');
  });
  it('counts the week holding 1 January as week 1 of the next year', () => {
    // 2022-12-31 is a Saturday; its week holds 1 January 2023.
    expect(fmt('%U', Date.UTC(2022, 11, 31, 12))).toBe('01');
    expect(fmt('%U', Date.UTC(2022, 11, 30, 12))).toBe('52');
    // 2021-12-25 is a Saturday whose week ends on Friday 31 December.
    expect(fmt('%U', Date.UTC(2021, 11, 25, 12))).toBe('53');
  });

  const instants = fc.integer({ min: Date.UTC(1900, 0, 1), max: Date.UTC(2200, 0, 1) });

  it('agrees with a day-by-day count of Saturday-first weeks', () => {
    fc.assert(
      fc.property(instants, (ms) => {
        const f = dateFields(ms, 'UTC');
        // Walk back to 1 January, counting Saturdays passed; then check the year end.
        let week = 1;
        for (let d = f.dayOfYear - 1, wd = f.weekday; d >= 1; d--) {
          if (wd === 6) week++;
          wd = (wd + 6) % 7;
        }
        const daysInYear = new Date(Date.UTC(f.year, 1, 29)).getUTCMonth() === 1 ? 366 : 365;
        const toYearEnd = daysInYear - f.dayOfYear;
        const daysToFriday = (5 - f.weekday + 7) % 7;
        const expected = daysToFriday > toYearEnd ? 1 : week;
        return saturdayWeekOfYear(f) === expected;
      }),
      { numRuns: 300 },
    );
  });

  it('agrees with luxon on ISO weeks and week years', () => {
    fc.assert(
      fc.property(instants, (ms) => {
        const iso = isoWeek(dateFields(ms, 'UTC'));
        const dt = DateTime.fromMillis(ms, { zone: 'utc' });
        return iso.week === dt.weekNumber && iso.year === dt.weekYear;
      }),
      { numRuns: 300 },
    );
  });
});

describe('calendar fields', () => {
  // The calendar engine's tz tables end in 2037, like the reference's.
  it('match the platform for any instant and zone up to 2037', () => {
    const zones = ['UTC', 'America/New_York', 'Asia/Tokyo', 'Australia/Lord_Howe', 'Asia/Kathmandu'];
    fc.assert(
      fc.property(fc.integer({ min: -2e12, max: 2.1e12 }), fc.constantFrom(...zones), (ms, zone) => {
        const f = dateFields(ms, zone);
        const dt = DateTime.fromMillis(ms, { zone });
        return (
          f.year === dt.year && f.month === dt.month && f.day === dt.day && f.hour === dt.hour &&
          f.minute === dt.minute && f.second === dt.second && f.millis === dt.millisecond &&
          f.weekday === dt.weekday % 7 && f.dayOfYear === dt.ordinal && f.offsetMs === dt.offset * 60_000
        );
      }),
      { numRuns: 400 },
    );
  });
  it('handles instants before the epoch', () => {
    expect(fmt('%F %T %s', -1)).toBe('1969-12-31 23:59:59 0');
  });
});
