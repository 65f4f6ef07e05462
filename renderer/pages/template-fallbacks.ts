import fs from 'node:fs/promises';
import path from 'node:path';
import type { LoadedSite } from '../site/site-types.ts';
import { editDistance } from '../site/validate-site-files.ts';
import { PAGE_TYPE } from './page-type-numbers.ts';
import { siteTemplateNames, templateNames } from './route-resolver.ts';

// A site's pages rendered with Quire's built-in page template because `templates/page.jsont`
// is gone (deleted, renamed `Page.jsont`, saved as `page.json`): the spec's fallback (C1) keeps
// them rendering, so the look changed and no tool said why. Author tools report it as the
// warning SITE_TEMPLATE_MISSING (quire check, the preview, render-page, `npm start`'s notes).

/** The diagnostic code of a missing page template (renderer/preview/diagnostic-frames.ts SITE_CODES). */
export const TEMPLATE_MISSING_CODE = 'SITE_TEMPLATE_MISSING';

export interface TemplateFallback {
  /** The missing file, relative to the site folder (`templates/page.jsont`). */
  file: string;
  /** A file of `templates/` named close to it (`templates/Page.jsont`, `templates/page.json`), or null. */
  near: string | null;
  /** The content files of the pages rendered with the built-in template instead. */
  pages: string[];
  /** The warning's words, the same in every tool. */
  message: string;
}

/** Content files a message names before it counts the rest. */
const NAMED_PAGES = 3;

/**
 * The file of `templates/` an author most likely meant for `name.jsont`: the same name in
 * another case or with another extension (`Page.jsont`, `page.json`, `page.html`) first, then
 * a slip of one letter or two swapped (`pages.jsont`, `pgae.jsont`). Compared by the part before the
 * first dot, so `home.jsont` is not offered for `page.jsont` (one letter in three of the whole
 * name). Templates a page renders with are never offered.
 */
function nearFile(name: string, files: readonly string[], used: ReadonlySet<string>): string | null {
  let best: string | null = null;
  let bestScore = Infinity;
  for (const file of files) {
    if (file === `${name}.jsont` || file.startsWith('.')) continue;
    if (file.endsWith('.jsont') && used.has(file.slice(0, -'.jsont'.length))) continue;
    const stem = file.split('.')[0]!.toLowerCase();
    const want = name.toLowerCase();
    // Two letters swapped (`pgae`) is one slip, though two edits apart.
    const swapped = stem.length === want.length && [...stem].sort().join('') === [...want].sort().join('') && editDistance(stem, want, 2) === 2;
    const score = stem === want ? 0 : swapped ? 2 : editDistance(stem, want, 2) + 1;
    if (score <= 2 && score < bestScore) {
      bestScore = score;
      best = file;
    }
  }
  return best === null ? null : `templates/${best}`;
}

/**
 * The site's pages that render with the built-in page template for want of `templates/page.jsont`.
 * Only a folder with a `templates/` folder is asked: one without writes no templates and means
 * the built-in ones. Pages naming a template of their own that exists are not counted.
 */
export async function templateFallbacks(site: LoadedSite): Promise<TemplateFallback[]> {
  if (site.templates.has('page')) return [];
  const pages: string[] = [];
  for (const entry of site.entries) {
    if (entry.pageType !== PAGE_TYPE.page && entry.pageType !== PAGE_TYPE.splash) continue;
    if (templateNames(entry.pageType, entry).some((name) => site.templates.has(name))) continue;
    pages.push(entry.file);
  }
  if (pages.length === 0) return [];
  let files: string[];
  try {
    files = (await fs.readdir(path.join(site.dir, 'templates'), { withFileTypes: true })).filter((e) => e.isFile()).map((e) => e.name).sort();
  } catch {
    return [];
  }
  const file = 'templates/page.jsont';
  const near = nearFile('page', files, siteTemplateNames(site));
  const named = pages.slice(0, NAMED_PAGES).join(', ') + (pages.length > NAMED_PAGES ? ` and ${pages.length - NAMED_PAGES} more` : '');
  const what = `${pages.length === 1 ? '1 page' : `${pages.length} pages`} (${named}) ${pages.length === 1 ? 'renders' : 'render'} with Quire's built-in page template`;
  const fix = near
    ? `did you mean ${near}? A page template is found by its exact name, page.jsont`
    : 'add templates/page.jsont, or name in a content file the "template" it renders with';
  return [{ file, near, pages, message: `no ${file}, so ${what}: ${fix}` }];
}
