import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MIGRATIONS, migrate } from './migrations.ts';
import { StoreError, openStore, type SqlStore } from './store.ts';
import type { SeedData } from './seed.ts';
import type { Repository } from './repository.ts';
import { hashPassword, verifyPassword } from './password.ts';
import { PG_URL, reachablePostgres, throwAwaySchema } from '../test-support/postgres.ts';

const SEED: SeedData = {
  site: { websiteId: 'w1', settings: { currency: 'EUR' } },
  products: [{ id: 'p1', title: 'Tee', variants: [{ id: 'v1', sku: 'SQ-1', priceCents: 2500, qtyInStock: 5 }] }],
  forms: [{ id: 'f1', fields: [{ id: 'a', type: 'text' }] }],
  users: [{ id: 'u1', email: 'Ann@Example.com', passwordHash: 'scrypt$1$1$1$AA$AA' }],
};

/** Writes one cart with one entry in a single transaction; returns the cart id. */
async function writeCart(store: SqlStore, id: string): Promise<void> {
  await store.transaction(async (repo) => {
    await repo.createCart({ id, websiteId: 'w1', kind: 'main', ownerSiteUserId: null, created: 1, expiresAt: null });
    await repo.insertEntry(id, {
      id: `${id}-e1`,
      itemId: 'p1',
      sku: 'SQ-1',
      variantId: 'v1',
      quantity: 2,
      productType: 1,
      attributes: {},
      title: 'Tee',
      purchasePriceCents: 2500,
      additionalFields: null,
    });
  });
}

