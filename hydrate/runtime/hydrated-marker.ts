import { useEffect, type ReactNode } from 'react';
import { HYDRATED_ATTR } from '../protocol/markers.ts';

/**
 * Wraps an island's element: marks its container `data-hydrated="true"` once React has
 * committed the hydrated tree. Used by boot and by the quick view, which hydrates the same
 * islands inside its dialog.
 */
export function HydratedMarker({ container, children }: { container: HTMLElement; children: ReactNode }): ReactNode {
  useEffect(() => {
    container.setAttribute(HYDRATED_ATTR, 'true');
  }, [container]);
  return children;
}
