import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { MIGRATIONS, migrate, type Migration } from './migrations.ts';
import { pgliteClient, type SqlClient } from './sql-client.ts';

// Creating a PGlite cluster runs initdb in WebAssembly (5–10 s, far more on a busy machine).
// Two ways around it:
// - on disk (`npm start` on a new DATA_DIR): the folder is a copy of a migrated cluster
//   snapshot kept in node_modules/.cache/quire (ensureClusterSnapshot, seedDataDirFromSnapshot);
// - in memory (author tools, test files, which start often): loading a tarball dump of a
//   migrated cluster, ~2 s, kept in the temp directory (openCachedMemoryClient).
// Both are keyed by the migrations and the PGlite build: one of another build, or of a
// migration whose SQL changed, is never used.

function pgliteVersion(): string {
  try {
    let dir = path.dirname(fileURLToPath(import.meta.resolve('@electric-sql/pglite')));
    while (!fs.existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
    return (JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version?: string }).version ?? '';
  } catch {
    return '';
  }
}

/** Bumped when what a snapshot holds changes, so an old one is never copied. */
const SNAPSHOT_FORMAT = 3;
/** A snapshot's own record (kept inside it, never copied into a data directory): the migrations it holds. */
const SNAPSHOT_META = 'quire-snapshot.json';

interface SnapshotMeta {
  pglite: string;
  /** Migration id -> SHA-256 of its SQL, for every migration applied in the snapshot. */
  migrations: Record<string, string>;
}

const sqlHash = (sql: string): string => crypto.createHash('sha256').update(sql).digest('hex');

/**
 * The folder holding the pristine cluster snapshots: node_modules/.cache/quire/ (emptied by
 * `npm ci`, which makes a new one: package.json postinstall), or the temp directory when
 * node_modules is not writable.
 */
export function snapshotCacheDir(): string {
  try {
    let dir = path.dirname(fileURLToPath(import.meta.resolve('@electric-sql/pglite')));
    while (path.basename(dir) !== 'node_modules' && path.dirname(dir) !== dir) dir = path.dirname(dir);
    if (path.basename(dir) === 'node_modules') {
      const cache = path.join(dir, '.cache', 'quire');
      fs.mkdirSync(cache, { recursive: true });
      fs.accessSync(cache, fs.constants.W_OK);
      return cache;
    }
  } catch {
    // fall through to the temp directory
  }
  return os.tmpdir();
}

function readMeta(dir: string): SnapshotMeta | null {
  try {
    if (!fs.existsSync(path.join(dir, 'PG_VERSION'))) return null;
    return JSON.parse(fs.readFileSync(path.join(dir, SNAPSHOT_META), 'utf8')) as SnapshotMeta;
  } catch {
    return null;
  }
}

/**
 * A snapshot may be copied when it comes from this PGlite build and every migration it holds
 * is still in the list with the same SQL: migrate() then applies the rest on top, as on any
 * older database. One whose migration was edited since is never used.
 */
function compatible(meta: SnapshotMeta, version: string, migrations: readonly Migration[]): boolean {
  if (meta.pglite !== version) return false;
  const current = new Map(migrations.map((m) => [m.id, sqlHash(m.sql)]));
  return Object.entries(meta.migrations).every(([id, hash]) => current.get(id) === hash);
}

/**
 * A clean, migrated PGlite cluster to start new data directories from, made once per machine
 * (initdb is 2.5–4.4 s of CPU in WebAssembly; copying the 40 MB folder is tens of ms). Its
 * catalogues have been used and vacuumed: a just-initdb'd cluster pays ~1 s more CPU on its
 * first DDL (setting hint bits), which a copy would pay again on every start. Made in a temp
 * folder and renamed into place, so a half-made snapshot is never used and starts racing to
 * make one each end up with a whole one. The folder name is keyed by the PGlite build and the
 * migrations; a snapshot of fewer, unchanged migrations is used too. Null when none can be made.
 */
function snapshotKey(version: string, migrations: readonly Migration[]): string {
  return crypto.createHash('sha256').update(JSON.stringify({ format: SNAPSHOT_FORMAT, version, migrations })).digest('hex').slice(0, 16);
}

export async function ensureClusterSnapshot(cacheDir = snapshotCacheDir(), migrations: readonly Migration[] = MIGRATIONS): Promise<string | null> {
  const version = pgliteVersion();
  const key = snapshotKey(version, migrations);
  const prefix = `quire-pglite-snapshot-${SNAPSHOT_FORMAT}-`;
  const exact = path.join(cacheDir, prefix + key);
  if (readMeta(exact)) return exact;
  let best: { dir: string; held: number } | null = null;
  try {
    for (const name of fs.readdirSync(cacheDir)) {
      if (!name.startsWith(prefix) || name.includes('.')) continue;
      const meta = readMeta(path.join(cacheDir, name));
      if (meta && compatible(meta, version, migrations) && Object.keys(meta.migrations).length > (best?.held ?? -1)) {
        best = { dir: path.join(cacheDir, name), held: Object.keys(meta.migrations).length };
      }
    }
  } catch {
    // an unreadable cache folder: make a snapshot below
  }
  if (best) return best.dir;
  const meta: SnapshotMeta = { pglite: version, migrations: Object.fromEntries(migrations.map((m) => [m.id, sqlHash(m.sql)])) };
  // null: e.g. nowhere writable, and the start runs its own initdb.
  return makeSnapshot(exact, meta, async (db) => {
    await migrate(pgliteClient(db), migrations);
  });
}

/**
 * Builds a snapshot folder at `exact`: `fill` runs on a PGlite cluster in a temp folder (empty,
 * or `from`'s copy), which is then vacuumed, shut down cleanly, given its relcache init files and
 * its record, and renamed into place, so a half-made snapshot is never used and starts racing to
 * make one each end up with a whole one. Null when it cannot be made.
 */
