// The `slugify` rules (PLUGINS §2) for the class names `item-classes` builds: drop every
// character that is not an ASCII letter, digit, whitespace or `-`, turn each whitespace
// run into one `-`, lower-case. Whitespace is Java's `\s` (ASCII only).
//
// A class list is written as code units into a reused array and decoded once. `item-classes`
// makes a dozen class names a call, most of them slugified: built as strings, its slices,
// hyphens, capitals and prefixes were a rope of ~15 pieces, made piece by piece and flattened
// again when the page was encoded, ~1.3 µs a call on fresh grid items and a quarter of
// rendering product-simple (bench/README.md, "A class list written once"). Written here, the
// list is one flat string, one byte a character when it fits.
import { decodeUnits } from './unit-text.ts';

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

/**
 * Whether Node's Buffer is there to decode the units (the engine imports nothing of Node's)
 * and a Uint16Array stores them little-endian, as `utf16le` reads them. Otherwise the list is
 * decoded with `String.fromCharCode`, slower and the same.
 */
const UNITS_DECODE = typeof Buffer === 'function' && new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;
/** Units longer lists than this leave behind are let go. */
const KEEP = 1 << 16;
let units = new Uint16Array(256);
let bytes = new Uint8Array(256);
let length = 0;
/** Every unit written, OR-ed: below 0x100 when the list fits one byte a character. */
let seen = 0;

function room(more: number): void {
  const need = length + more;
  if (need <= units.length) return;
  const bigger = new Uint16Array(Math.max(need, 2 * units.length));
  bigger.set(units.subarray(0, length));
  units = bigger;
}

/** Starts a list (the one before it must have been ended). */
export function listStart(): void {
  length = 0;
  seen = 0;
}

/** Appends `s` as it is. */
export function listText(s: string): void {
  const n = s.length;
  room(n);
  const u = units;
  let a = length;
  let all = seen;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    all |= c;
    u[a++] = c;
  }
  length = a;
  seen = all;
}

/** Appends `s` slugified. */
export function listSlug(s: string): void {
  const n = s.length;
  // A slug is never longer than its text, and all ASCII.
  room(n);
  const u = units;
  let a = length;
  let inSpace = false;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2d) {
      u[a++] = c;
      inSpace = false;
    } else if (c >= 0x41 && c <= 0x5a) {
      u[a++] = c | 0x20;
      inSpace = false;
    } else if (isJavaSpace(c)) {
      if (!inSpace) u[a++] = 0x2d;
      inSpace = true;
    }
    // Any other character is dropped, and does not end a whitespace run (`a ! b` is `a-b`).
  }
  length = a;
}

/** The list written since `listStart`. */
export function listEnd(): string {
  const n = length;
  let out: string;
  if (!UNITS_DECODE) {
    out = '';
    for (let i = 0; i < n; i += 4096) out += String.fromCharCode.apply(null, Array.from(units.subarray(i, Math.min(n, i + 4096))));
  } else if (seen < 0x100) {
    if (bytes.length < n) bytes = new Uint8Array(Math.max(n, 2 * bytes.length));
    // Every unit fits a byte: `set` narrows them natively.
    bytes.set(units.subarray(0, n));
    out = decodeUnits(bytes, 0, n, false);
  } else out = decodeUnits(units, 0, n, true);
  if (units.length > KEEP) units = new Uint16Array(256);
  if (bytes.length > KEEP) bytes = new Uint8Array(256);
  return out;
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
