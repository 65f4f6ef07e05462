// The fresh-data workloads (fresh.ts): page templates written for this mode, in
// bench/workloads/fresh/ (a shared head and foot around each body, partials in partials/),
// and a generator per workload that builds the data of render number i from the seed i. A job
// renders a rotation of `pool` data sets, each used once per pass, so a value comes back only
// after every other set has been rendered (see ROTATION_VALUES).
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as g from './fresh-data.ts';

/** Fixed "now" so that date-relative output is the same in every engine. */
export const FRESH_NOW = 1_760_000_000_000;

/**
 * The memos of formatters/ and engine/ keep at most 4,096 entries (date patterns, quoted JSON
 * keys 512; until 2026-11-28 also escaped texts 1,024 and money amounts 256) and are cleared
 * when full. A rotation that shows at least this many distinct values of each kind between two
 * uses of one value leaves them nothing to find.
 */
export const ROTATION_VALUES = 8192;

export interface FreshWorkload {
  name: string;
  /** `page`: the page workloads the targets hold on; `serializer`: the json micro-benchmark. */
  group: 'page' | 'serializer';
  what: string;
  template: string;
  partials: Record<string, string>;
  /** The data of render number i: every printed value drawn from seed i. */
  data(i: number): unknown;
  /** Data sets in the rotation (enough that each memoised kind sees ROTATION_VALUES values). */
  pool: number;
  /**
   * Rewrites a data set's JSON text before either engine reads it: `jackson` writes integral
   * numbers as the platform's Java serializer writes its doubles (`12.0`), as real page contexts
   * carry them (Quire keeps them doubles, `JDouble`; the port's `JSON.parse` makes them integers).
   */
  text?: 'jackson';
}

/** Integral numbers of a JSON text (not in strings: the generators put no `":` digits in one) written `12.0`. */
export function jacksonDoubles(json: string): string {
  return json.replace(/":(-?\d{1,9})([,}\]])/g, '":$1.0$2');
}

const DIR = fileURLToPath(new URL(existsSync(fileURLToPath(new URL('./workloads/fresh/', import.meta.url))) ? './workloads/fresh/' : '../workloads/fresh/', import.meta.url));

function read(name: string): string {
  return readFileSync(join(DIR, name), 'utf8');
}

let partialSources: Record<string, string> | null = null;

function allPartials(): Record<string, string> {
  if (partialSources) return partialSources;
  partialSources = {};
  for (const f of readdirSync(join(DIR, 'partials'))) if (f.endsWith('.jsont')) partialSources[f.slice(0, -'.jsont'.length)] = read('partials/' + f);
  return partialSources;
}

/** A page: the body template between the shared head and foot. */
function page(body: string): string {
  return read('_head.jsont') + read(body + '.jsont') + read('_foot.jsont');
}

const NOW = FRESH_NOW;

function site(r: g.Rand, i: number, collection: Record<string, unknown>): Record<string, unknown> {
  return {
    website: g.website(r, i),
    websiteSettings: { storeSettings: { currencyCode: 'USD' }, commentsEnabled: true },
    featureFlags: { useCLDRMoneyFormat: true },
    navigation: g.navigation(r, i),
    cart: g.chance(r, 0.5) ? { totalQuantity: g.int(r, 1, 9) } : undefined,
    collection,
  };
}

function collection(r: g.Rand, i: number, typeName: string, itemCount: number): Record<string, unknown> {
  const t = g.title(r, i);
  return { id: g.id(r, i), title: t, typeName, fullUrl: '/' + g.slug(t), itemCount, description: '<p>' + g.sentence(r, i) + '</p>', updatedOn: g.instant(r, NOW, 10) };
}

function products(r: g.Rand, i: number, n: number, variants: () => number): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (let k = 0; k < n; k++) out.push(g.product(r, i * 1000 + k, NOW, { variants: variants() }));
  return out;
}

/** Enough data sets that the rotation shows ROTATION_VALUES values of a kind printed `perSet` times a set. */
const poolFor = (perSet: number): number => Math.max(24, Math.min(512, Math.ceil(ROTATION_VALUES / perSet)));

