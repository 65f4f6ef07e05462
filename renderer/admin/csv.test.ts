import { describe, expect, it } from 'vitest';
import { cellText, csvCell, csvRow } from './csv.ts';

describe('submissions CSV', () => {
  it('quotes every cell and doubles quotes; commas and line breaks stay inside the quotes', () => {
    expect(csvRow(['a', 'b,c', 'say "hi"', 'two\nlines'])).toBe('"a","b,c","say ""hi""","two\nlines"\r\n');
  });

  it('defuses cells a spreadsheet would run as a formula (= + - @, tab, carriage return)', () => {
    for (const value of ['=1+1', '+1', '-1', '@SUM(A1)', '\t=1', '\r=1']) expect(csvCell(value)).toBe(`"'${value}"`);
    expect(csvCell('a=1')).toBe('"a=1"');
    expect(csvCell('')).toBe('""');
  });

  it('shows the characters that reorder text, as the admin does', () => {
    expect(csvCell('\u202egnp.exe')).toBe('"[U+202E]gnp.exe"');
    expect(csvCell('=\u2066x')).toBe(`"'=[U+2066]x"`);
  });

  it('turns submitted values into one cell: lists joined by spaces, objects by their values', () => {
    expect(cellText(['Ada', 'Lovelace'])).toBe('Ada Lovelace');
    expect(cellText({ line1: '1 Main St', city: 'Lisbon', zip: '' })).toBe('1 Main St, Lisbon');
    expect(cellText(null)).toBe('');
    expect(cellText(true)).toBe('true');
    expect(cellText(42)).toBe('42');
  });
});
