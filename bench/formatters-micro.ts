// Formatter microbenchmark: Quire's CLDR number formatters (`money`, `decimal`, percent)
// against the reference port's, on amounts that change on every render.
//
// Each case is a template that formats 50 values in a repeated section. The data of a render
// is one of 512 data sets generated from a fixed seed (25,600 distinct values per case), taken
// in turn, so no memo keyed by value can pay off: what is measured is the formatting itself.
// As in run.ts, every (engine, case) job runs in a fresh Node process (the two engines share
// @phensley/cldr, whose JIT state must not leak between them), as JavaScript built by esbuild
// (not through tsx), timed in CPU time after a warm-up; rounds are interleaved in a shuffled
// order, and a case's ratio is the median over rounds of Quire's rate over the reference's,
// with ±half the min–max range.
//
// Usage: npx tsx bench/formatters-micro.ts [--rounds N] [--quick] [--cases money-usd,percent]
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { cpuMs } from './measure.ts';
import { mulberry32 } from './random.ts';
import { loadReferencePort } from './reference-port.ts';

type Engine = 'quire' | 'reference';

interface Case {
  readonly template: string;
  readonly locale: string;
  readonly item: (rand: () => number) => unknown;
}

const ITEMS = 50;
const DATA_SETS = 512;

/** A price as a storefront holds it: decimal text with the currency's digits, 0.01 to ~1e6. */
function priceText(rand: () => number, digits: number): string {
  const magnitude = 10 ** Math.floor(rand() * 8);
  const units = Math.floor(rand() * magnitude * 10 ** digits) + 1;
  return digits === 0 ? String(units) : (units / 10 ** digits).toFixed(digits);
}

/** A measurement: a double with 0–6 fraction digits, sometimes negative. */
function measureValue(rand: () => number): number {
  const v = (rand() - 0.2) * 10 ** Math.floor(rand() * 7);
  return Number(v.toFixed(Math.floor(rand() * 7)));
}

const moneyCase = (currency: string, locale: string, digits: number, options = ''): Case => ({
  template: `{.repeated section items}{p|money${options}} {.end}`,
  locale,
  item: (rand) => ({ p: { decimalValue: priceText(rand, digits), currencyCode: currency } }),
});

export const CASES: Record<string, Case> = {
  'money-usd': moneyCase('USD', 'en-US', 2),
  'money-eur-de': moneyCase('EUR', 'de-DE', 2),
  'money-jpy-ja': moneyCase('JPY', 'ja', 0),
  'money-accounting': {
    template: '{.repeated section items}{p|money style:accounting} {.end}',
    locale: 'en-US',
    item: (rand) => ({ p: { value: (rand() < 0.3 ? '-' : '') + priceText(rand, 2), currency: 'GBP' } }),
  },
  decimal: {
    template: '{.repeated section items}{n|decimal} {.end}',
    locale: 'en-US',
    item: (rand) => ({ n: measureValue(rand) }),
  },
  'decimal-fr': {
    template: '{.repeated section items}{n|decimal maxFrac:2} {.end}',
    locale: 'fr-FR',
    item: (rand) => ({ n: measureValue(rand) }),
  },
  percent: {
    template: '{.repeated section items}{n|decimal style:percent} {.end}',
    locale: 'en-US',
    item: (rand) => ({ n: Number((rand() * 1.5).toFixed(4)) }),
  },
};

function dataSets(name: string): string[] {
  const c = CASES[name];
  const rand = mulberry32(0x5eed + name.length * 7919 + name.charCodeAt(0));
  const out: string[] = [];
  for (let d = 0; d < DATA_SETS; d++) {
    const items: unknown[] = [];
    for (let i = 0; i < ITEMS; i++) items.push(c.item(rand));
    out.push(JSON.stringify({ items }));
  }
  return out;
}

// ---- the job (child process) ----------------------------------------------------------

interface JobSpec {
  engine: Engine;
  case: string;
  warmupMs: number;
  batchMs: number;
  batches: number;
}

type Renderer = (data: unknown) => string;

async function renderer(engine: Engine, c: Case): Promise<{ prepare: (json: string) => unknown; render: Renderer }> {
  if (engine === 'quire') {
    const { getDefaultEngine, parseJson } = await import('../engine/index.ts');
    const template = getDefaultEngine().compile(c.template);
    return { prepare: parseJson, render: (data) => template.render(data as never, { locale: c.locale }).html };
  }
  const { cldr, compiler } = await loadReferencePort(c.locale);
  const code = compiler.parse(c.template).code;
  return { prepare: (json) => JSON.parse(json), render: (data) => compiler.execute({ code, json: data, cldr: cldr as never }).ctx.render() };
}

