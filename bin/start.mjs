#!/usr/bin/env node
// `npm start`: bundles the server (`renderer/main.ts`) with esbuild into
// `dist/server/main.mjs`, then runs that bundle as plain JavaScript.
//
// Why not run the sources through tsx, as the other commands do: tsx compiles with esbuild's
// `keepNames`, which wraps every function and closure creation in `__name(fn, "…")`, an
// `Object.defineProperty` on the new function. The engine builds templates out of closures
// and the renderer creates some per request, so under tsx a page cost 15–25% more CPU
// (bench/README.md, "HTTP").
//
// The bundle holds the packages too (all but PGlite, which loads its WebAssembly and data
// files from beside its own module): loading ~1,700 files one by one through Node's resolver
// was ~0.9 s of CPU of a cold start, one file is ~0.35 s (bench/COLD-START-RESULTS.md).
// (@fastify/swagger reads its own package.json through __dirname, which an ES module bundle
// lacks; it falls back to {} and only uses it for an `info` the API sets itself.) Rebuilt
// only when an input changed (bin/build-inputs.mjs: the manifest beside it); workers forked
// by `--workers N` reuse their primary's. `npm ci` builds it (package.json postinstall).
import cluster from 'node:cluster';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildIsFresh, esbuildVersion, recordBuild } from './build-inputs.mjs';

// The start trace of renderer/start-trace.ts (QUIRE_START_TRACE=1), for the steps before the server's bundle runs.
function startPhase(name) {
  if (process.env.QUIRE_START_TRACE !== '1') return;
  const cpu = process.cpuUsage();
  process.stderr.write(`quire-start-phase ${name} ${performance.now().toFixed(1)} ${((cpu.user + cpu.system) / 1000).toFixed(1)}\n`);
}
startPhase('boot');

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outfile = path.join(root, 'dist', 'server', 'main.mjs');

/** Packages left to Node's loader: PGlite reads files from beside its module; pg-native is optional and absent. */
const EXTERNAL = ['@electric-sql/pglite', 'pg-native'];

/** The esbuild options; part of the manifest's key, so a change of them rebuilds. */
const OPTIONS = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: EXTERNAL,
  // CommonJS packages in an ES module bundle call require() for Node built-ins.
  banner: { js: "import { createRequire as __quireRequire } from 'node:module'; const require = __quireRequire(import.meta.url);" },
  // Stack traces name the .ts sources; the map leaves the sources' text out (Node needs only
  // the positions), which makes it a third of the size to read on every start.
  sourcemap: 'linked',
  sourcesContent: false,
};
const manifest = path.join(path.dirname(outfile), 'main.inputs.json');

/** Builds in memory, then renames into place, so two servers starting at once never import a half-written file. */
async function bundle(key) {
  const { build } = await import('esbuild');
  const startedAt = Date.now();
  const result = await build({
    ...OPTIONS,
    entryPoints: [path.join(root, 'renderer', 'main.ts')],
    outfile,
    write: false,
    metafile: true,
    absWorkingDir: root,
    logLevel: 'warning',
  });
  mkdirSync(path.dirname(outfile), { recursive: true });
  // The map before the bundle that names it.
  for (const file of [...result.outputFiles].sort((a, b) => Number(a.path === outfile) - Number(b.path === outfile))) {
    const temp = `${file.path}.${process.pid}.tmp`;
    writeFileSync(temp, file.contents);
    renameSync(temp, file.path);
  }
  recordBuild(manifest, root, key, Object.keys(result.metafile.inputs), startedAt, root);
}

if (!cluster.isWorker) {
  try {
    // tsconfig.json steers how esbuild compiles TypeScript, yet is no metafile input.
    const key = JSON.stringify({ esbuild: esbuildVersion(root), node: process.version, options: OPTIONS, tsconfig: readFileSync(path.join(root, 'tsconfig.json'), 'utf8') });
    if (!buildIsFresh(manifest, root, key)) await bundle(key);
  } catch (error) {
    console.error(`quire: could not build the server: ${error instanceof Error ? error.message : String(error)}`);
    // `--prepare` runs from npm's postinstall, which must not fail an install: the next start reports it.
    process.exit(process.argv[2] === '--prepare' ? 0 : 2);
  }
}
startPhase('bundle');
// Stack traces name the .ts sources.
process.setSourceMapsEnabled(true);
await import(pathToFileURL(outfile).href);
