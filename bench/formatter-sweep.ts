// `npm run bench:formatters`: every formatter a template of the dialect uses (and a few
// predicates), Quire against the reference port, on fresh values (formatter-sweep-cases.ts).
// Issue 14 asks that no formatter microbenchmark be slower than the port; this sweep is how
// one that is would be found. formatters-micro.ts measures the number formatters more
// carefully (a process per engine and case); this one covers the whole catalogue in minutes.
//
// Method: two processes, both engines in each, one compiling and running the port's template
// first in every case and one Quire's (which goes second can cost a few percent). In each
// case the engines alternate batches of `--batch` ms of CPU over a rotation of data sets, after
// warm-up pairs; a ratio is Quire's calls per second over the port's in one pair of batches.
// Reported per case: the median over the pairs of both processes, with the min–max.
//
// Usage: npx tsx bench/formatter-sweep.ts [--cases a,b] [--pairs N] [--batch MS] [--seed N] [--no-write]
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { ArgReader } from './args.ts';
import { SWEEP_CASES, SWEEP_ITEMS } from './formatter-sweep-cases.ts';
import type { SweepCaseResult, SweepJobSpec } from './formatter-sweep-job.ts';
import { bundleJob, forkJob } from './job-process.ts';
import { median } from './report.ts';

interface Options {
  cases: string[];
  pairs: number;
  batchMs: number;
  seed: number;
  write: boolean;
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const JOB = fileURLToPath(new URL('./formatter-sweep-job.ts', import.meta.url));
const BUNDLE = fileURLToPath(new URL('./results/formatter-sweep-job.mjs', import.meta.url));
const OUT = fileURLToPath(new URL('./FORMATTER-SWEEP-RESULTS.md', import.meta.url));
/** Data sets in a rotation: 6,400 values of each case between two uses of one. */
const DATA_SETS = 128;

export function parseSweepArgs(argv: readonly string[]): Options {
  const o: Options = { cases: SWEEP_CASES.map((c) => c.name), pairs: 8, batchMs: 15, seed: 20261129, write: true };
  const a = new ArgReader(argv);
  for (let opt = a.next(); opt !== undefined; opt = a.next()) {
    if (opt === '--cases') {
      const wanted = a.value().split(',');
      const unknown = wanted.filter((w) => !SWEEP_CASES.some((c) => c.name === w));
      if (unknown.length) throw new Error(`unknown cases: ${unknown.join(', ')}`);
      o.cases = wanted;
    } else if (opt === '--pairs') o.pairs = a.number(1, 1000);
    else if (opt === '--batch') o.batchMs = a.number(1, 1000);
    else if (opt === '--seed') o.seed = a.number(0, 2 ** 31);
    else if (opt === '--no-write') o.write = false;
    else throw new Error(`unknown option ${opt}`);
  }
  return o;
}

interface Row {
  name: string;
  tag: string;
  ratio: number;
  min: number;
  max: number;
  quireRate: number;
  portRate: number;
  same: boolean;
  portDiffers?: string;
}

const fx = (x: number): string => `${x.toFixed(2)}x`;
const rate = (x: number): string => Math.round(x).toLocaleString('en-US');

function table(rows: readonly Row[]): string[] {
  const lines = ['| case | tag | Quire/port | min–max | Quire calls/s | port calls/s | output |', '|---|---|---:|---|---:|---:|---|'];
  for (const r of rows) {
    const output = r.same ? 'same' : r.portDiffers ? `differs: ${r.portDiffers}` : '**differs**';
    lines.push(`| ${r.name} | \`${r.tag.replace(/\|/g, '\\|')}\` | **${fx(r.ratio)}** | ${fx(r.min)}–${fx(r.max)} | ${rate(r.quireRate)} | ${rate(r.portRate)} | ${output} |`);
  }
  return lines;
}

async function main(argv: readonly string[]): Promise<void> {
  const o = parseSweepArgs(argv);
  await bundleJob(JOB, BUNDLE);
  const results: SweepCaseResult[][] = [];
  const loads: number[] = [];
  const started = Date.now();
  for (const portFirst of [false, true]) {
    loads.push(loadavg()[0]);
    const spec: SweepJobSpec = { cases: o.cases, seed: o.seed, dataSets: DATA_SETS, portFirst, batchMs: o.batchMs, warmupPairs: 6, pairs: o.pairs };
    results.push(await forkJob<SweepCaseResult[]>(BUNDLE, spec, `sweep (${portFirst ? 'port' : 'Quire'} first)`));
    console.error(`${portFirst ? 'port' : 'Quire'} first: done`);
  }
  const rows: Row[] = o.cases.map((name) => {
    const c = SWEEP_CASES.find((x) => x.name === name) as (typeof SWEEP_CASES)[number];
    const rs = results.map((r) => r.find((x) => x.name === name) as SweepCaseResult);
    const ratios = rs.flatMap((r) => r.ratios);
    return {
      name, tag: c.tag, ratio: median(ratios), min: Math.min(...ratios), max: Math.max(...ratios),
      quireRate: median(rs.map((r) => r.quireRate)), portRate: median(rs.map((r) => r.portRate)), same: rs[0].same, portDiffers: c.portDiffers,
    };
  });
  rows.sort((a, b) => a.ratio - b.ratio);
  const equal = rows.filter((r) => r.same || !r.portDiffers);
  const slower = equal.filter((r) => r.ratio < 1);
  const unexpected = rows.filter((r) => !r.same && !r.portDiffers);
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  const text = [
    '# Formatter sweep: Quire vs the published port (`npm run bench:formatters`)',
    '',
    `- date: ${new Date().toISOString()}; machine: ${cpus()[0]?.model.trim()} × ${cpus().length}, ${(totalmem() / 2 ** 30).toFixed(1)} GB; Node ${process.version}; commit ${commit}`,
    `- ${o.cases.length} cases, ${SWEEP_ITEMS} calls a render over ${DATA_SETS} data sets of fresh values (seed ${o.seed}); 2 processes (each engine first in one), ${o.pairs} pairs of ${o.batchMs} ms batches each after 6 warm-up pairs; ${((Date.now() - started) / 1000).toFixed(0)} s; load average at the processes ${loads.map((l) => l.toFixed(1)).join(', ')}`,
    '',
    'A ratio is Quire\'s calls per CPU second over the port\'s in one pair of batches; the median and the min–max are over',
    'the pairs of both processes. A render applies the tag to 50 values of a repeated section, so each figure includes',
    'the section\'s own cost, the same for both engines. Cases where the port does other work on purpose (its output',
    'differs, and the reason is given) compare unequal work: they are listed, not counted.',
    '',
    `Cases where both engines do the same work: ${equal.length}; slower than the port: ${slower.length ? slower.map((r) => `${r.name} (${fx(r.ratio)})`).join(', ') : 'none'}.` +
      ` Median ${fx(median(equal.map((r) => r.ratio)))}, worst ${equal.length ? `${fx(equal[0].ratio)} (${equal[0].name})` : '–'}.`,
    ...(unexpected.length ? ['', `Outputs that differ without a listed reason: ${unexpected.map((r) => r.name).join(', ')}.`] : []),
    '',
    ...table(rows),
    '',
  ].join('\n');
  console.log(text);
  for (const r of results[0].filter((x) => !x.same && x.sample)) console.error(`${r.name}:\n  quire: ${JSON.stringify(r.sample?.quire)}\n  port:  ${JSON.stringify(r.sample?.port)}`);
  if (o.write) writeFileSync(OUT, text);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main(process.argv.slice(2)).catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(2);
  });
}
