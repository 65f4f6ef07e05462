// One cold render in a fresh process (forked by cold-start.ts): load one engine, compile the
// templates one demo page renders and render them once, timing each step. This is what the
// first visitor of a page pays after a start, before any JIT warm-up.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { serveJob } from './job-process.ts';
import { loadReferencePort } from './reference-port.ts';

export interface ColdRender {
  source: string;
  /** JSON text of the data the page rendered with. */
  json: string;
  partials: Record<string, string>;
  now: number | undefined;
}

export interface ColdTiming {
  /** Wall ms to import the engine and load its locale data (the port: its CLDR bundle; Quire: what the server preloads, renderer/start-warmup.ts). */
  loadMs: number;
  /** Wall ms to compile every template of the page once. */
  compileMs: number;
  /** Wall ms of the first render of each, summed. */
  firstRenderMs: number;
  /** Wall ms of a second render of each, in a later turn of the event loop, for scale. */
  secondRenderMs: number;
  bytes: number;
}

async function run(engine: 'quire' | 'reference', renders: ColdRender[]): Promise<ColdTiming> {
  const t0 = performance.now();
  let compile: (r: ColdRender) => unknown;
  let render: (c: unknown, r: ColdRender, data: unknown) => string;
  let prepare: (json: string) => unknown;
  if (engine === 'quire') {
    const { getDefaultEngine, parseJson } = await import('../engine/index.ts');
    // What the server does before its first request (as the port loads its CLDR bundle).
    const { preloadLocaleData } = await import('../renderer/start-warmup.ts');
    preloadLocaleData('en-US', /"timeZone":"([^"]+)"/.exec(renders[0]?.json ?? '')?.[1]);
    const e = getDefaultEngine();
    compile = (r) => e.compile(r.source);
    render = (c, r, data) => (c as ReturnType<typeof e.compile>).render(data, { now: r.now, partials: r.partials }).html;
    prepare = parseJson;
  } else {
    const { cldr, compiler } = await loadReferencePort();
    compile = (r) => compiler.parse(r.source).code;
    render = (c, r, data) => compiler.execute({ code: c as never, json: data, partials: r.partials, cldr: cldr as never, now: r.now } as never).ctx.render();
    prepare = JSON.parse;
  }
  const datas = renders.map((r) => prepare(r.json));
  const t1 = performance.now();
  const compiled = renders.map(compile);
  const t2 = performance.now();
  let bytes = 0;
  for (let i = 0; i < renders.length; i++) bytes += Buffer.byteLength(render(compiled[i], renders[i], datas[i]));
  const t3 = performance.now();
  // The second request comes in a later turn of the event loop, as it does to a server:
  // work a page leaves for when the host is idle (datetime plans) is done by then.
  await new Promise<void>((resolve) => setImmediate(resolve));
  const t4 = performance.now();
  for (let i = 0; i < renders.length; i++) bytes += Buffer.byteLength(render(compiled[i], renders[i], datas[i])) * 0;
  const t5 = performance.now();
  return { loadMs: t1 - t0, compileMs: t2 - t1, firstRenderMs: t3 - t2, secondRenderMs: t5 - t4, bytes };
}

serveJob(({ engine, file }: { engine: 'quire' | 'reference'; file: string }) => run(engine, JSON.parse(readFileSync(file, 'utf8')) as ColdRender[]));
