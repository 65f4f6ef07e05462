import type { Form, FormField } from '../store/types.ts';
import { isValidEmail } from '../../hydrate/shared/email.ts';
import { exceedsMaxLength } from '../../hydrate/shared/text-length.ts';
import { hasUnstorableText } from './http.ts';

// Server-side field validation (STOREFRONT B0.6), with the client's messages (D11) so a
// 400 can be shown next to the field as is.

export const FIELD_MESSAGES = {
  invalid: 'Invalid value.',
  required: 'Required',
  tooLong: 'You have exceeded the character limit.',
  email: 'Email is not valid. Email addresses should follow the format user@domain.com.',
  formInvalid: 'One or more fields is invalid, please check your entries.',
} as const;

/** D5, the islands' rule (hydrate/shared/email.ts). */
export { isValidEmail };

/** Every field type A6 renders, with the part names of the multi-part ones (also B6). */
export const FIELD_TYPES: readonly { type: string; input: boolean; parts: readonly string[] }[] = [
  { type: 'text', input: true, parts: [] },
  { type: 'email', input: true, parts: [] },
  { type: 'number', input: true, parts: [] },
  { type: 'website', input: true, parts: [] },
  { type: 'currency', input: true, parts: [] },
  { type: 'password', input: true, parts: [] },
  { type: 'twitter', input: true, parts: [] },
  { type: 'textarea', input: true, parts: [] },
  { type: 'date', input: true, parts: ['month', 'day', 'year'] },
  { type: 'name', input: true, parts: ['first', 'last'] },
  { type: 'time', input: true, parts: ['hour', 'minute', 'ampm'] },
  { type: 'address', input: true, parts: ['line1', 'line2', 'city', 'state', 'zip', 'country'] },
  { type: 'phone', input: true, parts: ['countryCode', 'areaCode', 'prefix', 'line'] },
  { type: 'checkbox', input: true, parts: [] },
  { type: 'likert', input: true, parts: [] },
  { type: 'radio', input: true, parts: [] },
  { type: 'select', input: true, parts: [] },
  { type: 'hidden', input: true, parts: [] },
  { type: 'section', input: false, parts: [] },
];

const LIST_TYPES = new Set(['address', 'name', 'date', 'time', 'phone', 'checkbox']);
const OPTION_TYPES = new Set(['radio', 'select', 'checkbox']);

export interface FieldValidationResult {
  errors: Record<string, string>;
  /** The submitted values of known, non-section fields, in form order. */
  values: Record<string, unknown>;
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((entry) => typeof entry === 'string')
  );
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((entry) => typeof entry === 'string');
}

/** Option values as the client submits them: plain strings or `{value|label|title|name}`. */
export function optionValues(field: FormField): string[] {
  const options = Array.isArray(field.options) ? field.options : [];
  const values: string[] = [];
  for (const option of options) {
    if (typeof option === 'string' || typeof option === 'number') values.push(String(option));
    else if (typeof option === 'object' && option !== null) {
      const record = option as Record<string, unknown>;
      const value = record.value ?? record.label ?? record.title ?? record.name;
      if (typeof value === 'string' || typeof value === 'number') values.push(String(value));
    }
  }
  return values;
}

// A6: a multi-part value is non-empty when one part is; whitespace alone counts as empty.
function isEmpty(value: string | string[]): boolean {
  return typeof value === 'string' ? value.trim() === '' : value.every((part) => part.trim() === '');
}

function validateField(field: FormField, raw: unknown): string | null {
  const present = raw !== undefined && raw !== null;
  if (field.type === 'likert') {
    // Never required-checked (A6); only the shape is enforced.
    return present && !isStringRecord(raw) ? FIELD_MESSAGES.invalid : null;
  }
  const isList = LIST_TYPES.has(field.type);
  let value: string | string[];
  if (!present) value = isList ? [] : '';
  else if (isList ? isStringList(raw) : typeof raw === 'string') value = raw as string | string[];
  else return FIELD_MESSAGES.invalid;

  const empty = isEmpty(value);
  if (field.required === true && empty) {
    return field.type === 'email' ? FIELD_MESSAGES.email : FIELD_MESSAGES.required;
  }
  if (OPTION_TYPES.has(field.type) && !empty) {
    const allowed = optionValues(field);
    const chosen = typeof value === 'string' ? [value] : value;
    if (chosen.some((choice) => !allowed.includes(choice))) return FIELD_MESSAGES.invalid;
  }
  // The island's rule (hydrate/shared/text-length.ts): trimmed, in code points, so an emoji
  // counts once and a trailing newline not at all, as the visitor's counter showed.
  if (typeof field.maxLength === 'number' && typeof value === 'string' && exceedsMaxLength(value, field.maxLength)) {
    return FIELD_MESSAGES.tooLong;
  }
  if (field.type === 'email' && !empty && !isValidEmail((value as string).trim())) return FIELD_MESSAGES.email;
  return null;
}

/** Validates `submitted` (field id to value) against the form; unknown ids are dropped. */
export function validateFormValues(form: Form, submitted: Record<string, unknown>): FieldValidationResult {
  const errors: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  for (const field of form.fields) {
    if (field.type === 'section' || typeof field.id !== 'string') continue;
    const raw = Object.hasOwn(submitted, field.id) ? submitted[field.id] : undefined;
    const message = validateField(field, raw);
    if (message) errors[field.id] = message;
    else if (raw !== undefined) values[field.id] = raw;
  }
  return { errors, values };
}

/**
 * Parses an `additionalFields` / `form` string that must hold a JSON object. An object the
 * database could not store (NUL, a lone surrogate: escapes the body screen cannot see inside
 * the string) does not parse either, so it is refused before a form key is spent.
 */
export function parseFieldsObject(text: unknown): Record<string, unknown> | null {
  if (typeof text !== 'string') return null;
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value) || hasUnstorableText(value)) return null;
    return value as Record<string, unknown>;
  } catch {
    return null;
  }
}
