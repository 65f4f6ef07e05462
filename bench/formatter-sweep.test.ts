// The formatter sweep without timing: its cases are templates Quire compiles cleanly and
// renders to text on their data, and the data sets do not repeat what they print.
import { describe, expect, it } from 'vitest';
import { compile, parseJson } from '../engine/index.ts';
import { SWEEP_CASES, SWEEP_NOW, sweepData, sweepTemplate } from './formatter-sweep-cases.ts';
import { parseSweepArgs } from './formatter-sweep.ts';

describe('formatter sweep cases', () => {
  it('names every case once and compiles each without diagnostics', () => {
    const names = SWEEP_CASES.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    for (const c of SWEEP_CASES) {
      const t = compile(sweepTemplate(c), { mode: 'strict' });
      expect(t.diagnostics, c.name).toEqual([]);
    }
  });

  it('renders every case to text on its data, and two data sets print different values', () => {
    for (const c of SWEEP_CASES) {
      const [a, b] = sweepData(c, 7, 2);
      const t = compile(sweepTemplate(c));
      const out = t.render(parseJson(a), { now: SWEEP_NOW });
      expect(out.html.trim().length, c.name).toBeGreaterThan(0);
      expect(a, c.name).not.toBe(b);
    }
  });

  it('is deterministic for a seed and reads its options', () => {
    expect(sweepData(SWEEP_CASES[0], 3, 2)).toEqual(sweepData(SWEEP_CASES[0], 3, 2));
    expect(parseSweepArgs(['--cases', 'html,json', '--pairs', '3', '--no-write'])).toMatchObject({ cases: ['html', 'json'], pairs: 3, write: false });
    expect(() => parseSweepArgs(['--cases', 'nope'])).toThrow('unknown cases: nope');
  });
});
