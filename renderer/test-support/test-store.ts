import { seedStore, type SeedData } from '../store/seed.ts';
import { openMemoryStore, openStore, type SqlStore } from '../store/store.ts';
import { throwAwaySchema } from './postgres.ts';

/**
 * With QUIRE_TEST_DATABASE_URL=postgres://… the API suites run on PostgreSQL instead, each
 * test file in a schema of its own that is dropped on close.
 */
async function openPostgresTestStore(url: string): Promise<SqlStore> {
  const schema = await throwAwaySchema(url, 'api');
  const store = await openStore({ databaseUrl: schema.databaseUrl });
  const close = store.close.bind(store);
  store.close = async () => {
    await close();
    await schema.drop();
  };
  return store;
}

/**
 * One migrated, empty in-memory database; create it once per test file. It starts from the
 * cached cluster dump (`store/cluster-cache.ts`), so only the first file of a fresh machine
 * pays for the initdb.
 */
export async function openTestStore(): Promise<SqlStore> {
  const postgresUrl = process.env.QUIRE_TEST_DATABASE_URL;
  if (postgresUrl) return openPostgresTestStore(postgresUrl);
  return openMemoryStore();
}

/** Empties the test database and loads `seed` into it. */
export async function reseed(store: SqlStore, seed: SeedData): Promise<void> {
  await store.read.truncateAll();
  await seedStore(store, seed);
}
