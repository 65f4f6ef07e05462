import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildIslands, INITIAL_GZIP_BUDGET_BYTES, type BuildReport } from './build.ts';

let outdir: string;
let report: BuildReport;

beforeAll(async () => {
  outdir = mkdtempSync(path.join(tmpdir(), 'quire-islands-'));
  report = await buildIslands(outdir);
}, 60_000);
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

describe('island bundle', () => {
  test('the initial script stays within the 90 KB gzip budget', () => {
    expect(report.initialFiles[0]).toBe('islands.js');
    expect(report.initialGzipBytes).toBeGreaterThan(0);
    expect(report.initialGzipBytes).toBeLessThanOrEqual(INITIAL_GZIP_BUDGET_BYTES);
  });

  test('every island is its own lazily loaded chunk', () => {
    const outputs = Object.keys(report.gzipBytes);
    for (const island of ['add-to-cart', 'variants-select', 'restock', 'pill-cart', 'bnpl', 'site-form', 'account', 'cart-page', 'additional-fields', 'start-platform', 'performance-records']) {
      const chunk = outputs.find((f) => path.basename(f).startsWith(`${island}-`));
      expect(chunk, island).toBeDefined();
      expect(report.initialFiles).not.toContain(chunk);
    }
  });

  test('the bundle is built for production and holds no server-side code', () => {
    const inputs = Object.keys(report.metafile.inputs);
    const allowed = /^(hydrate\/(?!test-support\/)|node_modules\/(react|react-dom|scheduler)\/)/;
    const relative = inputs.map((f) => path.relative(process.cwd(), path.resolve(f)));
    expect(relative.filter((f) => !allowed.test(f))).toEqual([]);
    expect(relative.some((f) => /\.test\.tsx?$/.test(f))).toBe(false);
    const main = readFileSync(path.join(outdir, 'islands.js'), 'utf8');
    expect(main).not.toContain('process.env.NODE_ENV');
    const all = Object.keys(report.gzipBytes).map((f) => readFileSync(path.join(outdir, f), 'utf8')).join('\n');
    // React's development warnings start `Warning: `; the seed's image comment 'Warning: alt
    // missing …' (shared/image-markup.ts, in the gallery's lightbox) is product text.
    expect(all).not.toMatch(/react-dom\.development|Warning: (?!alt missing)/);
  });

  test('the local captcha provider is a separate script', () => {
    expect(report.gzipBytes['captcha-local.js']).toBeGreaterThan(0);
    expect(report.initialFiles).not.toContain('captcha-local.js');
  });
});
