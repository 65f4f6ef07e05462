// Evaluation of RPN sub-expressions (LANGUAGE §5.5–§5.8). Where each value sits on the reduce
// stack depends only on the RPN, never on the data, so an expression evaluated more than once is
// compiled into steps: `compileSteps` runs the stack at compile time, constants and names stay
// where they were pushed (a name is looked up only by the operator, call or result that uses it,
// as §5.5 says), and each operator or call becomes a step that reads its operands from those
// places and writes its value to a slot of its own. Evaluation is then a loop over the steps in
// RPN order, with no stack, no dispatch on item kinds and no search for a name's bound reference.
// The first evaluation of an expression runs the stack itself (`interpret`): building the steps
// costs more than one evaluation saves, and many expressions run once (a page's first render).

import * as values from '../value.ts';
import type { Value } from '../value.ts';
import type { Segment } from '../path.ts';
import * as rpn from './rpn-item.ts';
import type { Literal, RpnItem } from './rpn-item.ts';
import type { SubExpression } from './assemble.ts';
import * as tokens from './tokenize.ts';
import * as operators from './operators.ts';
import type { Operator, OperatorCode } from './operators.ts';

// Imported bindings copied once: under tsx every read of an imported name is a getter call,
// which costs more than the work it guards on this path.
const { double, jsNumber, JDouble, TEXT_PER_STEP } = values;
const { ARGS_MARKER, ITEM_ARGS, ITEM_CALL, ITEM_NAME, ITEM_VALUE } = rpn;
const RpnItemClass = rpn.RpnItem;
const { stringToNumber } = tokens;
const { ALL_OPERATORS } = operators;

/** Looks a name up from the eval's frame; `R` is what the host bound the name's segments to. */
export interface LookupScope<R> {
  lookup(name: R): Value;
  /**
   * Counts the characters of long texts an operator or function is given (`TEXT_PER_STEP` or
   * more): comparing two texts, or reading one as a number, takes time in their length, and one
   * expression can repeat that thousands of times on texts kept in locals, which no lookup
   * sees. The engine charges them to the render's instruction budget.
   */
  work?(chars: number): void;
}

/** Hands the long texts among two operands to `scope.work`. */
function countTexts<R>(scope: LookupScope<R>, a: Converted, b: Converted): void {
  let n = 0;
  if (typeof a === 'string' && a.length >= TEXT_PER_STEP) n += a.length;
  if (typeof b === 'string' && b.length >= TEXT_PER_STEP) n += b.length;
  if (n > 0) scope.work?.(n);
}

export interface ReduceResult {
  /** Whether the last sub-expression produced a value. */
  readonly hasValue: boolean;
  readonly value: Literal;
  /** Null when nothing was assigned. */
  readonly assigned: Map<string, Value> | null;
  /** Null when there was no error. */
  readonly errors: string[] | null;
}

// Returned by conversions for objects, arrays and call markers; a symbol can never be a Literal.
const UNCONVERTIBLE: unique symbol = Symbol('unconvertible');
type Converted = Literal | typeof UNCONVERTIBLE;
const U: typeof UNCONVERTIBLE = UNCONVERTIBLE;

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
      return U;
  }
}

/** How an expression value is stored as a local: integral numbers stay doubles. */
function valueOfLiteral(v: Literal): Value {
  return typeof v === 'number' ? double(v) : v;
}

/** The local an assignment target names: a single `@word` segment (`@` alone is the current node). */
function localName(segments: readonly Segment[]): string | null {
  const name = segments[0];
  if (segments.length !== 1 || typeof name !== 'string' || name.length < 2 || name.charCodeAt(0) !== 0x40) return null;
  return name;
}

// ---- operators (§5.7) -----------------------------------------------------------------

function unary(code: OperatorCode, x: Literal): Literal {
  switch (code) {
    case 'neg': return -1 * toNumber(x);
    case 'pos': return toNumber(x);
    case 'not': return !toBoolean(x);
    default: return ~toInt32(x); // bitwise not
  }
}

type BinaryFn = (a: Literal, b: Literal) => Literal;

// Text comparison applies only when both sides are text; otherwise JavaScript's numeric
// comparisons already make every NaN comparison false except `!=`.
function bothText(a: Literal, b: Literal): boolean {
  return typeof a === 'string' && typeof b === 'string';
}
function equal(a: Literal, b: Literal): boolean {
  return bothText(a, b) ? a === b : toNumber(a) === toNumber(b);
}
function strictEqual(a: Literal, b: Literal): boolean {
  return typeof a === typeof b && equal(a, b);
}

