import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { reachablePostgres, throwAwaySchema } from '../test-support/postgres.ts';
import { MIGRATIONS } from './migrations.ts';
import type { SeedData } from './seed.ts';
import { stockAfterSync, SYNC_BATCH_ROWS, syncSiteContent, syncSummary, type SyncResult } from './site-sync.ts';
import type { Queryable, SqlClient } from './sql-client.ts';
import { openMemoryStore, openStore, type SqlStore } from './store.ts';

const seed = (): SeedData => ({
  site: { websiteId: 'w1', settings: { currency: 'USD' } },
  products: [
    { id: 'tee', title: 'Tee', variants: [{ id: 'tee-s', sku: 'TEE-S', priceCents: 2500, qtyInStock: 5 }, { id: 'tee-m', sku: 'TEE-M', priceCents: 2500, qtyInStock: 3 }] },
    { id: 'mug', title: 'Mug', variants: [{ id: 'mug-1', sku: 'MUG', priceCents: 1200, qtyInStock: 10 }] },
    { id: 'cap', title: 'Cap', variants: [{ id: 'cap-1', sku: 'CAP', priceCents: 1500, qtyInStock: 2 }] },
  ],
  forms: [{ id: 'contact', name: 'Contact' }],
  users: [{ id: 'u1', email: 'ann@example.com', passwordHash: 'scrypt$fixed' }],
});

async function visitorActivity(store: SqlStore): Promise<void> {
  await store.transaction(async (repo) => {
    await repo.createCart({ id: 'cart-1', websiteId: 'w1', kind: 'main', ownerSiteUserId: null, created: 1, expiresAt: null });
    await repo.insertEntry('cart-1', {
      id: 'cart-1-e1', itemId: 'cap', sku: 'CAP', variantId: 'cap-1', quantity: 1, productType: 1,
      attributes: {}, title: 'Cap', purchasePriceCents: 1500, additionalFields: null,
    });
    await repo.addRestockSignUp({ id: 'r1', productId: 'cap', variantId: 'cap-1', siteVisitorEmail: 'bo@example.com', isJoinMailingList: false, createdOn: 1, notifiedOn: null });
    // A visitor bought two small tees.
    await repo.updateVariantStock('tee', 'tee-s', { qtyInStock: 3 });
  });
}

/** `client`, counting the statements run through it and its transactions. */
function countingClient(client: SqlClient): { client: SqlClient; statements: () => number } {
  let statements = 0;
  const counting = (q: Queryable): Queryable => ({
    query: (sql, params) => {
      statements++;
      return q.query(sql, params);
    },
  });
  return {
    client: { ...client, ...counting(client), transaction: (work) => client.transaction((tx) => work(counting(tx))) } as SqlClient,
    statements: () => statements,
  };
}

