// The `slugify` rules (PLUGINS §2) for the class names `item-classes` builds: drop every
// character that is not an ASCII letter, digit, whitespace or `-`, turn each whitespace
// run into one `-`, lower-case. Whitespace is Java's `\s` (ASCII only).

function isJavaSpace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d);
}

/** Already a slug (lower-case letters, digits, `-`): slugifying returns it unchanged. */
export function isSlug(s: string): boolean {
  return slugPrefix(s) === s.length;
}

/** How many characters at the start of `s` are slug characters. */
function slugPrefix(s: string): number {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (!((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2d)) return i;
  }
  return s.length;
}

/** The lower-case letter of each ASCII capital, `A` at 0: one-character strings V8 keeps, so appending one allocates nothing. */
const LOWER: readonly string[] = Array.from({ length: 26 }, (_, i) => String.fromCharCode(0x61 + i));
/**
 * Up to this length a capital is appended as its lower-case letter where it stands; past it
 * the result is lower-cased once at the end. `toLowerCase` flattens the slices and calls into
 * the runtime: on class names (a title, a tag) it was ~19% of `item-classes`, where a text
 * with a capital every few words would become a slice per word.
 */
const LOWER_EACH_MAX = 64;

export function classSlug(s: string): string {
  // Most names are slugs already; returning them as they are allocates nothing.
  const kept = slugPrefix(s);
  if (kept === s.length) return s;
  // Otherwise runs of kept characters are copied as slices (a title is a few words, not a
  // character at a time). What is kept is ASCII only, so lower-casing can change nothing else.
  let out = '';
  let start = 0;
  let upper = false;
  let inSpace = false;
  const n = s.length;
  const lowerEach = n <= LOWER_EACH_MAX;
  // The slug characters before `kept` need no second look: the run goes on from there.
  for (let i = kept; i < n; i++) {
    const c = s.charCodeAt(i);
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2d) {
      inSpace = false;
      continue;
    }
    if (c >= 0x41 && c <= 0x5a) {
      if (lowerEach) {
        out += (i > start ? s.slice(start, i) : '') + LOWER[c - 0x41];
        start = i + 1;
      } else upper = true;
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
  return upper ? out.toLowerCase() : out;
}
