import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { TZ } from '@phensley/timezone';
import { baseCldr, resolveZone, zoneAt } from './cldr.ts';

// zoneAt searches the time-zone library's transition tables itself (and answers instants in
// the interval of its last answer without a search); the library's own query is the oracle.
// Zones: the ones the fixtures, the bench and the conformance cases use, aliases, a zone
// without transitions, UTC, an unknown text (UTC), and a sample of every other zone.
const NAMED = ['America/New_York', 'America/Los_Angeles', 'Europe/Paris', 'Europe/London', 'Asia/Tokyo', 'Australia/Sydney', 'Asia/Kolkata', 'America/Sao_Paulo', 'Pacific/Chatham', 'Asia/Kathmandu', 'US/Eastern', 'etc/gmt+5', 'UTC', 'Etc/UTC', 'Africa/Abidjan', 'nowhere/at-all', ''];
const ALL = TZ.zoneIds();

function oracle(zoneId: string, t: number): { offset: number; abbr: string } {
  const cal = baseCldr().Calendars;
  const info = cal.timeZoneFromUTC(t, zoneId) ?? cal.timeZoneFromUTC(t, 'UTC')!;
  return { offset: info.offset, abbr: info.abbr };
}

const zone = fc.oneof(fc.constantFrom(...NAMED), fc.constantFrom(...ALL)).map(resolveZone);
// Instants from 1800 to 2200, and the range the pages print (±2 years around now).
const instant = fc.oneof(
  fc.integer({ min: -5_364_662_400_000, max: 7_258_118_400_000 }),
  fc.integer({ min: 1_700_000_000_000, max: 1_830_000_000_000 }),
);

describe('zoneAt', () => {
  it('answers as the library does for random zones and instants, in any order', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(zone, instant), { minLength: 1, maxLength: 40 }), (queries) => {
        for (const [z, t] of queries) {
          const got = zoneAt(z, t);
          expect({ offset: got.offset, abbr: got.abbr }).toEqual(oracle(z, t));
        }
      }),
      { numRuns: 400 },
    );
  });

  it('answers as the library does on both sides of every transition of the zones pages use', () => {
    for (const name of NAMED) {
      const z = resolveZone(name);
      const rec = (TZ as unknown as { record(id: string): [string, { untils: number[] }] | undefined }).record(z);
      for (const u of rec?.[1].untils ?? []) {
        // In order and out of order, so that the remembered interval is entered from both sides.
        for (const t of [u - 1, u, u + 1, u - 86_400_000, u + 86_400_000, u]) {
          const got = zoneAt(z, t);
          expect({ offset: got.offset, abbr: got.abbr }).toEqual(oracle(z, t));
        }
      }
    }
  });

  it('answers instants the search cannot order as the library does', () => {
    for (const t of [Number.NaN, Infinity, -Infinity, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 0, -0]) {
      for (const name of ['America/New_York', 'Europe/Paris', 'UTC']) {
        const z = resolveZone(name);
        const got = zoneAt(z, t);
        expect({ offset: got.offset, abbr: got.abbr }).toEqual(oracle(z, t));
      }
    }
  });
});
