import { afterAll, beforeAll } from 'vitest';
import type { SqlStore } from '../store/store.ts';
import { openTestStore } from './test-store.ts';

/**
 * Registers the hooks of a test file (or describe block) that needs one empty database of
 * its own: opened before its first test (the first open of a machine may initdb, hence the
 * long bound), closed after its last. Returns the store's getter, usable from the first
 * hook on; the tests that share it empty it themselves where they need to.
 */
export function useTestStore(): () => SqlStore {
  let store: SqlStore | undefined;
  beforeAll(async () => {
    store = await openTestStore();
  }, 60_000);
  afterAll(async () => {
    await store?.close();
  });
  return () => {
    if (!store) throw new Error('the test database opens in beforeAll');
    return store;
  };
}
