import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { publish } from './cli.ts';

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
