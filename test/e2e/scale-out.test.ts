// Renderer processes keep no visitor state: carts, sessions, restock sign-ups and crumbs
// live in the database or in the visitor's cookies. Two app instances, each with its own
// connection pool, share one PostgreSQL database, and a visitor whose requests alternate
// between them (a load balancer without stickiness) sees one consistent store.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../renderer/app.ts';
import { hashPassword } from '../../renderer/store/password.ts';
import type { SeedData } from '../../renderer/store/seed.ts';
import { openStore, type SqlStore } from '../../renderer/store/store.ts';
import { Browser } from './browser.ts';
import { PG_URL, reachablePostgres, throwAwaySchema } from '../../renderer/test-support/postgres.ts';

const ADMIN_TOKEN = 'scale-out-admin-token';
const PASSWORD = 'two servers, one database';

async function seed(): Promise<SeedData> {
  return {
    site: { websiteId: 'scale-site', settings: { currency: 'USD' } },
    products: [
      { id: 'mug', title: 'Enamel Mug', variants: [{ id: 'mug-1', sku: 'MUG-1', priceCents: 1800, qtyInStock: 10 }] },
      {
        id: 'vinyl',
        title: 'Rare Vinyl',
        restockEnabled: true,
        variants: [{ id: 'vinyl-1', sku: 'VY-1', priceCents: 3000, qtyInStock: 0 }],
      },
    ],
    users: [{ id: 'ann', email: 'ann@example.com', passwordHash: await hashPassword(PASSWORD) }],
  };
}

const pgUrl = await reachablePostgres();
const suiteName =
  pgUrl === null
    ? `two app instances on one PostgreSQL (skipped: nothing answers at ${PG_URL} as postgres or root)`
    : 'two app instances on one PostgreSQL';

