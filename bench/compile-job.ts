// One compile job in its own process (forked by compile.ts): one engine, every template shape
// of the run (read from the JSON file the parent wrote). After a warm-up over all shapes
// (compile is measured at steady state, as a server that compiles per deploy or per edit sees
// it), each shape is timed in short CPU-clock batches: compile alone (template and its
// partials), and, for shapes that carry data, compile + the first render of the new code
// (Quire builds a block's closures on its first run, so compile alone flatters it).
import { readFileSync } from 'node:fs';
import { serveJob } from './job-process.ts';
import { cpuMs } from './measure.ts';
import { loadReferencePort } from './reference-port.ts';

export type CompileEngine = 'quire' | 'reference';

export interface CompileShape {
  name: string;
  group: string;
  template: string;
  partials: Record<string, string>;
  /** JSON text of the data for the first render; absent when the shape has none. */
  json?: string;
  now: number;
}

export interface CompileJobSpec {
  engine: CompileEngine;
  shapesFile: string;
  warmupMs: number;
  /** CPU ms per timed batch, and batches per shape and metric. */
  batchMs: number;
  batches: number;
}

export interface CompileJobResult {
  engine: CompileEngine;
  /** Per shape name: median compiles/s and compile + first render/s (null without data). */
  rates: Record<string, { compile: number; first: number | null }>;
  /** Shapes this engine could not compile or render (left out of the ratios). */
  failed: string[];
}

interface Compiler {
  compile(s: CompileShape): unknown;
  render(compiled: unknown, s: CompileShape, data: unknown): string;
}

async function quire(): Promise<Compiler> {
  const { getDefaultEngine } = await import('../engine/index.ts');
  const engine = getDefaultEngine();
  return {
    // Engine.compile, not the cached facade: every call does the full work.
    compile: (s) => {
      for (const n in s.partials) engine.compile(s.partials[n]);
      return engine.compile(s.template);
    },
    render: (t, s, data) => (t as ReturnType<typeof engine.compile>).render(data, { now: s.now, partials: s.partials }).html,
  };
}

async function reference(): Promise<Compiler> {
  const { cldr, compiler } = await loadReferencePort();
  return {
    compile: (s) => {
      const partials: Record<string, unknown> = {};
      for (const n in s.partials) partials[n] = compiler.parse(s.partials[n]).code;
      return { code: compiler.parse(s.template).code, partials };
    },
    render: (c, s, data) => {
      const { code, partials } = c as { code: unknown; partials: Record<string, unknown> };
      return compiler.execute({ code, json: data, cldr: cldr as never, now: s.now, partials } as never).ctx.render();
    },
  };
}

/** Median rate (ops/s) of `batches` batches of about `batchMs` CPU ms each. */
function rate(fn: () => void, batchMs: number, batches: number): number {
  const rates: number[] = [];
  for (let b = 0; b < batches; b++) {
    let n = 0;
    const t0 = cpuMs();
    let dt = 0;
    do {
      fn();
      n++;
      dt = cpuMs() - t0;
    } while (dt < batchMs);
    rates.push((n * 1000) / dt);
  }
  rates.sort((a, b) => a - b);
  return rates[rates.length >> 1];
}

export async function runCompileJob(spec: CompileJobSpec): Promise<CompileJobResult> {
  const shapes = JSON.parse(readFileSync(spec.shapesFile, 'utf8')) as CompileShape[];
  const engine = spec.engine === 'quire' ? await quire() : await reference();
  const failed: string[] = [];
  const ok: { s: CompileShape; data: unknown }[] = [];
  for (const s of shapes) {
    try {
      const data = s.json === undefined ? undefined : JSON.parse(s.json);
      const c = engine.compile(s);
      if (s.json !== undefined) engine.render(c, s, data);
      ok.push({ s, data });
    } catch {
      failed.push(s.name);
    }
  }
  let sink = 0;
  const first = (x: { s: CompileShape; data: unknown }) => {
    sink += engine.render(engine.compile(x.s), x.s, x.data).length;
  };
  const t0 = cpuMs();
  while (cpuMs() - t0 < spec.warmupMs) for (const x of ok) x.s.json === undefined ? engine.compile(x.s) : first(x);
  const rates: CompileJobResult['rates'] = {};
  for (const x of ok) {
    const compile = rate(() => void (sink += engine.compile(x.s) ? 1 : 0), spec.batchMs, spec.batches);
    const firstRate = x.s.json === undefined ? null : rate(() => first(x), spec.batchMs, spec.batches);
    rates[x.s.name] = { compile, first: firstRate };
  }
  if (sink < 0) console.log(sink);
  return { engine: spec.engine, rates, failed };
}

serveJob(runCompileJob);
