import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { assetsBuildKey, assetsManifest, recordBuild } from '../bin/build-inputs.mjs';
import { assetsAreFresh, ensureAssets } from './asset-bundle.ts';

// A project folder of its own: the build script, tsconfig and two hydrate inputs (a script and
// the CSS it bundles). The stand-in build writes the entry files and records its inputs the
// way hydrate/build.ts does; the test counts how often a start runs it.
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-assets-'));
const assetsDir = path.join(root, 'dist', 'assets');
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const INPUTS = ['hydrate/entry.ts', 'hydrate/admin/admin.css'];
const past = new Date(Date.now() - 60_000);

/** Writes a project file dated a minute ago (a build refuses to record inputs newer than its start). */
function write(rel: string, text: string): void {
  const file = path.join(root, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  fs.utimesSync(file, past, past);
}

let builds = 0;
async function build(): Promise<void> {
  builds++;
  const startedAt = Date.now();
  fs.mkdirSync(assetsDir, { recursive: true });
  for (const file of ['islands.js', 'admin.js']) fs.writeFileSync(path.join(assetsDir, file), '');
  expect(recordBuild(assetsManifest(assetsDir), root, assetsBuildKey(root), INPUTS, startedAt, root)).toBe(true);
}
const start = () => ensureAssets(assetsDir, root, build);

write('hydrate/build.ts', 'export const options = { minify: true };');
write('tsconfig.json', '{}');
write('hydrate/entry.ts', 'export const a = 1;');
write('hydrate/admin/admin.css', 'body { color: red }');

describe('npm start rebuilds dist/assets when its inputs change', () => {
  it('builds a missing folder once, then not again while nothing changed', async () => {
    expect(assetsAreFresh(assetsDir, root)).toBe(false);
    await start();
    expect(builds).toBe(1);
    await start();
    await start();
    expect(builds).toBe(1);
    expect(fs.existsSync(path.join(root, 'dist', 'assets.inputs.json'))).toBe(true);
  });

  it('rebuilds after a hydrate source changed', async () => {
    write('hydrate/entry.ts', 'export const a = 2;');
    await start();
    expect(builds).toBe(2);
    await start();
    expect(builds).toBe(2);
  });

  it('rebuilds after the CSS it bundles changed', async () => {
    write('hydrate/admin/admin.css', 'body { color: blue }');
    await start();
    expect(builds).toBe(3);
  });

  it('rebuilds after the build options (hydrate/build.ts) changed', async () => {
    write('hydrate/build.ts', 'export const options = { minify: false };');
    await start();
    expect(builds).toBe(4);
    await start();
    expect(builds).toBe(4);
  });

  it('rebuilds when an entry file is gone or no record of the inputs is left', async () => {
    fs.rmSync(path.join(assetsDir, 'admin.js'));
    await start();
    expect(builds).toBe(5);
    fs.rmSync(assetsManifest(assetsDir));
    await start();
    expect(builds).toBe(6);
    await start();
    expect(builds).toBe(6);
  });
});
