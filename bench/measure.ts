// What a benchmark job measures with, in its own process: the CPU clock, batched rates and
// allocation per render. The repeated-data jobs (job.ts) and the fresh-data jobs
// (fresh-job.ts) import the same code, so the two modes measure the same way by
// construction, not by keeping two copies in step.
import { PerformanceObserver, performance } from 'node:perf_hooks';

/** How a speed job measures: a warm-up each for compile and render, then `batches` timed batches sharing `compileMs`/`renderMs` of CPU. */
export interface MeasureSchedule {
  /** Render warm-up; compile gets its own (compilers reach steady state slowly). */
  warmupMs: number;
  compileWarmupMs: number;
  compileMs: number;
  renderMs: number;
  batches: number;
}

/**
 * The schedule of both modes. Engines tier up slowly: Quire's product page climbs from
 * ~1,000 to ~20,000 renders/s over its first ~0.7 s of CPU, the reference's blog post
 * reaches its steady rate after ~1.5 s (bench/README.md). Every engine gets the same warm-up.
 */
export const DEFAULT_SCHEDULE: MeasureSchedule = { warmupMs: 2000, compileWarmupMs: 2000, compileMs: 250, renderMs: 450, batches: 5 };

/** `--quick`: a smoke run of the harness, not figures to quote. */
export const QUICK_SCHEDULE: MeasureSchedule = { warmupMs: 500, compileWarmupMs: 500, compileMs: 150, renderMs: 250, batches: 5 };

/** The schedule fields of a run's options, for its jobs' specs. */
export function scheduleOf(o: MeasureSchedule): MeasureSchedule {
  return { warmupMs: o.warmupMs, compileWarmupMs: o.compileWarmupMs, compileMs: o.compileMs, renderMs: o.renderMs, batches: o.batches };
}

/**
 * The job's clock: CPU time of this process (user + system, GC threads included), in ms.
 * The machine is shared (other jobs, other people's test runs); wall time counted the time
 * the job waited for a core, which swung the ratios by 2–10x between identical runs. CPU
 * time counts only the work done, the same way for every engine.
 */
export function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/**
 * Rates (ops/s) of `batches` timed batches, sized from a warm-up run. `afterBatch` runs
 * between batches, outside the clock (job.ts samples the heap there).
 */
export function measure(fn: () => void, warmupMs: number, totalMs: number, batches: number, afterBatch?: () => void): number[] {
  let n = 0;
  const start = cpuMs();
  let elapsed = 0;
  do {
    fn();
    n++;
    elapsed = cpuMs() - start;
  } while (elapsed < warmupMs);
  const perOp = elapsed / n;
  const batchSize = Math.max(1, Math.round(totalMs / batches / perOp));
  const rates: number[] = [];
  for (let b = 0; b < batches; b++) {
    const t0 = cpuMs();
    for (let i = 0; i < batchSize; i++) fn();
    rates.push((batchSize * 1000) / Math.max(cpuMs() - t0, 0.001));
    afterBatch?.();
  }
  return rates;
}

async function gcEntriesSince(t0: number, entries: PerformanceEntry[]): Promise<number> {
  // GC entries are delivered asynchronously.
  await new Promise((r) => setTimeout(r, 5));
  return entries.filter((e) => e.startTime >= t0).length;
}

/**
 * Bytes allocated per render: with a young generation larger than the whole measured run
 * (set by the parent through --min/--max-semi-space-size) no collection happens, so the
 * growth of the used heap is the allocation. A run that saw a GC is retried with fewer
 * renders. `warmupRenders` unmeasured renders come first; each job keeps the count it had
 * before the two copies became this one (20 for job.ts, 40 for fresh-job.ts), so their
 * figures stay comparable with the RESULTS already written.
 */
export async function allocationPerRender(render: () => void, warmupRenders: number): Promise<number> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('alloc jobs need --expose-gc');
  const entries: PerformanceEntry[] = [];
  const obs = new PerformanceObserver((list) => entries.push(...list.getEntries()));
  obs.observe({ entryTypes: ['gc'] });
  for (let i = 0; i < warmupRenders; i++) render();
  gc();
  let before = process.memoryUsage().heapUsed;
  render();
  const probe = Math.max(1, process.memoryUsage().heapUsed - before);
  let n = Math.max(3, Math.min(300, Math.floor(24e6 / probe)));
  try {
    for (let attempt = 0; attempt < 6; attempt++, n = Math.max(1, n >> 1)) {
      gc();
      await new Promise((r) => setTimeout(r, 5));
      const t0 = performance.now();
      before = process.memoryUsage().heapUsed;
      for (let i = 0; i < n; i++) render();
      const after = process.memoryUsage().heapUsed;
      if ((await gcEntriesSince(t0, entries)) === 0) return (after - before) / n;
    }
    return Number.NaN;
  } finally {
    obs.disconnect();
  }
}
