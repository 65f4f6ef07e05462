#!/usr/bin/env node
// `npm start`: bundles the server (`renderer/main.ts`) with esbuild into
// `dist/server/main.mjs`, then runs that bundle as plain JavaScript.
//
// Why not run the sources through tsx, as the other commands do: tsx compiles with esbuild's
// `keepNames`, which wraps every function and closure creation in `__name(fn, "…")`, an
// `Object.defineProperty` on the new function. The engine builds templates out of closures
// and the renderer creates some per request, so under tsx a page cost 15–25% more CPU
// (bench/README.md, "HTTP"). The bundle takes well under a second to build, so it is made on
// every start and can never be stale; workers forked by `--workers N` reuse their primary's.
import cluster from 'node:cluster';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outfile = path.join(root, 'dist', 'server', 'main.mjs');

/** Builds in memory, then renames into place, so two servers starting at once never import a half-written file. */
async function bundle() {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [path.join(root, 'renderer', 'main.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    outfile,
    write: false,
    logLevel: 'warning',
  });
  mkdirSync(path.dirname(outfile), { recursive: true });
  for (const file of result.outputFiles) {
    const temp = `${file.path}.${process.pid}.tmp`;
    writeFileSync(temp, file.contents);
    renameSync(temp, file.path);
  }
}

if (!cluster.isWorker) {
  try {
    await bundle();
  } catch (error) {
    console.error(`quire: could not build the server: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  }
}
// Stack traces name the .ts sources.
process.setSourceMapsEnabled(true);
await import(pathToFileURL(outfile).href);
