// Issue 18 acceptance: every non-test module under hydrate/, renderer/, formatters/, predicates/
// and engine/ must be reachable from a product entry point by real import edges. A module that
// only its own test imports is code no visitor, owner or template ever meets: a rule written
// down but not done. The walk starts at the entry points below and follows relative imports
// (static `import`/`export … from`, side-effect `import '…'`, and `import('…')` with a literal
// string), the same edges esbuild and Node follow; tests, bench/ and fuzz/ are never walked.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsOf, repoSources, root } from './import-graph.ts';

const AREAS = ['hydrate', 'renderer', 'formatters', 'predicates', 'engine'];

/**
 * Where the product starts. Each is run or loaded by something that is not an import edge.
 */
const ENTRY_POINTS: Record<string, string> = {
  'renderer/main.ts': 'the server: `npm start` bundles it (bin/start.mjs), tests and workers run it',
  'bin/start.mjs': '`npm start` (package.json scripts.start)',
  'bin/quire.js': 'the `quire` command (package.json bin); reaches bin/quire-cli.ts and renderer/preview/cli.ts',
  'hydrate/build.ts': 'the islands bundler; renderer/main.ts spawns it as a process, not an import',
  'hydrate/entry.ts': '/assets/islands.js: named in hydrate/build.ts entryPoints (a path, not an import)',
  'hydrate/captcha-local.ts': '/assets/captcha-local.js: named in hydrate/build.ts entryPoints',
  'hydrate/admin/entry.tsx': '/assets/admin.js, the admin app: named in hydrate/build.ts entryPoints',
  'engine/index.ts': 'the library API (README "Using the engine"); reaches formatters/ and predicates/',
  'renderer/site/schema/write-schemas.ts': 'maintainer script (`npx tsx …`): writes the published site-folder JSON Schemas',
};

/**
 * Test support: code that exists for tests and must NOT be reached from the product. Whole
 * folders named test-support/ are test support; these two live beside the plugins they
 * measure because the plugin tests of formatters/ and predicates/ share them (moving them
 * would touch every plugin test).
 */
const TEST_SUPPORT_FOLDERS = ['hydrate/test-support/', 'renderer/test-support/'];
const TEST_SUPPORT_FILES: Record<string, string> = {
  'formatters/util/plugin-test-context.ts': 'stand-in engine contexts for plugin unit tests',
  'formatters/util/work-meter.ts': 'counts work for the linear-time tests (no stopwatch)',
};

/**
 * Modules a visitor does not meet yet (issue 18). Each line says where it must be wired. The
 * list may only shrink: the test fails when a module here becomes reachable, so the line is
 * removed with the change that wires it.
 */
const NOT_YET_WIRED: Record<string, string> = {};

const isTest = (file: string): boolean => /\.test\.tsx?$/.test(file);

/** Every file reachable from the entry points, plus the relative imports that resolve to nothing. */
function walk(entries: readonly string[]): { reached: Set<string>; broken: string[] } {
  const reached = new Set<string>();
  const broken: string[] = [];
  const stack = [...entries];
  while (stack.length > 0) {
    const file = stack.pop()!;
    if (reached.has(file)) continue;
    reached.add(file);
    for (const spec of importsOf(file)) {
      if (!spec.startsWith('.')) continue;
      const target = relative(root, resolve(root, dirname(file), spec));
      if (existsSync(join(root, target)) && statSync(join(root, target)).isFile()) stack.push(target);
      else broken.push(`${file} -> ${spec}`);
    }
  }
  return { reached, broken };
}

const isTestSupport = (file: string): boolean =>
  TEST_SUPPORT_FOLDERS.some((folder) => file.startsWith(folder)) || file in TEST_SUPPORT_FILES;

const modules = repoSources().filter((f) => !f.endsWith('.d.ts') && AREAS.includes(f.split('/')[0]) && !isTest(f));
const { reached, broken } = walk(Object.keys(ENTRY_POINTS));

describe('reachability (#18)', () => {
  it('every product module is reachable from an entry point', () => {
    const orphans = modules.filter((f) => !reached.has(f) && !isTestSupport(f) && !(f in NOT_YET_WIRED));
    expect(orphans, 'imported only by tests: wire it where a visitor meets it, or delete it').toEqual([]);
  });

  it('NOT_YET_WIRED only lists modules that exist and are still unreached (the list shrinks)', () => {
    const stale = Object.keys(NOT_YET_WIRED).filter((f) => !existsSync(join(root, f)) || reached.has(f));
    expect(stale, 'wired or gone: remove these lines from NOT_YET_WIRED').toEqual([]);
  });

  it('test support is never reached from the product', () => {
    expect(modules.filter((f) => isTestSupport(f) && reached.has(f))).toEqual([]);
    for (const file of Object.keys(TEST_SUPPORT_FILES)) expect(existsSync(join(root, file)), file).toBe(true);
  });

  it('the walk sees the tree: entries exist, imports resolve, the bundle entries are named', () => {
    // Guards against a walker that silently reaches nothing (a wrong root or a broken pattern).
    for (const entry of Object.keys(ENTRY_POINTS)) expect(existsSync(join(root, entry)), entry).toBe(true);
    expect(broken).toEqual([]);
    expect(reached).toContain('formatters/index.ts');
    expect(reached).toContain('renderer/preview/cli.ts'); // through bin/quire-cli.ts's import()
    expect(reached).toContain('hydrate/islands/cart-page.tsx'); // through registry.ts's import()
    expect(modules.length).toBeGreaterThan(100);
    const build = readFileSync(join(root, 'hydrate/build.ts'), 'utf8');
    expect(build).toContain("'entry.ts'");
    expect(build).toContain("'captcha-local.ts'");
    expect(readFileSync(join(root, 'renderer/main.ts'), 'utf8')).toContain("'build.ts'");
  });

  it('finds a module that only a test imports', () => {
    // The check itself, on a module every test file imports and no product code does.
    expect(modules).toContain('hydrate/test-support/page.ts');
    expect(reached.has('hydrate/test-support/page.ts')).toBe(false);
  });
});
