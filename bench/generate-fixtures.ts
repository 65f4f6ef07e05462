// Writes the JSON inputs of the bench workloads to fixtures/bench/. The data is generated
// (not hand-written) so that the 200-product grid stays consistent, and from a fixed seed
// so that every run and every machine benchmarks the same bytes.
// Usage: npx tsx bench/generate-fixtures.ts
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { mulberry32 } from './random.ts';

const OUT = fileURLToPath(new URL('../fixtures/bench/', import.meta.url));

const rand = mulberry32(20261122);
const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)];
const int = (lo: number, hi: number): number => lo + Math.floor(rand() * (hi - lo + 1));

const ADJECTIVES = ['Linen', 'Walnut', 'Ceramic', 'Wool', 'Copper', 'Stoneware', 'Oak', 'Cotton', 'Brass', 'Glass'];
const NOUNS = ['Throw', 'Bowl', 'Lamp', 'Mug', 'Vase', 'Tray', 'Stool', 'Planter', 'Cushion', 'Candle'];
const COLOURS = ['Sand', 'Clay', 'Moss', 'Ink', 'Bone', 'Rust'];
const SIZES = ['S', 'M', 'L', 'XL'];
const TAGS = ['New Arrivals', 'Gifts & Kits', 'Home', 'Sale', 'Hand-made', 'Limited "Edition"'];
const T0 = 1_760_000_000_000; // 2025-10-09, a fixed "publish" epoch

function money(cents: number) {
  return { value: (cents / 100).toFixed(2), currency: 'USD' };
}

function variant(base: number, attrs: Record<string, string>, i: number) {
  const onSale = i % 3 === 1;
  const price = base + (i % 2) * 500;
  const sale = Math.round(price * 0.8);
  return {
    id: `v-${base}-${i}`,
    sku: `SQ${base}${i}`,
    price,
    salePrice: onSale ? sale : 0,
    onSale,
    priceMoney: money(price),
    salePriceMoney: money(onSale ? sale : 0),
    qtyInStock: int(0, 40),
    unlimited: false,
    attributes: attrs,
    weight: 1.5,
  };
}

function product(n: number, withBody: boolean) {
  const title = `${pick(ADJECTIVES)} ${pick(NOUNS)} No. ${n}`;
  const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  const base = int(12, 240) * 100;
  const variantCount = n % 4 === 0 ? 1 : int(2, 6);
  const variants = [];
  for (let i = 0; i < variantCount; i++) {
    variants.push(variant(base, { Colour: COLOURS[i % COLOURS.length], Size: SIZES[i % SIZES.length] }, i));
  }
  const tags = [pick(TAGS), pick(TAGS)];
  return {
    id: `5f${(100000 + n).toString(16)}a1`,
    recordType: 11,
    recordTypeLabel: 'store-item',
    title,
    urlId: slug,
    fullUrl: `/shop/p/${slug}`,
    assetUrl: `https://images.example.com/content/${n}/${slug}.jpg`,
    excerpt: `<p>Small-batch ${title.toLowerCase()} made in Portugal & finished by hand.</p>`,
    body: withBody
      ? `<p>The ${title} is made in a small workshop &amp; finished by hand.</p>`.repeat(6)
      : undefined,
    addedOn: T0 - n * 86_400_000,
    publishOn: T0 - n * 86_400_000 + 3_600_000,
    starred: n % 7 === 0,
    tags,
    categories: [pick(['Living', 'Kitchen', 'Bedroom', 'Outdoor'])],
    author: { displayName: 'Ana Sousa' },
    structuredContent: {
      productType: 1,
      variantOptionOrdering: ['Colour', 'Size'],
      variants,
      isSubscribable: false,
    },
    items: [1, 2, 3].map((k) => ({
      assetUrl: `https://images.example.com/content/${n}/${slug}-${k}.jpg`,
      title: `${title} — view ${k}`,
      originalSize: '2000x1500',
    })),
  };
}

const website = {
  id: 'site-1',
  siteTitle: 'Atelier & Co.',
  baseUrl: 'https://atelier.example.com',
  language: 'en-US',
  timeZone: 'Europe/Lisbon',
  socialAccounts: [
    { serviceName: 'instagram', profileUrl: 'https://instagram.com/atelier' },
    { serviceName: 'pinterest', profileUrl: 'https://pinterest.com/atelier' },
  ],
};

