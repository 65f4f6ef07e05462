// JSON text as the `json`, `json-pretty` and `raw` formatters write it (the reference's
// Jackson output: Java double forms, member order kept, non-ASCII left as is).
import { hasInheritedNames, hasParsedText, hasWideChar, isObject, type JsonObject, PIECE_PART, plainScalar, ScratchBuffer, toJson, toJsonPieces, toJsonPretty, type Value } from '../../engine/plugin-api.ts';
import { escapeHtmlAttr } from './escape-html.ts';
import { writeJsonAttr, writeJsonAttrPieces } from './json-attr-writer.ts';
import { writePrettyJson } from './json-pretty-writer.ts';
import { decodeUnitPieces, decodeUnits, type Units, UNITS_DECODE } from './unit-text.ts';

/**
 * Replaces every `</` with `<\/` so that JSON placed inside a `<script>` element cannot
 * close it; `\/` is a valid JSON escape for `/`, so the text still parses the same.
 */
export function escapeScriptClose(s: string): string {
  let at = s.indexOf('</');
  if (at < 0) return s;
  let out = '';
  let start = 0;
  while (at >= 0) {
    out += s.slice(start, at + 1) + '\\/';
    start = at + 2;
    at = s.indexOf('</', start);
  }
  return out + s.slice(start);
}

/**
 * `escapeScriptClose` of `s`, pushed on `out` as pieces (`toJsonPieces`' `EachInto`): each
 * stretch between two `</` of `PIECE_PART` or more is a slice of `s`, its own piece, and the
 * rest is joined. A stretch ends after the `<`; the next one starts at the `/`; the `\` between
 * them is the escape. As one escaped string, the pieces of a page's JSON were copied whole to
 * be sent, two bytes a character when the text held a `—` (bench/README.md, "`</` without a
 * copy").
 */
export function escapeScriptCloseInto(s: string, out: string[]): void {
  let at = s.indexOf('</');
  if (at < 0) {
    out.push(s);
    return;
  }
  let joined = '';
  let start = 0;
  while (at >= 0) {
    const stretch = s.slice(start, at + 1);
    if (stretch.length >= PIECE_PART) {
      if (joined !== '') out.push(joined);
      out.push(stretch);
      joined = '\\';
    } else joined += stretch + '\\';
    start = at + 1;
    at = s.indexOf('</', at + 2);
  }
  const tail = s.slice(start);
  if (tail.length >= PIECE_PART) out.push(joined, tail);
  else out.push(joined + tail);
}


/**
 * `json|htmlattr` (and `json|htmltag`): the compact JSON of `json`, attribute-escaped, written
 * in one walk into a typed array (json-attr-writer.ts), where Node's Buffer can decode it.
 */
export function toJsonAttr(v: Value): string {
  return UNITS_DECODE ? writeJsonAttr(v) : escapeHtmlAttr(escapeScriptClose(toJson(v)));
}

/** `toJsonAttr`, a long text as pieces (`writeJsonAttrPieces`). */
export function jsonAttrPieces(v: Value): string | string[] {
  return UNITS_DECODE ? writeJsonAttrPieces(v, true) : escapeHtmlAttr(escapeScriptClose(toJson(v)));
}

/**
 * Pretty JSON in the layout PLUGINS §2 `json-pretty` gives: objects break their members onto
 * lines indented two spaces per object level, `"key": value`; arrays stay on one line
 * `[ a, b ]` and add no indentation level; empty containers are `{ }` and `[ ]`. Missing
 * values (and missing members) print `null`. `scriptSafe` also writes every `</` as `<\/`
 * (`escapeScriptClose`), as the formatter prints it.
 *
 * Three ways, each where it is the fastest (bench/README.md, "`json-pretty` from the tree"):
 * - a small tree of objects alone is `JSON.stringify(v, null, 2)`, whose layout is then the
 *   same (`nativeLayout`);
 * - a container `parseJson` kept its text for is that compact text (`toJsonPieces`, a slice)
 *   with the space between its tokens laid out (`layOutUnits`), on its code units copied into
 *   a typed array, decoded into flat strings;
 * - any other tree is written from the tree into a typed array (json-pretty-writer.ts).
 * Laying out the compact text of data `JSON.parse` made was 0.45–0.86x the port's native
 * `JSON.stringify(v, null, 2)`: a `JSON.stringify` and then a pass over every unit of its text.
 */
export function toPrettyJson(v: Value, scriptSafe = false): string {
  // Not in pieces: always one string.
  return prettyJsonPieces(v, scriptSafe, false) as string;
}

/**
 * `toPrettyJson`, a text longer than `JSON_WHOLE` (with `inPieces`) as pieces of `JSON_PIECE` characters (a piece may end
 * anywhere but between the two halves of a surrogate pair): read as one string, a text of over
 * 128 KB is written into the scratch buffer, decoded and appended to a page part, each step a
 * flattening or allocation that V8 does outside its young generation (engine/value.ts,
 * `toJsonPieces`).
 */
