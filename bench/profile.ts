// Profiling helper. tsx does not map profiler positions back to the .ts lines, so bundle
// this script with a source map first, run the hot loop under the V8 profiler, and let
// `summary` map each hot function back to its file:line through that map:
//   npx esbuild bench/profile.ts --bundle --platform=node --format=esm --packages=external \
//     --sourcemap --outfile=bench/results/profile.mjs
//   node --cpu-prof --cpu-prof-dir=/tmp/prof bench/results/profile.mjs render product-page 3000
//   (or `fresh WORKLOAD N [quire|reference]`: a fresh-data workload's rotation, render + the server's encoding)
//   npx tsx bench/profile.ts summary /tmp/prof/CPU.*.cpuprofile 25 bench/results/profile.mjs.map
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { type EngineName, type WorkloadName, WORKLOADS, loadAdapter, loadWorkload } from './engines.ts';
import { type FreshEngine, loadFreshEngine, pageBytes, rotation } from './fresh-job.ts';
import { freshWorkload } from './fresh-workloads.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  hitCount?: number;
  children?: number[];
}

function summarize(file: string, top: number, mapFile?: string): void {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: ProfileNode[]; samples: number[] };
  const map = mapFile && existsSync(mapFile) ? new SourceMap(JSON.parse(readFileSync(mapFile, 'utf8'))) : null;
  const total = profile.samples.length;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const keyOf = new Map<number, string>();
  for (const n of profile.nodes) {
    const f = n.callFrame;
    let where = `${f.url}:${f.lineNumber + 1}`;
    if (map && f.url.endsWith('.mjs') && f.lineNumber >= 0) {
      const e = map.findEntry(f.lineNumber, f.columnNumber) as { originalSource?: string; originalLine?: number };
      if (e.originalSource) where = `${e.originalSource}:${(e.originalLine ?? 0) + 1}`;
    }
    where = where.replace(/^.*?(engine|formatters|predicates|bench|node_modules)\//, '$1/').replace(/^file:\/\//, '');
    keyOf.set(n.id, `${f.functionName || '(anonymous)'}  ${where}`);
  }
  // Self time per function, and total time (self + callees, each sample counted once per function).
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const visit = (id: number, onStack: Set<string>): number => {
    const n = byId.get(id) as ProfileNode;
    const key = keyOf.get(id) as string;
    let hits = n.hitCount ?? 0;
    self.set(key, (self.get(key) ?? 0) + hits);
    const fresh = !onStack.has(key);
    if (fresh) onStack.add(key);
    for (const c of n.children ?? []) hits += visit(c, onStack);
    if (fresh) {
      onStack.delete(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + hits);
    }
    return hits;
  };
  visit(profile.nodes[0].id, new Set());
  const pct = (x: number): string => ((x / total) * 100).toFixed(1).padStart(5) + '%';
  const rows = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, top);
  console.log('  self   total  function  file:line');
  for (const [key, hits] of rows) console.log(`${pct(hits)} ${pct(inclusive.get(key) ?? 0)}  ${key}`);
}

async function loop(phase: 'render' | 'compile', workload: WorkloadName, iterations: number, engine: EngineName): Promise<void> {
  const adapter = await loadAdapter(engine);
  const w = loadWorkload(workload);
  const data = adapter.prepare(w);
  const compiled = adapter.compile(w);
  let sink = 0;
  const t0 = performance.now();
  for (let i = 0; i < iterations; i++) {
    if (phase === 'render') sink += adapter.render(compiled, data).length;
    else sink += adapter.compile(w) ? 1 : 0;
  }
  const ms = performance.now() - t0;
  console.log(`${engine} ${phase} ${workload}: ${((iterations * 1000) / ms).toFixed(0)}/s (${sink > 0 ? 'ok' : 'empty'})`);
}

/** A fresh-data workload's rotation (fresh-job.ts), render + the server's encoding as the bench times it, for `--cpu-prof`. */
async function freshLoop(workload: string, iterations: number, engine: FreshEngine): Promise<void> {
  const w = freshWorkload(workload);
  const e = await loadFreshEngine(engine, w);
  const datas = rotation(w, 7, 'fresh').map((t) => e.prepare(t));
  const compiled = e.compile();
  let sink = 0;
  const t0 = performance.now();
  for (let i = 0; i < iterations; i++) sink += pageBytes(e.page(compiled, datas[i % datas.length]), 'bytes');
  const ms = performance.now() - t0;
  console.log(`${engine} fresh ${workload}: ${((iterations * 1000) / ms).toFixed(0)}/s (${sink > 0 ? 'ok' : 'empty'})`);
}

/** A fresh-data workload's compile (template and partials), as fresh-job.ts times it, for `--cpu-prof`. */
async function freshCompileLoop(workload: string, iterations: number, engine: FreshEngine): Promise<void> {
  const w = freshWorkload(workload);
  const e = await loadFreshEngine(engine, w);
  let sink = 0;
  const t0 = performance.now();
  for (let i = 0; i < iterations; i++) sink += e.compile() ? 1 : 0;
  const ms = performance.now() - t0;
  console.log(`${engine} fresh compile ${workload}: ${((iterations * 1000) / ms).toFixed(0)}/s (${sink > 0 ? 'ok' : 'empty'})`);
}

const [cmd, a, b, c] = process.argv.slice(2);
if (cmd === 'summary') summarize(a, Number(b) || 25, c);
else if (cmd === 'fresh-compile') await freshCompileLoop(a, Number(b) || 2000, (c as FreshEngine) || 'quire');
else if (cmd === 'fresh') await freshLoop(a, Number(b) || 2000, (c as FreshEngine) || 'quire');
else if ((cmd === 'render' || cmd === 'compile') && WORKLOADS.includes(a as WorkloadName)) {
  await loop(cmd, a as WorkloadName, Number(b) || 2000, (c as EngineName) || 'quire');
} else {
  console.error('usage: profile.ts render|compile WORKLOAD [ITERATIONS] [ENGINE] | fresh WORKLOAD [ITERATIONS] [quire|reference] | fresh-compile WORKLOAD [ITERATIONS] [quire|reference] | summary FILE [TOP]');
  process.exitCode = 2;
}
