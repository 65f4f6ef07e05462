// Core formatters (PLUGINS §2, §19; LANGUAGE App. C). `date` lives in date.ts.
// Everything that depends only on the arguments (numbers, references, paths) is worked
// out in `bind`, so `apply` does no parsing on the render path.
import {
  ArgsError,
  JDouble,
  JavaError,
  asDouble,
  asLong,
  expectArgs,
  isObject,
  isTruthy,
  member,
  narrowCut,
  textOf,
  textOrEmpty,
  toJson,
  toJsonPieces,
  type BindContext,
  type FormatterSpec,
  type JsonObject,
  type PluginContext,
  type Ref,
  type Value,
} from '../engine/plugin-api.ts';
import { classSlug } from './util/class-slug.ts';
import { escapeHtmlAttr, escapeHtmlText } from './util/escape-html.ts';
import { isJavaWhitespace, parseJavaInt } from './util/java-text.ts';
import { sizeOf } from './util/size-of.ts';
import { escapeScriptClose, escapeScriptCloseInto, jsonAttrPieces, prettyJsonPieces, toJsonAttr, toPrettyJson } from './util/json-text.ts';
import { parseNodePath, walkNodePath, type NodePath } from './util/node-path.ts';
import { encodeUriComponentReference, encodeUriReference, formUrlEncode } from './util/uri-encode.ts';

// ---- apply ----------------------------------------------------------------------------

interface ApplyArgs {
  readonly name: string;
  readonly isPrivate: boolean;
  /** The `@args` object; undefined for a bare `apply NAME` (LANGUAGE §6.2). Read-only. */
  readonly args: { [key: string]: string } | undefined;
}

