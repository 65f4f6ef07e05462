import { describe, expect, it } from 'vitest';
import type { Form } from '../store/types.ts';
import { FIELD_MESSAGES, isValidEmail, optionValues, parseFieldsObject, validateFormValues } from './form-validation.ts';

function form(fields: Form['fields']): Form {
  return { id: 'f', name: 'F', fields, captchaEnabled: false, storageConfigured: true, isNewsletter: false, extra: {} };
}

describe('isValidEmail (D5)', () => {
  it.each([
    ['a@b.co', true],
    ['a@b.museum', false],
    ['a@b', false],
    ['a b@c.de', false],
    ['a@b.c', false],
    [`${'x'.repeat(250)}@b.com`, true],
    [`${'x'.repeat(251)}@b.com`, false],
  ])('case %#', (email, valid) => {
    expect(isValidEmail(email)).toBe(valid);
  });
});

describe('validateFormValues (B0.6)', () => {
  it('checks the value shape per field type', () => {
    const result = validateFormValues(
      form([
        { id: 'text', type: 'text' },
        { id: 'name', type: 'name' },
        { id: 'likert', type: 'likert' },
      ]),
      { text: ['x'], name: 'Ann', likert: { q: 1 } },
    );
    expect(result.errors).toEqual({ text: FIELD_MESSAGES.invalid, name: FIELD_MESSAGES.invalid, likert: FIELD_MESSAGES.invalid });
  });

  it('requires non-empty values, except likert; a multi-part value needs one part', () => {
    const fields: Form['fields'] = [
      { id: 'text', type: 'text', required: true },
      { id: 'address', type: 'address', required: true },
      { id: 'phone', type: 'phone', required: true },
      { id: 'boxes', type: 'checkbox', required: true, options: ['a'] },
      { id: 'likert', type: 'likert', required: true },
      { id: 'email', type: 'email', required: true },
      { id: 'section', type: 'section', required: true },
    ];
    const result = validateFormValues(form(fields), { text: '  ', address: ['', ''], phone: ['', '555', '', ''], boxes: [] });
    expect(result.errors).toEqual({
      text: 'Required',
      address: 'Required',
      boxes: 'Required',
      email: FIELD_MESSAGES.email,
    });
  });

  it('checks options, length and email format, and keeps only known fields', () => {
    const fields: Form['fields'] = [
      { id: 'pick', type: 'select', options: [{ value: 'x' }, 'y'] },
      { id: 'boxes', type: 'checkbox', options: ['a', 'b'] },
      { id: 'short', type: 'text', maxLength: 3 },
      { id: 'email', type: 'email' },
      { id: 'optionalEmail', type: 'email' },
    ];
    const bad = validateFormValues(form(fields), { pick: 'z', boxes: ['a', 'c'], short: 'abcd', email: 'bob@' });
    expect(bad.errors).toEqual({
      pick: 'Invalid value.',
      boxes: 'Invalid value.',
      short: 'You have exceeded the character limit.',
      email: FIELD_MESSAGES.email,
    });
    const good = validateFormValues(form(fields), { pick: 'x', boxes: ['b'], short: 'abc', email: 'bob@example.com', stray: 1, pick2: 'y' });
    expect(good.errors).toEqual({});
    expect(good.values).toEqual({ pick: 'x', boxes: ['b'], short: 'abc', email: 'bob@example.com' });
  });

  it('counts the limit as the island does: trimmed, an emoji as one character', () => {
    const fields: Form['fields'] = [{ id: 'note', type: 'textarea', maxLength: 3 }];
    for (const fits of ['😀😀😀', '  abc \n', 'héé']) expect(validateFormValues(form(fields), { note: fits }).errors, fits).toEqual({});
    for (const over of ['😀😀😀😀', ' abcd ']) expect(validateFormValues(form(fields), { note: over }).errors).toEqual({ note: FIELD_MESSAGES.tooLong });
  });

  it('reads option values from strings and objects', () => {
    expect(optionValues({ id: 'o', type: 'radio', options: ['a', { label: 'b' }, { title: 'c' }, 7, null] })).toEqual(['a', 'b', 'c', '7']);
  });
});

describe('parseFieldsObject', () => {
  it('accepts only a string holding a JSON object', () => {
    expect(parseFieldsObject('{"a":1}')).toEqual({ a: 1 });
    for (const value of ['[1]', 'null', '"x"', '{bad', 5, null, undefined]) expect(parseFieldsObject(value)).toBeNull();
  });
});
