// The `slugify` rules (PLUGINS §2) for the class names `item-classes` builds: drop every
// character that is not an ASCII letter, digit, whitespace or `-`, turn each whitespace
// run into one `-`, lower-case. Whitespace is Java's `\s` (ASCII only).
//
// `item-classes` writes its class names with `listSlug` into one text (text-list.ts); a long
// text through `slugify` is written the same way.
import { listEnd, listLength, listRoom, listSetLength, listStart } from './text-list.ts';

function isJavaSpace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d);
}

/** How many characters at the start of `s` are slug characters (lower-case letters, digits, `-`). */
function slugPrefix(s: string): number {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (!((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2d)) return i;
  }
  return s.length;
}

/** What each ASCII character becomes in a slug: the character to write, SPACE, or DROP. */
const DROP = 0;
const SPACE = 1;
const SLUG_OF = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  if ((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2d) SLUG_OF[c] = c;
  else if (c >= 0x41 && c <= 0x5a) SLUG_OF[c] = c | 0x20;
  else if (isJavaSpace(c)) SLUG_OF[c] = SPACE;
}

/** Appends `s` slugified to the text being written (text-list.ts). */
export function listSlug(s: string): void {
  const n = s.length;
  // A slug is never longer than its text, and all ASCII.
  const u = listRoom(n);
  let a = listLength();
  let inSpace = false;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    const t = c < 128 ? SLUG_OF[c] : DROP;
    if (t > SPACE) {
      u[a++] = t;
      inSpace = false;
    } else if (t === SPACE && !inSpace) {
      u[a++] = 0x2d;
      inSpace = true;
    }
    // Any other character is dropped, and does not end a whitespace run (`a ! b` is `a-b`).
  }
  listSetLength(a);
}

/**
 * Up to this length a text is slugified as strings: slices of its runs of kept characters, each
 * capital appended as its lower-case letter (one-character strings V8 keeps), cost less than
 * writing and decoding a list; past it, writing a character at a time costs less than a slice
 * per word (the formatter sweep: `slugify` of a short title 2.8x the port as strings, 2.0x as a
 * list; of a paragraph 1.4x as strings, 2.4x as a list).
 */
const SLICES_MAX = 64;
/** The lower-case letter of each ASCII capital, `A` at 0. */
const LOWER: readonly string[] = Array.from({ length: 26 }, (_, i) => String.fromCharCode(0x61 + i));

export function classSlug(s: string): string {
  // Most names are slugs already; returning them as they are allocates nothing.
  const kept = slugPrefix(s);
  const n = s.length;
  if (kept === n) return s;
  if (n > SLICES_MAX) {
    listStart();
    listSlug(s);
    return listEnd();
  }
  let out = '';
  let start = 0;
  let inSpace = false;
  // The slug characters before `kept` need no second look: the run goes on from there.
  for (let i = kept; i < n; i++) {
    const c = s.charCodeAt(i);
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2d) {
      inSpace = false;
      continue;
    }
    if (c >= 0x41 && c <= 0x5a) {
      out += (i > start ? s.slice(start, i) : '') + LOWER[c - 0x41];
      start = i + 1;
      inSpace = false;
      continue;
    }
    // Whitespace or a dropped character ends the run; a dropped one inside a whitespace run
    // does not end the run (`a ! b` is `a-b`).
    if (i > start) out += s.slice(start, i);
    start = i + 1;
    if (isJavaSpace(c) && !inSpace) {
      out += '-';
      inSpace = true;
    }
  }
  if (n > start) out += start === 0 ? s : s.slice(start);
  return out;
}
