import { describe, it } from 'vitest';
import { openMemoryStore, openStore, type SqlStore } from '../store/store.ts';
import { PG_URL, reachablePostgres, throwAwaySchema } from './postgres.ts';

export interface OpenedStore {
  store: SqlStore;
  close(): Promise<void>;
}

/**
 * Registers `suite` twice: on an in-memory PGlite store, and on PostgreSQL in a throw-away
 * schema (named `label`) when 127.0.0.1:5432 answers, else a skipped suite that says why.
 */
export async function onEachStore(title: string, label: string, suite: (name: string, open: () => Promise<OpenedStore>) => void): Promise<void> {
  suite(`${title} on PGlite`, async () => {
    const store = await openMemoryStore();
    return { store, close: () => store.close() };
  });
  const url = await reachablePostgres();
  if (url === null) {
    const name = `${title} on PostgreSQL (skipped: nothing answers at ${PG_URL})`;
    describe.skip(name, () => it('needs PostgreSQL', () => {}));
    return;
  }
  suite(`${title} on PostgreSQL`, async () => {
    const schema = await throwAwaySchema(url, label);
    const store = await openStore({ databaseUrl: schema.databaseUrl });
    return {
      store,
      close: async () => {
        await store.close();
        await schema.drop();
      },
    };
  });
}
