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

// ECMAScript's `encodeURIComponent` keeps these five, which the form encoding encodes; it keeps
// nothing else the form encoding encodes, and encodes nothing it keeps (`.-*_`, letters, digits).
const FORM_ONLY = /[!'()~]/;
const FORM_ONLY_ALL = /[!'()~]/g;
const FORM_ONLY_PCT: Readonly<Record<string, string>> = { '!': '%21', "'": '%27', '(': '%28', ')': '%29', '~': '%7E' };

function formOnlyEscape(c: string): string {
  return FORM_ONLY_PCT[c];
}

/**
 * The form encoding (`FORM_KEEP` kept, everything else as the `%XX` of its UTF-8 bytes), with
 * `space` for U+0020 and an unpaired surrogate as Java's `?`, `%3F`. The native encoder writes
 * the same bytes, upper-case, as one flat string, with `%20` for a space (a `%` of the text is
 * `%25`, so every `%20` is a space); the five characters it keeps and the form encoding does not
 * are then encoded. Through the code-point loop (`formEncodeLoop`), a text with spaces was a
 * rope of a slice and an escape per space: `google-calendar-url`'s title and address 1.5x as
 * long, and more nodes for the page's encoding to flatten (bench/README.md, "Fresh pages,
 * 2026-12-02, twenty-eighth session"). ECMAScript throws on an unpaired surrogate, which the
 * loop writes as `%3F`.
 */
function formEncode(s: string, space: string): string {
  let t: string;
  try {
    t = encodeURIComponent(s);
  } catch {
    return formEncodeLoop(s, space);
  }
  if (FORM_ONLY.test(t)) t = t.replace(FORM_ONLY_ALL, formOnlyEscape);
  return space === '%20' || t.indexOf('%20') < 0 ? t : t.replaceAll('%20', space);
}

/** `formEncode` a code point at a time: the texts ECMAScript refuses (an unpaired surrogate). */
function formEncodeLoop(s: string, space: string): string {
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
