import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { MIGRATIONS, migrate } from '../store/migrations.ts';
import { pgliteClient } from '../store/sql-client.ts';
import pg from 'pg';
import { SqlStore, openStore } from '../store/store.ts';

// Creating a PGlite cluster runs initdb (5–10 s); loading a dump of an already migrated
// one takes about 2 s. The dump is cached in the temp directory, keyed by the migrations,
// so only the first test file of a fresh machine pays the full price.

function pgliteVersion(): string {
  try {
    const entry = fileURLToPath(import.meta.resolve('@electric-sql/pglite'));
    let dir = path.dirname(entry);
    while (!fs.existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
    return (JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version?: string }).version ?? '';
  } catch {
    return '';
  }
}

function templatePath(): string {
  const key = JSON.stringify({ migrations: MIGRATIONS, pglite: pgliteVersion() });
  const hash = crypto.createHash('sha256').update(key).digest('hex').slice(0, 16);
  return path.join(os.tmpdir(), `quire-pglite-template-${hash}.tar`);
}

async function loadTemplate(file: string): Promise<PGlite | null> {
  try {
    const bytes = fs.readFileSync(file);
    return await PGlite.create({ loadDataDir: new Blob([bytes]) });
  } catch {
    return null;
  }
}

/**
 * With QUIRE_TEST_DATABASE_URL=postgres://… the API suites run on PostgreSQL instead, each
 * test file in a schema of its own that is dropped on close.
 */
async function openPostgresTestStore(url: string): Promise<SqlStore> {
  const schema = `quire_api_${process.pid}_${crypto.randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const separator = url.includes('?') ? '&' : '?';
  const store = await openStore({ databaseUrl: `${url}${separator}options=${encodeURIComponent(`-c search_path=${schema}`)}` });
  const close = store.close.bind(store);
  store.close = async () => {
    await close();
    const cleanup = new pg.Client({ connectionString: url });
    await cleanup.connect();
    await cleanup.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await cleanup.end();
  };
  return store;
}

/** One migrated, empty in-memory database; create it once per test file. */
export async function openTestStore(): Promise<SqlStore> {
  const postgresUrl = process.env.QUIRE_TEST_DATABASE_URL;
  if (postgresUrl) return openPostgresTestStore(postgresUrl);
  const file = templatePath();
  let db = fs.existsSync(file) ? await loadTemplate(file) : null;
  if (!db) {
    db = await PGlite.create();
    await migrate(pgliteClient(db));
    const dump = await db.dumpDataDir('none');
    const temp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
    fs.writeFileSync(temp, Buffer.from(await dump.arrayBuffer()));
    fs.renameSync(temp, file);
  }
  const client = pgliteClient(db);
  await migrate(client);
  return new SqlStore(client);
}
