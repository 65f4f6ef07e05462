// An independent model of the `.eval` expression language (LANGUAGE.md §5.3–5.9), written
// from the spec for the fuzz suite. It evaluates expression *trees* directly, and prints
// them with only the parentheses the precedence table requires, so that a disagreement
// with the engine points either at the engine's precedence/associativity handling
// (§5.3, §5.4) or at its operator, conversion and function semantics (§5.5–5.8).
// It deliberately shares no code with engine/expr.

export type Literal = number | string | boolean | null;
/** An object or array value from the JSON data: not convertible to a literal. */
export interface Opaque {
  readonly opaque: 'object' | 'array';
}
export type ModelValue = Literal | Opaque;

export type BinaryOp = '**' | '*' | '/' | '%' | '+' | '-' | '<<' | '>>' | '<' | '<=' | '>' | '>=' | '==' | '!=' | '===' | '!==' | '&' | '^' | '|' | '&&' | '||';
export type UnaryOp = '-' | '+' | '!' | '~';
export type FunctionName = 'max' | 'min' | 'abs' | 'num' | 'str' | 'bool';

export type Expr =
  | { readonly kind: 'literal'; readonly text: string; readonly value: Literal }
  | { readonly kind: 'name'; readonly path: string }
  | { readonly kind: 'unary'; readonly op: UnaryOp; readonly operand: Expr }
  | { readonly kind: 'binary'; readonly op: BinaryOp; readonly left: Expr; readonly right: Expr }
  | { readonly kind: 'call'; readonly fn: FunctionName; readonly args: readonly Expr[] };

/**
 * One `;`-separated sub-expression (§5.4, §5.5):
 * - `values`: `e1, e2, …` — every value stays on the stack, the top one is the result;
 * - `assign`: `@t = e`;
 * - `chain`: `@s = @t = e` — only the rightmost target is assigned, and the name `@s` stays
 *   on the stack as the result;
 * - `inner`: `(l) + (@t = e)` — the assignment ends the sub-expression before `+` runs, so
 *   the value of `l` is the result.
 */
export type Statement =
  | { readonly kind: 'values'; readonly exprs: readonly Expr[] }
  | { readonly kind: 'assign'; readonly target: string; readonly expr: Expr }
  | { readonly kind: 'chain'; readonly outer: string; readonly target: string; readonly expr: Expr }
  | { readonly kind: 'inner'; readonly left: Expr; readonly target: string; readonly expr: Expr };

export const PRECEDENCE: Record<BinaryOp, number> = {
  '**': 16,
  '*': 15, '/': 15, '%': 15,
  '+': 14, '-': 14,
  '<<': 13, '>>': 13,
  '<': 12, '<=': 12, '>': 12, '>=': 12,
  '==': 11, '!=': 11, '===': 11, '!==': 11,
  '&': 10, '^': 9, '|': 8, '&&': 7, '||': 6,
};
const UNARY_PRECEDENCE = 17;

export const DESCRIPTION: Record<BinaryOp, string> = {
  '**': 'exponent', '*': 'multiply', '/': 'divide', '%': 'modulus', '+': 'add', '-': 'subtract',
  '<<': 'left shift', '>>': 'right shift', '<': 'less than', '<=': 'less than or equal',
  '>': 'greater than', '>=': 'greater than or equal', '==': 'equality', '!=': 'inequality',
  '===': 'strict equality', '!==': 'strict inequality', '&': 'bitwise and', '^': 'bitwise xor',
  '|': 'bitwise or', '&&': 'logical and', '||': 'logical or',
};

const rightAssociative = (op: BinaryOp): boolean => op === '**';

function precedenceOf(e: Expr): number {
  if (e.kind === 'binary') return PRECEDENCE[e.op];
  if (e.kind === 'unary') return UNARY_PRECEDENCE;
  return 100;
}

