import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { clusterCachePath } from './cluster-cache.ts';
import { MIGRATIONS } from './migrations.ts';
import { openMemoryStore } from './store.ts';

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
  }, 90_000);
});
