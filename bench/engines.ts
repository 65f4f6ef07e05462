// One adapter per engine under test, all with the same shape so that the job runner treats
// them alike. Data is prepared once per job (outside the timed loops) in the form each
// engine expects: Quire gets parseJson output (number kinds kept), the others JSON.parse.
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as ReferenceModule from '@squarespace/template-engine';
import type HandlebarsModule from 'handlebars';
import type { Liquid } from 'liquidjs';
import type { Template } from '../engine/index.ts';
import * as peer from './peer-helpers.ts';
import { loadReferencePort } from './reference-port.ts';

export const WORKLOADS = ['product-page', 'collection-grid', 'blog-post'] as const;
export type WorkloadName = (typeof WORKLOADS)[number];

export const ENGINES = ['quire', 'reference', 'handlebars', 'liquid', 'concat'] as const;
export type EngineName = (typeof ENGINES)[number];

/** Fixed "now" so that date-relative output is identical across runs and engines. */
export const BENCH_NOW = 1_760_000_000_000;

export interface Workload {
  name: WorkloadName;
  /** Template text per template language. */
  jsont: string;
  hbs: string;
  liquid: string;
  json: string;
}

// bench/, found from this module whether it runs from source or bundled into bench/results/
// (the profiling bundle, see profile.ts).
const BENCH_DIR = fileURLToPath(new URL(existsSync(fileURLToPath(new URL('./workloads/', import.meta.url))) ? './' : '../', import.meta.url));
const WORKLOAD_DIR = join(BENCH_DIR, 'workloads/');
const FIXTURE_DIR = join(BENCH_DIR, '../fixtures/bench/');

export function loadWorkload(name: WorkloadName): Workload {
  const read = (ext: string): string => readFileSync(WORKLOAD_DIR + name + '.' + ext, 'utf8');
  return { name, jsont: read('jsont'), hbs: read('hbs'), liquid: read('liquid'), json: readFileSync(FIXTURE_DIR + name + '.json', 'utf8') };
}

export interface Adapter<T = unknown> {
  name: EngineName;
  /** False for the concat baseline, which has nothing to compile. */
  compiles: boolean;
  prepare(w: Workload): unknown;
  compile(w: Workload): T;
  render(compiled: T, data: unknown): string;
}

/**
 * Each engine is imported only by the jobs that measure it: a job process pays for loading
 * one engine, and no engine's module state sits in another's heap.
 */
export async function loadAdapter(name: EngineName): Promise<Adapter<never>> {
  switch (name) {
    case 'quire':
      return (await quireAdapter()) as Adapter<never>;
    case 'reference':
      return (await referenceAdapter()) as Adapter<never>;
    case 'handlebars':
      return (await handlebarsAdapter()) as Adapter<never>;
    case 'liquid':
      return (await liquidAdapter()) as Adapter<never>;
    case 'concat':
      return concat as Adapter<never>;
  }
}

async function quireAdapter(): Promise<Adapter<Template>> {
  const { getDefaultEngine, parseJson } = await import('../engine/index.ts');
  const engine = getDefaultEngine();
  return {
    name: 'quire',
    compiles: true,
    prepare: (w) => parseJson(w.json),
    // Engine.compile, not the cached facade: every call must do the full work.
    compile: (w) => engine.compile(w.jsont),
    render: (t, data) => t.render(data, { now: BENCH_NOW }).html,
  };
}

type RefCode = ReturnType<ReferenceModule.Compiler['parse']>['code'];

async function referenceAdapter(): Promise<Adapter<RefCode>> {
  const { cldr, compiler } = await loadReferencePort();
  return {
    name: 'reference',
    compiles: true,
    prepare: (w) => JSON.parse(w.json),
    compile: (w) => compiler.parse(w.jsont).code,
    render: (code, data) => compiler.execute({ code, json: data, cldr: cldr as never, now: BENCH_NOW }).ctx.render(),
  };
}

