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

// A Host header's host[:port]: a DNS name or IPv4 address, or an IPv6 address in brackets.
const HOST = /^(?:[a-z0-9_-]+(?:\.[a-z0-9_-]+)*\.?|\[[0-9a-f:.]+\])(?::[0-9]{1,5})?$/i;

/**
 * The origin the sitemap's URLs start with: site.json's `baseUrl`, else the address the crawler
 * asked for (a sitemap's URLs are on its own host), when its Host is a well-formed host[:port];
 * null when it is not: a Host of `x y` or `a]b` made every URL a broken one. (A well-formed
 * Host of someone else's is still named: the answer is `no-store`, so no cache keeps it for others.)
 */
export function sitemapOrigin(configured: unknown, protocol: string, host: string): string | null {
  if (typeof configured === 'string') return configured.replace(/\/$/, '');
  return HOST.test(host) ? `${protocol}://${host}` : null;
}

export function sitemapXml(baseUrl: string, paths: readonly string[]): string {
  const urls = paths.map((path) => `  <url><loc>${escapeHtml(baseUrl + path)}</loc></url>\n`).join('');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}</urlset>\n`;
}
