import { describe, expect, test } from 'vitest';
import { fieldValueLines } from './field-values.ts';

const fields = [
  { id: 'engrave-text', title: 'Engraving text' },
  { id: 'engrave-font', title: 'Font' },
  { id: 'name', title: 'Name' },
  { id: 'days', title: 'Days' },
];

describe('fieldValueLines (issue 16: the cart line shows what was submitted)', () => {
  test('answered fields in the form order, with their titles', () => {
    expect(fieldValueLines(fields, JSON.stringify({ 'engrave-font': 'Serif', 'engrave-text': 'Hi Mum' }))).toEqual([
      { label: 'Engraving text', value: 'Hi Mum' },
      { label: 'Font', value: 'Serif' },
    ]);
  });
  test('names, checkbox lists and empty answers', () => {
    expect(fieldValueLines(fields, JSON.stringify({ name: { first: 'Ada', last: 'L' }, days: ['Mon', 'Tue'], 'engrave-text': ' ' }))).toEqual([
      { label: 'Name', value: 'Ada L' },
      { label: 'Days', value: 'Mon, Tue' },
    ]);
  });
  test('nothing for null, broken JSON or a non-object', () => {
    expect(fieldValueLines(fields, null)).toEqual([]);
    expect(fieldValueLines(fields, '{')).toEqual([]);
    expect(fieldValueLines(fields, '[1]')).toEqual([]);
  });
});
