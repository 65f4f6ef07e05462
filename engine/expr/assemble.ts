// Shunting-yard assembly of tokens into RPN sub-expressions (LANGUAGE §5.4). Iterative, one
// pass, so nesting depth costs no recursion. Assembly stops at its first error: the
// sub-expressions completed before it are kept, which is what the debug listing shows.

import * as values from '../value.ts';
import * as rpnItem from './rpn-item.ts';
import type { Literal, RpnItem } from './rpn-item.ts';

// Copied once: under tsx every read of an imported name is a getter call (see reduce.ts).
const { jsonString, jsNumber } = values;
const { ITEM_VALUE, ITEM_NAME, ITEM_OPERATOR, ITEM_CALL, ARGS_MARKER, TOKEN_LPAREN, TOKEN_RPAREN, TOKEN_COMMA, TOKEN_SEMICOLON } = rpnItem;

export type SubExpression = readonly RpnItem[];

export interface AssembleResult {
  readonly subExpressions: SubExpression[];
  readonly errors: string[];
}

// The tokens are the items: values, names and calls are put in the RPN as they are, and an
// operator's token is its shared item. `ops` holds operators, calls and `(`.

// Moves operators to the output down to the nearest `(` (left on the stack) or the bottom.
function flushToParen(ops: RpnItem[], out: RpnItem[]): void {
  while (ops.length > 0) {
    const top = ops[ops.length - 1];
    if (top.type !== ITEM_OPERATOR) return;
    out.push(top);
    ops.pop();
  }
}

// Moves every pending operator to `out`; false on an unmatched `(`.
function drain(ops: RpnItem[], out: RpnItem[], errors: string[]): boolean {
  while (ops.length > 0) {
    const top = ops.pop()!;
    if (top.type === TOKEN_LPAREN) {
      errors.push('Mismatched operator found: left parenthesis');
      return false;
    }
    out.push(top);
  }
  return true;
}

export function assemble(tokens: readonly RpnItem[]): AssembleResult {
  const subExpressions: SubExpression[] = [];
  const errors: string[] = [];
  let out: RpnItem[] = [];
  const ops: RpnItem[] = [];

  for (let t = 0; t < tokens.length; t++) {
    const token = tokens[t];
    switch (token.type) {
      case ITEM_VALUE:
      case ITEM_NAME:
        out.push(token);
        break;
      case ITEM_CALL:
        out.push(ARGS_MARKER);
        ops.push(token);
        break;
      case ITEM_OPERATOR: {
        const o = token.operator!;
        while (ops.length > 0) {
          const top = ops[ops.length - 1];
          if (top.type !== ITEM_OPERATOR) break;
          const p = top.operator!.precedence;
          if (p > o.precedence || (p === o.precedence && !o.rightAssociative)) {
            out.push(top);
            ops.pop();
          } else break;
        }
        ops.push(token);
        break;
      }
      case TOKEN_LPAREN:
        ops.push(token);
        break;
      case TOKEN_RPAREN: {
        flushToParen(ops, out);
        if (ops.length === 0) {
          errors.push('Mismatched operator found: right parenthesis');
          return { subExpressions, errors };
        }
        ops.pop();
        // Guarded: reading index -1 of an empty array is a slow named-property lookup.
        const top = ops.length > 0 ? ops[ops.length - 1] : undefined;
        if (top !== undefined && top.type === ITEM_CALL) {
          out.push(top);
          ops.pop();
        }
        break;
      }
      case TOKEN_COMMA:
        flushToParen(ops, out);
        break;
      case TOKEN_SEMICOLON:
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
