// Every formatter and predicate does work linear in its input (issue 13, finding 3: `safe`
// took 6.8 s on 100,000 `<`). Work is counted, not timed (util/work-meter.ts, which says what
// a step is): each plugin renders the same adversarial input at sizes n and 4n, and the
// metered steps of the second may be at most 5.5 times those of the first (linear gives 4,
// n log n about 5 at these sizes, quadratic 16), plus a small constant for the fixed cost of
// a render. The input is a run of adversarial pieces (unclosed `<`, `&`, quotes, whitespace,
// brackets, digits, `http://`, lone surrogates…) given three ways: as the value itself, as
// every text member of an object that has each member some plugin reads, and as lists whose
// length grows with n (a list searched once per element shows there).
//
// The plugin list comes from the engine (`listPlugins`), so a new plugin is covered without
// editing this file; one that needs arguments fails until ARGS says which to use.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compile, listPlugins } from '../engine/index.ts';
import { defaultPredicates } from '../predicates/index.ts';
import { defaultFormatters } from './index.ts';
import { measureWork, meteredData, VETTED_REGEXPS } from './util/work-meter.ts';

const SEED = 20261125;
const N = 300;
/** Allowed growth of the steps from n to 4n, and the slack for a render's fixed cost. */
const GROWTH = 5.5;
const SLACK = 400;

/** Arguments for plugins that need some; text-valued ones point at the adversarial text `w`. */
const ARGS: Readonly<Record<string, string>> = {
  apply: 'p',
  cycle: 'a b',
  date: '%Y-%m-%d %H:%M %A %B',
  datetimefield: 'x',
  'find-first': 'title',
  'find-last': 'title',
  format: 'w w',
  get: 'w',
  'key-by': 'title',
  lookup: 'w',
  message: 'w w',
  output: 'x',
  plural: 'w',
  prop: 'title',
  resizedHeightForWidth: '100',
  resizedWidthForHeight: '100',
  squarespaceThumbnailForHeight: '100',
  squarespaceThumbnailForWidth: '100',
  truncate: '50',
  'equal?': 'w',
  'notEqual?': 'w',
  'greaterThan?': 'w',
  'greaterThanOrEqual?': 'w',
  'lessThan?': 'w',
  'lessThanOrEqual?': 'w',
  'nth?': 'w',
  'collectionTypeNameEquals?': 'w',
  'current-type?': 'image',
};

/**
 * Plugins that take no text, with the reason: they are held to more than linear growth, their
 * work must not grow at all. Every other plugin is measured for linear growth; none is left out.
 */
const TAKES_NO_TEXT: ReadonlyMap<string, string> = new Map([
  ['cart-url', 'prints the constant `/cart`'],
  ['datetimefield', 'deprecated: always missing'],
  ['iter', 'prints `@index`, a number'],
  ['output', 'prints its own argument'],
  ['unit', 'deprecated: always missing'],
  ['units-metric?', 'deprecated: always true'],
]);

// ---- adversarial inputs ----------------------------------------------------------------

/** Pieces whose long runs make naive scanners and backtracking patterns rescan. */
const PIECES = [
  '<', '>', '</', '<a ', '&', '&amp;', '&#', '"', "'", '`', ' ', '\t', '\n', '\r', '\u00a0', '\u200b',
  '{', '}', '{0}', '{0', '[', ']', '(', ')', '0', '9', '1.', '.', '-', '--', '+', 'e', 'E', 'x', 'a', 'Z',
  '#', '@', '%', '/', ':', '://', 'http://', 'https://a', '?', '=', ',', ';', '_', '\\', '\u00e9', '\ud800',
  '\ud83d\ude00', '$', '*', '|', 'w', 'T', '%Y', 'x1', '1x',
];

interface TextSpec {
  readonly prefix: string;
  readonly unit: string;
  readonly suffix: string;
}

/** The text of about `n` characters: the unit repeated between prefix and suffix. */
function textOf(spec: TextSpec, n: number): string {
  return spec.prefix + spec.unit.repeat(Math.max(1, Math.ceil(n / spec.unit.length))) + spec.suffix;
}

