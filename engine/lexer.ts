// The template scanner (LANGUAGE §1.2). The reference's state machine tries the *last* `{`
// before each `}`; as a token grammar that is simply `{` + no braces + `}`, so a Tag token
// can never contain a brace and every other brace is literal text. Multi-line comments take
// precedence over everything.
//
// The grammar is written once as a Chevrotain lexer (`grammarLexer`), which is the
// specification; the compiler runs `TemplateScanner`, a hand-written scanner of the same
// six tokens. Profiling showed the Chevrotain lexer at ~15% of a compile (token objects,
// regex retries on every `{`); the hand scanner walks the text once with indexOf and
// allocates nothing. lexer.test.ts checks both agree on generated and hostile inputs.

import { createToken, Lexer, type IToken } from 'chevrotain';

export const Comment = createToken({ name: 'Comment', pattern: /\{##[\s\S]*?##\}/, line_breaks: true });
export const OpenComment = createToken({ name: 'OpenComment', pattern: /\{##[\s\S]*/, line_breaks: true });
export const Tag = createToken({ name: 'Tag', pattern: /\{[^{}]*\}/, line_breaks: true });
export const Text = createToken({ name: 'Text', pattern: /[^{}]+/, line_breaks: true });
export const LBrace = createToken({ name: 'LBrace', pattern: /\{/ });
export const RBrace = createToken({ name: 'RBrace', pattern: /\}/ });

let grammarLexer: Lexer | null = null;

/** The token grammar run by Chevrotain: the oracle the hand scanner is tested against. */
export function scanWithGrammar(text: string): IToken[] {
  grammarLexer ??= new Lexer([Comment, OpenComment, Tag, Text, LBrace, RBrace], {
    positionTracking: 'onlyOffset',
    ensureOptimizations: false,
    skipValidations: true,
  });
  return grammarLexer.tokenize(text).tokens;
}

export const Tok = { Text: 0, Tag: 1, Comment: 2, OpenComment: 3, LBrace: 4, RBrace: 5 } as const;
export type Tok = (typeof Tok)[keyof typeof Tok];

const LB = 0x7b;
const RB = 0x7d;

/** A cursor over the tokens of one template: `next()` advances and sets kind/start/end. */
export class TemplateScanner {
  kind: Tok = Tok.Text;
  start = 0;
  end = 0;
  // The next `{` and `}` at or after the last search (len when none): each is found with
  // indexOf (a fast native search) and searched again only once the scan has passed it.
  private open = -1;
  private close = -1;

  constructor(private readonly text: string) {}

  next(): boolean {
    const s = this.text;
    const len = s.length;
    const i = this.end;
    if (i >= len) return false;
    this.start = i;
    const c = s.charCodeAt(i);
    if (c === RB) {
      this.kind = Tok.RBrace;
      this.end = i + 1;
      return true;
    }
    if (c !== LB) {
      this.kind = Tok.Text;
      this.end = this.nextBrace(i + 1);
      return true;
    }
    if (s.charCodeAt(i + 1) === 0x23 && s.charCodeAt(i + 2) === 0x23) {
      const close = s.indexOf('##}', i + 3);
      this.kind = close < 0 ? Tok.OpenComment : Tok.Comment;
      this.end = close < 0 ? len : close + 3;
      return true;
    }
    const j = this.nextBrace(i + 1);
    if (j < len && s.charCodeAt(j) === RB) {
      this.kind = Tok.Tag;
      this.end = j + 1;
    } else {
      this.kind = Tok.LBrace;
      this.end = i + 1;
    }
    return true;
  }

  /** Offset of the first brace at or after `i`, or the text's length. */
  private nextBrace(i: number): number {
    const s = this.text;
    if (this.open < i) {
      const k = s.indexOf('{', i);
      this.open = k < 0 ? s.length : k;
    }
    if (this.close < i) {
      const k = s.indexOf('}', i);
      this.close = k < 0 ? s.length : k;
    }
    return this.open < this.close ? this.open : this.close;
  }
}
