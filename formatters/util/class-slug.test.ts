import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { classSlug, listSlug } from './class-slug.ts';
import { listEnd, listStart, listText } from './text-list.ts';

/** The slugify rules written as the reference's regular expressions (ASCII `\s`). */
function byRegex(s: string): string {
  return s.replace(/[^A-Za-z0-9 \t\n\x0B\f\r-]/g, '').replace(/[ \t\n\x0B\f\r]+/g, '-').toLowerCase();
}

describe('classSlug', () => {
  it('follows the slugify rules', () => {
    expect(classSlug('1.2.3.4.5-()*&-foo.bar-baz')).toBe('12345--foobar-baz');
    expect(classSlug('Hello  World')).toBe('hello-world');
    expect(classSlug(' a\tb ')).toBe('-a-b-');
    expect(classSlug('Café au lait')).toBe('caf-au-lait');
  });
  it('merges whitespace across deleted characters into one hyphen', () => {
    expect(classSlug('a . b')).toBe('a-b');
  });
  it('equals the rules as regular expressions on any text, non-ASCII letters and all', () => {
    const char = fc.constantFrom('a', 'Z', '0', '-', ' ', '\t', '\n', '\x0B', '.', '&', 'é', 'İ', 'K', '\u00a0', '😀', 'Q', 'k');
    fc.assert(
      // Short texts are slugified as strings, long ones (over 64) written as a list.
      fc.property(fc.oneof(fc.array(char, { maxLength: 24 }), fc.array(char, { minLength: 60, maxLength: 90 })).map((cs) => cs.join('')), (s) => {
        expect(classSlug(s)).toBe(byRegex(s));
      }),
      { numRuns: 3000 },
    );
  });

  it('writes slugs into a text (text-list.ts) among other texts', () => {
    const char = fc.constantFrom('a', 'Z', '0', '-', ' ', '\t', '.', '&', 'é', 'ÿ', '—', '😀', 'K', '\ud800');
    const text = fc.array(char, { maxLength: 30 }).map((cs) => cs.join(''));
    // Texts written as they are are the callers' prefixes: Latin-1 (text-list.ts).
    const prefix = fc.array(fc.constantFrom('a', ' ', '-', 'é', 'ÿ'), { maxLength: 30 }).map((cs) => cs.join(''));
    const item = fc.oneof(prefix.map((t) => ({ slug: false, t })), text.map((t) => ({ slug: true, t })));
    fc.assert(
      fc.property(fc.array(item, { maxLength: 12 }), (items) => {
        listStart();
        for (const { slug, t } of items) (slug ? listSlug : listText)(t);
        expect(listEnd()).toBe(items.map(({ slug, t }) => (slug ? byRegex(t) : t)).join(''));
      }),
      { numRuns: 2000 },
    );
  });
});