const piece = fc.constantFrom(...PIECES);
const textSpec: fc.Arbitrary<TextSpec> = fc.record({
  prefix: fc.array(piece, { maxLength: 3 }).map((a) => a.join('')),
  unit: fc.array(piece, { minLength: 1, maxLength: 3 }).map((a) => a.join('')),
  suffix: fc.array(piece, { maxLength: 3 }).map((a) => a.join('')),
});

/** The runs the issue names, always tried first. */
const CLASSIC: TextSpec[] = [
  '<', '&', '"', "'", ' ', '\t\n', '{', '{0', '[(', '0', '1', '-', '--', 'http://', '://a?', '@', '#', '%', '\\', '\ud800', 'x',
].map((unit) => ({ prefix: '', unit, suffix: '' }))
  .concat([
    { prefix: '1', unit: '0', suffix: 'x' },
    { prefix: '1.', unit: '0', suffix: 'e' },
    { prefix: 'http://', unit: '?', suffix: '' },
    { prefix: '', unit: '<a', suffix: '>' },
  ]);

const COLOR_POSITIONS = ['topLeft', 'topRight', 'bottomLeft', 'bottomRight', 'center'];

/**
 * An object with every member the built-in formatters and predicates read, strings set to
 * `t` and lists `k` long (their elements vary, so they are all different).
 */
function universal(t: string, k: number): Record<string, unknown> {
  const list = (make: (i: number) => unknown): unknown[] => Array.from({ length: k }, (_, i) => make(i));
  const money = (i: number) => ({ value: t + i, currency: t, decimalValue: t + i, currencyCode: t });
  const variant = (i: number) => ({
    id: t + i,
    attributes: { [t + 'a']: t + i, [t + 'b']: t + (i % 3) },
    optionValues: [{ value: t + i }],
    price: i,
    salePrice: i,
    onSale: i % 2 === 0,
    unlimited: false,
    qtyInStock: t,
    priceMoney: money(i),
    salePriceMoney: money(i),
    pricingOptions: [{ onSale: true, priceMoney: money(i), salePriceMoney: money(i) }],
  });
  const colorData: Record<string, string> = {};
  for (const p of COLOR_POSITIONS) colorData[p + 'Average'] = t;
  return {
    id: t,
    title: t,
    body: t,
    html: t,
    text: t,
    altText: t,
    filename: t,
    assetUrl: t,
    systemDataVariants: t,
    systemDataId: t,
    mainImageId: t,
    originalSize: t,
    componentKey: t,
    fullUrl: t,
    sourceUrl: t,
    recordType: t,
    promotedBlockType: t,
    recordTypeLabel: t,
    typeName: t,
    serviceName: t,
    showPastOrUpcomingEvents: t,
    passthrough: true,
    overlay: true,
    externalLink: t,
    excerpt: { html: t },
    oembed: { html: t, providerName: t },
    colorData,
    mediaFocalPoint: { x: t, y: t },
    location: { addressLine1: t, addressLine2: t, addressCountry: t, mapLat: t, mapLng: t },
    startDate: t,
    endDate: t,
    userName: '',
    profileUrl: t,
    publicCommentCount: t,
    commentState: t,
    displayName: t,
    author: { displayName: t },
    categories: list((i) => t + i),
    tags: list((i) => t + i),
    hue: t,
    saturation: t,
    lightness: t,
    alpha: t,
    type: t,
    rawTitle: t,
    value: t,
    values: Object.fromEntries(Array.from({ length: k }, (_, i) => [t + i, t])),
    currency: t,
    decimalValue: t,
    currencyCode: t,
    subtotalCents: t,
    entries: list(() => ({ quantity: t })),
    optionValues: list((i) => ({ value: t + i })),
    items: list((i) => ({ mainImageId: t + i, title: t, body: t, assetUrl: t })),
    coverImage: { title: t, body: t, assetUrl: t },
    structuredContent: {
      productType: 1,
      isSubscribable: false,
      variants: list(variant),
      variantOptionOrdering: list((i) => t + i).concat([t + 'a', t + 'b']),
      subscriptionPlan: { billingPeriod: { value: t, unit: t }, numBillingCycles: t },
      priceMoney: money(0),
      salePriceMoney: money(0),
    },
    folderBehavior: t,
    collection: { type: t, folder: t, folderBehavior: t, typeName: t },
    options: { controls: t, indicators: t },
    currentType: t,
    backgroundSource: t,
    localizedStrings: { productQuickViewText: t, productSoldOutText: t, productSaleText: t, productPriceFromText: t },
    productMerchandisingContext: { [t]: { customSoldOutText: t, scarcityEnabled: true, scarcityText: t } },
    website: { timeZone: t, shareButtonOptions: { a: t }, captchaSettings: { siteKey: t } },
    websiteSettings: { commentsEnabled: true, disqusShortName: t },
    calendarView: t,
    debug: t,
  };
}

