/**
 * Builds the browser bundles: dist/assets/islands.js (code-split per island),
 * dist/assets/captcha-local.js, and the admin app's admin.js and admin.css. Run with `npx tsx hydrate/build.ts [outdir]`.
 *
 * This is a build script, so it uses esbuild and node built-ins; none of it reaches the
 * browser bundle, whose inputs the size test checks.
 */
import { build, type Metafile } from 'esbuild';
import { gzipSync } from 'node:zlib';
import { readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { assetsBuildKey, assetsManifest, recordBuild } from '../bin/build-inputs.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
export const DEFAULT_OUTDIR = path.resolve(here, '..', 'dist', 'assets');

/** Budget for what a page downloads before any island chunk: the entry and its static imports. */
export const INITIAL_GZIP_BUDGET_BYTES = 90 * 1024;

export interface BuildReport {
  outdir: string;
  metafile: Metafile;
  /** Output files (relative to outdir) loaded by `<script src="/assets/islands.js">` before any dynamic import. */
  initialFiles: string[];
  initialGzipBytes: number;
  /** gzip size of every output file, by path relative to outdir. */
  gzipBytes: Record<string, number>;
}

function staticClosure(metafile: Metafile, entry: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const imp of metafile.outputs[file]?.imports ?? []) {
      if (imp.kind === 'import-statement' && !imp.external) visit(imp.path);
    }
  };
  visit(entry);
  return [...seen];
}

export async function buildIslands(outdir: string = DEFAULT_OUTDIR): Promise<BuildReport> {
  const result = await build({
    // The admin app (hydrate/admin/) is its own entry and stylesheet: storefront pages never load it.
    entryPoints: {
      islands: path.join(here, 'entry.ts'),
      'captcha-local': path.join(here, 'captcha-local.ts'),
      admin: path.join(here, 'admin', 'entry.tsx'),
      'admin-style': path.join(here, 'admin', 'admin.css'),
    },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    minify: true,
    target: ['es2022'],
    platform: 'browser',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    chunkNames: 'chunks/[name]-[hash]',
    metafile: true,
    legalComments: 'none',
    logLevel: 'silent',
  });
  const metafile = result.metafile;
  const rel = (file: string) => path.relative(outdir, path.resolve(file));
  const gzipBytes: Record<string, number> = {};
  for (const file of Object.keys(metafile.outputs)) {
    if (file.endsWith('.map')) continue;
    gzipBytes[rel(file)] = gzipSync(readFileSync(file), { level: 9 }).length;
  }
  const entry = Object.keys(metafile.outputs).find((f) => rel(f) === 'islands.js');
  if (!entry) throw new Error('islands.js was not produced');
  const initialFiles = staticClosure(metafile, entry).map(rel);
  const initialGzipBytes = initialFiles.reduce((sum, f) => sum + (gzipBytes[f] ?? 0), 0);
  return { outdir, metafile, initialFiles, initialGzipBytes, gzipBytes };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outdir = process.argv[2] ? path.resolve(process.argv[2]) : DEFAULT_OUTDIR;
  // The inputs of what is built are recorded (bin/build-inputs.mjs), so `npm start` rebuilds
  // when a source changed (renderer/asset-bundle.ts). The old record goes first: a build that
  // fails half-way leaves none, and the next start builds again.
  const manifest = assetsManifest(outdir);
  rmSync(manifest, { force: true });
  const startedAt = Date.now();
  const report = await buildIslands(outdir);
  recordBuild(manifest, root, assetsBuildKey(root), Object.keys(report.metafile.inputs), startedAt);
  for (const [file, bytes] of Object.entries(report.gzipBytes).sort()) console.log(`${file}\t${bytes} B gzip`);
  console.log(`initial (${report.initialFiles.join(' + ')}): ${report.initialGzipBytes} B gzip, budget ${INITIAL_GZIP_BUDGET_BYTES} B`);
  if (report.initialGzipBytes > INITIAL_GZIP_BUDGET_BYTES) process.exitCode = 1;
}
