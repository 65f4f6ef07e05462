// The cases of the formatter sweep (formatter-sweep.ts): one per formatter or predicate a
// template of the dialect uses, each a repeated section that applies it to 50 values. The
// values are generated from a seed and carry it (ids, words, amounts, instants), so no two
// data sets of a run share a printed value and no memo keyed by value can pay off.
import * as g from './fresh-data.ts';
import { mulberry32 } from './random.ts';

type Rand = () => number;

export interface SweepCase {
  readonly name: string;
  /** Applied to `v` (and `w`, an instant, for the two-variable formatters). */
  readonly tag: string;
  readonly value: (r: Rand, n: number) => unknown;
  /**
   * Set when the port does other work than Quire on purpose (PLUGINS §17, or it prints
   * nothing): its ratio compares unequal work and is reported apart.
   */
  readonly portDiffers?: string;
  /** Members of the data set's root a formatter reads besides its value (by the items' values). */
  readonly root?: (values: readonly unknown[]) => Record<string, unknown>;
}

export const SWEEP_ITEMS = 50;
export const SWEEP_NOW = 1_700_000_000_000;

const WORDS = ['alpha', 'Brisk', 'café', 'river', 'stone & co', '<b>bold</b>', 'x"y', 'Über', 'ten', 'long-word-here', "it's", 'a/b'];

/** A word that carries the value's number, so that no two values print alike. */
const word = (r: Rand, n: number): string => WORDS[Math.floor(r() * WORDS.length)] + n.toString(36);
const sentence = (r: Rand, n: number, words: number): string => Array.from({ length: words }, (_, i) => word(r, n * 8 + i)).join(' ');
/** Six lines of twenty words (`'` among them, as `it's`). */
const paragraph = (r: Rand, n: number): string => Array.from({ length: 6 }, (_, i) => sentence(r, n * 8 + i, 20)).join('\n');
/** An instant within ~15 months either side of the sweep's now. */
const instant = (r: Rand): number => SWEEP_NOW - Math.floor(r() * 4e10) + 2e9;
const size = (r: Rand): string => `${100 + Math.floor(r() * 3000)}x${100 + Math.floor(r() * 3000)}`;
const cents = (r: Rand): number => Math.floor(r() * 1e8);
/** The fresh bench's image (fresh-data.ts), with what `image-color` and `image-srcset` read. */
function image(r: Rand, n: number): unknown {
  const hex = (): string => Math.floor(r() * 0xffffff).toString(16).padStart(6, '0');
  return {
    ...g.image(r, n),
    systemDataVariants: ['100w', '300w', '500w', '750w', '1000w', '1500w', '2500w'].slice(0, 2 + Math.floor(r() * 6)).join(','),
    colorData: { topLeftAverage: hex(), topRightAverage: hex(), bottomLeftAverage: hex(), bottomRightAverage: hex(), centerAverage: hex() },
  };
}

/** The fresh bench's product with two variants (options, sale prices, stock). */
const product = (r: Rand, n: number): unknown => g.product(r, n, SWEEP_NOW, { variants: 2 });

