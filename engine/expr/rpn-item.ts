// The one object shape of the expression language's tokens and RPN items. The tokenizer makes
// each value, name, call and operator as the item the assembler puts in the RPN, so assembly
// moves objects instead of making a second one per token, and every load of `type`, in the
// assembler and the reducer alike, sees one shape (bench/README.md, "`.eval` one-offs").

import type { Segment } from '../path.ts';
import { ALL_OPERATORS, type Operator } from './operators.ts';

/** A value inside an expression: numbers are doubles. */
export type Literal = number | string | boolean | null;

export const ITEM_VALUE = 0;
export const ITEM_NAME = 1;
export const ITEM_OPERATOR = 2;
export const ITEM_CALL = 3;
/** Separates a call's arguments from the values below them on the reduce stack. */
export const ITEM_ARGS = 4;
// Punctuation: tokens only, which the assembler consumes.
export const TOKEN_LPAREN = 5;
export const TOKEN_RPAREN = 6;
export const TOKEN_COMMA = 7;
export const TOKEN_SEMICOLON = 8;
export type ItemType = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8;

/**
 * One token or RPN element. Every kind shares this single shape so that the assembler's and
 * the reducer's loads stay monomorphic; the fields a kind does not use hold null. Read-only by
 * its type, not frozen: `Object.freeze` on every item, array and result was a third of parsing
 * an expression (580 → 355 ns for a short one, with the tokenizer's names), paid again on the
 * first render of every template that holds one (bench/README.md, "Prices, `render(text,
 * data)` and `.eval` parsed without freezing").
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
export const LPAREN = new RpnItem(TOKEN_LPAREN, null, '', null, null);
export const RPAREN = new RpnItem(TOKEN_RPAREN, null, '', null, null);
export const COMMA = new RpnItem(TOKEN_COMMA, null, '', null, null);
export const SEMICOLON = new RpnItem(TOKEN_SEMICOLON, null, '', null, null);

// Operators carry no per-use data: one item per operator, by its index.
const OPERATOR_ITEMS: readonly RpnItem[] = ALL_OPERATORS.map((o) => new RpnItem(ITEM_OPERATOR, null, '', null, o));

export function operatorItem(operator: Operator): RpnItem {
  return OPERATOR_ITEMS[operator.index];
}