describe.skipIf(pgUrl === null)(suiteName, () => {
  const stores: SqlStore[] = [];
  const apps: FastifyInstance[] = [];
  const origins: string[] = [];
  let drop: () => Promise<void> = async () => {};

  beforeAll(async () => {
    const schema = await throwAwaySchema(pgUrl!, 'scale');
    drop = schema.drop;
    const data = await seed();
    // Both instances start at once, as N workers would: migrations and the seed must
    // tolerate the race (advisory lock, seed only when no site row exists).
    stores.push(...(await Promise.all([1, 2].map(() => openStore({ databaseUrl: schema.databaseUrl, seed: data })))));
    for (const store of stores) {
      const app = await buildApp({ store, adminToken: ADMIN_TOKEN });
      await app.listen({ host: '127.0.0.1', port: 0 });
      const address = app.server.address();
      if (address === null || typeof address === 'string') throw new Error('no TCP address');
      apps.push(app);
      origins.push(`http://127.0.0.1:${address.port}`);
    }
  }, 60_000);

  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const store of stores) await store.close();
    await drop();
  });

  it('the instances are separate servers with separate pools', () => {
    expect(new Set(origins).size).toBe(2);
    expect(stores[0]).not.toBe(stores[1]);
    expect(stores.every((store) => store.kind === 'postgres')).toBe(true);
  });

  it('a crumb issued by one instance is accepted by the other', async () => {
    const [a, b] = [Browser.at(origins[0]!), Browser.at(origins[1]!)];
    const refused = await a.post('/api/commerce/shopping-cart/entries', { itemId: 'mug', sku: 'MUG-1', quantity: 1, additionalFields: null });
    expect(refused.status).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'CRUMB_FAIL' });
    expect(a.crumb).toMatch(/^[A-Za-z0-9_-]{16,64}$/);
    for (const [name, value] of a.cookies) b.cookies.set(name, value);
    const accepted = await b.post('/api/commerce/shopping-cart/entries', { itemId: 'mug', sku: 'MUG-1', quantity: 1, additionalFields: null });
    expect(accepted.status).toBe(200);
  });

  it('a cart written through one instance is read and extended through the other', async () => {
    const visitor = Browser.roundRobin(origins);
    await visitor.post('/api/commerce/shopping-cart/entries', {}); // 403: picks up a crumb
    expect(visitor.crumb).toBeDefined();

    const added = await visitor.post('/api/commerce/shopping-cart/entries', { itemId: 'mug', sku: 'MUG-1', quantity: 2, additionalFields: null });
    expect(added.status).toBe(200);
    const cartId = visitor.cookies.get('CART');
    expect(cartId).toBeTruthy();

    const readElsewhere = await visitor.get('/api/commerce/shopping-cart');
    expect(readElsewhere.json()).toMatchObject({ id: cartId, totalQuantity: 2, subtotalCents: 3600 });

    const again = await visitor.post('/api/commerce/shopping-cart/entries', { itemId: 'mug', sku: 'MUG-1', quantity: 1, additionalFields: null });
    expect(again.status).toBe(200);
    for (const origin of origins) {
      const cart = (await Browser.at(origin).get('/api/commerce/shopping-cart', { cookie: `CART=${cartId}` })).json();
      expect(cart).toMatchObject({ id: cartId, totalQuantity: 3, subtotalCents: 5400 });
    }
  });

  it('a restock sign-up made through one instance is listed by the other', async () => {
    const visitor = Browser.at(origins[0]!);
    await visitor.post('/api/commerce/shopping-cart/entries', {});
    const signUp = await visitor.post('/api/site-users/account/notifications/restock', {
      productId: 'vinyl',
      variantId: 'vinyl-1',
      siteVisitorEmail: 'fan@example.com',
      isJoinMailingList: false,
    });
    expect(signUp.status).toBe(200);
    const { signUp: made } = signUp.json<{ signUp: { id: string } }>();

    const admin = Browser.at(origins[1]!);
    const listed = await admin.get('/api/site-users/account/notifications/restock?productId=vinyl&variantId=vinyl-1', {
      authorization: `Bearer ${ADMIN_TOKEN}`,
    });
    expect(listed.status).toBe(200);
    expect(listed.json()).toMatchObject({ signUps: [{ id: made.id, siteVisitorEmail: 'fan@example.com', notifiedOn: null }] });

    // The pending sign-up is unique across instances: repeating it on the other one
    // returns the same row instead of a duplicate.
    const other = Browser.at(origins[1]!);
    for (const [name, value] of visitor.cookies) other.cookies.set(name, value);
    const repeated = await other.post('/api/site-users/account/notifications/restock', {
      productId: 'vinyl',
      variantId: 'vinyl-1',
      siteVisitorEmail: 'FAN@example.com',
    });
    expect(repeated.json()).toMatchObject({ signUp: { id: made.id } });
  });

  it('a session opened on one instance is honoured by the other', async () => {
    const visitor = Browser.roundRobin(origins);
    await visitor.post('/api/commerce/shopping-cart/entries', {});
    await visitor.post('/api/commerce/shopping-cart/entries', { itemId: 'mug', sku: 'MUG-1', quantity: 1, additionalFields: null });
    const anonymousCart = visitor.cookies.get('CART');
    expect(anonymousCart).toBeTruthy();

    const signedIn = await visitor.post('/api/site-users/account/session', { email: 'ann@example.com', password: PASSWORD });
    expect(signedIn.status).toBe(200);
    expect(visitor.cookies.has('SiteUserSecureAuthToken')).toBe(true);
    expect(visitor.cookies.has('CART')).toBe(false); // the cart now belongs to the user

    const asUser = await visitor.get('/api/commerce/shopping-cart');
    expect(asUser.json()).toMatchObject({ id: anonymousCart, totalQuantity: 1 });

    const signedOut = await visitor.request('DELETE', '/api/site-users/account/session?cloneCart=false');
    expect(signedOut.status).toBe(200);
    expect((await visitor.get('/api/commerce/shopping-cart')).json()).toMatchObject({ id: null });
  });

  it('rate limits are shared: sign-in failures counted by one instance refuse on the other', async () => {
    // Round robin, as a load balancer without stickiness would spread one client's tries.
    const visitor = Browser.roundRobin(origins);
    await visitor.post('/api/commerce/shopping-cart/entries', {}); // 403: picks up a crumb
    const attempt = () => visitor.post('/api/site-users/account/session', { email: 'nobody@example.com', password: 'guess' });
    const statuses = [];
    for (let i = 0; i < 7; i++) statuses.push((await attempt()).status);
    // Five failures per email in 15 minutes (D10), counted once across both instances.
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
    // The counters live in the shared database, as digests of the email.
    const rows = await stores[0]!.client.query("SELECT key, hits FROM rate_limit_counters WHERE key LIKE 'loginFailures:%'");
    expect(rows.map((row) => Number(row.hits))).toEqual([5]);
    expect(JSON.stringify(rows)).not.toContain('nobody');
  });
});
