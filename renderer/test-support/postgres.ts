// The local PostgreSQL of the suites that need a real server (the store's PostgreSQL suite,
// the end-to-end ones): 127.0.0.1:5432/test as postgres or root, QUIRE_TEST_PG_URL
// overrides; used only inside a throw-away schema so nothing else in the database is touched.
import crypto from 'node:crypto';
import pg from 'pg';

export const PG_URL = process.env.QUIRE_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** The URL that answers, or null when no server does (the suite then reports itself skipped). */
export async function reachablePostgres(): Promise<string | null> {
  for (const user of ['postgres', 'root']) {
    const url = PG_URL.replace('postgres://postgres@', `postgres://${user}@`);
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
    try {
      await client.connect();
      await client.end();
      return url;
    } catch {
      await client.end().catch(() => {});
    }
  }
  return null;
}

async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Creates a fresh schema; returns a DATABASE_URL confined to it and a drop function. */
export async function throwAwaySchema(url: string, label: string): Promise<{ databaseUrl: string; drop(): Promise<void> }> {
  const schema = `quire_${label}_${process.pid}_${crypto.randomBytes(4).toString('hex')}`;
  await adminQuery(url, `CREATE SCHEMA ${schema}`);
  const separator = url.includes('?') ? '&' : '?';
  return {
    databaseUrl: `${url}${separator}options=${encodeURIComponent(`-c search_path=${schema}`)}`,
    drop: () => adminQuery(url, `DROP SCHEMA IF EXISTS ${schema} CASCADE`),
  };
}
