import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JDouble } from '../engine/plugin-api.ts';
import type { JsonObject, PredicateSpec, Value } from '../engine/plugin-api.ts';
import { argsErrorOf, bindPredicate, TestPluginContext, type TestFrame } from '../formatters/util/plugin-test-context.ts';
import { removeTags } from '../formatters/util/image.ts';
import { contentPredicates } from './content.ts';

const byName = new Map(contentPredicates.map((p) => [p.name, p]));

function spec(name: string): PredicateSpec<any> {
  const p = byName.get(name);
  if (!p) throw new Error(`no predicate ${name}`);
  return p;
}

/** Tests `name` with `node` as the current frame, above the `outer` frames (root first). */
function is(name: string, node: Value, outer: TestFrame[] = [], args: string[] = []): boolean {
  const p = spec(name);
  return p.test(node, bindPredicate(p, args), new TestPluginContext([...outer, { node }]));
}

const STRANGE: Value[] = [undefined, null, 0, 'x', [], {}, [1, 2], true];

describe('registry', () => {
  it('registers 81 distinct content predicates', () => {
    expect(contentPredicates.length).toBe(81);
    expect(new Set(contentPredicates.map((p) => p.name)).size).toBe(81);
  });
  it('never throws on missing, null or wrong-typed nodes', () => {
    for (const p of contentPredicates) {
      const args = p.name === 'collectionTypeNameEquals?' ? ['x'] : [];
      for (const node of STRANGE) expect(typeof is(p.name, node, [], args)).toBe('boolean');
    }
  });
  it('is false for all but a few on a missing node', () => {
    // `clickable?` defaults to true without folderBehavior; `same-day?` compares two epoch dates.
    const trueOnMissing = contentPredicates.filter((p) => p.name !== 'collectionTypeNameEquals?' && is(p.name, undefined)).map((p) => p.name);
    expect(trueOnMissing.sort()).toEqual(['clickable?', 'same-day?']);
  });
});

