import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { publish, withHistory, withSection } from './cli.ts';

describe('publish', () => {
  const dir = mkdtempSync(join(tmpdir(), 'quire-publish-'));
  afterEach(() => vi.restoreAllMocks());

  it("keeps another bench's marked section of the file it rewrites", () => {
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const out = join(dir, 'RESULTS.md');
    writeFileSync(out, '# old\n\n<!-- bench:cold begin -->\n## Cold start\n<!-- bench:cold end -->\n');
    publish('# new\n', out, false, []);
    expect(readFileSync(out, 'utf8')).toBe('# new\n\n<!-- bench:cold begin -->\n## Cold start\n<!-- bench:cold end -->\n');
    // A report that writes the section itself replaces it.
    publish('# new\n\n<!-- bench:cold begin -->\nfresh\n<!-- bench:cold end -->\n', out, false, []);
    expect(readFileSync(out, 'utf8')).toBe('# new\n\n<!-- bench:cold begin -->\nfresh\n<!-- bench:cold end -->\n');
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('withSection', () => {
  const section = '<!-- bench:cold begin -->\nnew\n<!-- bench:cold end -->';
  it('replaces the section from the begin marker nearest before its end, and appends one that is missing', () => {
    expect(withSection('# r\n\n<!-- bench:cold begin -->\nold\n<!-- bench:cold end -->\n\n## after\n', 'bench:cold', section)).toBe(`# r\n\n${section}\n\n## after\n`);
    // A stray begin marker earlier in the file keeps what lies between it and the section.
    expect(withSection('# r\n<!-- bench:cold begin -->\n## history\n<!-- bench:cold begin -->\nold\n<!-- bench:cold end -->\n', 'bench:cold', section)).toBe(
      `# r\n<!-- bench:cold begin -->\n## history\n${section}\n`,
    );
    expect(withSection('# r\n', 'bench:cold', section)).toBe(`# r\n\n${section}\n`);
  });

  it('publish carries a section over from its nearest begin marker only', () => {
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const dir = mkdtempSync(join(tmpdir(), 'quire-publish-'));
    const out = join(dir, 'RESULTS.md');
    writeFileSync(out, '# old\n<!-- bench:cold begin -->\n## history\n<!-- bench:cold begin -->\n## Cold start\n<!-- bench:cold end -->\n');
    publish('# new\n', out, false, []);
    expect(readFileSync(out, 'utf8')).toBe('# new\n\n## The run before\n\n### history\n\n<!-- bench:cold begin -->\n## Cold start\n<!-- bench:cold end -->\n');
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('withHistory', () => {
  const old = [
    '# Results',
    '',
    '- date: 2026-12-02T22:10:15.848Z; machine: AMD EPYC × 2, 23.5 GB; commit 4db1c78',
    '',
    '| a | 1.0x |',
    '',
    '## Targets',
    '',
    'missed',
    '',
    '## Workloads',
    '',
    '- grid',
    '',
    '## The run before (05:51, 2026-12-01, Intel Xeon, commit 3f264df)',
    '',
    'older',
    '',
  ].join('\n');

  it('keeps the previous report below the new one, named by its date, machine and commit, its headings a level down', () => {
    const neu = '# Results\n\n- date: 2026-12-03T06:41:00.000Z\n\n## Targets\n\npassed\n\n## Workloads\n\n- grid\n';
    expect(withHistory(neu, old)).toBe(
      [
        neu.trimEnd(),
        '',
        '## The run before (22:10, 2026-12-02, AMD EPYC, commit 4db1c78)',
        '',
        '- date: 2026-12-02T22:10:15.848Z; machine: AMD EPYC × 2, 23.5 GB; commit 4db1c78',
        '',
        '| a | 1.0x |',
        '',
        '### Targets',
        '',
        'missed',
        '',
        '## The run before (05:51, 2026-12-01, Intel Xeon, commit 3f264df)',
        '',
        'older',
        '',
      ].join('\n'),
    );
  });

  it('adds nothing to a first report, and reads the date, machine and commit of a list of lines', () => {
    expect(withHistory('# R\n', '')).toBe('# R\n');
    expect(withHistory('# R\n', '# R\n')).toBe('# R\n');
    const http = '# H\n\n- date: 2026-12-03T06:41:19.973Z\n- machine: AMD EPYC × 2, 23.5 GB\n- commit: 4db1c78\n\n| quire | 3.9x |\n';
    expect(withHistory('# H\n', http)).toContain('## The run before (06:41, 2026-12-03, AMD EPYC, commit 4db1c78)\n\n- date:');
  });
});
