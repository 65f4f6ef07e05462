// One fresh-data job in its own process (forked by fresh.ts): one engine, one workload, one
// kind of measurement. Compile is timed first; renders then go over a rotation of data sets
// generated from seeds before their clock starts. Each render is followed by what a server
// does next with the page, turning it into bytes, and both are timed together: an engine
// whose result is expensive to flatten or encode pays for it here, as it would when the page
// is sent. The bytes are made by the server's own code (renderer/pages/document-bytes.ts:
// one UTF-8 pass into a reused slab, `Buffer.from` for a page larger than the slab);
// `--buffer-from` times `Buffer.from` instead (a length pass, an allocation, then the same
// encoding pass).
import { withUnprintedMembers } from './fresh-data.ts';
import { FRESH_NOW, type FreshWorkload, freshWorkload, jacksonDoubles } from './fresh-workloads.ts';
import { serveJob } from './job-process.ts';
import { type MeasureSchedule, allocationPerRender, measure } from './measure.ts';
import { loadReferencePort } from './reference-port.ts';
import { documentBytes, releaseDocument } from '../renderer/pages/document-bytes.ts';

export type FreshEngine = 'quire' | 'reference';
export type FreshCost = 'bytes' | 'buffer-from' | 'render';

/** A page with no shell around it: `documentBytes` then encodes just the engine's output. */
const BARE_FRAME = { head: '', open: '', close: '', end: '', captchaLocal: false, pillCartHasCaptcha: false };
const NO_STYLE = Buffer.alloc(0);

/**
 * What sending a page costs after the render, by cost model; returns its byte length. The
 * server encodes Quire's output as its parts (`RenderResult.parts`, document-writer.ts), the
 * other costs take the page as one string.
 */
export function pageBytes(page: string | readonly string[], cost: FreshCost): number {
  if (cost === 'bytes') {
    // Sent at once: the server releases a page when its response has finished.
    const bytes = documentBytes(BARE_FRAME, NO_STYLE, page);
    releaseDocument(bytes);
    return bytes.length;
  }
  const html = typeof page === 'string' ? page : page.join('');
  if (cost === 'buffer-from') return Buffer.from(html, 'utf8').length;
  return html.length;
}

export interface FreshJobSpec extends MeasureSchedule {
  engine: FreshEngine;
  workload: string;
  kind: 'speed' | 'alloc';
  /** `fresh`: the rotation; `repeated`: data set 0 on every render (the memo-friendly figure). */
  data: 'fresh' | 'repeated';
  /** Seed offset of this job's rotation (a new one each round). */
  seed: number;
  /** `bytes`: render + the server's encoding (the default); `buffer-from`: render + Buffer.from; `render`: the render alone. */
  cost: FreshCost;
  /** Unprinted members given to every object of 6+ members (`withUnprintedMembers`; `--members`). */
  members?: number;
  /** Quire's data read with `JSON.parse` instead of `parseJson` (`--json-parse`): no kept texts. */
  jsonParse?: boolean;
}

export interface FreshJobResult {
  engine: FreshEngine;
  workload: string;
  kind: FreshJobSpec['kind'];
  compilePerSec: number[];
  renderPerSec: number[];
  outputBytes: number;
  allocBytesPerRender?: number;
  pool: number;
}

interface Engine {
  compile(): unknown;
  render(compiled: unknown, data: unknown): string;
  /** The page as the server encodes it: Quire's output parts, the port's string. */
  page(compiled: unknown, data: unknown): string | readonly string[];
  prepare(json: string): unknown;
}

async function quire(w: FreshWorkload): Promise<Engine> {
  const { getDefaultEngine, parseJson } = await import('../engine/index.ts');
  const engine = getDefaultEngine();
  const partials = w.partials;
  const names = Object.keys(partials);
  return {
    // Engine.compile, not the cached facade: every call does the full work; partials too
    // (a render would otherwise compile them once, on first use).
    compile: () => {
      for (const n of names) engine.compile(partials[n]);
      return engine.compile(w.template);
    },
    render: (t, data) => (t as ReturnType<typeof engine.compile>).render(data, { now: FRESH_NOW, partials }).html,
    page: (t, data) => (t as ReturnType<typeof engine.compile>).render(data, { now: FRESH_NOW, partials }).parts,
    prepare: (json) => parseJson(json),
  };
}

