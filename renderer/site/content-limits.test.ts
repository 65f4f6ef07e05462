import { describe, expect, it } from 'vitest';
import { CONTENT_LIMITS, contentLimitFindings } from './content-limits.ts';

const blocks = (n: number) => Array.from({ length: n }, () => ({ type: 'html', html: '<p>x</p>' }));
const items = (n: number) => Array.from({ length: n }, (_, i) => ({ slug: `i-${i}` }));
const gallery = (n: number) => ({ kind: 'collection', collectionType: 'gallery', items: items(n) });
const products = (n: number, collectionId: string) =>
  Array.from({ length: n }, (_, i) => ({ id: `${collectionId}-${i}`, title: 'P', collectionId, variants: [{ id: 'v', sku: `${collectionId}-${i}`, priceCents: 100 }] }));

describe('contentLimitFindings (seed §9 limits)', () => {
  it('accepts every list at its limit', () => {
    expect(
      contentLimitFindings([
        { file: 'content/page.json', data: { blocks: blocks(60), items: [{ slug: 'a', blocks: blocks(60) }] } },
        { file: 'content/blog.json', data: { kind: 'collection', collectionType: 'blog', items: items(250) } },
        { file: 'content/album.json', data: { kind: 'collection', collectionType: 'album', items: items(60) } },
        { file: 'content/g.json', data: gallery(50) },
        { file: 'catalog.json', data: { products: [...products(200, 'shop'), ...products(200, 'more')] } },
        { file: 'site.json', data: { navigation: items(500) } },
      ]),
    ).toEqual([]);
    expect(CONTENT_LIMITS).toEqual({ productsPerCollection: 200, blocksPerLayout: 60, orderableItems: 250, albumTracks: 60, galleries: 20, galleryImages: 50, navigationLinks: 500 });
  });

  it('names the first value past each limit', () => {
    const findings = contentLimitFindings([
      { file: 'content/page.json', data: { blocks: blocks(61), items: [{ slug: 'a', blocks: blocks(61) }] } },
      { file: 'content/blog.json', data: { kind: 'collection', collectionType: 'blog', items: items(251) } },
      { file: 'content/album.json', data: { kind: 'collection', collectionType: 'album', items: items(61) } },
      { file: 'content/g.json', data: gallery(51) },
      { file: 'catalog.json', data: { products: products(201, 'shop') } },
      { file: 'site.json', data: { navigation: items(200_000) } },
    ]);
    expect(findings.map((f) => `${f.file} ${f.pointer} ${f.message}`)).toEqual([
      'content/page.json /blocks/60 This page has 61 blocks; a layout holds at most 60.',
      'content/page.json /items/0/blocks/60 items[0] has 61 blocks; a layout holds at most 60.',
      'content/blog.json /items/250 This collection has 251 items; a collection holds at most 250 items.',
      'content/album.json /items/60 This collection has 61 items; an album holds at most 60 tracks.',
      'content/g.json /items/50 This collection has 51 items; a gallery holds at most 50 images.',
      'catalog.json /products/200 Collection "shop" has more than 200 products; a collection holds at most 200.',
      'site.json /navigation/500 The navigation has 200000 links; it holds at most 500.',
    ]);
  });

  it('counts galleries across the site: the 21st is refused', () => {
    const files = Array.from({ length: 21 }, (_, i) => ({ file: `content/g${String(i).padStart(2, '0')}.json`, data: gallery(1) }));
    expect(contentLimitFindings(files.slice(0, 20))).toEqual([]);
    expect(contentLimitFindings(files)).toEqual([
      { file: 'content/g20.json', pointer: '/collectionType', message: 'This is gallery 21; a site holds at most 20 galleries.' },
    ]);
  });
});
