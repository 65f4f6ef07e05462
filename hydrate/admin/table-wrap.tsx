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

/** A column heading; `{ hidden }` is read by screen readers only (an actions column). */
export type Column = string | { hidden: string };

/** A scrolling table named `label` (region and caption), with one header row of `columns`. The label differs from its panel's heading: two landmarks of one name are one too many for a screen reader's list (axe `landmark-unique`). */
export function AdminTable({ label, columns, children }: { label: string; columns: readonly Column[]; children: ReactNode }) {
  return (
    <TableWrap label={label}>
      <table className="admin-table">
        <caption className="admin-visually-hidden">{label}</caption>
        <thead>
          <tr>
            {columns.map((column, index) =>
              typeof column === 'string' ? (
                <th scope="col" key={index}>
                  {column}
                </th>
              ) : (
                <th scope="col" key={index}>
                  <span className="admin-visually-hidden">{column.hidden}</span>
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </TableWrap>
  );
}
