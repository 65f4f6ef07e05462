// The real storefront for the browser tier: the demo site folder, the app `npm start` builds
// (pages, API, assets), on a fresh in-memory database seeded from the site's catalogue, on
// 127.0.0.1 and a free port. It runs inside the test worker so tests can read the store to
// check what the server accepted.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../renderer/app.ts';
import { loadSite } from '../../../renderer/site/load-site.ts';
import { seedStore, type SeedData } from '../../../renderer/store/seed.ts';
import type { SqlStore } from '../../../renderer/store/store.ts';
import { openTestStore } from '../../../renderer/test-support/test-store.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const DEMO_SITE = path.join(repoRoot, 'fixtures', 'sites', 'demo');
export const ADMIN_TOKEN = 'browser-tier-admin-token';

export interface Storefront {
  url: string;
  store: SqlStore;
  app: FastifyInstance;
  close(): Promise<void>;
}

export interface StorefrontOptions {
  /** Folder with islands.js and chunks/ (the browser tier's global setup builds it). */
  assetsDir: string;
  siteDir?: string;
  /** Changes to the catalogue before seeding (for example no captcha key). */
  seed?: (catalog: SeedData) => SeedData;
}

export async function startStorefront(options: StorefrontOptions): Promise<Storefront> {
  const site = await loadSite(options.siteDir ?? DEMO_SITE);
  if (!site.catalog) throw new Error(`${site.dir} has no catalog.json to seed the store with`);
  const store = await openTestStore();
  await seedStore(store, options.seed ? options.seed(structuredClone(site.catalog)) : site.catalog);
  const app = await buildApp({ store, site, assetsDir: options.assetsDir, adminToken: ADMIN_TOKEN });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    url: address,
    store,
    app,
    async close() {
      await app.close();
      await store.close();
    },
  };
}
