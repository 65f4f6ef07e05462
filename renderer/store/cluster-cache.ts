import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { MIGRATIONS, migrate } from './migrations.ts';
import { pgliteClient, type SqlClient } from './sql-client.ts';

// Creating a PGlite cluster runs initdb in WebAssembly (5–10 s, far more on a busy machine);
// loading a dump of an already migrated one takes about 2 s. In-memory stores (author tools,
// test files) start often, so the dump is kept in the temp directory, keyed by the migrations
// and the PGlite build: a dump of other migrations or another build is never loaded.

function pgliteVersion(): string {
  try {
    let dir = path.dirname(fileURLToPath(import.meta.resolve('@electric-sql/pglite')));
    while (!fs.existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
    return (JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version?: string }).version ?? '';
  } catch {
    return '';
  }
}

export function clusterCachePath(tmp = os.tmpdir()): string {
  const key = JSON.stringify({ migrations: MIGRATIONS, pglite: pgliteVersion() });
  return path.join(tmp, `quire-pglite-cluster-${crypto.createHash('sha256').update(key).digest('hex').slice(0, 16)}.tar`);
}

async function fromDump(file: string): Promise<PGlite | null> {
  try {
    return await PGlite.create({ loadDataDir: new Blob([fs.readFileSync(file)]) });
  } catch {
    return null; // missing, partial or from another build: start from scratch
  }
}

/**
 * An in-memory PGlite client holding every migration: loaded from the dump in `cacheFile`,
 * or created, migrated and dumped there for the next start. Migrations still have to run
 * on it (a no-op on a dump of the same key).
 */
export async function openCachedMemoryClient(cacheFile = clusterCachePath()): Promise<SqlClient> {
  const cached = await fromDump(cacheFile);
  if (cached) return pgliteClient(cached);
  const db = await PGlite.create();
  await migrate(pgliteClient(db));
  try {
    const dump = await db.dumpDataDir('none');
    const temp = `${cacheFile}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
    fs.writeFileSync(temp, Buffer.from(await dump.arrayBuffer()));
    fs.renameSync(temp, cacheFile); // atomic: concurrent starts never read half a dump
  } catch {
    // A read-only temp directory only costs the next start its initdb.
  }
  return pgliteClient(db);
}
