// The data model the engine renders. JSON values are plain JavaScript values, with two
// additions that keep what the reference observes about numbers:
//   - a JSON float whose value is integral (`1.0`, `1e21`, `-0.0`) is a `JDouble`, because
//     the reference prints it `1.0` in arrays and formatter text but `1` on its own;
//     non-integral floats are plain numbers (they cannot be mistaken for integers);
//   - an integer beyond 2^53 is a `bigint`, so its digits survive.
// `undefined` is *missing*: the result of a failed lookup, distinct from JSON `null`.

export class JDouble {
  constructor(readonly value: number) {}
}

export type JsonObject = { [key: string]: Value };
export type Node = null | boolean | number | string | bigint | JDouble | Node[] | JsonObject;
/** A node, or `undefined` for missing. */
export type Value = Node | undefined;

/** Wraps the result of floating-point arithmetic so that integral results stay doubles. */
export function double(x: number): number | JDouble {
  return Number.isInteger(x) ? new JDouble(x) : x;
}

export function isNumber(v: Value): v is number | bigint | JDouble {
  return typeof v === 'number' || typeof v === 'bigint' || v instanceof JDouble;
}

/** True for values the reference holds as int/long/big-integer. */
export function isIntegral(v: Value): v is number | bigint {
  return (typeof v === 'number' && Number.isInteger(v)) || typeof v === 'bigint';
}

/** True for values the reference holds as a double. */
export function isDouble(v: Value): v is number | JDouble {
  return (typeof v === 'number' && !Number.isInteger(v)) || v instanceof JDouble;
}

export function isObject(v: Value): v is JsonObject {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof JDouble);
}

/** The numeric value of a number node (bigints lose precision). */
export function numberOf(v: number | bigint | JDouble): number {
  return typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : v.value;
}

// Names that every plain object inherits: never reachable from a template.
const INHERITED = new Set(Object.getOwnPropertyNames(Object.prototype));

/** Own-property member lookup: inherited names (`constructor`, `__proto__`, …) are missing. */
export function member(obj: JsonObject, key: string): Value {
  const v = obj[key];
  // What an inherited name reads on a plain (or null-prototype) object is a function, or
  // the prototype for `__proto__`; no JSON value is either, so every other read is own.
  if ((typeof v === 'function' || key === '__proto__') && INHERITED.has(key) && !Object.prototype.hasOwnProperty.call(obj, key)) return undefined;
  return v;
}

/**
 * The lengths of the inherited names, as bits, by their first character: most keys are
 * ruled out without hashing them for the Set (a key cut from a template is a new string,
 * hashed on its first lookup). Every compiled reference checks each of its names
 * (engine/runtime.ts, `CompiledRef`).
 */
const INHERITED_LENGTHS = new Uint32Array(128);
for (const name of INHERITED) INHERITED_LENGTHS[name.charCodeAt(0)] |= 1 << name.length;

/** True when a key could reach an inherited property of a plain object. */
export function isInheritedName(key: string): boolean {
  const c = key.charCodeAt(0);
  // Object.prototype's names are all ASCII and shorter than 32 characters.
  return c < 128 && key.length < 32 && (INHERITED_LENGTHS[c] & (1 << key.length)) !== 0 && INHERITED.has(key);
}

// ---- text forms ---------------------------------------------------------------------

/** JavaScript `Number#toString`, with `-0` printed as `0`. */
export function jsNumber(x: number): string {
  if (x === 0) return '0';
  const wide = x >= SMALL_INT_LIMIT || x <= -SMALL_INT_LIMIT;
  return wide && Number.isSafeInteger(x) ? wideInteger(x) : String(x);
}

/** From here on an integer is not a small integer (Smi) to V8, which converts it as a double. */
const SMALL_INT_LIMIT = 2 ** 31;
/** Zeros to pad the six-digit halves of `wideInteger` and the fractions of `shortDecimal`. */
const ZEROS = '000000';

/**
 * The decimal digits of a safe integer of 2³¹ or more (a timestamp in milliseconds, an id),
 * written from two smaller integers: V8 converts such a number through its double-to-text
 * path, 2–3x as long as two small integers (320 against 100–190 ns, 2026-11-28).
 */
function wideInteger(x: number): string {
  if (x < 0) return '-' + wideInteger(-x);
  if (x < SMALL_INT_LIMIT) return String(x);
  const high = Math.floor(x / 1e6);
  const low = '' + (x - high * 1e6);
  return (high < SMALL_INT_LIMIT ? '' + high : wideInteger(high)) + ZEROS.slice(low.length) + low;
}

/**
 * Java `Double.toString`: plain decimal with at least one fractional digit when
 * 1e-3 <= |x| < 1e7, otherwise `d.dddE±n` with at least one fractional digit.
 */
export function javaDouble(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const abs = Math.abs(x);
  if (abs >= 1e-3 && abs < 1e7) {
    const short = shortDecimal(abs);
    if (short !== null) return x < 0 ? '-' + short : short;
    const s = String(x);
    if (s.indexOf('e') >= 0) return plainFromExponential(x);
    return s.indexOf('.') >= 0 ? s : s + '.0';
  }
  const e = x.toExponential(); // shortest round-trip digits
  const at = e.indexOf('e');
  let mantissa = e.slice(0, at);
  if (mantissa.indexOf('.') < 0) mantissa += '.0';
  const exp = e.slice(at + 1);
  return mantissa + 'E' + (exp[0] === '+' ? exp.slice(1) : exp);
}

/** Fraction digits `shortDecimal` writes at most. */
const SHORT_DIGITS = 6;
const SHORT_SCALE = 1e6;

/**
 * `String(x)` for 1e-3 <= x < 1e7 with at most six fraction digits (a price, a focal point,
 * a rating), written from integers, or null. If `r / 1e6` (correctly rounded) is `x`, the
 * decimal r·10⁻⁶ reads back as `x`, and no shorter decimal does: another on the 10⁻⁶ grid is
 * at least 10⁻⁶ away, where `x`'s neighbours are under 2·10⁻⁹ away. So its digits, without
 * trailing zeros, are the shortest round trip `String` prints. V8's shortest-digits
 * conversion took 2.5–3x as long (200–270 against 65–110 ns a number, 2026-11-28).
 */
function shortDecimal(x: number): string | null {
  const r = Math.round(x * SHORT_SCALE);
  if (r / SHORT_SCALE !== x) return null;
  const whole = Math.floor(r / SHORT_SCALE);
  let frac = r - whole * SHORT_SCALE;
  if (frac === 0) return whole + '.0';
  let digits = SHORT_DIGITS;
  while (frac % 10 === 0) {
    frac /= 10;
    digits--;
  }
  const f = '' + frac;
  return whole + '.' + ZEROS.slice(0, digits - f.length) + f;
}

function plainFromExponential(x: number): string {
  // String(x) only uses exponents below 1e-6, which javaDouble handles as scientific;
  // this path exists for completeness.
  const s = x.toFixed(20).replace(/0+$/, '');
  return s.endsWith('.') ? s + '0' : s;
}

/** How a value prints on its own (`{x}`): LANGUAGE §2.5. */
export function renderText(v: Value): string {
  switch (typeof v) {
    case 'string':
      return v;
    case 'number':
      return jsNumber(v);
    case 'boolean':
      return v ? 'true' : 'false';
    case 'bigint':
      return v.toString();
    case 'object':
      if (v === null) return '';
      if (v instanceof JDouble) return jsNumber(v.value);
      if (Array.isArray(v)) return arrayText(v);
      return '';
    default:
      return '';
  }
}

function arrayText(a: Value[]): string {
  let s = '';
  for (let i = 0; i < a.length; i++) {
    if (i > 0) s += ',';
    const e = a[i];
    if (e === null) s += 'null';
    else if (typeof e === 'object' && !(e instanceof JDouble)) s += '';
    else s += textOf(e);
  }
  return s;
}

/** The reference's `asText`: Java forms for doubles, `null` → "null", containers and missing → "". */
export function textOf(v: Value): string {
  switch (typeof v) {
    case 'string':
      return v;
    case 'number':
      return Number.isInteger(v) ? jsNumber(v) : javaDouble(v);
    case 'boolean':
      return v ? 'true' : 'false';
    case 'bigint':
      return v.toString();
    case 'object':
      if (v === null) return 'null';
      if (v instanceof JDouble) return javaDouble(v.value);
      return '';
    default:
      return '';
  }
}

