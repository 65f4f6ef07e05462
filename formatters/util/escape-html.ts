// HTML escaping as the reference's core formatters do it: `html` leaves quotes alone
// (it is meant for element content), `htmlattr`/`htmltag` also escape `"` so the text
// can sit inside a double-quoted attribute. Apostrophes are never escaped.
//
// Both first look for a character to escape and return the input itself when there is
// none (most text); otherwise clean runs are appended as slices, never char by char.
//
// Text that needs escaping (comment bodies, titles with `&`) is usually the same strings on
// every render of a page, so short ones are remembered: a Map hit costs one hash of the
// input, which V8 keeps on the string after the first time, instead of a scan and a
// rope of slices. Both the text length and the entry count are bounded, and a full table
// starts over, so its memory stays fixed whatever a server renders.
const MEMO_MAX_LENGTH = 256;
const MEMO_MAX_ENTRIES = 1024;
const textMemo = new Map<string, string>();
const attrMemo = new Map<string, string>();

function remember(memo: Map<string, string>, s: string, escaped: string): string {
  if (memo.size >= MEMO_MAX_ENTRIES) memo.clear();
  memo.set(s, escaped);
  return escaped;
}

/** `&` `<` `>` → entities. */
export function escapeHtmlText(s: string): string {
  const n = s.length;
  let i = 0;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x26 || c === 0x3c || c === 0x3e) break;
  }
  if (i === n) return s;
  // A text too long to be remembered is not looked up either (that would hash all of it).
  if (n > MEMO_MAX_LENGTH) return escapeFrom(s, i, false);
  const known = textMemo.get(s);
  if (known !== undefined) return known;
  return remember(textMemo, s, escapeFrom(s, i, false));
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
  // A text too long to be remembered is not looked up either (that would hash all of it).
  if (n > MEMO_MAX_LENGTH) return escapeFrom(s, i, true);
  const known = attrMemo.get(s);
  if (known !== undefined) return known;
  return remember(attrMemo, s, escapeFrom(s, i, true));
}

// The copy once a character to escape is found at `i` (only on a memo miss): `quot` also
// turns `"` into `&quot;` (the attribute form).
function escapeFrom(s: string, i: number, quot: boolean): string {
  const n = s.length;
  let out = s.slice(0, i);
  let start = i;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    const rep = c === 0x26 ? '&amp;' : c === 0x3c ? '&lt;' : c === 0x3e ? '&gt;' : quot && c === 0x22 ? '&quot;' : null;
    if (rep === null) continue;
    if (i > start) out += s.slice(start, i);
    out += rep;
    start = i + 1;
  }
  return start < n ? out + s.slice(start) : out;
}
