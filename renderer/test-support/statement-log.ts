import { vi } from 'vitest';
import type { SqlClient } from '../store/sql-client.ts';

/**
 * Records every statement `client` runs, in and out of transactions ('BEGIN' for each
 * transaction), so a test can compare the store work two requests did before their answers.
 * With `gate`, a transaction waits for the promise `gate()` returns when it starts: a handler
 * that awaited one before answering would never answer. `vi.restoreAllMocks()` ends it.
 */
export function recordStatements(client: SqlClient, gate?: () => Promise<void>): string[] {
  const statements: string[] = [];
  const query = client.query.bind(client);
  const transaction = client.transaction.bind(client);
  vi.spyOn(client, 'query').mockImplementation((sql, params) => (statements.push(sql), query(sql, params)));
  vi.spyOn(client, 'transaction').mockImplementation(async (work) => {
    statements.push('BEGIN');
    if (gate) await gate();
    return transaction((tx) => work({ query: (sql, params) => (statements.push(sql), tx.query(sql, params)) }));
  });
  return statements;
}
