// One diagnostic type for every stage. Codes are stable; the reference codes keep the
// reference's message texts (LANGUAGE §7.6, §7.7) so `formatDiagnostic` reproduces the
// reference's full error text byte for byte. Codes prefixed LIMIT_ are Quire's own.

import { javaEscape } from './java-escape.ts';
import type { Source, Span } from './source.ts';

export type Stage = 'parse' | 'assemble' | 'bind' | 'render' | 'expression' | 'limit';
export type Severity = 'error' | 'warning';

export interface Diagnostic {
  readonly code: DiagnosticCode;
  /** `SyntaxError` for compile-time problems, `RuntimeError` for render-time ones. */
  readonly kind: 'SyntaxError' | 'RuntimeError';
  readonly stage: Stage;
  readonly severity: Severity;
  /** The message without prefix, as the reference words it. */
  readonly message: string;
  readonly line: number;
  readonly column: number;
  readonly span: Span;
  /** Name of the template or partial the span points into. */
  readonly source: string;
  /** For errors caused by a partial's syntax errors. */
  readonly children?: readonly Diagnostic[];
  /** Which limit stopped processing, for limit diagnostics. */
  readonly limit?: keyof import('./limits.ts').Limits;
}

interface CodeInfo {
  readonly kind: 'SyntaxError' | 'RuntimeError';
  readonly stage: Stage;
  readonly summary: string;
}

const syntax = (stage: Stage, summary: string): CodeInfo => ({ kind: 'SyntaxError', stage, summary });
const runtime = (stage: Stage, summary: string): CodeInfo => ({ kind: 'RuntimeError', stage, summary });

