// CSV for the submissions export (RFC 4180): every field quoted, quotes doubled, CRLF
// between records. Visitors write the values, and a spreadsheet runs a cell that starts
// with = + - @ (or a tab or carriage return before one) as a formula: such a cell gets a
// leading apostrophe, which spreadsheets show as text (OWASP "CSV injection"). Characters
// that reorder text are shown as `[U+202E]`, as in the admin (hydrate/shared/direction-controls.ts).
import { showDirectionControls } from '../../hydrate/shared/direction-controls.ts';

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(text: string): string {
  const value = showDirectionControls(text);
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}

export function csvRow(cells: readonly string[]): string {
  return cells.map(csvCell).join(',') + '\r\n';
}

/** A submitted value as one cell: lists (name, checkboxes) joined, objects (address) by their values. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(cellText).filter((part) => part !== '').join(' ');
  if (typeof value === 'object') return Object.values(value).map(cellText).filter((part) => part !== '').join(', ');
  return String(value);
}
