// Seeded generators of storefront data for the fresh-data benchmark (fresh.ts). Every value a
// page prints is drawn from the seed, so data set i and data set j share no title, price,
// date or id: a memo that keeps results per value (escaping, prices, dates) meets a value it
// has not seen on every render, as on a site the benchmark has never seen.

import { xorshift32 } from './random.ts';

/**
 * xorshift32 (random.ts), the same sequence in every engine's process; the seed is spread
 * by Knuth's multiplicative hash first, so neighbouring data-set seeds start far apart.
 */
export function rng(seed: number): () => number {
  return xorshift32((seed * 2654435761) >>> 0);
}

export type Rand = () => number;

const WORDS = (
  'linen oak field harbor amber quiet morning ceramic woven copper slate river meadow cedar ' +
  'market studio garden coastal wool stone vintage hand thrown glazed raw natural indigo ' +
  'olive canvas brass walnut honey salt pepper table lamp mug bowl plate scarf tote throw ' +
  'pillow candle print poster journal notebook apron basket tray vase planter bench stool ' +
  'autumn winter spring summer weekend journey kitchen workshop atelier café naïve'
).split(' ');

export const int = (r: Rand, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));
export const pick = <T>(r: Rand, list: readonly T[]): T => list[Math.floor(r() * list.length)];
export const chance = (r: Rand, p: number): boolean => r() < p;

/** Objects with at least this many members get the unprinted ones (`withUnprintedMembers`). */
const UNPRINTED_MIN_MEMBERS = 6;

/**
 * A copy of `v` in which every object of 6 members or more carries `n` more, named `_platform0`…
 * (no template reads them, and no lookup through a frame can find one by another name), with
 * text, number and boolean values that carry `serial`. Real page contexts carry many members a
 * page never prints (an item has 40 and more); how an engine lays out the objects of its data
 * shows only then (bench/README.md, "Data as `JSON.parse` builds it"). `--members N`.
 */
export function withUnprintedMembers(v: unknown, n: number, serial: number): unknown {
  let k = 0;
  const copy = (x: unknown): unknown => {
    if (Array.isArray(x)) return x.map(copy);
    if (x === null || typeof x !== 'object') return x;
    const o: Record<string, unknown> = {};
    const names = Object.keys(x);
    for (const name of names) o[name] = copy((x as Record<string, unknown>)[name]);
    if (names.length >= UNPRINTED_MIN_MEMBERS) {
      for (let j = 0; j < n; j++, k++) o['_platform' + j] = j % 3 === 0 ? `v${serial.toString(36)}-${k}` : j % 3 === 1 ? serial * 31 + k : k % 2 === 0;
    }
    return o;
  };
  return copy(v);
}

/** A word with a serial mixed in, so no two data sets print the same text. */
export function words(r: Rand, n: number, serial?: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(pick(r, WORDS));
  if (serial !== undefined) out.splice(int(r, 0, out.length), 0, serial.toString(36));
  return out.join(' ');
}

export function title(r: Rand, serial: number): string {
  const t = words(r, int(r, 2, 5), serial);
  const s = t[0].toUpperCase() + t.slice(1);
  // Real titles carry the characters that escaping must handle.
  return chance(r, 0.2) ? s + ' & ' + pick(r, WORDS) : chance(r, 0.1) ? s + ' "' + pick(r, WORDS) + '"' : s;
}

export function sentence(r: Rand, serial: number): string {
  const s = words(r, int(r, 8, 20), serial);
  return s[0].toUpperCase() + s.slice(1) + (chance(r, 0.15) ? ' — ' + words(r, 4) : '') + '.';
}

export function paragraphs(r: Rand, serial: number, n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const p: string[] = [];
    for (let k = int(r, 2, 5); k > 0; k--) p.push(sentence(r, serial * 31 + i));
    out.push('<p>' + p.join(' ') + (chance(r, 0.3) ? ' <a href="/shop">Shop the ' + pick(r, WORDS) + ' edit</a>.' : '') + '</p>');
  }
  return out.join('\n');
}