/** The behaviour both drivers share. */
function syncChecks(open: () => Promise<{ store: SqlStore; close(): Promise<void> }>) {
  it('imports an empty store, then reports no changes for the same folder', async () => {
    const { store, close } = await open();
    try {
      const first = await syncSiteContent(store.client, seed());
      expect(syncSummary(first)).toBe('3 products added; 1 form added; site settings added; 1 account added');
      expect(syncSummary(await syncSiteContent(store.client, seed()))).toBe('no changes');
    } finally {
      await close();
    }
  });

  it('applies edited prices and titles, hides a removed product, keeps carts, sign-ups and purchases', async () => {
    const { store, close } = await open();
    try {
      await syncSiteContent(store.client, seed());
      await visitorActivity(store);
      const edited = seed();
      edited.products![0]!.title = 'Classic Tee';
      edited.products![1]!.variants[0]!.priceCents = 1400;
      edited.products = edited.products!.filter((product) => product.id !== 'cap');
      const result = await syncSiteContent(store.client, edited);
      expect(syncSummary(result)).toBe('2 products changed, 1 hidden');

      const tee = await store.read.getProduct('tee');
      expect(tee?.title).toBe('Classic Tee');
      // Same folder count as imported: the visitor's purchase is not undone.
      expect(tee?.variants[0]?.qtyInStock).toBe(3);
      expect((await store.read.getProduct('mug'))?.variants[0]?.priceCents).toBe(1400);
      // Hidden: not listed, not found, but the cart and the sign-up that name it stay.
      expect(await store.read.getProduct('cap')).toBeNull();
      expect((await store.read.listProducts()).map((product) => product.id)).toEqual(['tee', 'mug']);
      expect((await store.read.getCart('cart-1'))?.entries.map((entry) => entry.itemId)).toEqual(['cap']);
      expect((await store.read.listAllRestockSignUps()).map((signUp) => signUp.id)).toEqual(['r1']);

      expect(syncSummary(await syncSiteContent(store.client, edited))).toBe('no changes');
      // Back in the folder: shown again, with the stock it had.
      expect(syncSummary(await syncSiteContent(store.client, seed()))).toBe('2 products changed, 1 shown again');
      expect((await store.read.getProduct('cap'))?.variants[0]?.qtyInStock).toBe(2);
    } finally {
      await close();
    }
  });

  it('sets the live stock only when the folder count changed since the last import', async () => {
    const { store, close } = await open();
    try {
      await syncSiteContent(store.client, seed());
      await visitorActivity(store);
      const restocked = seed();
      restocked.products![0]!.variants[0]!.qtyInStock = 20;
      expect(syncSummary(await syncSiteContent(store.client, restocked))).toBe('1 product changed; stock of 1 variant set from the folder');
      expect((await store.read.getProduct('tee'))?.variants.map((variant) => variant.qtyInStock)).toEqual([20, 3]);
      // A sale after the restock survives the next start with the same folder.
      await store.transaction((repo) => repo.updateVariantStock('tee', 'tee-s', { qtyInStock: 19 }));
      expect(syncSummary(await syncSiteContent(store.client, restocked))).toBe('no changes');
      expect((await store.read.getProduct('tee'))?.variants[0]?.qtyInStock).toBe(19);
    } finally {
      await close();
    }
  });

  it('hides a removed variant and form, and never overwrites an account', async () => {
    const { store, close } = await open();
    try {
      await syncSiteContent(store.client, seed());
      await store.client.query(`UPDATE site_users SET locale = 'fr-FR' WHERE id = 'u1'`);
      const edited = seed();
      edited.products![0]!.variants.pop();
      edited.forms = [];
      edited.users![0]!.locale = 'de-DE';
      expect(syncSummary(await syncSiteContent(store.client, edited))).toBe('1 product changed; 1 form hidden');
      expect((await store.read.getProduct('tee'))?.variants.map((variant) => variant.id)).toEqual(['tee-s']);
      expect(await store.read.getForm('contact')).toBeNull();
      expect((await store.read.getUser('u1'))?.locale).toBe('fr-FR');
    } finally {
      await close();
    }
  });

  it('reports a removal without counting the products after it, and a real reorder once', async () => {
    const { store, close } = await open();
    try {
      await syncSiteContent(store.client, seed());
      const removed = seed();
      removed.products!.shift();
      expect(syncSummary(await syncSiteContent(store.client, removed))).toBe('1 product hidden');
      expect(syncSummary(await syncSiteContent(store.client, removed))).toBe('no changes');
      const reordered = seed();
      reordered.products!.reverse();
      expect(syncSummary(await syncSiteContent(store.client, reordered))).toBe('1 product shown again; product order changed');
      expect((await store.read.listProducts()).map((product) => product.id)).toEqual(['cap', 'mug', 'tee']);
      expect(syncSummary(await syncSiteContent(store.client, reordered))).toBe('no changes');
    } finally {
      await close();
    }
  });

  it('writes a large catalogue in batches: statements do not grow with its rows', async () => {
    const { store, close } = await open();
    try {
      // 60 products of 45 variants: 2,700 variant rows, three batches of SYNC_BATCH_ROWS.
      const big = (price: number, keep: (index: number) => boolean): SeedData => ({
        site: { websiteId: 'w1' },
        products: Array.from({ length: 60 }, (_, p) => ({
          id: `p${p}`,
          title: `P ${p}`,
          subscriptionPlan: p === 0 ? { interval: 'month' } : undefined,
          variants: Array.from({ length: 45 }, (_, v) => ({ id: `v${v}`, sku: `S${p}-${v}`, priceCents: price + v, qtyInStock: v, attributes: { Size: `${v}` } })),
        })).filter((_, index) => keep(index)),
        orders: Array.from({ length: 1500 }, (_, o) => ({ id: `o${o}` })),
      });
      const counted = countingClient(store.client);
      expect(syncSummary(await syncSiteContent(counted.client, big(100, () => true)))).toBe('60 products added; site settings added; 1500 orders added');
      // Rows one at a time: 4,260 statements.
      expect(SYNC_BATCH_ROWS * 3).toBeLessThan(60 * 45 + 1500);
      expect(counted.statements()).toBeLessThan(20);
      const p59 = await store.read.getProduct('p59');
      expect(p59?.variants.map((variant) => [variant.id, variant.priceCents, variant.qtyInStock])).toEqual(Array.from({ length: 45 }, (_, v) => [`v${v}`, 100 + v, v]));
      expect(p59?.variants[44]?.attributes).toEqual({ Size: '44' });
      expect((await store.read.getProduct('p0'))?.subscriptionPlan).toEqual({ interval: 'month' });
      expect((await store.read.getProduct('p1'))?.subscriptionPlan).toBeNull();

      // Every price changed, every other product removed.
      const before = counted.statements();
      expect(syncSummary(await syncSiteContent(counted.client, big(200, (index) => index % 2 === 0)))).toBe('30 products changed, 30 hidden');
      expect(counted.statements() - before).toBeLessThan(20);
      expect((await store.read.listProducts()).map((product) => product.id)).toEqual(Array.from({ length: 30 }, (_, index) => `p${index * 2}`));
      expect((await store.read.getProduct('p58'))?.variants[3]?.priceCents).toBe(203);
      expect(await store.read.getProduct('p59')).toBeNull();
      expect(syncSummary(await syncSiteContent(store.client, big(200, (index) => index % 2 === 0)))).toBe('no changes');
    } finally {
      await close();
    }
  });

  it('applies the folder once when instances sync at the same time', async () => {
    const { store, close } = await open();
    try {
      await syncSiteContent(store.client, seed());
      const edited = seed();
      edited.products![0]!.title = 'Classic Tee';
      const results = await Promise.all([1, 2, 3].map(() => syncSiteContent(store.client, edited)));
      expect(results.map(syncSummary).sort()).toEqual(['1 product changed', 'no changes', 'no changes']);
    } finally {
      await close();
    }
  });
}