/**
 * Binary operators other than `add` (whose text case needs the string limit) and `assign`
 * (which ends its sub-expression). One function each, chosen when the step is compiled.
 */
const BINARY: Readonly<Partial<Record<OperatorCode, BinaryFn>>> = Object.freeze({
  sub: (a, b) => toNumber(a) - toNumber(b),
  mul: (a, b) => toNumber(a) * toNumber(b),
  div: (a, b) => {
    const y = toNumber(b);
    return y === 0 ? NaN : toNumber(a) / y;
  },
  mod: (a, b) => {
    const y = toNumber(b);
    return y === 0 ? NaN : toNumber(a) % y;
  },
  pow: (a, b) => toNumber(a) ** toNumber(b),
  shl: (a, b) => toInt32(a) << toInt32(b),
  shr: (a, b) => toInt32(a) >> toInt32(b),
  band: (a, b) => toInt32(a) & toInt32(b),
  bxor: (a, b) => toInt32(a) ^ toInt32(b),
  bor: (a, b) => toInt32(a) | toInt32(b),
  lt: (a, b) => (bothText(a, b) ? (a as string) < (b as string) : toNumber(a) < toNumber(b)),
  le: (a, b) => (bothText(a, b) ? (a as string) <= (b as string) : toNumber(a) <= toNumber(b)),
  gt: (a, b) => (bothText(a, b) ? (a as string) > (b as string) : toNumber(a) > toNumber(b)),
  ge: (a, b) => (bothText(a, b) ? (a as string) >= (b as string) : toNumber(a) >= toNumber(b)),
  eq: equal,
  ne: (a, b) => !equal(a, b),
  seq: strictEqual,
  sne: (a, b) => !strictEqual(a, b),
  and: (a, b) => toBoolean(a) && toBoolean(b),
  or: (a, b) => toBoolean(a) || toBoolean(b),
});

/**
 * BINARY by operator index (operators.ts): an element read, where `BINARY[op.code]` was a keyed
 * load by a name that varies, the interpreter's busiest line in a profile of one-off `.eval`s
 * (bench/README.md, "`.eval` one-offs").
 */
const BINARY_BY_INDEX: readonly (BinaryFn | undefined)[] = ALL_OPERATORS.map((o) => BINARY[o.code]);

/** Returned by `add` when the text would pass the string limit: a unique object, so no allocation. */
const TOO_LONG = new String('too long') as unknown as string;

/** `add`: text if either side is text (`TOO_LONG` past `maxStringLen` when > 0), else numbers. */
function add(a: Literal, b: Literal, maxStringLen: number): Literal {
  if (typeof a === 'string' || typeof b === 'string') {
    const left = toText(a);
    const right = toText(b);
    if (maxStringLen > 0 && left.length + right.length > maxStringLen) return TOO_LONG;
    return left + right;
  }
  return toNumber(a) + toNumber(b);
}

// ---- reduce errors (§5.10) -------------------------------------------------------------
// One text each, for the compiled steps and the interpreter alike: the two must report the same.

const UNEXPECTED_ON_STACK = 'Reduce error: unexpected token on stack';

function invalidArguments(op: Operator): string {
  return `Invalid arguments to operator ${op.description}`;
}

function callFailed(name: string): string {
  return `Error calling function ${name}`;
}

function tooLong(maxStringLen: number): string {
  return `Concatenation would exceed maximum string length ${maxStringLen}`;
}

function unexpectedOperator(op: Operator): string {
  return `Unexpected operator found during evaluation: ${op.description}`;
}

// ---- compiled form ---------------------------------------------------------------------

/** What one evaluation carries through its steps. */
interface Run<R> {
  scope: LookupScope<R>;
  maxStringLen: number;
  /** Locals assigned so far by this evaluation (null when none). */
  assigned: Map<string, Value> | null;
  /** The value each step wrote, by slot. */
  readonly slots: Converted[];
}

/** Reads one operand, converted (§5.5): a name is looked up here, each time it is used. */
type Reader<R> = (run: Run<R>) => Converted;
/** An operator or call; returns the error that ends its sub-expression, or null. */
type Step<R> = (run: Run<R>) => string | null;

