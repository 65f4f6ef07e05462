// `npm run bench:cold`: how long a fresh server takes to answer its first page, and what the
// first render of each demo page costs in a fresh process, Quire against the published port.
//
//  1. start: `node bin/start.mjs` (what `npm start` runs) with a new temporary DATA_DIR (a
//     fresh embedded store, seeded on start) and a free PORT; the clock runs from the spawn
//     to the first 200 answer to GET / (polled every 20 ms). First `node bin/start.mjs
//     --prepare` runs once, as `npm ci`'s postinstall does on a machine. `--starts` starts,
//     one after the other; each server is stopped (by its pid) once it answered. The server
//     runs with QUIRE_START_TRACE=1 and reports where its time went (renderer/start-trace.ts):
//     wall and CPU time per start-up phase. `--root DIR` times another checkout's start
//     instead (e.g. `git archive` of an older commit with node_modules linked: before/after).
//  2. first render: each demo page is requested once from Quire's app built in memory, and
//     every top-level template render it makes is recorded (source, data, partials). Then,
//     per page and engine, a fresh Node process (cold-render-job.ts, built with esbuild) loads
//     the engine, compiles the page's templates and renders them once, timing each step.
//     Engines alternate, rounds interleave.
// Writes bench/COLD-START-RESULTS.md. Wall-clock times: the machine is shared, read the spread.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { ArgReader } from './args.ts';
import { runIfMain, withSection } from './cli.ts';
import type { ColdRender, ColdTiming } from './cold-render-job.ts';
import { freePort } from './free-port.ts';
import { bundleJob, forkJob } from './job-process.ts';
import { recordRenders } from './record-renders.ts';
import { median } from './report.ts';
import { describeMachine } from './run.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const OUT = fileURLToPath(new URL('./COLD-START-RESULTS.md', import.meta.url));
const SITE = join(ROOT, 'fixtures/sites/demo');
const PAGES = ['/', '/shop', '/shop/tee', '/journal', '/journal/coffee-club-turns-one', '/events', '/events/winter-market', '/gallery', '/about', '/contact', '/cart', '/search?q=mug', '/no-such-page'];

/** One start-up phase as the server traced it: ms since its process started, its CPU ms then. */
interface PhaseMark {
  name: string;
  ms: number;
  cpuMs: number;
}

/** What each traced phase covers (the time from the previous mark to its own). */
const PHASES: Record<string, string> = {
  boot: 'Node starts and loads bin/start.mjs (from the process start)',
  bundle: 'the server bundle checked against its inputs (rebuilt only when one changed)',
  import: "the server bundle's modules loaded and run",
  'site-check': "options, the port probe, the site folder's data files checked against their schemas",
  'site-load': 'the site folder read (templates, catalogue)',
  'store-open': 'embedded store: the cluster snapshot copied into the new DATA_DIR, PGlite started',
  migrate: 'migrations checked and applied (one transaction)',
  sync: "the site's catalog.json synced into the store",
  app: 'the Fastify app built (routes, schemas, page renderer)',
  locale: "the pages' locale data loaded (renderer/start-warmup.ts)",
  listen: 'listening',
  'first-response': 'until the first response was sent (includes waiting for the poll)',
};

interface StartTiming {
  /** Spawn → first 200 answer to GET /. */
  firstPageMs: number;
  /** Spawn → first answer of any status (the port is open and the app answers). */
  firstAnswerMs: number;
  /**
   * CPU the server process used up to its first page (user + system, its threads and its
   * waited-for children, from /proc): on a shared machine the wall time above mostly counts
   * waiting for a core, this counts the work. NaN where /proc is missing.
   */
  cpuMs: number;
  /** The server's own trace (none for a checkout without renderer/start-trace.ts). */
  phases: PhaseMark[];
  /** 1-minute load average when the start began: how shared the machine was. */
  load: number;
}

function processCpuMs(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]); // utime stime cutime cstime
    return (ticks * 1000) / 100; // USER_HZ is 100 on Linux
  } catch {
    return Number.NaN;
  }
}