/** `textOf`, except that `null` gives the empty string ("eatNull"). */
export function textOrEmpty(v: Value): string {
  return v === null ? '' : textOf(v);
}

// ---- coercions (PLUGINS §1.4) ---------------------------------------------------------

/**
 * Objects known to hold more than `MANY_MEMBERS` members (`noteManyMembers`). V8 keeps such an
 * object as a hash table, and a for…in over one lists and sorts every name before it gives the
 * first: ~25 ms at 100,000 members, so `{.if big}` in a loop of 1,000 items took 30 s, an
 * instruction each, and the clock is read once in `CLOCK_STEPS` instructions (limits.ts).
 * Testing one of these for truth costs a look-up here instead (~4 ns on any object, measured
 * against ~3 ns for the for…in of a small one), once any is noted (`anyManyMembers`).
 */
export const MANY_MEMBERS = 1000;
const manyMembers = new WeakSet<object>();
/**
 * Whether any object was ever noted: until one is, the test costs a load of this flag, not a
 * look-up (bench:ab of the fresh pages, none of which holds such an object: gallery and
 * product-simple 0.98x with the look-up on every object, 2 processes x 40 pairs).
 */
let anyManyMembers = false;

/**
 * Notes every object of more than `MANY_MEMBERS` members under `root`, so that testing it for
 * truth does not list its names (`isTruthy`). `parseJson` notes what it reads; a host that
 * hands the engine data read otherwise calls it once per data set (the site loader does).
 * One pass over the tree, without recursion.
 */
export function noteManyMembers(root: unknown): void {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v !== 'object' || v === null || v instanceof JDouble) continue;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) if (typeof v[i] === 'object' && v[i] !== null) stack.push(v[i]);
      continue;
    }
    let n = 0;
    for (const k in v) {
      n++;
      const m = (v as Record<string, unknown>)[k];
      if (typeof m === 'object' && m !== null) stack.push(m);
    }
    if (n > MANY_MEMBERS) {
      manyMembers.add(v);
      anyManyMembers = true;
    }
  }
}

/** Whether `noteManyMembers` noted `v` (for tests). */
export function hasManyMembers(v: object): boolean {
  return manyMembers.has(v);
}

export function isTruthy(v: Value): boolean {
  switch (typeof v) {
    case 'string':
      return v.length > 0;
    case 'number':
      return v !== 0 && v === v;
    case 'boolean':
      return v;
    case 'bigint':
      return v !== 0n;
    case 'object':
      if (v === null) return false;
      if (v instanceof JDouble) return v.value !== 0;
      if (Array.isArray(v)) return v.length > 0;
      if (anyManyMembers && manyMembers.has(v)) return true;
      for (const _ in v) return true;
      return false;
    default:
      return false;
  }
}

const INT_RE = /^[+-]?\d+$/;
// `\d+(?:\.\d*)?`, not `\d+\.?\d*`: with the dot optional, the two digit loops could split a
// run of digits in every way, which backtracks quadratically on `111…1x` (issue 13).
const FLOAT_RE = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** The reference's `asLong`: truncating, strings trimmed and parsed, unparsable → 0. */
export function asLong(v: Value): number {
  switch (typeof v) {
    case 'number':
      return Number.isFinite(v) ? Math.trunc(v) : Number.isNaN(v) ? 0 : v > 0 ? Number.MAX_SAFE_INTEGER : Number.MIN_SAFE_INTEGER;
    case 'bigint':
      return Number(v);
    case 'boolean':
      return v ? 1 : 0;
    case 'string': {
      const t = v.trim();
      if (INT_RE.test(t)) return Number(t);
      if (FLOAT_RE.test(t)) return Math.trunc(Number(t));
      return 0;
    }
    case 'object':
      if (v instanceof JDouble) return Math.trunc(v.value);
      return 0;
    default:
      return 0;
  }
}

/** The reference's `asDouble`. */
export function asDouble(v: Value): number {
  switch (typeof v) {
    case 'number':
      return v;
    case 'bigint':
      return Number(v);
    case 'boolean':
      return v ? 1 : 0;
    case 'string': {
      const t = v.trim();
      if (FLOAT_RE.test(t)) return Number(t);
      if (t === 'NaN') return NaN;
      if (t === 'Infinity' || t === '+Infinity') return Infinity;
      if (t === '-Infinity') return -Infinity;
      return 0;
    }
    case 'object':
      if (v instanceof JDouble) return v.value;
      return 0;
    default:
      return 0;
  }
}

/** The reference's `asBoolean`. */
export function asBoolean(v: Value): boolean {
  switch (typeof v) {
    case 'boolean':
      return v;
    case 'number':
      return Number.isInteger(v) ? v !== 0 : false;
    case 'bigint':
      return v !== 0n;
    case 'string':
      return v.trim() === 'true';
    default:
      return false;
  }
}

function numberOrBig(v: number | bigint | JDouble): number | bigint {
  return v instanceof JDouble ? v.value : v;
}

/**
 * Characters of a long text per instruction charged (`PluginContext.work`): formatters' texts,
 * comparisons and `.eval`'s operands of this length or more count against the instruction limit.
 * (Re-exported by plugin-api.ts.)
 */
export const TEXT_PER_STEP = 64;

/**
 * The work `jsonEquals` has done since `takeEqualsWork` last read it, in characters as
 * `PluginContext.work` counts them: `TEXT_PER_STEP` for each element or member compared, and
 * the length of each long text. A deep comparison takes time in the size of what it compares,
 * and a template can repeat it within the instruction limit: `{.equal? a b}` of two 1 MB trees
 * in a macro that applies itself took 380–570 s before the comparison predicates charged it
 * (bench/README.md, "Trees compared").
 */
let equalsWork = 0;

/** The work `jsonEquals` has done since the last call (see `equalsWork`), and starts the count again. */
export function takeEqualsWork(): number {
  const w = equalsWork;
  equalsWork = 0;
  return w;
}

/** Structural, kind-strict JSON equality (int 1 ≠ double 1.0 ≠ "1"; null ≠ missing). */
export function jsonEquals(a: Value, b: Value): boolean {
  if (typeof a === 'string') {
    // Two texts of equal length are compared a character at a time.
    if (a.length >= TEXT_PER_STEP && typeof b === 'string' && b.length === a.length) equalsWork += a.length;
    return a === b;
  }
  if (a === b) return a !== undefined || b === undefined;
  if (a === undefined || b === undefined || a === null || b === null) return false;
  const ta = typeof a;
  if (isNumber(a)) {
    if (!isNumber(b) || isIntegral(a) !== isIntegral(b)) return false;
    if (typeof a === 'bigint' || typeof b === 'bigint') return BigInt(numberOrBig(a)) === BigInt(numberOrBig(b));
    return numberOf(a) === numberOf(b);
  }
  if (ta !== typeof b) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) {
      equalsWork += TEXT_PER_STEP;
      if (!jsonEquals(a[i], b[i])) return false;
    }
    return true;
  }
  if (Array.isArray(b) || b instanceof JDouble) return false;
  if (typeof a !== 'object') return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b as JsonObject);
  // Listing the names is work in their number, even where they then differ in number.
  equalsWork += TEXT_PER_STEP * (ka.length + kb.length);
  if (ka.length !== kb.length) return false;
  for (const k of ka) {
    equalsWork += TEXT_PER_STEP;
    if (!Object.prototype.hasOwnProperty.call(b, k)) return false;
    if (!jsonEquals((a as JsonObject)[k], (b as JsonObject)[k])) return false;
  }
  return true;
}

// ---- JSON serialization (the reference's Jackson output) -------------------------------

const HEX = '0123456789ABCDEF';

/**
 * Escapes after which the rest of a string is left to `JSON.stringify`, which differs only
 * where it writes a `\u` escape (see `mixedJson`). The loop appends one piece per escape, a
 * rope the collector then walks: a text of 4 M quotes cost 200 ns a character that way, against
 * 14 in `JSON.stringify` (bench/README.md, "Escape-dense texts"). A text with few escapes (the
 * sentences of json-page-maps) is cheaper in the loop, which copies nothing when there are
 * none: sent to `JSON.stringify` from 32 characters, that page rendered 10% slower.
 */
