import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LBrace, OpenComment, RBrace, Tag, Comment, TemplateScanner, Tok, scanWithGrammar } from './lexer.ts';
import { compile } from './index.ts';
import { printTemplate } from './print.ts';

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

  // The parser scans a source with characters beyond Latin-1 through a one-byte image of it
  // (parser.ts, `prepareNarrowRuns`), where such a character comes out as its low byte or `ÿ`:
  // it must find the tags a `—` in its place would leave, whatever the character, one whose
  // low byte is `{`, `}` or `#` included (`ⅻ` U+217B, `Ž` U+017D, `ģ` U+0123), and however many.
  it('finds the same tags in a text whatever its characters beyond Latin-1', () => {
    const wide = ['—', '…', '\u217b', '\u217d', '\u017d', '\u0123', '😀', '\ud800', '\uff5b'];
    const piece = fc.constantFrom('{', '}', '#', '##', '{##', '##}', 'a', ' ', '{a}', '{.section a}', '{.end}', '{a|truncate 3 ', 'é', ...wide);
    const asDash = (t: string) => t.replace(/[^\u0000-\u00ff]/g, '—');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }).map((p) => p.join('')), fc.nat(40), (text, extra) => {
        // Past 16 runs beyond Latin-1, slices are cut from the text, not the image.
        const t = ' —'.repeat(extra) + text;
        const ast = compile(t).ast;
        const dashed = compile(asDash(t)).ast;
        expect(ast === null ? null : asDash(printTemplate(ast))).toBe(dashed === null ? null : printTemplate(dashed));
      }),
      { numRuns: 1000 },
    );
  });

  it('yields Tag tokens for a well-formed page', () => {
    expect(scannerTokens('<p>{a|html}</p>').map((t) => t[0])).toEqual([Tok.Text, Tok.Tag, Tok.Text]);
  });
});