function productPage(i: number, variants: number): unknown {
  const r = g.rng(i);
  const c = collection(r, i, 'products', g.int(r, 10, 90));
  const item = g.product(r, i * 1000, NOW, { variants });
  return { ...site(r, i, c), item: { ...item, collection: c }, related: products(r, i * 7 + 1, 4, () => 1) };
}

function gridPage(i: number, n: number): unknown {
  const r = g.rng(i);
  const c = collection(r, i, 'products', n);
  return { ...site(r, i, c), items: products(r, i, n, () => g.int(r, 1, 4)) };
}

function comments(r: g.Rand, i: number, n: number): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (let k = 0; k < n; k++) {
    const c = g.comment(r, i * 100 + k, NOW);
    if (g.chance(r, 0.3)) {
      const replies: Record<string, unknown>[] = [];
      for (let j = g.int(r, 1, 3); j > 0; j--) replies.push(g.comment(r, i * 100000 + k * 10 + j, NOW));
      c.replies = replies;
    }
    out.push(c);
  }
  return out;
}

/** A blog post page: a collection of `items` posts, `paragraphs` and `commentCount` each a [min, max] range. */
function postPage(i: number, items: number, paragraphs: [number, number], commentCount: [number, number]): unknown {
  const r = g.rng(i);
  const c = collection(r, i, 'blog', items);
  const item = g.post(r, i * 100, NOW, g.int(r, paragraphs[0], paragraphs[1]));
  const list = comments(r, i, g.int(r, commentCount[0], commentCount[1]));
  Object.assign(item, { comments: list, commentCount: list.length, collection: c, pagination: { prevItem: g.post(r, i * 100 + 1, NOW, 0), nextItem: g.post(r, i * 100 + 2, NOW, 0) } });
  return { ...site(r, i, c), item, websiteSettings: { commentsEnabled: true } };
}

function jsonPage(i: number, products: number): unknown {
  const r = g.rng(i);
  const c = collection(r, i, 'products', products);
  const items = [];
  for (let k = 0; k < products; k++) items.push(g.product(r, i * 1000 + k, NOW, { variants: g.int(r, 1, 6) }));
  return { ...site(r, i, c), items };
}

/**
 * The JSON page over a context that also holds maps, as real ones do: 300 localized strings
 * and the 24 products' merchandising entries keyed by id among 200. An object of 128 members
 * or more is one `JSON.parse` gives dictionary properties, which every walk of it pays for
 * (bench/README.md, "Error paths and `same-day?`").
 */
function jsonMapsPage(i: number): unknown {
  const r = g.rng(i);
  const c = collection(r, i, 'products', 24);
  const items = [];
  for (let k = 0; k < 24; k++) items.push(g.product(r, i * 1000 + k, NOW, { variants: g.int(r, 1, 4) }));
  const localizedStrings: Record<string, string> = {};
  for (let k = 0; k < 300; k++) localizedStrings[`str${k}-${(i * 7 + k).toString(36)}`] = g.sentence(r, i * 1000 + k);
  const productMerchandisingContext: Record<string, unknown> = {};
  for (let k = 0; k < 200; k++) productMerchandisingContext[g.id(r, i * 1000 + k)] = { scarcityEnabled: g.chance(r, 0.3), qtyInStock: g.int(r, 0, 40) };
  return { ...site(r, i, c), items, localizedStrings, productMerchandisingContext };
}

/** The serializer micro-benchmark's object: `products` products (about 2.4 KB of JSON each). */
function serializerData(i: number, products: number): unknown {
  const r = g.rng(i);
  const items = [];
  for (let k = 0; k < products; k++) items.push(g.product(r, i * 1000 + k, NOW, { variants: g.int(r, 1, 4) }));
  return { website: g.website(r, i), o: { items, total: products, generated: g.instant(r, NOW, 5) } };
}