describe('fixed predicates', () => {
  it('calendar-view? takes the boolean of calendarView found outward', () => {
    expect(is('calendar-view?', {}, [{ node: { calendarView: true } }])).toBe(true);
    expect(is('calendar-view?', { calendarView: 'true' })).toBe(true);
    expect(is('calendar-view?', { calendarView: 'yes' })).toBe(false);
    expect(is('calendar-view?', { calendarView: 1 })).toBe(true);
  });
  it('child-images? looks at the first item only', () => {
    expect(is('child-images?', { items: [{ mainImageId: 'a' }] })).toBe(true);
    expect(is('child-images?', { items: [{ systemDataId: 'b' }, {}] })).toBe(true);
    expect(is('child-images?', { items: [{}, { mainImageId: 'a' }] })).toBe(false);
    expect(is('child-images?', { items: [] })).toBe(false);
  });
  it('clickable? is true without folderBehavior, else for INDEX and REDIRECT', () => {
    expect(is('clickable?', {})).toBe(true);
    expect(is('clickable?', { folderBehavior: 1 })).toBe(true);
    expect(is('clickable?', { folderBehavior: '2' })).toBe(true);
    expect(is('clickable?', { folderBehavior: 3 })).toBe(false);
    expect(is('clickable?', { folderBehavior: null })).toBe(false);
    expect(is('clickable?', {}, [{ node: { folderBehavior: 3 } }])).toBe(false);
  });
  it('collection? / folder? / external-link? / main-image?', () => {
    expect(is('collection?', { collection: { id: 1 } })).toBe(true);
    expect(is('collection?', { collection: {} })).toBe(false);
    expect(is('folder?', { collection: { folder: true } })).toBe(true);
    expect(is('folder?', { collection: { folder: false } })).toBe(false);
    expect(is('external-link?', { externalLink: 'http://x' })).toBe(true);
    expect(is('external-link?', { externalLink: '' })).toBe(false);
    expect(is('main-image?', { systemDataId: 'x' })).toBe(true);
    expect(is('main-image?', { mainImageId: '' })).toBe(false);
  });
  it('collection-page? needs collection.type 10', () => {
    expect(is('collection-page?', { collection: { type: 10 } })).toBe(true);
    expect(is('collection-page?', { collection: { type: '10' } })).toBe(true);
    expect(is('collection-page?', { collection: { type: 1 } })).toBe(false);
    expect(is('collection-page?', { type: 10 })).toBe(false);
  });
  it('collection-template-page? reads the collection type, else the node type', () => {
    expect(is('collection-template-page?', { collection: { type: 7 } })).toBe(true);
    expect(is('collection-template-page?', { collection: {}, type: 7 })).toBe(false);
    expect(is('collection-template-page?', { type: 7 })).toBe(true);
    expect(is('collection-template-page?', { type: 6 })).toBe(false);
  });
  it('collectionTypeNameEquals? compares the text of typeName found outward', () => {
    expect(is('collectionTypeNameEquals?', {}, [{ node: { typeName: 'blog' } }], ['blog'])).toBe(true);
    expect(is('collectionTypeNameEquals?', { typeName: 'Blog' }, [], ['blog'])).toBe(false);
    expect(is('collectionTypeNameEquals?', { typeName: 12 }, [], ['12'])).toBe(true);
  });
  it('collectionTypeNameEquals? takes exactly one argument', () => {
    const p = spec('collectionTypeNameEquals?');
    expect(p.requiresArgs).toBe(true);
    expect(argsErrorOf(() => bindPredicate(p, ['a', 'b']))).toBe('Wrong number of args, exactly 1 expected');
    expect(argsErrorOf(() => bindPredicate(p, []))).toBe('Wrong number of args, exactly 1 expected');
  });
  it('excerpt? ignores tags, whitespace, no-break and zero-width spaces', () => {
    expect(is('excerpt?', { excerpt: { html: '<p>x</p>' } })).toBe(true);
    expect(is('excerpt?', { excerpt: { html: '<p> \u00a0\u200b\n</p>' } })).toBe(false);
    expect(is('excerpt?', { excerpt: 'plain' })).toBe(true);
    expect(is('excerpt?', { excerpt: { html: 5 } })).toBe(false);
    expect(is('excerpt?', { excerpt: 5 })).toBe(false);
    expect(is('excerpt?', { excerpt: 'text <unclosed' })).toBe(true);
    expect(is('excerpt?', { excerpt: '<unclosed text' })).toBe(false);
  });
  it('excerpt? answers as PLUGINS §7.1 defines it: the tag-stripped text, less blanks, is not empty', () => {
    // The predicate scans in place; the definition strips the tags first (removeTags).
    const blank = /[\s\u00a0\u200b]/g;
    const chars = fc.constantFrom('<', '>', ' ', '\n', '\t', '\u00a0', '\u200b', 'a', 'é', '/', 'p');
    fc.assert(
      fc.property(fc.array(chars, { maxLength: 24 }).map((cs) => cs.join('')), (text) => {
        const expected = removeTags(text).replace(blank, '').length > 0;
        expect(is('excerpt?', { excerpt: { html: text } })).toBe(expected);
        expect(is('excerpt?', { excerpt: text })).toBe(expected);
      }),
      { numRuns: 3000 },
    );
  });
  it('gallery-meta? reads options.controls or options.indicators', () => {
    expect(is('gallery-meta?', {}, [{ node: { options: { indicators: true } } }])).toBe(true);
    expect(is('gallery-meta?', { options: { controls: 1 } })).toBe(true);
    expect(is('gallery-meta?', { options: { controls: false } })).toBe(false);
  });
  it('has-multiple? counts elements or members', () => {
    expect(is('has-multiple?', [1, 2])).toBe(true);
    expect(is('has-multiple?', { a: 1, b: 2 })).toBe(true);
    expect(is('has-multiple?', [1])).toBe(false);
    expect(is('has-multiple?', 'long string')).toBe(false);
  });
  it('index? needs a folder collection whose folderBehavior is the number 1', () => {
    expect(is('index?', { collection: { folder: true, folderBehavior: 1 } })).toBe(true);
    expect(is('index?', { collection: { folder: true, folderBehavior: '1' } })).toBe(false);
    expect(is('index?', { collection: { folder: true, folderBehavior: 2 } })).toBe(false);
    expect(is('index?', { collection: { folder: 0, folderBehavior: 1 } })).toBe(false);
  });
  it('location? needs both coordinates present, whatever their value', () => {
    expect(is('location?', { location: { mapLat: null, mapLng: 0 } })).toBe(true);
    expect(is('location?', { location: { mapLat: 1 } })).toBe(false);
  });
  it('passthrough? needs a truthy flag and a source URL', () => {
    expect(is('passthrough?', { passthrough: true, sourceUrl: 'http://x' })).toBe(true);
    expect(is('passthrough?', { passthrough: true, sourceUrl: '' })).toBe(false);
    expect(is('passthrough?', { passthrough: false, sourceUrl: 'http://x' })).toBe(false);
  });
  it('redirect? is folderBehavior 2', () => {
    expect(is('redirect?', { folderBehavior: 2 })).toBe(true);
    expect(is('redirect?', { folderBehavior: new JDouble(2) })).toBe(true);
    expect(is('redirect?', { folderBehavior: 1 })).toBe(false);
  });
  it('serviceNameEmail? and show-past-events? compare text', () => {
    expect(is('serviceNameEmail?', { serviceName: 'email' })).toBe(true);
    expect(is('serviceNameEmail?', { serviceName: 'Email' })).toBe(false);
    expect(is('show-past-events?', { showPastOrUpcomingEvents: 'past' })).toBe(true);
    expect(is('show-past-events?', { showPastOrUpcomingEvents: 'upcoming' })).toBe(false);
  });

  describe('same-day?', () => {
    // 2013-11-15T03:30:00Z is still 2013-11-14 in New York (UTC−5).
    const start = Date.UTC(2013, 10, 15, 3, 30);
    const sameUtcDay = { startDate: start, endDate: Date.UTC(2013, 10, 15, 20, 0) };
    it('compares calendar dates in UTC without a time zone', () => {
      expect(is('same-day?', sameUtcDay)).toBe(true);
      expect(is('same-day?', { startDate: start, endDate: Date.UTC(2013, 10, 16, 0, 0) })).toBe(false);
    });
    it('uses website.timeZone found outward', () => {
      const ny = [{ node: { website: { timeZone: 'America/New_York' } } }];
      expect(is('same-day?', sameUtcDay, ny)).toBe(false);
      expect(is('same-day?', { startDate: start, endDate: Date.UTC(2013, 10, 14, 12, 0) }, ny)).toBe(true);
    });
    it('falls back to UTC for an unknown zone', () => {
      expect(is('same-day?', sameUtcDay, [{ node: { website: { timeZone: 'Mars/Base' } } }])).toBe(true);
    });
    it('reads string dates as integers', () => {
      expect(is('same-day?', { startDate: String(start), endDate: String(start + 1000) })).toBe(true);
    });

    /** The calendar dates as the host's Intl writes them in the zone (UTC for an id it does not know). */
    function intlSameDay(a: number, b: number, zone: string): boolean {
      const options: Intl.DateTimeFormatOptions = { year: 'numeric', month: '2-digit', day: '2-digit', era: 'short' };
      let f: Intl.DateTimeFormat;
      try {
        f = new Intl.DateTimeFormat('en-US', { ...options, timeZone: zone });
      } catch {
        f = new Intl.DateTimeFormat('en-US', { ...options, timeZone: 'UTC' });
      }
      const day = (ms: number) => (Number.isNaN(new Date(ms).getTime()) ? 'invalid' : f.format(new Date(ms)));
      return day(a) === day(b);
    }

    it('agrees with the calendar dates Intl writes, around midnights, DST changes and past 2037', () => {
      const zones = ['UTC', 'America/New_York', 'US/Pacific', 'america/chicago', 'Europe/Berlin', 'Asia/Kolkata', 'Australia/Lord_Howe', 'Pacific/Apia', 'Pacific/Chatham', 'America/Sao_Paulo', 'Asia/Tehran', 'Mars/Base', ''];
      const instant = fc.oneof(
        fc.integer({ min: Date.UTC(1971, 0, 1), max: Date.UTC(2060, 0, 1) }),
        // Near a local midnight of the zone's usual offsets.
        fc.tuple(fc.integer({ min: 0, max: 30_000 }), fc.integer({ min: -14 * 4, max: 14 * 4 }), fc.integer({ min: -90_000, max: 90_000 })).map(([d, q, s]) => d * 86_400_000 + q * 900_000 + s * 1000),
      );
      fc.assert(
        fc.property(fc.constantFrom(...zones), instant, fc.integer({ min: -2 * 86_400_000, max: 2 * 86_400_000 }), (zone, a, delta) => {
          const frames = zone === '' ? [] : [{ node: { website: { timeZone: zone } } }];
          expect(is('same-day?', { startDate: a, endDate: a + delta }, frames)).toBe(intlSameDay(a, a + delta, zone === '' ? 'UTC' : zone));
        }),
        { numRuns: 20_000 },
      );
    });

    it('an invalid date is the same day only as another invalid one', () => {
      const far = 9e15;
      expect(is('same-day?', { startDate: far, endDate: far + 1 })).toBe(true);
      expect(is('same-day?', { startDate: far, endDate: start })).toBe(false);
      expect(is('same-day?', { startDate: 8.64e15 - 3_600_000, endDate: 8.64e15 - 7_200_000 })).toBe(true);
      expect(is('same-day?', { startDate: 8.64e15, endDate: 8.64e15 - 1000 })).toBe(false);
    });

    it('summer days after 2037 still keep daylight time (where the zone table stops)', () => {
      const ny = [{ node: { website: { timeZone: 'America/New_York' } } }];
      // 2040-07-01T03:30Z is 23:30 on 30 June in New York's daylight time (UTC−4), 22:30 in its standard time.
      const late = Date.UTC(2040, 6, 1, 3, 30);
      expect(is('same-day?', { startDate: late, endDate: Date.UTC(2040, 6, 1, 3, 59) }, ny)).toBe(true);
      expect(is('same-day?', { startDate: late, endDate: Date.UTC(2040, 6, 1, 4, 0) }, ny)).toBe(false);
    });
  });
});

