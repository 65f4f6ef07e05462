import { describe, expect, it } from 'vitest';
import { classSlug } from './class-slug.ts';

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
});
