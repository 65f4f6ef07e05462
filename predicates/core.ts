// Core predicates (PLUGINS §3; LANGUAGE §4.5, App. C). Comparison arguments are parsed
// once at compile time into JSON constants or variable references.
import {
  JDouble,
  JavaError,
  asBoolean,
  asDouble,
  asLong,
  expectArgs,
  isTruthy,
  jsonEquals,
  takeEqualsWork,
  textOf,
  TEXT_PER_STEP,
  type BindContext,
  type PluginContext,
  type PredicateSpec,
  type Ref,
  type Value,
} from '../engine/plugin-api.ts';
import { bindOperand, operandValue, type Operand } from '../formatters/util/json-or-ref.ts';

/** The two sides of a comparison; `left` null means the current node. */
interface Comparison {
  readonly left: Operand | null;
  readonly right: Operand;
}

function bindComparison(args: string[], ctx: BindContext): Comparison {
  expectArgs(args, 1, 2);
  const first = bindOperand(args[0], ctx);
  if (args.length === 1) return { left: null, right: first };
  return { left: first, right: bindOperand(args[1], ctx) };
}

function leftOf(b: Comparison, node: Value, ctx: PluginContext): Value {
  return b.left === null ? node : operandValue(b.left, ctx);
}

function isLongLike(v: Value): v is number | bigint {
  return (typeof v === 'number' && Number.isInteger(v)) || typeof v === 'bigint';
}

function sign(x: number): number {
  return x < 0 ? -1 : x > 0 ? 1 : 0;
}

/**
 * The reference's ordering: by the left operand's kind, the right one coerced to it;
 * any other left operand is "less" unless structurally equal.
 */
export function compareNodes(left: Value, right: Value): number {
  if (isLongLike(left)) {
    if (typeof left === 'bigint' || typeof right === 'bigint') {
      const r = typeof right === 'bigint' ? right : BigInt(asLong(right));
      const l = BigInt(left);
      return l < r ? -1 : l > r ? 1 : 0;
    }
    return sign(left - asLong(right));
  }
  if (typeof left === 'number' || left instanceof JDouble) {
    const l = typeof left === 'number' ? left : left.value;
    const r = asDouble(right);
    // Double.compare: NaN is above everything and equal to itself.
    if (l !== l) return r !== r ? 0 : 1;
    if (r !== r) return -1;
    return l < r ? -1 : l > r ? 1 : 0;
  }
  if (typeof left === 'string') {
    const r = textOf(right);
    return left < r ? -1 : left > r ? 1 : 0;
  }
  if (typeof left === 'boolean') {
    const r = asBoolean(right);
    return left === r ? 0 : left ? 1 : -1;
  }
  return jsonEquals(left, right) ? 0 : -1;
}

/**
 * Charges the comparison of two long texts (`PluginContext.work`): its time grows with their
 * length, and a template can repeat it within the instruction limit on a post's body.
 */
function countTexts(ctx: PluginContext, left: string, right: Value): void {
  if (typeof right === 'string' && right.length >= TEXT_PER_STEP) ctx.work(left.length + right.length);
}

/**
 * `jsonEquals` of a container (or a double) and any value, its work charged
 * (`takeEqualsWork`): an element or member compared costs an instruction, as
 * `TEXT_PER_STEP` characters of a text do.
 */
function containerEquals(ctx: PluginContext, left: object, right: Value): boolean {
  takeEqualsWork();
  const equal = jsonEquals(left as Value, right);
  ctx.work(takeEqualsWork());
  return equal;
}

function comparison(name: string, accept: (c: number) => boolean): PredicateSpec<Comparison> {
  return {
    name,
    requiresArgs: true,
    bind: bindComparison,
    test(node, b, ctx) {
      const left = leftOf(b, node, ctx);
      const right = operandValue(b.right, ctx);
      // Any other left operand is "less" unless structurally equal (`compareNodes`).
      if (typeof left === 'object' && left !== null && !(left instanceof JDouble)) return accept(containerEquals(ctx, left, right) ? 0 : -1);
      if (typeof left === 'string' && left.length >= TEXT_PER_STEP) countTexts(ctx, left, right);
      return accept(compareNodes(left, right));
    },
  };
}

/** Whether the two sides are structurally equal (`equal?`, `notEqual?`), the work charged. */
function sidesEqual(node: Value, b: Comparison, ctx: PluginContext): boolean {
  const left = leftOf(b, node, ctx);
  const right = operandValue(b.right, ctx);
  if (typeof left === 'object' && left !== null) return containerEquals(ctx, left, right);
  if (typeof left === 'string' && left.length >= TEXT_PER_STEP) countTexts(ctx, left, right);
  return jsonEquals(left, right);
}

const equal: PredicateSpec<Comparison> = {
  name: 'equal?',
  requiresArgs: true,
  bind: bindComparison,
  test: (node, b, ctx) => sidesEqual(node, b, ctx),
};

const notEqual: PredicateSpec<Comparison> = {
  name: 'notEqual?',
  requiresArgs: true,
  bind: bindComparison,
  test: (node, b, ctx) => !sidesEqual(node, b, ctx),
};

const debug: PredicateSpec<Ref> = {
  name: 'debug?',
  bind(_args, ctx) {
    return ctx.parseRef('debug') as Ref;
  },
  test(_node, ref, ctx) {
    return isTruthy(ctx.resolve(ref));
  },
};

/** `even?`/`odd?` test the current node, or the one optional argument. */
function bindOptionalOperand(args: string[], ctx: BindContext): Operand | null {
  expectArgs(args, 0, 1);
  return args.length === 1 ? bindOperand(args[0], ctx) : null;
}

function parity(name: string, wantOdd: boolean): PredicateSpec<Operand | null> {
  return {
    name,
    bind: bindOptionalOperand,
    test(node, op, ctx) {
      const v = op === null ? node : operandValue(op, ctx);
      if (typeof v === 'bigint') return (v % 2n !== 0n) === wantOdd;
      if (typeof v !== 'number' || !Number.isInteger(v)) return false;
      return (v % 2 !== 0) === wantOdd;
    },
  };
}

const nth: PredicateSpec<Comparison> = {
  name: 'nth?',
  bind: bindComparison,
  test(node, b, ctx) {
    const v = leftOf(b, node, ctx);
    const m = operandValue(b.right, ctx);
    if (!isLongLike(v) || !isLongLike(m)) return false;
    if (m === 0 || m === 0n) throw new JavaError('ArithmeticException', '/ by zero');
    if (typeof v === 'bigint' || typeof m === 'bigint') return BigInt(v) % BigInt(m) === 0n;
    return v % m === 0;
  },
};

const plural: PredicateSpec = {
  name: 'plural?',
  test(node) {
    return asLong(node) > 1;
  },
};

const singular: PredicateSpec = {
  name: 'singular?',
  test(node) {
    return asLong(node) === 1;
  },
};

export const corePredicates: PredicateSpec<any>[] = [
  debug,
  equal,
  parity('even?', false),
  comparison('greaterThan?', (c) => c > 0),
  comparison('greaterThanOrEqual?', (c) => c >= 0),
  comparison('lessThan?', (c) => c < 0),
  comparison('lessThanOrEqual?', (c) => c <= 0),
  notEqual,
  nth,
  parity('odd?', true),
  plural,
  singular,
];
