import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CODES, codeFrame, FRAME_WIDTH, formatDiagnostic, makeDiagnostic } from './diagnostics.ts';
import { compile, render } from './index.ts';
import { Source } from './source.ts';
import { JavaError } from './plugin-api.ts';

describe('diagnostic catalogue', () => {
  it('docs/diagnostics.md lists exactly the codes of the catalogue', () => {
    const doc = readFileSync(new URL('../docs/diagnostics.md', import.meta.url), 'utf8');
    const documented = [...doc.matchAll(/^\| `([A-Z_]+)` \| (SyntaxError|RuntimeError) \| (\w+) \|/gm)].map((m) => ({ code: m[1], kind: m[2], stage: m[3] }));
    const catalogued = Object.entries(CODES).map(([code, info]) => ({ code, kind: info.kind, stage: info.stage }));
    expect(documented).toEqual(catalogued);
  });
});

describe('formatting', () => {
  const source = new Source('first line\n  {.section a\u00e9}\nlast', 'page.html');

  it('prints the reference text with Java escaping', () => {
    const d = makeDiagnostic('EXTRA_CHARS', "Extra characters found after SECTION instruction: '\u00e9\"\t'", source, { start: 13, end: 27 });
    expect([d.line, d.column]).toEqual([2, 3]);
    expect(formatDiagnostic(d)).toBe(`SyntaxError EXTRA_CHARS at line 2 character 3: Extra characters found after SECTION instruction: '\\u00E9\\"\\t'`);
  });

  it('lists children after ", causes follow: " only when asked', () => {
    const child = makeDiagnostic('MISMATCHED_END', 'Mismatched END found at ROOT.', source, { start: 0, end: 1 });
    const d = makeDiagnostic('COMPILE_PARTIAL_SYNTAX', "Compiling partial 'p' raised errors:", source, { start: 0, end: 1 }, { children: [child, child] });
    const childText = 'SyntaxError MISMATCHED_END at line 1 character 1: Mismatched END found at ROOT.';
    expect(formatDiagnostic(d)).toBe(`RuntimeError COMPILE_PARTIAL_SYNTAX at line 1 character 1: Compiling partial 'p' raised errors:, causes follow: ${childText}, ${childText}`);
    expect(formatDiagnostic(d, false)).toBe("RuntimeError COMPILE_PARTIAL_SYNTAX at line 1 character 1: Compiling partial 'p' raised errors:");
  });

  it('draws a code frame with a caret under the column', () => {
    const d = makeDiagnostic('EXTRA_CHARS', 'Extra characters', source, { start: 13, end: 27 });
    expect(codeFrame(d, source)).toBe(
      ['SyntaxError EXTRA_CHARS: Extra characters', '  at page.html:2:3', '  1 | first line', '> 2 |   {.section a\u00e9}', '    |   ^', '  3 | last'].join('\n'),
    );
  });

  it("frames a CRLF template's lines without their \\r, a tab's column and caret as one character", () => {
    const template = compile('{.section a}\r\n\tx {b|htm}\r\n{.end}{.end}\r\n', { name: 'crlf.jsont' });
    const [unknown, end] = template.diagnostics;
    expect([unknown!.code, unknown!.line, unknown!.column, end!.code, end!.line, end!.column]).toEqual(['FORMATTER_UNKNOWN', 2, 7, 'MISMATCHED_END', 3, 7]);
    // Before, each source line ended in '\r': a terminal printed the rest of a frame over it.
    expect(codeFrame(unknown!, template.source).split('\n')).toEqual([
      "SyntaxError FORMATTER_UNKNOWN: Formatter 'htm' is unknown.",
      '  at crlf.jsont:2:7',
      '  1 | {.section a}',
      '> 2 |  x {b|htm}',
      '    |       ^',
      '  3 | {.end}{.end}',
    ]);
  });

  it('puts the caret under the column as it is drawn: CJK and emoji two cells, a math letter one, a combining mark none', () => {
    const caretOf = (prefix: string) => {
      const template = compile(`${prefix}{a|htm}`, { name: 't' });
      const d = template.diagnostics[0]!;
      // The column counts UTF-16 units (LANGUAGE §1.9); the caret counts cells.
      expect(d.column).toBe(prefix.length + 4);
      return codeFrame(d, template.source).split('\n')[3]!.indexOf('^') - '    | '.length;
    };
    expect(caretOf('')).toBe(3);
    expect(caretOf('日本')).toBe(4 + 3);
    expect(caretOf('😀😀')).toBe(4 + 3);
    expect(caretOf('𝒜')).toBe(1 + 3);
    expect(caretOf('e\u0301')).toBe(1 + 3);
  });

  it('shows a window of a long line around the column, the caret under the same character', () => {
    const long = 'x'.repeat(5000) + '{.bogus}' + 'y'.repeat(5000);
    for (const text of [long, 'short\n' + long + '\n' + 'z'.repeat(300), '{.bogus}' + 'y'.repeat(500)]) {
      const src = new Source(text, 'min.json');
      const at = text.indexOf('{.bogus}');
      const d = makeDiagnostic('INVALID_INSTRUCTION', 'Invalid instruction', src, { start: at, end: at + 8 });
      const frame = codeFrame(d, src).split('\n');
      const marked = frame.findIndex((l) => l.startsWith('>'));
      const caret = frame[marked + 1].indexOf('^');
      expect(frame[marked].slice(caret, caret + 8)).toBe('{.bogus}');
      for (const line of frame.slice(2)) expect(line.length).toBeLessThanOrEqual(FRAME_WIDTH + 12);
      if (at > 0) expect(frame[marked]).toContain('| …x');
      expect(frame[marked].endsWith('y…')).toBe(true);
    }
  });

  it('every diagnostic from the engine carries code, stage, severity, span and position', () => {
    const t = compile('a\n{.section x}{b|nosuch}', { name: 'x.html' });
    const r = t.render({});
    const all = [...t.diagnostics, ...r.errors];
    expect(all.map((d) => d.code)).toEqual(['FORMATTER_UNKNOWN', 'EOF_IN_BLOCK', 'FORMATTER_UNKNOWN', 'EOF_IN_BLOCK'].slice(0, all.length));
    for (const d of all) {
      expect(CODES[d.code].kind).toBe(d.kind);
      expect(d.severity).toBe('error');
      expect(d.source).toBe('x.html');
      expect(d.span.end).toBeGreaterThanOrEqual(d.span.start);
      expect(d.line).toBeGreaterThan(0);
    }
    expect(t.explain()).toContain('> 2 | {.section x}{b|nosuch}');
  });

  it('strict compile failures render nothing and return the diagnostic', () => {
    const r = render('ok {.section}', {}, { mode: 'strict' });
    expect(r.html).toBe('');
    expect(r.errors.map((e) => e.code)).toEqual(['WHITESPACE_EXPECTED']);
  });
});

