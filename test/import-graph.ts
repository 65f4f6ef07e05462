// The repository's source files and their relative import edges, as the architecture and
// reachability tests read them: one walker and one import pattern, so both tests see the
// same edges.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (absolute). */
export const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const SKIP = new Set(['node_modules', '.git', 'data', 'dist', 'scratch', '.scratch', 'coverage', 'test-output']);

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name)) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sources(p));
    else if (/\.(ts|tsx|js|mjs)$/.test(name)) out.push(p);
  }
  return out;
}

/** Every .ts, .tsx, .js and .mjs file of the repository (build output and data skipped), relative to `root`. */
export function repoSources(): string[] {
  return sources(root).map((f) => relative(root, f));
}

/** Static `import`/`export … from`, side-effect `import '…'`, and `import('…')` with a literal string. */
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|(?:^|\n)\s*import\s+['"]([^'"]+)['"]/g;

/** The import specifiers of `file` (relative to `root`), in source order. */
export function importsOf(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(IMPORT)) out.push(m[1] ?? m[2] ?? m[3]);
  return out;
}