export const slug = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

/** Epoch ms within `days` days before (negative: after) `now`. */
export function instant(r: Rand, now: number, days: number): number {
  return now - Math.floor(r() * days * 86_400_000);
}

export function id(r: Rand, serial: number): string {
  return (Math.floor(r() * 0xffffffff).toString(16) + serial.toString(16)).padStart(16, '0').slice(-24);
}

export function money(cents: number, currency = 'USD'): { value: string; currency: string } {
  return { value: (cents / 100).toFixed(2), currency };
}

export function image(r: Rand, serial: number): Record<string, unknown> {
  const w = pick(r, [1200, 1500, 2000, 2500, 800]);
  const h = pick(r, [800, 1000, 1333, 1500, 1200]);
  const name = slug(words(r, 2, serial));
  return {
    id: id(r, serial),
    assetUrl: `https://images.example-cdn.com/content/v1/${id(r, serial)}/${name}.jpg`,
    originalSize: `${w}x${h}`,
    mediaFocalPoint: { x: Math.round(r() * 1000) / 1000 || 0.5, y: Math.round(r() * 1000) / 1000 || 0.5, source: 3 },
    title: title(r, serial),
    filename: name + '.jpg',
    recordType: 2,
  };
}

export function website(r: Rand, serial: number): Record<string, unknown> {
  return {
    id: id(r, serial),
    siteTitle: title(r, serial),
    baseUrl: 'https://' + slug(words(r, 2, serial)) + '.example.com',
    language: 'en-US',
    timeZone: pick(r, ['America/New_York', 'Europe/London', 'America/Los_Angeles', 'Australia/Sydney']),
    shareButtonOptions: { facebook: true, pinterest: chance(r, 0.5), linkedin: chance(r, 0.5) },
    authenticUrl: 'https://' + slug(words(r, 2, serial)) + '.squarespace.com',
  };
}

export function navigation(r: Rand, serial: number): Record<string, unknown>[] {
  const items: Record<string, unknown>[] = [];
  for (let i = int(r, 4, 7); i > 0; i--) {
    const t = title(r, serial * 7 + i);
    items.push({ title: t, fullUrl: '/' + slug(t), active: chance(r, 0.15) });
  }
  return items;
}

export function author(r: Rand, serial: number): Record<string, unknown> {
  return { id: id(r, serial), displayName: title(r, serial), bio: sentence(r, serial) };
}

export interface ProductOptions {
  variants: number;
  currency?: string;
}

