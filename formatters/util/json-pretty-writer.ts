// `json-pretty` written straight from the tree into a typed array: the text of
// `toJsonPretty` (two-space indent, arrays inline `[ 1, 2 ]`, the reference's layout), with
// `</` written `<\/` when it goes into a page, in one walk.
//
// Why not `JSON.stringify(v, null, 2)` and a pass over its text: V8 indents the members of an
// object inside an array one level deeper than the reference, and lays arrays out one element
// a line, so its text has to be read again and rewritten, at least as much work as writing it.
// Why not the compact text laid out (`layOutUnits`, json-text.ts): that is a `JSON.stringify`
// and then a pass over every unit of its text; on objects of a few hundred characters, as a
// page prints a variant, a navigation or a product, that was 0.45–0.63x the port's one
// native `JSON.stringify(v, null, 2)` (bench/README.md, "`json-pretty` from the tree"). Here
// every character is written once, into a reused array of UTF-16 units, decoded once.
//
// The text is exactly `toJsonPretty(v)`, script-safe `escapeScriptClose(toJsonPretty(v))`:
// json-pretty-writer.test.ts compares them on random trees (doubles, bigints, missing values,
// control characters, lone surrogates, `</`).
import { javaDouble, JDouble, JSON_PIECE, JSON_WHOLE, jsNumber, type JsonObject, type Value } from '../../engine/plugin-api.ts';
import { decodeText } from './unit-text.ts';

// The units written so far; kept between calls up to KEEP units (a larger one is let go).
const KEEP = 1 << 19;
let units = new Uint16Array(0);
let at = 0;
/** Every unit written, OR-ed: below 0x100 when the text fits one byte a character. */
let seen = 0;
/** `</` is written `<\/` (the text goes into a page). */
let scriptSafe = false;
/** The caller takes a long text in pieces (`writePrettyJson`'s `inPieces`). */
let piecesWanted = false;
/** Pieces of a long text decoded while it is written (`flush`), or null. */
let done: string[] | null = null;
/** Written units past which a text wanted in pieces is decoded as it goes: four pieces. */
const FLUSH_AT = 4 * JSON_PIECE;

const HEX = '0123456789ABCDEF';

/**
 * `toJsonPretty(v)` (`escapeScriptClose` of it when `safe`); a text longer than `JSON_WHOLE`
 * with `inPieces` as pieces of `JSON_PIECE` units, none ending between the halves of a
 * surrogate pair (unit-text.ts).
 */
export function writePrettyJson(v: Value, safe: boolean, inPieces: boolean): string | string[] {
  at = 0;
  seen = 0;
  scriptSafe = safe;
  piecesWanted = inPieces;
  // Pieces a call that threw left behind (a tree nested past the stack) are not this text's.
  done = null;
  value(v, 0);
  let out: string | string[];
  if (done === null && (!inPieces || at <= JSON_WHOLE)) out = decodeRange(0, at);
  else {
    // Cut where `decodeUnitPieces` cuts, whether or not part of it was decoded on the way.
    out = flush(true);
    done = null;
  }
  if (units.length > KEEP) units = new Uint16Array(0);
  return out;
}

/** Room for `more` units after `at`. */
function room(more: number): void {
  const need = at + more;
  if (need <= units.length) return;
  if (piecesWanted && at >= FLUSH_AT) {
    flush(false);
    if (at + more <= units.length) return;
  }
  const bigger = new Uint16Array(Math.max(at + more, 2 * units.length, 4096));
  bigger.set(units.subarray(0, at));
  units = bigger;
}

/**
 * Decodes the pieces written so far into `done`, which it returns (cut as `decodeUnitPieces`
 * cuts), all of them when `last`, else all but under a piece, which moves to the start: a long text is never held
 * whole, and the array stops growing (a 1 MB object was written into arrays doubled seven
 * times, each copied, and let go after every call).
 */
function flush(last: boolean): string[] {
  const out = (done ??= []);
  let start = 0;
  while (last ? start < at : at - start > JSON_PIECE) {
    let end = Math.min(start + JSON_PIECE, at);
    if (end < at && units[end - 1] >= 0xd800 && units[end - 1] <= 0xdbff) end++;
    out.push(decodeRange(start, end));
    start = end;
  }
  units.copyWithin(0, start, at);
  at -= start;
  return out;
}

/** `units[start, end)` as text: Latin-1 while nothing wider has been written. */
function decodeRange(start: number, end: number): string {
  return decodeText(units, start, end, seen >= 0x100);
}

