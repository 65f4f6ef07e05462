import { Engine, createRegistry } from '../../engine/index.ts';
import { defaultFormatters } from '../../formatters/index.ts';
import { defaultPredicates } from '../../predicates/index.ts';
import { imageComponentFormatter } from './image-component-formatter.ts';

/**
 * Formatters the renderer adds for its own templates. They are not part of PLUGINS.md,
 * so they stay out of the default engine (`listPlugins()` keeps its 95 + 101).
 */
export const RENDERER_FORMATTERS = [imageComponentFormatter] as const;

/** A new engine whose registry is the default one plus the renderer's formatters. */
export function createRendererEngine(): Engine {
  return new Engine(createRegistry([...defaultFormatters, ...RENDERER_FORMATTERS], defaultPredicates));
}

let shared: Engine | null = null;

/** The one renderer engine of this process (its compile cache is shared by every page). */
export function rendererEngine(): Engine {
  return (shared ??= createRendererEngine());
}