async function handlebarsAdapter(): Promise<Adapter<HandlebarsTemplateDelegate>> {
  const Handlebars = (await import('handlebars')).default as typeof HandlebarsModule;
  const hb = Handlebars.create();
  const zone = (root: { website?: { timeZone?: string } }): string | undefined => root?.website?.timeZone;
  hb.registerHelper({
    slugify: peer.slugify,
    capitalize: peer.capitalize,
    pluralize: (n: unknown, one: string, many: string) => peer.pluralize(n, one, many),
    date: (epoch: unknown, pattern: string, options: { data: { root: never } }) =>
      peer.strftime(epoch, pattern, zone(options.data.root)),
    itemClasses: (p: unknown, index: unknown) => peer.itemClasses(p, typeof index === 'number' ? index : undefined),
    productPrice: (p: unknown) => peer.productPrice(p),
    onSale: peer.onSale,
    soldOut: peer.soldOut,
    hasVariants: peer.hasVariants,
    variedPrices: peer.variedPrices,
    inc: (n: number) => n + 1,
    even: (n: number) => n % 2 === 0,
    odd: (n: number) => n % 2 === 1,
    gt: (a: number, b: number) => a > b,
    eq: (a: unknown, b: unknown) => a === b,
  });
  return {
    name: 'handlebars',
    compiles: true,
    prepare: (w) => JSON.parse(w.json),
    // Handlebars compiles lazily on the first call; precompile is its eager parse + codegen.
    compile: (w) => {
      hb.precompile(w.hbs);
      return hb.compile(w.hbs);
    },
    render: (t, data) => t(data),
  };
}

type LiquidTemplate = ReturnType<Liquid['parse']>;

async function liquidAdapter(): Promise<Adapter<LiquidTemplate>> {
  const { Liquid } = await import('liquidjs');
  const liquid = new Liquid({ cache: false });
  liquid.registerFilter('sq_slugify', peer.slugify);
  liquid.registerFilter('sq_pluralize', (n: unknown, one: string, many: string) => peer.pluralize(n, one, many));
  liquid.registerFilter('sq_date', function (this: { context: { getSync(p: string[]): unknown } }, epoch: unknown, pattern: string) {
    return peer.strftime(epoch, pattern, this.context.getSync(['website', 'timeZone']) as string | undefined);
  });
  liquid.registerFilter('item_classes', (p: unknown, index?: number) => peer.itemClasses(p, index));
  liquid.registerFilter('product_price', (p: unknown) => peer.productPrice(p));
  liquid.registerFilter('on_sale', peer.onSale);
  liquid.registerFilter('sold_out', peer.soldOut);
  liquid.registerFilter('has_variants', peer.hasVariants);
  liquid.registerFilter('varied_prices', peer.variedPrices);
  return {
    name: 'liquid',
    compiles: true,
    prepare: (w) => JSON.parse(w.json),
    compile: (w) => liquid.parse(w.liquid),
    render: (t, data) => liquid.renderSync(t, data as object),
  };
}

/**
 * The limit baseline: the final page cut into the pieces an engine appends (markup runs and
 * attribute values), concatenated again. No engine can render faster than this.
 */
export function outputPieces(html: string): string[] {
  const pieces: string[] = [];
  for (const run of html.split(/(?=<)/)) for (const piece of run.split(/(?<==")|(?=")/)) if (piece) pieces.push(piece);
  return pieces;
}

/** Reads the page the parent process rendered with Quire (see run.ts `pagePath`). */
const concat: Adapter<string[]> = {
  name: 'concat',
  compiles: false,
  prepare: () => null,
  compile: (w) => outputPieces(readFileSync(pagePath(w.name), 'utf8')),
  render: (pieces) => {
    let s = '';
    for (let i = 0; i < pieces.length; i++) s += pieces[i];
    return s;
  },
};

/** Where the parent leaves each workload's Quire page for the concat baseline. */
export function pagePath(workload: WorkloadName): string {
  return join(tmpdir(), `quire-bench-${workload}.html`);
}
