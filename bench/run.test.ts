// The harness end to end with a deterministic job runner: instead of timing real renders,
// the fake runner reports rates derived from a fixed amount of work per render, so that a
// deliberate slowdown (`slowdown` option, the same one the real jobs honour) changes the
// figures exactly and the test never depends on the machine's speed.
import { describe, expect, it } from 'vitest';
import type { JobResult, JobSpec } from './job.ts';
import { type BenchOptions, DEFAULT_OPTIONS, parseArgs, planJobs, runBench } from './run.ts';

const WORK_PER_RENDER: Record<string, number> = { quire: 1, reference: 8, handlebars: 2, liquid: 10, concat: 0.05 };
const ALLOC: Record<string, number> = { quire: 50_000, reference: 300_000, handlebars: 100_000, liquid: 1e6, concat: 10_000 };

function fakeRunner(spec: JobSpec): Promise<JobResult> {
  const perRender = WORK_PER_RENDER[spec.engine] * (spec.slowdown ?? 1);
  const rate = 10_000 / perRender;
  return Promise.resolve({
    engine: spec.engine,
    workload: spec.workload,
    kind: spec.kind,
    compilePerSec: spec.kind === 'speed' && spec.engine !== 'concat' ? [1000, 1000, 1000] : [],
    renderPerSec: spec.kind === 'speed' ? [rate, rate, rate] : [],
    outputBytes: 5000,
    allocBytesPerRender: spec.kind === 'alloc' ? ALLOC[spec.engine] : undefined,
    peakHeapBytes: 1e6,
    maxRssBytes: 1e7,
  });
}

const options = (extra: Partial<BenchOptions> = {}): BenchOptions => ({ ...DEFAULT_OPTIONS, rounds: 2, out: null, ...extra });
const quiet = (): void => {};
const noChecks = () => Promise.resolve([]);

describe('bench harness', () => {
  it('interleaves: every round holds every (engine, workload) pair, in different orders', () => {
    const plan = planJobs(options({ rounds: 3 }));
    const key = (j: JobSpec) => `${j.engine}/${j.workload}/${j.kind}`;
    const speed = plan.map((r) => r.filter((j) => j.kind === 'speed').map(key));
    for (const r of speed) expect(new Set(r).size).toBe(15);
    expect(speed[0].join()).not.toBe(speed[1].join());
    // Allocation is measured once per pair, in the first round.
    expect(plan[0].filter((j) => j.kind === 'alloc')).toHaveLength(15);
    expect(plan[1].filter((j) => j.kind === 'alloc')).toHaveLength(0);
  });

  it('the unmodified engine passes the gate', async () => {
    const run = await runBench(options(), fakeRunner, noChecks, quiet);
    expect(run.pass).toBe(true);
    expect(run.markdown).not.toContain('**MISS**');
  });

  it('a deliberate slowdown of Quire fails the --check gate', async () => {
    const run = await runBench(options({ slowdown: { quire: 4 } }), fakeRunner, noChecks, quiet);
    expect(run.pass).toBe(false);
    const missed = run.outcomes.filter((o) => !o.pass).map((o) => `${o.workload}:${o.metric}`);
    expect(missed.sort()).toEqual(['blog-post:render', 'collection-grid:render', 'product-page:render']);
    expect(run.markdown).toContain('DELIBERATE SLOWDOWN quire×4');
  });

  it('slowing the reference down instead does not fail the gate', async () => {
    const run = await runBench(options({ slowdown: { reference: 3 } }), fakeRunner, noChecks, quiet);
    expect(run.pass).toBe(true);
  });

  it('parses the command line and rejects unknown options and names', () => {
    const o = parseArgs(['--check', '--quick', '--engines', 'quire,reference', '--slowdown', 'quire=20', '--no-write']);
    expect(o).toMatchObject({ check: true, rounds: 1, engines: ['quire', 'reference'], slowdown: { quire: 20 }, out: null });
    expect(() => parseArgs(['--bogus'])).toThrow(/unknown option/);
    expect(() => parseArgs(['--engines', 'mustache'])).toThrow(/unknown name/);
    expect(() => parseArgs(['--rounds'])).toThrow(/needs a value/);
  });
});