const apply: FormatterSpec<ApplyArgs> = {
  name: 'apply',
  requiresArgs: true,
  bind(args) {
    expectArgs(args, 1, Infinity);
    let isPrivate = false;
    let pairs: { [key: string]: string } | undefined;
    if (args.length > 1) {
      pairs = {};
      for (let i = 1; i < args.length; i++) {
        const a = args[i];
        if (a === 'private') {
          isPrivate = true;
          continue;
        }
        const eq = a.indexOf('=');
        if (eq < 0) continue;
        // defineProperty: a key such as `__proto__` must become a plain member.
        Object.defineProperty(pairs, a.slice(0, eq), {
          value: a.slice(eq + 1),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
    }
    return { name: args[0], isPrivate, args: pairs };
  },
  apply(value, b, ctx) {
    return ctx.applyPartial(b.name, value, b.isPrivate, b.args);
  },
  // Last in its chain, the partial's output goes to the page in the page's own chunks.
  pieces(value, b, ctx) {
    return ctx.applyPartialPieces(b.name, value, b.isPrivate, b.args) ?? '';
  },
};

// ---- simple text transforms -----------------------------------------------------------

const count: FormatterSpec = {
  name: 'count',
  pure: true,
  apply(value, _b, ctx) {
    return typeof value === 'string' ? value.length : sizeOf(value, ctx);
  },
};

const cycle: FormatterSpec<readonly string[]> = {
  name: 'cycle',
  pure: true,
  requiresArgs: true,
  bind(args) {
    expectArgs(args, 1, Infinity);
    return args.slice();
  },
  apply(value, choices) {
    const n = choices.length;
    const r = (asLong(value) - 1) % n;
    return choices[r < 0 ? r + n : r];
  },
};

/** The characters of a Java regex `\s` (no Unicode flag): space, TAB, LF, VT, FF, CR. */
const JAVA_SPACE = /[\t\n\v\f\r ]/g;

const encodeSpace: FormatterSpec = {
  name: 'encode-space',
  pure: true,
  apply(value) {
    // Java's `\s` (ASCII only) as a class: a native replace, 1.3x as fast as a loop of
    // slices on a 2 KB text (bench/README.md, "Long texts through the text formatters").
    return textOf(value).replace(JAVA_SPACE, '&nbsp;');
  },
};

// An unpaired surrogate makes the reference's encoder give up; the result is empty text.
const encodeUri: FormatterSpec = {
  name: 'encode-uri',
  pure: true,
  apply(value) {
    return encodeUriReference(textOf(value)) ?? '';
  },
};

const encodeUriComponent: FormatterSpec = {
  name: 'encode-uri-component',
  pure: true,
  apply(value) {
    return encodeUriComponentReference(textOf(value)) ?? '';
  },
};

const urlEncode: FormatterSpec = {
  name: 'url-encode',
  pure: true,
  apply(value) {
    return formUrlEncode(textOf(value));
  },
};

const html: FormatterSpec = {
  name: 'html',
  pure: true,
  apply(value) {
    return escapeHtmlText(textOrEmpty(value));
  },
};

const htmlattr: FormatterSpec = {
  name: 'htmlattr',
  pure: true,
  apply(value) {
    return escapeHtmlAttr(textOrEmpty(value));
  },
};

const htmltag: FormatterSpec = { name: 'htmltag', pure: true, apply: htmlattr.apply };

const NEWLINE = /\n/g;

const lineBreaks: FormatterSpec = {
  name: 'line-breaks',
  pure: true,
  apply(value) {
    // A native replace: splitting and joining again was 1.3-1.7x as long on a 2 KB text.
    return textOrEmpty(value).replace(NEWLINE, '<br/>');
  },
};

const output: FormatterSpec<string> = {
  name: 'output',
  pure: true,
  bind(args) {
    return args.join(' ');
  },
  apply(_value, text) {
    return text;
  },
};

const str: FormatterSpec = {
  name: 'str',
  pure: true,
  apply(value) {
    return textOrEmpty(value);
  },
};

// Tags are `<` up to the nearest `>`, across lines (the reference's lazy `<.*?>` with DOTALL).
// Scanned by hand: the pattern `/<[^>]*>/g` searched to the end of the text from every `<`
// that has no `>` after it, quadratic on `<<<<…` (issue 13). Once no `>` follows, no later
// `<` can start a tag either, so the rest of the text is kept as it is.
function removeTagSpans(s: string): string {
  let lt = s.indexOf('<');
  if (lt < 0) return s;
  let out = '';
  let start = 0;
  while (lt >= 0) {
    const gt = s.indexOf('>', lt + 1);
    if (gt < 0) break;
    out += s.slice(start, lt);
    start = gt + 1;
    lt = s.indexOf('<', start);
  }
  return start === 0 ? s : out + s.slice(start);
}

const safe: FormatterSpec = {
  name: 'safe',
  pure: true,
  apply(value) {
    if (!isTruthy(value)) return value;
    return removeTagSpans(textOf(value));
  },
};

// The reference drops `[^A-Za-z0-9\s-]`, turns `\s+` into `-` and lower-cases (Java's `\s`
// without the Unicode flag): exactly classSlug, one pass with no pattern to backtrack.
const slugify: FormatterSpec = {
  name: 'slugify',
  pure: true,
  apply(value) {
    return classSlug(textOrEmpty(value));
  },
};

// PLUGINS §2 `smartypants`, in its order: (1) `'` after the start of the whole text, `-`, `—`,
// whitespace, `(`, `[` or `"` is `‘`; (2) every other `'` is `’`; (3) `"` after the start, `-`,
// `—`, `/`, `[`, `(`, `‘` or whitespace is `“`; (4) every other `"` is `”`; (5) `--` is `—`.
// Each step reads the text the steps before it left, so one pass does all five: step 1 reads
// the text as given, step 3 the text after steps 1-2 (a `'` before a `"` already turned), and
// no step makes or removes a `-`. (The reference's patterns consume the character before the
// quote; no quote is in its own step's context, so no match needs what another consumed.)
// Five regex passes, each a new string, were barely faster than the port's (formatter sweep
// 1.22x, 2026-11-29); a property test in core.test.ts holds the pass to them.

/** Step 1's opening context: `-`, `—`, whitespace (Java's, ASCII), `(`, `[`, `"`. */
function opensSingle(c: number): boolean {
  return c === 0x2d || c === 0x2014 || c === 0x20 || (c >= 0x09 && c <= 0x0d) || c === 0x28 || c === 0x5b || c === 0x22;
}

/** Step 3's opening context: `-`, `—`, `/`, `[`, `(`, `‘`, whitespace. */
function opensDouble(c: number): boolean {
  return c === 0x2d || c === 0x2014 || c === 0x2f || c === 0x5b || c === 0x28 || c === 0x2018 || c === 0x20 || (c >= 0x09 && c <= 0x0d);
}

/** The quote steps 1-2 make of the `'` at `i`. */
function singleAt(s: string, i: number): string {
  return i === 0 || opensSingle(s.charCodeAt(i - 1)) ? '\u2018' : '\u2019';
}

function smartQuotes(s: string): string {
  let out = '';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let r: string;
    if (c === 0x27) r = singleAt(s, i);
    else if (c === 0x22) {
      const p = i === 0 ? -1 : s.charCodeAt(i - 1);
      const before = p === 0x27 ? singleAt(s, i - 1).charCodeAt(0) : p;
      r = before === -1 || opensDouble(before) ? '\u201c' : '\u201d';
    } else if (c === 0x2d && s.charCodeAt(i + 1) === 0x2d) {
      out += s.slice(start, i) + '\u2014';
      start = ++i + 1;
      continue;
    } else continue;
    out += s.slice(start, i) + r;
    start = i + 1;
  }
  return start === 0 ? s : out + s.slice(start);
}

const smartypants: FormatterSpec = {
  name: 'smartypants',
  pure: true,
  apply(value) {
    const s = textOrEmpty(value);
    // Most texts have none of the three: no pass, no copy.
    return s.indexOf("'") < 0 && s.indexOf('"') < 0 && s.indexOf('--') < 0 ? s : smartQuotes(s);
  },
};

// ---- JSON -----------------------------------------------------------------------------

// `{x|json|htmlattr}` is how templates put data into an attribute for a script to read.
const jsonAttr: FormatterSpec = {
  name: 'json|htmlattr',
  pure: true,
  apply(value) {
    return value === undefined ? '' : toJsonAttr(value);
  },
  pieces(value) {
    return value === undefined ? '' : jsonAttrPieces(value);
  },
};

const json: FormatterSpec = {
  name: 'json',
  pure: true,
  apply(value) {
    return value === undefined ? '' : escapeScriptClose(toJson(value));
  },
  // `</` is escaped in each value's text as it is written: no `</` spans two values. A text
  // sliced from the parsed text is escaped into pieces that leave its long stretches uncopied.
  pieces(value) {
    return value === undefined ? '' : toJsonPieces(value, escapeScriptClose, escapeScriptCloseInto);
  },
  pieceViews: true,
  fuse(next) {
    return next === htmlattr || next === htmltag ? jsonAttr : undefined;
  },
};

const jsonPretty: FormatterSpec = {
  name: 'json-pretty',
  pure: true,
  apply(value) {
    return toPrettyJson(value, true);
  },
  pieces(value) {
    return prettyJsonPieces(value, true);
  },
};

const raw: FormatterSpec = {
  name: 'raw',
  pure: true,
  apply(value) {
    return value === undefined ? '' : toJson(value);
  },
  pieces(value) {
    return value === undefined ? '' : toJsonPieces(value);
  },
};

// ---- numbers --------------------------------------------------------------------------

const mod: FormatterSpec<number> = {
  name: 'mod',
  pure: true,
  bind(args) {
    const d = args.length > 0 ? parseJavaInt(args[0]) : null;
    return d ?? 2;
  },
  apply(value, divisor) {
    if (divisor === 0) throw new JavaError('ArithmeticException', '/ by zero');
    const r = asLong(value) % divisor;
    return r === 0 ? 0 : r;
  },
};

const LONG_MAX = 9223372036854775807n;
const LONG_MIN = -9223372036854775808n;
const TWO_63 = 9223372036854775808;

const round: FormatterSpec = {
  name: 'round',
  pure: true,
  apply(value) {
    // Java Math.round(double): halves toward +∞, NaN → 0, saturating at the long range.
    const x = asDouble(value);
    if (x !== x) return 0;
    if (x >= TWO_63) return LONG_MAX;
    if (x < -TWO_63) return LONG_MIN;
    const r = Math.round(x);
    if (r === 0) return 0;
    return Number.isSafeInteger(r) ? r : BigInt(r);
  },
};

interface PluralForms {
  readonly singular: string;
  readonly plural: string;
}

const pluralize: FormatterSpec<PluralForms> = {
  name: 'pluralize',
  pure: true,
  bind(args) {
    expectArgs(args, 0, 2);
    if (args.length === 0) return { singular: '', plural: 's' };
    if (args.length === 1) return { singular: '', plural: args[0] };
    return { singular: args[0], plural: args[1] };
  },
  apply(value, forms) {
    return asLong(value) === 1 ? forms.singular : forms.plural;
  },
};

interface TruncateArgs {
  readonly max: number;
  readonly ellipsis: string;
}

const truncate: FormatterSpec<TruncateArgs> = {
  name: 'truncate',
  pure: true,
  bind(args) {
    let max = 100;
    if (args.length > 0) {
      const n = parseJavaInt(args[0]);
      if (n === null) throw new ArgsError(`bad value for length '${args[0]}'`);
      max = n;
    }
    return { max, ellipsis: args.length > 1 ? args[1] : '...' };
  },
  apply(value, b) {
    const s = textOf(value);
    if (s.length <= b.max) return s;
    let end = b.max;
    for (let i = b.max - 1; i >= 0; i--) {
      if (isJavaWhitespace(s.charCodeAt(i))) {
        end = i + 1;
        break;
      }
    }
    if (end < 0) {
      // Java's String.substring(0, end) with a negative end (LANGUAGE §7.7).
      throw new JavaError('StringIndexOutOfBoundsException', `begin 0, end ${end}, length ${s.length}`);
    }
    // An excerpt often has its `—` past the cut: the kept text is then made one-byte.
    return narrowCut(s, s.slice(0, end)) + b.ellipsis;
  },
};

// ---- context lookups ------------------------------------------------------------------

/** A reference that is not valid syntax resolves to missing, like an absent name. */
function parseRefs(args: readonly string[], ctx: BindContext): (Ref | null)[] {
  return args.map((a) => ctx.parseRef(a));
}

function resolveOrMissing(ref: Ref | null, ctx: PluginContext): Value {
  return ref === null ? undefined : ctx.resolve(ref);
}

const format: FormatterSpec<readonly (Ref | null)[]> = {
  name: 'format',
  bind: parseRefs,
  apply(value, refs, ctx) {
    const pattern = textOf(value);
    if (pattern.indexOf('{') < 0) return pattern;
    let out = '';
    let i = 0;
    const n = pattern.length;
    while (i < n) {
      const open = pattern.indexOf('{', i);
      if (open < 0) {
        out += pattern.slice(i);
        break;
      }
      out += pattern.slice(i, open);
      let j = open + 1;
      let index = 0;
      let ignored = false;
      for (; j < n; j++) {
        const c = pattern.charCodeAt(j);
        if (c === 0x7d) break;
        if (!ignored && c >= 0x30 && c <= 0x39) {
          // Capped: any index past the argument count prints nothing anyway.
          if (index <= refs.length) index = index * 10 + (c - 0x30);
        } else ignored = true;
      }
      if (j >= n) break; // an unterminated tag swallows the rest of the pattern
      if (!ignored && index < refs.length) out += textOf(resolveOrMissing(refs[index], ctx));
      i = j + 1;
    }
    return out;
  },
};

const get: FormatterSpec<readonly (Ref | null)[]> = {
  name: 'get',
  bind: parseRefs,
  apply(value, refs, ctx) {
    let cur = value;
    for (let i = 0; i < refs.length; i++) {
      const key = resolveOrMissing(refs[i], ctx);
      if (key === undefined) return undefined;
      if (Array.isArray(key)) {
        for (let k = 0; k < key.length && cur !== undefined; k++) cur = step(cur, key[k]);
      } else cur = step(cur, key);
      if (cur === undefined) return undefined;
    }
    return cur;
  },
};

/** One `get` step: numbers index arrays, strings name members, other keys are skipped. */
function step(cur: Value, key: Value): Value {
  if (typeof key === 'string') return isObject(cur) ? member(cur, key) : undefined;
  if (typeof key === 'number' || typeof key === 'bigint' || key instanceof JDouble) {
    if (!Array.isArray(cur)) return undefined;
    const i = asLong(key);
    return i >= 0 && i < cur.length ? cur[i] : undefined;
  }
  return cur;
}

const iter: FormatterSpec<Ref> = {
  name: 'iter',
  bind(_args, ctx) {
    return ctx.parseRef('@index') as Ref;
  },
  apply(_value, index, ctx) {
    const v = ctx.resolve(index);
    return v === undefined ? '' : textOf(v);
  },
};

const lookup: FormatterSpec<Ref | null> = {
  name: 'lookup',
  requiresArgs: true,
  bind(args, ctx) {
    expectArgs(args, 1);
    return ctx.parseRef(args[0]);
  },
  apply(_value, ref, ctx) {
    const name = resolveOrMissing(ref, ctx);
    if (name === undefined) return undefined;
    return ctx.resolveText(textOf(name));
  },
};

// ---- paths inside the value ------------------------------------------------------------

const prop: FormatterSpec<readonly NodePath[]> = {
  name: 'prop',
  pure: true,
  bind(args) {
    return args.map(parseNodePath);
  },
  apply(value, paths) {
    let cur = value;
    for (let i = 0; i < paths.length && cur !== undefined; i++) cur = walkNodePath(cur, paths[i]);
    return cur;
  },
};

const keyBy: FormatterSpec<NodePath> = {
  name: 'key-by',
  pure: true,
  requiresArgs: true,
  bind(args) {
    expectArgs(args, 1);
    return parseNodePath(args[0]);
  },
  apply(value, path) {
    if (!Array.isArray(value)) return {};
    // Without a prototype: V8 makes such an object a dictionary from the start, so keys it
    // has never seen (ids, names: most of them, on fresh data) are hash inserts, where on a
    // plain object each new key adds a hidden-class transition that stays in a tree shared by
    // the whole process. The formatter sweep's `{v|key-by id|json}`: 254,141 → 383,981 calls a
    // second (bench/README.md, "key-by without a prototype"). And `__proto__` is then a key
    // like any other, not the prototype's setter.
    const out: JsonObject = Object.create(null);
    for (const element of value) {
      const k = walkNodePath(element, path);
      if (k !== undefined) out[textOf(k)] = element;
    }
    return out;
  },
};

interface FindArgs {
  /** Resolved in the current scope to the object that elements are looked up in. */
  readonly lookup: Ref | null;
  readonly hasLookup: boolean;
  /** The truthiness test; null accepts every element. */
  readonly path: NodePath | null;
}

function bindFind(args: string[], ctx: BindContext): FindArgs {
  expectArgs(args, 0, 2);
  if (args.length === 2) return { lookup: ctx.parseRef(args[0]), hasLookup: true, path: parseNodePath(args[1]) };
  return { lookup: null, hasLookup: false, path: args.length === 1 ? parseNodePath(args[0]) : null };
}

function matches(element: Value, b: FindArgs, table: Value): boolean {
  if (b.path === null) return true;
  let target = element;
  if (b.hasLookup) target = isObject(table) ? member(table, textOf(element)) : undefined;
  return isTruthy(walkNodePath(target, b.path));
}

const findFirst: FormatterSpec<FindArgs> = {
  name: 'find-first',
  bind: bindFind,
  apply(value, b, ctx) {
    if (!Array.isArray(value)) return undefined;
    const table = b.hasLookup ? resolveOrMissing(b.lookup, ctx) : undefined;
    for (let i = 0; i < value.length; i++) if (matches(value[i], b, table)) return value[i];
    return undefined;
  },
};

const findLast: FormatterSpec<FindArgs> = {
  name: 'find-last',
  bind: bindFind,
  apply(value, b, ctx) {
    if (!Array.isArray(value)) return undefined;
    const table = b.hasLookup ? resolveOrMissing(b.lookup, ctx) : undefined;
    for (let i = value.length - 1; i >= 0; i--) if (matches(value[i], b, table)) return value[i];
    return undefined;
  },
};

export const coreFormatters: FormatterSpec<any>[] = [
  apply,
  count,
  cycle,
  encodeSpace,
  encodeUri,
  encodeUriComponent,
  findFirst,
  findLast,
  format,
  get,
  html,
  htmlattr,
  htmltag,
  iter,
  json,
  jsonPretty,
  keyBy,
  lineBreaks,
  lookup,
  mod,
  output,
  pluralize,
  prop,
  raw,
  round,
  safe,
  slugify,
  smartypants,
  str,
  truncate,
  urlEncode,
];
