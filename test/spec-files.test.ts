// Runs every behaviour spec file under fixtures/ (engine, formatters, predicates) through
// the public engine API, the way LANGUAGE.md §0.2 describes the examples' modes.
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { compile, formatDiagnostic, parseJson } from '../engine/index.ts';
import { loadSpecDir, type SpecCase } from '../fixtures/loader.ts';

const root = fileURLToPath(new URL('../fixtures/', import.meta.url));
const cases = loadSpecDir(root);

// The reference's column for formatter errors comes from internal matcher state
// (LANGUAGE §7.4); it is not compared.
function normalise(message: string): string {
  return message.replace(/(SyntaxError FORMATTER_[A-Z_]+ at line \d+ character )\d+/g, '$1?');
}

function run(c: SpecCase) {
  const strictCompile = !c.mode.has('safe');
  const strictRender = c.mode.has('strict');
  const template = compile(c.template, { mode: strictCompile ? 'strict' : 'safe', preprocess: c.mode.has('preprocess') });
  const data = parseJson(c.json);
  const result = template.render(data, {
    mode: strictRender ? 'strict' : 'safe',
    partials: c.partials,
    injects: c.injects,
    include: c.mode.has('include'),
    now: c.properties.now ? Number(c.properties.now) : undefined,
    locale: c.properties.locale ?? 'en-US',
    timezone: c.properties.timezone,
  });
  return result;
}

describe('spec files', () => {
  for (const c of cases) {
    const label = `${c.file.slice(root.length)} :: ${c.name}`;
    it(label, () => {
      const first = run(c);
      const messages = first.errors.map((e) => normalise(formatDiagnostic(e, !c.mode.has('strict'))));
      if (c.errors) expect(messages).toEqual(c.errors.map(normalise));
      else if (c.codes) expect(first.errors.map((e) => e.code)).toEqual(c.codes);
      else expect(messages).toEqual([]);
      if (c.output !== undefined) expect(first.html).toBe(c.output);
      else if (c.mode.has('strict') && c.errors) expect(first.html).toBe('');
      // Rendering again (compile cache and per-instruction caches warm) gives the same output.
      const second = run(c);
      expect(second.html).toBe(first.html);
    });
  }
});
