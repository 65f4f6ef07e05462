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

/** Throws `ArgsError` when the argument is neither JSON nor a variable reference. */
export function bindOperand(arg: string, ctx: BindContext): Operand {
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