type Shape = 'text' | 'fields' | 'lists';

/** The data of a render at size n: `v` the value, the rest the scope names resolve from. */
function dataFor(shape: Shape, spec: TextSpec, n: number): unknown {
  if (shape === 'text') {
    const t = textOf(spec, n);
    return { ...universal('u', 2), v: t, w: t, a: t, b: t };
  }
  if (shape === 'fields') {
    const t = textOf(spec, n);
    return { ...universal(t, 2), v: universal(t, 2), w: t, a: t, b: t };
  }
  // Lists about n/8 long with short texts: a list scanned once per element shows.
  const t = textOf(spec, 4);
  const k = Math.ceil(n / 8);
  const big = universal(t, k);
  return { ...big, v: big, w: t, a: t, b: t };
}

// ---- measuring --------------------------------------------------------------------------

const plugins = listPlugins();
const specs = new Map<string, { requiresArgs?: boolean }>([
  ...defaultFormatters.map((f): [string, { requiresArgs?: boolean }] => [f.name, f]),
  ...defaultPredicates.map((p): [string, { requiresArgs?: boolean }] => [p.name, p]),
]);

function templateFor(name: string, isPredicate: boolean): string {
  const args = ARGS[name];
  const tail = args === undefined ? '' : ' ' + args;
  return isPredicate ? `{.section v}{.${name}${tail}}1{.or}0{.end}{.end}` : `{v|${name}${tail}}`;
}

const PARTIALS = { p: '{@|html}' };

interface Growth {
  readonly small: number;
  readonly large: number;
  readonly unvetted: string[];
}

// The same inputs serve every plugin (the seed is fixed), so each is built once.
const dataCache = new Map<string, unknown>();

function cachedData(shape: Shape, spec: TextSpec, n: number): unknown {
  const key = shape + '\u0000' + n + '\u0000' + JSON.stringify(spec);
  let data = dataCache.get(key);
  if (data === undefined) {
    data = meteredData(dataFor(shape, spec, n));
    if (dataCache.size > 256) dataCache.clear();
    dataCache.set(key, data);
  }
  return data;
}

function growth(name: string, isPredicate: boolean, shape: Shape, spec: TextSpec, n = N): Growth {
  const template = compile(templateFor(name, isPredicate));
  const measure = (size: number) => {
    const data = cachedData(shape, spec, size);
    // A first render warms the caches plugins keep (parsed patterns, zones), as a server's
    // would be; the second is measured.
    const first = template.render(data, { partials: PARTIALS, now: 0 });
    // A template that did not bind, or a render cut short by a limit, would measure nothing.
    const unbound = first.errors.filter((e) => e.stage !== 'render' && e.stage !== 'expression');
    if (unbound.length > 0) throw new Error(`${name} did not run: ${unbound.map((e) => e.message).join('; ')}`);
    return measureWork(() => template.render(data, { partials: PARTIALS, now: 0 }));
  };
  const a = measure(n);
  const b = measure(4 * n);
  return { small: a.steps, large: b.steps, unvetted: [...a.unvetted.keys(), ...b.unvetted.keys()] };
}

function isLinear(g: Growth): boolean {
  return g.large <= GROWTH * g.small + SLACK;
}

function isConstant(g: Growth): boolean {
  return g.large <= g.small + SLACK;
}

