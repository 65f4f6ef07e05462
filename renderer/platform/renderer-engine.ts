import { Engine, createRegistry } from '../../engine/index.ts';
import { defaultFormatters } from '../../formatters/index.ts';
import { defaultPredicates } from '../../predicates/index.ts';
import { imageComponentFormatter } from './image-component-formatter.ts';
import { storefrontVariantsSelect } from './variants-select-formatter.ts';

/**
 * Formatters the renderer adds for its own templates. They are not part of PLUGINS.md,
 * so they stay out of the default engine (`listPlugins()` keeps its 95 + 101).
 */
export const RENDERER_FORMATTERS = [imageComponentFormatter] as const;

/**
 * Default formatters whose markup the storefront's pages change (accessibility fixes over the
 * reference's bytes), by name; the default engine keeps the reference's.
 */
const STOREFRONT_OVERRIDES = new Map([['variants-select', storefrontVariantsSelect]]);

/** A new engine whose registry is the default one (with the storefront's overrides) plus the renderer's formatters. */
export function createRendererEngine(): Engine {
  const formatters = defaultFormatters.map((spec) => STOREFRONT_OVERRIDES.get(spec.name)?.(spec) ?? spec);
  return new Engine(createRegistry([...formatters, ...RENDERER_FORMATTERS], defaultPredicates));
}

let shared: Engine | null = null;

/** The one renderer engine of this process (its compile cache is shared by every page). */
export function rendererEngine(): Engine {
  return (shared ??= createRendererEngine());
}
