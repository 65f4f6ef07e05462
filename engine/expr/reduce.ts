// Stack evaluation of RPN sub-expressions (LANGUAGE §5.5–§5.8). This runs on the render path:
// one value stack per evaluation, reused across sub-expressions; call arguments are read in
// place on the stack; errors and assignments are allocated only when they occur.

import * as values from '../value.ts';
import type { Value } from '../value.ts';
import type { Segment } from '../path.ts';
import * as rpn from './assemble.ts';
import type { RpnItem, SubExpression } from './assemble.ts';
import * as tokens from './tokenize.ts';
import type { Literal } from './tokenize.ts';
import type { OperatorCode } from './operators.ts';

// Imported bindings copied once: under tsx every read of an imported name is a getter call,
// which costs more than the work it guards on this path.
const { double, jsNumber, JDouble } = values;
const { ARGS_MARKER, ITEM_ARGS, ITEM_CALL, ITEM_NAME, ITEM_VALUE } = rpn;
const RpnItemClass = rpn.RpnItem;
const { stringToNumber } = tokens;

export interface LookupScope {
  lookup(segments: readonly Segment[]): Value;
}

/** Values, unresolved names (resolved only when used) and call markers. */
type StackItem = Literal | RpnItem;

export interface ReduceResult {
  /** Whether the last sub-expression produced a value. */
  readonly hasValue: boolean;
  readonly value: Literal;
  /** Null when nothing was assigned. */
  readonly assigned: Map<string, Value> | null;
  /** Null when there was no error. */
  readonly errors: string[] | null;
}

// Returned by conversions for objects, arrays and markers; a symbol can never be a Literal.
const UNCONVERTIBLE: unique symbol = Symbol('unconvertible');
type Converted = Literal | typeof UNCONVERTIBLE;

// ---- conversions (§5.6) ---------------------------------------------------------------

export function toNumber(v: Literal): number {
  switch (typeof v) {
    case 'number': return v;
    case 'string': return stringToNumber(v);
    case 'boolean': return v ? 1 : 0;
    default: return 0;
  }
}

export function toText(v: Literal): string {
  switch (typeof v) {
    case 'number': return jsNumber(v);
    case 'string': return v;
    case 'boolean': return v ? 'true' : 'false';
    default: return 'null';
  }
}

/** The reference's truthiness: unlike JavaScript, NaN is true. */
export function toBoolean(v: Literal): boolean {
  switch (typeof v) {
    case 'number': return v !== 0;
    case 'string': return v.length > 0;
    case 'boolean': return v;
    default: return false;
  }
}

/** Java's `(int)` of a double: truncates and clamps (JavaScript's ToInt32 wraps instead). */
export function toInt32(v: Literal): number {
  const x = toNumber(v);
  if (x !== x) return 0;
  if (x >= 2147483647) return 2147483647;
  if (x <= -2147483648) return -2147483648;
  return Math.trunc(x) | 0;
}

/** Converts a JSON value found by a lookup (§5.5): numbers become doubles, null/missing null. */
function literalOfValue(v: Value): Converted {
  switch (typeof v) {
    case 'number':
    case 'string':
    case 'boolean':
      return v;
    case 'bigint':
      return Number(v);
    case 'undefined':
      return null;
    default:
      if (v === null) return null;
      if (v instanceof JDouble) return v.value;
      return UNCONVERTIBLE;
  }
}

/** How an expression value is stored as a local: integral numbers stay doubles. */
function valueOfLiteral(v: Literal): Value {
  return typeof v === 'number' ? double(v) : v;
}

// ---- operators (§5.7) -----------------------------------------------------------------

function compare(code: OperatorCode, a: Literal, b: Literal): boolean {
  if (typeof a === 'string' && typeof b === 'string') {
    switch (code) {
      case 'lt': return a < b;
      case 'le': return a <= b;
      case 'gt': return a > b;
      case 'ge': return a >= b;
      case 'ne': return a !== b;
      default: return a === b;
    }
  }
  // JavaScript's numeric comparisons already make every NaN comparison false except `!=`.
  const x = toNumber(a);
  const y = toNumber(b);
  switch (code) {
    case 'lt': return x < y;
    case 'le': return x <= y;
    case 'gt': return x > y;
    case 'ge': return x >= y;
    case 'ne': return x !== y;
    default: return x === y;
  }
}