export function prettyJsonPieces(v: Value, scriptSafe: boolean, inPieces = true): string | string[] {
  // Without Node's Buffer (the engine imports nothing of Node's), the recursive writer.
  if (!UNITS_DECODE) return scriptSafe ? escapeScriptClose(toJsonPretty(v)) : toJsonPretty(v);
  // `{v|json-pretty}` of a 5-node object: 1.08-1.13x the port in the formatter sweep when it
  // was written from the tree as strings, 1.40x this way (16 pairs, two runs each).
  prettyBudget = SMALL_TREE_NODES;
  if (isObject(v) && !hasInheritedNames() && nativeLayout(v)) {
    const s = JSON.stringify(v, null, 2);
    if (s.indexOf('\\u') < 0) return scriptSafe ? escapeScriptClose(s) : s;
  }
  // The slices' layout read 5-8% faster than the writer on parsed 10 KB and 100 KB objects.
  if (!hasParsedText(v)) return writePrettyJson(v, scriptSafe, inPieces);
  // `</` is escaped in each value's text as it is written: no `</` spans two values.
  const compact = scriptSafe ? toJsonPieces(v, escapeScriptClose) : toJsonPieces(v);
  const parts = typeof compact === 'string' ? [compact] : compact;
  let n = 0;
  let wide = false;
  for (let i = 0; i < parts.length; i++) {
    n += parts[i].length;
    if (!wide && hasWideChar(parts[i])) wide = true;
  }
  // A text with nothing beyond Latin-1 is laid out one byte a character, and stays one-byte
  // (a page part with a two-byte string in it is flattened and encoded two-byte); any other
  // as UTF-16 code units, lone surrogates included, exactly.
  const inBytes = wide ? 2 * n : n;
  const inBuffer = scratchIn.get(inBytes);
  let at = 0;
  for (const part of parts) at += inBuffer.write(part, at, wide ? 'utf16le' : 'latin1');
  // At least room for the text as it is; `layOutUnits` grows it when the layout needs more.
  const outBytes = 2 * inBytes + 1024;
  const outBuffer = scratchOut.get(outBytes);
  // Scratch buffers start at offset 0 of their own memory: a Uint16Array view is aligned.
  const src = wide ? new Uint16Array(inBuffer.buffer, 0, n) : new Uint8Array(inBuffer.buffer, 0, n);
  const out = wide ? new Uint16Array(outBuffer.buffer, 0, outBytes >> 1) : new Uint8Array(outBuffer.buffer, 0, outBytes);
  const { units, length } = layOutUnits(src, n, out);
  if (units.buffer !== outBuffer.buffer) scratchOut.hold(Buffer.from(units.buffer));
  return inPieces ? decodeUnitPieces(units, length, wide) : decodeUnits(units, 0, length, wide);
}

/** Nodes a tree `nativeLayout` takes may have (a long text counts as several). */
const SMALL_TREE_NODES = 24;

/** Nodes `nativeLayout` may still visit; below 0 it has given up. */
let prettyBudget = 0;

/**
 * Whether `JSON.stringify(v, null, 2)` writes the object `v` as `toJsonPretty` does: a small tree
 * (within `prettyBudget`; a text counts as a node per 128 characters) of objects with members (an array, or
 * an empty object, is laid out otherwise) and leaves `JSON.stringify` writes as `toJson` does
 * (`plainScalar`, and null; a `\u` escape is checked in its text).
 */
function nativeLayout(v: JsonObject): boolean {
  let members = 0;
  for (const k in v) {
    members++;
    if (--prettyBudget < 0) return false;
    const e = v[k];
    if (typeof e === 'string') {
      if ((prettyBudget -= e.length >> 7) < 0) return false;
    } else if (typeof e === 'object') {
      if (e !== null && (!isObject(e) || !nativeLayout(e))) return false;
    } else if (!plainScalar(e)) return false;
  }
  return members > 0;
}

// Scratch memory for `toPrettyJson`, reused between calls (up to 1 MB each).
const scratchIn = new ScratchBuffer();
const scratchOut = new ScratchBuffer();

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const NL = 0x0a;
const SPACE = 0x20;


/**
 * The pretty layout of compact JSON (no space outside strings, as `toJson` writes it) in code
 * units: `src[0, n)` is copied into `out` with the layout around its tokens; returns the array
 * written (`out`, or a larger one) and how many units it holds. The same code runs over
 * Latin-1 bytes and UTF-16 units: the structural characters are ASCII in both.
 */
