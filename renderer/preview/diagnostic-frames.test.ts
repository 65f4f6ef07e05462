import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compile, Source } from '../../engine/index.ts';
import { BUILTIN_PARTIALS } from '../site/builtin-templates.ts';
import type { LoadedSite } from '../site/site-types.ts';
import { diagnosticFrame, OVERLAY_FRAMES, overlayHtml, problemCount, SITE_CODES, templateFrames, type Frame } from './diagnostic-frames.ts';

describe('overlayHtml', () => {
  it("shows a limit's diagnostic first, even when it comes after more frames than the overlay shows", () => {
    const frames: Frame[] = Array.from({ length: 200 }, (_, i) => ({ code: 'APPLY_PARTIAL_RECURSION_DEPTH', where: `t:${i}:1`, text: `depth ${i}` }));
    frames.push({ code: 'LIMIT_INSTRUCTIONS', where: 't:1:1', text: 'the instruction limit' });
    const html = overlayHtml(`${problemCount(frames)} in the site`, frames);
    expect(html.indexOf('the instruction limit')).toBeGreaterThan(-1);
    expect(html.indexOf('the instruction limit')).toBeLessThan(html.indexOf('depth 0'));
    expect(html.split('<pre').length - 1).toBe(OVERLAY_FRAMES);
    expect(html).toContain('aria-label="201 errors in the site"');
    expect(html).toContain('101 more not shown here: <code>quire render-page SITE_DIR /path</code> prints every one of this page');
  });
});

describe('problemCount', () => {
  const frame = (warning: boolean): Frame => (warning ? { code: 'W', where: 't:1:1', text: 'w', warning: true } : { code: 'E', where: 't:1:1', text: 'e' });

  it('counts errors and warnings apart, each singular or plural (the overlay said "Problems (3)" for one error and two warnings)', () => {
    expect(problemCount([frame(false), frame(true), frame(true)])).toBe('1 error, 2 warnings');
    expect(problemCount([frame(false), frame(false), frame(true)])).toBe('2 errors, 1 warning');
    expect(problemCount([frame(false)])).toBe('1 error');
    expect(problemCount([frame(true), frame(true)])).toBe('2 warnings');
    expect(problemCount([frame(true)])).toBe('1 warning');
  });

  it('is the heading and the accessible name of the overlay', () => {
    const html = overlayHtml(`${problemCount([frame(false), frame(true), frame(true)])} in the site`, [frame(false), frame(true), frame(true)]);
    expect(html).toContain('aria-label="1 error, 2 warnings in the site"');
    expect(html).toContain('>1 error, 2 warnings in the site</h2>');
  });
});

describe('diagnosticFrame of a missing partial', () => {
  const text = '<p>{.include post-meta.jsont}{.include gone}</p>';
  const source = new Source(text, 'templates/page.jsont');
  const site = {
    dir: '.',
    partials: { 'post-meta': '<i>{title}</i>' },
    templates: new Map([['page', { file: 'templates/page.jsont', name: 'page', template: { source, diagnostics: [] } }]]),
  } as unknown as LoadedSite;
  const missing = (name: string, column: number) =>
    ({
      code: 'INCLUDE_PARTIAL_MISSING',
      kind: 'RuntimeError',
      message: `Attempt to include partial '${name}' which could not be found.`,
      line: 1,
      column,
      source: 'templates/page.jsont',
    }) as never;

  it("keeps the engine's words and adds what to do: drop .jsont, or where the partial was looked for", () => {
    const named = diagnosticFrame(site, missing('post-meta.jsont', 4)).text;
    expect(named.split('\n')[0]).toBe("RuntimeError INCLUDE_PARTIAL_MISSING: Attempt to include partial 'post-meta.jsont' which could not be found.");
    expect(named.split('\n').at(-1)).toBe("  hint: partials are named without .jsont: write 'post-meta'");
    const gone = diagnosticFrame(site, missing('gone', 30)).text;
    expect(gone.split('\n').at(-1)).toBe('  hint: no partials/gone.jsont in the site folder and no {.macro gone} in this file');
  });
});

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('diagnosticFrame hints', () => {
  const site = { dir: '.', partials: {}, templates: new Map() } as unknown as LoadedSite;
  const at = (code: string, message: string) =>
    ({ code, kind: 'SyntaxError', message, line: 1, column: 1, source: 'templates/page.jsont' }) as never;
  const hint = (code: string, message: string) => diagnosticFrame(site, at(code, message)).text.split('\n').at(-1);

  it('names the nearest formatter or predicate, or where every one is listed, and how to close a block', () => {
    expect(hint('FORMATTER_UNKNOWN', "Formatter 'htm' is unknown.")).toBe("  hint: did you mean 'html'? (every formatter: docs/reference/formatters.md)");
    expect(hint('PREDICATE_UNKNOWN', "Predicate 'evn?' is unknown.")).toBe("  hint: did you mean 'even?'? (every predicate: docs/reference/predicates.md)");
    expect(hint('FORMATTER_UNKNOWN', "Formatter 'zzqqx' is unknown.")).toBe('  hint: every formatter is listed in docs/reference/formatters.md');
    expect(hint('LIMIT_SOURCE_LENGTH', 'Template source is 9200043 characters, over the limit of 4194304')).toBe(
      '  hint: move parts of it into partials (partials/NAME.jsont) and print each where it was with {@|apply NAME} or {.include NAME output}',
    );
    expect(hint('EOF_IN_BLOCK', 'Reached EOF in the middle of {.section page} started at line 5 char 1')).toBe('  hint: add {.end} where the block should close');
    expect(hint('INVALID_INSTRUCTION', "Invalid instruction '.sectoin'")).toBe('  hint: did you mean {.section …}? (every instruction: docs/language.md)');
    expect(hint('INVALID_INSTRUCTION', "Invalid instruction '.frobnicate'")).toBe('  hint: every instruction is described in docs/language.md');
    expect(hint('WHITESPACE_EXPECTED', "Whitespace expected, found ''")).toBe(
      '  hint: the instruction needs a space and what it works on: {.section NAME}, {.repeated section NAME}, {.var @name VALUE}',
    );
    expect(fs.existsSync(path.join(root, 'docs/reference/formatters.md')) && fs.existsSync(path.join(root, 'docs/reference/predicates.md'))).toBe(true);
  });
});