function strictEquals(a: Literal, b: Literal): boolean {
  return typeof a === typeof b && compare('eq', a, b);
}

// ---- evaluation -----------------------------------------------------------------------

/** Resolves a stack item to a literal (§5.5); names are looked up only here, when used. */
function convert(item: StackItem | undefined, scope: LookupScope, assigned: Map<string, Value> | null): Converted {
  if (!(item instanceof RpnItemClass)) return item === undefined ? UNCONVERTIBLE : item;
  if (item.type !== ITEM_NAME) return UNCONVERTIBLE;
  const segments = item.segments!;
  const first = segments[0];
  // Locals assigned earlier in this expression live in the eval's own frame: they shadow the
  // engine's stack, and being literals they have no members.
  if (assigned !== null && typeof first === 'string' && assigned.has(first)) {
    return segments.length === 1 ? literalOfValue(assigned.get(first)) : null;
  }
  return literalOfValue(scope.lookup(segments));
}

/** The local an assignment target names: a single `@word` segment (`@` alone is the current node). */
function localName(target: StackItem | undefined): string | null {
  if (!(target instanceof RpnItemClass) || target.type !== ITEM_NAME) return null;
  const segments = target.segments!;
  const name = segments[0];
  if (segments.length !== 1 || typeof name !== 'string' || name.length < 2 || name.charCodeAt(0) !== 0x40) return null;
  return name;
}

/**
 * Reduces every sub-expression in order. Never throws unless scope.lookup does;
 * `maxStringLen <= 0` disables the concatenation limit.
 */
export function reduce(subExpressions: readonly SubExpression[], scope: LookupScope, maxStringLen: number): ReduceResult {
  // Hot path: module-level helpers rather than closures (which tsx's keepNames makes costly),
  // and an explicit stack pointer rather than resizing the array.
  let assigned: Map<string, Value> | null = null;
  let errors: string[] | null = null;
  const stack: StackItem[] = [];
  let hasValue = false;
  let value: Literal = null;

  for (let s = 0; s < subExpressions.length; s++) {
    const rpn = subExpressions[s];
    let sp = 0; // stack[0..sp) is live
    let error: string | null = null;
    run: for (let r = 0; r < rpn.length; r++) {
      const item = rpn[r];
      switch (item.type) {
        case ITEM_VALUE:
          stack[sp++] = item.value;
          break;
        case ITEM_NAME:
        case ITEM_ARGS:
          stack[sp++] = item;
          break;
        case ITEM_CALL: {
          let marker = sp - 1;
          while (marker >= 0 && stack[marker] !== ARGS_MARKER) marker--;
          const result = callFunction(item.text, stack, marker + 1, sp, scope, assigned);
          sp = marker < 0 ? 0 : marker;
          if (result === UNCONVERTIBLE) {
            error = `Error calling function ${item.text}`;
            break run;
          }
          stack[sp++] = result;
          break;
        }
        default: {
          const op = item.operator!;
          if (op.unary) {
            if (sp === 0) break;
            const x = convert(stack[sp - 1], scope, assigned);
            if (x !== UNCONVERTIBLE) stack[sp - 1] = unary(op.code, x);
            break;
          }
          if (op.code === 'assign') {
            const source = sp > 0 ? stack[--sp] : undefined;
            const name = localName(sp > 0 ? stack[--sp] : undefined);
            if (name !== null && source !== undefined) {
              const v = convert(source, scope, assigned);
              if (v !== UNCONVERTIBLE) (assigned ??= new Map()).set(name, valueOfLiteral(v));
            }
            break run; // an assignment ends its sub-expression (§5.5)
          }
          const b = sp > 0 ? convert(stack[--sp], scope, assigned) : UNCONVERTIBLE;
          const a = sp > 0 ? convert(stack[--sp], scope, assigned) : UNCONVERTIBLE;
          if (a === UNCONVERTIBLE || b === UNCONVERTIBLE) {
            error = `Invalid arguments to operator ${op.description}`;
            break run;
          }
          if (op.code === 'add' && (typeof a === 'string' || typeof b === 'string')) {
            const left = toText(a);
            const right = toText(b);
            if (maxStringLen > 0 && left.length + right.length > maxStringLen) {
              error = `Concatenation would exceed maximum string length ${maxStringLen}`;
              break run;
            }
            stack[sp++] = left + right;
            break;
          }
          const result = binary(op.code, a, b);
          if (result === UNCONVERTIBLE) {
            error = `Unexpected operator found during evaluation: ${op.description}`;
            break run;
          }
          stack[sp++] = result;
          break;
        }
      }
    }
    hasValue = false;
    value = null;
    if (error !== null) {
      (errors ??= []).push(error);
      continue;
    }
    if (sp === 0) continue;
    const top = convert(stack[sp - 1], scope, assigned);
    if (top === UNCONVERTIBLE) {
      (errors ??= []).push('Reduce error: unexpected token on stack');
      continue;
    }
    hasValue = true;
    value = top;
  }
  return { hasValue, value, assigned, errors };
}