export function product(r: Rand, serial: number, now: number, o: ProductOptions): Record<string, unknown> {
  const t = title(r, serial);
  const currency = o.currency ?? 'USD';
  const base = int(r, 500, 45_000);
  const sizes = ['XS', 'S', 'M', 'L', 'XL', 'XXL'];
  const colors = ['Oat', 'Ink', 'Rust', 'Moss', 'Sand', 'Clay'];
  const variants: Record<string, unknown>[] = [];
  for (let v = 0; v < o.variants; v++) {
    const price = base + (chance(r, 0.4) ? int(r, 0, 40) * 50 : 0);
    const onSale = chance(r, 0.25);
    const sale = onSale ? Math.floor(price * (0.5 + r() * 0.4)) : 0;
    const unlimited = chance(r, 0.2);
    variants.push({
      id: id(r, serial * 13 + v),
      sku: 'SQ' + (serial * 100 + v).toString(36).toUpperCase() + int(r, 100, 999),
      price,
      salePrice: sale,
      onSale,
      priceMoney: money(price, currency),
      salePriceMoney: money(sale, currency),
      unlimited,
      qtyInStock: unlimited ? 0 : chance(r, 0.15) ? 0 : int(r, 1, 80),
      attributes: o.variants > 1 ? { Size: sizes[v % sizes.length], Color: colors[Math.floor(v / sizes.length) % colors.length] } : {},
      optionValues: o.variants > 1 ? [{ optionName: 'Size', value: sizes[v % sizes.length] }] : [],
      weight: Math.round(r() * 5000) / 1000 + 0.25,
    });
  }
  const images: Record<string, unknown>[] = [];
  for (let i = int(r, 3, 8); i > 0; i--) images.push(image(r, serial * 17 + i));
  const tags: string[] = [];
  for (let i = int(r, 1, 5); i > 0; i--) tags.push(words(r, int(r, 1, 2), serial + i));
  return {
    id: id(r, serial),
    recordType: 11,
    title: t,
    urlId: slug(t),
    fullUrl: '/shop/p/' + slug(t),
    assetUrl: (images[0] as { assetUrl: string }).assetUrl,
    excerpt: '<p>' + sentence(r, serial) + ' ' + sentence(r, serial + 1) + '</p>',
    body: paragraphs(r, serial, int(r, 2, 4)),
    addedOn: instant(r, now, 400),
    publishOn: instant(r, now, 400),
    updatedOn: instant(r, now, 30),
    tags,
    categories: [title(r, serial + 3)],
    starred: chance(r, 0.1),
    likeCount: int(r, 0, 40),
    items: images,
    structuredContent: { productType: 1, variants, isSubscribable: false, variantOptionOrdering: o.variants > 1 ? ['Size', 'Color'] : [] },
  };
}

export function comment(r: Rand, serial: number, now: number): Record<string, unknown> {
  return {
    id: id(r, serial),
    author: title(r, serial),
    body: sentence(r, serial) + (chance(r, 0.4) ? ' ' + sentence(r, serial + 1) : ''),
    addedOn: instant(r, now, 90),
    likeCount: int(r, 0, 12),
  };
}

export function post(r: Rand, serial: number, now: number, bodyParagraphs: number): Record<string, unknown> {
  const t = title(r, serial);
  const cats: string[] = [];
  for (let i = int(r, 0, 3); i > 0; i--) cats.push(title(r, serial * 3 + i));
  const tags: string[] = [];
  for (let i = int(r, 0, 4); i > 0; i--) tags.push(words(r, 1, serial + i));
  return {
    id: id(r, serial),
    recordType: 1,
    title: t,
    urlId: slug(t),
    fullUrl: '/journal/' + slug(t),
    excerpt: sentence(r, serial) + ' ' + sentence(r, serial + 1) + ' ' + sentence(r, serial + 2),
    body: paragraphs(r, serial, bodyParagraphs),
    addedOn: instant(r, now, 700),
    publishOn: instant(r, now, 700),
    author: author(r, serial),
    categories: cats,
    tags,
    likeCount: int(r, 0, 90),
    commentCount: 0,
    commentState: 1,
    image: chance(r, 0.8) ? image(r, serial) : undefined,
  };
}

export function event(r: Rand, serial: number, now: number): Record<string, unknown> {
  const t = title(r, serial);
  const start = now + Math.floor(r() * 120) * 86_400_000 + int(r, 8, 20) * 3_600_000 + pick(r, [0, 15, 30, 45]) * 60_000;
  return {
    id: id(r, serial),
    recordType: 12,
    title: t,
    fullUrl: '/events/' + slug(t),
    startDate: start,
    endDate: start + int(r, 1, 6) * 3_600_000,
    excerpt: chance(r, 0.8) ? sentence(r, serial) : '',
    location: { addressTitle: title(r, serial + 1), addressLine1: int(r, 1, 999) + ' ' + title(r, serial + 2) + ' St', addressLine2: 'Portland, OR ' + int(r, 97000, 97299), mapLat: 45.5 + r() / 10, mapLng: -122.6 - r() / 10 },
    tags: [words(r, 1, serial)],
    categories: [title(r, serial + 4)],
  };
}
