// Operator and function tables of the expression language (LANGUAGE §5.3, §5.8). The
// descriptions are user-visible: they appear in `Invalid arguments to operator <description>`
// and, wrapped in angle brackets, in the debug listing (§5.12).

export type OperatorCode =
  | 'pos' | 'neg' | 'not' | 'bnot'
  | 'pow' | 'mul' | 'div' | 'mod' | 'add' | 'sub' | 'shl' | 'shr'
  | 'lt' | 'le' | 'gt' | 'ge' | 'eq' | 'ne' | 'seq' | 'sne'
  | 'band' | 'bxor' | 'bor' | 'and' | 'or' | 'assign';

export interface Operator {
  readonly code: OperatorCode;
  readonly description: string;
  readonly precedence: number;
  readonly rightAssociative: boolean;
  readonly unary: boolean;
  /** The operator's place in ALL_OPERATORS: tables by operator are arrays read at it. */
  readonly index: number;
}

const all: Operator[] = [];

function op(code: OperatorCode, description: string, precedence: number, rightAssociative = false, unary = false): Operator {
  const o: Operator = Object.freeze({ code, description, precedence, rightAssociative, unary, index: all.length });
  all.push(o);
  return o;
}

export const UNARY_PLUS = op('pos', 'unary plus', 17, true, true);
export const UNARY_MINUS = op('neg', 'unary minus', 17, true, true);
export const LOGICAL_NOT = op('not', 'logical not', 17, true, true);
export const BITWISE_NOT = op('bnot', 'bitwise not', 17, true, true);
export const ADD = op('add', 'add', 14);
export const SUBTRACT = op('sub', 'subtract', 14);

/**
 * Binary operators by spelling, except `+`/`-` (whose unary/binary choice depends on the
 * previous token) and the always-unary `!`/`~`.
 */
export const BINARY_OPERATORS: ReadonlyMap<string, Operator> = new Map([
  ['**', op('pow', 'exponent', 16, true)],
  ['*', op('mul', 'multiply', 15)],
  ['/', op('div', 'divide', 15)],
  ['%', op('mod', 'modulus', 15)],
  ['+', ADD],
  ['-', SUBTRACT],
  ['<<', op('shl', 'left shift', 13)],
  ['>>', op('shr', 'right shift', 13)],
  ['<', op('lt', 'less than', 12)],
  ['<=', op('le', 'less than or equal', 12)],
  ['>', op('gt', 'greater than', 12)],
  ['>=', op('ge', 'greater than or equal', 12)],
  ['==', op('eq', 'equality', 11)],
  ['!=', op('ne', 'inequality', 11)],
  ['===', op('seq', 'strict equality', 11)],
  ['!==', op('sne', 'strict inequality', 11)],
  ['&', op('band', 'bitwise and', 10)],
  ['^', op('bxor', 'bitwise xor', 9)],
  ['|', op('bor', 'bitwise or', 8)],
  ['&&', op('and', 'logical and', 7)],
  ['||', op('or', 'logical or', 6)],
  ['=', op('assign', 'assign', 3, true)],
]);

/** Every operator, each at its `index`. */
export const ALL_OPERATORS: readonly Operator[] = all;

export type FunctionName = 'max' | 'min' | 'abs' | 'num' | 'str' | 'bool';

const FUNCTION_NAMES: ReadonlySet<string> = new Set(['max', 'min', 'abs', 'num', 'str', 'bool']);

export function isFunctionName(name: string): name is FunctionName {
  return FUNCTION_NAMES.has(name);
}
