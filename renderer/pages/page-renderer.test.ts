import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadSite, siteSeed } from '../site/load-site.ts';
import { seedStore } from '../store/seed.ts';
import { openTestStore } from '../test-support/test-store.ts';
import type { SqlStore } from '../store/store.ts';

// What `npm start` logs for a page whose template reports a problem at render: the page's path
// (never its query) and each file as `quire check` names it, so the line leads to the file.

let store: SqlStore | undefined;
afterAll(async () => {
  await store?.close();
});

it('logs a page rendered with template diagnostics by its path and the files quire check names', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-page-log-'));
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  };
  write('catalog.json', JSON.stringify({ site: { websiteId: 'log' } }));
  write('content/about.json', JSON.stringify({ slug: 'about', title: 'About' }));
  write('templates/page.jsont', '<h1>{page.title|html}</h1>{page|apply meta}\n');
  write('partials/meta.jsont', '<p>{@|apply nope}</p>\n');
  const site = await loadSite(dir);
  store = await openTestStore();
  await seedStore(store, siteSeed(site));
  const lines: Record<string, unknown>[] = [];
  const app = await buildApp({ store, site, logger: { level: 'warn', stream: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) } } });
  try {
    expect((await app.inject({ method: 'GET', url: '/about?email=alice%40example.com' })).statusCode).toBe(200);
  } finally {
    await app.close();
  }
  const logged = lines.find((line) => line.msg === 'page rendered with template diagnostics')!;
  expect(logged).toMatchObject({ path: '/about', template: 'templates/page.jsont' });
  // Before: `meta:1:4 APPLY_PARTIAL_MISSING …` (the engine's key for the partial) and no page named.
  expect(logged.diagnostics).toEqual(["partials/meta.jsont:1:4 APPLY_PARTIAL_MISSING: Attempt to apply partial 'nope' which could not be found."]);
  expect(JSON.stringify(lines)).not.toContain('alice');
}, 60_000);
