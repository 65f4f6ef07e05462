import type { Template } from '../../engine/index.ts';
import { BUILTIN_TEMPLATES } from '../site/builtin-templates.ts';
import { compileCached } from '../site/load-site.ts';
import type { CompiledTemplate, LoadedSite } from '../site/site-types.ts';

// Which compiled template renders a page: the site folder's of the first name it has, else
// the built-in of the first name there is one for, else the built-in `page`.

const builtinCache = new Map<string, CompiledTemplate>();
export function builtinTemplate(name: string): CompiledTemplate | null {
  let hit = builtinCache.get(name);
  if (hit) return hit;
  const source = BUILTIN_TEMPLATES[name];
  if (source === undefined) return null;
  const file = `builtin:${name}`;
  const { template, hash } = compileCached(file, source);
  hit = { name: file, file, hash, template };
  builtinCache.set(name, hit);
  return hit;
}

export function pickTemplate(site: LoadedSite, names: readonly string[]): CompiledTemplate {
  for (const name of names) {
    const own = site.templates.get(name);
    if (own) return own;
  }
  for (const name of names) {
    const builtin = builtinTemplate(name);
    if (builtin) return builtin;
  }
  return builtinTemplate('page')!;
}

/** A site's `head` partial compiled once per loaded site (null: the site has none). */
const headCache = new WeakMap<LoadedSite, Template | null>();
export function headTemplate(site: LoadedSite): Template | null {
  let hit = headCache.get(site);
  if (hit === undefined) {
    hit = Object.hasOwn(site.partials, 'head') ? compileCached('partials/head.jsont', site.partials.head!).template : null;
    headCache.set(site, hit);
  }
  return hit;
}
