// `npm run bench:compile`: Quire's compile against the published port's over many template
// shapes, not only the bench pages: the repeated- and fresh-data workloads (with their
// partials and data), the demo site's templates and partials, the conformance cases'
// templates (read from /work/shared at bench time when present: the bench is not a test),
// and generated templates of 10 to 3,000 tags. One process per engine and round
// (compile-job.ts), engines alternating in a shuffled order each round; CPU time.
// Per shape: Quire/port per round, median over rounds; per group and overall: median, 10th
// percentile and worst shape. Writes its section of bench/RESULTS.md ("Compile").
// `--before DIR` also runs the Quire of another checkout (a `git archive` with node_modules
// linked) as a third job in every round: before and after measured under the same load.
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ArgReader } from './args.ts';
import { optionsOrExit, runIfMain, withSection } from './cli.ts';
import type { CompileEngine, CompileJobResult, CompileJobSpec, CompileShape } from './compile-job.ts';
import { WORKLOADS, loadWorkload, BENCH_NOW } from './engines.ts';
import { FRESH_NOW, freshWorkloads } from './fresh-workloads.ts';
import { bundleJob, forkJob } from './job-process.ts';
import { mulberry32, shuffle, xorshift32 } from './random.ts';
import { median } from './report.ts';
import { describeMachine } from './run.ts';

const BENCH = fileURLToPath(new URL('./', import.meta.url));
const DEMO = join(BENCH, '../fixtures/sites/demo/');
const CASES = '/work/shared/conformance/cases';
const RESULTS = join(BENCH, 'RESULTS.md');

interface Options {
  rounds: number;
  warmupMs: number;
  batchMs: number;
  batches: number;
  groups: string[] | null;
  write: boolean;
  /** Another checkout whose Quire is run as a third job each round (before/after). */
  before: string | null;
}

function parseOptions(argv: readonly string[]): Options {
  const o: Options = { rounds: 3, warmupMs: 3000, batchMs: 8, batches: 3, groups: null, write: true, before: null };
  const a = new ArgReader(argv);
  for (let opt = a.next(); opt !== undefined; opt = a.next()) {
    if (opt === '--rounds') o.rounds = a.number(1, 50);
    else if (opt === '--warmup') o.warmupMs = a.number(0);
    else if (opt === '--batch') o.batchMs = a.number(1);
    else if (opt === '--batches') o.batches = a.number(1, 50);
    else if (opt === '--groups') o.groups = a.value().split(',');
    else if (opt === '--quick') Object.assign(o, { rounds: 1, warmupMs: 1000, batchMs: 4, batches: 1 });
    else if (opt === '--no-write') o.write = false;
    else if (opt === '--before') o.before = a.value();
    else throw new Error(`unknown option ${opt}`);
  }
  return o;
}