describe('runtime errors of plugins', () => {
  it('a JavaError carries no stack (it is data, reported at its tag) and leaves the stack limit as it was', () => {
    const before = Error.stackTraceLimit;
    const e = new JavaError('IllegalArgumentException', 'Unknown currency code: ZZZ');
    expect(Error.stackTraceLimit).toBe(before);
    expect(e.stack?.split('\n')).toEqual(['JavaError: Unknown currency code: ZZZ']);
    expect([e.javaClass, e.message, e instanceof Error]).toEqual(['IllegalArgumentException', 'Unknown currency code: ZZZ', true]);
    // Other errors keep their stacks.
    expect(new Error('x').stack?.split('\n').length).toBeGreaterThan(1);
  });

  it('is reported once per failing item of a list, with the reference text', () => {
    const items = Array.from({ length: 300 }, () => ({ a: { decimalValue: 1, currencyCode: 'ZZZ' } }));
    const r = render('{.repeated section items}[{a|i18n-money-format}]{.end}', { items });
    expect(r.html).toBe('[]'.repeat(300));
    expect(r.errors.filter((d) => d.code === 'UNEXPECTED_ERROR')).toHaveLength(200);
    expect(r.errors[0].message).toBe('Unexpected IllegalArgumentException when executing {a|i18n-money-format}: Unknown currency code: ZZZ');
    expect(r.errors.at(-1)?.code).toBe('LIMIT_ERRORS');
  });
});