const serializer = (name: string, formatter: string, products: number, what: string, text?: 'jackson'): FreshWorkload => ({
  name,
  group: 'serializer',
  what,
  template: formatter === 'json|htmlattr' ? '<div data-o="{o|json|htmlattr}"></div>' : formatter === 'json-script' ? '<script>var o = {o|json};</script>' : `{o|${formatter}}`,
  partials: {},
  data: (i) => serializerData(i, products),
  pool: 16,
  text,
});

export function freshWorkloads(): FreshWorkload[] {
  const partials = allPartials();
  return [
    { name: 'product-variants', group: 'page', what: 'product page, 6–12 variants with `money` per variant (sale and regular), variant select, gallery of 3–8 images with `image-meta`, `product-price` (CLDR), tags', template: page('product-variants'), partials: {}, data: (i) => productPage(i, 6 + (i % 7)), pool: poolFor(40) },
    { name: 'product-simple', group: 'page', what: 'product page without variants: one price, `add-to-cart-btn`, 4 related products with `money`', template: page('product-simple'), partials: {}, data: (i) => productPage(i, 1), pool: poolFor(20) },
    { name: 'grid-24', group: 'page', what: '24 products: `item-classes`, badges (`on-sale?`, `sold-out?`, `varied-prices?`), `money`, tags, `truncate` excerpts, `image-meta`', template: page('product-grid'), partials: {}, data: (i) => gridPage(i, 24), pool: poolFor(24 * 6) },
    { name: 'grid-200', group: 'page', what: 'the same grid with 200 products', template: page('product-grid'), partials: {}, data: (i) => gridPage(i, 200), pool: 24 },
    {
      name: 'blog-list', group: 'page', what: '20 posts: dates (`date`), authors, categories, `truncate` excerpts, `pluralize`, `comment-link`',
      template: page('blog-list'), partials: {},
      data: (i) => {
        const r = g.rng(i);
        const c = collection(r, i, 'blog', 20);
        const items = [];
        for (let k = 0; k < 20; k++) items.push(g.post(r, i * 100 + k, NOW, 1));
        return { ...site(r, i, c), items, pagination: { nextPage: true, nextPageUrl: c.fullUrl + '?offset=' + g.instant(r, NOW, 90), prevPage: false } };
      },
      pool: poolFor(20 * 6),
    },
    {
      name: 'blog-post', group: 'page', what: 'a post with 5–8 paragraphs, 10–50 comments (some with replies) with `date` and `timesince`, like and share buttons',
      template: page('blog-post'), partials: {},
      data: (i) => postPage(i, 40, [5, 8], [10, 50]),
      pool: poolFor(40),
    },
    {
      name: 'long-post', group: 'page', what: 'a long-form post (300–600 paragraphs, ~90–180 KB of body HTML) with 0–8 comments: one text longer than a whole page',
      template: page('blog-post'), partials: {},
      data: (i) => postPage(i, 10, [300, 600], [0, 8]),
      pool: poolFor(40),
    },
    {
      name: 'event-list', group: 'page', what: '30 events: `date` with many codes and zones, `datetime`, addresses, `google-calendar-url`',
      template: page('event-list'), partials: {},
      data: (i) => {
        const r = g.rng(i);
        const c = collection(r, i, 'events', 30);
        const items = [];
        for (let k = 0; k < 30; k++) items.push(g.event(r, i * 100 + k, NOW));
        return { ...site(r, i, c), items };
      },
      pool: poolFor(30 * 5),
    },
    {
      name: 'gallery', group: 'page', what: '60 images: `image-meta`, `resizedHeightForWidth`, captions',
      template: page('gallery'), partials: {},
      data: (i) => {
        const r = g.rng(i);
        const c = collection(r, i, 'gallery', 60);
        const items = [];
        for (let k = 0; k < 60; k++) items.push({ ...g.image(r, i * 100 + k), fullUrl: c.fullUrl + '?itemId=' + k, description: g.chance(r, 0.6) ? g.sentence(r, i * 100 + k) : '' });
        return { ...site(r, i, c), items };
      },
      pool: poolFor(60 * 2),
    },
    {
      name: 'index-page', group: 'page', what: 'an index of 8 sections (pages and collections with 0–6 items each): record-type predicates, `image-meta`, blocks HTML',
      template: page('index-page'), partials: {},
      data: (i) => {
        const r = g.rng(i);
        const c = collection(r, i, 'index', 8);
        const sections = [];
        for (let k = 0; k < 8; k++) {
          const t = g.title(r, i * 10 + k);
          const isCollection = g.chance(r, 0.5);
          const items = [];
          if (isCollection) for (let j = g.int(r, 1, 6); j > 0; j--) items.push({ ...g.post(r, i * 1000 + k * 10 + j, NOW, 0), mainImage: undefined, assetUrl: g.image(r, i * 1000 + k * 10 + j).assetUrl });
          sections.push({
            id: g.id(r, i * 10 + k), urlId: g.slug(t), title: t, fullUrl: '/' + g.slug(t), typeName: isCollection ? 'blog' : 'page',
            collection: isCollection, type: isCollection ? 1 : 10, description: '<p>' + g.sentence(r, i * 10 + k) + '</p>',
            mainImage: g.chance(r, 0.6) ? g.image(r, i * 10 + k) : undefined, items, blocksHtml: g.paragraphs(r, i * 10 + k, g.int(r, 1, 3)),
          });
        }
        return { ...site(r, i, { ...c, collections: sections }) };
      },
      pool: poolFor(40),
    },
    { name: 'json-page-small', group: 'page', what: 'a page dominated by `{@|json}` of its context (~30 KB: 10 products) and `raw`', template: page('json-page'), partials: {}, data: (i) => jsonPage(i, 10), pool: 32 },
    { name: 'json-page-maps', group: 'page', what: 'the JSON page over a context with maps: 300 localized strings, merchandising entries of 200 products by id (~160 KB page)', template: page('json-page'), partials: {}, data: (i) => jsonMapsPage(i), pool: 32 },
    { name: 'json-page-large', group: 'page', what: 'the same page with 300 products (~900 KB of JSON)', template: page('json-page'), partials: {}, data: (i) => jsonPage(i, 300), pool: 12 },
    {
      name: 'many-partials', group: 'page', what: '120 tiles, each five small partials (`apply`) deep: image, link, badges, price (`money`), tags',
      template: page('many-partials'), partials,
      data: (i) => {
        const r = g.rng(i);
        const c = collection(r, i, 'products', 120);
        return { ...site(r, i, c), items: products(r, i, 120, () => 1) };
      },
      pool: poolFor(120 * 3),
    },
    serializer('json-10k', 'json', 4, '`{o|json}`, ~10 KB object'),
    serializer('json-100k', 'json', 40, '`{o|json}`, ~100 KB object'),
    serializer('json-1m', 'json', 400, '`{o|json}`, ~1 MB object'),
    serializer('json-doubles-100k', 'json', 40, '`{o|json}`, ~100 KB object whose integral numbers are written `12.0`, as the platform\'s Java serializer writes doubles', 'jackson'),
    serializer('raw-100k', 'raw', 40, '`{o|raw}`, ~100 KB object'),
    serializer('json-script-100k', 'json-script', 40, '`<script>var o = {o|json};</script>`, ~100 KB object'),
    serializer('json-attr-100k', 'json|htmlattr', 40, '`{o|json|htmlattr}`, ~100 KB object'),
    serializer('json-pretty-10k', 'json-pretty', 4, '`{o|json-pretty}`, ~10 KB object (the port lays arrays out differently, §17.5)'),
    serializer('json-pretty-100k', 'json-pretty', 40, '`{o|json-pretty}`, ~100 KB object'),
    serializer('json-pretty-1m', 'json-pretty', 400, '`{o|json-pretty}`, ~1 MB object'),
  ];
}

export function freshWorkload(name: string): FreshWorkload {
  const w = freshWorkloads().find((x) => x.name === name);
  if (!w) throw new Error(`unknown fresh workload ${name}`);
  return w;
}
