// Public surface of the `.eval` expression language (LANGUAGE §4.10, §5). Parsing happens once
// per compiled instruction and yields a ParsedExpression, its RPN with each name bound by the
// host; evaluation reduces it against a scope on every render (from the second, by steps
// compiled from the RPN). Neither function throws, but for an `Abort` the scope's `work` throws
// to end the render.

import { Abort } from '../diagnostics.ts';
import type { Segment } from '../path.ts';
import type { Value } from '../value.ts';
import { assemble, listing, type SubExpression } from './assemble.ts';
import * as reducer from './reduce.ts';
import type { Reduction } from './reduce.ts';
import { tokenize } from './tokenize.ts';

/** Host limits (§5.11); a value <= 0 disables the limit. */
export interface ExprLimits {
  maxTokens: number;
  maxStringLen: number;
}

/** `R`: what the host's `bind` made of a name's segments, handed back to its `lookup`. */
export interface ParsedExpression<R = readonly Segment[]> {
  /** The text started with `#` (§5.12). */
  readonly debug: boolean;
  /** Parse error details, without the `Error parsing expression: ` prefix. */
  readonly errors: readonly string[];
  /** The assembled RPN, one entry per non-empty sub-expression. */
  readonly subExpressions: readonly SubExpression[];
  /** `EVAL=[…]` when debug, else ''; fixed at parse time since the RPN is. */
  readonly listing: string;
  /** The sub-expressions' evaluation: the stack at first, then steps compiled from it (§5.5). */
  readonly reduction: Reduction<R>;
}

export interface ExprScope<R = readonly Segment[]> {
  /**
   * Stack lookup from the eval's temporary frame of a name as `bind` made it, once per name (by
   * default its segments as splitVariable() returns them). Returns undefined for missing.
   */
  lookup(name: R): Value;
  /**
   * Told the characters of long texts operators and functions were given (reduce.ts,
   * `LookupScope.work`). An `Abort` it throws ends the evaluation and is not caught.
   */
  work?(chars: number): void;
}

export interface ExprOutcome {
  /** Debug listing (if debug) followed by the value's text; '' when there is neither. */
  readonly output: string;
  /** Locals assigned (`@w` → JSON value), in first-assignment order. */
  readonly assigned: ReadonlyMap<string, Value>;
  /** Reduce error details, without the `Error reducing expression: ` prefix. */
  readonly errors: readonly string[];
}

// Copied once: under tsx every read of an imported name is a getter call (see reduce.ts).
const { newReduction, reduce, toText } = reducer;

const NONE: readonly string[] = Object.freeze([]);
const NO_SUBEXPRESSIONS: readonly SubExpression[] = Object.freeze([]);
const NOTHING_ASSIGNED: ReadonlyMap<string, Value> = new Map();

function limitOf(n: unknown): number {
  return typeof n === 'number' && n > 0 ? n : 0;
}

function segmentsOf(segments: readonly Segment[]): readonly Segment[] {
  return segments;
}

export function parseExpression(text: string, limits: ExprLimits): ParsedExpression;
export function parseExpression<R>(text: string, limits: ExprLimits, bind: (segments: readonly Segment[]) => R): ParsedExpression<R>;
export function parseExpression<R>(text: string, limits: ExprLimits, bind?: (segments: readonly Segment[]) => R): ParsedExpression<R> {
  const bindName = bind ?? (segmentsOf as unknown as (segments: readonly Segment[]) => R);
  const source = typeof text === 'string' ? text : '';
  const debug = source.charCodeAt(0) === 0x23; // '#'
  try {
    const body = debug ? source.slice(1) : source;
    const scan = tokenize(body, limitOf(limits?.maxTokens));
    let errors = scan.errors;
    let subExpressions: readonly SubExpression[] = NO_SUBEXPRESSIONS;
    if (errors.length === 0) {
      const assembled = assemble(scan.tokens);
      errors = assembled.errors;
      subExpressions = assembled.subExpressions;
    }
    return {
      debug,
      errors: errors.length === 0 ? NONE : errors,
      subExpressions,
      listing: debug ? 'EVAL=' + listing(subExpressions) : '',
      reduction: newReduction(errors.length === 0 ? subExpressions : NO_SUBEXPRESSIONS, bindName),
    };
  } catch (e) {
    // Not reachable from any input we know of; kept so that a bug never escapes the engine.
    return {
      debug,
      errors: [`Internal error: ${e instanceof Error ? e.message : String(e)}`],
      subExpressions: NO_SUBEXPRESSIONS,
      listing: debug ? 'EVAL=[]' : '',
      reduction: newReduction(NO_SUBEXPRESSIONS, bindName),
    };
  }
}

export function evaluateExpression<R>(expr: ParsedExpression<R>, scope: ExprScope<R>, limits: ExprLimits): ExprOutcome {
  // An expression with parse errors is inert; only its debug listing can show (§5.12).
  if (expr.errors.length > 0) return { output: expr.listing, assigned: NOTHING_ASSIGNED, errors: NONE };
  try {
    const result = reduce(expr.reduction, scope, limitOf(limits?.maxStringLen));
    let output = expr.listing;
    if (result.hasValue) {
      const text = result.value === null ? '' : toText(result.value);
      output = expr.debug ? output + ' -> ' + text : text;
    }
    return {
      output,
      assigned: result.assigned ?? NOTHING_ASSIGNED,
      errors: result.errors ?? NONE,
    };
  } catch (e) {
    // A limit ending the render (`scope.work` over the instruction budget) ends it here too.
    if (e instanceof Abort) throw e;
    // A throwing scope.lookup is the engine's bug, but it must not escape a render.
    return {
      output: expr.listing,
      assigned: NOTHING_ASSIGNED,
      errors: [`Internal error: ${e instanceof Error ? e.message : String(e)}`],
    };
  }
}
