// Pure part of the benchmark harness: turns job results into per-engine summaries, ratios
// to the reference port, a target gate and the RESULTS.md text. Kept free of I/O and timing
// so the gate itself can be tested deterministically (report.test.ts).
import type { EngineName, WorkloadName } from './engines.ts';
import type { JobResult } from './job.ts';

export interface Spread {
  median: number;
  min: number;
  max: number;
  /** Number of rounds the figure is the median of. */
  n: number;
}

export interface EngineSummary {
  engine: EngineName;
  workload: WorkloadName;
  compile: Spread | null;
  render: Spread | null;
  outputBytes: number;
  allocBytesPerRender: number | null;
  peakHeapBytes: number;
  maxRssBytes: number;
}

export type Metric = 'render' | 'compile' | 'alloc';

export interface Target {
  workload: WorkloadName;
  metric: Metric;
  /** `min`: Quire/reference must be at least `ratio`; `max`: at most. */
  bound: 'min' | 'max';
  ratio: number;
}

export interface TargetOutcome extends Target {
  actual: number | null;
  pass: boolean;
}

export const TARGETS: readonly Target[] = [
  { workload: 'product-page', metric: 'render', bound: 'min', ratio: 5 },
  { workload: 'blog-post', metric: 'render', bound: 'min', ratio: 5 },
  { workload: 'collection-grid', metric: 'render', bound: 'min', ratio: 2.5 },
  { workload: 'product-page', metric: 'compile', bound: 'min', ratio: 1 },
  { workload: 'blog-post', metric: 'compile', bound: 'min', ratio: 1 },
  { workload: 'collection-grid', metric: 'compile', bound: 'min', ratio: 1 },
  { workload: 'product-page', metric: 'alloc', bound: 'max', ratio: 0.3 },
  { workload: 'blog-post', metric: 'alloc', bound: 'max', ratio: 0.3 },
  { workload: 'collection-grid', metric: 'alloc', bound: 'max', ratio: 0.3 },
];

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

function spread(values: readonly number[]): Spread | null {
  const finite = values.filter((v) => Number.isFinite(v));
  if (finite.length === 0) return null;
  return { median: median(finite), min: Math.min(...finite), max: Math.max(...finite), n: finite.length };
}

/** One summary per (engine, workload): the median over rounds of each job's median batch. */
export function summarize(results: readonly JobResult[]): EngineSummary[] {
  const groups = new Map<string, JobResult[]>();
  for (const r of results) {
    const key = r.engine + '\u0000' + r.workload;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = []));
    g.push(r);
  }
  const out: EngineSummary[] = [];
  for (const g of groups.values()) {
    const speed = g.filter((r) => r.kind === 'speed');
    const alloc = g.filter((r) => r.kind === 'alloc' && Number.isFinite(r.allocBytesPerRender));
    out.push({
      engine: g[0].engine,
      workload: g[0].workload,
      compile: spread(speed.filter((r) => r.compilePerSec.length).map((r) => median(r.compilePerSec))),
      render: spread(speed.filter((r) => r.renderPerSec.length).map((r) => median(r.renderPerSec))),
      outputBytes: g[0].outputBytes,
      allocBytesPerRender: alloc.length ? median(alloc.map((r) => r.allocBytesPerRender as number)) : null,
      peakHeapBytes: Math.max(0, ...speed.map((r) => r.peakHeapBytes)),
      maxRssBytes: Math.max(0, ...g.map((r) => r.maxRssBytes)),
    });
  }
  return out;
}

function find(summaries: readonly EngineSummary[], engine: EngineName, workload: WorkloadName): EngineSummary | undefined {
  return summaries.find((s) => s.engine === engine && s.workload === workload);
}

function metricValue(s: EngineSummary | undefined, metric: Metric): number | null {
  if (!s) return null;
  if (metric === 'alloc') return s.allocBytesPerRender;
  const sp = metric === 'render' ? s.render : s.compile;
  return sp ? sp.median : null;
}

/** `engine` / reference for one metric; null when either side was not measured. */
export function ratio(summaries: readonly EngineSummary[], engine: EngineName, workload: WorkloadName, metric: Metric): number | null {
  const a = metricValue(find(summaries, engine, workload), metric);
  const b = metricValue(find(summaries, 'reference', workload), metric);
  if (a === null || b === null || !(b > 0) || !Number.isFinite(a)) return null;
  return a / b;
}

/** A target with no measurement fails: a gate must not pass on missing data. */
export function evaluateTargets(summaries: readonly EngineSummary[], targets: readonly Target[] = TARGETS): TargetOutcome[] {
  return targets.map((t) => {
    const actual = ratio(summaries, 'quire', t.workload, t.metric);
    const pass = actual !== null && (t.bound === 'min' ? actual >= t.ratio : actual <= t.ratio);
    return { ...t, actual, pass };
  });
}

export interface OutputCheck {
  workload: WorkloadName;
  identical: boolean;
  quireBytes: number;
  referenceBytes: number;
  /** The differing region (common prefix and suffix removed), as `-`/`+` lines. */
  diff: string;
}

