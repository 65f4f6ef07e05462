import { describe, expect, it } from 'vitest';
import type { EngineName, WorkloadName } from './engines.ts';
import type { JobResult } from './job.ts';
import { compareOutputs, evaluateTargets, formatResults, median, summarize, TARGETS } from './report.ts';

function job(engine: EngineName, workload: WorkloadName, render: number, compile: number, alloc?: number): JobResult {
  return {
    engine,
    workload,
    kind: alloc === undefined ? 'speed' : 'alloc',
    compilePerSec: alloc === undefined ? [compile * 0.9, compile, compile * 1.1] : [],
    renderPerSec: alloc === undefined ? [render, render * 1.2, render * 0.8] : [],
    outputBytes: 1000,
    allocBytesPerRender: alloc,
    peakHeapBytes: 1e6,
    maxRssBytes: 5e7,
  };
}

describe('summarize', () => {
  it('takes the median over rounds of each job median, with the range', () => {
    const s = summarize([job('quire', 'blog-post', 100, 10), job('quire', 'blog-post', 300, 30), job('quire', 'blog-post', 200, 20)]);
    expect(s).toHaveLength(1);
    expect(s[0].render).toEqual({ median: 200, min: 100, max: 300, n: 3 });
    expect(s[0].compile?.median).toBeCloseTo(20);
  });

  it('median of an even count is the mean of the middle two', () => {
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });
});

describe('target gate', () => {
  const workloads: WorkloadName[] = ['product-page', 'blog-post', 'collection-grid'];
  const healthy = (quireRender: number): JobResult[] =>
    workloads.flatMap((w) => [
      job('reference', w, 1000, 500),
      job('reference', w, 0, 0, 300_000),
      job('quire', w, quireRender, 600),
      job('quire', w, 0, 0, 60_000),
    ]);

  it('passes when every ratio meets its target', () => {
    const outcomes = evaluateTargets(summarize(healthy(6000)));
    expect(outcomes).toHaveLength(TARGETS.length);
    expect(outcomes.filter((o) => !o.pass)).toEqual([]);
    expect(outcomes.find((o) => o.metric === 'alloc')?.actual).toBeCloseTo(0.2);
  });

  it('a deliberate render slowdown fails exactly the render targets', () => {
    const slowed = healthy(6000).map((r) => (r.engine === 'quire' ? { ...r, renderPerSec: r.renderPerSec.map((x) => x / 4) } : r));
    const failed = evaluateTargets(summarize(slowed)).filter((o) => !o.pass);
    expect(failed.map((o) => `${o.workload}:${o.metric}`).sort()).toEqual(['blog-post:render', 'collection-grid:render', 'product-page:render']);
  });

  it('more allocation than 0.3x of the reference fails the alloc target', () => {
    const heavy = healthy(6000).map((r) => (r.engine === 'quire' && r.kind === 'alloc' ? { ...r, allocBytesPerRender: 120_000 } : r));
    const failed = evaluateTargets(summarize(heavy)).filter((o) => !o.pass);
    expect(failed.every((o) => o.metric === 'alloc')).toBe(true);
    expect(failed).toHaveLength(3);
  });

  it('a missing measurement fails its target instead of passing silently', () => {
    const noReference = healthy(6000).filter((r) => !(r.engine === 'reference' && r.workload === 'blog-post'));
    const blog = evaluateTargets(summarize(noReference)).filter((o) => o.workload === 'blog-post');
    expect(blog.every((o) => !o.pass && o.actual === null)).toBe(true);
  });
});

describe('output identity', () => {
  it('reports the differing lines between common prefix and suffix', () => {
    const c = compareOutputs('blog-post', 'a\nb\nc\nd', 'a\nB\nc\nd');
    expect(c.identical).toBe(false);
    expect(c.diff).toContain('@@ line 2');
    expect(c.diff).toContain('- quire b');
    expect(c.diff).toContain('+ ref   B');
  });

  it('identical pages have no diff', () => {
    expect(compareOutputs('blog-post', 'x\ny', 'x\ny')).toMatchObject({ identical: true, diff: '' });
  });
});

describe('RESULTS.md', () => {
  it('shows machine, node, commit, a row per engine and every target verdict', () => {
    const results = [job('quire', 'blog-post', 400, 50), job('reference', 'blog-post', 100, 100)];
    const summaries = summarize(results);
    const outcomes = evaluateTargets(summaries, TARGETS.filter((t) => t.workload === 'blog-post'));
    const md = formatResults(
      { date: 'D', machine: 'M', node: 'v20', commit: 'abc123', rounds: 1, durationSec: 1, options: 'o' },
      summaries,
      outcomes,
      [compareOutputs('blog-post', 'x', 'y')],
    );
    expect(md).toContain('- machine: M');
    expect(md).toContain('- commit: abc123');
    expect(md).toMatch(/\| quire \| .* \| 4\.00x \|/);
    expect(md).toContain('| blog-post | render | ≥ 5x | 4.00x | **MISS** |');
    expect(md).toContain('| blog-post | compile | ≥ 1x | 0.50x | **MISS** |');
    expect(md).toContain('**differs**');
  });
});
