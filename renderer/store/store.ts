import fs from 'node:fs';
import path from 'node:path';
import { openCachedMemoryClient, seedDataDirFromSnapshot, seedSnapshotKey, type SnapshotUsed } from './cluster-cache.ts';
import { migrate } from './migrations.ts';
import { Repository } from './repository.ts';
import { openPgliteClient, openPostgresClient, type SqlClient } from './sql-client.ts';
import type { SeedData } from './seed.ts';
import { syncSiteContent, type SyncResult } from './site-sync.ts';

/**
 * The storefront state behind one interface. `read` serves single statements; every
 * write that touches more than one row goes through `transaction`, so an acknowledged
 * request is either fully stored or not at all.
 */
export interface Store {
  readonly kind: 'pglite' | 'postgres';
  readonly read: Repository;
  transaction<T>(work: (repo: Repository) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export class SqlStore implements Store {
  readonly read: Repository;

  constructor(readonly client: SqlClient) {
    this.read = new Repository(client);
  }

  get kind(): 'pglite' | 'postgres' {
    return this.client.kind;
  }

  transaction<T>(work: (repo: Repository) => Promise<T>): Promise<T> {
    return this.client.transaction((tx) => work(new Repository(tx)));
  }

  close(): Promise<void> {
    return this.client.close();
  }
}

/** Start-up failures of the store, with a stable code for the caller to report. */
export class StoreError extends Error {
  constructor(
    readonly code: 'STORE_UNAVAILABLE' | 'STORE_MIGRATION_FAILED' | 'SEED_INVALID',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'StoreError';
  }
}

export interface OpenStoreOptions {
  /** `postgres://…` selects PostgreSQL; otherwise the embedded PGlite database is used. */
  databaseUrl?: string;
  /** PGlite data directory; `null` keeps the database in memory (tests). */
  dataDir?: string | null;
  /** The site folder's catalogue, synced into the store after the migrations (store/site-sync.ts). */
  seed?: SeedData;
  /** Told what the sync changed (`syncSummary` makes the log line). */
  onSync?: (result: SyncResult) => void;
  /** Told as each start-up step ends ('store-open', 'migrate', 'sync'): main.ts's start trace. */
  onPhase?: (name: string) => void;
  /** Told which snapshot a new PGlite data directory was made from (cluster-cache.ts), before the sync. */
  onSnapshot?: (used: SnapshotUsed) => void;
}

/** Opens the store named by the options (or `DATABASE_URL` / `DATA_DIR`) and migrates it. */
export async function openStore(options: OpenStoreOptions = {}): Promise<SqlStore> {
  const databaseUrl = options.databaseUrl ?? process.env.DATABASE_URL;
  let client: SqlClient;
  try {
    if (databaseUrl && /^postgres(ql)?:\/\//.test(databaseUrl)) {
      client = await openPostgresClient(databaseUrl);
    } else {
      const dataDir = options.dataDir === undefined ? (process.env.DATA_DIR ?? './data') : options.dataDir;
      if (dataDir !== null) {
        fs.mkdirSync(path.resolve(dataDir), { recursive: true });
        // A new data directory starts as a copy of a pristine cluster instead of running initdb,
        // or of one with this catalogue already synced when `--prepare` made it.
        options.onSnapshot?.(await seedDataDirFromSnapshot(path.resolve(dataDir), undefined, options.seed ? seedSnapshotKey(options.seed) : undefined));
      }
      client = await openPgliteClient(dataDir === null ? undefined : path.resolve(dataDir));
    }
  } catch (error) {
    throw new StoreError('STORE_UNAVAILABLE', `Cannot open the database: ${(error as Error).message}`, { cause: error });
  }
  options.onPhase?.('store-open');
  return migratedStore(client, options.seed, options.onSync, options.onPhase);
}

/**
 * A throw-away in-memory store, migrated and (with a seed) seeded, started from the cached
 * dump of a migrated cluster (`cluster-cache.ts`) instead of an initdb: author tools and
 * test files open one on every start.
 */
export async function openMemoryStore(seed?: SeedData, cacheFile?: string): Promise<SqlStore> {
  let client: SqlClient;
  try {
    client = await openCachedMemoryClient(cacheFile);
  } catch (error) {
    throw new StoreError('STORE_UNAVAILABLE', `Cannot open the database: ${(error as Error).message}`, { cause: error });
  }
  return migratedStore(client, seed);
}

/** Migrations, then the site content sync of the seed; the client is closed on failure. */
async function migratedStore(client: SqlClient, seed: SeedData | undefined, onSync?: (result: SyncResult) => void, onPhase?: (name: string) => void): Promise<SqlStore> {
  try {
    await migrate(client);
  } catch (error) {
    await client.close().catch(() => {});
    throw new StoreError('STORE_MIGRATION_FAILED', `Migrations failed: ${(error as Error).message}`, { cause: error });
  }
  onPhase?.('migrate');
  const store = new SqlStore(client);
  try {
    if (seed) {
      const result = await syncSiteContent(client, seed);
      onSync?.(result);
      onPhase?.('sync');
    }
  } catch (error) {
    await client.close().catch(() => {});
    throw new StoreError('SEED_INVALID', `Seeding failed: ${(error as Error).message}`, { cause: error });
  }
  return store;
}
