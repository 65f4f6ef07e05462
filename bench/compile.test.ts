// The compile bench without timing: its generated shapes are templates both engines accept
// and that render against the data generated with them, so a ratio compares the same work.
import { describe, expect, it } from 'vitest';
import { compile } from '../engine/index.ts';
import { collectShapes, generatedTemplate } from './compile.ts';

describe('compile bench shapes', () => {
  it('generates templates of about the asked size that compile without diagnostics and render their data', () => {
    for (const tags of [10, 300]) {
      const g = generatedTemplate(tags, tags);
      const t = compile(g.template, { mode: 'strict' });
      expect(t.ok, g.template).toBe(true);
      expect((g.template.match(/\{/g) ?? []).length).toBeGreaterThanOrEqual(tags);
      const out = t.render(JSON.parse(g.json), { mode: 'strict' });
      expect(out.errors).toEqual([]);
      expect(out.html.length).toBeGreaterThan(0);
    }
  });

  it('is deterministic and names every shape once', () => {
    expect(generatedTemplate(100, 7)).toEqual(generatedTemplate(100, 7));
    const names = collectShapes(['workload', 'demo', 'generated']).map((s) => s.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.filter((n) => n.startsWith('generated/'))).toHaveLength(18);
  });
});