function parsePhases(stderr: string): PhaseMark[] {
  const marks: PhaseMark[] = [];
  for (const match of stderr.matchAll(/^quire-start-phase (\S+) ([\d.]+) ([\d.]+)$/gm)) {
    marks.push({ name: match[1]!, ms: Number(match[2]), cpuMs: Number(match[3]) });
  }
  return marks;
}

/** `node bin/start.mjs --prepare` (package.json postinstall): what `npm ci` leaves on a machine. */
function prepare(root: string): Promise<number> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, 'bin/start.mjs'), '--prepare'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(performance.now() - t0) : reject(new Error(`--prepare exited with ${code}`))));
  });
}

async function timeStart(root: string, timeoutMs: number): Promise<StartTiming> {
  const dataDir = mkdtempSync(join(tmpdir(), 'quire-cold-'));
  const port = await freePort();
  const load = loadavg()[0]!;
  const t0 = performance.now();
  const child = spawn(process.execPath, [join(root, 'bin/start.mjs')], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', QUIRE_START_TRACE: '1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  let exited = false;
  child.on('exit', () => (exited = true));
  let firstAnswerMs = Number.NaN;
  try {
    for (;;) {
      if (exited) throw new Error(`server exited before answering: ${stderr.slice(-500)}`);
      if (performance.now() - t0 > timeoutMs) throw new Error(`no page within ${timeoutMs} ms`);
      try {
        const res = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(5000) });
        await res.arrayBuffer();
        if (Number.isNaN(firstAnswerMs)) firstAnswerMs = performance.now() - t0;
        if (res.status === 200) {
          const firstPageMs = performance.now() - t0;
          const cpuMs = processCpuMs(child.pid);
          // The first-response mark is written as the answer goes out: give it a moment.
          if (!/first-response/.test(stderr)) await new Promise((r) => setTimeout(r, 100));
          return { firstPageMs, firstAnswerMs, cpuMs, phases: parsePhases(stderr), load };
        }
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    if (!exited) {
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([gone, new Promise((r) => setTimeout(r, 5000))]);
      if (!exited) child.kill('SIGKILL');
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Engine values → JSON text the port reads (integral doubles become numbers). */
function jsonText(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? Number(x) : x !== null && typeof x === 'object' && x.constructor?.name === 'JDouble' ? (x as { value: number }).value : x));
}

async function recordPages(): Promise<Map<string, ColdRender[]>> {
  const recorded = await recordRenders(SITE, PAGES, (source, data, options): ColdRender => ({ source, json: jsonText(data), partials: { ...(options.partials ?? {}) }, now: options.now }));
  const pages = new Map<string, ColdRender[]>();
  for (const p of recorded) if (p.renders.length) pages.set(`${p.url} (${p.status})`, p.renders);
  return pages;
}

const JOB_SOURCE = fileURLToPath(new URL('./cold-render-job.ts', import.meta.url));
const JOB_BUNDLE = fileURLToPath(new URL('./results/cold-render-job.mjs', import.meta.url));

function coldJob(engine: 'quire' | 'reference', file: string): Promise<ColdTiming> {
  return forkJob<ColdTiming>(JOB_BUNDLE, { engine, file }, `cold job ${engine}`);
}

const ms = (values: number[]): string => {
  const v = values.filter(Number.isFinite);
  if (!v.length) return '–';
  return `**${median(v).toFixed(1)}** (${Math.min(...v).toFixed(1)}–${Math.max(...v).toFixed(1)})`;
};

/** The start table and, when the server traced itself, where the time went. */
function startSection(startTimes: StartTiming[], prepareMs: number, root: string | null): string[] {
  const lines = [
    ...(root ? [`Timed checkout: \`${root}\`.`, ''] : []),
    `Load average (1 min) at the starts: ${startTimes.map((t) => t.load.toFixed(1)).join(', ')} on ${cpus().length} cores.` + (Number.isFinite(prepareMs) ? ` The postinstall step took ${prepareMs.toFixed(0)} ms.` : ''),
    '',
    '| measure | ms |',
    '|---|---:|',
    `| first answer (any status) | ${ms(startTimes.map((t) => t.firstAnswerMs))} |`,
    `| first page (200) | ${ms(startTimes.map((t) => t.firstPageMs))} |`,
    `| server CPU to the first page (user + system, with its children) | ${ms(startTimes.map((t) => t.cpuMs))} |`,
  ];
  const traced = startTimes.filter((t) => t.phases.length > 0);
  if (traced.length === 0) return lines;
  lines.push('', '### Where a start goes (the server\'s trace, `QUIRE_START_TRACE=1`)', '', 'Each phase runs from the previous mark to its own; wall and CPU ms of the server process (esbuild\'s own process, when a rebuild runs, is not in the CPU).', '', '| phase | what | wall ms | CPU ms |', '|---|---|---:|---:|');
  const names = [...new Set(traced.flatMap((t) => t.phases.map((p) => p.name)))];
  for (const name of names) {
    const wall: number[] = [];
    const cpu: number[] = [];
    for (const t of traced) {
      const i = t.phases.findIndex((p) => p.name === name);
      if (i < 0) continue;
      const previous = i > 0 ? t.phases[i - 1]! : { ms: 0, cpuMs: 0 };
      wall.push(t.phases[i]!.ms - previous.ms);
      cpu.push(t.phases[i]!.cpuMs - previous.cpuMs);
    }
    lines.push(`| ${name} | ${PHASES[name] ?? ''} | ${ms(wall)} | ${ms(cpu)} |`);
  }
  const end = (t: StartTiming) => t.phases[t.phases.length - 1]!;
  lines.push(`| **total** | process start to the first response | ${ms(traced.map((t) => end(t).ms))} | ${ms(traced.map((t) => end(t).cpuMs))} |`);
  return lines;
}

async function main(): Promise<void> {
  let rounds = 5;
  let starts = 5;
  let out: string | null = OUT;
  let root = ROOT;
  const args = new ArgReader(process.argv.slice(2));
  for (let a = args.next(); a !== undefined; a = args.next()) {
    if (a === '--rounds') rounds = Math.floor(args.number(0));
    else if (a === '--starts') starts = Math.max(0, Math.floor(args.number(0)));
    else if (a === '--no-write') out = null;
    else if (a === '--root') root = resolve(args.value());
    else throw new Error(`unknown option ${a}`);
  }
  const log = (l: string) => process.stderr.write(l + '\n');
  const startTimes: StartTiming[] = [];
  let prepareMs = Number.NaN;
  if (starts > 0 && existsSync(join(root, 'renderer/start-trace.ts'))) {
    prepareMs = await prepare(root);
    log(`prepare (npm ci's postinstall): ${prepareMs.toFixed(0)} ms`);
  }
  for (let i = 0; i < starts; i++) {
    const t = await timeStart(root, 300_000);
    startTimes.push(t);
    log(`start ${i + 1}/${starts}: first answer ${t.firstAnswerMs.toFixed(0)} ms, first page ${t.firstPageMs.toFixed(0)} ms, server CPU ${t.cpuMs.toFixed(0)} ms, load ${t.load.toFixed(1)}`);
  }
  await bundleJob(JOB_SOURCE, JOB_BUNDLE);
  const pages = rounds > 0 ? await recordPages() : new Map<string, ColdRender[]>();
  const dir = mkdtempSync(join(tmpdir(), 'quire-cold-renders-'));
  const files = new Map<string, string>();
  for (const [page, renders] of pages) {
    const file = join(dir, files.size + '.json');
    writeFileSync(file, JSON.stringify(renders));
    files.set(page, file);
  }
  const timings = new Map<string, { quire: ColdTiming[]; reference: ColdTiming[] }>();
  for (let r = 0; r < rounds; r++) {
    for (const [page, file] of files) {
      const order = (r + files.size) % 2 ? (['quire', 'reference'] as const) : (['reference', 'quire'] as const);
      const t = timings.get(page) ?? { quire: [], reference: [] };
      for (const engine of order) t[engine].push(await coldJob(engine, file));
      timings.set(page, t);
    }
    log(`first renders: round ${r + 1}/${rounds} done`);
  }
  rmSync(dir, { recursive: true, force: true });
  const lines = [
    '# Cold start',
    '',
    `- date: ${new Date().toISOString()}; machine: ${describeMachine()}; Node ${process.version}`,
    `- ${starts} server starts, ${rounds} rounds of first renders (engines alternating). Wall-clock milliseconds, **median** (min–max); the machine was shared with other work.`,
    '',
    '## `npm start` to the first page',
    '',
    'Spawn of `node bin/start.mjs` on a new temporary `DATA_DIR` (embedded PGlite store, seeded from the site folder on start) to the first answer to `GET /`, after `node bin/start.mjs --prepare` ran once as `npm ci`\'s postinstall does. Target: < 3,000 ms.',
    '',
    ...startSection(startTimes, prepareMs, root === ROOT ? null : root),
    '',
    '## First render of each demo page in a fresh process',
    '',
    'Every top-level template render the page makes (page template, layout, partials as the renderer passes them), in a process that has rendered nothing: load = importing the engine (the port: and its CLDR bundle), compile = all the page\'s templates, first = the first render of each (summed), second = a second render in a later turn of the event loop (as the next request to a server), for scale.',
    '',
    'Speed ratios are port time / Quire time (above 1: Quire is faster). Both load their locale data in "load": the port its CLDR bundle, Quire the en-US pack the server preloads before its first request (renderer/start-warmup.ts).',
    '',
    '| page | renders | port load | Quire load | port compile | Quire compile | port first render | Quire first render | first render port/Quire | port total | Quire total | total port/Quire | port second | Quire second |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const total = (x: ColdTiming) => x.loadMs + x.compileMs + x.firstRenderMs;
  const slower: string[] = [];
  for (const [page, t] of timings) {
    const ratio = median(t.reference.map((x) => x.firstRenderMs)) / median(t.quire.map((x) => x.firstRenderMs));
    if (ratio < 1) slower.push(`${page} ${ratio.toFixed(2)}x`);
    const totalRatio = median(t.reference.map(total)) / median(t.quire.map(total));
    lines.push(`| ${page} | ${pages.get(page)?.length ?? 0} | ${ms(t.reference.map((x) => x.loadMs))} | ${ms(t.quire.map((x) => x.loadMs))} | ${ms(t.reference.map((x) => x.compileMs))} | ${ms(t.quire.map((x) => x.compileMs))} | ${ms(t.reference.map((x) => x.firstRenderMs))} | ${ms(t.quire.map((x) => x.firstRenderMs))} | ${ratio.toFixed(2)}x | ${ms(t.reference.map(total))} | ${ms(t.quire.map(total))} | ${totalRatio.toFixed(2)}x | ${ms(t.reference.map((x) => x.secondRenderMs))} | ${ms(t.quire.map((x) => x.secondRenderMs))} |`);
  }
  const firstRenders = timings.size
    ? `First render of each demo page in a fresh process (engine load with locale data, compile, first render; ${rounds} rounds): Quire's median first render is ${slower.length ? `slower than the port's on ${slower.join(', ')}` : "no slower than the port's on any"} of ${timings.size} pages.`
    : '';
  if (firstRenders) lines.push('', firstRenders);
  lines.push('');
  const markdown = lines.join('\n');
  if (out) {
    writeFileSync(out, markdown);
    if (starts > 0) writeResultsSection([`- ${new Date().toISOString()}, ${starts} starts; the whole report: [COLD-START-RESULTS.md](COLD-START-RESULTS.md).`, '', ...startSection(startTimes, prepareMs, root === ROOT ? null : root), ...(firstRenders ? ['', firstRenders] : [])]);
  }
  process.stdout.write(markdown);
}

const RESULTS = fileURLToPath(new URL('./RESULTS.md', import.meta.url));
const BEGIN = '<!-- bench:cold begin -->';
const END = '<!-- bench:cold end -->';

/** The start summary as RESULTS.md's "Cold start" section, between markers (replaced on the next run, appended when missing). */
function writeResultsSection(body: string[]): void {
  const section = [BEGIN, '## Cold start (`npm run bench:cold`)', '', ...body, END].join('\n');
  const text = existsSync(RESULTS) ? readFileSync(RESULTS, 'utf8') : '';
  writeFileSync(RESULTS, withSection(text, 'bench:cold', section));
}

runIfMain(import.meta.url, 'bench:cold', main);
