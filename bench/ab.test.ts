// The A/B bench's pure parts: its options and how the processes' batches are combined.
import { describe, expect, it } from 'vitest';
import { parseAbOptions, summarize } from './ab.ts';

describe('bench:ab options', () => {
  it('defaults to every page workload against HEAD, two processes', () => {
    const o = parseAbOptions([]);
    expect(o).toMatchObject({ base: 'HEAD', mode: 'render', pairs: 40, processes: 2, batchMs: 40 });
    expect(o.workloads).toContain('grid-200');
    expect(o.workloads).not.toContain('json-10k');
  });
  it('reads its options and refuses what it does not know', () => {
    expect(parseAbOptions(['--base', 'abc123', '--mode', 'compile', '--workloads', 'gallery,grid-24', '--pairs', '10', '--processes', '4'])).toMatchObject({
      base: 'abc123', mode: 'compile', workloads: ['gallery', 'grid-24'], pairs: 10, processes: 4,
    });
    // `port` is not a commit: the working tree against the published port.
    expect(parseAbOptions(['--base', 'port']).base).toBe('port');
    expect(parseAbOptions(['--members', '30']).members).toBe(30);
    expect(() => parseAbOptions(['--members', '30', '--workloads', 'json-doubles-100k'])).toThrow(/12\.0 doubles of json-doubles-100k/);
    expect(() => parseAbOptions(['--mode', 'fast'])).toThrow('--mode needs render or compile');
    expect(() => parseAbOptions(['--workloads', 'nope'])).toThrow(/unknown workload nope/);
    expect(() => parseAbOptions(['--processes', '3'])).toThrow(/even/);
    expect(() => parseAbOptions(['--fast'])).toThrow('unknown option --fast');
  });
});

describe('bench:ab summary', () => {
  it('takes each process its own new/base of summed rates, then their geometric mean', () => {
    const rows = summarize([
      { page: [[100, 100], [110, 110]] },
      { page: [[200, 200], [180, 180]] },
    ]);
    expect(rows).toHaveLength(1);
    expect(rows[0].ratio).toBeCloseTo(Math.sqrt(1.1 * 0.9), 10);
    expect(rows[0].min).toBeCloseTo(0.9, 10);
    expect(rows[0].max).toBeCloseTo(1.1, 10);
    expect(rows[0].baseMicros).toBeCloseTo(1e6 / 200, 6);
  });
});
