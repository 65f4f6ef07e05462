import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { clusterCachePath, ensureClusterSnapshot, ensureSiteSnapshot, seedDataDirFromSnapshot, seedSnapshotKey } from './cluster-cache.ts';
import { MIGRATIONS } from './migrations.ts';
import type { SeedData } from './seed.ts';
import { syncSiteContent, syncSummary, type SyncResult } from './site-sync.ts';
import { openMemoryStore, openStore } from './store.ts';

describe('openMemoryStore', () => {
  it('replaces a broken cluster dump with a good one, then starts from it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-cluster-'));
    const cache = clusterCachePath(dir);
    fs.writeFileSync(cache, 'not a tarball');
    try {
      const first = await openMemoryStore({ site: { websiteId: 'one' } }, cache);
      expect((await first.read.getSite())?.websiteId).toBe('one');
      await first.close();
      const dumped = fs.statSync(cache);
      expect(dumped.size).toBeGreaterThan(1_000_000);

      // The second start loads the dump: migrated already, empty, seeded with its own data.
      const second = await openMemoryStore({ site: { websiteId: 'two' } }, cache);
      const applied = await second.client.query<{ id: string }>('SELECT id FROM schema_migrations ORDER BY id');
      expect(applied.map((row) => row.id)).toEqual(MIGRATIONS.map((migration) => migration.id).sort());
      expect((await second.read.getSite())?.websiteId).toBe('two');
      await second.close();
      expect(fs.statSync(cache).mtimeMs).toBe(dumped.mtimeMs);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});

describe('cluster snapshot (a new DATA_DIR without initdb)', () => {
  it('is made once, skips one whose migration was edited, starts a new data directory, and leaves a cluster alone', async () => {
    const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-snapshots-'));
    const dataDir = path.join(cache, 'data');
    try {
      // A snapshot whose 001-initial had other SQL is never copied.
      const stale = path.join(cache, 'quire-pglite-snapshot-3-0000000000000000');
      fs.mkdirSync(stale);
      fs.writeFileSync(path.join(stale, 'PG_VERSION'), '17\n');
      fs.writeFileSync(path.join(stale, 'quire-snapshot.json'), JSON.stringify({ pglite: 'any', migrations: { '001-initial': 'edited' } }));
      const older = MIGRATIONS.slice(0, 2);
      const made = await ensureClusterSnapshot(cache, older);
      expect(made).not.toBeNull();
      expect(made).not.toBe(stale);
      // Its migrations are a prefix of today's, unchanged: used as it is, the rest runs on top.
      expect(await ensureClusterSnapshot(cache, MIGRATIONS)).toBe(made);

      expect(await seedDataDirFromSnapshot(dataDir, cache)).toBe('cluster');
      expect(fs.existsSync(path.join(dataDir, 'PG_VERSION'))).toBe(true);
      expect(fs.existsSync(path.join(dataDir, 'quire-snapshot.json'))).toBe(false);
      const store = await openStore({ dataDir, seed: { site: { websiteId: 'copied' } } });
      const applied = await store.client.query<{ id: string }>('SELECT id FROM schema_migrations');
      expect(applied.map((row) => row.id).sort()).toEqual(MIGRATIONS.map((migration) => migration.id).sort());
      expect((await store.read.getSite())?.websiteId).toBe('copied');
      await store.close();

      // A data directory that holds a cluster is never overwritten.
      expect(await seedDataDirFromSnapshot(dataDir, cache)).toBe(null);
      const reopened = await openStore({ dataDir });
      expect((await reopened.read.getSite())?.websiteId).toBe('copied');
      await reopened.close();
    } finally {
      fs.rmSync(cache, { recursive: true, force: true });
    }
  }, 180_000);
});

describe('site snapshot (a new DATA_DIR of the prepared site, its catalogue synced)', () => {
  it('starts a data directory whose own sync then has nothing to do; another catalogue gets the bare cluster', async () => {
    const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-site-snapshots-'));
    const demo = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '..', '..', 'fixtures', 'sites', 'demo', 'catalog.json'), 'utf8')) as SeedData;
    const key = seedSnapshotKey(demo);
    try {
      const made = await ensureSiteSnapshot(key, (client) => syncSiteContent(client, demo), cache);
      expect(made).not.toBeNull();
      expect(await ensureSiteSnapshot(key, () => Promise.reject(new Error('made twice')), cache)).toBe(made);

      const dataDir = path.join(cache, 'site-data');
      expect(await seedDataDirFromSnapshot(dataDir, cache, key)).toBe('site');
      const results: SyncResult[] = [];
      const store = await openStore({ dataDir, seed: demo, onSync: (result) => results.push(result) });
      expect(results.map(syncSummary)).toEqual(['no changes']);
      const products = await store.read.listProducts();
      expect(products.map((product) => product.id)).toEqual((demo.products ?? []).map((product) => product.id));
      await store.close();

      // An edited catalogue has another key: the bare cluster, and its start syncs everything.
      const edited = { ...demo, products: (demo.products ?? []).slice(1) };
      expect(seedSnapshotKey(edited)).not.toBe(key);
      expect(await seedDataDirFromSnapshot(path.join(cache, 'other-data'), cache, seedSnapshotKey(edited))).toBe('cluster');
    } finally {
      fs.rmSync(cache, { recursive: true, force: true });
    }
  }, 180_000);
});
