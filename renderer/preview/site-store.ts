import type { SyncResult } from '../store/site-sync.ts';
import { openMemoryStore, openStore, type SqlStore } from '../store/store.ts';
import { siteSeed } from '../site/load-site.ts';
import type { LoadedSite } from '../site/site-types.ts';

/**
 * The store of an author tool: the database named by DATABASE_URL or DATA_DIR when one is
 * set (the folder's catalogue synced into it, as `npm start` does), else a throw-away in-memory database
 * seeded from the folder's `catalog.json`. `onSync` is told what the sync into a kept database
 * changed (a throw-away one only ever gets everything added).
 */
export async function openSiteStore(site: LoadedSite | null, env: NodeJS.ProcessEnv = process.env, onSync?: (result: SyncResult) => void): Promise<SqlStore> {
  // A folder that does not load yet seeds nothing; the first good load seeds the store.
  const seed = site ? siteSeed(site) : undefined;
  if (env.DATABASE_URL || env.DATA_DIR) return openStore({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR, seed, onSync });
  return openMemoryStore(seed);
}