describe('site content sync (PGlite)', () => {
  syncChecks(async () => {
    const store = await openMemoryStore();
    return { store, close: () => store.close() };
  });

  it('adopts the folder count as the baseline for rows imported before migration 004, keeping the live count', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-sync-'));
    try {
      // A store seeded before the sync existed: imported counts unknown, a visitor bought one.
      const store = await openStore({ dataDir: dir });
      await syncSiteContent(store.client, seed());
      await store.client.query('UPDATE variants SET imported_qty = NULL, imported_unlimited = NULL, qty_in_stock = 1 WHERE id = $1', ['mug-1']);
      expect(syncSummary(await syncSiteContent(store.client, seed()))).toBe('no changes');
      expect((await store.read.getProduct('mug'))?.variants[0]?.qtyInStock).toBe(1);
      const rows = await store.client.query('SELECT imported_qty FROM variants WHERE id = $1', ['mug-1']);
      expect(Number(rows[0]!.imported_qty)).toBe(10);
      await store.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('syncs on open and tells the caller what changed (a restart on the same data folder)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-sync-'));
    try {
      const seen: SyncResult[] = [];
      const first = await openStore({ dataDir: dir, seed: seed(), onSync: (result) => seen.push(result) });
      await visitorActivity(first);
      await first.close();
      const edited = seed();
      edited.products![1]!.variants[0]!.priceCents = 1400;
      const second = await openStore({ dataDir: dir, seed: edited, onSync: (result) => seen.push(result) });
      expect(seen.map(syncSummary)).toEqual(['3 products added; 1 form added; site settings added; 1 account added', '1 product changed']);
      expect((await second.read.getProduct('mug'))?.variants[0]?.priceCents).toBe(1400);
      expect(await second.read.getCart('cart-1')).not.toBeNull();
      await second.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

const pgUrl = await reachablePostgres();
describe.skipIf(pgUrl === null)(pgUrl === null ? 'site content sync (PostgreSQL: no server at 127.0.0.1:5432, skipped)' : 'site content sync (PostgreSQL)', () => {
  const drops: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const drop of drops) await drop();
  });
  syncChecks(async () => {
    const schema = await throwAwaySchema(pgUrl!, 'sync');
    drops.push(schema.drop);
    const store = await openStore({ databaseUrl: schema.databaseUrl });
    return { store, close: () => store.close() };
  });
});

describe('stock rule', () => {
  it('keeps the live count unless the folder count changed since the import', () => {
    expect(stockAfterSync({ qty: 3, unlimited: false }, { qty: 5, unlimited: false }, { qty: 5, unlimited: false })).toEqual({ qty: 3, unlimited: false, applied: false });
    expect(stockAfterSync({ qty: 3, unlimited: false }, { qty: 5, unlimited: false }, { qty: 20, unlimited: false })).toEqual({ qty: 20, unlimited: false, applied: true });
    expect(stockAfterSync({ qty: 3, unlimited: false }, { qty: null, unlimited: null }, { qty: 20, unlimited: true })).toEqual({ qty: 3, unlimited: false, applied: false });
    expect(stockAfterSync({ qty: 3, unlimited: false }, { qty: 5, unlimited: false }, { qty: 5, unlimited: true })).toEqual({ qty: 3, unlimited: true, applied: true });
  });

  it('has a migration for the sync columns', () => {
    expect(MIGRATIONS.some((migration) => migration.id === '004-site-content-sync')).toBe(true);
  });
});