describe('diagnosticFrame hints for arguments and the errors a refused block leaves', () => {
  const hintsOf = (text: string) => {
    const template = compile(text, { name: 'page.jsont' });
    return templateFrames(template).map((frame) => `${frame.code} ${frame.where} ${frame.text.split('\n').at(-1)}`);
  };

  it('links what a formatter or predicate takes in the reference; a {.or} and {.end} of a refused predicate point at it, not at themselves', () => {
    expect(hintsOf('{.greaterThan? 3 x y}many{.or}few{.end}\n{n|pluralize a b c}')).toEqual([
      'PREDICATE_ARGS_INVALID page.jsont:1:1   hint: what greaterThan? takes, with an example: docs/reference/predicates.md#greaterthan; until it is fixed the block does not open, so its {.or} and {.end} are reported as well',
      'FORMATTER_ARGS_INVALID page.jsont:2:4   hint: what pluralize takes, with an example: docs/reference/formatters.md#pluralize',
      'NOT_ALLOWED_AT_ROOT page.jsont:1:26   hint: the instruction at line 1, column 1 was refused (PREDICATE_ARGS_INVALID), so it opened no block for this to close: fix that one and this error goes with it',
      'MISMATCHED_END page.jsont:1:34   hint: the instruction at line 1, column 1 was refused (PREDICATE_ARGS_INVALID), so it opened no block for this to close: fix that one and this error goes with it',
    ]);
    expect(hintsOf('{.equal?}x{.end}')[0]).toContain('hint: what equal? takes, with an example: docs/reference/predicates.md#equal;');
    // A {.end} with no refused opener before it keeps its own hint.
    expect(hintsOf('x{.end}')).toEqual(['MISMATCHED_END page.jsont:1:2   hint: this {.end} closes no open block: remove it, or open the block it was meant to close']);
    const reference = fs.readFileSync(path.join(root, 'docs/reference/predicates.md'), 'utf8');
    expect(reference).toContain('\n### greaterThan?\n');
  });
});

describe('diagnosticFrame of an unclosed block', () => {
  it('shows the line that opened the block as well as the end of the file it is reported at', () => {
    const text = '<main>\n{.section page}\n<h1>{title}</h1>\n</main>\n';
    const site = {
      dir: '.',
      partials: {},
      templates: new Map([['page', { file: 'templates/page.jsont', name: 'page', template: { source: new Source(text, 'templates/page.jsont'), diagnostics: [] } }]]),
    } as unknown as LoadedSite;
    const d = { code: 'EOF_IN_BLOCK', kind: 'SyntaxError', message: 'Reached EOF in the middle of {.section page} started at line 2 char 1', line: 5, column: 1, source: 'templates/page.jsont' } as never;
    expect(diagnosticFrame(site, d).text.split('\n').slice(-4)).toEqual(['  the block opened at line 2:', '> 2 | {.section page}', '    | ^', '  hint: add {.end} where the block should close']);
  });
});

describe('diagnosticFrame of an error inside a partial', () => {
  const site = { dir: '.', partials: { loop: '{.include loop}', ...BUILTIN_PARTIALS }, templates: new Map() } as unknown as LoadedSite;

  it('names the partial by its file, which the author can open (the engine names it by its key)', () => {
    const d = { code: 'APPLY_PARTIAL_RECURSION_DEPTH', kind: 'RuntimeError', message: 'Recursion through partial loop exceeded maximum depth of 16', line: 1, column: 1, source: 'loop' } as never;
    const frame = diagnosticFrame(site, d);
    // Before: `at loop:1:1`.
    expect(frame.where).toBe('partials/loop.jsont:1:1');
    expect(frame.text.split('\n').slice(1, 3)).toEqual(['  at partials/loop.jsont:1:1', '> 1 | {.include loop}']);
    // A partial the renderer supplies has no file in the folder: its name stays.
    const builtin = Object.keys(BUILTIN_PARTIALS)[0]!;
    expect(diagnosticFrame(site, { ...(d as object), source: builtin } as never).where).toBe(`${builtin}:1:1`);
  });
});

describe('SITE_CODES', () => {
  it("docs/diagnostics.md's site folder table lists exactly these codes, each with its meaning", () => {
    const doc = fs.readFileSync(path.join(root, 'docs/diagnostics.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## Site folder problems'));
    const rows = [...section.matchAll(/^\| `([A-Z_]+)` \| (.*) \|$/gm)].map((m) => [m[1], m[2]!.replace(/\\\|/g, '|')]);
    expect(rows).toEqual(Object.entries(SITE_CODES));
  });
});
