// Arguments of the comparison predicates (LANGUAGE §4.5, PLUGINS §3): each is either a JSON
// constant or a variable reference, decided once at compile time.
import { ArgsError, parseJson, type BindContext, type PluginContext, type Ref, type Value } from '../../engine/plugin-api.ts';

export interface Operand {
  /** Set when the argument is a variable reference, resolved at render time. */
  readonly ref: Ref | null;
  /** The JSON constant when `ref` is null. */
  readonly constant: Value;
}

function looksLikeJson(arg: string): boolean {
  let i = 0;
  while (i < arg.length && arg.charCodeAt(i) === 0x20) i++;
  const c = arg.charCodeAt(i);
  if (c === 0x22 || c === 0x2d || c === 0x5b || c === 0x7b || (c >= 0x30 && c <= 0x39)) return true;
  return arg.startsWith('true', i) || arg.startsWith('false', i) || arg.startsWith('null', i);
}

/** Whole numbers that are safe integers whatever their digits (at most 15 digits). */
const SHORT_INTEGER = /^-?(?:0|[1-9][0-9]{0,14})$/;

/**
 * The constant of the arguments templates mostly compare with (`3`, `"products"`, `true`),
 * read without the JSON parser (whose set-up was most of binding `{.equal? a 3}`), or
 * undefined when the argument needs the parser. What it returns is what `parseJson` gives.
 */
export function plainConstant(arg: string): Value {
  if (arg === 'true') return true;
  if (arg === 'false') return false;
  if (arg === 'null') return null;
  const n = arg.length;
  if (arg.charCodeAt(0) === 0x22) {
    if (n < 2 || arg.charCodeAt(n - 1) !== 0x22) return undefined;
    for (let i = 1; i < n - 1; i++) {
      const c = arg.charCodeAt(i);
      if (c < 0x20 || c === 0x22 || c === 0x5c || c > 0xff) return undefined;
    }
    return arg.slice(1, n - 1);
  }
  return SHORT_INTEGER.test(arg) ? Number(arg) : undefined;
}

/** Throws `ArgsError` when the argument is neither JSON nor a variable reference. */
export function bindOperand(arg: string, ctx: BindContext): Operand {
  const plain = plainConstant(arg);
  if (plain !== undefined) return { ref: null, constant: plain };
  if (looksLikeJson(arg)) {
    try {
      return { ref: null, constant: parseJson(arg) };
    } catch {
      // `trueish`, `nullable`, … are names, not broken JSON: fall through to the reference.
    }
  }
  const ref = ctx.parseRef(arg);
  if (ref === null) throw new ArgsError(`Argument ${arg} must be a valid JSON value or variable reference.`);
  return { ref, constant: undefined };
}

export function operandValue(op: Operand, ctx: PluginContext): Value {
  return op.ref === null ? op.constant : ctx.resolve(op.ref);
}
