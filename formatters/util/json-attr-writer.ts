// `json|htmlattr` (and `json|htmltag`) written straight into a typed array: the compact JSON
// of `toJson`, with `</` written `<\/` and then attribute-escaped, in one walk of the tree.
//
// Why not strings: product pages put their variants into an attribute this way
// (`variants-select`, `data-variants="{…|json|htmltag}"`), and the walk that built the text
// as a rope of small pieces was 15% of rendering product-variants, a third of it flattening
// those pieces when the page was encoded (bench/profile.ts fresh product-variants). Here each
// character is written once into a reused array of UTF-16 units and the text is decoded once,
// flat (in pieces when it is long), and one-byte when it fits (so the page part it lands in
// stays one-byte).
//
// The text is exactly `escapeHtmlAttr(escapeScriptClose(toJson(v)))`: json-attr-writer.test.ts
// compares the two on random trees (doubles, bigints, missing values, control characters,
// lone surrogates, `</`, `&<>"`).
import { javaDouble, JDouble, jsNumber, type Value } from '../../engine/plugin-api.ts';
import { decodeText, decodeUnitPieces } from './unit-text.ts';

// The units written so far; kept between calls up to KEEP units (a larger one is let go).
const KEEP = 1 << 19;
let units = new Uint16Array(0);
let at = 0;
/** Every unit written, OR-ed: below 0x100 when the text fits one byte a character. */
let seen = 0;

const HEX = '0123456789ABCDEF';

/** The attribute text of `json|htmlattr` of `v` (`v` defined). */
export function writeJsonAttr(v: Value): string {
  // Not in pieces: always one string.
  return writeJsonAttrPieces(v, false) as string;
}

/**
 * `writeJsonAttr`, a text longer than `JSON_WHOLE` (with `inPieces`) as pieces of `JSON_PIECE` units, none
 * ending between the halves of a surrogate pair: a string of over 128 KB costs V8 far more
 * to make and to flatten again in a page part (engine/value.ts, `toJsonPieces`).
 */
export function writeJsonAttrPieces(v: Value, inPieces: boolean): string | string[] {
  at = 0;
  seen = 0;
  value(v);
  const n = at;
  // Read as Latin-1, narrowed first, when every unit fits a byte (unit-text.ts).
  const wide = seen >= 0x100;
  const out = inPieces ? decodeUnitPieces(units, n, wide) : decodeText(units, 0, n, wide);
  if (units.length > KEEP) units = new Uint16Array(0);
  return out;
}

/** Room for `more` units after `at`. */
function room(more: number): void {
  const need = at + more;
  if (need <= units.length) return;
  const bigger = new Uint16Array(Math.max(need, 2 * units.length, 4096));
  bigger.set(units.subarray(0, at));
  units = bigger;
}

/** ASCII text as it is (numbers, `null`, `true`, `false`, entities). */
function ascii(s: string): void {
  const n = s.length;
  room(n);
  for (let i = 0; i < n; i++) units[at++] = s.charCodeAt(i);
}

function value(v: Value): void {
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
        room(1);
        units[at++] = 0x5b; // [
        for (let i = 0; i < v.length; i++) {
          if (i > 0) {
            room(1);
            units[at++] = 0x2c; // ,
          }
          value(v[i]);
        }
        room(1);
        units[at++] = 0x5d; // ]
        return;
      }
      room(1);
      units[at++] = 0x7b; // {
      const names = Object.keys(v);
      for (let i = 0; i < names.length; i++) {
        const k = names[i];
        if (i > 0) {
          room(1);
          units[at++] = 0x2c;
        }
        string(k);
        room(1);
        units[at++] = 0x3a; // :
        value(v[k]);
      }
      room(1);
      units[at++] = 0x7d; // }
      return;
    }
  }
  ascii('null');
}

/** A double as Java prints it; the non-finite ones are strings in the reference's JSON. */
function double(x: number): void {
  if (Number.isFinite(x)) ascii(javaDouble(x));
  else string(javaDouble(x));
}

/**
 * A JSON string, attribute-escaped: the quotes are `&quot;`; inside, JSON's escapes (`\"` then
 * written `\&quot;`, `\\`, `\n`…, `\u00XX` in upper-case hex as Jackson writes it), `&<>` as
 * entities, and a `</` as `&lt;\/`.
 */
function string(s: string): void {
  const n = s.length;
  // At most 7 units a character (`\&quot;`), and the quotes. (Locals, not the module's
  // variables, in the loop: the loop is most of the time.)
  room(12 + 7 * n);
  const u = units;
  let a = quot(u, at);
  let wide = 0;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20) {
      switch (c) {
        case 0x22: // "
          u[a++] = 0x5c;
          a = quot(u, a);
          continue;
        case 0x5c: // \
          u[a++] = 0x5c;
          u[a++] = 0x5c;
          continue;
        case 0x26: // &
          u[a] = 0x26;
          u[a + 1] = 0x61;
          u[a + 2] = 0x6d;
          u[a + 3] = 0x70;
          u[a + 4] = 0x3b;
          a += 5;
          continue;
        case 0x3c: // <
          u[a] = 0x26;
          u[a + 1] = 0x6c;
          u[a + 2] = 0x74;
          u[a + 3] = 0x3b;
          a += 4;
          if (s.charCodeAt(i + 1) === 0x2f) {
            u[a++] = 0x5c;
            u[a++] = 0x2f;
            i++;
          }
          continue;
        case 0x3e: // >
          u[a] = 0x26;
          u[a + 1] = 0x67;
          u[a + 2] = 0x74;
          u[a + 3] = 0x3b;
          a += 4;
          continue;
        default:
          wide |= c;
          u[a++] = c;
          continue;
      }
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
  at = quot(u, a);
  seen |= wide;
}

/** Writes `&quot;` into `u` at `a` (room made); returns the end. */
function quot(u: Uint16Array, a: number): number {
  u[a] = 0x26;
  u[a + 1] = 0x71;
  u[a + 2] = 0x75;
  u[a + 3] = 0x6f;
  u[a + 4] = 0x74;
  u[a + 5] = 0x3b;
  return a + 6;
}
