import { createHash } from 'node:crypto';
import type { LoadedSite } from '../site/site-types.ts';

/**
 * A site's stylesheet (`styles.css`, `styles/*.css`) as a file of its own, named by its
 * content hash: every page links it instead of carrying it inline, so a browser downloads
 * it once per change of the CSS and a page is half the bytes it was (the demo's CSS is
 * 11 KB of a 22 KB product page). The hash in the name lets it be cached for good.
 */
export interface SiteStylesheet {
  /** `site-<16 hex>.css`, the last path segment of `href`. */
  name: string;
  href: string;
  body: Buffer;
}

export const SITE_STYLESHEET_PREFIX = '/assets/site/';

const stylesheets = new WeakMap<LoadedSite, SiteStylesheet | null>();

/** The stylesheet of a loaded site, or null when the site has no CSS; computed once per site. */
export function siteStylesheet(site: LoadedSite): SiteStylesheet | null {
  let sheet = stylesheets.get(site);
  if (sheet === undefined) {
    if (site.stylesheet.trim() === '') sheet = null;
    else {
      const name = `site-${createHash('sha256').update(site.stylesheet).digest('hex').slice(0, 16)}.css`;
      sheet = { name, href: SITE_STYLESHEET_PREFIX + name, body: Buffer.from(site.stylesheet) };
    }
    stylesheets.set(site, sheet);
  }
  return sheet;
}
