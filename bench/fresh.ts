// `npm run bench` (fresh-data mode, the mode the targets hold in): Quire against the published
// port on the page workloads of fresh-workloads.ts, each job rendering a rotation of data sets
// that share no printed value (so memos keyed by values find nothing), each render followed by
// the server's encoding of the page (renderer/pages/document-bytes.ts). Jobs run one per forked process, in interleaved rounds (a new
// shuffled order and a new rotation seed each round). Writes bench/RESULTS.md;
// `--check` exits 1 when a target is missed. `npm run bench:serializers` runs the json
// micro-benchmark the same way (bench/SERIALIZERS-RESULTS.md). See bench/README.md.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ArgReader } from './args.ts';
import { optionsOrExit, publish, runIfMain } from './cli.ts';
import type { FreshCost, FreshEngine, FreshJobResult, FreshJobSpec } from './fresh-job.ts';
import { type FreshWorkload, freshWorkloads } from './fresh-workloads.ts';
import { ALLOC_EXEC_ARGV, bundleJob, forkJob } from './job-process.ts';
import { DEFAULT_SCHEDULE, type MeasureSchedule, QUICK_SCHEDULE, scheduleOf } from './measure.ts';
import { shuffle, xorshift32 } from './random.ts';
import { median } from './report.ts';
import { describeMachine } from './run.ts';

export interface FreshOptions extends MeasureSchedule {
  group: 'page' | 'serializer';
  rounds: number;
  workloads: string[] | null;
  alloc: boolean;
  /** Also measure every workload with one data set repeated (render only, for comparison). */
  repeated: boolean;
  cost: FreshCost;
  seed: number;
  /** Unprinted members given to every data object of 6+ members (`--members N`, 0). */
  members: number;
  /** Quire's data read with `JSON.parse`, as a host that hands it such objects (`--json-parse`). */
  jsonParse: boolean;
  check: boolean;
  out: string | null;
}

const RESULTS = fileURLToPath(new URL('./RESULTS.md', import.meta.url));
const SERIALIZER_RESULTS = fileURLToPath(new URL('./SERIALIZERS-RESULTS.md', import.meta.url));

const COST_TEXT: Record<FreshCost, string> = {
  bytes: "render + the server's encoding (documentBytes)",
  'buffer-from': 'render + Buffer.from (--buffer-from)',
  render: 'render only (--render-only)',
};

export const FRESH_DEFAULTS: FreshOptions = {
  group: 'page',
  rounds: 3,
  workloads: null,
  ...DEFAULT_SCHEDULE,
  alloc: true,
  repeated: false,
  cost: 'bytes',
  seed: 1,
  members: 0,
  jsonParse: false,
  check: false,
  out: RESULTS,
};

export interface FreshTarget {
  what: string;
  /** Workloads it applies to; `median` compares the median over the page workloads. */
  workloads: string[] | 'each' | 'median';
  metric: 'render' | 'compile' | 'alloc';
  bound: 'min' | 'max';
  ratio: number;
}

export const FRESH_TARGETS: readonly FreshTarget[] = [
  { what: 'every workload, render', workloads: 'each', metric: 'render', bound: 'min', ratio: 3 },
  { what: 'median over workloads, render', workloads: 'median', metric: 'render', bound: 'min', ratio: 6 },
  { what: 'product pages and blog post, render', workloads: ['product-variants', 'product-simple', 'blog-post'], metric: 'render', bound: 'min', ratio: 5 },
  { what: '200-product grid, render', workloads: ['grid-200'], metric: 'render', bound: 'min', ratio: 2.5 },
  { what: 'every workload, compile', workloads: 'each', metric: 'compile', bound: 'min', ratio: 1.5 },
  { what: 'every workload, allocation per render', workloads: 'each', metric: 'alloc', bound: 'max', ratio: 0.3 },
];

/** The serializer micro-benchmark: no formatter slower than the port's. */
export const SERIALIZER_TARGETS: readonly FreshTarget[] = [
  { what: 'every serializer, render + bytes', workloads: 'each', metric: 'render', bound: 'min', ratio: 1 },
];

