// Shunting-yard assembly of tokens into RPN sub-expressions (LANGUAGE §5.4). Iterative, one
// pass, so nesting depth costs no recursion. Assembly stops at its first error: the
// sub-expressions completed before it are kept, which is what the debug listing shows.

import type { Segment } from '../path.ts';
import type { Operator } from './operators.ts';
import * as values from '../value.ts';
import type { CallToken, Literal, NameToken, OperatorToken, Token, ValueToken } from './tokenize.ts';

// Copied once: under tsx every read of an imported name is a getter call (see reduce.ts).
const { jsonString, jsNumber } = values;

export const ITEM_VALUE = 0;
export const ITEM_NAME = 1;
export const ITEM_OPERATOR = 2;
export const ITEM_CALL = 3;
/** Separates a call's arguments from the values below them on the reduce stack. */
export const ITEM_ARGS = 4;
export type ItemType = 0 | 1 | 2 | 3 | 4;

/**
 * One RPN element. Every kind shares this single shape so that the reducer's loads stay
 * monomorphic; the fields a kind does not use hold null. Read-only by its type, not frozen:
 * `Object.freeze` on every item, array and result was a third of parsing an expression
 * (580 → 355 ns for a short one, with the tokenizer's names), paid again on the first render
 * of every template that holds one (bench/README.md, "Prices, `render(text, data)` and `.eval`
 * parsed without freezing").
 */
export class RpnItem {
  constructor(
    readonly type: ItemType,
    readonly value: Literal,
    /** Names: the reference as written; calls: the function name. */
    readonly text: string,
    readonly segments: readonly Segment[] | null,
    readonly operator: Operator | null,
  ) {}
}

export const ARGS_MARKER = new RpnItem(ITEM_ARGS, null, '', null, null);

export type SubExpression = readonly RpnItem[];

export interface AssembleResult {
  readonly subExpressions: SubExpression[];
  readonly errors: string[];
}

function itemOf(token: ValueToken | NameToken | OperatorToken | CallToken): RpnItem {
  switch (token.kind) {
    case 'value': return new RpnItem(ITEM_VALUE, token.value, '', null, null);
    case 'name': return new RpnItem(ITEM_NAME, null, token.text, token.segments, null);
    case 'operator': return operatorItem(token.operator);
    case 'call': return new RpnItem(ITEM_CALL, null, token.name, null, null);
  }
}

// Operators carry no per-use data: one item per operator.
const OPERATOR_ITEMS = new Map<Operator, RpnItem>();
function operatorItem(operator: Operator): RpnItem {
  let item = OPERATOR_ITEMS.get(operator);
  if (item === undefined) {
    item = new RpnItem(ITEM_OPERATOR, null, '', null, operator);
    OPERATOR_ITEMS.set(operator, item);
  }
  return item;
}

type Pending = OperatorToken | CallToken | { readonly kind: 'lparen' };

// Moves operators to the output down to the nearest `(` (left on the stack) or the bottom.
function flushToParen(ops: Pending[], out: RpnItem[]): void {
  while (ops.length > 0) {
    const top = ops[ops.length - 1];
    if (top.kind !== 'operator') return;
    out.push(itemOf(top));
    ops.pop();
  }
}

// Moves every pending operator to `out`; false on an unmatched `(`.
function drain(ops: Pending[], out: RpnItem[], errors: string[]): boolean {
  while (ops.length > 0) {
    const top = ops.pop()!;
    if (top.kind === 'lparen') {
      errors.push('Mismatched operator found: left parenthesis');
      return false;
    }
    out.push(itemOf(top));
  }
  return true;
}

export function assemble(tokens: readonly Token[]): AssembleResult {
  const subExpressions: SubExpression[] = [];
  const errors: string[] = [];
  let out: RpnItem[] = [];
  const ops: Pending[] = [];

  for (let t = 0; t < tokens.length; t++) {
    const token = tokens[t];
    switch (token.kind) {
      case 'value':
      case 'name':
        out.push(itemOf(token));
        break;
      case 'call':
        out.push(ARGS_MARKER);
        ops.push(token);
        break;
      case 'operator': {
        const o = token.operator;
        while (ops.length > 0) {
          const top = ops[ops.length - 1];
          if (top.kind !== 'operator') break;
          const p = top.operator.precedence;
          if (p > o.precedence || (p === o.precedence && !o.rightAssociative)) {
            out.push(itemOf(top));
            ops.pop();
          } else break;
        }
        ops.push(token);
        break;
      }
      case 'lparen':
        ops.push(token as Pending);
        break;
      case 'rparen': {
        flushToParen(ops, out);
        if (ops.length === 0) {
          errors.push('Mismatched operator found: right parenthesis');
          return { subExpressions, errors };
        }
        ops.pop();
        // Guarded: reading index -1 of an empty array is a slow named-property lookup.
        const top = ops.length > 0 ? ops[ops.length - 1] : undefined;
        if (top !== undefined && top.kind === 'call') {
          out.push(itemOf(top));
          ops.pop();
        }
        break;
      }
      case 'comma':
        flushToParen(ops, out);
        break;
      case 'semicolon':
        if (!drain(ops, out, errors)) return { subExpressions, errors };
        if (out.length > 0) subExpressions.push(out);
        out = [];
        break;
    }
  }
  if (drain(ops, out, errors) && out.length > 0) subExpressions.push(out);
  return { subExpressions, errors };
}

// ---- debug listing (§5.12) ------------------------------------------------------------

export function literalListing(v: Literal): string {
  if (typeof v === 'number') return jsNumber(v);
  if (typeof v === 'string') return jsonString(v);
  return v === null ? 'null' : v ? 'true' : 'false';
}

function itemListing(item: RpnItem): string {
  switch (item.type) {
    case ITEM_VALUE: return literalListing(item.value);
    case ITEM_NAME: return item.text;
    case ITEM_OPERATOR: return '<' + item.operator!.description + '>';
    case ITEM_CALL: return item.text + '()';
    default: return '<args>';
  }
}

/** `[[a 1 <add>], [...]]`: sub-expressions separated by `, `, items by single spaces. */
export function listing(subExpressions: readonly SubExpression[]): string {
  const parts: string[] = [];
  for (const sub of subExpressions) {
    const items: string[] = [];
    for (const item of sub) items.push(itemListing(item));
    parts.push('[' + items.join(' ') + ']');
  }
  return '[' + parts.join(', ') + ']';
}