/** A template of about `tags` tags in the dialect's common constructs, with data it reads. */
export function generatedTemplate(tags: number, seed: number): { template: string; json: string } {
  const r = mulberry32(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
  const fields = ['title', 'body', 'url', 'author.displayName', 'price', 'count', 'excerpt', 'id'];
  const formatters = ['', '', '|html', '|htmlattr', '|safe', '|truncate 40', '|slugify', '|json', '|url-encode', '|count'];
  const text = () => pick(['<div class="c">', '</div>', '<p>', '</p>\n', ' — ', '<span data-x="1">', '</span>', '\n  ', 'Lorem ipsum dolor sit amet, ']);
  let out = '';
  let n = 0;
  const body = (depth: number): void => {
    const len = 2 + Math.floor(r() * 8);
    for (let k = 0; k < len && n < tags; k++) {
      out += text();
      const x = r();
      if (x < 0.55 || depth > 3) {
        out += `{${pick(fields)}${pick(formatters)}}`;
        n++;
      } else if (x < 0.7) {
        out += '{.repeated section items}';
        n++;
        body(depth + 1);
        out += r() < 0.5 ? '{.alternates with}<hr>' : '{.or}<em>none</em>';
        out += '{.end}';
        n += 2;
      } else if (x < 0.8) {
        out += `{.section ${pick(['author', 'item', 'meta'])}}`;
        n++;
        body(depth + 1);
        out += '{.end}';
        n++;
      } else if (x < 0.9) {
        out += `{.if ${pick(['title', 'count', 'price'])}${pick([' || body', ' && url', ''])}}`;
        n++;
        body(depth + 1);
        out += '{.or}-{.end}';
        n += 2;
      } else if (x < 0.95) {
        out += `{.${pick(['equal?', 'greaterThan?'])} count ${Math.floor(r() * 9)}}`;
        n++;
        body(depth + 1);
        out += '{.end}';
        n++;
      } else {
        out += '{# a comment }{.var @t title}{@t}';
        n += 3;
      }
    }
  };
  while (n < tags) body(0);
  const item = (i: number) => ({ title: `Item ${i} <b>`, body: 'Body & more '.repeat(3), url: `/items/${i}`, author: { displayName: `A${i}` }, price: i * 105, count: i, excerpt: 'x'.repeat(60), id: `id${i}` });
  const data = { ...item(0), item: item(1), meta: item(2), items: Array.from({ length: 5 }, (_, i) => item(i + 3)) };
  return { template: out, json: JSON.stringify(data) };
}

/** Every shape of a run, in a fixed order. */
export function collectShapes(groups: string[] | null): CompileShape[] {
  const shapes: CompileShape[] = [];
  const want = (g: string) => groups === null || groups.includes(g);
  if (want('workload')) {
    for (const name of WORKLOADS) {
      const w = loadWorkload(name);
      shapes.push({ name: `workload/${name}`, group: 'workload', template: w.jsont, partials: {}, json: w.json, now: BENCH_NOW });
    }
    for (const w of freshWorkloads()) {
      if (w.group !== 'page' || w.name === 'json-page-large' || w.name === 'json-page-maps') continue; // the same template as json-page-small
      // Only the partials the template applies (all of them are the fresh set's).
      const partials = Object.fromEntries(Object.entries(w.partials).filter(([n]) => w.template.includes(n)));
      shapes.push({ name: `fresh/${w.name}`, group: 'workload', template: w.template, partials, json: JSON.stringify(w.data(1)), now: FRESH_NOW });
    }
  }
  if (want('demo')) {
    for (const dir of ['templates', 'partials']) {
      for (const f of readdirSync(join(DEMO, dir)).sort()) {
        if (f.endsWith('.jsont')) shapes.push({ name: `demo/${dir}/${f}`, group: 'demo', template: readFileSync(join(DEMO, dir, f), 'utf8'), partials: {}, now: BENCH_NOW });
      }
    }
  }
  if (want('conformance') && existsSync(CASES)) {
    for (const f of readdirSync(CASES).sort()) {
      if (!f.endsWith('.json')) continue;
      const c = JSON.parse(readFileSync(join(CASES, f), 'utf8')) as { name: string; template: string; partials?: Record<string, string>; json?: unknown; now?: number };
      if (typeof c.template !== 'string') continue;
      const partials: Record<string, string> = {};
      for (const [k, v] of Object.entries(c.partials ?? {})) if (typeof v === 'string') partials[k] = v;
      shapes.push({ name: `conformance/${c.name}`, group: 'conformance', template: c.template, partials, json: JSON.stringify(c.json ?? {}), now: c.now ?? BENCH_NOW });
    }
  }
  if (want('generated')) {
    for (const tags of [10, 30, 100, 300, 1000, 3000]) {
      for (const seed of [1, 2, 3]) {
        const g = generatedTemplate(tags, tags * 31 + seed);
        shapes.push({ name: `generated/${tags}-tags-${seed}`, group: 'generated', template: g.template, partials: {}, json: g.json, now: BENCH_NOW });
      }
    }
  }
  return shapes;
}

const JOB_SOURCE = fileURLToPath(new URL('./compile-job.ts', import.meta.url));
const JOB_BUNDLE = join(BENCH, 'results/compile-job.mjs');
const SHAPES_FILE = join(BENCH, 'results/compile-shapes.json');

interface ShapeRatio {
  name: string;
  group: string;
  bytes: number;
  compile: number[];
  first: number[];
  /** With `--before`: that checkout's Quire/port per round. */
  beforeCompile: number[];
  beforeFirst: number[];
  quireCompile: number;
  portCompile: number;
}

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
};
const fx = (x: number) => `${x.toFixed(2)}x`;
const spread = (xs: number[]) => `${fx(median(xs))} (${fx(Math.min(...xs))}–${fx(Math.max(...xs))})`;

