import type { FormField } from './form-field.ts';

/**
 * The submitted values of an additional-fields form (A6) as the cart shows them next to the
 * line: one `{label, value}` per answered field, in the form's order (issue 16: a mug's line
 * says what will be engraved, not only "Edit form"). Shared so that the renderer's cart page
 * and the cart-page island (after an edit) write the same text.
 */
export interface FieldValueLine {
  label: string;
  value: string;
}

function valueText(value: unknown): string {
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.map(valueText).filter((s) => s !== '').join(', ');
  if (typeof value === 'object' && value !== null) return Object.values(value).map(valueText).filter((s) => s !== '').join(' ');
  return '';
}

/** Lines for `additionalFields` (the JSON string the cart holds); [] when it is not an object. */
export function fieldValueLines(fields: readonly Pick<FormField, 'id' | 'title' | 'name'>[], additionalFields: string | null | undefined): FieldValueLine[] {
  if (typeof additionalFields !== 'string' || additionalFields === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(additionalFields);
  } catch {
    return [];
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return [];
  const values = parsed as Record<string, unknown>;
  const lines: FieldValueLine[] = [];
  for (const field of fields) {
    if (!Object.prototype.hasOwnProperty.call(values, field.id)) continue;
    const value = valueText(values[field.id]);
    if (value !== '') lines.push({ label: field.title || field.name || field.id, value });
  }
  return lines;
}