interface CompiledSub<R> {
  readonly steps: readonly Step<R>[];
  /** The value left on top of the stack, or null when the stack ends empty. */
  readonly result: Reader<R> | null;
}

export interface Reduction<R> {
  readonly subExpressions: readonly SubExpression[];
  readonly bind: (segments: readonly Segment[]) => R;
  /** Each name's bound reference, made when the interpreter or the compiler first meets it. */
  refs: Map<RpnItem, R> | null;
  /** Null until the steps are compiled. */
  subs: readonly CompiledSub<R>[] | null;
  slotCount: number;
  evaluations: number;
  /**
   * One Run (and its slots) kept for the evaluations that do not overlap (all but a re-entrant
   * lookup's). Measured bundled, `{.eval v * 2 + 1}` in a 50-item section, ns a call over three
   * processes: 91–109 kept, 97–174 with a Run made per evaluation; `v > 500 && v < 900` 140–150
   * against 144–176.
   */
  spare: Run<R> | null;
}

/**
 * How many evaluations of an expression run the stack before its steps are built. Compile and
 * first render of the conformance case `eval-2` (22 one-off `.eval`s), in-process against the
 * port: 0.74–0.78x with the steps built on the first evaluation, 0.92–0.98x with it interpreted
 * (0.96–1.01x before there were steps, in the same runs; bench/README.md).
 */
const INTERPRETED_EVALUATIONS = 1;

export function newReduction<R>(subExpressions: readonly SubExpression[], bind: (segments: readonly Segment[]) => R): Reduction<R> {
  return { subExpressions, bind, refs: null, subs: null, slotCount: 0, evaluations: 0, spare: null };
}

/** The name's bound reference, made once per reduction. */
function boundName<R>(reduction: Reduction<R>, item: RpnItem): R {
  const refs = (reduction.refs ??= new Map());
  let ref = refs.get(item);
  if (ref === undefined) {
    ref = reduction.bind(item.segments as readonly Segment[]);
    refs.set(item, ref);
  }
  return ref;
}

// What the compile-time stack holds at one position.
const CONSTANT = 0;
const NAME = 1;
const MARKER = 2;
const SLOT = 3;

interface Entry<R> {
  readonly kind: 0 | 1 | 2 | 3;
  readonly value: Literal;
  /** NAME: the bound name; a SLOT left by unary operators over a name: that name. */
  readonly name: NameAt<R> | null;
  readonly slot: number;
}

interface NameAt<R> {
  readonly segments: readonly Segment[];
  readonly ref: R;
}

function constantEntry<R>(value: Literal): Entry<R> {
  return { kind: CONSTANT, value, name: null, slot: -1 };
}
function slotEntry<R>(slot: number, name: NameAt<R> | null): Entry<R> {
  return { kind: SLOT, value: null, name, slot };
}
const MARKER_ENTRY: Entry<never> = Object.freeze({ kind: MARKER, value: null, name: null, slot: -1 });

function constantReader<R>(value: Literal): Reader<R> {
  return () => value;
}
function slotReader<R>(slot: number): Reader<R> {
  return (run) => run.slots[slot];
}

/**
 * A slot left by unary operators over a name: where they did not convert it, the name is still
 * what the stack holds (§5.5), so a later read converts the name again, as the interpreter
 * does. After an assignment that ends the sub-expression it may convert now: in
 * `(!@obj) @obj = 5` with `@obj` an object, the result is 5, not an unexpected token.
 */
function slotOrNameReader<R>(slot: number, name: Reader<R>): Reader<R> {
  return (run) => {
    const v = run.slots[slot];
    return v !== U ? v : name(run);
  };
}

function unconvertible(): Converted {
  return U;
}

/** A name, converted: a local assigned earlier in this evaluation shadows the stack (§5.5). */
function nameReader<R>(name: NameAt<R>): Reader<R> {
  const { segments, ref } = name;
  const first = segments[0];
  // Locals are only ever `@word`, so other names never look in the assigned map.
  const mayBeLocal = typeof first === 'string' && first.length > 1 && first.charCodeAt(0) === 0x40;
  const single = segments.length === 1;
  if (!mayBeLocal) return (run) => literalOfValue(run.scope.lookup(ref));
  return (run) => {
    const assigned = run.assigned;
    // Being literals, locals have no members.
    if (assigned !== null && assigned.has(first as string)) return single ? literalOfValue(assigned.get(first as string)) : null;
    return literalOfValue(run.scope.lookup(ref));
  };
}