const DENSE_ESCAPES = 32;

export function jsonString(s: string): string {
  let out = '"';
  let start = 0;
  let escapes = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c !== 0x22 && c !== 0x5c) continue;
    if (++escapes === DENSE_ESCAPES) {
      const j = JSON.stringify(s);
      if (j.indexOf('\\u') < 0) return j;
    }
    if (i > start) out += s.slice(start, i);
    start = i + 1;
    switch (c) {
      case 0x22: out += '\\"'; break;
      case 0x5c: out += '\\\\'; break;
      case 0x0a: out += '\\n'; break;
      case 0x09: out += '\\t'; break;
      case 0x0d: out += '\\r'; break;
      case 0x08: out += '\\b'; break;
      case 0x0c: out += '\\f'; break;
      default: out += '\\u00' + HEX[c >> 4] + HEX[c & 15];
    }
  }
  if (start < s.length) out += start === 0 ? s : s.slice(start);
  return out + '"';
}

function jsonNumber(v: number | bigint | JDouble): string {
  if (typeof v === 'bigint') return v.toString();
  const x = typeof v === 'number' ? v : v.value;
  if (typeof v === 'number' && Number.isInteger(v)) return jsNumber(v);
  if (!Number.isFinite(x)) return jsonString(javaDouble(x));
  return javaDouble(x);
}

/** Compact JSON as the reference writes it; missing members and elements print `null`. */
export function toJson(v: Value): string {
  return mixedJson(v, 0);
}

// `JSON.stringify` writes the same text as `writeJson` for most data, 2–5x faster on objects
// of 10 KB–1 MB (bench/serializers-micro.ts); its result is a rope of parts, flattened by the
// `\u` check below (a long text is cut first: `toJsonPieces`). It
// differs on a few values, which a walk finds first: doubles (`JDouble`, and non-integral
// numbers outside 1e-3 <= |x| < 1e7, where Java switches to `E` notation), bigints,
// non-finite numbers and missing values. In strings it differs only where it writes a `\u`
// escape (control characters in lower-case hex, lone surrogates, which Jackson leaves as
// they are): a text with `\u` anywhere, rare, is written again by `writeJson`.
// A container with such a value somewhere is written member by member, each member again
// through JSON.stringify when it can be, down to MIXED_JSON_LEVELS levels (each level walks
// its subtree again until the value, so the levels are few); below, the exact writer.
const NATIVE_JSON_MAX_DEPTH = 512;
const MIXED_JSON_LEVELS = 4;

function mixedJson(v: Value, level: number): string {
  // A scalar (json-pretty writes every leaf through here) costs less in the loop than a
  // native call and a scan of its text.
  if (typeof v !== 'object' || v === null) return writeJson(v);
  if (level === 0 && parsedPlainMarked && !(v instanceof JDouble)) {
    // One lookup for both uses of a mark: its text, or (as `plainJson` would find) plain.
    const m = parsedPlain.get(v);
    if (m !== undefined) {
      const sliced = slicedJson(v, m);
      if (sliced !== null) return sliced;
      if (m.plain) return nativeJson(v);
    }
  }
  if (plainJson(v, 0)) return nativeJson(v);
  if (level >= MIXED_JSON_LEVELS || v instanceof JDouble) return writeJson(v);
  if (Array.isArray(v)) {
    let s = '[';
    for (let i = 0; i < v.length; i++) {
      if (i > 0) s += ',';
      s += mixedJson(v[i], level + 1);
    }
    return s + ']';
  }
  let s = '{';
  let first = true;
  for (const k of Object.keys(v)) {
    if (!first) s += ',';
    first = false;
    s += quotedKeys.get(k) ?? jsonString(k) + ':';
    s += mixedJson(v[k], level + 1);
  }
  return s + '}';
}

/**
 * Containers `parseJson` read whose subtree holds nothing `plainJson` refuses (no number it put
 * back, none outside Java's plain double range, nesting under `PLAIN_MARK_MAX_DEPTH`), with the
 * length of their text: at least that of their `toJson` text, since parsing only drops
 * whitespace and makes escapes single characters. The walks take a marked container as plain,
 * and that length as its size, without visiting it. Marked:
 *   - objects of `PLAIN_MARK_MIN_MEMBERS` or more, which `JSON.parse` gives dictionary
 *     properties: every enumeration of one collects and sorts all its names first, and walking
 *     a map of 300 short members cost ~40% of the port's whole `JSON.stringify` of it
 *     (7-10 µs against 16-21 µs);
 *   - the root, so that a page's `{@|json}` of its whole context walks nothing;
 *   - containers whose text is `PLAIN_MARK_MIN_LENGTH` or longer, so that `{o|json}` of a
 *     sizeable member is a slice too (below), and under a marked container an unmarked one is
 *     known to be shorter than a piece (`jsonPieces`).
 * Only those: looking a container up in the tree costs, and marking every container of 2 KB
 * or more made the parse 1.5-5% slower; these make it 1-3% slower (bench/README.md, "Parsed
 * data's plain containers").
 * A marked container whose text is its `toJson` text exactly (no space between tokens, no
 * escape or number written otherwise, no name an object lists first) keeps that text, and
 * `json` writes it as a slice of it (`slicedJson`): so the text lives as long as the tree.
 * One of these kinds whose text is exact though `plainJson` refuses it (a `12.0`, as Java
 * writes doubles) is kept for its text alone (`PlainMark.plain` false). Telling which texts
 * are exact makes the parse 3-5% slower again (bench/README.md, "JSON as the text it was read
 * from").
 * The engine never changes the data it renders; a caller that changes a tree `parseJson` gave
 * may not hand it to `json` afterwards.
 */
const parsedPlain = new WeakMap<JsonObject | Node[], PlainMark>();

/** What `parsedPlain` keeps of a container. */
interface PlainMark {
  /** Its text's length. */
  readonly length: number;
  /**
   * Whether it holds nothing `plainJson` refuses: the walks take it as plain without visiting
   * it. A container that does (a `12.0`) is kept only for its text.
   */
  readonly plain: boolean;
  /**
   * The text it was read from, when its own part of it (from `start`, `length` long) is its
   * `toJson` text exactly (`slicedJson`), else null.
   */
  readonly text: string | null;
  readonly start: number;
  /** Members of the objects in the subtree, counted in the text: the tree has as many unless a key was given twice. */
  readonly members: number;
}
/** Whether `parsedPlain` was ever given a container: until then the walks do not look. */
let parsedPlainMarked = false;
const PLAIN_MARK_MIN_MEMBERS = 128;
/**
 * Under `JSON_PIECE`. Marks of 8 KB made the parse 0-2% slower (within the noise), of 4 KB
 * 2-4% (bench/README.md, "JSON as the text it was read from").
 */
const PLAIN_MARK_MIN_LENGTH = 8192;
/** Marks are made for subtrees nested less deep, and read at less depth: together under `NATIVE_JSON_MAX_DEPTH`. */
const PLAIN_MARK_MAX_DEPTH = 256;

/** The text length `parsedPlain` keeps for `v`, or undefined when it is not marked (for the tests). */
export function parsedPlainLength(v: JsonObject | Node[]): number | undefined {
  const m = parsedPlain.get(v);
  return m?.plain === true ? m.length : undefined;
}

/** `toJson(v)` as the slice of its text `json` writes (`slicedJson`), or null (for the tests). */
export function parsedJsonText(v: Value): string | null {
  if (!parsedPlainMarked || typeof v !== 'object' || v === null || v instanceof JDouble) return null;
  const m = parsedPlain.get(v);
  return m === undefined ? null : slicedJson(v, m);
}

/**
 * Whether `v` is a container `parseJson` kept its text for: `toJsonPieces` may then slice the
 * text instead of serializing (whether the slice holds is checked there). A lookup, no walk.
 */
export function hasParsedText(v: Value): boolean {
  if (!parsedPlainMarked || typeof v !== 'object' || v === null || v instanceof JDouble) return false;
  const m = parsedPlain.get(v);
  return m !== undefined && m.text !== null;
}

