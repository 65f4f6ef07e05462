import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

/**
 * The one seam between the repository and a database driver. Both drivers speak the
 * PostgreSQL dialect, so the repository's SQL is written once and runs on either.
 */
export interface Queryable {
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<Row[]>;
}

export interface SqlClient extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
}

export async function openPgliteClient(dataDir: string | undefined): Promise<SqlClient> {
  const db = dataDir === undefined ? await PGlite.create() : await PGlite.create(dataDir);
  return pgliteClient(db);
}

export function pgliteClient(db: PGlite): SqlClient {
  return {
    kind: 'pglite',
    async query<Row>(sql: string, params: readonly unknown[] = []): Promise<Row[]> {
      const result = await db.query<Row>(sql, params as unknown[]);
      return result.rows;
    },
    // PGlite has a single connection; its transaction() holds that connection's lock, so
    // concurrent requests queue instead of interleaving statements.
    transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
      return db.transaction(async (tx) =>
        work({
          async query<Row>(sql: string, params: readonly unknown[] = []): Promise<Row[]> {
            const result = await tx.query<Row>(sql, params as unknown[]);
            return result.rows;
          },
        }),
      );
    },
    async exec(sql: string): Promise<void> {
      await db.exec(sql);
    },
    async close(): Promise<void> {
      if (!db.closed) await db.close();
    },
  };
}

export async function openPostgresClient(connectionString: string): Promise<SqlClient> {
  const pool = new pg.Pool({ connectionString, max: 10, connectionTimeoutMillis: 5000 });
  // An idle client losing its connection must not crash the process.
  pool.on('error', () => {});
  // Fail now, with the driver's message, rather than on the first request.
  const probe = await pool.connect();
  probe.release();
  return {
    kind: 'postgres',
    async query<Row>(sql: string, params: readonly unknown[] = []): Promise<Row[]> {
      const result = await pool.query(sql, params as unknown[]);
      return result.rows as Row[];
    },
    async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const value = await work({
          async query<Row>(sql: string, params: readonly unknown[] = []): Promise<Row[]> {
            const result = await client.query(sql, params as unknown[]);
            return result.rows as Row[];
          },
        });
        await client.query('COMMIT');
        return value;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    async exec(sql: string): Promise<void> {
      await pool.query(sql);
    },
    async close(): Promise<void> {
      await pool.end();
    },
  };
}