function describeGrowth(name: string, shape: Shape, spec: TextSpec, g: Growth): string {
  const unvetted = g.unvetted.length ? `; unvetted patterns ${[...new Set(g.unvetted)].join(' ')}` : '';
  return `${name} (${shape}, unit ${JSON.stringify(spec.unit)}): ${g.small} steps at n, ${g.large} at 4n${unvetted}`;
}

function checkPlugin(name: string, isPredicate: boolean): void {
  for (const shape of ['text', 'fields', 'lists'] as const) {
    fc.assert(
      fc.property(textSpec, (spec) => {
        const g = growth(name, isPredicate, shape, spec);
        if (!(TAKES_NO_TEXT.has(name) ? isConstant(g) : isLinear(g))) throw new Error(describeGrowth(name, shape, spec, g));
      }),
      { seed: SEED, numRuns: shape === 'lists' ? 2 : 4, examples: (shape === 'lists' ? CLASSIC.slice(0, 4) : CLASSIC).map((c) => [c]), endOnFailure: true },
    );
  }
}

describe('the meter', () => {
  it('tells a rescanning loop and a backtracking pattern from linear ones', () => {
    const rescan = (s: string) => {
      let count = 0;
      for (let i = 0; i < s.length; i++) if (s.indexOf('>', i) < 0) count++;
      return count;
    };
    const scan = (s: string) => s.indexOf('>');
    const steps = (f: (s: string) => unknown, n: number) => measureWork(() => f('<'.repeat(n))).steps;
    expect(steps(rescan, 4000)).toBeGreaterThan(12 * steps(rescan, 1000));
    expect(steps(scan, 4000)).toBeLessThan(GROWTH * steps(scan, 1000));
    const tags = /<[^>]*>/g;
    const report = measureWork(() => '<'.repeat(1000).replace(tags, ''));
    expect(report.unvetted.get(String(tags))).toBe(1000);
    expect(measureWork(() => '<'.repeat(4000).replace(tags, '')).steps).toBeGreaterThan(12 * report.steps);
  });

  it('counts member reads of metered data', () => {
    const data = meteredData({ list: Array.from({ length: 100 }, (_, i) => ({ id: i })) });
    const quadratic = () => data.list.filter((a) => data.list.some((b) => b.id === a.id + 1)).length;
    const linear = () => data.list.map((a) => a.id).length;
    expect(measureWork(quadratic).steps).toBeGreaterThan(100 * 100);
    expect(measureWork(linear).steps).toBeLessThan(1000);
  });

  it('lists a reason for every vetted pattern', () => {
    for (const [pattern, reason] of VETTED_REGEXPS) expect(reason.length, pattern).toBeGreaterThan(20);
  });
});

describe('finding 3: `safe` on unclosed `<`', () => {
  it('does work proportional to n for 100,000 and 400,000 `<`', () => {
    const template = compile('{v|safe}');
    const steps = (n: number) => {
      const data = { v: '<'.repeat(n) };
      const r = measureWork(() => template.render(data));
      expect(r.result.html).toBe('<'.repeat(n));
      return r.steps;
    };
    const small = steps(100_000);
    const large = steps(400_000);
    expect(large).toBeLessThanOrEqual(GROWTH * small + SLACK);
    expect(small).toBeLessThan(10 * 100_000);
  });
});

describe('every formatter and predicate is linear in its input', () => {
  it('knows the arguments of every plugin that requires some', () => {
    const missing = [...plugins.formatters, ...plugins.predicates].filter((n) => specs.get(n)?.requiresArgs && ARGS[n] === undefined);
    expect(missing).toEqual([]);
  });

  it('lists only registered plugins as taking no text', () => {
    const known = new Set([...plugins.formatters, ...plugins.predicates]);
    expect([...TAKES_NO_TEXT.keys()].filter((n) => !known.has(n))).toEqual([]);
  });

  for (const name of plugins.formatters) it(`formatter ${name}`, () => checkPlugin(name, false), 120_000);
  for (const name of plugins.predicates) it(`predicate ${name}`, () => checkPlugin(name, true), 120_000);
});