function summaryRows(ratios: ShapeRatio[], before: boolean): string[] {
  const rows = [
    `| shapes | n | compile: median | p10 | worst (shape) | compile + first render: median | p10 | worst (shape) |${before ? ' compile median before | first render median before |' : ''}`,
    `|---|---:|---:|---:|---|---:|---:|---|${before ? '---:|---:|' : ''}`,
  ];
  const groups = [...new Set(ratios.map((r) => r.group)), 'all'];
  for (const g of groups) {
    const rs = ratios.filter((r) => g === 'all' || r.group === g);
    const c = rs.map((r) => ({ r, v: median(r.compile) }));
    const f = rs.filter((r) => r.first.length).map((r) => ({ r, v: median(r.first) }));
    const worst = (xs: { r: ShapeRatio; v: number }[]) => (xs.length ? xs.reduce((a, b) => (b.v < a.v ? b : a)) : null);
    const wc = worst(c);
    const wf = worst(f);
    const cell = (xs: { v: number }[], p: number) => (xs.length ? fx(p < 0 ? median(xs.map((x) => x.v)) : pct(xs.map((x) => x.v), p)) : '–');
    const bc = rs.filter((r) => r.beforeCompile.length).map((r) => median(r.beforeCompile));
    const bf = rs.filter((r) => r.beforeFirst.length).map((r) => median(r.beforeFirst));
    const extra = before ? ` ${bc.length ? fx(median(bc)) : '–'} | ${bf.length ? fx(median(bf)) : '–'} |` : '';
    rows.push(`| ${g === 'all' ? '**all**' : g} | ${rs.length} | **${cell(c, -1)}** | ${cell(c, 0.1)} | ${wc ? `${fx(wc.v)} (${wc.r.name})` : '–'} | **${cell(f, -1)}** | ${cell(f, 0.1)} | ${wf ? `${fx(wf.v)} (${wf.r.name})` : '–'} |${extra}`);
  }
  return rows;
}

function report(o: Options, ratios: ShapeRatio[], failed: Set<string>, loads: number[], seconds: number): string[] {
  const lines = [
    `- ${new Date().toISOString()}; ${describeMachine()}; Node ${process.version}; load average (1 min) at the jobs ${loads.map((l) => l.toFixed(1)).join(', ')}`,
    `- ${o.rounds} rounds in ${seconds.toFixed(0)} s, engines alternating in a shuffled order; warm-up ${o.warmupMs} ms of CPU over all shapes, then per shape ${o.batches} batch(es) of ${o.batchMs} ms CPU for each metric; ratio Quire/port per round, median over rounds.`,
    '',
    ...(o.before ? [`Before: Quire of ${o.before} run as a third job in every round, against the same port jobs.`, ''] : []),
    ...summaryRows(ratios, o.before !== null),
  ];
  if (failed.size) lines.push('', `Left out (an engine threw on them): ${[...failed].join(', ')}.`);
  lines.push('', 'Workloads and demo templates one by one (median (min–max) over rounds; compiles/s median):', '', '| shape | size | port compiles/s | Quire compiles/s | compile Quire/port | compile + first render |', '|---|---:|---:|---:|---|---|');
  for (const r of ratios) {
    if (r.group !== 'workload' && r.group !== 'demo' && !(r.group === 'generated' && r.name.endsWith('-1'))) continue;
    lines.push(`| ${r.name} | ${(r.bytes / 1024).toFixed(1)} KB | ${Math.round(r.portCompile).toLocaleString('en-US')} | ${Math.round(r.quireCompile).toLocaleString('en-US')} | ${spread(r.compile)} | ${r.first.length ? spread(r.first) : '–'} |`);
  }
  return lines;
}

