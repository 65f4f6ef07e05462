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

export function classSlug(s: string): string {
  // Most names are slugs already; returning them as they are allocates nothing.
  const kept = slugPrefix(s);
  if (kept === s.length) return s;
  // Otherwise runs of kept characters are copied as slices (a title is a few words, not a
  // character at a time), and the ASCII capitals are lowered once at the end: what is kept
  // is ASCII only, so `toLowerCase` can change nothing else (bench/README.md, item-classes).
  let out = '';
  let start = 0;
  let upper = false;
  let inSpace = false;
  const n = s.length;
  // The slug characters before `kept` need no second look: the run goes on from there.
  for (let i = kept; i < n; i++) {
    const c = s.charCodeAt(i);
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2d) {
      inSpace = false;
      continue;
    }
    if (c >= 0x41 && c <= 0x5a) {
      upper = true;
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
