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

// `URLEncoder.encode(s, UTF-8)` written out plainly: letters, digits and `.-*_` kept, a space as
// `+`, an unpaired surrogate as Java's `?` (`%3F`), every other code point as its UTF-8 bytes.
function javaFormEncoded(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80 && (/[A-Za-z0-9]/.test(s[i]) || '.-*_'.includes(s[i]))) {
      out += s[i];
      continue;
    }
    if (c === 0x20) {
      out += '+';
      continue;
    }
    let cp = c;
    if (c >= 0xd800 && c <= 0xdfff) {
      const d = s.charCodeAt(i + 1);
      if (c > 0xdbff || !(d >= 0xdc00 && d <= 0xdfff)) {
        out += '%3F';
        continue;
      }
      cp = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
      i++;
    }
    for (const b of Buffer.from(String.fromCodePoint(cp))) out += '%' + b.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

describe('formUrlEncode', () => {
  // Through ECMAScript's encoder and five characters more, or the loop where ECMAScript throws.
  it('is URLEncoder: every character ECMAScript keeps and the form encoding does not, spaces, unpaired surrogates', () => {
    const unit = fc.oneof(
      fc.constantFrom('!', "'", '(', ')', '~', '*', '-', '_', '.', ' ', '+', '%', '%20', '\ud800', '\udc00', '\ud83d\ude00', 'é', '—', '\u0000', '\t', '#', '/'),
      fc.string({ maxLength: 1 }),
    );
    fc.assert(fc.property(fc.string({ unit }), (s) => {
      expect(formUrlEncode(s)).toBe(javaFormEncoded(s));
    }), { numRuns: 3000 });
    expect(formUrlEncode("it's (a) ~b!")).toBe('it%27s+%28a%29+%7Eb%21');
    expect(formUrlEncodeSpaces("it's (a) ~b!")).toBe('it%27s%20%28a%29%20%7Eb%21');
    expect(formUrlEncode('x\ud800 y!')).toBe('x%3F+y%21');
  });
});

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
