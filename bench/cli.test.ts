import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { publish, withSection } from './cli.ts';

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
    expect(readFileSync(out, 'utf8')).toBe('# new\n\n<!-- bench:cold begin -->\n## Cold start\n<!-- bench:cold end -->\n');
    rmSync(dir, { recursive: true, force: true });
  });
});