describe('gallery option predicates', () => {
  const opts = (options: JsonObject): TestFrame[] => [{ node: { options } }];
  it('select predicates compare the option text', () => {
    expect(is('gallery-design-grid?', {}, opts({ design: 'grid' }))).toBe(true);
    expect(is('gallery-design-slider?', {}, opts({ design: 'grid' }))).toBe(false);
    expect(is('gallery-meta-position-top-left?', {}, opts({ 'meta-position': 'top-left' }))).toBe(true);
    expect(is('gallery-meta-position-top?', {}, opts({ 'meta-position': 'top-left' }))).toBe(false);
    expect(is('gallery-active-alignment-right?', { options: { 'active-alignment': 'right' } })).toBe(true);
  });
  it('boolean predicates take the boolean of the option', () => {
    expect(is('gallery-autoplay?', {}, opts({ autoplay: true }))).toBe(true);
    expect(is('gallery-auto-crop?', {}, opts({ 'auto-crop': 'true' }))).toBe(true);
    expect(is('gallery-lightbox?', {}, opts({ lightbox: 'yes' }))).toBe(false);
    expect(is('gallery-show-meta-on-hover?', {}, opts({ 'show-meta-on-hover': 1 }))).toBe(true);
    expect(is('gallery-thumbnails?', {}, opts({}))).toBe(false);
  });
  it('has the 22 names of the spec', () => {
    const names = contentPredicates.map((p) => p.name).filter((n) => n.startsWith('gallery-') && n !== 'gallery-meta?');
    expect(names.length).toBe(22);
  });
});

