// Java string escaping as the reference applies it to error messages (LANGUAGE §7.3):
// backslash and double quote escaped, the usual short escapes, every other code unit below
// U+0020 or above U+007E written as \uXXXX with uppercase hex (a surrogate pair stays two units).
const HEX = '0123456789ABCDEF';

export function javaEscape(s: string): string {
  let out = '';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c < 0x7f && c !== 0x22 && c !== 0x5c) continue;
    out += s.slice(start, i);
    start = i + 1;
    switch (c) {
      case 0x22: out += '\\"'; break;
      case 0x5c: out += '\\\\'; break;
      case 0x08: out += '\\b'; break;
      case 0x09: out += '\\t'; break;
      case 0x0a: out += '\\n'; break;
      case 0x0c: out += '\\f'; break;
      case 0x0d: out += '\\r'; break;
      default:
        out += '\\u' + HEX[(c >> 12) & 15] + HEX[(c >> 8) & 15] + HEX[(c >> 4) & 15] + HEX[c & 15];
    }
  }
  return start === 0 ? s : out + s.slice(start);
}