/**
 * The length `parsedPlain` keeps for `v`, met `depth` levels into a walk, or -1. An array is
 * looked for only at the top of a walk (as a text's root, or a list longer than a piece, which
 * `jsonPieces` meets at the top): a lookup for every container walked was ~1% of `{o|json}` of
 * a 10 KB object (bench:ab json-10k, 0.989).
 */
function markedLength(v: JsonObject | Node[], depth: number): number {
  if (depth >= PLAIN_MARK_MAX_DEPTH || (depth > 0 && Array.isArray(v))) return -1;
  const m = parsedPlain.get(v);
  return m !== undefined && m.plain ? m.length : -1;
}

function plainJson(v: Value, depth: number): boolean {
  if (typeof v !== 'object') return plainScalar(v);
  if (v === null) return true;
  if (depth >= NATIVE_JSON_MAX_DEPTH || v instanceof JDouble) return false;
  if (parsedPlainMarked && markedLength(v, depth) >= 0) return true;
  // Strings, most of the leaves, are checked inline: one call per container, not per leaf.
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const e = v[i];
      if (typeof e === 'string') continue;
      if (typeof e === 'object' ? !plainJson(e, depth + 1) : !plainScalar(e)) return false;
    }
    return true;
  }
  // for-in also visits inherited enumerable names, which JSON.stringify skips: at worst
  // a value it would not write sends the object down the exact path.
  for (const k in v) {
    const e = v[k];
    if (typeof e === 'string') continue;
    if (typeof e === 'object' ? !plainJson(e, depth + 1) : !plainScalar(e)) return false;
  }
  return true;
}

/** A leaf JSON.stringify writes as Jackson does: strings, booleans, integers, doubles in Java's plain range. */
export function plainScalar(v: Value): boolean {
  if (typeof v === 'number') {
    if (Number.isInteger(v)) return true;
    const abs = Math.abs(v);
    return abs >= 1e-3 && abs < 1e7;
  }
  return typeof v === 'string' || typeof v === 'boolean';
}

// Object keys are the few names of a data schema, written again for every object: their
// quoted forms (with the colon) are remembered, a bounded number of short ones. A hit costs
// a lookup by a key whose hash V8 already keeps.
const QUOTED_KEYS_MAX = 512;
const QUOTED_KEY_MAX_LENGTH = 64;
const quotedKeys = new Map<string, string>();

/**
 * About how many characters of JSON a piece of `toJsonPieces` holds at most: a piece ends
 * before the value that would take it past this, and a value is written whole when a rough
 * count finds it this short (an escape-heavy one may come out longer; a single long string is
 * never cut). A page part is a piece and at most a chunk of other output (`OUTPUT_CHUNK`),
 * under 128 KB even two bytes a character.
 */
export const JSON_PIECE = 32768;
/**
 * The longest text `toJsonPieces` (and the pretty and attribute writers) hand back whole,
 * about: up to here one flat string costs less than cutting it, and with a chunk of other
 * output it stays under 128 KB even two bytes a character.
 */
export const JSON_WHOLE = 57344;
/**
 * A piece a formatter hands over (`FormatterSpec.pieces`) at least this long becomes a page
 * part of its own, not a part of the chunk being written: a view into a text (a slice of the
 * text `parseJson` read) is then encoded where it lies, where inside a chunk it is first
 * copied into the chunk's flat string, two bytes a character if the text holds one character
 * beyond Latin-1. Each part costs the server one more write: 512, 1024 and 2048 read the same
 * on the JSON pages, 256 and 4096 less (bench/README.md, "`</` without a copy").
 */
export const PIECE_PART = 1024;
/** Levels `toJsonPieces` opens before writing whatever is left whole. */
const JSON_PIECE_LEVELS = 32;

/**
 * `toJson(v)`, as one string when it is at most about `JSON_WHOLE` characters and otherwise as
 * pieces of at most about `JSON_PIECE` whose concatenation is that text. A long text is not handed on as one string
 * because V8 (Node 20) allocates a string of over 128 KB (kMaxRegularHeapObjectSize) outside
 * its young generation, and flattening one such rope, which encoding it as UTF-8 does first,
 * took some 60x as long as a 120 KB one on the bench machine: stringifying a 172 KB product
 * list took ~0.6 ms and flattening its result ~1.4 ms more (bench/README.md, "Large strings").
 * The engine appends the pieces one by one (`FormatterSpec.pieces`), so the page parts the
 * server encodes stay small. A piece ends only between values, never inside a string. `each`
 * is applied to the text of every value written (and to the whole text when it is not cut).
 * `eachInto`, when given, takes its place for a text sliced from the text `parseJson` read,
 * whole or cut, so that it can hand on slices of it (`json`'s `</` escape).
 */
export function toJsonPieces(v: Value, each: (text: string) => string = sameText, eachInto?: EachInto): string | string[] {
  if (typeof v !== 'object' || v === null || v instanceof JDouble) return each(toJson(v));
  const m = parsedPlainMarked ? parsedPlain.get(v) : undefined;
  if (m !== undefined) {
    const sliced = slicedJson(v, m);
    if (sliced !== null) {
      if (eachInto !== undefined) return cutPieces(sliced, eachInto);
      return sliced.length <= JSON_WHOLE ? each(sliced) : cutPieces(sliced, (t, out) => void out.push(each(t)));
    }
  }
  const whole = shortJson(v, JSON_WHOLE);
  if (whole !== null) return each(whole);
  const st: PieceState = { out: [], cur: '', each };
  splitJson(v, 0, st, m?.plain === true);
  if (st.cur !== '') st.out.push(st.cur);
  // The count is rough: a text that came out short is one string after all.
  return st.out.length === 1 ? st.out[0] : st.out;
}

interface PieceState {
  readonly out: string[];
  /** The piece being written. */
  cur: string;
  /**
   * Applied to each value's text as it is written (`json` escapes `</` with it). On each text
   * and not on a piece: a text is flat (its `\u` check flattened it), a piece is a rope of
   * them, which a search would flatten into one more copy.
   */
  readonly each: (text: string) => string;
}

/**
 * `each` for a text sliced from the parsed text (`toJsonPieces`), giving its result as pieces
 * pushed on `out`: the stretches the change leaves as they were can be pushed as slices of
 * `text`, views that are never copied when they are `PIECE_PART` or longer.
 */
export type EachInto = (text: string, out: string[]) => void;

function sameText(text: string): string {
  return text;
}

/**
 * `toJson` of the container `v` when a rough count finds its text within `budget`
 * characters, else null. One walk tells both whether it is that short and whether
 * `JSON.stringify` writes it as `toJson` does (`plainJson`), so a short one is written as
 * `toJson` would, walked once.
 */
function shortJson(v: JsonObject | Node[], budget: number): string | null {
  sizedPlain = true;
  if (plainJsonWithin(v, budget, 0) < 0) return null;
  return sizedPlain ? nativeJson(v) : mixedJson(v, 0);
}

/** `toJson` of a container `plainJson` accepts: `JSON.stringify`'s text, unless it wrote a `\\u` escape. */
function nativeJson(v: Value): string {
  const s = JSON.stringify(v);
  return s.indexOf('\\u') < 0 ? s : writeJson(v);
}

/**
 * Writes `v` into the pieces, whole or cut further. `plain`: `v` is inside a container
 * `parsedPlain` marked, so it is plain, and marked itself if its text is longer than
 * `JSON_PIECE` (`restoreNumbers`): it is written or cut without a walk.
 */
function jsonPieces(v: Value, level: number, st: PieceState, plain: boolean): void {
  let text: string | null;
  if (typeof v !== 'object' || v === null || v instanceof JDouble || level >= JSON_PIECE_LEVELS) text = toJson(v);
  else if (plain) text = (parsedPlain.get(v)?.length ?? 0) > JSON_PIECE ? null : nativeJson(v);
  else text = shortJson(v, JSON_PIECE);
  if (text === null) {
    const c = v as JsonObject | Node[];
    splitJson(c, level, st, plain || (parsedPlainMarked && parsedPlain.get(c)?.plain === true));
    return;
  }
  const written = st.each(text);
  // A few characters of punctuation stay with the value that follows them.
  if (st.cur.length + written.length > JSON_PIECE && st.cur.length > 64) {
    st.out.push(st.cur);
    st.cur = '';
  }
  st.cur += written;
}