function layOutUnits(src: Units, n: number, out: Units): { units: Units; length: number } {
  // Kept: room for the rest of the input (each unit of it is at most one unit out) and for
  // the piece of layout about to be written, checked before each piece.
  if (out.length < n) out = grown(out, 0, n);
  let o = 0;
  let level = 0;
  // Open containers, innermost last: 1 for an object.
  const objects: number[] = [];
  for (let i = 0; i < n; i++) {
    const c = src[i];
    if (c === QUOTE) {
      // The string, escapes included, as it is: its first units copied as they are scanned
      // (a key ends there), the rest of a longer one (texts, most of the units) found with the
      // native `indexOf` and copied at once. Scanning a short string, then copying it, was
      // ~13% of json-pretty-10k (CPU profile, 2026-11-29).
      out[o++] = QUOTE;
      let j = i + 1;
      const stop = Math.min(n, i + LONG_STRING);
      let closed = false;
      for (; j < stop; j++) {
        const d = src[j];
        out[o++] = d;
        if (d === QUOTE) {
          closed = true;
          break;
        }
        if (d === BACKSLASH && j + 1 < n) out[o++] = src[++j];
      }
      if (closed) {
        i = j;
        continue;
      }
      // `j` is the first unit not copied, and no backslash escapes it.
      const end = closingQuoteFrom(src, j, n);
      out.set(src.subarray(j, end + 1), o);
      o += end + 1 - j;
      i = end;
      continue;
    }
    switch (c) {
      case 0x7b: // {
        if (src[i + 1] === 0x7d) {
          if (o + (n - i) + 1 > out.length) out = grown(out, o, o + (n - i) + 1);
          out[o++] = 0x7b;
          out[o++] = SPACE;
          out[o++] = 0x7d;
          i++;
          break;
        }
        level++;
        if (o + (n - i) + 2 + 2 * level > out.length) out = grown(out, o, o + (n - i) + 2 + 2 * level);
        objects.push(1);
        out[o++] = 0x7b;
        out[o++] = NL;
        for (let k = 2 * level; k > 0; k--) out[o++] = SPACE;
        break;
      case 0x7d: // }
        level--;
        if (o + (n - i) + 1 + 2 * level > out.length) out = grown(out, o, o + (n - i) + 1 + 2 * level);
        objects.pop();
        out[o++] = NL;
        for (let k = 2 * level; k > 0; k--) out[o++] = SPACE;
        out[o++] = 0x7d;
        break;
      case 0x5b: // [
        if (o + (n - i) + 2 > out.length) out = grown(out, o, o + (n - i) + 2);
        out[o++] = 0x5b;
        out[o++] = SPACE;
        if (src[i + 1] === 0x5d) {
          out[o++] = 0x5d;
          i++;
          break;
        }
        objects.push(0);
        break;
      case 0x5d: // ]
        if (o + (n - i) + 1 > out.length) out = grown(out, o, o + (n - i) + 1);
        objects.pop();
        out[o++] = SPACE;
        out[o++] = 0x5d;
        break;
      case 0x2c: // ,
        if (objects[objects.length - 1] === 1) {
          if (o + (n - i) + 1 + 2 * level > out.length) out = grown(out, o, o + (n - i) + 1 + 2 * level);
          out[o++] = 0x2c;
          out[o++] = NL;
          for (let k = 2 * level; k > 0; k--) out[o++] = SPACE;
        } else {
          if (o + (n - i) + 1 > out.length) out = grown(out, o, o + (n - i) + 1);
          out[o++] = 0x2c;
          out[o++] = SPACE;
        }
        break;
      case 0x3a: // : (outside strings, only after a key)
        if (o + (n - i) + 1 > out.length) out = grown(out, o, o + (n - i) + 1);
        out[o++] = 0x3a;
        out[o++] = SPACE;
        break;
      default:
        out[o++] = c;
    }
  }
  return { units: out, length: o };
}

/** Past this many units a string's closing quote is found with the native `indexOf` and the rest copied with `set`. */
const LONG_STRING = 32;

/**
 * Index of the quote closing a string, searched from `j`, a unit inside the string that no
 * backslash escapes (the last unit if there is none).
 */
function closingQuoteFrom(src: Units, j: number, n: number): number {
  for (;;) {
    const q = j < n ? src.indexOf(QUOTE, j) : -1;
    if (q < 0) return n - 1; // unterminated (toJson never writes one): the rest is copied
    // A quote after an odd number of backslashes is escaped.
    let b = q - 1;
    while (b >= j && src[b] === BACKSLASH) b--;
    if ((q - 1 - b) % 2 === 0) return q;
    j = q + 1;
  }
}

/** An array of the same kind with at least `need` units (twice the old length at least), holding `out`'s first `used`. */
function grown(out: Units, used: number, need: number): Units {
  const size = Math.max(need, out.length * 2);
  const bigger = out instanceof Uint16Array ? new Uint16Array(size) : new Uint8Array(size);
  bigger.set(out.subarray(0, used));
  return bigger;
}