/** Source text with the minimum parentheses that keep the tree's shape. */
export function printExpr(e: Expr): string {
  switch (e.kind) {
    case 'literal':
      return e.text;
    case 'name':
      return e.path;
    case 'call':
      return e.fn + '(' + e.args.map(printExpr).join(', ') + ')';
    case 'unary': {
      const inner = printExpr(e.operand);
      return e.op + (precedenceOf(e.operand) < UNARY_PRECEDENCE ? '(' + inner + ')' : inner);
    }
    case 'binary': {
      const p = PRECEDENCE[e.op];
      const lp = precedenceOf(e.left);
      const rp = precedenceOf(e.right);
      const leftParens = lp < p || (lp === p && rightAssociative(e.op));
      const rightParens = rp < p || (rp === p && !rightAssociative(e.op));
      const l = printExpr(e.left);
      const r = printExpr(e.right);
      return (leftParens ? '(' + l + ')' : l) + ' ' + e.op + ' ' + (rightParens ? '(' + r + ')' : r);
    }
  }
}

function printStatement(s: Statement): string {
  switch (s.kind) {
    case 'values':
      return s.exprs.map(printExpr).join(', ');
    case 'assign':
      return `${s.target} = ${printExpr(s.expr)}`;
    case 'chain':
      return `${s.outer} = ${s.target} = ${printExpr(s.expr)}`;
    case 'inner':
      return `(${printExpr(s.left)}) + (${s.target} = ${printExpr(s.expr)})`;
  }
}

export function printProgram(statements: readonly Statement[]): string {
  return statements.map(printStatement).join('; ');
}

// ---- conversions (§5.6) ----

const isOpaque = (v: ModelValue): v is Opaque => typeof v === 'object' && v !== null;

const NUMERIC = /^[+-]?(?:0[xX][0-9a-fA-F]+|[0-9]+(?:\.[0-9]*)?(?:[eE][+-]?[0-9]+)?)$/;

export function toNumber(v: Literal): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v === null || v === '') return 0;
  if (!NUMERIC.test(v)) return Number.NaN;
  const negative = v[0] === '-';
  const body = v[0] === '-' || v[0] === '+' ? v.slice(1) : v;
  const n = /^0[xX]/.test(body) ? parseInt(body.slice(2), 16) : Number(body);
  return negative ? -n : n;
}

export function toText(v: Literal): string {
  if (v === null) return 'null';
  if (typeof v === 'number') return String(v);
  return String(v);
}

export function toBool(v: Literal): boolean {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0; // NaN is true (reference)
  if (typeof v === 'string') return v !== '';
  return false;
}

function toInt32(v: Literal): number {
  const n = toNumber(v);
  if (Number.isNaN(n)) return 0;
  const t = Math.trunc(n);
  if (t > 2147483647) return 2147483647;
  if (t < -2147483648) return -2147483648;
  return t;
}

/** Abstract comparison: <0, 0, >0, or NaN when unordered. */
function compare(a: Literal, b: Literal): number {
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  const x = toNumber(a);
  const y = toNumber(b);
  if (Number.isNaN(x) || Number.isNaN(y)) return Number.NaN;
  return x < y ? -1 : x > y ? 1 : 0;
}

const typeOf = (v: Literal): string => (v === null ? 'null' : typeof v);

function binary(op: BinaryOp, a: Literal, b: Literal, maxStringLen: number): Literal | { error: string } {
  switch (op) {
    case '+':
      if (typeof a === 'string' || typeof b === 'string') {
        const s = toText(a);
        const t = toText(b);
        if (maxStringLen > 0 && s.length + t.length > maxStringLen) return { error: `Concatenation would exceed maximum string length ${maxStringLen}` };
        return s + t;
      }
      return toNumber(a) + toNumber(b);
    case '-': return toNumber(a) - toNumber(b);
    case '*': return toNumber(a) * toNumber(b);
    case '/': { const d = toNumber(b); return d === 0 ? Number.NaN : toNumber(a) / d; }
    case '%': { const d = toNumber(b); return d === 0 ? Number.NaN : toNumber(a) % d; }
    case '**': return Math.pow(toNumber(a), toNumber(b));
    case '<<': return toInt32(a) << (toInt32(b) & 31);
    case '>>': return toInt32(a) >> (toInt32(b) & 31);
    case '&': return toInt32(a) & toInt32(b);
    case '^': return toInt32(a) ^ toInt32(b);
    case '|': return toInt32(a) | toInt32(b);
    case '<': return compare(a, b) < 0;
    case '<=': return compare(a, b) <= 0;
    case '>': return compare(a, b) > 0;
    case '>=': return compare(a, b) >= 0;
    case '==': return compare(a, b) === 0;
    case '!=': return !(compare(a, b) === 0);
    case '===': return typeOf(a) === typeOf(b) && compare(a, b) === 0;
    case '!==': return !(typeOf(a) === typeOf(b) && compare(a, b) === 0);
    case '&&': return toBool(a) && toBool(b);
    case '||': return toBool(a) || toBool(b);
  }
}