/** The members or elements of `v`, each a piece or cut further, in `toJson`'s order and punctuation (see `mixedJson`). */
function splitJson(v: JsonObject | Node[], level: number, st: PieceState, plain: boolean): void {
  if (Array.isArray(v)) {
    st.cur += '[';
    for (let i = 0; i < v.length; i++) {
      if (i > 0) st.cur += ',';
      jsonPieces(v[i], level + 1, st, plain);
    }
    st.cur += ']';
    return;
  }
  st.cur += '{';
  let first = true;
  for (const k of Object.keys(v)) {
    if (!first) st.cur += ',';
    first = false;
    st.cur += quotedKeys.get(k) ?? jsonString(k) + ':';
    jsonPieces(v[k], level + 1, st, plain);
  }
  st.cur += '}';
}

/**
 * `toJson` of the container `v` as a slice of the text `parseJson` read it from, when its
 * mark `m` (`parsedPlain`) keeps that text and the tree still has the members the text has; else
 * null. Its own members and its objects' are counted: a key given twice in the text, which
 * `JSON.parse` keeps once, leaves one fewer (and, as the marks' caveat says, a tree changed
 * since is not the engine's to render). Counting walks the tree at 5-23% of the cost of
 * `JSON.stringify` of it (bench/README.md, "JSON as the text it was read from").
 */
function slicedJson(v: JsonObject | Node[], m: PlainMark): string | null {
  // An enumerable name on Object.prototype would be counted by for-in on every object.
  if (m.text === null || hasInheritedNames()) return null;
  if (subtreeMembers(v, !m.plain) !== m.members) return null;
  // One-byte when it can be, as the strings JSON.stringify makes (`narrowCut`).
  return narrowCut(m.text, m.text.slice(m.start, m.start + m.length));
}

/** Whether `Object.prototype` has an enumerable name, which for-in visits on every object. */
export function hasInheritedNames(): boolean {
  for (const _ in NO_NAMES) return true;
  return false;
}

const NO_NAMES = {};

/**
 * The members, counted by for-in, of every object in the tree `v` (marked trees nest less than
 * `PLAIN_MARK_MAX_DEPTH`). With `doubles`, the tree may hold `JDouble`s, numbers not counted into
 * (a plain one holds none, and is walked without asking).
 */
function subtreeMembers(v: JsonObject | Node[], doubles: boolean): number {
  let n = 0;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const e = v[i];
      if (typeof e === 'object' && e !== null && !(doubles && e instanceof JDouble)) n += subtreeMembers(e as JsonObject | Node[], doubles);
    }
    return n;
  }
  for (const k in v) {
    n++;
    const e = v[k];
    if (typeof e === 'object' && e !== null && !(doubles && e instanceof JDouble)) n += subtreeMembers(e as JsonObject | Node[], doubles);
  }
  return n;
}

/**
 * A `slicedJson` text given to `into`: whole up to `JSON_WHOLE`, else as pieces of at most
 * `JSON_PIECE` characters. A piece does not end between the two halves of a surrogate pair
 * (each piece is encoded on its own), nor between the `<` and `/` of a `</` (`json` escapes it
 * in each piece). One string when `into` pushed only one.
 */
function cutPieces(s: string, into: EachInto): string | string[] {
  const out: string[] = [];
  if (s.length <= JSON_WHOLE) into(s, out);
  else {
    for (let p = 0; p < s.length; ) {
      let q = p + JSON_PIECE;
      if (q >= s.length) q = s.length;
      else {
        const before = s.charCodeAt(q - 1);
        const after = s.charCodeAt(q);
        if ((before === 0x3c && after === 0x2f) || (before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff)) q--;
      }
      into(s.slice(p, q), out);
      p = q;
    }
  }
  return out.length === 1 ? out[0] : out;
}

/** Set by `plainJsonWithin`: false once it has seen a value `plainJson` refuses. */
let sizedPlain = true;

/**
 * What is left of `budget` after a rough count of the container `v`'s JSON characters (its
 * strings' lengths and a few for every other leaf and member), or -1 as soon as the count
 * goes over: the walk stops there, so it costs at most about `budget` characters' worth of
 * nodes. On the way it clears `sizedPlain` where `plainJson(v)` would be false.
 */
function plainJsonWithin(v: JsonObject | Node[], budget: number, depth: number): number {
  if (depth >= NATIVE_JSON_MAX_DEPTH) {
    sizedPlain = false;
    return budget - 8;
  }
  if (parsedPlainMarked) {
    const length = markedLength(v, depth);
    if (length >= 0) return budget < length ? -1 : budget - length;
  }
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      budget = plainLeafWithin(v[i], budget - 1, depth);
      if (budget < 0) return -1;
    }
  } else {
    // for-in, as `plainJson` walks.
    for (const k in v) {
      budget = plainLeafWithin(v[k], budget - k.length - 4, depth);
      if (budget < 0) return -1;
    }
  }
  return budget < 2 ? -1 : budget - 2;
}

function plainLeafWithin(e: Value, budget: number, depth: number): number {
  if (typeof e === 'string') return budget - e.length - 2;
  if (typeof e === 'object') {
    if (e === null) return budget - 4;
    if (e instanceof JDouble) sizedPlain = false;
    else return budget < 0 ? -1 : plainJsonWithin(e, budget, depth + 1);
  } else if (!plainScalar(e)) sizedPlain = false;
  return budget - 8;
}

/** The exact writer `toJson` falls back to, for every value (exported for the tests that compare the two). */
export function toJsonExact(v: Value): string {
  return writeJson(v);
}

function writeJson(v: Value): string {
  switch (typeof v) {
    case 'string':
      return jsonString(v);
    case 'number':
    case 'bigint':
      return jsonNumber(v);
    case 'boolean':
      return v ? 'true' : 'false';
    case 'object': {
      if (v === null) return 'null';
      if (v instanceof JDouble) return jsonNumber(v);
      if (Array.isArray(v)) {
        let s = '[';
        for (let i = 0; i < v.length; i++) {
          if (i > 0) s += ',';
          s += writeJson(v[i]);
        }
        return s + ']';
      }
      let s = '{';
      const names = Object.keys(v);
      for (let i = 0; i < names.length; i++) {
        const k = names[i];
        let key = quotedKeys.get(k);
        if (key === undefined) {
          key = jsonString(k) + ':';
          if (k.length <= QUOTED_KEY_MAX_LENGTH) {
            if (quotedKeys.size >= QUOTED_KEYS_MAX) quotedKeys.clear();
            quotedKeys.set(k, key);
          }
        }
        if (i > 0) s += ',';
        s += key;
        s += writeJson(v[k]);
      }
      return s + '}';
    }
    default:
      return 'null';
  }
}

/** Pretty JSON in the reference's layout: two-space indent, arrays inline `[ 1, 2 ]`. */
export function toJsonPretty(v: Value, indent = ''): string {
  if (Array.isArray(v)) {
    if (v.length === 0) return '[ ]';
    return '[ ' + v.map((e) => toJsonPretty(e, indent)).join(', ') + ' ]';
  }
  if (isObject(v)) {
    const keys = Object.keys(v);
    if (keys.length === 0) return '{ }';
    const inner = indent + '  ';
    return '{\n' + keys.map((k) => inner + jsonString(k) + ': ' + toJsonPretty(v[k], inner)).join(',\n') + '\n' + indent + '}';
  }
  return toJson(v);
}

// ---- parsing JSON text with number kinds kept ------------------------------------------

export class JsonSyntaxError extends Error {
  constructor(message: string, readonly offset: number) {
    super(message);
    this.name = 'JsonSyntaxError';
  }
}

const MAX_JSON_DEPTH = 2000;
const WIDE_CHAR = /[^\u0000-\u00ff]/;

/** True when `s` holds a character beyond Latin-1 (V8 then stores it, and every slice of it, two-byte). */
export function hasWideChar(s: string): boolean {
  return WIDE_CHAR.test(s);
}