function readerOf<R>(entry: Entry<R>): Reader<R> {
  switch (entry.kind) {
    case CONSTANT: return constantReader(entry.value);
    case NAME: return nameReader(entry.name as NameAt<R>);
    case SLOT: return entry.name === null ? slotReader(entry.slot) : slotOrNameReader(entry.slot, nameReader(entry.name));
    default: return unconvertible;
  }
}

function failing<R>(error: string): Step<R> {
  return () => error;
}

function unaryStep<R>(code: OperatorCode, operand: Reader<R>, slot: number): Step<R> {
  return (run) => {
    const x = operand(run);
    // An operand that does not convert stays where it was (§5.5), so it is still what a later
    // conversion or an assignment's target sees.
    if (typeof x === 'string') countTexts(run.scope, x, U);
    run.slots[slot] = x === U ? U : unary(code, x);
    return null;
  };
}

function binaryStep<R>(op: Operator, left: Reader<R>, right: Reader<R>, slot: number): Step<R> {
  const invalid = invalidArguments(op);
  if (op.code === 'add') {
    return (run) => {
      const b = right(run);
      const a = left(run);
      if (a === U || b === U) return invalid;
      const v = add(a, b, run.maxStringLen);
      if (v === TOO_LONG) return tooLong(run.maxStringLen);
      run.slots[slot] = v;
      return null;
    };
  }
  const f = BINARY_BY_INDEX[op.index];
  if (f === undefined) return failing(unexpectedOperator(op));
  return (run) => {
    const b = right(run);
    const a = left(run);
    if (a === U || b === U) return invalid;
    if (typeof a === 'string' || typeof b === 'string') countTexts(run.scope, a, b);
    run.slots[slot] = f(a, b);
    return null;
  };
}

/**
 * Applies a built-in to its arguments (§5.8), converting them in order and only as far as the
 * function reads them; UNCONVERTIBLE when no argument was usable.
 */
function applyFunction<A, C, R>(name: string, args: readonly A[], from: number, to: number, convert: (arg: A, ctx: C) => Converted, ctx: C, scope: LookupScope<R>): Converted {
  let k = from;
  let first: Converted = U;
  for (; k < to; k++) {
    first = convert(args[k], ctx);
    if (first !== U) break;
  }
  if (first === U) return U;
  if (typeof first === 'string') countTexts(scope, first, U);
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
        const v = convert(args[k], ctx);
        if (v === U) continue;
        if (typeof v === 'string') countTexts(scope, v, U);
        const next = toNumber(v);
        current = isMax ? (current > next ? current : next) : current < next ? current : next;
      }
      return current;
    }
  }
}

function readArgument<R>(read: Reader<R>, run: Run<R>): Converted {
  return read(run);
}

function callStep<R>(name: string, readers: readonly Reader<R>[], slot: number): Step<R> {
  const error = callFailed(name);
  const n = readers.length;
  return (run) => {
    const v = applyFunction(name, readers, 0, n, readArgument, run, run.scope);
    if (v === U) return error;
    run.slots[slot] = v;
    return null;
  };
}

/** An assignment (§5.5): converts its source and sets the local its target names, if any. */
function assignStep<R>(target: Entry<R> | undefined, source: Entry<R> | undefined): Step<R> | null {
  if (target === undefined || source === undefined || target.name === null) return null;
  const local = localName(target.name.segments);
  if (local === null) return null;
  const read = readerOf(source);
  // A target left by unary operators over a name is that name only when the name did not convert.
  const slot = target.kind === SLOT ? target.slot : -1;
  return (run) => {
    if (slot >= 0 && run.slots[slot] !== U) return null;
    const v = read(run);
    if (v !== U) (run.assigned ??= new Map()).set(local, valueOfLiteral(v));
    return null;
  };
}

/**
 * Runs one sub-expression's stack at compile time (the interpreter's rules, §5.5): each
 * operator or call becomes a step; an assignment or an error that every evaluation would meet
 * ends it, as either ends the sub-expression at run time.
 */
