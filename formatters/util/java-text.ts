// Small pieces of Java library behaviour that the reference formatters rely on.

/**
 * `Integer.parseInt(s)`: optional sign, ASCII digits, 32-bit range. Null where Java throws
 * NumberFormatException (empty, spaces, decimals, overflow).
 */
export function parseJavaInt(s: string): number | null {
  const n = s.length;
  if (n === 0) return null;
  let i = 0;
  const c0 = s.charCodeAt(0);
  if (c0 === 0x2b || c0 === 0x2d) {
    if (n === 1) return null;
    i = 1;
  }
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return null;
  }
  const v = Number(s);
  return v >= -2147483648 && v <= 2147483647 ? (v === 0 ? 0 : v) : null;
}

/**
 * `Character.isWhitespace` on a UTF-16 unit: the ASCII controls TAB..CR and FS..US, and the
 * Unicode space/line/paragraph separators except the no-break ones (U+00A0, U+2007, U+202F).
 */
export function isJavaWhitespace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x1f);
  if (c < 0x1680) return false;
  return (
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x2006) ||
    (c >= 0x2008 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x205f ||
    c === 0x3000
  );
}

