// Enforces the import directions of the architecture table (DEVELOPERS.md):
//   engine      → nothing in the repo (engine/index.ts alone wires formatters/ and predicates/)
//   formatters, predicates → engine/plugin-api.ts only (and their own util/ and templates/)
//   renderer    → engine/index.ts, formatters, predicates, hydrate/protocol
//   hydrate     → itself only, no node: built-ins
//   nothing     → bench/; only bench/ may import @squarespace/template-engine
import { dirname, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsOf, repoSources, root } from './import-graph.ts';

function area(rel: string): string {
  return rel.split('/')[0];
}

const files = repoSources();

function violations(): string[] {
  const bad: string[] = [];
  for (const file of files) {
    const from = area(file);
    const isTest = /\.test\.tsx?$/.test(file);
    for (const spec of importsOf(file)) {
      if (spec === '@squarespace/template-engine' || spec.startsWith('@squarespace/template-engine/')) {
        if (from !== 'bench') bad.push(`${file}: only bench/ may import ${spec}`);
        continue;
      }
      if (!spec.startsWith('.')) {
        // hydrate/build.ts is the Node-side bundler script; it is never bundled itself.
        if (from === 'hydrate' && !isTest && file !== 'hydrate/build.ts' && (spec.startsWith('node:') || ['fs', 'path', 'http', 'crypto', 'url'].includes(spec))) {
          bad.push(`${file}: hydrate/ must not import the Node built-in ${spec}`);
        }
        continue;
      }
      const target = relative(root, resolve(root, dirname(file), spec));
      const to = area(target);
      if (to === 'bench' && from !== 'bench') bad.push(`${file}: nothing may import bench/ (${target})`);
      if (isTest) continue;
      if (to === 'fixtures' && from !== 'fixtures' && from !== 'bench') bad.push(`${file}: production code must not import fixtures/ (${target})`);
      switch (from) {
        case 'engine':
          if (to !== 'engine' && !(file === 'engine/index.ts' && (target === 'formatters/index.ts' || target === 'predicates/index.ts'))) {
            bad.push(`${file}: engine/ must not import ${target}`);
          }
          break;
        case 'formatters':
        case 'predicates':
          if (to === 'engine' && target !== 'engine/plugin-api.ts') bad.push(`${file}: plugins import only engine/plugin-api.ts, not ${target}`);
          if (['renderer', 'hydrate'].includes(to)) bad.push(`${file}: plugins must not import ${target}`);
          if (from === 'predicates' && to === 'formatters' && !target.startsWith('formatters/util/')) bad.push(`${file}: predicates may share only formatters/util/, not ${target}`);
          if (from === 'formatters' && to === 'predicates') bad.push(`${file}: formatters must not import predicates/ (${target})`);
          break;
        case 'renderer':
          if (to === 'engine' && target !== 'engine/index.ts') bad.push(`${file}: renderer/ imports the engine only through engine/index.ts, not ${target}`);
          if (to === 'hydrate' && !target.startsWith('hydrate/protocol/') && !target.startsWith('hydrate/shared/')) bad.push(`${file}: renderer/ may import only hydrate/protocol/ and hydrate/shared/, not ${target}`);
          break;
        case 'hydrate':
          if (['engine', 'renderer', 'formatters', 'predicates'].includes(to)) bad.push(`${file}: hydrate/ must not import ${target}`);
          break;
      }
    }
  }
  return bad;
}

describe('architecture', () => {
  it('imports follow the one-way data flow', () => {
    expect(violations()).toEqual([]);
  });

  it('the checker sees the tree', () => {
    // Guards against a checker that silently scans nothing.
    expect(files).toContain('engine/index.ts');
    expect(importsOf('engine/index.ts')).toContain('../formatters/index.ts');
  });
});
