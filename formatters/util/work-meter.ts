// Test support: counts the work a piece of code does, deterministically, so tests can check
// that a formatter or predicate grows linearly with its input without a stopwatch (the suite
// must pass on a machine whose cores are busy). Not imported by production code.
//
// The method: while `measureWork` runs its function, the built-ins through which JavaScript
// touches text and arrays are wrapped, and each call is charged the number of characters or
// elements it reads or writes:
//   - `charCodeAt`, `charAt`, `codePointAt`, `at`: 1 (a hand-written scanning loop pays one
//     step per character it looks at, so nested rescans show up);
//   - `indexOf`/`includes`/`lastIndexOf`: the distance searched; `slice`/`substring`/`repeat`/
//     `padStart`…: the length copied; `split`/`trim`/`toUpperCase`/`replace` with a string…:
//     the length of the text; the Array methods that walk an array (`includes`, `indexOf`,
//     `join`, `map`, `filter`, `some`, …): its length; `Object.keys`/`values`/`entries`, `JSON.*`:
//     the size of what they produce or read;
//   - `RegExp.prototype.exec` (which `test`, `match`, `replace`, `split` and `search` go
//     through once it is wrapped): the stretch it searched for a vetted pattern (VETTED_REGEXPS,
//     each with the reason it is linear); any other pattern is charged stretch × rest of the
//     text, the cost of a backtracking loop retried from every start position. V8's backtracking
//     cannot be observed from JavaScript, so a pattern nobody has vetted is assumed to be as
//     slow as `/<[^>]*>/g` on `<<<<…` really is. (V8's own backtrack counter, behind
//     `--regexp-backtracks-before-fallback`, cannot tell either: it counts about one backtrack
//     per start position for a character-class loop, quadratic or not.)
// Library code (the CLDR engine) is metered the same way, since it calls the same built-ins.
// Objects and arrays of the input data are seen through `meteredData`: a proxy charges 1 for
// every member read or tested and 1 per key listed, so a loop over one list nested in a loop
// over another is counted even when it only reads members.
// What is not seen: string concatenation (V8 ropes, O(1) each), `s[i]` indexing and reads of
// objects the code built itself, all constant-time. Work that is only concatenation therefore
// counts as zero, which errs on the side of passing; every scan that could be repeated goes
// through a metered call.

/** Patterns known to run in time linear in the text, with the reason. */
export const VETTED_REGEXPS: ReadonlyMap<string, string> = new Map([
  // engine/value.ts asLong / asDouble on string values
  ['/^[+-]?\\d+$/', 'anchored; one digit loop followed only by the end: each backtrack step fails at once'],
  [
    '/^[+-]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE][+-]?\\d+)?$/',
    'anchored; integer, fraction and exponent digit loops are separated by a required `.` or `e`, so no two loops can share a digit and every backtrack step fails at once',
  ],
  // formatters/core.ts smartypants
  [String.raw`/(?<=^|[-\u2014 \t\n\x0B\f\r(\["])'/g`, 'a one-character lookbehind and one character: constant per start position'],
  [String.raw`/(?<=^|[-\u2014/\[(\u2018 \t\n\x0B\f\r])"/g`, 'a one-character lookbehind and one character: constant per start position'],
  ["/'/g", 'one character: constant per start position'],
  ['/"/g', 'one character: constant per start position'],
  ['/--/g', 'two characters: constant per start position'],
  // formatters/social.ts activate-twitter-links
  [
    String.raw`/\b(?:https?|ftp|file):\/\/[-A-Z0-9+&@#/%?=~_|!:,.;]*[-A-Z0-9+&@#/%=~_|]/gi`,
    'the one loop runs only after a literal scheme and `://`; an attempt that fails scans a run with no letter, so no other attempt starts inside it, and after a match the search resumes inside a run with no letter either: every character is scanned at most twice',
  ],
  [String.raw`/(^| )@([a-zA-Z0-9_]+)/g`, 'the one loop ends the pattern, so it never gives characters back; after a match the search resumes past it'],
  [String.raw`/(^| )#([a-zA-Z0-9_]+)/g`, 'the one loop ends the pattern, so it never gives characters back; after a match the search resumes past it'],
  // formatters/content.ts color-weight
  ['/^[0-9a-fA-F]{3,6}$/', 'anchored, bounded: at most 7 characters are looked at'],
  // engine/value.ts narrowCut (truncate): is any character beyond Latin-1
  ['/[^\\u0000-\\u00ff]/', 'one character class, no loop: constant per start position'],
  // formatters/core.ts encode-space and line-breaks
  [String.raw`/[\t\n\v\f\r ]/g`, 'one character class, no loop: constant per start position'],
  [String.raw`/\n/g`, 'one character: constant per start position'],
  // formatters/util/uri-encode.ts formEncode: the characters encodeURIComponent keeps and URLEncoder does not
  ["/[!'()~]/", 'one character class, no loop: constant per start position'],
  ["/[!'()~]/g", 'one character class, no loop: constant per start position'],
  // formatters/util/decimal.ts badDecimal: one character at a time
  ['/[0-9.+\\-eE]/', 'one character class, no loop: constant per start position'],
]);