export function planFreshJobs(o: FreshOptions, workloads: readonly string[]): FreshJobSpec[][] {
  const rand = xorshift32(o.seed);
  const rounds: FreshJobSpec[][] = [];
  for (let r = 0; r < o.rounds; r++) {
    const round: FreshJobSpec[] = [];
    for (const workload of workloads) {
      for (const engine of ['quire', 'reference'] as const) {
        const base = { engine, workload, ...scheduleOf(o), seed: o.seed * 1000 + r, cost: o.cost, members: o.members, data: 'fresh' as const, jsonParse: o.jsonParse };
        round.push({ ...base, kind: 'speed' });
        if (o.alloc && r === 0) round.push({ ...base, kind: 'alloc' });
        if (o.repeated) round.push({ ...base, kind: 'speed', data: 'repeated' });
      }
    }
    rounds.push(shuffle(round, rand));
  }
  return rounds;
}

const JOB_SOURCE = fileURLToPath(new URL('./fresh-job.ts', import.meta.url));
const JOB_BUNDLE = fileURLToPath(new URL('./results/fresh-job.mjs', import.meta.url));

async function runJob(jobPath: string, spec: FreshJobSpec): Promise<FreshJobResult & { data: FreshJobSpec['data'] }> {
  const result = await forkJob<FreshJobResult>(jobPath, spec, `${spec.engine}/${spec.workload}/${spec.kind}`, spec.kind === 'alloc' ? ALLOC_EXEC_ARGV : []);
  return { ...result, data: spec.data };
}

export interface OutputComparison {
  workload: string;
  identical: boolean;
  quireBytes: number;
  referenceBytes: number;
  /** Where the pages first differ, with some context. */
  excerpt?: string;
}

/** Data sets 1..n of each workload rendered by both engines and compared byte for byte. */
async function compareOutputs(workloads: readonly FreshWorkload[], sets: number, members: number): Promise<OutputComparison[]> {
  const { loadFreshEngine, rotation } = await import('./fresh-job.ts');
  const out: OutputComparison[] = [];
  for (const w of workloads) {
    const q = await loadFreshEngine('quire', w);
    const r = await loadFreshEngine('reference', w);
    const qc = q.compile();
    const rc = r.compile();
    const texts = rotation({ ...w, pool: Math.min(sets, w.pool) }, 7, 'fresh', members);
    let cmp: OutputComparison = { workload: w.name, identical: true, quireBytes: 0, referenceBytes: 0 };
    for (const t of texts) {
      const a = q.render(qc, q.prepare(t));
      const b = r.render(rc, r.prepare(t));
      cmp.quireBytes += Buffer.byteLength(a);
      cmp.referenceBytes += Buffer.byteLength(b);
      if (a !== b && cmp.identical) {
        let d = 0;
        while (d < a.length && a[d] === b[d]) d++;
        const from = Math.max(0, d - 60);
        cmp = { ...cmp, identical: false, excerpt: `quire: …${JSON.stringify(a.slice(from, d + 80))}\nport:  …${JSON.stringify(b.slice(from, d + 80))}` };
      }
    }
    out.push(cmp);
  }
  return out;
}

interface Spread {
  median: number;
  min: number;
  max: number;
}

function spread(values: number[]): Spread | null {
  const v = values.filter((x) => Number.isFinite(x));
  return v.length ? { median: median(v), min: Math.min(...v), max: Math.max(...v) } : null;
}

export interface WorkloadSummary {
  workload: string;
  what: string;
  pool: number;
  quireRender: number;
  referenceRender: number;
  /** Quire/port per round (each the ratio of the two jobs' median batches in that round). */
  render: Spread | null;
  compile: Spread | null;
  repeatedRender: Spread | null;
  quireAlloc: number | null;
  referenceAlloc: number | null;
  alloc: number | null;
  outputBytes: number;
}