/** The behaviour both drivers must share, run against each. */
function sharedStoreChecks(getStore: () => SqlStore) {
  it('seeds the catalogue with defaults and reads it back', async () => {
    const repo: Repository = getStore().read;
    const product = await repo.getProduct('p1');
    expect(product).toMatchObject({ productType: 1, isSubscribable: false, restockEnabled: false });
    expect(product?.variants).toEqual([
      { id: 'v1', sku: 'SQ-1', attributes: {}, priceCents: 2500, salePriceCents: 0, onSale: false, qtyInStock: 5, unlimited: false },
    ]);
    expect((await repo.getSite())?.settings).toMatchObject({ currency: 'EUR', multipleQuantityAllowedForServices: true, timeZone: 'America/New_York' });
    expect((await repo.getUserByEmail('ann@example.COM'))?.id).toBe('u1');
    expect((await repo.getForm('f1'))?.storageConfigured).toBe(true);
  });

  it('rolls a failed transaction back completely', async () => {
    const store = getStore();
    await expect(
      store.transaction(async (repo) => {
        await repo.createCart({ id: 'c-rollback', websiteId: 'w1', kind: 'main', ownerSiteUserId: null, created: 1, expiresAt: null });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await store.read.getCart('c-rollback')).toBeNull();
  });

  it('keeps one pending restock sign-up per variant and email', async () => {
    const repo = getStore().read;
    const base = { productId: 'p1', variantId: 'v1', isJoinMailingList: false, createdOn: 10, notifiedOn: null };
    const first = await repo.addRestockSignUp({ ...base, id: 'r1', siteVisitorEmail: 'x@example.com' });
    const second = await repo.addRestockSignUp({ ...base, id: 'r2', siteVisitorEmail: 'X@EXAMPLE.com' });
    expect(second.id).toBe(first.id);
    await repo.markRestockNotified('p1', 'v1', 20);
    const third = await repo.addRestockSignUp({ ...base, id: 'r3', siteVisitorEmail: 'x@example.com', createdOn: 30 });
    expect(third.id).toBe('r3');
  });

  it('consumes a form key exactly once, even when raced', async () => {
    const repo = getStore().read;
    await repo.insertSubmissionKey('k-race', 100);
    const results = await Promise.all([1, 2, 3].map(() => repo.consumeSubmissionKey('k-race', 200, 0)));
    expect(results.filter(Boolean)).toHaveLength(1);
    await repo.insertSubmissionKey('k-old', 100);
    expect(await repo.consumeSubmissionKey('k-old', 200, 150)).toBe(false);
  });
}

describe('PGlite store', () => {
  let dataDir: string;
  let store: SqlStore;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-store-'));
    store = await openStore({ dataDir, seed: SEED, databaseUrl: '' });
  }, 60_000);

  afterAll(async () => {
    await store?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  sharedStoreChecks(() => store);

  it('records each migration once and skips it on the next start', async () => {
    const rows = await store.client.query<{ id: string }>('SELECT id FROM schema_migrations ORDER BY id');
    // Ids are unique, not in list order (an id is assigned per issue; each is appended when it lands).
    expect(rows.map((row) => row.id)).toEqual(MIGRATIONS.map((migration) => migration.id).sort());
    expect(await migrate(store.client)).toEqual([]);
    const extra = { id: '999-test', sql: 'CREATE TABLE probe (x integer); INSERT INTO probe VALUES (1)' };
    expect(await migrate(store.client, [...MIGRATIONS, extra])).toEqual(['999-test']);
    expect(await migrate(store.client, [...MIGRATIONS, extra])).toEqual([]);
    expect(await store.client.query('SELECT x FROM probe')).toEqual([{ x: 1 }]);
  });

  it('loses nothing acknowledged across a restart on the same data directory', async () => {
    await writeCart(store, 'c-durable');
    await store.close();
    store = await openStore({ dataDir, seed: { site: { websiteId: 'other' } }, databaseUrl: '' });
    const cart = await store.read.getCart('c-durable');
    expect(cart?.entries.map((entry) => [entry.itemId, entry.quantity])).toEqual([['p1', 2]]);
    // The seed is synced on every start (store/site-sync.ts): the site follows it, the cart stays.
    expect((await store.read.getSite())?.websiteId).toBe('other');
  }, 60_000);

  it('keeps a committed write when the process dies without closing the database', async () => {
    await store.close();
    const script = path.join(dataDir, '..', `${path.basename(dataDir)}-writer.mts`);
    const storeModule = new URL('./store.ts', import.meta.url).href;
    fs.writeFileSync(
      script,
      `import { openStore } from ${JSON.stringify(storeModule)};
       const store = await openStore({ dataDir: ${JSON.stringify(dataDir)}, databaseUrl: '' });
       await store.transaction((repo) => repo.createCart({ id: 'c-killed', websiteId: 'w1', kind: 'main',
         ownerSiteUserId: null, created: 1, expiresAt: null }));
       process.stdout.write('ACK\\n');
       setInterval(() => {}, 1000);`,
    );
    const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      await new Promise<void>((resolve, reject) => {
        // A hang guard: the writer starts tsx and PGlite, slow on a busy machine.
        const timer = setTimeout(() => reject(new Error('writer did not acknowledge')), 100_000);
        child.stdout.on('data', (chunk: Buffer) => {
          if (chunk.toString().includes('ACK')) {
            clearTimeout(timer);
            resolve();
          }
        });
        child.on('exit', () => reject(new Error('writer exited early')));
      });
    } finally {
      child.kill('SIGKILL');
      fs.rmSync(script, { force: true });
    }
    await new Promise((resolve) => child.once('exit', resolve));
    store = await openStore({ dataDir, databaseUrl: '' });
    expect((await store.read.getCart('c-killed'))?.id).toBe('c-killed');
  }, 150_000);
});

describe('start-up failures', () => {
  it('reports an unreachable database with a stable code', async () => {
    const failure = await openStore({ databaseUrl: 'postgres://nobody@127.0.0.1:1/none' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StoreError);
    expect((failure as StoreError).code).toBe('STORE_UNAVAILABLE');
  });
});

describe('password hashing', () => {
  it('verifies the right password only', async () => {
    const hash = await hashPassword('s3cret');
    expect(hash.startsWith('scrypt$')).toBe(true);
    expect(await verifyPassword('s3cret', hash)).toBe(true);
    expect(await verifyPassword('S3cret', hash)).toBe(false);
    expect(await verifyPassword('s3cret', 'garbage')).toBe(false);
    expect(await verifyPassword('s3cret', 'scrypt$0$8$1$AA$AA')).toBe(false);
  });

  it('spends a full scrypt on a hash it cannot read, as on a wrong password (a sign-in must not name such an account by its speed)', async () => {
    const hash = await hashPassword('s3cret');
    const calls: number[] = [];
    const original = crypto.scrypt;
    const spy = vi.spyOn(crypto, 'scrypt').mockImplementation(((...args: unknown[]) => {
      calls.push((args[3] as crypto.ScryptOptions).N!);
      return Reflect.apply(original, crypto, args);
    }) as typeof crypto.scrypt);
    try {
      const readable = hash.split('$');
      const unreadable = ['garbage', 'scrypt$1$1$1$AA$AA', 'scrypt$3$8$1$' + readable[4] + '$' + readable[5], '$2b$10$bcryptbcryptbcryptbcryptbcryptbcryptbcryptbcryptbcry'];
      for (const stored of [hash, ...unreadable]) {
        calls.length = 0;
        expect(await verifyPassword('wrong password', stored)).toBe(false);
        // The last (or only) scrypt is at the module's cost, N = 16384, like the wrong password's.
        expect(calls.at(-1)).toBe(16384);
      }
    } finally {
      spy.mockRestore();
    }
  });
});

// The PostgreSQL path runs against the local service when it answers, in a schema of
// its own so nothing else in the database is touched.
const pgUrl = await reachablePostgres();

const pgSuiteName =
  pgUrl === null ? `PostgreSQL store (skipped: nothing answers at ${PG_URL} as postgres or root)` : 'PostgreSQL store';

describe.skipIf(pgUrl === null)(pgSuiteName, () => {
  let schema: { databaseUrl: string; drop(): Promise<void> } | undefined;
  let store: SqlStore;

  beforeAll(async () => {
    schema = await throwAwaySchema(pgUrl!, 'test');
    store = await openStore({ databaseUrl: schema.databaseUrl, seed: SEED });
  }, 30_000);

  afterAll(async () => {
    await store?.close();
    await schema?.drop();
  });

  it('uses the postgres driver', () => {
    expect(store.kind).toBe('postgres');
  });

  sharedStoreChecks(() => store);

  it('serves the cart API from PostgreSQL', async () => {
    const { buildApp } = await import('../app.ts');
    const app = await buildApp({ store });
    const crumb = 'crumb-0123456789abcdefghijklmnop';
    const added = await app.inject({
      method: 'POST',
      url: '/api/commerce/shopping-cart/entries',
      cookies: { crumb },
      headers: { 'x-csrf-token': crumb },
      payload: { itemId: 'p1', sku: null, quantity: 2, additionalFields: null },
    });
    expect(added.statusCode).toBe(200);
    const cartId = added.cookies.find((cookie) => cookie.name === 'CART')?.value ?? '';
    const read = await app.inject({ method: 'GET', url: '/api/commerce/shopping-cart', cookies: { CART: cartId } });
    expect(JSON.parse(read.body)).toMatchObject({ id: cartId, subtotalCents: 5000, totalQuantity: 2 });
    await app.close();
  });

  it('serialises concurrent writers on one cart row', async () => {
    await writeCart(store, 'c-concurrent');
    await Promise.all(
      [1, 2, 3, 4, 5].map(() =>
        store.transaction(async (repo) => {
          const cart = await repo.getCart('c-concurrent', { lock: true });
          const entry = cart!.entries[0]!;
          await repo.updateEntryQuantity(entry.id, entry.quantity + 1, entry.purchasePriceCents);
        }),
      ),
    );
    expect((await store.read.getCart('c-concurrent'))?.entries[0]?.quantity).toBe(7);
  });
});
