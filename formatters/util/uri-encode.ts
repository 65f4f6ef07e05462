// Percent-encoding used by `encode-uri`, `encode-uri-component` and `url-encode` (and
// `google-calendar-url`). The first two are ECMAScript's own encoders with the apostrophe also
// encoded; the form encoding's keep-set is a lookup table built once, and encoding walks code
// points and writes UTF-8 bytes as upper-case `%XX`.

const HEX = '0123456789ABCDEF';

function keepTable(chars: string): Uint8Array {
  const t = new Uint8Array(128);
  for (let c = 0x30; c <= 0x39; c++) t[c] = 1;
  for (let c = 0x41; c <= 0x5a; c++) t[c] = 1;
  for (let c = 0x61; c <= 0x7a; c++) t[c] = 1;
  for (let i = 0; i < chars.length; i++) t[chars.charCodeAt(i)] = 1;
  return t;
}

// java.net.URLEncoder (HTML form encoding).
const FORM_KEEP = keepTable('.-*_');

// `%XX` of every byte, made once: an escape is then a table read, not two string joins.
const PCT: string[] = [];
for (let b = 0; b < 256; b++) PCT.push('%' + HEX[b >> 4] + HEX[b & 15]);

function pct(b: number): string {
  return PCT[b];
}

function utf8Escapes(cp: number): string {
  if (cp < 0x80) return pct(cp);
  if (cp < 0x800) return pct(0xc0 | (cp >> 6)) + pct(0x80 | (cp & 63));
  if (cp < 0x10000) return pct(0xe0 | (cp >> 12)) + pct(0x80 | ((cp >> 6) & 63)) + pct(0x80 | (cp & 63));
  return (
    pct(0xf0 | (cp >> 18)) + pct(0x80 | ((cp >> 12) & 63)) + pct(0x80 | ((cp >> 6) & 63)) + pct(0x80 | (cp & 63))
  );
}

/**
 * The form encoding (`FORM_KEEP` kept, everything else as the `%XX` of its UTF-8 bytes), with
 * `space` for U+0020 and an unpaired surrogate as Java's `?`, `%3F`.
 */
function formEncode(s: string, space: string): string {
  const keep = FORM_KEEP;
  let out = '';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80 && keep[c] === 1) continue;
    out += s.slice(start, i);
    if (c === 0x20) out += space;
    else if (c < 0xd800 || c > 0xdfff) out += utf8Escapes(c);
    else {
      const d = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
      if (c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) {
        out += utf8Escapes(0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00));
        i++;
      } else out += '%3F';
    }
    start = i + 1;
  }
  return start === 0 ? s : out + s.slice(start);
}

// The reference's `encode-uri` and `encode-uri-component` are ECMAScript's `encodeURI` and
// `encodeURIComponent` but for the apostrophe, which it encodes and ECMAScript keeps; an
// unpaired surrogate makes both give up (ECMAScript throws a URIError). An apostrophe in
// ECMAScript's result can only be one of the text's, so it is replaced there. Through the
// code-point loop the form encoding uses, a 2 KB text was 0.43x the port's; natively
// 1.15-1.60x (bench/README.md, "Long texts through the text formatters").
const APOSTROPHE = "'";

/** `native(s)` with each `'` as `%27`; null where ECMAScript throws (an unpaired surrogate). */
function apostropheEncoded(native: (s: string) => string, s: string): string | null {
  let t: string;
  try {
    t = native(s);
  } catch {
    return null;
  }
  return t.indexOf(APOSTROPHE) < 0 ? t : t.replaceAll(APOSTROPHE, '%27');
}

/** ECMAScript `encodeURI` with `'` also encoded; null on an unpaired surrogate. */
export function encodeUriReference(s: string): string | null {
  return apostropheEncoded(encodeURI, s);
}

/** ECMAScript `encodeURIComponent` with `'` also encoded; null on an unpaired surrogate. */
export function encodeUriComponentReference(s: string): string | null {
  return apostropheEncoded(encodeURIComponent, s);
}

/**
 * `URLEncoder.encode(s, UTF-8)`: space → `+`. Java's UTF-8 encoder replaces an unpaired
 * surrogate with `?`, which is then encoded as `%3F`.
 */
export function formUrlEncode(s: string): string {
  return formEncode(s, '+');
}

/**
 * `formUrlEncode(s).replaceAll('+', '%20')` in one pass: the form encoding writes `+` only
 * for a space (a `+` of the text is `%2B`), so a space written as `%20` is the same text.
 */
export function formUrlEncodeSpaces(s: string): string {
  return formEncode(s, '%20');
}
