// The compiled steps against a stack interpreter of §5.5, over RPN that assembly would never
// produce as well as RPN it does: underflows, markers as operands, assignments to names that
// do not convert, unary operators over markers. The interpreter below is the reduce loop the
// engine ran before its steps were compiled; it shares the operators and conversions with
// reduce.ts, so what this compares is where each value is read from and when.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JDouble, isObject, parseJson, type Node, type Value } from '../value.ts';
import type { Segment } from '../path.ts';
import { ARGS_MARKER, ITEM_ARGS, ITEM_CALL, ITEM_NAME, ITEM_OPERATOR, ITEM_VALUE, RpnItem } from './assemble.ts';
import { BINARY_OPERATORS, BITWISE_NOT, LOGICAL_NOT, UNARY_MINUS, UNARY_PLUS } from './operators.ts';
import type { Literal } from './tokenize.ts';
import {
  BINARY,
  TOO_LONG,
  UNCONVERTIBLE,
  add,
  applyFunction,
  compileReduction,
  literalOfValue,
  localName,
  reduce,
  unary,
  valueOfLiteral,
  type Converted,
  type ReduceResult,
} from './reduce.ts';

type StackItem = Literal | RpnItem;

interface Scope {
  lookup(segments: readonly Segment[]): Value;
}

function convert(item: StackItem | undefined, scope: Scope, assigned: Map<string, Value> | null): Converted {
  if (!(item instanceof RpnItem)) return item === undefined ? UNCONVERTIBLE : item;
  if (item.type !== ITEM_NAME) return UNCONVERTIBLE;
  const segments = item.segments!;
  const first = segments[0];
  if (assigned !== null && typeof first === 'string' && assigned.has(first)) {
    return segments.length === 1 ? literalOfValue(assigned.get(first)) : null;
  }
  return literalOfValue(scope.lookup(segments));
}

/** The stack interpreter: one pass over the RPN with the values on a stack. */
function interpret(subExpressions: readonly (readonly RpnItem[])[], scope: Scope, maxStringLen: number): ReduceResult {
  let assigned: Map<string, Value> | null = null;
  let errors: string[] | null = null;
  let hasValue = false;
  let value: Literal = null;
  const convertArg = (item: StackItem, a: Map<string, Value> | null): Converted => convert(item, scope, a);
  for (const items of subExpressions) {
    const stack: StackItem[] = [];
    let error: string | null = null;
    run: for (const item of items) {
      switch (item.type) {
        case ITEM_VALUE:
          stack.push(item.value);
          break;
        case ITEM_NAME:
        case ITEM_ARGS:
          stack.push(item);
          break;
        case ITEM_CALL: {
          let marker = stack.length - 1;
          while (marker >= 0 && stack[marker] !== ARGS_MARKER) marker--;
          const result = applyFunction(item.text, stack, marker + 1, stack.length, convertArg, assigned);
          stack.length = marker < 0 ? 0 : marker;
          if (result === UNCONVERTIBLE) {
            error = `Error calling function ${item.text}`;
            break run;
          }
          stack.push(result);
          break;
        }
        default: {
          const op = item.operator!;
          if (op.unary) {
            if (stack.length === 0) break;
            const x = convert(stack[stack.length - 1], scope, assigned);
            if (x !== UNCONVERTIBLE) stack[stack.length - 1] = unary(op.code, x);
            break;
          }
          if (op.code === 'assign') {
            const source = stack.pop();
            const target = stack.pop();
            const name = target instanceof RpnItem && target.type === ITEM_NAME ? localName(target.segments!) : null;
            if (name !== null && source !== undefined) {
              const v = convert(source, scope, assigned);
              if (v !== UNCONVERTIBLE) (assigned ??= new Map()).set(name, valueOfLiteral(v));
            }
            break run;
          }
          const b = stack.length > 0 ? convert(stack.pop(), scope, assigned) : UNCONVERTIBLE;
          const a = stack.length > 0 ? convert(stack.pop(), scope, assigned) : UNCONVERTIBLE;
          if (a === UNCONVERTIBLE || b === UNCONVERTIBLE) {
            error = `Invalid arguments to operator ${op.description}`;
            break run;
          }
          if (op.code === 'add') {
            const v = add(a, b, maxStringLen);
            if (v === TOO_LONG) {
              error = `Concatenation would exceed maximum string length ${maxStringLen}`;
              break run;
            }
            stack.push(v);
            break;
          }
          stack.push(BINARY[op.code]!(a, b));
        }
      }
    }
    hasValue = false;
    value = null;
    if (error !== null) {
      (errors ??= []).push(error);
      continue;
    }
    if (stack.length === 0) continue;
    const top = convert(stack[stack.length - 1], scope, assigned);
    if (top === UNCONVERTIBLE) {
      (errors ??= []).push('Reduce error: unexpected token on stack');
      continue;
    }
    hasValue = true;
    value = top;
  }
  return { hasValue, value, assigned, errors };
}

function scopeOver(root: Node, locals: Record<string, Value>): Scope & { seen: string[] } {
  return {
    seen: [],
    lookup(segments) {
      this.seen.push(segments.join('.'));
      let v: Value = root;
      let i = 0;
      const first = segments[0];
      if (first === '@') i = 1;
      else if (typeof first === 'string' && first.startsWith('@')) {
        v = locals[first];
        i = 1;
      }
      for (; i < segments.length; i++) {
        const s = segments[i];
        if (typeof s === 'number') v = Array.isArray(v) ? v[s] : undefined;
        else v = isObject(v) && Object.prototype.hasOwnProperty.call(v, s) ? v[s] : undefined;
      }
      return v;
    },
  };
}