/** The catalogue. `docs/diagnostics.md` lists the same codes (checked by a test). */
export const CODES = {
  BINDVAR_EXPECTS_NAME: syntax('parse', '`.var` without an `@name`'),
  CTXVAR_EXPECTS_NAME: syntax('parse', '`.ctx` without an `@name`'),
  CTXVAR_EXPECTS_BINDINGS: syntax('parse', '`.ctx` without a valid first `key=ref` binding'),
  DEAD_CODE_BLOCK: syntax('assemble', '`.or` after a plain `.or`'),
  EOF_IN_BLOCK: syntax('assemble', 'a block is still open at the end of the template'),
  EOF_IN_COMMENT: syntax('parse', 'a multi-line comment is never closed'),
  EXTRA_CHARS: syntax('parse', 'characters after a complete instruction'),
  FORMATTER_INVALID: syntax('bind', '`|` not followed by a formatter name'),
  FORMATTER_NEEDS_ARGS: syntax('bind', 'a formatter that requires arguments has none'),
  FORMATTER_UNKNOWN: syntax('bind', 'no formatter of that name'),
  FORMATTER_ARGS_INVALID: syntax('bind', "a formatter's argument checker rejected its arguments"),
  IF_EMPTY: syntax('parse', '`.if` with nothing to test'),
  IF_EXPECTED_VAROP: syntax('parse', '`.if` expected a variable or an operator'),
  IF_TOO_MANY_OPERATORS: syntax('parse', '`.if` ends with an operator'),
  IF_TOO_MANY_VARS: syntax('parse', '`.if` with more than 30 variables'),
  INJECT_EXPECTS_NAME: syntax('parse', '`.inject` without an `@name`'),
  INJECT_EXPECTS_PATH: syntax('parse', '`.inject` without a path'),
  INVALID_INSTRUCTION: syntax('parse', 'an unknown `.keyword`'),
  MACRO_EXPECTS_NAME: syntax('parse', '`.macro` without a name'),
  MISMATCHED_END: syntax('assemble', '`.end` with no open block'),
  MISSING_WITH_KEYWORD: syntax('parse', '`.alternates` not followed by `with`'),
  MISSING_SECTION_KEYWORD: syntax('parse', '`.repeated` not followed by `section`'),
  MISSING_VARIABLE_NAME: syntax('parse', '`.var @name` without a variable'),
  NOT_ALLOWED_AT_ROOT: syntax('assemble', '`.or` or `.alternates with` outside any block'),
  NOT_ALLOWED_IN_BLOCK: syntax('assemble', 'an instruction not allowed in the open block'),
  OR_EXPECTED_PREDICATE: syntax('parse', '`.or` followed by something other than a predicate'),
  PREDICATE_ARGS_INVALID: syntax('bind', "a predicate's argument checker rejected its arguments"),
  PREDICATE_NEEDS_ARGS: syntax('bind', 'a predicate that requires arguments has none'),
  PREDICATE_UNKNOWN: syntax('bind', 'no predicate of that name'),
  VARIABLE_EXPECTED: syntax('parse', '`.section` / `.repeated section` without a variable'),
  WHITESPACE_EXPECTED: syntax('parse', 'whitespace missing after a keyword'),
  APPLY_PARTIAL_SYNTAX: runtime('render', 'strict mode: an applied partial has syntax errors'),
  APPLY_PARTIAL_MISSING: runtime('render', '`apply` names no macro or partial'),
  APPLY_PARTIAL_RECURSION_DEPTH: runtime('render', '`apply` / `.include` nested deeper than the partial depth limit'),
  COMPILE_PARTIAL_SYNTAX: runtime('render', 'safe mode: an applied partial has syntax errors (children follow)'),
  EXPRESSION_PARSE: runtime('expression', 'an `.eval` expression does not parse (includes the expression token limit)'),
  EXPRESSION_REDUCE: runtime('expression', 'an `.eval` expression failed while evaluating (includes the string length limit)'),
  INCLUDE_PARTIAL_SYNTAX: runtime('render', 'strict mode: an included partial has syntax errors'),
  INCLUDE_PARTIAL_MISSING: runtime('render', '`.include` names no macro or partial'),
  UNEXPECTED_ERROR: runtime('render', 'a formatter or predicate failed unexpectedly'),
  LIMIT_SOURCE_LENGTH: syntax('limit', 'the template is longer than `limits.maxSourceLength`'),
  LIMIT_NESTING: syntax('limit', 'blocks nest deeper than `limits.maxNesting`'),
  LIMIT_SYNTAX_ERRORS: syntax('limit', 'more syntax errors than `limits.maxErrors`; the rest were counted, not kept (warning)'),
  LIMIT_OUTPUT: runtime('limit', 'the output, or a text kept in a variable, grew past `limits.maxOutputLength`'),
  LIMIT_TEXT: runtime('limit', 'formatters and partials made more text than `limits.maxTextMade` that was not printed'),
  LIMIT_INSTRUCTIONS: runtime('limit', 'rendering executed more than `limits.maxInstructions` instructions'),
  LIMIT_TIME: runtime('limit', 'rendering ran longer than `limits.maxRenderMs` milliseconds'),
  LIMIT_ERRORS: runtime('limit', 'more runtime errors than `limits.maxErrors`; the rest were counted, not kept (warning)'),
} as const satisfies Record<string, CodeInfo>;

export type DiagnosticCode = keyof typeof CODES;

export function makeDiagnostic(
  code: DiagnosticCode,
  message: string,
  source: Source,
  span: Span,
  extra?: { children?: Diagnostic[]; limit?: Diagnostic['limit']; severity?: Severity },
): Diagnostic {
  const info = CODES[code];
  const { line, column } = source.position(span.start);
  const d: {
    -readonly [K in keyof Diagnostic]: Diagnostic[K];
  } = { code, kind: info.kind, stage: info.stage, severity: extra?.severity ?? 'error', message, line, column, span, source: source.name };
  if (extra?.children && extra.children.length) d.children = extra.children;
  if (extra?.limit) d.limit = extra.limit;
  return d;
}

/**
 * The reference's full error text: `SyntaxError CODE at line L character C: message`,
 * Java-escaped, with `, causes follow: ` and the children when asked.
 */
export function formatDiagnostic(d: Diagnostic, withChildren = true): string {
  let s = javaEscape(`${d.kind} ${d.code} at line ${d.line} character ${d.column}`) + ': ' + javaEscape(d.message);
  if (withChildren && d.children && d.children.length) {
    s += ', causes follow: ' + d.children.map((c) => formatDiagnostic(c, true)).join(', ');
  }
  return s;
}

