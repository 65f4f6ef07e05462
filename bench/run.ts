// `npm run bench -- --repeated`: the three original workloads on fixed data (the same data
// on every render). Runs every (engine, workload) job in its own forked process, in
// interleaved rounds (a fresh shuffled order each round, so drift in machine load spreads
// over all engines), then writes bench/RESULTS-REPEATED.md. `--check` exits 1 when a target of
// report.ts is missed. Without `--repeated`, `npm run bench` runs the fresh-data mode
// (fresh.ts), where the targets hold. See bench/README.md for the options.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { ENGINES, type EngineName, WORKLOADS, type WorkloadName } from './engines.ts';
import { ArgReader } from './args.ts';
import { optionsOrExit, publish, runIfMain } from './cli.ts';
import type { JobResult, JobSpec } from './job.ts';
import { ALLOC_EXEC_ARGV, bundleJob, forkJob } from './job-process.ts';
import { DEFAULT_SCHEDULE, type MeasureSchedule, QUICK_SCHEDULE, scheduleOf } from './measure.ts';
import { shuffle, xorshift32 } from './random.ts';
import {
  type EngineSummary,
  type OutputCheck,
  type RunInfo,
  type TargetOutcome,
  TARGETS,
  evaluateTargets,
  formatResults,
  summarize,
} from './report.ts';

export interface BenchOptions extends MeasureSchedule {
  rounds: number;
  engines: EngineName[];
  workloads: WorkloadName[];
  /** Measure allocation (one extra job per pair, in the first round only). */
  alloc: boolean;
  /** Deliberate slowdown factor per engine, for checking that the gate catches it. */
  slowdown: Partial<Record<EngineName, number>>;
  seed: number;
  check: boolean;
  out: string | null;
}

export const DEFAULT_OPTIONS: BenchOptions = {
  rounds: 3,
  engines: [...ENGINES],
  workloads: [...WORKLOADS],
  ...DEFAULT_SCHEDULE,
  alloc: true,
  slowdown: {},
  seed: 1,
  check: false,
  out: fileURLToPath(new URL('./RESULTS-REPEATED.md', import.meta.url)),
};

export type JobRunner = (spec: JobSpec) => Promise<JobResult>;

/** What the reference port is known to do differently on these workloads (spec wins). */
export const KNOWN_DIVERGENCES: Partial<Record<WorkloadName, string>> = {
  'collection-grid':
    'the port mis-assembles a block (here `{.equal? @index 4}`) nested in `{.alternates with}`: text before the ' +
    'nested block is moved after it (`{.repeated section a}{@}{.alternates with}[{.equal? @index 1}x{.end}]{.end}` ' +
    'on [1,2,3]: spec/Quire `1[x]2[]3`, port `1x][2][3]`); LANGUAGE §4.16 lets blocks open inside ALTERNATES_WITH.',
};

/** The jobs of every round, in run order. */
export function planJobs(o: BenchOptions): JobSpec[][] {
  const rand = xorshift32(o.seed);
  const rounds: JobSpec[][] = [];
  for (let r = 0; r < o.rounds; r++) {
    const round: JobSpec[] = [];
    for (const workload of o.workloads) {
      for (const engine of o.engines) {
        const base = { engine, workload, ...scheduleOf(o), slowdown: o.slowdown[engine] };
        round.push({ ...base, kind: 'speed' });
        if (o.alloc && r === 0) round.push({ ...base, kind: 'alloc' });
      }
    }
    rounds.push(shuffle(round, rand));
  }
  return rounds;
}

const JOB_SOURCE = fileURLToPath(new URL('./job.ts', import.meta.url));
const JOB_BUNDLE = fileURLToPath(new URL('./results/job.mjs', import.meta.url));

let jobBundle: Promise<string> | null = null;

/**
 * The jobs run as plain JavaScript, built once per run by esbuild, not through the tsx
 * loader: tsx compiles with `keepNames`, which wraps every function and closure creation in
 * a `__name(fn, …)` call (an Object.defineProperty). Quire builds its templates out of
 * closures, so under tsx its compile paid a defineProperty per closure and its renders
 * allocated for closures created per call, costs that no built deployment has. The peers are
 * measured as the compiled JavaScript they publish; Quire now is too.
 */
export function buildJobBundle(): Promise<string> {
  jobBundle ??= bundleJob(JOB_SOURCE, JOB_BUNDLE);
  return jobBundle;
}

/** Runs one job in a fresh Node process. */
export const forkRunner: JobRunner = (spec) =>
  buildJobBundle().then((jobPath) => forkJob<JobResult>(jobPath, spec, `${spec.engine}/${spec.workload}/${spec.kind}`, spec.kind === 'alloc' ? ALLOC_EXEC_ARGV : []));

/**
 * Renders each workload once with Quire, leaves the page where the concat baseline reads it,
 * and (when asked) compares it byte for byte with the reference port's page.
 */
export type OutputChecker = (workloads: readonly WorkloadName[], withReference: boolean) => Promise<OutputCheck[]>;

export const checkOutputs: OutputChecker = async (workloads, withReference) => {
  const { loadAdapter, loadWorkload, pagePath } = await import('./engines.ts');
  const { compareOutputs } = await import('./report.ts');
  const quire = await loadAdapter('quire');
  const reference = withReference ? await loadAdapter('reference') : null;
  const checks: OutputCheck[] = [];
  for (const name of workloads) {
    const w = loadWorkload(name);
    const page = quire.render(quire.compile(w), quire.prepare(w));
    writeFileSync(pagePath(name), page);
    if (reference) checks.push(compareOutputs(name, page, reference.render(reference.compile(w), reference.prepare(w))));
  }
  return checks;
};