export function compareOutputs(workload: WorkloadName, quire: string, reference: string): OutputCheck {
  const check: OutputCheck = {
    workload,
    identical: quire === reference,
    quireBytes: Buffer.byteLength(quire),
    referenceBytes: Buffer.byteLength(reference),
    diff: '',
  };
  if (check.identical) return check;
  const a = quire.split('\n');
  const b = reference.split('\n');
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const show = (lines: string[], sign: string): string[] =>
    lines.slice(0, 12).map((l) => sign + ' ' + JSON.stringify(l).slice(1, -1)).concat(lines.length > 12 ? [`${sign} … ${lines.length - 12} more lines`] : []);
  check.diff = [
    `@@ line ${head + 1} (quire ${a.length - head - tail} lines, reference ${b.length - head - tail} lines)`,
    ...show(a.slice(head, a.length - tail), '- quire'),
    ...show(b.slice(head, b.length - tail), '+ ref  '),
  ].join('\n');
  return check;
}

export interface RunInfo {
  date: string;
  machine: string;
  node: string;
  commit: string;
  rounds: number;
  durationSec: number;
  options: string;
}

const fmtRate = (s: Spread | null): string => {
  if (!s) return '–';
  const pm = s.median > 0 ? ((s.max - s.min) / 2 / s.median) * 100 : 0;
  return `${Math.round(s.median).toLocaleString('en-US')} ±${pm.toFixed(0)}%`;
};
const fmtBytes = (n: number | null): string => {
  if (n === null || !Number.isFinite(n)) return '–';
  if (n >= 1024 * 1024) return (n / 1024 / 1024).toFixed(1) + ' MB';
  return (n / 1024).toFixed(1) + ' KB';
};
const fmtRatio = (r: number | null): string => (r === null ? '–' : r.toFixed(2) + 'x');

export function formatResults(info: RunInfo, summaries: readonly EngineSummary[], outcomes: readonly TargetOutcome[], checks: readonly OutputCheck[]): string {
  const lines: string[] = [];
  lines.push('# Quire benchmark results', '');
  lines.push(`- date: ${info.date}`, `- machine: ${info.machine}`, `- node: ${info.node}`, `- commit: ${info.commit}`);
  lines.push(`- rounds: ${info.rounds} (interleaved, one fresh process per job), run time ${info.durationSec.toFixed(0)} s, options: ${info.options}`);
  lines.push(
    '',
    'Figures are medians over rounds of each job\'s median timed batch, timed in process CPU time (the machine is shared); ' +
      '±x% is half the min–max range over rounds. Jobs run as an esbuild bundle (bench/README.md).',
    'Ratios are Quire ÷ reference port (`@squarespace/template-engine`). Allocation: bytes allocated per render, measured with a',
    'young generation larger than the measured run (no GC in between). Peak heap: largest used heap seen in the speed jobs.',
    '',
  );
  const workloads = [...new Set(summaries.map((s) => s.workload))];
  for (const w of workloads) {
    lines.push(`## ${w}`, '');
    lines.push('| engine | compile/s | render/s | output MB/s | alloc/render | peak heap | max RSS | render vs ref | compile vs ref | alloc vs ref |');
    lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const s of summaries.filter((x) => x.workload === w)) {
      const mbps = s.render ? ((s.render.median * s.outputBytes) / 1e6).toFixed(1) : '–';
      lines.push(
        `| ${s.engine} | ${fmtRate(s.compile)} | ${fmtRate(s.render)} | ${mbps} | ${fmtBytes(s.allocBytesPerRender)} | ${fmtBytes(s.peakHeapBytes)} | ${fmtBytes(s.maxRssBytes)} | ${fmtRatio(ratio(summaries, s.engine, w, 'render'))} | ${fmtRatio(ratio(summaries, s.engine, w, 'compile'))} | ${fmtRatio(ratio(summaries, s.engine, w, 'alloc'))} |`,
      );
    }
    const out = summaries.find((x) => x.workload === w && x.engine === 'quire');
    if (out) lines.push('', `Output: ${out.outputBytes.toLocaleString('en-US')} bytes per page (Quire).`);
    lines.push('');
  }
  lines.push('## Targets (Quire ÷ reference, same run)', '', '| workload | metric | target | actual | |', '|---|---|---|---:|---|');
  for (const o of outcomes) {
    lines.push(`| ${o.workload} | ${o.metric} | ${o.bound === 'min' ? '≥' : '≤'} ${o.ratio}x | ${fmtRatio(o.actual)} | ${o.pass ? 'pass' : '**MISS**'} |`);
  }
  lines.push('', '## Output identity (Quire vs reference port)', '');
  for (const c of checks) {
    lines.push(`- ${c.workload}: ${c.identical ? 'byte-identical' : '**differs**'} (${c.quireBytes} / ${c.referenceBytes} bytes)`);
    if (!c.identical) lines.push('', '```diff', c.diff, '```', '');
  }
  lines.push('');
  return lines.join('\n');
}
