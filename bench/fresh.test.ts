// The fresh-data harness without timing: the target gate on fixed summaries, and the
// property the mode rests on (data sets of one rotation share no printed value).
import { describe, expect, it } from 'vitest';
import { FRESH_TARGETS, type WorkloadSummary, evaluateFresh, planFreshJobs, FRESH_DEFAULTS, parseFreshArgs } from './fresh.ts';
import { withUnprintedMembers } from './fresh-data.ts';
import { freshWorkloads, jacksonDoubles, ROTATION_VALUES } from './fresh-workloads.ts';
import { loadFreshEngine, rotation } from './fresh-job.ts';

const summary = (workload: string, render: number, compile = 2, alloc = 0.2): WorkloadSummary => ({
  workload, what: '', pool: 10, quireRender: render * 100, referenceRender: 100,
  render: { median: render, min: render * 0.9, max: render * 1.1 },
  compile: { median: compile, min: compile, max: compile },
  repeatedRender: null, quireAlloc: alloc * 1000, referenceAlloc: 1000, alloc, outputBytes: 1000,
});

describe('fresh-data harness', () => {
  it('passes when every target holds and names the worst workload when one does not', () => {
    const good = ['product-variants', 'product-simple', 'blog-post', 'grid-200', 'a', 'b', 'c'].map((w) => summary(w, w === 'grid-200' ? 3 : 7));
    expect(evaluateFresh(good, FRESH_TARGETS).every((o) => o.pass)).toBe(true);
    const slowGrid = good.map((s) => (s.workload === 'grid-200' ? summary('grid-200', 2) : s));
    const out = evaluateFresh(slowGrid, FRESH_TARGETS);
    expect(out.filter((o) => !o.pass).map((o) => [o.target.what, o.worst])).toEqual([
      ['every workload, render', 'grid-200'],
      ['200-product grid, render', 'grid-200'],
    ]);
    const median = evaluateFresh(good.map((s) => summary(s.workload, 4)), FRESH_TARGETS).find((o) => o.target.workloads === 'median');
    expect(median).toMatchObject({ actual: 4, pass: false });
    const alloc = evaluateFresh([summary('x', 9, 2, 0.5)], FRESH_TARGETS).find((o) => o.target.metric === 'alloc');
    expect(alloc).toMatchObject({ pass: false, worst: 'x' });
  });

  it('plans both engines for every workload in every round, allocation in the first only', () => {
    const plan = planFreshJobs({ ...FRESH_DEFAULTS, rounds: 2 }, ['a', 'b']);
    expect(plan[0].filter((j) => j.kind === 'speed')).toHaveLength(4);
    expect(plan[0].filter((j) => j.kind === 'alloc')).toHaveLength(4);
    expect(plan[1].filter((j) => j.kind === 'alloc')).toHaveLength(0);
    expect(new Set(plan.map((r) => r[0].seed)).size).toBe(2);
  });

  it('--members gives every object of 6+ members that many more, which change only what prints whole objects', async () => {
    expect(parseFreshArgs(['--members', '30']).members).toBe(30);
    expect(planFreshJobs({ ...FRESH_DEFAULTS, members: 30 }, ['a'])[0][0].members).toBe(30);
    const padded = withUnprintedMembers({ a: [{ b: 1, c: 2, d: 3, e: 4, f: 5, g: 6 }], small: { x: 1 } }, 3, 9) as { a: Record<string, unknown>[]; small: object };
    expect(Object.keys(padded.a[0])).toEqual(['b', 'c', 'd', 'e', 'f', 'g', '_platform0', '_platform1', '_platform2']);
    expect(padded.small).toEqual({ x: 1 });
    for (const name of ['product-variants', 'grid-24', 'blog-post', 'index-page']) {
      const w = freshWorkloads().find((x) => x.name === name)!;
      const small = { ...w, pool: 1 };
      const [plain] = rotation(small, 3, 'fresh');
      const [wide] = rotation(small, 3, 'fresh', 30);
      expect(wide.length, name).toBeGreaterThan(plain.length * 1.2);
      const pages: string[] = [];
      for (const engine of ['quire', 'reference'] as const) {
        const e = await loadFreshEngine(engine, w);
        const t = e.compile();
        const page = e.render(t, e.prepare(wide));
        // product-variants prints its variants as JSON (`variants-select`), members and all.
        if (name !== 'product-variants') expect(page, `${engine} ${name}`).toBe(e.render(t, e.prepare(plain)));
        pages.push(page);
      }
      expect(pages[0], name).toBe(pages[1]);
    }
  });

  it('--json-parse gives Quire its data as JSON.parse reads it, with nothing kept of the text', async () => {
    expect(parseFreshArgs(['--json-parse']).jsonParse).toBe(true);
    expect(planFreshJobs({ ...FRESH_DEFAULTS, jsonParse: true }, ['a'])[0].every((j) => j.jsonParse === true)).toBe(true);
    const { runFreshJob } = await import('./fresh-job.ts');
    const schedule = { warmupMs: 1, compileWarmupMs: 1, batches: 1, compileMs: 1, renderMs: 1 };
    // Java's `12.0`s: parseJson keeps them doubles, which `json` prints as read; JSON.parse makes them 12.
    const spec = { engine: 'quire' as const, workload: 'json-doubles-100k', kind: 'speed' as const, data: 'repeated' as const, seed: 1, cost: 'render' as const, ...schedule };
    const [parsed, plain] = [await runFreshJob(spec), await runFreshJob({ ...spec, jsonParse: true })];
    expect(plain.outputBytes).toBeLessThan(parsed.outputBytes - 1000);
  });

  it('jackson data writes integral numbers as doubles, outside strings and arrays of numbers', () => {
    expect(jacksonDoubles('{"a":12,"b":[1,2],"c":"x: 3","d":-3,"e":{"f":0}}')).toBe('{"a":12.0,"b":[1,2],"c":"x: 3","d":-3.0,"e":{"f":0.0}}');
    const w = freshWorkloads().find((x) => x.name === 'json-doubles-100k');
    expect(w?.text).toBe('jackson');
    expect(rotation(w!, 1, 'repeated')[0]).toMatch(/":\d+\.0[,}]/);
  });

  it('data sets of a rotation share no title, price, date or id', () => {
    const leaves = (v: unknown, into: Set<string>): Set<string> => {
      if (Array.isArray(v)) for (const x of v) leaves(x, into);
      else if (v !== null && typeof v === 'object') {
        for (const [k, x] of Object.entries(v)) {
          if (['title', 'id', 'sku', 'addedOn', 'startDate', 'body', 'author', 'assetUrl'].includes(k) && ((typeof x === 'string' && x !== '') || typeof x === 'number')) into.add(k + '=' + x);
          else leaves(x, into);
        }
      }
      return into;
    };
    for (const w of freshWorkloads().filter((x) => x.group === 'page')) {
      const a = leaves(w.data(1), new Set());
      const b = leaves(w.data(2), new Set());
      expect(a.size, w.name).toBeGreaterThan(3);
      expect([...a].filter((x) => b.has(x)), w.name).toEqual([]);
      expect(w.pool, w.name).toBeGreaterThanOrEqual(12);
    }
    expect(ROTATION_VALUES).toBeGreaterThan(4096);
  });
});