describe('record-type predicates', () => {
  it('match the record type code', () => {
    expect(is('text?', { recordType: 1 })).toBe(true);
    expect(is('store-item?', { recordType: '11' })).toBe(true);
    expect(is('kbarticle?', { recordType: 54 })).toBe(true);
    expect(is('event?', { recordType: 11 })).toBe(false);
    expect(is('undefined?', { recordType: -1 })).toBe(true);
    expect(is('undefined?', {})).toBe(false);
  });
  it('promoted record types also match the promoted block word', () => {
    expect(is('video?', { recordType: 8 })).toBe(true);
    expect(is('video?', { promotedBlockType: 'video' })).toBe(true);
    expect(is('external-video?', { promotedBlockType: 'video' })).toBe(true);
    expect(is('image?', { recordType: 2 })).toBe(true);
    expect(is('gallery?', { promotedBlockType: 'gallery' })).toBe(true);
    expect(is('quote?', { promotedBlockType: 'link' })).toBe(false);
    expect(is('link?', { promotedBlockType: 'link' })).toBe(true);
  });
  it('has no plain predicate for the promoted types twice', () => {
    expect(contentPredicates.filter((p) => p.name === 'video?').length).toBe(1);
  });
});

describe('promoted-block and background-source predicates', () => {
  it('promoted<WORD>? compares the lower-case word', () => {
    expect(is('promotedMAP?', { promotedBlockType: 'map' })).toBe(true);
    expect(is('promotedFOURSQUARE?', { promotedBlockType: 'foursquare' })).toBe(true);
    expect(is('promotedFORM?', { promotedBlockType: 'FORM' })).toBe(false);
    expect(is('promotedVIDEO?', { recordType: 8 })).toBe(false);
  });
  it('background-source-*? match the code', () => {
    expect(is('background-source-upload?', { backgroundSource: 1 })).toBe(true);
    expect(is('background-source-none?', { backgroundSource: 4 })).toBe(true);
    expect(is('background-source-video?', { backgroundSource: 2 })).toBe(false);
    expect(is('background-source-undefined?', { backgroundSource: -1 })).toBe(true);
  });
});

describe('robustness', () => {
  it('returns a boolean for any node and context', async () => {
    const fc = await import('fast-check');
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (node, outer) => {
        for (const p of contentPredicates) {
          const args = p.name === 'collectionTypeNameEquals?' ? ['x'] : [];
          expect(typeof is(p.name, node as Value, [{ node: outer as Value }], args)).toBe('boolean');
        }
      }),
      { numRuns: 200 },
    );
  });
});