export const SWEEP_CASES: readonly SweepCase[] = [
  // core: text
  { name: 'html', tag: '{v|html}', value: (r, n) => sentence(r, n, 4) },
  { name: 'htmlattr', tag: '{v|htmlattr}', value: (r, n) => sentence(r, n, 4) },
  { name: 'htmltag', tag: '{v|htmltag}', value: (r, n) => sentence(r, n, 4) },
  { name: 'safe', tag: '{v|safe}', value: (r, n) => '<p>' + sentence(r, n, 4) + '</p>' },
  { name: 'str', tag: '{v|str}', value: (r) => Math.floor(r() * 1e9) },
  { name: 'slugify', tag: '{v|slugify}', value: (r, n) => sentence(r, n, 4) },
  { name: 'truncate', tag: '{v|truncate 20}', value: (r, n) => sentence(r, n, 6) },
  { name: 'capitalize', tag: '{v|capitalize}', value: (r, n) => sentence(r, n, 3) },
  { name: 'smartypants', tag: '{v|smartypants}', value: (r, n) => `"${sentence(r, n, 3)}" -- it's` },
  { name: 'url-encode', tag: '{v|url-encode}', value: (r, n) => sentence(r, n, 3), portDiffers: 'PLUGINS §17 (3): space as %20, @ + / kept' },
  { name: 'encode-uri', tag: '{v|encode-uri}', value: (r, n) => 'https://x.example/' + sentence(r, n, 3), portDiffers: "PLUGINS `encode-uri`: the reference encodes `'` as `%27`" },
  { name: 'encode-uri-component', tag: '{v|encode-uri-component}', value: (r, n) => sentence(r, n, 3), portDiffers: "PLUGINS `encode-uri-component`: `'` as `%27`" },
  { name: 'encode-space', tag: '{v|encode-space}', value: (r, n) => sentence(r, n, 3) },
  { name: 'format', tag: '{v|format a b}', value: (r, n) => `x {0} y {1} ${word(r, n)}` },
  { name: 'output', tag: '{v|output a b}', value: (r, n) => word(r, n) },
  { name: 'iter', tag: '{v|iter}', value: (r, n) => word(r, n) },
  { name: 'activate-twitter-links', tag: '{v|activate-twitter-links}', value: (r, n) => `@${word(r, n)} see http://x.example/${n} #${word(r, n + 1)}` },
  // Paragraphs of a post (~1.5 KB, lines broken): the text formatters over long texts, where a
  // loop in JavaScript meets the port's native encoders and replaces (bench/README.md, "Long
  // texts through the text formatters").
  { name: 'encode-uri of a paragraph', tag: '{v|encode-uri}', value: (r, n) => paragraph(r, n), portDiffers: "PLUGINS `encode-uri`: the reference encodes `'` as `%27`" },
  { name: 'encode-uri-component of a paragraph', tag: '{v|encode-uri-component}', value: (r, n) => paragraph(r, n), portDiffers: "PLUGINS `encode-uri-component`: `'` as `%27`" },
  { name: 'encode-space of a paragraph', tag: '{v|encode-space}', value: (r, n) => paragraph(r, n) },
  { name: 'line-breaks of a paragraph', tag: '{v|line-breaks}', value: (r, n) => paragraph(r, n) },
  { name: 'html of a paragraph', tag: '{v|html}', value: (r, n) => paragraph(r, n) },
  { name: 'safe of a paragraph', tag: '{v|safe}', value: (r, n) => '<p>' + paragraph(r, n) + '</p>' },
  { name: 'slugify of a paragraph', tag: '{v|slugify}', value: (r, n) => paragraph(r, n) },
  // core: numbers, structures
  { name: 'pluralize', tag: '{v|pluralize}', value: (r) => Math.floor(r() * 3) },
  { name: 'round', tag: '{v|round}', value: (r) => r() * 1000 },
  { name: 'mod', tag: '{v|mod 3}', value: (r) => Math.floor(r() * 1000) },
  { name: 'cycle', tag: '{v|cycle a b c}', value: (r) => Math.floor(r() * 10) },
  { name: 'count', tag: '{v|count}', value: (r) => Array.from({ length: Math.floor(r() * 5) }, (_, i) => i) },
  { name: 'get', tag: '{v|get @index0}', value: (r, n) => Array.from({ length: SWEEP_ITEMS }, (_, i) => word(r, n * 64 + i)) },
  { name: 'prop', tag: '{v|prop a}', value: (r, n) => ({ a: word(r, n) }) },
  { name: 'key-by', tag: '{v|key-by id|json}', value: (r, n) => [{ id: word(r, n) }, { id: word(r, n + 1) }] },
  { name: 'json', tag: '{v|json}', value: (r, n) => ({ a: word(r, n), b: [Math.floor(r() * 1e6), word(r, n + 1)], c: { d: r() < 0.5 } }) },
  // A map of 200 members, as a context's `localizedStrings`: `JSON.parse` gives an object of
  // 128 members or more dictionary properties (bench/README.md, "Parsed data's plain containers").
  { name: 'json of a map', tag: '{v|json}', value: (r, n) => Object.fromEntries(Array.from({ length: 200 }, (_, k) => [`str${k}-${n.toString(36)}`, word(r, n * 200 + k)])) },
  { name: 'raw', tag: '{v|raw}', value: (r, n) => ({ a: word(r, n), b: Math.floor(r() * 1e6) }) },
  { name: 'json-pretty', tag: '{v|json-pretty}', value: (r, n) => ({ a: word(r, n), b: { d: word(r, n + 1), e: Math.floor(r() * 1e6) } }) },
  // Values of a few hundred characters with arrays and empty containers, as a page prints a
  // navigation or a variant: JSON.stringify's own layout differs from the reference's there
  // (bench/README.md, "`json-pretty` from the tree").
  {
    name: 'json-pretty of a list', tag: '{v|json-pretty}', portDiffers: 'PLUGINS §17 (5): the port lays arrays out as JavaScript does',
    value: (r, n) => Array.from({ length: 6 }, (_, k) => ({ title: word(r, n * 6 + k), fullUrl: '/' + word(r, n * 6 + k + 1), active: r() < 0.2 })),
  },
  {
    name: 'json-pretty of a variant', tag: '{v|json-pretty}', portDiffers: 'PLUGINS §17 (5): the port writes empty containers `{}` and `[]`',
    value: (r, n) => ({ sku: word(r, n), price: Math.floor(r() * 1e5), onSale: r() < 0.3, priceMoney: { value: (Math.floor(r() * 1e5) / 100).toFixed(2), currency: 'USD' }, attributes: {}, optionValues: [], qtyInStock: Math.floor(r() * 80), weight: Math.floor(r() * 5000) / 1000 + 0.25 }),
  },
  // dates
  { name: 'date', tag: '{v|date %Y-%m-%d}', value: instant },
  { name: 'date-long', tag: '{v|date %A, %B %e, %Y %I:%M %p %Z}', value: instant },
  { name: 'timesince', tag: '{v|timesince}', value: instant },
  { name: 'humanizeDuration', tag: '{v|humanizeDuration}', value: (r) => Math.floor(r() * 1e7) },
  { name: 'datetime', tag: '{v|datetime}', value: instant },
  { name: 'datetime-full', tag: '{v|datetime date:full}', value: instant },
  { name: 'datetime-interval', tag: '{v, w|datetime-interval}', value: instant },
  { name: 'relative-time', tag: '{v|relative-time}', value: instant },
  // numbers and money
  { name: 'decimal', tag: '{v|decimal}', value: (r) => r() * 1e5 },
  // An error path: a text that is no number prints nothing (the library's throw cost ~11 µs a
  // value until 2026-11-29, bench/README.md "Error paths and `same-day?`").
  { name: 'decimal of text', tag: '{v|decimal}', value: (r, n) => (r() < 0.5 ? word(r, n) : r() * 1e5) },
  { name: 'money', tag: '{v|money}', value: (r) => ({ currencyCode: 'USD', decimalValue: (Math.floor(r() * 1e6) / 100).toFixed(2) }) },
  { name: 'message', tag: '{v|message "You have {0} items"}', value: (r) => Math.floor(r() * 100) },
  { name: 'plural', tag: '{v|plural "one item" "many items"}', value: (r) => Math.floor(r() * 3) },
  { name: 'money-format', tag: '{v|money-format}', value: cents, portDiffers: 'the port prints its input as it is' },
  { name: 'money-string', tag: '{v|money-string}', value: cents, portDiffers: 'the port prints its input as it is' },
  { name: 'percentage-format', tag: '{v|percentage-format}', value: (r) => r() * 100 },
  { name: 'bookkeeper-money-format', tag: '{v|bookkeeper-money-format}', value: cents },
  { name: 'i18n-money-format', tag: '{v|i18n-money-format}', value: (r) => ({ decimalValue: (Math.floor(r() * 1e6) / 100).toFixed(2), currencyCode: 'EUR' }), portDiffers: 'the port prints nothing' },
  // images
  { name: 'image-meta', tag: '{v|image-meta}', value: image, portDiffers: 'PLUGINS §17 (9): a focal point of 1 prints `1.0`' },
  { name: 'image', tag: '{v|image}', value: image, portDiffers: 'PLUGINS §17 (9): the port escapes the alt text twice and prints the focal point 1 as `1`' },
  { name: 'image-srcset', tag: '{v|image-srcset}', value: image },
  { name: 'image-color', tag: '{v|image-color}', value: image },
  { name: 'child-image-meta', tag: '{v|child-image-meta}', value: (r, n) => ({ items: [image(r, n)] }), portDiffers: 'PLUGINS §17 (9): a focal point of 1 prints `1.0`' },
  { name: 'cover-image-meta', tag: '{v|cover-image-meta}', value: (r, n) => ({ coverImage: image(r, n) }) },
  { name: 'resizedHeightForWidth', tag: '{v|resizedHeightForWidth 300}', value: size },
  { name: 'squarespaceThumbnailForWidth', tag: '{v|squarespaceThumbnailForWidth 300}', value: size },
  { name: 'width', tag: '{v|width}', value: size },
  { name: 'color-weight', tag: '{v|color-weight}', value: (r) => Math.floor(r() * 0xffffff).toString(16).padStart(6, '0') },
  { name: 'AbsUrl', tag: '{v|AbsUrl}', value: (r, n) => '/' + word(r, n) },
  // content and social
  { name: 'item-classes', tag: '{v|item-classes}', value: product },
  { name: 'comment-count', tag: '{v|comment-count}', value: (r) => ({ publicCommentCount: Math.floor(r() * 5) }) },
  { name: 'comment-link', tag: '{v|comment-link}', value: (r, n) => ({ fullUrl: '/b/' + word(r, n), publicCommentCount: Math.floor(r() * 5) }) },
  { name: 'like-button', tag: '{v|like-button}', value: (r, n) => ({ id: word(r, n), likeCount: Math.floor(r() * 9) }) },
  { name: 'social-button', tag: '{v|social-button}', value: (r, n) => ({ id: word(r, n), fullUrl: '/b/' + word(r, n), title: word(r, n + 1) }) },
  { name: 'google-calendar-url', tag: '{v|google-calendar-url}', value: (r, n) => ({ title: word(r, n), startDate: instant(r), endDate: instant(r), location: { addressTitle: word(r, n + 1) } }), portDiffers: 'PLUGINS `google-calendar-url`: Java form encoding of the title (`/` as `%2F`, UTF-8)' },
  // commerce
  { name: 'product-price', tag: '{v|product-price}', value: product },
  { name: 'from-price', tag: '{v|from-price}', value: product },
  { name: 'normal-price', tag: '{v|normal-price}', value: product },
  { name: 'sale-price', tag: '{v|sale-price}', value: product },
  { name: 'product-status', tag: '{v|product-status}', value: product },
  { name: 'product-checkout', tag: '{v|product-checkout}', value: product },
  {
    name: 'product-scarcity', tag: '{v|product-scarcity}', value: product,
    root: (values) => ({
      productMerchandisingContext: Object.fromEntries(values.map((p, i) => [(p as { id: string }).id, { scarcityEnabled: true, scarcityText: 'Only {qtyInStock} left', scarcityTemplateViews: [{ qtyInStock: 1 + (i % 4) }] }])),
    }),
  },
  { name: 'subscription-price', tag: '{v|subscription-price}', value: product },
  { name: 'add-to-cart-btn', tag: '{v|add-to-cart-btn}', value: product },
  { name: 'variants-select', tag: '{v|variants-select}', value: product },
  { name: 'quantity-input', tag: '{v|quantity-input}', value: product },
  { name: 'variant-descriptor', tag: '{v|variant-descriptor}', value: (r, n) => ({ optionValues: [{ optionName: 'Size', value: word(r, n) }, { optionName: 'Color', value: word(r, n + 1) }] }) },
  { name: 'summary-form-field', tag: '{v|summary-form-field}', value: (r, n) => ({ type: 'text', title: word(r, n), value: word(r, n + 1) }) },
  // a plain variable and predicates, for scale
  { name: 'plain variable', tag: '{v}', value: (r, n) => word(r, n) },
  { name: 'equal?', tag: '{.equal? v 3}y{.or}n{.end}', value: (r) => Math.floor(r() * 6) },
  { name: 'even?', tag: '{.even? v}y{.or}n{.end}', value: (r) => Math.floor(r() * 6) },
  { name: 'on-sale?', tag: '{.section v}{.on-sale?}y{.or}n{.end}{.end}', value: product },
  // Without `website.timeZone` both engines compare UTC dates (the port always does, PLUGINS §17).
  { name: 'same-day?', tag: '{.section v}{.same-day?}y{.or}n{.end}{.end}', value: (r) => { const s = instant(r); return { startDate: s, endDate: s + Math.floor(r() * 30) * 3_600_000 }; }, root: () => ({ website: { id: 'site' } }) },
  { name: 'excerpt?', tag: '{.section v}{.excerpt?}y{.or}n{.end}{.end}', value: (r, n) => ({ excerpt: r() < 0.5 ? `<p>${word(r, n)}</p>` : '<p> </p>' }) },
  // the language's constructs, which a page is made of as much as of formatters
  { name: 'if-or', tag: '{.if v.a || v.b}y{.or}n{.end}', value: (r, n) => ({ a: r() < 0.5 ? '' : word(r, n), b: r() < 0.5 ? 0 : 1 }) },
  { name: 'if-and', tag: '{.if v.a && v.b}y{.or}n{.end}', value: (r, n) => ({ a: r() < 0.5 ? '' : word(r, n), b: r() < 0.5 ? 0 : 1 }) },
  { name: 'section-or', tag: '{.section v.a}{@|html}{.or}none{.end}', value: (r, n) => ({ a: r() < 0.3 ? '' : word(r, n) }) },
  { name: 'deep path', tag: '{v.a.b.c}', value: (r, n) => ({ a: { b: { c: word(r, n) } } }) },
  { name: 'outer lookup', tag: '{.section v}{.section a}{w}{.end}{.end}', value: (r, n) => ({ a: { b: word(r, n) } }) },
  { name: 'alternates-with', tag: '{.repeated section v}{@}{.alternates with}, {.end}', value: (r, n) => [0, 1, 2, 3].map((i) => word(r, n * 4 + i)) },
  { name: 'nested repeat', tag: '{.repeated section v}<li>{name}: {n}</li>{.end}', value: (r, n) => [0, 1, 2].map((i) => ({ name: word(r, n * 3 + i), n: Math.floor(r() * 1000) })) },
  { name: 'var', tag: '{.var @x v.a}{.section v}{@x}{b}{.end}', value: (r, n) => ({ a: word(r, n), b: word(r, n + 1) }) },
  { name: 'ctx', tag: '{.ctx @c a=v.a b=w}{@c.a}{@c.b}', value: (r, n) => ({ a: word(r, n) }) },
  { name: '@index', tag: '{@index}:{v}', value: (r, n) => word(r, n) },
  { name: 'macro', tag: '{.macro m}<b>{@}</b>{.end}{v|apply m}', value: (r, n) => word(r, n) },
  { name: 'include', tag: '{.macro m}<b>{@}</b>{.end}{.section v}{.include m output}{.end}', value: (r, n) => word(r, n) },
  // `.eval` (LANGUAGE §5): arithmetic, comparisons, text, locals, functions.
  { name: 'eval arithmetic', tag: '{.eval v * 2 + 1}', value: (r) => Math.floor(r() * 1000) },
  { name: 'eval compare', tag: '{.eval v > 500 && v < 900}', value: (r) => Math.floor(r() * 1000) },
  { name: 'eval text', tag: "{.eval 'x-' + v + '-' + @index}", value: (r, n) => word(r, n) },
  { name: 'eval locals', tag: '{.eval @w = v * 3; @h = @w / 4}{@h}', value: (r) => Math.floor(r() * 1000) },
  { name: 'eval functions', tag: '{.eval max(v, 10) + abs(-v)}', value: (r) => Math.floor(r() * 1000) },
  { name: 'equal? paths', tag: '{.equal? v.a v.b}y{.or}n{.end}', value: (r) => ({ a: Math.floor(r() * 3), b: Math.floor(r() * 3) }) },
];

export function sweepTemplate(c: SweepCase): string {
  return `{.repeated section items}${c.tag}\n{.end}`;
}

/** `count` data sets of the case as JSON text, from `seed`: every value carries its set and item number. */
export function sweepData(c: SweepCase, seed: number, count: number): string[] {
  const r = mulberry32(seed ^ hash(c.name));
  const out: string[] = [];
  for (let d = 0; d < count; d++) {
    const items: { v: unknown; w: number }[] = [];
    for (let i = 0; i < SWEEP_ITEMS; i++) {
      const n = (seed % 1000) * 1_000_000 + d * SWEEP_ITEMS + i;
      items.push({ v: c.value(r, n), w: instant(r) });
    }
    // What the social and commerce formatters read from the site: liking on, share buttons set.
    const site = { websiteSettings: { simpleLikingEnabled: true }, website: { id: 'site' + d, timeZone: 'America/New_York', shareButtonOptions: { 1: 'facebook', 2: 'twitter' } } };
    out.push(JSON.stringify({ items, ...site, ...c.root?.(items.map((x) => x.v)) }));
  }
  return out;
}

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}
