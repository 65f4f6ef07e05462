// One process of `npm run bench:ab` (ab.ts): two builds of the engine side by side, each a
// bundle of its own tree's fresh-data harness (fresh-job.ts). For each workload it makes both
// builds' renderers (or compilers) in the order it is told, warms them, then runs them in
// alternating batches of CPU time and returns every batch's rate. Which build is made first
// and which runs first in a pair alternate between the processes ab.ts forks: made second,
// a build ran ~3% slower here in an A/A of one build against itself.
import { pathToFileURL } from 'node:url';
import { withUnprintedMembers } from './fresh-data.ts';
import { serveJob } from './job-process.ts';

export interface AbJobSpec {
  /** The two side bundles: [base, new]. */
  sides: [string, string];
  /** The base side's engine: Quire of its bundle, or the reference port (`--base port`). */
  baseEngine: 'quire' | 'reference';
  /** 0: base made first; 1: new made first. */
  first: 0 | 1;
  mode: 'render' | 'compile';
  workloads: string[];
  pairs: number;
  warmPairs: number;
  batchMs: number;
  seed: number;
  /** Unprinted members given to every data object of 6+ members, on both sides (`--members`). */
  members: number;
}

/** Per workload, the rates (operations per CPU second) of each measured batch: [base, new]. */
export type AbJobResult = Record<string, [number[], number[]]>;

interface Side {
  freshWorkload(name: string): unknown;
  loadFreshEngine(engine: 'quire' | 'reference', w: unknown): Promise<{ compile(): unknown; page(c: unknown, d: unknown): string | readonly string[]; prepare(t: string): unknown }>;
  rotation(w: unknown, seed: number, mode: 'fresh'): string[];
  pageBytes(page: string | readonly string[], cost: 'bytes'): number;
}

async function operation(side: Side, engine: 'quire' | 'reference', mode: AbJobSpec['mode'], name: string, seed: number, members: number): Promise<() => number> {
  const w = side.freshWorkload(name);
  const e = await side.loadFreshEngine(engine, w);
  if (mode === 'compile') return () => (e.compile() ? 1 : 0);
  const compiled = e.compile();
  // The members are added here, by this tree's code, so that a base commit from before
  // `--members` gets the same data (the page workloads hold no Java `12.0`s JSON.parse would lose).
  let texts = side.rotation(w, seed, 'fresh');
  if (members > 0) texts = texts.map((t, i) => JSON.stringify(withUnprintedMembers(JSON.parse(t), members, seed * 100_000 + i + 1)));
  const datas = texts.map((t) => e.prepare(t));
  let i = 0;
  // Render and encode as the server does, over a rotation no memo holds (as fresh-job.ts).
  return () => side.pageBytes(e.page(compiled, datas[i++ % datas.length]), 'bytes');
}

function cpuMicros(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

/** Operations per CPU second over one batch of at least `ms` of CPU time. */
function batch(op: () => number, ms: number): number {
  const t0 = cpuMicros();
  let n = 0;
  let sink = 0;
  while (cpuMicros() - t0 < ms * 1000) {
    sink += op();
    n++;
  }
  if (sink < 0) throw new Error('unreachable');
  return (n * 1e6) / (cpuMicros() - t0);
}

export async function runAbJob(spec: AbJobSpec): Promise<AbJobResult> {
  // Each side bundles fresh-job.ts, whose `serveJob` would take this process's spec for its
  // own when the bundle loads: the spec has been read, so it is removed from argv first.
  process.argv.length = 2;
  const sides = (await Promise.all(spec.sides.map((p) => import(pathToFileURL(p).href)))) as [Side, Side];
  const out: AbJobResult = {};
  for (const name of spec.workloads) {
    const ops: (() => number)[] = [];
    const order = spec.first === 0 ? [0, 1] : [1, 0];
    for (const k of order) ops[k] = await operation(sides[k], k === 0 ? spec.baseEngine : 'quire', spec.mode, name, spec.seed, spec.members);
    const rates: [number[], number[]] = [[], []];
    for (let i = 0; i < spec.warmPairs + spec.pairs; i++) {
      // Which build runs first in a pair alternates too.
      const pair = (i + spec.first) % 2 === 0 ? [0, 1] : [1, 0];
      for (const k of pair) {
        const r = batch(ops[k], spec.batchMs);
        if (i >= spec.warmPairs) rates[k].push(r);
      }
    }
    out[name] = rates;
  }
  return out;
}

serveJob(runAbJob);
