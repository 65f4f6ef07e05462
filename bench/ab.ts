// `npm run bench:ab -- --base REV`: the engine of the working tree against the engine of
// commit REV, on the fresh-data page workloads, in the same processes. A change of a few
// percent is below what two fresh-bench runs can tell apart (the machine's noise moves single
// figures by ±10%), but two builds alternating in one process, in batches of 40 ms of CPU
// time, see the same noise. Each build is bundled from its own tree (REV is checked out in a
// worktree in the temporary folder, kept for the next run, its node_modules linked), and each
// process runs both.
//
// An A/A (one build against itself) showed a bias of ~3% against the build whose renderers
// were made second, whichever bundle that was: so the processes alternate which build is made
// first and which runs first in each pair, and the figure is the geometric mean over them.
//
// `--base port` measures the working tree against the published port the same way (both engines
// in each process, each reading its data as the fresh-data jobs do): a Quire/port ratio that
// the machine's noise moves far less than the fresh bench's, whose engines run in separate
// processes at different moments.
//
// Options: --base REV|port (HEAD), --mode render|compile (render), --workloads a,b (the page
// workloads), --pairs N (40), --processes N (2, even), --batch MS (40), --seed N (5), --members N
// (0: every data object of 6+ members given N more that no template prints, fresh-data.ts).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AbJobResult, AbJobSpec } from './ab-job.ts';
import { ArgReader } from './args.ts';
import { optionsOrExit, runIfMain } from './cli.ts';
import { freshWorkloads } from './fresh-workloads.ts';
import { bundleJob, forkJob } from './job-process.ts';

export interface AbOptions {
  base: string;
  mode: 'render' | 'compile';
  workloads: string[];
  pairs: number;
  processes: number;
  batchMs: number;
  seed: number;
  members: number;
}

const PAGES = (): string[] => freshWorkloads().filter((w) => w.group === 'page').map((w) => w.name);

export function parseAbOptions(argv: readonly string[]): AbOptions {
  const o: AbOptions = { base: 'HEAD', mode: 'render', workloads: PAGES(), pairs: 40, processes: 2, batchMs: 40, seed: 5, members: 0 };
  const r = new ArgReader(argv);
  for (let a = r.next(); a !== undefined; a = r.next()) {
    if (a === '--base') o.base = r.value();
    else if (a === '--mode') {
      const m = r.value();
      if (m !== 'render' && m !== 'compile') throw new Error('--mode needs render or compile');
      o.mode = m;
    } else if (a === '--workloads') {
      const known = freshWorkloads().map((w) => w.name);
      o.workloads = r.value().split(',').filter(Boolean);
      for (const n of o.workloads) if (!known.includes(n)) throw new Error(`unknown workload ${n}; expected one of ${known.join(', ')}`);
    } else if (a === '--pairs') o.pairs = r.number(1, 10_000);
    else if (a === '--processes') {
      o.processes = r.number(2, 64);
      if (o.processes % 2 !== 0) throw new Error('--processes needs an even number (each order as often)');
    } else if (a === '--batch') o.batchMs = r.number(1, 10_000);
    else if (a === '--seed') o.seed = r.number(0, 1e9);
    else if (a === '--members') o.members = r.number(0, 1000);
    else throw new Error(`unknown option ${a}`);
  }
  if (o.members > 0) {
    const jackson = freshWorkloads().filter((w) => w.text === 'jackson' && o.workloads.includes(w.name));
    if (jackson.length > 0) throw new Error(`--members re-reads the data with JSON.parse, which would drop the 12.0 doubles of ${jackson.map((w) => w.name).join(', ')}`);
  }
  return o;
}

export interface AbRow {
  workload: string;
  /** Geometric mean over the processes of each one's total rate new/base. */
  ratio: number;
  min: number;
  max: number;
  /** The base build's median batch, µs per operation. */
  baseMicros: number;
}

