// One benchmark job in a fresh process (forked by run.ts): one engine, one workload, one
// kind of measurement. A fresh process keeps each engine's JIT state, caches and heap
// from leaking into the others' numbers. The result goes back over the IPC channel.
import { type EngineName, type WorkloadName, loadAdapter, loadWorkload } from './engines.ts';
import { serveJob } from './job-process.ts';
import { type MeasureSchedule, allocationPerRender, measure } from './measure.ts';

export interface JobSpec extends MeasureSchedule {
  engine: EngineName;
  workload: WorkloadName;
  /** `speed`: compile/s, render/s, peak heap. `alloc`: bytes allocated per render (needs --expose-gc). */
  kind: 'speed' | 'alloc';
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
    result.allocBytesPerRender = await allocationPerRender(render, 20);
  } else {
    if (adapter.compiles) {
      result.compilePerSec = measure(() => void (sink += adapter.compile(workload) ? 1 : 0), spec.compileWarmupMs, spec.compileMs, spec.batches, sampleHeap);
    }
    result.renderPerSec = measure(render, spec.warmupMs, spec.renderMs, spec.batches, sampleHeap);
  }
  sampleHeap();
  result.peakHeapBytes = peakHeap;
  result.maxRssBytes = process.resourceUsage().maxRSS * 1024;
  if (sink === -1) console.log(sink); // keeps the rendered strings observable
  return result;
}

serveJob(runJob);
