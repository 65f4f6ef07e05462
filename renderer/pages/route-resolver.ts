import type { ContentEntry, LoadedSite } from '../site/site-types.ts';
import { PAGE_TYPE } from './page-type-numbers.ts';
import { allTableTemplateNames, PAGE_TABLE, tableTemplateNames, type TableRoute } from './page-types/table.ts';
import type { PageKind } from './page-types/page-kind.ts';

// C1 routing: URL → what to render, by the page-type table's matchers (page-types/table.ts).
// Pure, no I/O: the entry's loader loads the data a route names. Products are matched later,
// against the store.

export { PAGE_TYPE } from './page-type-numbers.ts';

/** What a URL names: a route of one of the page-type table's entries. */
export type Route = TableRoute;

function decodeSegments(pathname: string): string[] | null {
  const segments: string[] = [];
  for (const raw of pathname.split('/')) {
    if (raw === '') continue;
    // Without a `%` there is nothing to decode (decodeURIComponent would return the same text).
    if (!raw.includes('%')) {
      segments.push(raw);
      continue;
    }
    try {
      segments.push(decodeURIComponent(raw));
    } catch {
      return null;
    }
  }
  return segments;
}

/** The path of a request URL without its query; `//x` and other oddities resolve to not-found. */
export function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

export function resolveRoute(site: LoadedSite, pathname: string): Route {
  // A trailing slash names the same page; anything else unusual is simply not found.
  const segments = decodeSegments(pathname);
  if (segments === null || pathname.includes('//')) return { kind: 'not-found' };
  for (const kind of PAGE_TABLE as readonly PageKind[]) {
    const route = kind.match?.(segments, site);
    if (route) return route as Route;
  }
  return { kind: 'not-found' };
}

/** Template names to try, most specific first, for a rendered page type. */
export function templateNames(pageType: number, entry: ContentEntry | null): string[] {
  const names: string[] = [];
  if (entry?.template && (pageType === entry.pageType || pageType === PAGE_TYPE.item)) {
    names.push(pageType === PAGE_TYPE.item ? `${entry.template}.item` : entry.template);
  }
  // Collections and items try their collection type's template before the table's generic one.
  if (pageType === PAGE_TYPE.collection) names.push(`${entry?.collectionType ?? 'collection'}.list`, ...tableTemplateNames(pageType)!);
  else if (pageType === PAGE_TYPE.item) names.push(`${entry?.collectionType ?? 'collection'}.item`, ...tableTemplateNames(pageType)!);
  else names.push(...(tableTemplateNames(pageType) ?? ['page']));
  return names;
}

/**
 * Every template name a page of the site may be rendered with: the layout, the page-type
 * table's names, and each content file's own (its `"template"`, its collection type's
 * `.list` and `.item`). A file of `templates/` named otherwise is rendered by no page.
 */
export function siteTemplateNames(site: LoadedSite): Set<string> {
  const names = new Set(['layout', ...allTableTemplateNames()]);
  for (const entry of site.entries) {
    for (const name of templateNames(entry.pageType, entry)) names.add(name);
    if (entry.kind === 'collection') for (const name of templateNames(PAGE_TYPE.item, entry)) names.add(name);
  }
  return names;
}