/** ASCII text as it is (numbers, `null`, `true`, `false`). */
function ascii(s: string): void {
  const n = s.length;
  room(n);
  const u = units;
  let a = at;
  for (let i = 0; i < n; i++) u[a++] = s.charCodeAt(i);
  at = a;
}

/** Two units (room made by the caller). */
function pair(c: number, d: number): void {
  units[at] = c;
  units[at + 1] = d;
  at += 2;
}

/** A newline and `level` steps of two spaces. */
function newline(level: number): void {
  const n = 2 * level;
  room(n + 1);
  const u = units;
  let a = at;
  u[a++] = 0x0a;
  for (let i = 0; i < n; i++) u[a++] = 0x20;
  at = a;
}

function value(v: Value, level: number): void {
  switch (typeof v) {
    case 'string':
      string(v);
      return;
    case 'number':
      if (Number.isInteger(v)) ascii(jsNumber(v));
      else double(v);
      return;
    case 'bigint':
      ascii(v.toString());
      return;
    case 'boolean':
      ascii(v ? 'true' : 'false');
      return;
    case 'object': {
      if (v === null) break;
      if (v instanceof JDouble) {
        double(v.value);
        return;
      }
      if (Array.isArray(v)) {
        room(3);
        if (v.length === 0) {
          pair(0x5b, 0x20); // '[ '
          units[at++] = 0x5d; // ]
          return;
        }
        pair(0x5b, 0x20);
        for (let i = 0; i < v.length; i++) {
          if (i > 0) {
            room(2);
            pair(0x2c, 0x20); // ', '
          }
          value(v[i], level);
        }
        room(2);
        pair(0x20, 0x5d); // ' ]'
        return;
      }
      // Object.keys, not for…in: one object whose names a for…in cannot take from its
      // map's cache (a name that is an array index, `{"1": …}`) turns the loop generic for
      // every object after it.
      const names = Object.keys(v);
      room(3);
      if (names.length === 0) {
        pair(0x7b, 0x20); // '{ '
        units[at++] = 0x7d; // }
        return;
      }
      units[at++] = 0x7b; // {
      for (let i = 0; i < names.length; i++) {
        if (i > 0) {
          room(1);
          units[at++] = 0x2c; // ,
        }
        member(names[i], (v as JsonObject)[names[i]], level + 1);
      }
      newline(level);
      room(1);
      units[at++] = 0x7d;
      return;
    }
  }
  ascii('null');
}

/** `"name": value` on a line of its own at `level`. */
function member(name: string, v: Value, level: number): void {
  newline(level);
  string(name);
  room(2);
  pair(0x3a, 0x20); // ': '
  value(v, level);
}

/** A double as Java prints it; the non-finite ones are strings in the reference's JSON. */
function double(x: number): void {
  if (Number.isFinite(x)) ascii(javaDouble(x));
  else string(javaDouble(x));
}

/**
 * A JSON string as `jsonString` writes it (`\"`, `\\`, `\n`…, `\u00XX` in upper-case hex as
 * Jackson writes it; everything else as it is, lone surrogates too), and `</` as `<\/` when
 * script-safe: only a string can hold a `<`, and what follows it is the string's next
 * character (a `/` is never escaped), so no `</` spans two tokens.
 */
function string(s: string): void {
  const n = s.length;
  // At most 6 units a character (`\u00XX`), and the quotes. (Locals, not the module's
  // variables, in the loop: the loop is most of the time.)
  room(2 + 6 * n);
  const u = units;
  const safe = scriptSafe;
  let a = at;
  u[a++] = 0x22;
  let wide = 0;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20) {
      if (c === 0x22 || c === 0x5c) {
        u[a++] = 0x5c;
        u[a++] = c;
      } else if (c === 0x3c && safe && s.charCodeAt(i + 1) === 0x2f) {
        u[a++] = 0x3c; // '<\/'
        u[a++] = 0x5c;
        u[a++] = 0x2f;
        i++;
      } else {
        wide |= c;
        u[a++] = c;
      }
      continue;
    }
    u[a++] = 0x5c;
    switch (c) {
      case 0x0a: u[a++] = 0x6e; break; // n
      case 0x09: u[a++] = 0x74; break; // t
      case 0x0d: u[a++] = 0x72; break; // r
      case 0x08: u[a++] = 0x62; break; // b
      case 0x0c: u[a++] = 0x66; break; // f
      default:
        u[a++] = 0x75; // u
        u[a++] = 0x30;
        u[a++] = 0x30;
        u[a++] = HEX.charCodeAt(c >> 4);
        u[a++] = HEX.charCodeAt(c & 15);
    }
  }
  u[a++] = 0x22;
  at = a;
  seen |= wide;
}