/**
 * `part`, cut from `whole`, as a one-byte string when `whole` holds a character beyond Latin-1
 * and `part` does not: V8 keeps every slice of a two-byte string two-byte, and a page chunk
 * with one two-byte leaf flattens two bytes a character (engine/runtime.ts, `Runtime.chunks`).
 * The test returns at once on a one-byte `whole`; the copy is made by `latin1Copy` below.
 */
export function narrowCut(whole: string, part: string): string {
  return WIDE_CHAR.test(whole) ? narrowText(part) : part;
}

/**
 * The same text, one-byte when all its characters fit in Latin-1: for strings taken once out
 * of data that is stored two-byte (a locale pack's month names), so that the pages they are
 * printed into are not. Always a copy when it can be one.
 */
export function narrowText(s: string): string {
  return WIDE_CHAR.test(s) ? s : latin1Copy(s);
}

/**
 * A Buffer reused between calls (only where there is a `Buffer`): `get(bytes)` hands back one of
 * at least `bytes`, made anew when the kept one is smaller. One larger than `keep` bytes is let
 * go after its call, so one huge value does not hold megabytes for the process's life. Made
 * with `allocUnsafeSlow`, so it starts at offset 0 of its own memory (typed views are aligned).
 */
export class ScratchBuffer {
  private kept: Buffer | null = null;

  constructor(
    private readonly min = 4096,
    private readonly keep = 1 << 20,
  ) {}

  get(bytes: number): Buffer {
    let b = this.kept;
    if (b === null || b.length < bytes) {
      b = Buffer.allocUnsafeSlow(Math.max(bytes, this.min));
      this.hold(b);
    }
    return b;
  }

  /** Keeps `b` (a larger buffer a caller grew into) for the next call, if it is not too large. */
  hold(b: Buffer): void {
    if (b.length <= this.keep) this.kept = b;
  }
}

const latin1Scratch = new ScratchBuffer();

/**
 * A one-byte copy of `s`, whose characters all fit in Latin-1. Node's Latin-1 decoder makes a
 * one-byte string from the bytes; it is 6x faster than a trip through the native JSON
 * parser on a 5,000-character run (2.0 against 12.5 µs), which was 16% of compiling a
 * template with a `—` in its shared head (bench/profile.ts fresh-compile product-variants).
 * The JSON trip is kept where there is no `Buffer` (the engine imports nothing of Node's).
 */
const latin1Copy: (s: string) => string =
  typeof Buffer === 'function'
    ? (s) => {
        // Through one scratch buffer kept between calls: a Buffer made per call (every compile
        // of a source with a `—`) was ~2% of compiling the fresh pages (2026-11-29, bench:ab).
        const n = s.length;
        const b = latin1Scratch.get(n);
        b.write(s, 0, n, 'latin1');
        return b.toString('latin1', 0, n);
      }
    : (s) => JSON.parse(JSON.stringify(s)) as string;

/**
 * A one-byte string of `s`'s length whose characters are `s`'s wherever those fit in Latin-1,
 * and another character for each code unit that does not (a surrogate pair is two): the
 * parser cuts from it only ranges that hold no character beyond Latin-1, and scans it for its
 * tags and comments. Written as Latin-1, a unit comes out as its low byte (`—`, U+2014, as
 * U+0014), which is `{`, `}` or `#` for a few (`ⅻ` U+217B, `Ž` U+017D, `ģ` U+0123): for a text
 * holding one of those the caller asks for `wideAsY`, and every unit beyond Latin-1 is written
 * `ÿ`. (The parser, which walks those units anyway, knows; a `replace` pass over every text,
 * or a test of a class of the 765 such units, made compiling a page with a `—` 1–4% slower.)
 */
export function latin1Image(s: string, wideAsY: boolean): string {
  return latin1Copy(wideAsY ? s.replace(WIDE_UNITS, '\u00ff') : s);
}

/** Every code unit beyond Latin-1 (global: `replace` replaces them all). */
const WIDE_UNITS = /[^\u0000-\u00ff]/g;

/** V8 makes a slice of 13 characters or more a view into its parent (`i - start` counts the closing quote too). */
const SLICE_VIEW_MIN = 13;

/**
 * Parses JSON text keeping what `JSON.parse` loses: integral floats become `JDouble`,
 * integers beyond 2^53 become `bigint`. Throws `JsonSyntaxError` with an offset.
 *
 * The tree is `JSON.parse`'s, with the numbers it loses put back (`restoreNumbers`). Objects
 * built one keyed store at a time (`parseJsonWalk`) keep four members in the object and the rest
 * in a separate array, and from about 20 members V8 turns them into hash tables; `JSON.parse`
 * sizes each object to its members. Rendering four fresh pages from `JSON.parse`'s objects was
 * 0.99-1.09x as fast, and 1.14-1.53x once every object of 6 members or more carried 30 more
 * (as real page contexts do), in-process, 15 alternating pairs; over all twelve pages
 * (`bench:ab`, two runs) 1.01-1.09x, gallery 0.97-0.98 (bench/README.md, "Data as
 * `JSON.parse` builds it").
 *
 * The tree is the data as read, for rendering: `json` prints a container it marked from the
 * text it was read from (`parsedPlain`). A caller that means to change it and print it changed
 * changes a copy (`structuredClone` keeps no marks): a member added or removed is noticed, a
 * value changed in place is not.
 */
export function parseJson(text: string): Node {
  let tree: Node;
  try {
    tree = JSON.parse(text) as Node;
  } catch {
    tree = parseJsonWalk(text); // throws the JsonSyntaxError with its offset
    notedManyMembers(text, tree);
    return tree;
  }
  tree = restoreNumbers(text, tree);
  notedManyMembers(text, tree);
  return tree;
}

/** An object of more than `MANY_MEMBERS` members takes at least 6 characters a member (`"a":0,`). */
function notedManyMembers(text: string, tree: Node): void {
  if (text.length > MANY_MEMBERS * 6) noteManyMembers(tree);
}

/** A container of the text being restored, open at some depth (`restoreNumbers`); one per depth, reused. */
interface OpenContainer {
  isArray: boolean;
  /** Offset of its opening bracket. */
  start: number;
  /** Whether it holds a number `plainJson` refuses, or nests `PLAIN_MARK_MAX_DEPTH` deep: not plain (`PlainMark.plain`). */
  dirty: boolean;
  /** Whether its text is not its `toJson` text (`PlainMark.text`): space between tokens, an escape or number written otherwise. */
  raw: boolean;
  /** Members of the objects closed before it opened (`PlainMark.members`). */
  membersBefore: number;
  /** Members (keys counted) or elements seen so far. */
  count: number;
  /** The key of the member whose value comes next: its quote's offset, and one past its closing quote. */
  keyStart: number;
  keyEnd: number;
  /** Its object in the tree, once a number under it was put back or an object under it marked (null until then). */
  node: JsonObject | Node[] | null;
}

/** Marks the open containers dirty, innermost first, up to one already marked (all above it are). */
function dirtyOpen(open: OpenContainer[], depth: number): void {
  for (let d = depth - 1; d >= 0 && !open[d].dirty; d--) open[d].dirty = true;
}

/** Marks the open containers raw, as `dirtyOpen` marks them dirty. */
function rawOpen(open: OpenContainer[], depth: number): void {
  for (let d = depth - 1; d >= 0 && !open[d].raw; d--) open[d].raw = true;
}

/** The `parsedPlain` mark of the container `o` of `text`, closed at `end`. */
function plainMark(text: string, o: OpenContainer, end: number, members: number): PlainMark {
  return { length: end - o.start, plain: !o.dirty, text: o.raw ? null : text, start: o.start, members: members - o.membersBefore };
}

/**
 * Whether the key `text[from, to)` is an array index (`0`, or digits without a leading 0, up
 * to 2^32 - 2), which an object lists before its other names, in numeric order.
 */
function isIndexKey(text: string, from: number, to: number): boolean {
  if (to === from || to - from > 10 || (to - from > 1 && text.charCodeAt(from) === 0x30)) return false;
  for (let k = from; k < to; k++) {
    const d = text.charCodeAt(k);
    if (d < 0x30 || d > 0x39) return false;
  }
  return Number(text.slice(from, to)) < 2 ** 32 - 1;
}

