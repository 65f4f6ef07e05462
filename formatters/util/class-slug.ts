// The `slugify` rules (PLUGINS §2) for the class names `item-classes` builds: drop every
// character that is not an ASCII letter, digit, whitespace or `-`, turn each whitespace
// run into one `-`, lower-case. Whitespace is Java's `\s` (ASCII only).

function isJavaSpace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d);
}

/** Already a slug (lower-case letters, digits, `-`): slugifying returns it unchanged. */
export function isSlug(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (!((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2d)) return false;
  }
  return true;
}

export function classSlug(s: string): string {
  // Most names are slugs already; returning them as they are allocates nothing.
  if (isSlug(s)) return s;
  let out = '';
  let inSpace = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (isJavaSpace(c)) {
      if (!inSpace) out += '-';
      inSpace = true;
      continue;
    }
    if (c >= 0x41 && c <= 0x5a) out += String.fromCharCode(c + 32);
    else if ((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2d) out += s[i];
    else continue;
    inSpace = false;
  }
  return out;
}
