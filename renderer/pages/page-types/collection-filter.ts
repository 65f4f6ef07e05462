import { firstString, type Json } from '../page-context.ts';

/**
 * A collection page narrowed by `?tag=` or `?category=` (designed here, as Squarespace sites
 * link tags and categories): the tag links of products and posts lead to their collection
 * filtered this way, because search (C1 type 102) matches titles only and a tag sent there
 * found nothing.
 */
export type CollectionFilter = { kind: 'tag' | 'category'; value: string };

/**
 * Longest filter value kept. D3 bounds a tag at 50 characters and a category at 25, but a site
 * file can hold longer ones; past this nothing is echoed into the page (the value is cut).
 */
export const FILTER_VALUE_LIMIT = 200;

/** The filter a collection page's query asks for; `tag` wins when both are given, a blank one is none. */
export function collectionFilterOf(query: Json): CollectionFilter | null {
  for (const kind of ['tag', 'category'] as const) {
    const value = (firstString(query[kind]) ?? '').trim().slice(0, FILTER_VALUE_LIMIT);
    if (value !== '') return { kind, value };
  }
  return null;
}

/**
 * A tag or category folded for comparing: case, and the spaces or punctuation between words,
 * are ignored, so the `#behind-the-scenes` a template shows (its `slugify`) finds the
 * `behind the scenes` a post holds, as does the raw value the tag links carry.
 */
export function foldLabel(label: string): string {
  return label
    .normalize('NFKC')
    .toLowerCase()
    .replaceAll(/[^\p{L}\p{N}]+/gu, '-')
    .replaceAll(/^-+|-+$/g, '');
}

/** The labels of an item's `tags` or `categories` field; anything else there is ignored. */
function labelsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((label): label is string => typeof label === 'string') : [];
}

/**
 * A test for the items the filter keeps, given each item's `tags` and `categories` (a product's
 * `extra`, a content item's `data`). A value that folds to nothing (`?tag=%23`) keeps no item.
 */
export function filterMatcher(filter: CollectionFilter): (fields: Json) => boolean {
  const wanted = foldLabel(filter.value);
  const field = filter.kind === 'tag' ? 'tags' : 'categories';
  return (fields) => wanted !== '' && labelsOf(fields[field]).some((label) => foldLabel(label) === wanted);
}

/**
 * The template-context members of a filtered collection page: `tagFilter` or `categoryFilter`
 * (the names Squarespace templates read) holding the value as asked, and `collectionFilter`
 * with its kind, value, how many items it kept and the link back to the whole collection.
 */
export function filterContext(filter: CollectionFilter, itemCount: number, allUrl: string): Json {
  return {
    [filter.kind === 'tag' ? 'tagFilter' : 'categoryFilter']: filter.value,
    collectionFilter: { kind: filter.kind, value: filter.value, itemCount, allUrl },
  };
}