/** The cost of one metered call, given its receiver, arguments and result. */
type Cost = (self: any, args: any[], result: any) => number;

interface Patch {
  readonly target: any;
  readonly name: string | symbol;
  readonly cost: Cost;
}

const len = (x: unknown): number => (typeof x === 'string' || Array.isArray(x) ? x.length : 0);
const str = (x: unknown): string => (typeof x === 'string' ? x : String(x));
const one: Cost = () => 1;
const selfLength: Cost = (self) => str(self).length + 1;
const resultLength: Cost = (_self, _args, result) => len(result) + 1;

function fromIndex(arg: unknown, length: number): number {
  const n = Math.trunc(Number(arg ?? 0)) || 0;
  return n < 0 ? Math.max(0, length + n) : Math.min(n, length);
}

/** `indexOf(x, from)` on a string or an array: the stretch searched. */
const searchForward: Cost = (self, args, result) => {
  const s = typeof self === 'string' || Array.isArray(self) ? self : str(self);
  const from = fromIndex(args[1], s.length);
  const found = typeof result === 'number' ? result : -1;
  return (found >= 0 ? found - from + len(args[0]) : s.length - from) + 1;
};

const searchBackward: Cost = (self, args, result) => {
  const s = typeof self === 'string' || Array.isArray(self) ? self : str(self);
  const from = args[1] === undefined ? s.length : fromIndex(args[1], s.length);
  return (result >= 0 ? from - result : from) + 1;
};

/** `includes` / `startsWith` / `endsWith` of strings and `includes` of arrays. */
const includesCost: Cost = (self, args) => {
  const s = typeof self === 'string' || Array.isArray(self) ? self : str(self);
  return s.length - fromIndex(args[1], s.length) + 1;
};

/**
 * The work of one `exec` that started at `from`: the stretch searched, times the rest of the
 * text when the pattern is not vetted.
 */
function execCost(re: RegExp, s: string, from: number, match: RegExpExecArray | null): number {
  const end = match ? match.index + match[0].length : s.length;
  const stretch = Math.max(0, end - from) + 1;
  return VETTED_REGEXPS.has(String(re)) ? stretch : stretch * (s.length - from + 1);
}

const STRING_PATCHES: [string, Cost][] = [
  ['charCodeAt', one],
  ['charAt', one],
  ['codePointAt', one],
  ['at', one],
  ['indexOf', searchForward],
  ['lastIndexOf', searchBackward],
  ['includes', includesCost],
  ['startsWith', (_s, args) => len(args[0]) + 1],
  ['endsWith', (_s, args) => len(args[0]) + 1],
  ['slice', resultLength],
  ['substring', resultLength],
  ['substr', resultLength],
  ['repeat', resultLength],
  ['padStart', resultLength],
  ['padEnd', resultLength],
  ['concat', resultLength],
  ['split', (self, _args, result) => str(self).length + len(result) + 1],
  ['replace', (self, _args, result) => str(self).length + len(result) + 1],
  ['replaceAll', (self, _args, result) => str(self).length + len(result) + 1],
  ['match', selfLength],
  ['matchAll', selfLength],
  ['search', selfLength],
  ['trim', selfLength],
  ['trimStart', selfLength],
  ['trimEnd', selfLength],
  ['toUpperCase', selfLength],
  ['toLowerCase', selfLength],
  ['toLocaleUpperCase', selfLength],
  ['toLocaleLowerCase', selfLength],
  ['normalize', selfLength],
  ['localeCompare', (self, args) => str(self).length + len(args[0]) + 1],
  [Symbol.iterator as unknown as string, selfLength],
];

