import { codeFrame, Source, type Diagnostic, type Template } from '../../engine/index.ts';
import { rendererEngine } from '../platform/renderer-engine.ts';
import type { Frame } from './diagnostic-frames.ts';

// An `.eval` whose operator lacks an operand (`{.eval @total = price *}`, `{.eval 1 + * 2}`)
// parses, so no syntax check sees it; at render the engine reports EXPRESSION_REDUCE only when
// the broken operator's value is printed, and nothing at all when it is assigned (the reference
// drops the assignment silently): `@total` is never set and the page shows nothing. The
// expression's RPN, which debug mode prints (`{.eval #…}`, LANGUAGE §5.12), tells it for any
// data: each operator needs its operands on the stack.

const UNARY = new Set(['unary plus', 'unary minus', 'logical not', 'bitwise not']);

/** The tokens of each sub-expression of a debug listing `EVAL=[[a 1 <add>], […]]`, or null when it is not one. */
function listingTokens(output: string): string[][] | null {
  if (!output.startsWith('EVAL=[')) return null;
  const subs: string[][] = [];
  let i = 'EVAL=['.length;
  while (i < output.length && output[i] !== ']') {
    if (output.startsWith(', ', i)) i += 2;
    if (output[i] !== '[') return null;
    i++;
    const tokens: string[] = [];
    while (i < output.length && output[i] !== ']') {
      if (output[i] === ' ') {
        i++;
        continue;
      }
      const start = i;
      if (output[i] === '"') {
        for (i++; i < output.length && output[i] !== '"'; i++) if (output[i] === '\\') i++;
        i++;
      } else if (output[i] === '<') {
        i = output.indexOf('>', i) + 1;
        if (i === 0) return null;
      } else {
        while (i < output.length && output[i] !== ' ' && output[i] !== ']') i++;
      }
      tokens.push(output.slice(start, i));
    }
    i++;
    subs.push(tokens);
  }
  return subs;
}

/**
 * The operator of the RPN short of an operand, by its description. The first operator that
 * finds too few operands on the stack is often the one after the culprit, which took them
 * (`@t = price *` is `@t price <multiply> <assign>`): an operator right before it is named.
 */
function operatorShortOfOperands(subs: readonly (readonly string[])[]): string | null {
  for (const tokens of subs) {
    // Operand counts between call markers: `<args>` opens a call's own count.
    const counts = [0];
    for (const [i, token] of tokens.entries()) {
      if (token === '<args>') counts.push(0);
      else if (token.startsWith('<')) {
        const description = token.slice(1, -1);
        const needs = UNARY.has(description) ? 1 : 2;
        const before = tokens[i - 1];
        if (counts[counts.length - 1]! < needs) return before !== undefined && before.startsWith('<') && before !== '<args>' ? before.slice(1, -1) : description;
        counts[counts.length - 1]! -= needs - 1;
      } else if (token.endsWith('()') && counts.length > 1) {
        counts.pop();
        counts[counts.length - 1]!++;
      } else counts[counts.length - 1]!++;
    }
  }
  return null;
}

interface EvalNode {
  kind: string;
  span: { start: number };
  expression?: string;
  body?: EvalNode[];
  alternates?: { body: EvalNode[] } | null;
  alt?: EvalNode | null;
}

function evals(body: readonly EvalNode[], out: EvalNode[]): EvalNode[] {
  for (const node of body) {
    if (node.kind === 'eval') out.push(node);
    if (node.body) evals(node.body, out);
    if (node.alternates) evals(node.alternates.body, out);
    for (let or = node.alt ?? null; or; or = or.alt ?? null) evals(or.body ?? [], out);
  }
  return out;
}

/**
 * `quire check`: an EXPRESSION_REDUCE frame for each `.eval` whose RPN has an operator short of
 * operands. Each is rendered alone in debug mode with no data (an `.eval` that does not parse
 * is EXPRESSION_PARSE's, and skipped).
 */
export function evalOperandFrames(template: Template, file: string): Frame[] {
  const ast = template.ast as unknown as { body: EvalNode[] } | null;
  if (!ast) return [];
  const frames: Frame[] = [];
  let source: Source | null = null;
  for (const node of evals(ast.body, [])) {
    const expression = node.expression ?? '';
    const probe = rendererEngine().compile(`{.eval #${expression.startsWith('#') ? expression.slice(1) : expression}}`);
    if (probe.expressionDiagnostics().length) continue;
    const subs = listingTokens(probe.render({}).html);
    const operator = subs === null ? null : operatorShortOfOperands(subs);
    if (operator === null) continue;
    source ??= new Source(template.source.text, file);
    const { line, column } = source.position(node.span.start);
    const assigned = /^\s*@[A-Za-z][\w-]*\s*=(?!=)/.test(expression);
    const message =
      `Error reducing expression: the operator ${operator} is missing an operand` +
      (assigned ? ', so the assignment is dropped without a word at render and the variable stays unset' : ', for any data');
    const d = { kind: 'RuntimeError', code: 'EXPRESSION_REDUCE', message, line, column, source: file } as unknown as Diagnostic;
    const hint = 'every operator needs a value on each side (a unary -, +, ! or ~ one after it): complete the expression (docs/language.md, "Expressions: .eval")';
    frames.push({ code: 'EXPRESSION_REDUCE', where: `${file}:${line}:${column}`, text: `${codeFrame(d, source)}\n  hint: ${hint}` });
  }
  return frames;
}
