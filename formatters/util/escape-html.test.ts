import { describe, expect, it } from 'vitest';
import { escapeHtmlAttr, escapeHtmlText } from './escape-html.ts';

// A plain model of the two escapes, character by character.
const model = (s: string, quot: boolean) =>
  s.replace(quot ? /[&<>"]/g : /[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

describe('escapeHtmlText / escapeHtmlAttr', () => {
  // Short texts are scanned by a loop, long ones (24 characters and more) with indexOf.
  const long = 'a comment body that is long enough to be searched natively, with words';
  const cases = [
    '',
    'plain',
    '<b>',
    'a & b',
    'say "hi"',
    long,
    `${long}&`,
    `>${long}`,
    `${long} "quoted" ${long}`,
    `${long} < ${long} > ${long} & ${long}`,
    `"${long}<`,
    `${'x'.repeat(300)}&${'y'.repeat(300)}`,
    'é — ★ & <tag attr="v">',
  ];

  it('escapes exactly the characters of each form, wherever they are', () => {
    for (const s of cases) {
      expect(escapeHtmlText(s), s).toBe(model(s, false));
      expect(escapeHtmlAttr(s), s).toBe(model(s, true));
    }
  });

  it('returns a text with nothing to escape unchanged, and the same answer from the memo', () => {
    expect(escapeHtmlText(long)).toBe(long);
    expect(escapeHtmlAttr(`${long} "q"`)).toBe(escapeHtmlAttr(`${long} "q"`));
    expect(escapeHtmlText(`${long} "q"`)).toBe(`${long} "q"`);
  });
});
