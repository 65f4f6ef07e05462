import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatDiagnostic, listPlugins, render } from '../engine/index.ts';
import { API_ERROR_CODES } from '../renderer/api/error-codes.ts';
import { API_ERRORS_FILE, apiErrorsMarkdown } from './api-error-docs.ts';
import { generate, REFERENCE_FILES } from './generate.ts';
import { EXAMPLE_OPTIONS, loadDocs, referenceMarkdown, renderExample, ROOT, type PluginKind } from './plugin-docs.ts';

// The reference and the language guide cannot drift from the engine: every plugin is
// documented, every example renders to the output written next to it, and the committed
// Markdown is what the generator writes.

const KINDS: PluginKind[] = ['formatters', 'predicates'];

function entries(kind: PluginKind) {
  return [...loadDocs(kind).values()].flatMap((family) => Object.entries(family));
}

describe('plugin reference (docs/reference)', () => {
  it('documents exactly the registered plugins: 95 formatters and 101 predicates, each once', () => {
    const plugins = listPlugins();
    for (const kind of KINDS) {
      const names = entries(kind).map(([name]) => name);
      expect(new Set(names).size, `${kind} documented twice`).toBe(names.length);
      expect([...names].sort()).toEqual([...plugins[kind]].sort());
    }
    expect(plugins.formatters).toHaveLength(95);
    expect(plugins.predicates).toHaveLength(101);
  });

  it('gives every plugin a description, its arguments and a complete example', () => {
    for (const kind of KINDS) {
      for (const [name, doc] of entries(kind)) {
        expect(doc.description.trim().length, name).toBeGreaterThan(10);
        expect(doc.arguments.trim(), name).not.toBe('');
        expect(doc.example.template, name).toContain(kind === 'formatters' ? `|${name}` : `.${name}`);
        expect(typeof doc.example.output, name).toBe('string');
      }
    }
  });

  it('renders every example to its documented output, without diagnostics', () => {
    const drift: string[] = [];
    for (const kind of KINDS) {
      for (const [name, doc] of entries(kind)) {
        const { html, errors } = renderExample(doc);
        if (html !== doc.example.output || errors.length) drift.push(`${name}: ${JSON.stringify(html)} ${errors.join(' ')}`);
      }
    }
    expect(drift).toEqual([]);
  });

  it('the committed docs/reference files are what `npm run docs` writes', () => {
    expect(generate(true)).toEqual([]);
    for (const kind of KINDS) {
      const text = fs.readFileSync(REFERENCE_FILES[kind], 'utf8');
      expect(text).toBe(referenceMarkdown(kind));
      const headings = text.split('\n').filter((line) => line.startsWith('### ')).map((line) => line.slice(4));
      expect(headings.sort()).toEqual([...listPlugins()[kind]].sort());
    }
  });
});

describe('API error codes (docs/api-errors.md)', () => {
  it('is what `npm run docs` writes from the catalogue: every code once, with its status and meaning', () => {
    const text = fs.readFileSync(API_ERRORS_FILE, 'utf8');
    expect(text).toBe(apiErrorsMarkdown());
    const rows = [...text.matchAll(/^\| `([A-Z0-9_]+)` \| (\d{3}) \| (.+) \|$/gm)].map((m) => [m[1], Number(m[2]), m[3]]);
    const byCode = (a: unknown[], b: unknown[]) => String(a[0]).localeCompare(String(b[0]));
    expect(rows.sort(byCode)).toEqual(Object.entries(API_ERROR_CODES).map(([code, entry]) => [code, entry.status, entry.meaning]).sort(byCode));
  });

  it('is linked from the README', () => {
    expect(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8')).toContain('(docs/api-errors.md)');
  });
});

/** The guide's examples: a jsont block, an optional json block (data), an html block (output), an optional diagnostics block. */
function guideExamples(text: string) {
  const blocks = [...text.matchAll(/^```(\w*)\n([\s\S]*?)\n```$/gm)].map((m) => ({ lang: m[1]!, body: m[2]! }));
  const out: { template: string; data: unknown; output: string; diagnostics: string[] | null }[] = [];
  for (let i = 0; i < blocks.length; i++) {
    if (blocks[i]!.lang !== 'jsont') continue;
    let j = i + 1;
    let data: unknown = {};
    if (blocks[j]?.lang === 'json') data = JSON.parse(blocks[j++]!.body);
    expect(blocks[j]?.lang, `no html output after ${blocks[i]!.body}`).toBe('html');
    const output = blocks[j++]!.body;
    const diagnostics = blocks[j]?.lang === 'diagnostics' ? blocks[j]!.body.split('\n') : null;
    out.push({ template: blocks[i]!.body, data, output, diagnostics });
  }
  return out;
}

describe('language guide (docs/language.md)', () => {
  const guide = fs.readFileSync(path.join(ROOT, 'docs/language.md'), 'utf8');

  it('covers instructions, .eval, partials, macros, limits and diagnostics', () => {
    for (const heading of ['## 1. Variables', '## 3. Sections', '## 4. Predicates and `.if`', '## 5. Local variables', '## 6. Expressions: `.eval`', '## 7. Partials and macros', '## 9. Limits', '## 10. Diagnostics']) {
      expect(guide).toContain(heading);
    }
  });

  it('every example renders to the output shown, with the diagnostics shown (none unless listed)', () => {
    const examples = guideExamples(guide);
    expect(examples.length).toBeGreaterThanOrEqual(12);
    for (const example of examples) {
      const result = render(example.template, example.data, EXAMPLE_OPTIONS);
      expect(result.html, example.template).toBe(example.output);
      expect(result.errors.map((d) => formatDiagnostic(d)), example.template).toEqual(example.diagnostics ?? []);
    }
  });
});
