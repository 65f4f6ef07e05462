// One process of the formatter sweep (formatter-sweep.ts): both engines in this process, each
// case rendered by them in alternating batches of CPU time over a rotation of fresh data sets.
// `portFirst` says which engine's template is compiled and run first in every case: the parent
// runs one process each way, since code made second can run a few percent slower (bench/README.md,
// "Less work per call").
import { getDefaultEngine, parseJson } from '../engine/index.ts';
import { serveJob } from './job-process.ts';
import { cpuMs } from './measure.ts';
import { median } from './report.ts';
import { loadReferencePort } from './reference-port.ts';
import { SWEEP_CASES, SWEEP_ITEMS, SWEEP_NOW, sweepData, sweepTemplate } from './formatter-sweep-cases.ts';

/**
 * The port evaluates `.eval` and runs `.include` only when its host asks (LANGUAGE §4.10–4.11);
 * Quire evaluates `.eval` always, as the reference does, and runs `.include` unless its host
 * turns it off. Asked for every case: no other instruction reads them.
 */
const PORT_FLAGS = { enableExpr: true, enableInclude: true };

export interface SweepJobSpec {
  cases: string[];
  seed: number;
  dataSets: number;
  portFirst: boolean;
  batchMs: number;
  warmupPairs: number;
  pairs: number;
}

export interface SweepCaseResult {
  name: string;
  /** Quire's rate over the port's, per measured pair of batches. */
  ratios: number[];
  /** Calls per CPU second, median over the pairs. */
  quireRate: number;
  portRate: number;
  /** Both engines printed the same text for the first data set. */
  same: boolean;
  sample?: { quire: string; port: string };
}

type Runner = () => number;

async function runSweepJob(spec: SweepJobSpec): Promise<SweepCaseResult[]> {
  const { cldr, compiler } = await loadReferencePort('en-US');
  const engine = getDefaultEngine();
  const out: SweepCaseResult[] = [];
  for (const name of spec.cases) {
    const c = SWEEP_CASES.find((x) => x.name === name);
    if (!c) throw new Error(`unknown case ${name}`);
    const source = sweepTemplate(c);
    const texts = sweepData(c, spec.seed, spec.dataSets);
    const qData = texts.map((t) => parseJson(t));
    const pData = texts.map((t) => JSON.parse(t) as unknown);
    const make = {
      quire: (): Runner => {
        const t = engine.compile(source);
        let i = 0;
        return () => t.render(qData[i++ % qData.length], { locale: 'en-US', now: SWEEP_NOW }).html.length;
      },
      port: (): Runner => {
        const code = compiler.parse(source).code;
        let i = 0;
        return () => (compiler.execute({ code, json: pData[i++ % pData.length], cldr: cldr as never, now: SWEEP_NOW, ...PORT_FLAGS } as never).ctx.render() as string).length;
      },
    };
    const p = spec.portFirst ? make.port() : undefined;
    const q = make.quire();
    const port = p ?? make.port();
    const qText = engine.compile(source).render(qData[0], { locale: 'en-US', now: SWEEP_NOW }).html;
    const pText = compiler.execute({ code: compiler.parse(source).code, json: pData[0], cldr: cldr as never, now: SWEEP_NOW, ...PORT_FLAGS } as never).ctx.render() as string;
    let sink = 0;
    const batch = (run: Runner): number => {
      const t0 = cpuMs();
      let n = 0;
      let dt = 0;
      do {
        sink += run();
        n++;
        dt = cpuMs() - t0;
      } while (dt < spec.batchMs);
      return (n * SWEEP_ITEMS * 1000) / dt; // calls per CPU second
    };
    const order: Runner[] = spec.portFirst ? [port, q] : [q, port];
    for (let k = 0; k < spec.warmupPairs; k++) for (const run of order) batch(run);
    const ratios: number[] = [];
    const qRates: number[] = [];
    const pRates: number[] = [];
    for (let k = 0; k < spec.pairs; k++) {
      const a = spec.portFirst ? batch(port) : batch(q);
      const b = spec.portFirst ? batch(q) : batch(port);
      const qr = spec.portFirst ? b : a;
      const pr = spec.portFirst ? a : b;
      qRates.push(qr);
      pRates.push(pr);
      ratios.push(qr / pr);
    }
    if (sink < 0) console.log(sink);
    const same = qText === pText;
    out.push({ name, ratios, quireRate: median(qRates), portRate: median(pRates), same, ...(same ? {} : { sample: firstDifference(qText, pText) }) });
  }
  return out;
}

/** The two texts around where they first differ. */
function firstDifference(a: string, b: string): { quire: string; port: string } {
  let i = 0;
  while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  const from = Math.max(0, i - 60);
  return { quire: a.slice(from, i + 60), port: b.slice(from, i + 60) };
}

serveJob(runSweepJob);
