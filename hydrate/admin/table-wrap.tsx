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

/**
 * A scrolling table named `label` (region and caption), with one header row of `columns`. The label differs from its panel's heading: two landmarks of one name are one too many for a screen reader's list (axe `landmark-unique`).
 * `stacked`: on a phone (admin.css, under 720 px) each row is a card of its cells one under
 * another, each cell headed by its column's name (its `data-label`), so a row's last columns
 * (an order's status and actions) need no sideways scroll (WCAG 1.4.10). The explicit table roles
 * keep the table a table to screen readers once CSS `display: block` has undone its layout (some
 * engines drop the semantics then); the rows' cells say theirs (`role="row"`, `"cell"`, `"rowheader"`).
 */
export function AdminTable({ label, columns, stacked = false, children }: { label: string; columns: readonly Column[]; stacked?: boolean; children: ReactNode }) {
  const role = (name: string) => (stacked ? name : undefined);
  return (
    <TableWrap label={label}>
      <table className={stacked ? 'admin-table admin-table-stacked' : 'admin-table'} role={role('table')}>
        <caption className="admin-visually-hidden">{label}</caption>
        <thead role={role('rowgroup')}>
          <tr role={role('row')}>
            {columns.map((column, index) =>
              typeof column === 'string' ? (
                <th scope="col" key={index} role={role('columnheader')}>
                  {column}
                </th>
              ) : (
                <th scope="col" key={index} role={role('columnheader')}>
                  <span className="admin-visually-hidden">{column.hidden}</span>
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody role={role('rowgroup')}>{children}</tbody>
      </table>
    </TableWrap>
  );
}
