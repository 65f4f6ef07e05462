/*
 * The platform seed's content limits (seed 001 §9 "Limits"), checked where a site folder's
 * content is read: `load-site.ts` refuses a folder over a limit (SITE_LIMIT_EXCEEDED), and
 * `validate-site-files.ts` reports the same findings at file:line:col for `quire check` and
 * the preview. The findings name a JSON pointer; each caller turns it into a position.
 */

export const CONTENT_LIMITS = {
  /** Products in one products collection (catalogue products sharing a collectionId). */
  productsPerCollection: 200,
  /** Blocks in one layout: a page's `blocks`, or one item's. */
  blocksPerLayout: 60,
  /** Items of a collection whose order the owner sets (blog, events, …). */
  orderableItems: 250,
  /** Tracks of an album (`collectionType: "album"`). */
  albumTracks: 60,
  /** Gallery collections in one site. */
  galleries: 20,
  /** Images of one gallery. */
  galleryImages: 50,
  /**
   * Links of site.json's `navigation` (designed here; every page prints them): 200,000 made a
   * 5.8 MB page that took 20 s and 747 MB to render.
   */
  navigationLinks: 500,
} as const;

export interface LimitFinding {
  /** Path relative to the site folder. */
  file: string;
  /** JSON pointer of the first value past the limit (or of the list). */
  pointer: string;
  message: string;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

function blocksOver(file: string, blocks: unknown, pointer: string, where: string, out: LimitFinding[]): void {
  if (Array.isArray(blocks) && blocks.length > CONTENT_LIMITS.blocksPerLayout) {
    out.push({
      file,
      pointer: `${pointer}/${CONTENT_LIMITS.blocksPerLayout}`,
      message: `${where} has ${blocks.length} blocks; a layout holds at most ${CONTENT_LIMITS.blocksPerLayout}.`,
    });
  }
}

/** The limits one content file can break by itself (blocks per layout, items per collection). */
function contentFileFindings(file: string, data: Json, out: LimitFinding[]): void {
  blocksOver(file, data.blocks, '/blocks', 'This page', out);
  const items = Array.isArray(data.items) ? data.items : [];
  items.forEach((item, index) => {
    if (isObject(item)) blocksOver(file, item.blocks, `/items/${index}/blocks`, `items[${index}]`, out);
  });
  if (data.kind !== 'collection') return;
  const type = typeof data.collectionType === 'string' ? data.collectionType : 'collection';
  // Store products are counted in catalog.json; the other collections hold their items here.
  if (type === 'products') return;
  const [limit, what] =
    type === 'gallery'
      ? [CONTENT_LIMITS.galleryImages, 'a gallery holds at most {n} images']
      : type === 'album'
        ? [CONTENT_LIMITS.albumTracks, 'an album holds at most {n} tracks']
        : [CONTENT_LIMITS.orderableItems, 'a collection holds at most {n} items'];
  if (items.length > limit) {
    out.push({ file, pointer: `/items/${limit}`, message: `This collection has ${items.length} items; ${what.replace('{n}', String(limit))}.` });
  }
}

/**
 * Every limit finding of a folder's parsed data files (`site.json`, `catalog.json`,
 * `content/*.json`, as read; files that are not objects are skipped). Counting is linear in
 * the content.
 */
export function contentLimitFindings(files: readonly { file: string; data: unknown }[]): LimitFinding[] {
  const out: LimitFinding[] = [];
  let galleries = 0;
  for (const { file, data } of files) {
    if (!isObject(data)) continue;
    if (file === 'catalog.json') {
      const perCollection = new Map<string, number>();
      (Array.isArray(data.products) ? data.products : []).forEach((product, index) => {
        if (!isObject(product) || typeof product.collectionId !== 'string') return;
        const count = (perCollection.get(product.collectionId) ?? 0) + 1;
        perCollection.set(product.collectionId, count);
        if (count === CONTENT_LIMITS.productsPerCollection + 1) {
          out.push({
            file,
            pointer: `/products/${index}`,
            message: `Collection "${product.collectionId}" has more than ${CONTENT_LIMITS.productsPerCollection} products; a collection holds at most ${CONTENT_LIMITS.productsPerCollection}.`,
          });
        }
      });
      continue;
    }
    if (file === 'site.json' && Array.isArray(data.navigation) && data.navigation.length > CONTENT_LIMITS.navigationLinks) {
      const n = CONTENT_LIMITS.navigationLinks;
      out.push({ file, pointer: `/navigation/${n}`, message: `The navigation has ${data.navigation.length} links; it holds at most ${n}.` });
    }
    if (!file.startsWith('content/')) continue;
    contentFileFindings(file, data, out);
    if (data.kind === 'collection' && data.collectionType === 'gallery' && ++galleries === CONTENT_LIMITS.galleries + 1) {
      out.push({
        file,
        pointer: Object.hasOwn(data, 'collectionType') ? '/collectionType' : '',
        message: `This is gallery ${galleries}; a site holds at most ${CONTENT_LIMITS.galleries} galleries.`,
      });
    }
  }
  return out;
}
