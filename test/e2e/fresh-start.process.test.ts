// `npm start` on a fresh machine: the real server process on an empty DATA_DIR starts and
// answers `/` (how fast is bench/'s business, not a test's), and every page its sitemap lists renders with 200 and no template error.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Browser } from './browser.ts';
import { freePort, startServer, type ServerProcess } from './server-process.ts';

describe('a fresh server process', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-fresh-'));
  let server: ServerProcess | null = null;

  afterAll(async () => {
    await server?.kill('SIGTERM');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts and serves every sitemap page without template errors', async () => {
    server = await startServer({ port: await freePort(), env: { DATA_DIR: dataDir } });
    const visitor = Browser.at(server.origin);

    const sitemap = await visitor.get('/sitemap.xml');
    expect(sitemap.status).toBe(200);
    expect(sitemap.headers.get('content-type')).toMatch(/xml/);
    const urls = [...sitemap.text.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!.replace(/&amp;/g, '&')).pathname);
    expect(urls).toContain('/');
    expect(urls.length).toBeGreaterThanOrEqual(8);

    const failures: string[] = [];
    for (const url of urls) {
      const page = await visitor.get(url);
      if (page.status !== 200) failures.push(`${url}: ${page.status}`);
      else if (!page.headers.get('content-type')?.startsWith('text/html')) failures.push(`${url}: ${page.headers.get('content-type')}`);
      else if (!/^<!doctype html>/i.test(page.text)) failures.push(`${url}: no doctype`);
    }
    expect(failures).toEqual([]);
    // The server logs every page rendered with template diagnostics or content problems
    // (at warn, the default level); a clean walk logs none.
    expect(server.output()).not.toContain('page rendered with template diagnostics');
    expect(server.output()).not.toMatch(/"level":(50|60)/);
  }, 150_000);
});
