import type { LoadedSite } from '../site/site-types.ts';
import type { Product } from '../store/types.ts';
import { escapeHtml } from './html.ts';
import { isListedPageType } from './page-types/table.ts';

/**
 * Every public page path: pages, collections, their items and products. Member-area and
 * password-protected pages are not public; nor are the special pages reached only from a
 * link (contribution confirmed, unsubscribe, the commerce e-mail preview …: `listed: false`).
 */
export function publicPaths(site: LoadedSite, products: readonly Product[]): string[] {
  const paths: string[] = [];
  for (const entry of site.entries) {
    if (entry.memberArea || entry.password || !isListedPageType(entry.pageType)) continue;
    paths.push(entry === site.home ? '/' : `/${entry.slug}`);
    if (entry.kind !== 'collection') continue;
    if (entry.collectionType === 'products') {
      for (const product of products) if (product.collectionId === entry.id) paths.push(`/${entry.slug}/${encodeURIComponent(product.urlSlug)}`);
    } else {
      for (const item of entry.items) paths.push(`/${entry.slug}/${item.slug}`);
    }
  }
  // The home page may also be reachable by its slug; list each page once.
  return [...new Set(paths)];
}

export function sitemapXml(baseUrl: string, paths: readonly string[]): string {
  const urls = paths.map((path) => `  <url><loc>${escapeHtml(baseUrl + path)}</loc></url>\n`).join('');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}</urlset>\n`;
}