const BEGIN = '<!-- bench:compile begin -->';
const END = '<!-- bench:compile end -->';

function writeSection(body: string[]): void {
  const section = [BEGIN, '## Compile (`npm run bench:compile`)', '', ...body, END].join('\n');
  writeFileSync(RESULTS, withSection(readFileSync(RESULTS, 'utf8'), 'bench:compile', section));
}

async function main(): Promise<void> {
  const o = optionsOrExit(() => parseOptions(process.argv.slice(2)));
  mkdirSync(join(BENCH, 'results'), { recursive: true });
  const shapes = collectShapes(o.groups);
  writeFileSync(SHAPES_FILE, JSON.stringify(shapes));
  await bundleJob(JOB_SOURCE, JOB_BUNDLE);
  const beforeBundle = join(BENCH, 'results/compile-job-before.mjs');
  if (o.before) await bundleJob(join(o.before, 'bench/compile-job.ts'), beforeBundle);
  const rand = xorshift32(14);
  const results: CompileJobResult[][] = [];
  const beforeResults: CompileJobResult[] = [];
  const loads: number[] = [];
  const t0 = Date.now();
  for (let round = 0; round < o.rounds; round++) {
    const pair: CompileJobResult[] = [];
    const jobs: (CompileEngine | 'before')[] = o.before ? ['quire', 'reference', 'before'] : ['quire', 'reference'];
    for (const job of shuffle(jobs, rand)) {
      loads.push(loadavg()[0]);
      const engine: CompileEngine = job === 'before' ? 'quire' : job;
      const spec: CompileJobSpec = { engine, shapesFile: SHAPES_FILE, warmupMs: o.warmupMs, batchMs: o.batchMs, batches: o.batches };
      const r = await forkJob<CompileJobResult>(job === 'before' ? beforeBundle : JOB_BUNDLE, spec, `compile ${job} round ${round + 1}`);
      if (job === 'before') beforeResults[round] = r;
      else pair.push(r);
      process.stderr.write(`round ${round + 1}: ${job} done\n`);
    }
    results.push(pair);
  }
  const failed = new Set<string>();
  const ratios: ShapeRatio[] = [];
  for (const s of shapes) {
    const r: ShapeRatio = { name: s.name, group: s.group, bytes: s.template.length, compile: [], first: [], beforeCompile: [], beforeFirst: [], quireCompile: 0, portCompile: 0 };
    const qc: number[] = [];
    const pc: number[] = [];
    for (const [round, pair] of results.entries()) {
      const q = pair.find((p) => p.engine === 'quire')?.rates[s.name];
      const p = pair.find((p) => p.engine === 'reference')?.rates[s.name];
      if (!q || !p) continue;
      const b = beforeResults[round]?.rates[s.name];
      if (b) {
        r.beforeCompile.push(b.compile / p.compile);
        if (b.first !== null && p.first !== null) r.beforeFirst.push(b.first / p.first);
      }
      r.compile.push(q.compile / p.compile);
      qc.push(q.compile);
      pc.push(p.compile);
      if (q.first !== null && p.first !== null) r.first.push(q.first / p.first);
    }
    if (!r.compile.length) {
      failed.add(s.name);
      continue;
    }
    r.quireCompile = median(qc);
    r.portCompile = median(pc);
    ratios.push(r);
  }
  const lines = report(o, ratios, failed, loads, (Date.now() - t0) / 1000);
  process.stdout.write(lines.join('\n') + '\n');
  writeFileSync(join(BENCH, 'results/compile-ratios.json'), JSON.stringify(ratios, null, 1));
  if (o.write) writeSection(lines);
}

runIfMain(import.meta.url, 'bench:compile', main);