function unary(op: UnaryOp, v: Literal): Literal {
  switch (op) {
    case '-': return -1 * toNumber(v);
    case '+': return toNumber(v);
    case '!': return !toBool(v);
    case '~': return ~toInt32(v);
  }
}

function call(fn: FunctionName, args: Literal[]): Literal | undefined {
  if (args.length === 0) return undefined;
  switch (fn) {
    case 'max':
    case 'min': {
      let current = toNumber(args[0]);
      for (const a of args.slice(1)) {
        const next = toNumber(a);
        const keep = fn === 'max' ? current > next : current < next;
        if (!keep) current = next;
      }
      return current;
    }
    case 'abs': return Math.abs(toNumber(args[0]));
    case 'num': return toNumber(args[0]);
    case 'str': return toText(args[0]);
    case 'bool': return toBool(args[0]);
  }
}

// ---- evaluation (§5.5, §5.9, §5.10) ----

class Stop {
  constructor(readonly message: string) {}
}

export interface ModelScope {
  /** Data lookup of a dotted path from the root; undefined for missing. */
  lookup(path: string): ModelValue | undefined;
}

const CONSTANTS: Record<string, Literal> = { null: null, true: true, false: false, PI: Math.PI, E: Math.E, Infinity: Infinity, NaN: Number.NaN };

export interface ModelOutcome {
  output: string;
  errors: string[];
  locals: Map<string, Literal>;
}

export function evaluateProgram(statements: readonly Statement[], scope: ModelScope, maxStringLen = 1024 * 1024): ModelOutcome {
  const locals = new Map<string, Literal>();
  const errors: string[] = [];
  let last: ModelValue | undefined;

  const resolve = (path: string): ModelValue => {
    if (!path.includes('.') && path in CONSTANTS) return CONSTANTS[path];
    if (locals.has(path)) return locals.get(path) as Literal;
    const v = scope.lookup(path);
    return v === undefined ? null : v;
  };

  const evaluate = (e: Expr): ModelValue => {
    switch (e.kind) {
      case 'literal':
        return e.value;
      case 'name':
        return resolve(e.path);
      case 'unary': {
        const v = evaluate(e.operand);
        return isOpaque(v) ? v : unary(e.op, v);
      }
      case 'binary': {
        const l = evaluate(e.left);
        const r = evaluate(e.right);
        if (isOpaque(l) || isOpaque(r)) throw new Stop(`Invalid arguments to operator ${DESCRIPTION[e.op]}`);
        const out = binary(e.op, l, r, maxStringLen);
        if (out !== null && typeof out === 'object') throw new Stop(out.error);
        return out;
      }
      case 'call': {
        const values = e.args.map(evaluate).filter((v): v is Literal => !isOpaque(v));
        const out = call(e.fn, values);
        if (out === undefined) throw new Stop(`Error calling function ${e.fn}`);
        return out;
      }
    }
  };

  const assign = (target: string, v: ModelValue): void => {
    if (!isOpaque(v)) locals.set(target, v);
  };

  for (const s of statements) {
    last = undefined;
    try {
      let result: ModelValue | undefined;
      switch (s.kind) {
        case 'values':
          for (const e of s.exprs) result = evaluate(e);
          break;
        case 'assign':
          assign(s.target, evaluate(s.expr));
          break;
        case 'chain':
          assign(s.target, evaluate(s.expr));
          result = resolve(s.outer);
          break;
        case 'inner': {
          const left = evaluate(s.left);
          assign(s.target, evaluate(s.expr));
          // A bare name stays on the stack unresolved, so it sees the assignment (§5.5).
          result = s.left.kind === 'name' ? resolve(s.left.path) : left;
          break;
        }
      }
      if (result !== undefined) {
        if (isOpaque(result)) errors.push('Reduce error: unexpected token on stack');
        else last = result;
      }
    } catch (e) {
      if (!(e instanceof Stop)) throw e;
      errors.push(e.message);
    }
  }
  const output = last === undefined || last === null || isOpaque(last) ? '' : toText(last);
  return { output, errors, locals };
}
