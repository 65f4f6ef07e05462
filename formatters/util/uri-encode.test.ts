import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeUriComponentReference, encodeUriReference, formUrlEncode, formUrlEncodeSpaces } from './uri-encode.ts';

describe('formUrlEncodeSpaces', () => {
  it('is the form encoding with every + replaced by %20', () => {
    const unit = fc.oneof(fc.constantFrom(' ', '+', '%', '\ud800', '\udc00', '\ud83d\ude00', 'é', '\t', '*', '~'), fc.string({ maxLength: 1 }));
    fc.assert(fc.property(fc.string({ unit }), (s) => {
      expect(formUrlEncodeSpaces(s)).toBe(formUrlEncode(s).replaceAll('+', '%20'));
    }), { numRuns: 2000 });
  });
});

// The reference's encoders written out plainly: every UTF-8 byte of a code point outside the
// kept set as upper-case %XX, and nothing at all for a text with an unpaired surrogate.
function percentEncoded(s: string, kept: string): string | null {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80 && (/[A-Za-z0-9]/.test(s[i]) || kept.includes(s[i]))) {
      out += s[i];
      continue;
    }
    let cp = c;
    if (c >= 0xd800 && c <= 0xdfff) {
      const d = s.charCodeAt(i + 1);
      if (c > 0xdbff || !(d >= 0xdc00 && d <= 0xdfff)) return null;
      cp = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
      i++;
    }
    for (const b of Buffer.from(String.fromCodePoint(cp))) out += '%' + b.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

describe('encodeUriReference / encodeUriComponentReference', () => {
  it('encode every code point outside the kept sets, the apostrophe too, and give up on an unpaired surrogate', () => {
    const unit = fc.oneof(fc.constantFrom("'", ' ', '%', '#', '?', '/', '\ud800', '\udc00', '\ud83d\ude00', 'é', '—', '\u0000', '~', '(', ';'), fc.string({ maxLength: 1 }));
    fc.assert(fc.property(fc.string({ unit }), (s) => {
      expect(encodeUriReference(s)).toBe(percentEncoded(s, "-_.!~*();/?:@&=+$,#"));
      expect(encodeUriComponentReference(s)).toBe(percentEncoded(s, '-_.!~*()'));
    }), { numRuns: 3000 });
    expect(encodeUriComponentReference("it's ")).toBe('it%27s%20');
    expect(encodeUriReference("'a'b'")).toBe('%27a%27b%27');
    expect(encodeUriReference('x\ud800')).toBeNull();
  });
});