/**
 * Reads the escapes of the string that ends at `end`, from its first backslash `at`: any but
 * the seven `jsonString` writes makes the open containers raw (`\/`, and every `\u`: Jackson
 * writes one only for a control character, in upper-case hex, which is not worth telling
 * apart). Returns the offset of the next backslash in the text, or its length. (Out of
 * `restoreNumbers`'s loop, where it cost ~2.5% of a parse.)
 */
function escapesIn(text: string, at: number, end: number, open: OpenContainer[], depth: number): number {
  while (at < end) {
    const e = text.charCodeAt(at + 1);
    // " \ b f n r t
    const written = e === 0x22 || e === 0x5c || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74;
    if (!written && depth > 0) rawOpen(open, depth);
    at = text.indexOf('\\', at + 2);
    if (at < 0) return text.length;
  }
  return at;
}

/**
 * One pass over the text `JSON.parse` read, outside its strings (each skipped with `indexOf`),
 * that finds the numbers `JSON.parse` gave another kind (`2.0`, `1e3`, integers beyond 2^53) and
 * writes them into `tree`. The containers above such a number are looked up from the tree only
 * then, one level at a time. A text nested deeper than `MAX_JSON_DEPTH`, or an object with a key
 * twice (whose first value `JSON.parse` dropped, so a path by key may not lead to the number),
 * goes to `parseJsonWalk`, which decides it exactly. On the way it notes the containers that
 * hold a number `plainJson` refuses and those whose text is not the one `toJson` writes, and
 * marks those `parsedPlain` keeps: the plain ones, and any whose text is `toJson`'s, with it.
 */
function restoreNumbers(text: string, tree: Node): Node {
  const n = text.length;
  const open: OpenContainer[] = [];
  let depth = 0; // open containers; open[depth - 1] is the innermost
  let root = tree;
  let i = 0;
  // Objects to mark `parsedPlain` (each, then its mark) once the whole text is read.
  const plain: (JsonObject | Node[] | PlainMark)[] = [];
  // The next backslash in the text, all of them in strings: an escape `toJson` writes
  // otherwise (`\u`, `\/`) makes its containers raw.
  let backslash = text.indexOf('\\');
  if (backslash < 0) backslash = n;
  let rootEnd = n;
  // Members of the objects closed so far (counted as each closes: fewer additions than one a key).
  let members = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      let j = text.indexOf('"', i + 1);
      for (;;) {
        let k = j - 1;
        while (text.charCodeAt(k) === 0x5c) k--;
        if ((j - 1 - k) % 2 === 0) break;
        j = text.indexOf('"', j + 1);
      }
      if (backslash < j) backslash = escapesIn(text, backslash, j, open, depth);
      if (depth > 0) {
        const top = open[depth - 1];
        if (!top.isArray && top.keyStart < 0) {
          top.keyStart = i;
          top.keyEnd = j + 1;
          top.count++;
          // Objects list names like `12` first, in numeric order.
          const k0 = text.charCodeAt(i + 1);
          if (k0 >= 0x30 && k0 <= 0x39 && !top.raw && isIndexKey(text, i + 1, j)) rawOpen(open, depth);
        }
      }
      i = j + 1;
    } else if (c === 0x7b || c === 0x5b) {
      if (depth === MAX_JSON_DEPTH) return parseJsonWalk(text); // it decides exactly how deep is too deep
      let o = open[depth];
      if (o === undefined) o = open[depth] = { isArray: false, start: 0, dirty: false, raw: false, membersBefore: 0, count: 0, keyStart: -1, keyEnd: -1, node: null };
      o.isArray = c === 0x5b;
      o.start = i;
      o.dirty = false;
      o.raw = false;
      o.membersBefore = members;
      o.count = 0;
      o.keyStart = -1;
      o.node = null;
      if (++depth === PLAIN_MARK_MAX_DEPTH) {
        dirtyOpen(open, depth);
        rawOpen(open, depth); // nor sliced: the member count walks the tree
      }
      i++;
    } else if (c === 0x7d || c === 0x5d) {
      const top = open[--depth];
      // A key given twice: JSON.parse kept the last value, so the path just followed may be wrong.
      if (top.node !== null && !top.isArray && Object.keys(top.node).length !== top.count) return parseJsonWalk(text);
      i++;
      if (!top.isArray) members += top.count;
      if (depth === 0) rootEnd = i;
      else if ((i - top.start >= PLAIN_MARK_MIN_LENGTH || (!top.isArray && top.count >= PLAIN_MARK_MIN_MEMBERS)) && !(top.dirty && top.raw)) notePlain(text, open, depth, tree, i, members, plain);
    } else if (c === 0x2c) {
      if (depth > 0) {
        const top = open[depth - 1];
        if (top.isArray) top.count++;
        else top.keyStart = -1;
      }
      i++;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      const start = i;
      if (c === 0x2d) i++;
      let digits = 0;
      let d = text.charCodeAt(i);
      while (d >= 0x30 && d <= 0x39) {
        digits++;
        d = text.charCodeAt(++i);
      }
      let special = false;
      if (d === 0x2e || d === 0x65 || d === 0x45) {
        // A float: a JDouble when its value is integral. Up to 14 significant digits and no
        // exponent, that is exactly when every fraction digit is 0; otherwise the value decides.
        let zeros = true;
        // Whether `plainScalar` may refuse it (outside 1e-3 <= |x| < 1e7, or an exponent):
        // more than 7 integer digits, or `0.000`.
        let outside = digits > 7 || (digits === 1 && text.charCodeAt(i + 1) === 0x30 && text.charCodeAt(i - 1) === 0x30 && text.charCodeAt(i + 2) === 0x30 && text.charCodeAt(i + 3) === 0x30);
        if (d === 0x2e) {
          d = text.charCodeAt(++i);
          while (d >= 0x30 && d <= 0x39) {
            digits++;
            if (d !== 0x30) zeros = false;
            d = text.charCodeAt(++i);
          }
        }
        if (d === 0x65 || d === 0x45) {
          zeros = false;
          outside = true;
          digits = 99;
          d = text.charCodeAt(++i);
          if (d === 0x2b || d === 0x2d) d = text.charCodeAt(++i);
          while (d >= 0x30 && d <= 0x39) d = text.charCodeAt(++i);
        }
        special = digits < 15 ? zeros : Number.isInteger(Number(text.slice(start, i)));
        if (special) {
          const x = new JDouble(Number(text.slice(start, i)));
          if (depth === 0) root = x;
          else if (!put(text, open, depth, tree, x)) return parseJsonWalk(text);
        }
        if ((special || outside) && depth > 0) {
          dirtyOpen(open, depth);
          // Java's digits, as `toJson` writes this number (a JDouble, or a double outside the
          // plain range): for an integral one under 1e7, its digits and `.0`.
          if (!open[depth - 1].raw && (outside ? javaDouble(Number(text.slice(start, i))) !== text.slice(start, i) : text.charCodeAt(i - 2) !== 0x2e || text.charCodeAt(i - 1) !== 0x30)) rawOpen(open, depth);
        }
        // JSON.stringify writes the shortest digits that read back as the same double: those
        // of a text of up to 14 digits, less a last fraction digit 0; past that, it is asked.
        else if (depth > 0 && !open[depth - 1].raw && (digits < 15 ? text.charCodeAt(i - 1) === 0x30 : String(Number(text.slice(start, i))) !== text.slice(start, i))) rawOpen(open, depth);
      } else if (c === 0x2d && digits === 1 && text.charCodeAt(i - 1) === 0x30) {
        if (depth > 0) rawOpen(open, depth); // -0 is written 0
      } else if (digits >= 16) {
        const t = text.slice(start, i);
        if (!Number.isSafeInteger(Number(t))) {
          if (depth > 0) dirtyOpen(open, depth);
          const x = BigInt(t);
          if (depth === 0) root = x;
          else if (!put(text, open, depth, tree, x)) return parseJsonWalk(text);
        }
      }
    } else if (c <= 0x20) {
      // Space between tokens: the text is not the one `toJson` writes.
      if (depth > 0 && !open[depth - 1].raw) rawOpen(open, depth);
      i++;
    } else i++;
  }
  // The root, read whole: `open[0]` was its container (the text may be a scalar).
  if (open.length > 0 && !(open[0].dirty && open[0].raw)) plain.push(tree as JsonObject | Node[], plainMark(text, open[0], rootEnd, members));
  if (plain.length > 0) {
    for (let k = 0; k < plain.length; k += 2) parsedPlain.set(plain[k] as JsonObject | Node[], plain[k + 1] as PlainMark);
    parsedPlainMarked = true;
  }
  return root;
}

