// A text written as Latin-1 bytes into one reused array and decoded once, for formatters that
// build a text out of many short pieces (`item-classes`: class-name prefixes and slugs, all
// ASCII). Built as strings, the pieces are a rope, made one piece at a time and flattened
// again, at ~14 ns a piece, when the page is encoded: a class list of ~15 pieces cost more than
// writing its characters here and decoding them. Long pieces are the other way round:
// `image-meta` (two URLs and an alt text among ~15 pieces) written here made the pages 5-12%
// slower (bench/README.md, "A text written once").
// The text is one flat one-byte string. Written as UTF-16 units, it was narrowed to bytes before
// it was decoded: as bytes, `item-classes` made the grid and list pages 1.5-3% faster
// (bench/README.md, "Class lists as bytes").
//
// One text at a time: a caller starts it, writes it and ends it before it calls anything that
// might write one.
import { decodeText, UNITS_DECODE } from './unit-text.ts';

/** Arrays longer texts than this leave behind are let go. */
const KEEP = 1 << 16;
let units = new Uint8Array(256);
let length = 0;

function room(more: number): void {
  const need = length + more;
  if (need <= units.length) return;
  const bigger = new Uint8Array(Math.max(need, 2 * units.length));
  bigger.set(units.subarray(0, length));
  units = bigger;
}

/** Starts a text (the one before it must have been ended). */
export function listStart(): void {
  length = 0;
}

/** Appends `s` as it is: Latin-1 text only (the callers' ASCII prefixes); anything else throws. */
export function listText(s: string): void {
  const n = s.length;
  room(n);
  const u = units;
  let a = length;
  let all = 0;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    all |= c;
    u[a++] = c;
  }
  if (all > 0xff) throw new RangeError('text-list holds Latin-1 text only');
  length = a;
}

/**
 * Room for `more` units after the text so far; returns the array to write them into, from
 * `listLength()` on (`listSetLength` when done). Bytes written this way must be ASCII.
 */
export function listRoom(more: number): Uint8Array {
  room(more);
  return units;
}

export function listLength(): number {
  return length;
}

export function listSetLength(n: number): void {
  length = n;
}

/** The text written since `listStart`. */
export function listEnd(): string {
  const n = length;
  let out: string;
  if (UNITS_DECODE) out = decodeText(units, 0, n, false);
  else {
    // No Buffer to decode with (unit-text.ts): `String.fromCharCode`, slower and the same.
    out = '';
    for (let i = 0; i < n; i += 4096) out += String.fromCharCode.apply(null, Array.from(units.subarray(i, Math.min(n, i + 4096))));
  }
  if (units.length > KEEP) units = new Uint8Array(256);
  return out;
}