const ARRAY_PATCHES: [string, Cost][] = [
  ['includes', includesCost],
  ['indexOf', searchForward],
  ['lastIndexOf', searchBackward],
  ['join', (self, _args, result) => len(self) + len(result) + 1],
  ['slice', resultLength],
  ['concat', resultLength],
  ['splice', (self) => len(self) + 1],
  ['map', (self) => len(self) + 1],
  ['filter', (self) => len(self) + 1],
  ['some', (self) => len(self) + 1],
  ['every', (self) => len(self) + 1],
  ['find', (self) => len(self) + 1],
  ['findIndex', (self) => len(self) + 1],
  ['findLast', (self) => len(self) + 1],
  ['forEach', (self) => len(self) + 1],
  ['reduce', (self) => len(self) + 1],
  ['flatMap', (self) => len(self) + 1],
  ['flat', (_self, _args, result) => len(result) + 1],
  ['reverse', (self) => len(self) + 1],
  ['sort', (self) => {
    const n = len(self);
    return n * Math.max(1, Math.ceil(Math.log2(n + 1))) + 1;
  }],
  ['push', (_self, args) => args.length],
  ['unshift', (self, args) => len(self) + args.length],
  ['shift', (self) => len(self) + 1],
];

function patches(): Patch[] {
  const out: Patch[] = [];
  for (const [name, cost] of STRING_PATCHES) out.push({ target: String.prototype, name, cost });
  for (const [name, cost] of ARRAY_PATCHES) out.push({ target: Array.prototype, name, cost });
  const keysCost: Cost = (_self, _args, result) => len(result) + 1;
  for (const name of ['keys', 'values', 'entries']) out.push({ target: Object, name, cost: keysCost });
  out.push({ target: JSON, name: 'stringify', cost: resultLength });
  out.push({ target: JSON, name: 'parse', cost: (_self, args) => len(args[0]) + 1 });
  return out;
}

export interface WorkReport<T> {
  readonly result: T;
  /** Metered steps (see the header). */
  readonly steps: number;
  /** Regex patterns that ran without being vetted, each with the largest text it scanned. */
  readonly unvetted: ReadonlyMap<string, number>;
}

let active = false;
/** Steps charged by the data proxies; added to the running measurement. */
let dataSteps = 0;

/**
 * A deep copy of plain JSON data (objects and arrays) behind proxies that charge every member
 * read, membership test and key listing to the measurement running at the time.
 */
export function meteredData<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  const proto = Object.getPrototypeOf(value);
  if (!Array.isArray(value) && proto !== Object.prototype && proto !== null) return value;
  const copy: any = Array.isArray(value) ? [] : {};
  for (const k of Object.keys(value)) copy[k] = meteredData((value as any)[k]);
  return new Proxy(copy, {
    get(target, key, receiver) {
      if (active) dataSteps++;
      return Reflect.get(target, key, receiver);
    },
    has(target, key) {
      if (active) dataSteps++;
      return Reflect.has(target, key);
    },
    getOwnPropertyDescriptor(target, key) {
      if (active) dataSteps++;
      return Reflect.getOwnPropertyDescriptor(target, key);
    },
    ownKeys(target) {
      const keys = Reflect.ownKeys(target);
      if (active) dataSteps += keys.length + 1;
      return keys;
    },
  });
}

/** Runs `fn` with the built-ins metered; not re-entrant. */
export function measureWork<T>(fn: () => T): WorkReport<T> {
  if (active) throw new Error('measureWork is not re-entrant');
  let steps = 0;
  const unvetted = new Map<string, number>();
  const saved: { target: any; name: string | symbol; original: any }[] = [];
  for (const p of patches()) {
    const original = p.target[p.name];
    if (typeof original !== 'function') continue;
    saved.push({ target: p.target, name: p.name, original });
    const cost = p.cost;
    const wrapper = function (this: unknown, ...args: unknown[]): unknown {
      const result = original.apply(this, args);
      steps += cost(this, args, result);
      return result;
    };
    Object.defineProperty(p.target, p.name, { value: wrapper, writable: true, configurable: true, enumerable: false });
  }
  const exec = RegExp.prototype.exec;
  saved.push({ target: RegExp.prototype, name: 'exec', original: exec });
  Object.defineProperty(RegExp.prototype, 'exec', {
    value: function (this: RegExp, text: unknown): RegExpExecArray | null {
      const s = typeof text === 'string' ? text : String(text);
      const start = this.global || this.sticky ? Math.min(this.lastIndex, s.length) : 0;
      const match = exec.call(this, s);
      steps += execCost(this, s, start, match);
      const key = String(this);
      if (!VETTED_REGEXPS.has(key)) unvetted.set(key, Math.max(unvetted.get(key) ?? 0, s.length - start));
      return match;
    },
    writable: true,
    configurable: true,
    enumerable: false,
  });
  active = true;
  dataSteps = 0;
  try {
    const result = fn();
    return { result, steps: steps + dataSteps, unvetted };
  } finally {
    active = false;
    for (let i = saved.length - 1; i >= 0; i--) {
      const { target, name, original } = saved[i];
      Object.defineProperty(target, name, { value: original, writable: true, configurable: true, enumerable: false });
    }
  }
}
