// One benchmark job in a fresh process (forked by run.ts): one engine, one workload, one
// kind of measurement. A fresh process keeps each engine's JIT state, caches and heap
// from leaking into the others' numbers. The result goes back over the IPC channel.
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { type EngineName, type WorkloadName, loadAdapter, loadWorkload } from './engines.ts';

export interface JobSpec {
  engine: EngineName;
  workload: WorkloadName;
  /** `speed`: compile/s, render/s, peak heap. `alloc`: bytes allocated per render (needs --expose-gc). */
  kind: 'speed' | 'alloc';
  /** Render warm-up; compile gets its own, longer one (compilers reach steady state slowly). */
  warmupMs: number;
  compileWarmupMs: number;
  compileMs: number;
  renderMs: number;
  batches: number;
  /** Deliberate slowdown for the harness self-check: each render is done this many times. */
  slowdown?: number;
}

export interface JobResult {
  engine: EngineName;
  workload: WorkloadName;
  kind: JobSpec['kind'];
  /** Per-batch rates; empty when the engine does not compile (the concat baseline). */
  compilePerSec: number[];
  renderPerSec: number[];
  /** UTF-8 bytes of one rendered page. */
  outputBytes: number;
  allocBytesPerRender?: number;
  peakHeapBytes: number;
  maxRssBytes: number;
}

let sink = 0;
let peakHeap = 0;

function sampleHeap(): void {
  const used = process.memoryUsage().heapUsed;
  if (used > peakHeap) peakHeap = used;
}

/**
 * The job's clock: CPU time of this process (user + system, GC threads included), in ms.
 * The machine is shared (other jobs, other people's test runs); wall time counted the time
 * the job waited for a core, which swung the ratios by 2–10x between identical runs. CPU
 * time counts only the work done, the same way for every engine.
 */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** Rates (ops/s) of `batches` timed batches, sized from a warm-up run. */
function measure(fn: () => void, warmupMs: number, totalMs: number, batches: number): number[] {
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
    sampleHeap();
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
 * (set by run.ts through --min/--max-semi-space-size) no collection happens, so the growth
 * of the used heap is the allocation. A run that saw a GC is retried with fewer renders.
 */
async function allocationPerRender(render: () => void): Promise<number> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('alloc jobs need --expose-gc');
  const entries: PerformanceEntry[] = [];
  const obs = new PerformanceObserver((list) => entries.push(...list.getEntries()));
  obs.observe({ entryTypes: ['gc'] });
  for (let i = 0; i < 20; i++) render();
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

export async function runJob(spec: JobSpec): Promise<JobResult> {
  const adapter = await loadAdapter(spec.engine);
  const workload = loadWorkload(spec.workload);
  const data = adapter.prepare(workload);
  const compiled = adapter.compile(workload);
  const slowdown = Math.max(1, spec.slowdown ?? 1);
  const render = (): void => {
    for (let k = 0; k < slowdown; k++) sink += adapter.render(compiled, data).length;
  };
  const outputBytes = Buffer.byteLength(adapter.render(compiled, data));
  const result: JobResult = {
    engine: spec.engine,
    workload: spec.workload,
    kind: spec.kind,
    compilePerSec: [],
    renderPerSec: [],
    outputBytes,
    peakHeapBytes: 0,
    maxRssBytes: 0,
  };
  if (spec.kind === 'alloc') {
    result.allocBytesPerRender = await allocationPerRender(render);
  } else {
    if (adapter.compiles) {
      result.compilePerSec = measure(() => void (sink += adapter.compile(workload) ? 1 : 0), spec.compileWarmupMs, spec.compileMs, spec.batches);
    }
    result.renderPerSec = measure(render, spec.warmupMs, spec.renderMs, spec.batches);
  }
  sampleHeap();
  result.peakHeapBytes = peakHeap;
  result.maxRssBytes = process.resourceUsage().maxRSS * 1024;
  if (sink === -1) console.log(sink); // keeps the rendered strings observable
  return result;
}

if (process.send && process.argv[2]) {
  const spec = JSON.parse(process.argv[2]) as JobSpec;
  runJob(spec).then(
    (r) => process.send?.({ ok: true, result: r }, () => process.exit(0)),
    (e: unknown) => process.send?.({ ok: false, error: e instanceof Error ? e.stack ?? e.message : String(e) }, () => process.exit(1)),
  );
}