const navigation = {
  items: ['Shop', 'Journal', 'About', 'Stockists', 'Contact'].map((t) => ({
    title: t,
    fullUrl: '/' + t.toLowerCase(),
    active: t === 'Shop',
  })),
};

function productPage() {
  const item = product(7, true);
  item.structuredContent.variants = [0, 1, 2, 3, 4, 5].map((i) =>
    variant(4800, { Colour: COLOURS[i % 3], Size: SIZES[i % 2] }, i),
  );
  return {
    website,
    navigation,
    collection: { id: 'col-shop', title: 'Shop', fullUrl: '/shop', itemCount: 200 },
    item,
    related: [11, 12, 13, 14].map((n) => product(n, false)),
    reviews: [
      { author: 'Marta', rating: 5, text: 'Lovely <b>quality</b>, arrived quickly.', createdOn: T0 - 3_000_000_000 },
      { author: 'Joe "JJ" Lee', rating: 4, text: 'Colour a bit darker than the photo.', createdOn: T0 - 2_000_000_000 },
      { author: 'Priya', rating: 5, text: 'Second one I bought & still great.', createdOn: T0 - 1_000_000_000 },
    ],
    cart: { totalQuantity: 3, subtotalCents: 12950 },
  };
}

function collectionGrid() {
  const items = [];
  for (let n = 1; n <= 200; n++) items.push(product(n, false));
  return {
    website,
    navigation,
    collection: { id: 'col-shop', title: 'Shop', fullUrl: '/shop', itemCount: 200, description: '<p>Everything we make.</p>' },
    items,
    pagination: { nextPage: true, nextPageUrl: '/shop?offset=200' },
  };
}

function blogPost() {
  const paragraphs = [];
  for (let i = 0; i < 12; i++) {
    paragraphs.push(`<p>Paragraph ${i + 1}: clay, glaze &amp; kiln notes from the studio — "firing" day ${i + 1}.</p>`);
  }
  const comments = [];
  for (let i = 0; i < 40; i++) {
    comments.push({
      id: `c${i}`,
      author: pick(['Marta', 'Joe', 'Priya', 'Tomás', 'Lea <script>', 'Kim & Sam']),
      authorUrl: i % 3 === 0 ? `https://example.org/~u${i}` : '',
      body: `Comment ${i}: I love the "${pick(NOUNS).toLowerCase()}" <i>series</i> & the glaze.`,
      addedOn: T0 + i * 3_600_000,
      likeCount: int(0, 30),
      replies: i % 5 === 0 ? [{ author: 'Atelier', body: 'Thank you!', addedOn: T0 + i * 3_600_000 + 600_000 }] : [],
    });
  }
  return {
    website,
    navigation,
    collection: { id: 'col-journal', title: 'Journal', fullUrl: '/journal' },
    item: {
      id: 'post-42',
      recordType: 1,
      recordTypeLabel: 'text',
      title: 'Notes from the kiln: a week of "firing" & glazing',
      fullUrl: '/journal/notes-from-the-kiln',
      assetUrl: 'https://images.example.com/journal/kiln.jpg',
      excerpt: 'A week in the studio.',
      author: { displayName: 'Ana Sousa', bio: 'Potter & founder.' },
      publishOn: T0,
      updatedOn: T0 + 86_400_000 * 2,
      tags: ['Studio', 'Process', 'Glaze & Colour'],
      categories: ['Journal'],
      commentCount: comments.length,
      likeCount: 87,
      body: paragraphs.join('\n'),
    },
    comments,
    pagination: {
      prevItem: { title: 'Summer market recap', fullUrl: '/journal/summer-market' },
      nextItem: { title: 'Glaze recipes we love', fullUrl: '/journal/glaze-recipes' },
    },
  };
}

const files: Record<string, unknown> = {
  'product-page.json': productPage(),
  'collection-grid.json': collectionGrid(),
  'blog-post.json': blogPost(),
};
for (const [name, data] of Object.entries(files)) writeFileSync(OUT + name, JSON.stringify(data, null, 1) + '\n');
console.log('wrote', Object.keys(files).join(', '));
