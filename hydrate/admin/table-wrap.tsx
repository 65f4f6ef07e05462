import type { ReactNode } from 'react';

/**
 * A table that scrolls sideways on a narrow screen: the scrolling box is a named region in
 * the tab order, so a keyboard user can scroll it too (axe: scrollable-region-focusable).
 */
export function TableWrap({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="admin-table-wrap" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