/**
 * Keeps for `parsedPlain` the container that closed at `end` at `depth` (below the root, which
 * `restoreNumbers` marks once it has read the whole text; it has picked the container).
 */
function notePlain(text: string, open: OpenContainer[], depth: number, root: Node, end: number, members: number, plain: (JsonObject | Node[] | PlainMark)[]): void {
  const top = open[depth];
  // Looking it up caches the containers above it (`open[d].node`): a key given twice among
  // theirs then sends the text to `parseJsonWalk` when they close (`restoreNumbers`).
  const node = containerAt(text, open, depth + 1, root);
  if (node !== null) plain.push(node, plainMark(text, top, end, members));
}

/**
 * Writes `x` as the value now read in `open[depth - 1]`, looking up the containers on its path
 * first. False when the path does not lead to a container of the kind the text has there
 * (a key given twice dropped it).
 */
function put(text: string, open: OpenContainer[], depth: number, root: Node, x: Node): boolean {
  if (containerAt(text, open, depth, root) === null) return false;
  const top = open[depth - 1];
  if (top.isArray) (top.node as Node[])[top.count] = x;
  else {
    const k = keyOf(text, top);
    if (k === '__proto__') Object.defineProperty(top.node, k, { value: x, enumerable: true, writable: true, configurable: true });
    else (top.node as JsonObject)[k] = x;
  }
  return true;
}

/**
 * The container now read in `open[depth - 1]`, looked up from the tree one level at a time
 * from the nearest one already known, and kept in `open[d].node` for every level; null when
 * the path does not lead to a container of the kind the text has there (a key given twice).
 */
function containerAt(text: string, open: OpenContainer[], depth: number, root: Node): JsonObject | Node[] | null {
  let d = 0;
  while (d < depth && open[d].node !== null) d++;
  let node: Value = d === 0 ? root : open[d - 1].node!;
  for (; d < depth; d++) {
    if (d > 0) node = at(text, open[d - 1], node as JsonObject | Node[]);
    if (typeof node !== 'object' || node === null || node instanceof JDouble || Array.isArray(node) !== open[d].isArray) return null;
    open[d].node = node;
  }
  return open[depth - 1].node;
}

/** The value in `node` (the container `o`) of the member or element now being read. */
function at(text: string, o: OpenContainer, node: JsonObject | Node[]): Value {
  if (o.isArray) return (node as Node[])[o.count];
  const k = keyOf(text, o);
  return Object.prototype.hasOwnProperty.call(node, k) ? (node as JsonObject)[k] : undefined;
}

function keyOf(text: string, o: OpenContainer): string {
  const k = text.slice(o.keyStart + 1, o.keyEnd - 1);
  return k.includes('\\') ? (JSON.parse(text.slice(o.keyStart, o.keyEnd)) as string) : k;
}

/**
 * The JSON parser of record, one value at a time: the errors' offsets, texts nested deeper
 * than `MAX_JSON_DEPTH`, objects with a key given twice, and the oracle of `parseJson`'s tests.
 */
export function parseJsonWalk(text: string): Node {
  let i = 0;
  const n = text.length;
  const fail = (msg: string): never => {
    throw new JsonSyntaxError(`${msg} at offset ${i}`, i);
  };
  const ws = () => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else break;
    }
  };
  // A text with one character beyond Latin-1 is stored two bytes a character, and so is every
  // slice of it, "abc" included: each page chunk a value from it is printed into then
  // flattens two-byte, twice the copy and a slower UTF-8 encoding (engine/runtime.ts,
  // `Runtime.chunks`). In such a text every string is read by the native parser, which makes
  // a one-byte string whenever its characters fit. (The test stops at once on a one-byte text.)
  const wide = hasWideChar(text);
  const str = (): string => {
    const quote = i;
    i++; // opening quote
    let out = '';
    let start = i;
    for (;;) {
      if (i >= n) fail('Unterminated string');
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        // A string without escapes is a slice of the text; from 13 characters on, V8 makes
        // that a view into the whole text (which it then keeps alive), and `JSON.stringify`
        // writes such views ~10% slower than flat strings (a page's `{@|json}`). The native
        // parser of the same quoted run gives the same string, flat.
        if (wide || (out === '' && i - start > SLICE_VIEW_MIN)) return JSON.parse(text.slice(quote, i)) as string;
        return out + text.slice(start, i - 1);
      }
      if (c < 0x20) fail('Control character in string');
      if (c === 0x5c) {
        out += text.slice(start, i);
        const e = text[i + 1];
        i += 2;
        switch (e) {
          case '"': out += '"'; break;
          case '\\': out += '\\'; break;
          case '/': out += '/'; break;
          case 'b': out += '\b'; break;
          case 'f': out += '\f'; break;
          case 'n': out += '\n'; break;
          case 'r': out += '\r'; break;
          case 't': out += '\t'; break;
          case 'u': {
            const h = text.slice(i, i + 4);
            if (!/^[0-9a-fA-F]{4}$/.test(h)) fail('Bad unicode escape');
            out += String.fromCharCode(parseInt(h, 16));
            i += 4;
            break;
          }
          default:
            i -= 1;
            fail('Bad escape');
        }
        start = i;
      } else i++;
    }
  };
  const num = (): Node => {
    const start = i;
    if (text[i] === '-') i++;
    if (text[i] === '0') i++;
    else if (text[i] >= '1' && text[i] <= '9') while (text[i] >= '0' && text[i] <= '9') i++;
    else fail('Bad number');
    let isFloat = false;
    if (text[i] === '.') {
      isFloat = true;
      i++;
      if (!(text[i] >= '0' && text[i] <= '9')) fail('Bad number');
      while (text[i] >= '0' && text[i] <= '9') i++;
    }
    if (text[i] === 'e' || text[i] === 'E') {
      isFloat = true;
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      if (!(text[i] >= '0' && text[i] <= '9')) fail('Bad number');
      while (text[i] >= '0' && text[i] <= '9') i++;
    }
    const s = text.slice(start, i);
    const x = Number(s);
    if (isFloat) return Number.isInteger(x) ? new JDouble(x) : x;
    if (Number.isSafeInteger(x)) return x;
    return BigInt(s);
  };
  const value = (depth: number): Node => {
    if (depth > MAX_JSON_DEPTH) fail('Nesting too deep');
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const obj: JsonObject = {};
      ws();
      if (text[i] === '}') {
        i++;
        return obj;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail('Expected a string key');
        const k = str();
        ws();
        if (text[i] !== ':') fail("Expected ':'");
        i++;
        const v = value(depth + 1);
        if (k === '__proto__') Object.defineProperty(obj, k, { value: v, enumerable: true, writable: true, configurable: true });
        else obj[k] = v;
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return obj;
        }
        fail("Expected ',' or '}'");
      }
    }
    if (c === '[') {
      i++;
      const arr: Node[] = [];
      ws();
      if (text[i] === ']') {
        i++;
        return arr;
      }
      for (;;) {
        arr.push(value(depth + 1));
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return arr;
        }
        fail("Expected ',' or ']'");
      }
    }
    if (c === '"') return str();
    if (c === '-' || (c >= '0' && c <= '9')) return num();
    if (text.startsWith('true', i)) {
      i += 4;
      return true;
    }
    if (text.startsWith('false', i)) {
      i += 5;
      return false;
    }
    if (text.startsWith('null', i)) {
      i += 4;
      return null;
    }
    return fail(i >= n ? 'Unexpected end of input' : 'Unexpected character');
  };
  const v = value(0);
  ws();
  if (i < n) fail('Unexpected trailing characters');
  return v;
}

/** `parseJson`, returning missing instead of throwing. */
export function tryParseJson(text: string): Value {
  try {
    return parseJson(text);
  } catch {
    return undefined;
  }
}
