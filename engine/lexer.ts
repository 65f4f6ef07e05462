// The template scanner (LANGUAGE §1.2) as a Chevrotain lexer built once at module load.
// The reference's state machine tries the *last* `{` before each `}`; as a token grammar
// that is simply `{` + no braces + `}`, so a Tag token can never contain a brace and every
// other brace is literal text. Multi-line comments take precedence over everything.

import { createToken, Lexer, type IToken } from 'chevrotain';

export const Comment = createToken({ name: 'Comment', pattern: /\{##[\s\S]*?##\}/, line_breaks: true });
export const OpenComment = createToken({ name: 'OpenComment', pattern: /\{##[\s\S]*/, line_breaks: true });
export const Tag = createToken({ name: 'Tag', pattern: /\{[^{}]*\}/, line_breaks: true });
export const Text = createToken({ name: 'Text', pattern: /[^{}]+/, line_breaks: true });
export const LBrace = createToken({ name: 'LBrace', pattern: /\{/ });
export const RBrace = createToken({ name: 'RBrace', pattern: /\}/ });

const templateLexer = new Lexer([Comment, OpenComment, Tag, Text, LBrace, RBrace], {
  // Offsets are all we keep; line/column are computed on demand from the source.
  positionTracking: 'onlyOffset',
  // `[^{}]+` is a complement set, which defeats first-character optimisation; with six
  // token types the plain scan is fast enough.
  ensureOptimizations: false,
  skipValidations: true,
});

export type TemplateToken = IToken;

/** Splits a template into Tag, Comment, OpenComment, Text, LBrace and RBrace tokens. */
export function scanTemplate(text: string): IToken[] {
  // Every character matches some token, so the lexer never reports errors.
  return templateLexer.tokenize(text).tokens;
}