/** Combines the processes' batches: per workload, new/base of the summed rates per process. */
export function summarize(results: readonly AbJobResult[]): AbRow[] {
  const rows: AbRow[] = [];
  for (const workload of Object.keys(results[0] ?? {})) {
    const ratios = results.map((r) => sum(r[workload][1]) / sum(r[workload][0]));
    const base = results.flatMap((r) => r[workload][0]).sort((x, y) => x - y);
    rows.push({
      workload,
      ratio: Math.exp(ratios.reduce((s, x) => s + Math.log(x), 0) / ratios.length),
      min: Math.min(...ratios),
      max: Math.max(...ratios),
      baseMicros: 1e6 / base[base.length >> 1],
    });
  }
  return rows;
}

function sum(xs: readonly number[]): number {
  let s = 0;
  for (const x of xs) s += x;
  return s;
}

const HERE = fileURLToPath(new URL('.', import.meta.url));
const ROOT = resolve(HERE, '..');

/** A worktree of `rev` beside the checkout (made once per commit), sharing its node_modules. */
function baseTree(rev: string): { dir: string; sha: string } {
  const sha = execFileSync('git', ['rev-parse', '--verify', `${rev}^{commit}`], { cwd: ROOT, encoding: 'utf8' }).trim();
  const dir = join(tmpdir(), `quire-ab-${sha.slice(0, 12)}`);
  if (!existsSync(dir)) execFileSync('git', ['worktree', 'add', '--detach', '-f', dir, sha], { cwd: ROOT, stdio: 'ignore' });
  const modules = join(dir, 'node_modules');
  if (!existsSync(modules)) symlinkSync(join(ROOT, 'node_modules'), modules);
  return { dir, sha };
}

/** Bundles a tree's fresh-data harness into that tree (its bench/results is ignored by git). */
async function bundleSide(tree: string): Promise<string> {
  const dir = join(tree, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const entry = join(dir, 'ab-side-entry.ts');
  writeFileSync(
    entry,
    "export { freshWorkload } from '../fresh-workloads.ts';\nexport { loadFreshEngine, pageBytes, rotation } from '../fresh-job.ts';\n",
  );
  return bundleJob(entry, join(dir, 'ab-side.mjs'));
}

async function main(): Promise<void> {
  const o = optionsOrExit(() => parseAbOptions(process.argv.slice(2)));
  const port = o.base === 'port';
  const { dir, sha } = port ? { dir: ROOT, sha: 'the port' } : baseTree(o.base);
  const own = await bundleSide(ROOT);
  const sides: [string, string] = [port ? own : await bundleSide(dir), own];
  const job = await bundleJob(join(HERE, 'ab-job.ts'), join(ROOT, 'bench', 'results', 'ab-job.mjs'));
  const results: AbJobResult[] = [];
  for (let p = 0; p < o.processes; p++) {
    const spec: AbJobSpec = { sides, baseEngine: port ? 'reference' : 'quire', first: (p % 2) as 0 | 1, mode: o.mode, workloads: o.workloads, pairs: o.pairs, warmPairs: 25, batchMs: o.batchMs, seed: o.seed, members: o.members };
    process.stderr.write(`[${p + 1}/${o.processes}] ${o.mode}, ${spec.first === 0 ? (port ? 'port' : 'base') : 'new'} made first\n`);
    results.push(await forkJob<AbJobResult>(job, spec, `ab process ${p + 1}`));
  }
  const rows = summarize(results);
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  const lines = [
    `# ${o.mode}: working tree / ${port ? 'the published port' : `${sha.slice(0, 7)} (${o.base})`}, ${o.processes} processes × ${o.pairs} pairs of ${o.batchMs} ms batches${o.members > 0 ? `, ${o.members} unprinted members on every data object of 6+` : ''}`,
    '',
    `| workload | ${port ? 'Quire/port' : 'new/base'} | min–max over processes | ${port ? 'port' : 'base'} µs |`,
    '|---|---:|---|---:|',
    ...rows.map((r) => `| ${r.workload} | **${r.ratio.toFixed(3)}** | ${r.min.toFixed(3)}–${r.max.toFixed(3)} | ${r.baseMicros.toFixed(1)} |`),
    '',
    `Over the ${rows.length} workloads: median ${median(rows.map((r) => r.ratio)).toFixed(3)}, lowest ${Math.min(...rows.map((r) => r.ratio)).toFixed(3)}.`,
  ];
  process.stdout.write(lines.join('\n') + '\n');
}

runIfMain(import.meta.url, 'bench:ab', main);
