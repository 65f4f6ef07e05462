import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { MIGRATIONS, migrate } from '../store/migrations.ts';
import { seedStore, type SeedData } from '../store/seed.ts';
import { pgliteClient } from '../store/sql-client.ts';
import { openStore, SqlStore, StoreError } from '../store/store.ts';
import type { LoadedSite } from '../site/site-types.ts';

/** A folder without `catalog.json` still gets a site row, so the API and pages have settings. */
export function seedOf(site: LoadedSite | null): SeedData {
  return site?.catalog ?? { site: { websiteId: 'preview-site' } };
}

// Creating a PGlite cluster runs initdb in WebAssembly (5–10 s, far more on a busy machine);
// loading a dump of an already migrated one takes about 2 s. Author tools start often, so
// the dump is kept in the temp directory, keyed by the migrations and the PGlite build.

function pgliteVersion(): string {
  try {
    const entry = new URL(import.meta.resolve('@electric-sql/pglite')).pathname;
    let dir = path.dirname(entry);
    while (!fs.existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
    return (JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version?: string }).version ?? '';
  } catch {
    return '';
  }
}

export function clusterCachePath(tmp = os.tmpdir()): string {
  const key = JSON.stringify({ migrations: MIGRATIONS, pglite: pgliteVersion() });
  return path.join(tmp, `quire-preview-cluster-${crypto.createHash('sha256').update(key).digest('hex').slice(0, 16)}.tar`);
}

async function fromDump(file: string): Promise<PGlite | null> {
  try {
    return await PGlite.create({ loadDataDir: new Blob([fs.readFileSync(file)]) });
  } catch {
    return null; // missing, partial or from another build: start from scratch
  }
}

/** An in-memory store, migrated and (when empty) seeded; the cluster comes from the dump when one is cached. */
export async function openMemoryStore(seed: SeedData | undefined, cacheFile = clusterCachePath()): Promise<SqlStore> {
  let db: PGlite;
  try {
    const cached = await fromDump(cacheFile);
    if (cached) {
      db = cached;
    } else {
      db = await PGlite.create();
      await migrate(pgliteClient(db));
      try {
        const dump = await db.dumpDataDir('none');
        const temp = `${cacheFile}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
        fs.writeFileSync(temp, Buffer.from(await dump.arrayBuffer()));
        fs.renameSync(temp, cacheFile); // atomic: concurrent starts never read half a dump
      } catch {
        // A read-only temp directory only costs the next start its initdb.
      }
    }
  } catch (error) {
    throw new StoreError('STORE_UNAVAILABLE', `Cannot open the database: ${(error as Error).message}`, { cause: error });
  }
  const client = pgliteClient(db);
  try {
    await migrate(client);
  } catch (error) {
    await client.close().catch(() => {});
    throw new StoreError('STORE_MIGRATION_FAILED', `Migrations failed: ${(error as Error).message}`, { cause: error });
  }
  const store = new SqlStore(client);
  try {
    if (seed && !(await store.read.getSite())) await seedStore(store, seed);
  } catch (error) {
    await client.close().catch(() => {});
    throw new StoreError('SEED_INVALID', `Seeding failed: ${(error as Error).message}`, { cause: error });
  }
  return store;
}

/**
 * The store of an author tool: the database named by DATABASE_URL or DATA_DIR when one is
 * set (seeded only when empty, as `npm start` does), else a throw-away in-memory database
 * seeded from the folder's `catalog.json`.
 */
export async function openSiteStore(site: LoadedSite | null, env: NodeJS.ProcessEnv = process.env): Promise<SqlStore> {
  // A folder that does not load yet seeds nothing; the first good load seeds the store.
  const seed = site ? seedOf(site) : undefined;
  if (env.DATABASE_URL || env.DATA_DIR) return openStore({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR, seed });
  return openMemoryStore(seed);
}