export function summarizeFresh(results: readonly (FreshJobResult & { data: 'fresh' | 'repeated'; round: number })[], workloads: readonly FreshWorkload[]): WorkloadSummary[] {
  const out: WorkloadSummary[] = [];
  for (const w of workloads) {
    const mine = results.filter((r) => r.workload === w.name);
    const speed = (engine: FreshEngine, data: 'fresh' | 'repeated') => mine.filter((r) => r.engine === engine && r.kind === 'speed' && r.data === data);
    const ratios = (data: 'fresh' | 'repeated', pick: (r: FreshJobResult) => number[]) => {
      const q = speed('quire', data);
      const p = speed('reference', data);
      const rs: number[] = [];
      for (const a of q) {
        const b = p.find((x) => x.round === (a as { round: number }).round);
        if (b) rs.push(median(pick(a)) / median(pick(b)));
      }
      return spread(rs);
    };
    const alloc = (engine: FreshEngine) => mine.find((r) => r.engine === engine && r.kind === 'alloc')?.allocBytesPerRender ?? null;
    const qa = alloc('quire');
    const pa = alloc('reference');
    out.push({
      workload: w.name,
      what: w.what,
      pool: mine[0]?.pool ?? w.pool,
      quireRender: median(speed('quire', 'fresh').map((r) => median(r.renderPerSec))),
      referenceRender: median(speed('reference', 'fresh').map((r) => median(r.renderPerSec))),
      render: ratios('fresh', (r) => r.renderPerSec),
      compile: ratios('fresh', (r) => r.compilePerSec),
      repeatedRender: ratios('repeated', (r) => r.renderPerSec),
      quireAlloc: qa,
      referenceAlloc: pa,
      alloc: qa !== null && pa !== null && Number.isFinite(qa) && Number.isFinite(pa) ? qa / pa : null,
      outputBytes: mine.find((r) => r.engine === 'quire')?.outputBytes ?? 0,
    });
  }
  return out;
}

export interface FreshOutcome {
  target: FreshTarget;
  actual: number | null;
  worst: string | null;
  pass: boolean;
}

export function evaluateFresh(summaries: readonly WorkloadSummary[], targets: readonly FreshTarget[]): FreshOutcome[] {
  return targets.map((t) => {
    const value = (s: WorkloadSummary): number | null => (t.metric === 'render' ? s.render?.median : t.metric === 'compile' ? s.compile?.median : s.alloc) ?? null;
    if (t.workloads === 'median') {
      const m = median(summaries.map(value).filter((x): x is number => x !== null));
      return { target: t, actual: Number.isFinite(m) ? m : null, worst: null, pass: Number.isFinite(m) && (t.bound === 'min' ? m >= t.ratio : m <= t.ratio) };
    }
    const list = t.workloads === 'each' ? summaries : summaries.filter((s) => (t.workloads as string[]).includes(s.workload));
    if (list.length === 0) return { target: t, actual: null, worst: null, pass: true };
    let worst: WorkloadSummary | null = null;
    let worstValue: number | null = null;
    for (const s of list) {
      const v = value(s);
      if (v === null) return { target: t, actual: null, worst: s.workload, pass: false };
      if (worstValue === null || (t.bound === 'min' ? v < worstValue : v > worstValue)) [worst, worstValue] = [s, v];
    }
    return { target: t, actual: worstValue, worst: worst?.workload ?? null, pass: worstValue !== null && (t.bound === 'min' ? worstValue >= t.ratio : worstValue <= t.ratio) };
  });
}

const x = (s: Spread | null): string => (s ? `**${s.median.toFixed(2)}x** (${s.min.toFixed(2)}–${s.max.toFixed(2)})` : '–');
const kb = (b: number | null): string => (b === null || !Number.isFinite(b) ? '–' : b >= 1e6 ? (b / 1e6).toFixed(2) + ' MB' : (b / 1024).toFixed(1) + ' KB');
const rate = (n: number): string => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '–');

