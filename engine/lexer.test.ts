import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LBrace, OpenComment, RBrace, Tag, Comment, TemplateScanner, Tok, scanWithGrammar } from './lexer.ts';

const KIND_OF = new Map<unknown, Tok>([
  [Tag, Tok.Tag],
  [Comment, Tok.Comment],
  [OpenComment, Tok.OpenComment],
  [LBrace, Tok.LBrace],
  [RBrace, Tok.RBrace],
]);

function grammarTokens(text: string): [Tok, number, number][] {
  return scanWithGrammar(text).map((t) => [KIND_OF.get(t.tokenType) ?? Tok.Text, t.startOffset, t.startOffset + t.image.length]);
}

function scannerTokens(text: string): [Tok, number, number][] {
  const out: [Tok, number, number][] = [];
  const s = new TemplateScanner(text);
  while (s.next()) out.push([s.kind, s.start, s.end]);
  return out;
}

describe('TemplateScanner', () => {
  it.each([
    '',
    'plain text',
    '{a}',
    '{a{b}c}',
    '}}{{',
    '{## c ##}x',
    '{## open',
    '{###}',
    '{####}',
    '{a {## c ##} b}',
    '{# one line}{.section a}x{.end}',
    '{',
    'a{b',
    '{}',
  ])('tokenizes %j like the grammar', (text) => {
    expect(scannerTokens(text)).toEqual(grammarTokens(text));
  });

  it('agrees with the grammar on generated templates', () => {
    const piece = fc.constantFrom('{', '}', '#', '##', '{##', '##}', 'a', ' ', '\n', '.', '|', '{a}', '{.end}');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }).map((p) => p.join('')), (text) => {
        expect(scannerTokens(text)).toEqual(grammarTokens(text));
      }),
      { numRuns: 500 },
    );
  });

  it('yields Tag tokens for a well-formed page', () => {
    expect(scannerTokens('<p>{a|html}</p>').map((t) => t[0])).toEqual([Tok.Text, Tok.Tag, Tok.Text]);
  });
});