/**
 * Characters of a source line a frame shows: a longer line is shown as a window this wide
 * around the column, `…` marking what is cut. A minified JSON file is one line: printed whole,
 * a 2 MB catalogue's 180,000 findings ran a check out of memory.
 */
export const FRAME_WIDTH = 120;

/** A human-readable frame: the message, the source line and a caret under the column. */
export function codeFrame(d: Diagnostic, source: Source, context = 2): string {
  const lines: string[] = [`${d.kind} ${d.code}: ${d.message}`, `  at ${d.source}:${d.line}:${d.column}`];
  const first = Math.max(1, d.line - context);
  const lastLine = source.position(source.text.length).line;
  const last = Math.min(d.line + context, lastLine);
  const width = String(last).length;
  // A long line is cut to a window around the column (the same window for every long line of
  // the frame); a line that fits is shown whole.
  const from = source.lineText(d.line).length > FRAME_WIDTH ? Math.max(0, d.column - 1 - (FRAME_WIDTH >> 1)) : 0;
  for (let n = first; n <= last; n++) {
    // A CRLF file's `\r` is a character of its line (LANGUAGE §1.2), but printed it sends the
    // terminal's cursor back over the line.
    const line = source.lineText(n);
    const whole = line.endsWith('\r') ? line.slice(0, -1) : line;
    if (n === lastLine && n > d.line && whole === '') break;
    const cut = whole.length > FRAME_WIDTH && from > 0 ? 1 : 0;
    let text = whole.length > FRAME_WIDTH ? whole.slice(from, from + FRAME_WIDTH) : whole;
    if (cut) text = '…' + text;
    if (whole.length > FRAME_WIDTH && whole.length > from + FRAME_WIDTH) text += '…';
    const marker = n === d.line ? '>' : ' ';
    const shown = text.replace(/\t/g, ' ');
    lines.push(`${marker} ${String(n).padStart(width)} | ${shown}`);
    // The caret sits under the column as a terminal or a monospace font draws the line: a
    // CJK character or an emoji takes two cells, a combining mark none (columns count UTF-16
    // units, LANGUAGE §1.9, so `日本{a|htm}` put it two cells early, `𝒜{a|htm}` one late).
    if (n === d.line) lines.push(`  ${' '.repeat(width)} | ${' '.repeat(cellWidth(shown.slice(0, Math.max(0, d.column - 1 - from + cut))))}^`);
  }
  return lines.join('\n');
}

/**
 * Terminal cells of a text (the East Asian Wide and Fullwidth ranges and emoji take two, combining
 * marks and zero-width characters none): enough of wcwidth for a caret, without a table.
 */
function cellWidth(text: string): number {
  let cells = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if ((c >= 0x0300 && c <= 0x036f) || (c >= 0x200b && c <= 0x200f) || (c >= 0xfe00 && c <= 0xfe0f) || c === 0x20e3) continue;
    const wide =
      (c >= 0x1100 && c <= 0x115f) ||
      (c >= 0x2e80 && c <= 0xa4cf && c !== 0x303f) ||
      (c >= 0xac00 && c <= 0xd7a3) ||
      (c >= 0xf900 && c <= 0xfaff) ||
      (c >= 0xfe30 && c <= 0xfe4f) ||
      (c >= 0xff00 && c <= 0xff60) ||
      (c >= 0xffe0 && c <= 0xffe6) ||
      (c >= 0x1f300 && c <= 0x1f64f) ||
      (c >= 0x1f900 && c <= 0x1faff) ||
      (c >= 0x20000 && c <= 0x3fffd);
    cells += wide ? 2 : 1;
  }
  return cells;
}

/** Thrown inside the engine to abort in strict mode or on a hard limit; never escapes the API. */
export class Abort extends Error {
  constructor(readonly diagnostic: Diagnostic) {
    super(diagnostic.message);
    this.name = 'Abort';
  }
}
