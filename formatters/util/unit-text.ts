// Text decoded from code units written into a typed array (the `json|htmlattr` writer, the
// `json-pretty` layout, text-list.ts): one byte a unit when every unit fits Latin-1 (the string
// stays one-byte), else UTF-16. Node's Buffer decodes them; the callers check it is there.
import { JSON_PIECE, JSON_WHOLE } from '../../engine/plugin-api.ts';

/**
 * Whether texts written as UTF-16 units into a typed array can be read back with Node's
 * `utf16le` decoder: there is a Buffer (the engine imports nothing of Node's), and a
 * Uint16Array stores its units little-endian, as it does on every platform but a big-endian
 * one. Otherwise the writers fall back to strings.
 */
export const UNITS_DECODE = typeof Buffer === 'function' && new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

/** Latin-1 bytes, or UTF-16 units (`wide`). */
export type Units = Uint8Array | Uint16Array;

// A Buffer over the memory last decoded from, made when first needed (the module is loaded
// where there may be no Buffer; the callers check before they decode). The writers reuse their
// arrays, so most calls decode from the same memory: a Buffer made per call was ~50 of the
// ~180 ns of decoding a short text (2026-11-30). Memory larger than the writers keep between
// calls is let go by them, so it is not held here either.
const KEPT_MEMORY = 1 << 20;
let lastMemory: ArrayBufferLike | null = null;
let lastView: Buffer | null = null;

// UTF-16 units that all fit a byte are narrowed into this array before they are read as
// Latin-1, so that the string is one-byte; one array for every writer (none decodes while
// another does), let go past NARROW_KEEP bytes.
const NARROW_KEEP = 1 << 19;
let narrow = new Uint8Array(0);

/**
 * UTF-16 units `units[start, end)` that all fit a byte, as a one-byte string: narrowed into
 * one kept array and read as Latin-1.
 */
function decodeNarrowed(units: Uint16Array, start: number, end: number): string {
  const n = end - start;
  if (narrow.length < n) narrow = new Uint8Array(Math.max(n, 1024));
  // Every unit fits a byte: `set` converts them natively.
  narrow.set(units.subarray(start, end));
  const out = decodeUnits(narrow, 0, n, false);
  if (narrow.length > NARROW_KEEP) narrow = new Uint8Array(0);
  return out;
}

/** `units[start, end)` as text. */
export function decodeUnits(units: Units, start: number, end: number, wide: boolean): string {
  const size = units.BYTES_PER_ELEMENT;
  const from = units.byteOffset + start * size;
  const to = from + (end - start) * size;
  const encoding = wide ? 'utf16le' : 'latin1';
  if (units.buffer !== lastMemory || lastView === null) {
    if (units.buffer.byteLength > KEPT_MEMORY) return Buffer.from(units.buffer, from, to - from).toString(encoding);
    lastMemory = units.buffer;
    lastView = Buffer.from(units.buffer);
  }
  return lastView.toString(encoding, from, to);
}

/**
 * `units[0, length)` as text, in pieces of `JSON_PIECE` units when it is longer than
 * `JSON_WHOLE`, none ending between the two halves of a surrogate pair (decoded apart, they
 * would be two U+FFFDs): a string of over 128 KB costs V8 far more to make and to flatten again
 * in a page part (engine/value.ts, `toJsonPieces`). UTF-16 units read as Latin-1 (not `wide`)
 * are narrowed first (`decodeNarrowed`).
 */
export function decodeUnitPieces(units: Units, length: number, wide: boolean): string | string[] {
  if (length <= JSON_WHOLE) return decodeText(units, 0, length, wide);
  const out: string[] = [];
  for (let start = 0; start < length; ) {
    let end = Math.min(start + JSON_PIECE, length);
    if (wide && end < length && units[end - 1] >= 0xd800 && units[end - 1] <= 0xdbff) end++;
    out.push(decodeText(units, start, end, wide));
    start = end;
  }
  return out;
}

/**
 * `units[start, end)` as text, as a writer wrote them: UTF-16 units read as Latin-1 (not
 * `wide`) are narrowed first (`decodeNarrowed`), so that the string is one-byte.
 */
export function decodeText(units: Units, start: number, end: number, wide: boolean): string {
  return wide || units instanceof Uint8Array ? decodeUnits(units, start, end, wide) : decodeNarrowed(units, start, end);
}