export interface BenchRun {
  results: JobResult[];
  summaries: EngineSummary[];
  outcomes: TargetOutcome[];
  checks: OutputCheck[];
  markdown: string;
  pass: boolean;
}

/** CPU model × count, memory and OS, for the header of RESULTS.md and HTTP-RESULTS.md. */
export function describeMachine(): string {
  const cpu = os.cpus();
  return `${cpu[0]?.model ?? 'unknown CPU'} × ${cpu.length}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GB, ${os.platform()} ${os.release()}`;
}

function gitCommit(): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain'], { encoding: 'utf8' }).trim() !== '';
    return head + (dirty ? ' (working tree modified)' : '');
  } catch {
    return 'unknown';
  }
}

export async function runBench(
  o: BenchOptions,
  runner: JobRunner = forkRunner,
  checker: OutputChecker = checkOutputs,
  log: (line: string) => void = (l) => process.stderr.write(l + '\n'),
): Promise<BenchRun> {
  const started = Date.now();
  const checks = await checker(o.workloads, o.engines.includes('reference'));
  const results: JobResult[] = [];
  const plan = planJobs(o);
  let done = 0;
  const total = plan.reduce((n, r) => n + r.length, 0);
  for (const [r, round] of plan.entries()) {
    for (const spec of round) {
      const res = await runner(spec);
      results.push(res);
      done++;
      const rate = res.renderPerSec.length ? Math.round(res.renderPerSec.reduce((a, b) => a + b) / res.renderPerSec.length) + ' render/s' : '';
      const alloc = res.allocBytesPerRender !== undefined ? Math.round(res.allocBytesPerRender / 1024) + ' KB/render' : '';
      log(`[${done}/${total}] round ${r + 1} ${spec.engine} ${spec.workload} ${spec.kind} ${rate}${alloc}`);
    }
  }
  const summaries = summarize(results);
  const targets = TARGETS.filter((t) => o.workloads.includes(t.workload));
  const outcomes = o.engines.includes('quire') && o.engines.includes('reference') ? evaluateTargets(summaries, targets) : [];
  for (const c of checks) if (!c.identical && KNOWN_DIVERGENCES[c.workload]) c.diff += '\n# known port divergence: ' + KNOWN_DIVERGENCES[c.workload];
  const info: RunInfo = {
    date: new Date().toISOString(),
    machine: describeMachine(),
    node: process.version,
    commit: gitCommit(),
    rounds: o.rounds,
    durationSec: (Date.now() - started) / 1000,
    options: describe(o),
  };
  const markdown = formatResults(info, summaries, outcomes, checks);
  return { results, summaries, outcomes, checks, markdown, pass: outcomes.every((x) => x.pass) };
}

function describe(o: BenchOptions): string {
  const parts = [`warmup ${o.warmupMs} ms (compile ${o.compileWarmupMs} ms)`, `compile ${o.compileMs} ms`, `render ${o.renderMs} ms`, `${o.batches} batches`];
  const slow = Object.entries(o.slowdown).filter(([, k]) => (k ?? 1) > 1);
  if (slow.length) parts.push('DELIBERATE SLOWDOWN ' + slow.map(([e, k]) => `${e}×${k}`).join(', '));
  return parts.join(', ');
}

export function parseArgs(argv: readonly string[]): BenchOptions {
  const o: BenchOptions = { ...DEFAULT_OPTIONS, slowdown: {} };
  const list = <T extends string>(value: string, allowed: readonly T[]): T[] => {
    const items = value.split(',').filter(Boolean);
    for (const i of items) if (!allowed.includes(i as T)) throw new Error(`unknown name ${i}; expected one of ${allowed.join(', ')}`);
    return items as T[];
  };
  const args = new ArgReader(argv);
  const value = () => args.value();
  const num = () => args.number(0);
  for (let a = args.next(); a !== undefined; a = args.next()) {
    switch (a) {
      case '--check': o.check = true; break;
      case '--quick': Object.assign(o, { rounds: 1, ...QUICK_SCHEDULE }); break;
      case '--rounds': o.rounds = Math.max(1, Math.floor(num())); break;
      case '--engines': o.engines = list(value(), ENGINES); break;
      case '--workloads': o.workloads = list(value(), WORKLOADS); break;
      case '--no-alloc': o.alloc = false; break;
      case '--seed': o.seed = Math.floor(num()); break;
      case '--out': o.out = value(); break;
      case '--no-write': o.out = null; break;
      case '--slowdown': {
        const [engine, k] = value().split('=');
        o.slowdown[list(engine, ENGINES)[0]] = Math.max(1, Math.floor(Number(k) || 1));
        break;
      }
      default: throw new Error(`unknown option ${a}`);
    }
  }
  return o;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (!argv.includes('--repeated')) return (await import('./fresh.ts')).freshMain(argv);
  const o = optionsOrExit(() => parseArgs(argv.filter((a) => a !== '--repeated')));
  const run = await runBench(o);
  const missed = run.outcomes.filter((x) => !x.pass).map((x) => `${x.workload} ${x.metric} ${x.actual?.toFixed(2) ?? '–'}x (target ${x.bound === 'min' ? '≥' : '≤'} ${x.ratio}x)`);
  publish(run.markdown, o.out, o.check, missed);
}

runIfMain(import.meta.url, 'bench', main);
