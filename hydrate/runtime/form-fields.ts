/**
 * Form fields shared by the additional-fields lightbox (A6) and site forms (A7): value
 * collection by field type, and the client `Required` rule. Both read the same DOM shape:
 * one `.sf-field[data-field-id][data-field-type]` per field.
 */

import type { FormField } from '../shared/form-field.ts';

export type { FormField };

export interface FormDefinition {
  id: string;
  name?: string;
  fields: FormField[];
  parsedSubmissionMessage?: string;
  submissionHTML?: string;
  successRedirect?: string;
  parsedDisclaimerMessage?: string;
  captchaEnabled?: boolean;
  captchaTheme?: string;
  captchaAlignment?: string;
}

export type FieldValue = string | string[] | Record<string, string>;

export const REQUIRED_MESSAGE = 'Required';

/**
 * The attributes of a control whose field is in error: marked invalid and described by the
 * error's element (id `errorId`), so the error is read with it. None when there is no error.
 */
export function invalidAttrs(errorId: string | null | false | undefined): { 'aria-invalid'?: true; 'aria-describedby'?: string } {
  return errorId ? { 'aria-invalid': true, 'aria-describedby': errorId } : {};
}

export const LIKERT_ANSWERS = ['Strongly Disagree', 'Disagree', 'Neutral', 'Agree', 'Strongly Agree'] as const;

/** Parts of the multi-part field types, in collection order. */
export const FIELD_PARTS: Record<string, string[]> = {
  name: ['First', 'Last'],
  date: ['Month', 'Day', 'Year'],
  time: ['Hour', 'Minute', 'Ampm'],
  address: ['Line1', 'Line2', 'City', 'State', 'Zip', 'Country'],
};

export function phoneParts(showCountryCode: boolean): string[] {
  return showCountryCode ? ['Country', 'Areacode', 'Prefix', 'Line'] : ['Areacode', 'Prefix', 'Line'];
}

export function isSection(type: string): boolean {
  return type === 'section';
}

function optionValue(option: string | { value?: string; label?: string }): string {
  return typeof option === 'string' ? option : (option.value ?? option.label ?? '');
}
export function optionLabel(option: string | { value?: string; label?: string }): string {
  return typeof option === 'string' ? option : (option.label ?? option.value ?? '');
}
export { optionValue };

/** The query-string value a hidden field takes (A6: by the field's name). */
function queryValue(name: string, search: string): string | null {
  if (!name) return null;
  return new URLSearchParams(search).get(name);
}

export type FieldCollector = (fieldEl: Element, search: string) => FieldValue;

/** Collectors for field types beyond the built-in ones (custom field renderers register here). */
const extraCollectors = new Map<string, FieldCollector>();

export function registerFieldCollector(type: string, collector: FieldCollector): () => void {
  extraCollectors.set(type, collector);
  return () => extraCollectors.delete(type);
}

/** A6 value collection from a `.sf-field` element. A registered custom collector may throw. */
export function collectFieldValue(fieldEl: Element, search: string): FieldValue {
  const type = fieldEl.getAttribute('data-field-type') ?? 'text';
  const custom = extraCollectors.get(type);
  if (custom) return custom(fieldEl, search);
  const controls = [...fieldEl.querySelectorAll<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>('input, select, textarea')];
  switch (type) {
    case 'address':
    case 'name':
    case 'date':
    case 'time':
      return controls.map((c) => c.value);
    case 'phone': {
      const parts = controls.map((c) => c.value);
      return parts.length === 3 ? ['', ...parts] : parts;
    }
    case 'checkbox':
      return controls.filter((c) => (c as HTMLInputElement).type === 'checkbox' && (c as HTMLInputElement).checked).map((c) => c.value);
    case 'radio':
      return controls.find((c) => (c as HTMLInputElement).type === 'radio' && (c as HTMLInputElement).checked)?.value ?? '';
    case 'select':
      return (fieldEl.querySelector('select') as HTMLSelectElement | null)?.value ?? '';
    case 'likert': {
      const out: Record<string, string> = {};
      for (const row of fieldEl.querySelectorAll('[data-question]')) {
        const checked = row.querySelector<HTMLInputElement>('input[type="radio"]:checked');
        if (checked) out[row.getAttribute('data-question') ?? ''] = checked.value;
      }
      return out;
    }
    case 'hidden': {
      const input = controls[0];
      const fromQuery = queryValue(input?.getAttribute('name') ?? '', search);
      return fromQuery ?? input?.value ?? '';
    }
    default:
      return controls[0]?.value ?? '';
  }
}

/** A6 emptiness: a multi-part field is non-empty when any part is. */
export function isEmptyValue(value: FieldValue): boolean {
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.every((part) => part.trim() === '');
  return Object.keys(value).length === 0;
}

/** Collects `{fieldId: value}` for every non-section field inside `root`. */
export function collectForm(root: Element, search: string): Record<string, FieldValue> {
  const out: Record<string, FieldValue> = {};
  for (const fieldEl of root.querySelectorAll('.sf-field[data-field-id]')) {
    const type = fieldEl.getAttribute('data-field-type') ?? '';
    if (isSection(type)) continue;
    out[fieldEl.getAttribute('data-field-id')!] = collectFieldValue(fieldEl, search);
  }
  return out;
}

/** The A6 `Required` rule for one field (likert and sections are never checked). */
export function requiredError(type: string, required: boolean, value: FieldValue): string | null {
  if (!required || type === 'likert' || isSection(type)) return null;
  return isEmptyValue(value) ? REQUIRED_MESSAGE : null;
}