export function formatFresh(o: FreshOptions, header: string[], summaries: readonly WorkloadSummary[], outcomes: readonly FreshOutcome[], checks: readonly OutputComparison[]): string {
  const lines: string[] = [];
  const serializer = o.group === 'serializer';
  lines.push(serializer ? '# Serializer micro-benchmark: Quire vs the published port (fresh objects)' : '# Benchmark results: fresh-data mode (Quire vs the published port)', '');
  lines.push(...header, '');
  lines.push(
    `Each figure is ${o.cost === 'render' ? 'a render **alone** (no encoding)' : o.cost === 'bytes' ? 'a render **plus encoding the page as the server does** (document-bytes.ts: one UTF-8 pass into a reused slab)' : 'a render **plus `Buffer.from(page)`**'}, in CPU time, for a rotation of`,
    '`pool` data sets generated from seeds, each used once per pass (no printed value repeats within a pass; see',
    'bench/README.md). Ratios are Quire/port per round (the two jobs of one round), shown as **median** (min–max) over',
    'rounds. The machine was shared with other work: treat single figures as noisy and read the spread.',
    '',
  );
  const repeated = summaries.some((s) => s.repeatedRender);
  lines.push(`| workload | pool | page | port render/s | Quire render/s | render Quire/port | compile Quire/port | alloc/render port → Quire | alloc ratio |${repeated ? ' repeated data |' : ''}`);
  lines.push(`|---|---:|---:|---:|---:|---|---|---|---:|${repeated ? '---|' : ''}`);
  for (const s of summaries) {
    lines.push(`| ${s.workload} | ${s.pool} | ${kb(s.outputBytes)} | ${rate(s.referenceRender)} | ${rate(s.quireRender)} | ${x(s.render)} | ${x(s.compile)} | ${kb(s.referenceAlloc)} → ${kb(s.quireAlloc)} | ${s.alloc === null ? '–' : s.alloc.toFixed(2) + 'x'} |${repeated ? ' ' + x(s.repeatedRender) + ' |' : ''}`);
  }
  const renders = summaries.map((s) => s.render?.median).filter((v): v is number => v !== undefined);
  if (renders.length) {
    const worst = summaries.reduce((a, b) => ((b.render?.median ?? Infinity) < (a.render?.median ?? Infinity) ? b : a));
    lines.push('', `Over the ${renders.length} workloads, render Quire/port: median **${median(renders).toFixed(2)}x**, worst **${Math.min(...renders).toFixed(2)}x** (${worst.workload}).`);
  }
  lines.push('', '## Targets', '', '| target | bound | actual | worst workload | |', '|---|---|---:|---|---|');
  for (const oc of outcomes) {
    lines.push(`| ${oc.target.what} | ${oc.target.bound === 'min' ? '≥' : '≤'} ${oc.target.ratio}x | ${oc.actual === null ? '–' : oc.actual.toFixed(2) + 'x'} | ${oc.worst ?? ''} | ${oc.pass ? 'pass' : '**MISS**'} |`);
  }
  lines.push('', '## Output against the port', '', 'Data sets 7·10⁵+1 … +3 of each workload rendered by both engines and compared byte for byte.', '');
  for (const c of checks) {
    lines.push(`- **${c.workload}**: ${c.identical ? 'identical' : 'DIFFERS'} (${kb(c.quireBytes)} / ${kb(c.referenceBytes)})${c.identical ? '' : (KNOWN_FRESH_DIVERGENCES[c.workload] ? ' — ' + KNOWN_FRESH_DIVERGENCES[c.workload] : ' — not a listed divergence')}`);
    if (!c.identical && c.excerpt) lines.push('', '  ```', ...c.excerpt.split('\n').map((l) => '  ' + l), '  ```');
  }
  lines.push('', '## Workloads', '');
  for (const w of summaries) lines.push(`- **${w.workload}**: ${w.what}`);
  lines.push('');
  return lines.join('\n');
}

/** Where the port is known to differ from the reference on these workloads (the spec wins). */
export const KNOWN_FRESH_DIVERGENCES: Record<string, string> = {
  'event-list':
    '`google-calendar-url`: the port percent-encodes a non-ASCII character of the title in Latin-1 (`ï` → `%EF`), ' +
    'Quire in UTF-8 (`%C3%AF`) as the reference (URLEncoder, UTF-8) does; not in PLUGINS §17, reported here',
  'grid-200':
    'the port prints a focal point of exactly 1 as `1` where the reference and Quire print `1.0` (PLUGINS §17.9 lists it for `image`; here `image-meta`, `data-image-focal-point`)',
  'json-doubles-100k': 'PLUGINS §17 (5): the port reads `12.0` with JSON.parse and prints `12`; the reference and Quire print `12.0`',
  'json-pretty-10k': 'PLUGINS §17.5: the port lays arrays out with JSON.stringify(v, null, 2)',
  'json-pretty-100k': 'PLUGINS §17.5',
  'json-pretty-1m': 'PLUGINS §17.5',
};

function gitCommit(): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8' }).trim() !== '';
    return head + (dirty ? ' (working tree modified)' : '');
  } catch {
    return 'unknown';
  }
}

export function parseFreshArgs(argv: readonly string[], defaults: FreshOptions = FRESH_DEFAULTS): FreshOptions {
  const o: FreshOptions = { ...defaults };
  const args = new ArgReader(argv);
  for (let a = args.next(); a !== undefined; a = args.next()) {
    switch (a) {
      case '--check': o.check = true; break;
      case '--quick': Object.assign(o, { rounds: 1, ...QUICK_SCHEDULE }); break;
      case '--rounds': o.rounds = Math.max(1, Math.floor(args.number(0))); break;
      case '--workloads': o.workloads = args.value().split(',').filter(Boolean); break;
      case '--no-alloc': o.alloc = false; break;
      case '--repeated-data': o.repeated = true; break;
      case '--render-only': o.cost = 'render'; break;
      case '--buffer-from': o.cost = 'buffer-from'; break;
      case '--seed': o.seed = Math.floor(args.number(0)); break;
      case '--members': o.members = Math.floor(args.number(0, 1000)); break;
      case '--json-parse': o.jsonParse = true; break;
      case '--out': o.out = args.value(); break;
      case '--no-write': o.out = null; break;
      default: throw new Error(`unknown option ${a}`);
    }
  }
  const names = freshWorkloads().filter((w) => w.group === o.group).map((w) => w.name);
  for (const n of o.workloads ?? []) if (!names.includes(n)) throw new Error(`unknown workload ${n}; expected one of ${names.join(', ')}`);
  return o;
}

