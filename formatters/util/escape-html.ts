// HTML escaping as the reference's core formatters do it: `html` leaves quotes alone
// (it is meant for element content), `htmlattr`/`htmltag` also escape `"` so the text
// can sit inside a double-quoted attribute. Apostrophes are never escaped.
//
// Both first look for a character to escape and return the input itself when there is
// none (most text); otherwise clean runs are appended as slices, never char by char.

/** `&` `<` `>` → entities. */
export function escapeHtmlText(s: string): string {
  const n = s.length;
  let i = 0;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x26 || c === 0x3c || c === 0x3e) break;
  }
  if (i === n) return s;
  let out = s.slice(0, i);
  let start = i;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    const rep = c === 0x26 ? '&amp;' : c === 0x3c ? '&lt;' : c === 0x3e ? '&gt;' : null;
    if (rep === null) continue;
    if (i > start) out += s.slice(start, i);
    out += rep;
    start = i + 1;
  }
  return start < n ? out + s.slice(start) : out;
}

/** `&` `<` `>` `"` → entities. */
export function escapeHtmlAttr(s: string): string {
  const n = s.length;
  let i = 0;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x26 || c === 0x3c || c === 0x3e || c === 0x22) break;
  }
  if (i === n) return s;
  let out = s.slice(0, i);
  let start = i;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    const rep = c === 0x26 ? '&amp;' : c === 0x3c ? '&lt;' : c === 0x3e ? '&gt;' : c === 0x22 ? '&quot;' : null;
    if (rep === null) continue;
    if (i > start) out += s.slice(start, i);
    out += rep;
    start = i + 1;
  }
  return start < n ? out + s.slice(start) : out;
}