async function reference(w: FreshWorkload): Promise<Engine> {
  const { cldr, compiler } = await loadReferencePort();
  const names = Object.keys(w.partials);
  type Code = ReturnType<typeof compiler.parse>['code'];
  const render = (c: unknown, data: unknown): string => {
    const { code, partials } = c as { code: Code; partials: Record<string, Code> };
    return compiler.execute({ code, json: data, cldr: cldr as never, now: FRESH_NOW, partials } as never).ctx.render();
  };
  return {
    compile: () => {
      const partials: Record<string, Code> = {};
      for (const n of names) partials[n] = compiler.parse(w.partials[n]).code;
      return { code: compiler.parse(w.template).code, partials };
    },
    render,
    page: render,
    prepare: (json) => JSON.parse(json),
  };
}

export async function loadFreshEngine(engine: FreshEngine, w: FreshWorkload): Promise<Engine> {
  return engine === 'quire' ? quire(w) : reference(w);
}

/**
 * The JSON text of the rotation's data sets; each engine parses it the way it reads data.
 * `members`: that many unprinted members more on every object of 6+ members.
 */
export function rotation(w: FreshWorkload, seed: number, mode: 'fresh' | 'repeated', members = 0): string[] {
  const n = mode === 'fresh' ? w.pool : 1;
  const texts: string[] = [];
  for (let i = 0; i < n; i++) {
    const serial = seed * 100_000 + i + 1;
    const data = w.data(serial);
    const json = JSON.stringify(members > 0 ? withUnprintedMembers(data, members, serial) : data);
    texts.push(w.text === 'jackson' ? jacksonDoubles(json) : json);
  }
  return texts;
}

let sink = 0;

export async function runFreshJob(spec: FreshJobSpec): Promise<FreshJobResult> {
  const w = freshWorkload(spec.workload);
  const engine = await loadFreshEngine(spec.engine, w);
  // Compile is timed first, before the rotation's data exists. Data sets built just before
  // are marked by V8's concurrent GC threads in the seconds after, and that CPU time (on the
  // process's clock) fell into whichever compile batches it met: Quire's blog-post compile
  // read 6,755–12,631/s over six rounds, 9,333–12,831/s timed first (bench/README.md,
  // "Compile timed before the data").
  const compilePerSec = spec.kind === 'speed' ? measure(() => void (sink += engine.compile() ? 1 : 0), spec.compileWarmupMs, spec.compileMs, spec.batches) : [];
  const prepare = spec.jsonParse === true ? (t: string): unknown => JSON.parse(t) : engine.prepare;
  const datas = rotation(w, spec.seed, spec.data, spec.members ?? 0).map((t) => prepare(t));
  const compiled = engine.compile();
  let next = 0;
  const cost = spec.cost;
  const render = (): void => {
    const html = cost === 'bytes' ? engine.page(compiled, datas[next]) : engine.render(compiled, datas[next]);
    next = next + 1 === datas.length ? 0 : next + 1;
    sink += pageBytes(html, cost);
  };
  const result: FreshJobResult = {
    engine: spec.engine,
    workload: spec.workload,
    kind: spec.kind,
    compilePerSec,
    renderPerSec: [],
    outputBytes: Buffer.byteLength(engine.render(compiled, datas[0])),
    pool: datas.length,
  };
  if (spec.kind === 'alloc') result.allocBytesPerRender = await allocationPerRender(render, 40);
  else {
    result.renderPerSec = measure(render, spec.warmupMs, spec.renderMs, spec.batches);
  }
  if (sink === -1) console.log(sink);
  return result;
}

serveJob(runFreshJob);