const ROOT = parseJson('{"a": 3, "s": "12", "t": "x", "o": {"k": 1}, "arr": [1, 2], "b": true, "z": null, "f": 2.5}') as Node;
const LOCALS: Record<string, Value> = { '@v': new JDouble(41), '@w': 'outer', '@obj': parseJson('{"k": 2}') as Node };

const name = (text: string): RpnItem => new RpnItem(ITEM_NAME, null, text, Object.freeze(text === '@' ? ['@'] : text.split('.').map((s) => (/^\d+$/.test(s) ? Number(s) : s))), null);
const OPERATORS = [...BINARY_OPERATORS.values(), UNARY_PLUS, UNARY_MINUS, LOGICAL_NOT, BITWISE_NOT].map((op) => new RpnItem(ITEM_OPERATOR, null, '', null, op));
const ASSIGN = OPERATORS.find((item) => item.operator!.code === 'assign')!;

const item: fc.Arbitrary<RpnItem> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom<Literal>(0, 1, -2, 2.5, 1e21, NaN, '', 'ab', '7', ' 3 ', true, false, null).map((v) => new RpnItem(ITEM_VALUE, v, '', null, null)) },
  { weight: 5, arbitrary: fc.constantFrom('a', 's', 't', 'o', 'o.k', 'arr', 'arr.1', 'b', 'z', 'f', 'missing', '@', '@v', '@w', '@obj', '@obj.k', '@x', '@x.k', '@y').map(name) },
  { weight: 1, arbitrary: fc.constant(ARGS_MARKER) },
  { weight: 1, arbitrary: fc.constantFrom('max', 'min', 'abs', 'num', 'str', 'bool').map((f) => new RpnItem(ITEM_CALL, null, f, null, null)) },
  { weight: 5, arbitrary: fc.constantFrom(...OPERATORS) },
  { weight: 1, arbitrary: fc.constant(ASSIGN) },
);
const subExpressions = fc.array(fc.array(item, { maxLength: 14 }), { minLength: 1, maxLength: 4 });

function same(actual: ReduceResult, expected: ReduceResult): void {
  expect(actual.hasValue).toBe(expected.hasValue);
  expect(Object.is(actual.value, expected.value)).toBe(true);
  expect(actual.errors).toEqual(expected.errors);
  expect(actual.assigned === null ? null : [...actual.assigned]).toEqual(expected.assigned === null ? null : [...expected.assigned]);
}

describe('compiled steps (§5.5)', () => {
  it('agree with the stack interpreter on any RPN, well formed or not', () => {
    fc.assert(
      fc.property(subExpressions, fc.constantFrom(0, 4), (subs, maxStringLen) => {
        const expected = interpret(subs, scopeOver(ROOT, LOCALS), maxStringLen);
        const reduction = compileReduction(subs, (segments) => segments);
        // Twice: the second evaluation reuses the first one's slots.
        for (let round = 0; round < 2; round++) same(reduce(reduction, scopeOver(ROOT, LOCALS), maxStringLen), expected);
      }),
      { numRuns: 3000 },
    );
  });

  it('looks a name up only where an operator, call or the result uses it', () => {
    const subs = [[name('a'), name('o'), name('s'), new RpnItem(ITEM_VALUE, 1, '', null, null)]];
    const scope = scopeOver(ROOT, LOCALS);
    expect(reduce(compileReduction(subs, (s) => s), scope, 0).value).toBe(1);
    expect(scope.seen).toEqual([]);
  });

  it('assigns to a name that a unary operator left in place because it did not convert', () => {
    // `-@obj = 5`: @obj is an object, so the minus leaves the name, and the assignment sets it.
    const minus = OPERATORS.find((op) => op.operator === UNARY_MINUS)!;
    const subs = [[name('@obj'), minus, new RpnItem(ITEM_VALUE, 5, '', null, null), ASSIGN]];
    const result = reduce(compileReduction(subs, (s) => s), scopeOver(ROOT, LOCALS), 0);
    expect([...result.assigned!]).toEqual([['@obj', new JDouble(5)]]);
    // `-@v = 5`: @v converts, so the minus leaves a number and nothing is assigned.
    const converted = [[name('@v'), minus, new RpnItem(ITEM_VALUE, 5, '', null, null), ASSIGN]];
    expect(reduce(compileReduction(converted, (s) => s), scopeOver(ROOT, LOCALS), 0).assigned).toBeNull();
  });

  it('evaluates again while an evaluation is under way, with slots of its own', () => {
    const plus = OPERATORS.find((op) => op.operator!.code === 'add')!;
    const reduction = compileReduction([[name('a'), name('a'), plus]], (s) => s);
    let inner: ReduceResult | null = null;
    const scope: Scope = {
      lookup(segments) {
        inner ??= reduce(reduction, scopeOver(ROOT, LOCALS), 0);
        return scopeOver(ROOT, LOCALS).lookup(segments);
      },
    };
    expect(reduce(reduction, scope, 0).value).toBe(6);
    expect(inner!.value).toBe(6);
  });
});