function compileSub<R>(items: SubExpression, reduction: Reduction<R>, nextSlot: { n: number }): CompiledSub<R> {
  const stack: Entry<R>[] = [];
  const steps: Step<R>[] = [];
  const finish = (): CompiledSub<R> => ({ steps, result: stack.length > 0 ? readerOf(stack[stack.length - 1]) : null });
  for (const item of items) {
    switch (item.type) {
      case ITEM_VALUE:
        stack.push(constantEntry(item.value));
        break;
      case ITEM_NAME: {
        const segments = item.segments as readonly Segment[];
        stack.push({ kind: NAME, value: null, name: { segments, ref: boundName(reduction, item) }, slot: -1 });
        break;
      }
      case ITEM_ARGS:
        stack.push(MARKER_ENTRY);
        break;
      case ITEM_CALL: {
        let marker = stack.length - 1;
        while (marker >= 0 && stack[marker].kind !== MARKER) marker--;
        const args = stack.splice(marker + 1);
        if (marker >= 0) stack.length = marker;
        const slot = nextSlot.n++;
        steps.push(callStep(item.text, args.map(readerOf), slot));
        stack.push(slotEntry(slot, null));
        break;
      }
      default:
        if (!compileOperator(item, stack, steps, nextSlot)) return finish();
    }
  }
  return finish();
}

/** Compiles one operator item; false when it ends the sub-expression. */
function compileOperator<R>(item: RpnItem, stack: Entry<R>[], steps: Step<R>[], nextSlot: { n: number }): boolean {
  const op = item.operator as Operator;
  if (op.unary) {
    if (stack.length === 0) return true;
    const top = stack[stack.length - 1];
    // A constant is folded; a marker never converts, so it stays.
    if (top.kind === CONSTANT) stack[stack.length - 1] = constantEntry(unary(op.code, top.value));
    else if (top.kind !== MARKER) {
      const slot = nextSlot.n++;
      steps.push(unaryStep(op.code, readerOf(top), slot));
      stack[stack.length - 1] = slotEntry(slot, top.name);
    }
    return true;
  }
  if (op.code === 'assign') {
    const source = stack.pop();
    const target = stack.pop();
    const step = assignStep(target, source);
    if (step !== null) steps.push(step);
    return false;
  }
  const right = stack.pop();
  const left = stack.pop();
  if (left === undefined || right === undefined || left.kind === MARKER || right.kind === MARKER) {
    steps.push(failing(invalidArguments(op)));
    return false;
  }
  const slot = nextSlot.n++;
  steps.push(binaryStep(op, readerOf(left), readerOf(right), slot));
  stack.push(slotEntry(slot, null));
  return true;
}

/** Builds the steps of every sub-expression, once. */
export function compileSteps<R>(reduction: Reduction<R>): void {
  if (reduction.subs !== null) return;
  const nextSlot = { n: 0 };
  reduction.subs = reduction.subExpressions.map((items) => compileSub(items, reduction, nextSlot));
  reduction.slotCount = nextSlot.n;
}

/**
 * Evaluates every sub-expression in order: by the stack on the first evaluation, by the
 * compiled steps after. Never throws unless scope.lookup does; `maxStringLen <= 0` disables the
 * concatenation limit.
 */
export function reduce<R>(reduction: Reduction<R>, scope: LookupScope<R>, maxStringLen: number): ReduceResult {
  if (reduction.subs === null) {
    if (reduction.evaluations++ < INTERPRETED_EVALUATIONS) return interpret(reduction, scope, maxStringLen);
    compileSteps(reduction);
  }
  return runSteps(reduction, scope, maxStringLen);
}

/** Evaluates by the compiled steps (`compileSteps` has run). */
export function runSteps<R>(reduction: Reduction<R>, scope: LookupScope<R>, maxStringLen: number): ReduceResult {
  let run = reduction.spare;
  if (run === null) run = { scope, maxStringLen, assigned: null, slots: new Array(reduction.slotCount).fill(U) };
  else {
    reduction.spare = null;
    run.scope = scope;
    run.maxStringLen = maxStringLen;
    run.assigned = null;
  }
  let errors: string[] | null = null;
  let hasValue = false;
  let value: Literal = null;
  try {
    const subs = reduction.subs as readonly CompiledSub<R>[];
    for (let s = 0; s < subs.length; s++) {
      const sub = subs[s];
      const steps = sub.steps;
      let error: string | null = null;
      for (let k = 0; k < steps.length && error === null; k++) error = steps[k](run);
      hasValue = false;
      value = null;
      if (error !== null) {
        (errors ??= []).push(error);
        continue;
      }
      if (sub.result === null) continue;
      const top = sub.result(run);
      if (top === U) {
        (errors ??= []).push(UNEXPECTED_ON_STACK);
        continue;
      }
      hasValue = true;
      value = top;
    }
    return { hasValue, value, assigned: run.assigned, errors };
  } finally {
    run.assigned = null;
    reduction.spare = run;
  }
}

