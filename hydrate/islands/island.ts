import type { ReactElement } from 'react';
import type { Runtime } from '../runtime/runtime.ts';

/**
 * One island kind. `prepare` reads everything it needs from the container (before React
 * touches it) and returns the element to hydrate, or null to leave the markup alone.
 */
export interface IslandDefinition {
  prepare(container: HTMLElement, runtime: Runtime): ReactElement | null;
  /** Code this container will need on first interaction; boot waits for it before hydrating. */
  preload?(container: HTMLElement): Promise<unknown> | null;
}