export async function runFresh(o: FreshOptions, log: (line: string) => void = (l) => process.stderr.write(l + '\n')): Promise<{ markdown: string; pass: boolean; outcomes: FreshOutcome[] }> {
  const started = Date.now();
  const all = freshWorkloads().filter((w) => w.group === o.group);
  const workloads = o.workloads ? all.filter((w) => o.workloads!.includes(w.name)) : all;
  const checks = await compareOutputs(workloads, 3, o.members);
  for (const c of checks) log(`output ${c.workload}: ${c.identical ? 'identical' : 'DIFFERS'}`);
  // Built once per run (job-process.ts bundleJob: tsx's keepNames slows closures).
  const jobPath = await bundleJob(JOB_SOURCE, JOB_BUNDLE);
  const plan = planFreshJobs(o, workloads.map((w) => w.name));
  const results: (FreshJobResult & { data: 'fresh' | 'repeated'; round: number })[] = [];
  const total = plan.reduce((n, r) => n + r.length, 0);
  for (const [r, round] of plan.entries()) {
    for (const spec of round) {
      const res = await runJob(jobPath, spec);
      results.push({ ...res, round: r });
      const what = res.kind === 'alloc' ? kb(res.allocBytesPerRender ?? null) + '/render' : rate(median(res.renderPerSec)) + ' render/s, ' + rate(median(res.compilePerSec)) + ' compile/s';
      log(`[${results.length}/${total}] round ${r + 1} ${spec.engine} ${spec.workload} ${spec.kind}${spec.data === 'repeated' ? ' (repeated data)' : ''}: ${what}`);
    }
  }
  const summaries = summarizeFresh(results, workloads);
  const outcomes = evaluateFresh(summaries, o.group === 'serializer' ? SERIALIZER_TARGETS : FRESH_TARGETS);
  const header = [
    `- date: ${new Date().toISOString()}; machine: ${describeMachine()}; Node ${process.version}; commit ${gitCommit()}`,
    `- ${o.rounds} interleaved rounds in ${((Date.now() - started) / 1000).toFixed(0)} s; warm-up ${o.warmupMs} ms (compile ${o.compileWarmupMs} ms), ${o.batches} batches of compile ${o.compileMs} ms and render ${o.renderMs} ms; ${COST_TEXT[o.cost]}; allocation ${o.alloc ? 'in round 1' : 'not measured'}${o.members > 0 ? `; every data object of 6+ members carries ${o.members} more that no template prints (--members)` : ''}${o.jsonParse ? '; Quire given its data as `JSON.parse` reads it (--json-parse)' : ''}`,
  ];
  const markdown = formatFresh(o, header, summaries, outcomes, checks);
  return { markdown, pass: outcomes.every((oc) => oc.pass), outcomes };
}

export async function freshMain(argv: readonly string[], defaults: FreshOptions = FRESH_DEFAULTS): Promise<void> {
  const o = optionsOrExit(() => parseFreshArgs(argv, defaults));
  const run = await runFresh(o);
  const missed = run.outcomes.filter((oc) => !oc.pass).map((oc) => `${oc.target.what}: ${oc.actual?.toFixed(2) ?? '–'}x${oc.worst ? ' (' + oc.worst + ')' : ''}, target ${oc.target.bound === 'min' ? '≥' : '≤'} ${oc.target.ratio}x`);
  publish(run.markdown, o.out, o.check, missed);
}

export const SERIALIZER_DEFAULTS: FreshOptions = { ...FRESH_DEFAULTS, group: 'serializer', alloc: false, warmupMs: 1000, compileWarmupMs: 200, compileMs: 50, out: SERIALIZER_RESULTS };

runIfMain(import.meta.url, 'bench', () => freshMain(process.argv.slice(2)));