// ---- the stack itself ------------------------------------------------------------------

/** Values, unresolved names (resolved only when used) and call markers. */
type StackItem = Literal | RpnItem;

interface Interpreting<R> {
  readonly reduction: Reduction<R>;
  readonly scope: LookupScope<R>;
  assigned: Map<string, Value> | null;
}

/** Resolves a stack item to a literal (§5.5); names are looked up only here, when used. */
function convertItem<R>(item: StackItem | undefined, at: Interpreting<R>): Converted {
  if (!(item instanceof RpnItemClass)) return item === undefined ? U : item;
  if (item.type !== ITEM_NAME) return U;
  const segments = item.segments as readonly Segment[];
  const first = segments[0];
  // Locals assigned earlier in this expression shadow the engine's stack; being literals, they
  // have no members.
  const assigned = at.assigned;
  if (assigned !== null && typeof first === 'string' && assigned.has(first)) {
    return segments.length === 1 ? literalOfValue(assigned.get(first)) : null;
  }
  return literalOfValue(at.scope.lookup(boundName(at.reduction, item)));
}

/** Evaluates by running the stack, item by item (§5.5). */
export function interpret<R>(reduction: Reduction<R>, scope: LookupScope<R>, maxStringLen: number): ReduceResult {
  const at: Interpreting<R> = { reduction, scope, assigned: null };
  let errors: string[] | null = null;
  let hasValue = false;
  let value: Literal = null;
  // An explicit stack pointer: setting an array's length is a runtime call.
  const stack: StackItem[] = [];
  const subs = reduction.subExpressions;
  for (let s = 0; s < subs.length; s++) {
    const items = subs[s];
    let sp = 0; // stack[0..sp) is live
    let error: string | null = null;
    run: for (let r = 0; r < items.length; r++) {
      const item = items[r];
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
          const result = applyFunction(item.text, stack, marker + 1, sp, convertItem, at, scope);
          sp = marker < 0 ? 0 : marker;
          if (result === U) {
            error = callFailed(item.text);
            break run;
          }
          stack[sp++] = result;
          break;
        }
        default: {
          const op = item.operator as Operator;
          if (op.unary) {
            if (sp === 0) break;
            const x = convertItem(stack[sp - 1], at);
            if (typeof x === 'string') countTexts(scope, x, U);
            if (x !== U) stack[sp - 1] = unary(op.code, x);
            break;
          }
          if (op.code === 'assign') {
            const source = sp > 0 ? stack[--sp] : undefined;
            const target = sp > 0 ? stack[--sp] : undefined;
            const name = target instanceof RpnItemClass && target.type === ITEM_NAME ? localName(target.segments as readonly Segment[]) : null;
            if (name !== null && source !== undefined) {
              const v = convertItem(source, at);
              if (v !== U) (at.assigned ??= new Map()).set(name, valueOfLiteral(v));
            }
            break run; // an assignment ends its sub-expression (§5.5)
          }
          const b = sp > 0 ? convertItem(stack[--sp], at) : U;
          const a = sp > 0 ? convertItem(stack[--sp], at) : U;
          if (a === U || b === U) {
            error = invalidArguments(op);
            break run;
          }
          if (op.code === 'add') {
            const v = add(a, b, maxStringLen);
            if (v === TOO_LONG) {
              error = tooLong(maxStringLen);
              break run;
            }
            stack[sp++] = v;
            break;
          }
          const f = BINARY_BY_INDEX[op.index];
          if (f === undefined) {
            error = unexpectedOperator(op);
            break run;
          }
          if (typeof a === 'string' || typeof b === 'string') countTexts(scope, a, b);
          stack[sp++] = f(a, b);
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
    const top = convertItem(stack[sp - 1], at);
    if (top === U) {
      (errors ??= []).push(UNEXPECTED_ON_STACK);
      continue;
    }
    hasValue = true;
    value = top;
  }
  return { hasValue, value, assigned: at.assigned, errors };
}