async function runJob(spec: JobSpec): Promise<number[]> {
  const c = CASES[spec.case];
  const { prepare, render } = await renderer(spec.engine, c);
  const inputs = dataSets(spec.case).map(prepare);
  let next = 0;
  let sink = 0;
  const once = (): void => {
    sink += render(inputs[next]).length;
    next = (next + 1) % inputs.length;
  };
  let n = 0;
  const start = cpuMs();
  while (cpuMs() - start < spec.warmupMs) {
    once();
    n++;
  }
  const perOp = (cpuMs() - start) / n;
  const size = Math.max(1, Math.round(spec.batchMs / perOp));
  const rates: number[] = [];
  for (let b = 0; b < spec.batches; b++) {
    const t0 = cpuMs();
    for (let i = 0; i < size; i++) once();
    rates.push((size * ITEMS * 1000) / Math.max(cpuMs() - t0, 0.001));
  }
  if (sink === 0) throw new Error('nothing rendered');
  return rates;
}

// ---- the parent ---------------------------------------------------------------------

const SELF = fileURLToPath(import.meta.url);
const BUNDLE = fileURLToPath(new URL('./results/formatters-micro.mjs', import.meta.url));

async function build(): Promise<string> {
  const { build: esbuild } = await import('esbuild');
  await esbuild({
    entryPoints: [SELF],
    outfile: BUNDLE,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'error',
  });
  return BUNDLE;
}

function forkJob(bundle: string, spec: JobSpec): Promise<number[]> {
  return new Promise((resolve, reject) => {
    // Plain node: not the tsx loader this script was started with.
    const child = fork(bundle, ['--job', JSON.stringify(spec)], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let done = false;
    child.on('message', (m: { rates?: number[]; error?: string }) => {
      done = true;
      if (m.rates) resolve(m.rates);
      else reject(new Error(`${spec.engine}/${spec.case}: ${m.error}`));
    });
    child.on('exit', (code) => {
      if (!done) reject(new Error(`${spec.engine}/${spec.case}: exited with ${code}`));
    });
  });
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Checks that both engines print the same text for the first data set of each case. */
async function checkOutputs(cases: readonly string[]): Promise<string[]> {
  const problems: string[] = [];
  for (const name of cases) {
    const json = dataSets(name)[0];
    const q = await renderer('quire', CASES[name]);
    const r = await renderer('reference', CASES[name]);
    const a = q.render(q.prepare(json));
    const b = r.render(r.prepare(json));
    if (a !== b) problems.push(`${name}: outputs differ\n  quire:     ${a.slice(0, 300)}\n  reference: ${b.slice(0, 300)}`);
  }
  return problems;
}

async function main(argv: string[]): Promise<void> {
  const arg = (name: string): string | undefined => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const quick = argv.includes('--quick');
  const rounds = Number(arg('--rounds') ?? (quick ? 1 : 3));
  const cases = (arg('--cases') ?? Object.keys(CASES).join(',')).split(',').filter((c) => c in CASES);
  const spec = { warmupMs: quick ? 300 : 1000, batchMs: quick ? 100 : 400, batches: 5 };

  for (const p of await checkOutputs(cases)) console.log(p);
  const bundle = await build();
  const rand = mulberry32(1);
  const rates: Record<string, Record<Engine, number[]>> = {};
  for (const c of cases) rates[c] = { quire: [], reference: [] };
  for (let r = 0; r < rounds; r++) {
    const jobs: JobSpec[] = [];
    for (const c of cases) for (const engine of ['quire', 'reference'] as const) jobs.push({ engine, case: c, ...spec });
    for (let i = jobs.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [jobs[i], jobs[j]] = [jobs[j], jobs[i]];
    }
    for (const job of jobs) rates[job.case][job.engine].push(median(await forkJob(bundle, job)));
    console.error(`round ${r + 1}/${rounds} done`);
  }

  const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');
  console.log(`\nformatter calls per CPU second (median of rounds; ${rounds} rounds, ${ITEMS} calls per render, ${DATA_SETS} data sets)\n`);
  console.log('| case | template | quire calls/s | reference calls/s | quire / reference |');
  console.log('|---|---|---:|---:|---:|');
  const ratios: number[] = [];
  for (const c of cases) {
    const q = rates[c].quire;
    const ref = rates[c].reference;
    const perRound = q.map((v, i) => v / ref[i]);
    const ratio = median(perRound);
    ratios.push(ratio);
    const spread = (Math.max(...perRound) - Math.min(...perRound)) / 2;
    // The formatter tag, its `|` escaped for the Markdown table.
    const tag = CASES[c].template.replace(/^\{\.repeated section items\}/, '').replace(/ \{\.end\}$/, '').replace(/\|/g, '\\|');
    console.log(`| ${c} (${CASES[c].locale}) | \`${tag}\` | ${fmt(median(q))} | ${fmt(median(ref))} | ${ratio.toFixed(2)}x ±${spread.toFixed(2)} |`);
  }
  console.log(`\nmedian over cases: ${median(ratios).toFixed(2)}x, worst: ${Math.min(...ratios).toFixed(2)}x`);
}

const jobAt = process.argv.indexOf('--job');
if (jobAt >= 0) {
  runJob(JSON.parse(process.argv[jobAt + 1]) as JobSpec).then(
    (rates) => process.send!({ rates }, () => process.exit(0)),
    (e: Error) => process.send!({ error: String(e.stack ?? e) }, () => process.exit(1)),
  );
} else {
  main(process.argv.slice(2)).catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