function unary(code: OperatorCode, x: Literal): Literal {
  switch (code) {
    case 'neg': return -1 * toNumber(x);
    case 'pos': return toNumber(x);
    case 'not': return !toBoolean(x);
    default: return ~toInt32(x); // bitwise not
  }
}

function binary(code: OperatorCode, a: Literal, b: Literal): Literal | typeof UNCONVERTIBLE {
  switch (code) {
    case 'add': return toNumber(a) + toNumber(b);
    case 'sub': return toNumber(a) - toNumber(b);
    case 'mul': return toNumber(a) * toNumber(b);
    case 'div': {
      const y = toNumber(b);
      return y === 0 ? NaN : toNumber(a) / y;
    }
    case 'mod': {
      const y = toNumber(b);
      return y === 0 ? NaN : toNumber(a) % y;
    }
    case 'pow': return toNumber(a) ** toNumber(b);
    case 'shl': return toInt32(a) << toInt32(b);
    case 'shr': return toInt32(a) >> toInt32(b);
    case 'band': return toInt32(a) & toInt32(b);
    case 'bxor': return toInt32(a) ^ toInt32(b);
    case 'bor': return toInt32(a) | toInt32(b);
    case 'lt':
    case 'le':
    case 'gt':
    case 'ge':
    case 'eq':
    case 'ne':
      return compare(code, a, b);
    case 'seq': return strictEquals(a, b);
    case 'sne': return !strictEquals(a, b);
    case 'and': return toBoolean(a) && toBoolean(b);
    case 'or': return toBoolean(a) || toBoolean(b);
    default: return UNCONVERTIBLE;
  }
}

/**
 * Applies a built-in to the convertible items of stack[from..to) (§5.8); UNCONVERTIBLE when
 * no argument was usable.
 */
function callFunction(
  name: string,
  stack: readonly StackItem[],
  from: number,
  to: number,
  scope: LookupScope,
  assigned: Map<string, Value> | null,
): Literal | typeof UNCONVERTIBLE {
  let k = from;
  let first: Converted = UNCONVERTIBLE;
  for (; k < to; k++) {
    first = convert(stack[k], scope, assigned);
    if (first !== UNCONVERTIBLE) break;
  }
  if (first === UNCONVERTIBLE) return UNCONVERTIBLE;
  switch (name) {
    case 'abs': return Math.abs(toNumber(first));
    case 'num': return toNumber(first);
    case 'str': return toText(first);
    case 'bool': return toBoolean(first);
    default: {
      // max/min fold left keeping the current value only when strictly greater/less, so a
      // NaN argument's effect depends on its position, as in the reference.
      const isMax = name === 'max';
      let current = toNumber(first);
      for (k++; k < to; k++) {
        const v = convert(stack[k], scope, assigned);
        if (v === UNCONVERTIBLE) continue;
        const next = toNumber(v);
        current = isMax ? (current > next ? current : next) : current < next ? current : next;
      }
      return current;
    }
  }
}