async function makeSnapshot(exact: string, meta: SnapshotMeta, fill: (db: PGlite) => Promise<unknown>, from?: string): Promise<string | null> {
  const temp = `${exact}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
  let db: PGlite | null = null;
  try {
    if (from) copyCluster(from, temp);
    db = await PGlite.create(temp);
    await fill(db);
    await db.exec('VACUUM FREEZE');
    await db.close(); // a clean shutdown: a copy starts without crash recovery
    db = null;
    // VACUUM of the catalogues dropped the relcache init files (pg_internal.init); a backend
    // start writes them again. With them a copy opens in ~0.6 s of CPU instead of ~0.85 s,
    // and its first queries on each table cost half as much.
    await (await PGlite.create(temp)).close();
    fs.writeFileSync(path.join(temp, SNAPSHOT_META), JSON.stringify(meta));
    try {
      fs.renameSync(temp, exact);
    } catch (error) {
      if (!readMeta(exact)) throw error; // not "another start made it first"
    }
    return exact;
  } catch {
    await db?.close().catch(() => {});
    return null;
  } finally {
    fs.rmSync(temp, { recursive: true, force: true });
  }
}

/**
 * Makes `dataDir` a cluster by copying the snapshot into it, unless it already holds one
 * (PG_VERSION, which PGlite checks to skip its initdb). PG_VERSION is copied last, so a copy
 * cut short is not taken for a cluster: the next start copies again. migrate() and the site
 * sync run on top as on any store. False (the caller's PGlite then runs initdb itself) when
 * there is no snapshot to copy.
 */
export async function seedDataDirFromSnapshot(dataDir: string, cacheDir?: string, siteKey?: string): Promise<SnapshotUsed> {
  if (fs.existsSync(path.join(dataDir, 'PG_VERSION'))) return null;
  const site = siteKey === undefined ? null : siteSnapshot(siteKey, cacheDir ?? snapshotCacheDir());
  const snapshot = site ?? (await ensureClusterSnapshot(cacheDir));
  if (!snapshot) return null;
  copyCluster(snapshot, dataDir);
  return site ? 'site' : 'cluster';
}

/** Which snapshot a new data directory was made from: the site's (its catalogue synced), the bare cluster's, or none. */
export type SnapshotUsed = 'site' | 'cluster' | null;

function copyCluster(from: string, to: string): void {
  fs.mkdirSync(to, { recursive: true });
  // Copy-on-write where the file system offers it, a plain copy elsewhere. Synchronous: the
  // ~1,100 files cost 140 ms of CPU this way, 340 ms as promises, and nothing waits meanwhile.
  const copy = { recursive: true, force: true, mode: fs.constants.COPYFILE_FICLONE };
  for (const entry of fs.readdirSync(from)) {
    if (entry !== 'PG_VERSION' && entry !== SNAPSHOT_META) fs.cpSync(path.join(from, entry), path.join(to, entry), copy);
  }
  fs.cpSync(path.join(from, 'PG_VERSION'), path.join(to, 'PG_VERSION'), copy);
}

/** Where the snapshot of one site's synced catalogue lives: keyed by the cluster snapshot's key and the seed's. */
function siteSnapshotPath(cacheDir: string, siteKey: string): string {
  return path.join(cacheDir, `quire-pglite-site-${SNAPSHOT_FORMAT}-${snapshotKey(pgliteVersion(), MIGRATIONS)}-${siteKey}`);
}

/** The site snapshot of `siteKey` when one was prepared for this PGlite build and these migrations, else null. */
function siteSnapshot(siteKey: string, cacheDir: string): string | null {
  const dir = siteSnapshotPath(cacheDir, siteKey);
  const meta = readMeta(dir);
  return meta && compatible(meta, pgliteVersion(), MIGRATIONS) && Object.keys(meta.migrations).length === MIGRATIONS.length ? dir : null;
}

/** The key of a seed for `ensureSiteSnapshot`: equal catalogues, equal keys. */
export function seedSnapshotKey(seed: unknown): string {
  return crypto.createHash('sha256').update(JSON.stringify(seed)).digest('hex').slice(0, 16);
}

/**
 * A copy of the cluster snapshot with one site's catalogue already synced (`sync`), made by
 * `--prepare` (npm ci's postinstall) for the site `npm start` serves. A new DATA_DIR of that
 * site starts from it, and the start's own sync, which always runs, finds nothing to do:
 * inserting the demo's products, variants, forms and accounts (password hashing included)
 * was ~0.5 s of CPU and ~0.9 s of wall time of every first start (bench/COLD-START-RESULTS.md,
 * phase `sync`). A catalogue edited since has another key, so its start copies the bare
 * cluster and syncs as before. Null when it cannot be made.
 */
export async function ensureSiteSnapshot(siteKey: string, sync: (client: SqlClient) => Promise<unknown>, cacheDir = snapshotCacheDir()): Promise<string | null> {
  const existing = siteSnapshot(siteKey, cacheDir);
  if (existing) return existing;
  const base = await ensureClusterSnapshot(cacheDir);
  const baseMeta = base ? readMeta(base) : null;
  if (!base || !baseMeta) return null;
  const meta: SnapshotMeta = { pglite: baseMeta.pglite, migrations: Object.fromEntries(MIGRATIONS.map((m) => [m.id, sqlHash(m.sql)])) };
  return makeSnapshot(
    siteSnapshotPath(cacheDir, siteKey),
    meta,
    async (db) => {
      const client = pgliteClient(db);
      await migrate(client);
      await sync(client);
    },
    base,
  );
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
