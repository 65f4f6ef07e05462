// `npm start -- --workers 2` on PostgreSQL: the primary migrates and seeds once, forks two
// workers on one port, and node:cluster hands each new connection to the next worker. A
// visitor whose every request opens a new connection therefore alternates between the
// workers, and still sees one cart and one restock sign-up.
import { afterAll, describe, expect, it } from 'vitest';
import { Browser } from './browser.ts';
import { PG_URL, reachablePostgres, throwAwaySchema } from '../../renderer/test-support/postgres.ts';
import { freePort, startServer, type ServerProcess } from './server-process.ts';

const pgUrl = await reachablePostgres();
const suiteName =
  pgUrl === null
    ? `npm start --workers 2 on PostgreSQL (skipped: nothing answers at ${PG_URL} as postgres or root)`
    : 'npm start --workers 2 on PostgreSQL';

describe.skipIf(pgUrl === null)(suiteName, () => {
  let server: ServerProcess | null = null;
  let drop: () => Promise<void> = async () => {};

  afterAll(async () => {
    // SIGTERM: the primary stops its workers; a SIGKILL would orphan them.
    await server?.kill('SIGTERM');
    await drop();
  });

  it('serves one visitor consistently from both workers', async () => {
    const schema = await throwAwaySchema(pgUrl!, 'workers');
    drop = schema.drop;
    server = await startServer({
      port: await freePort(),
      // Request logs (info) carry the pid of the worker that answered.
      env: { DATABASE_URL: schema.databaseUrl, ADMIN_TOKEN: 'workers-admin', LOG_LEVEL: 'info' },
      args: ['--workers', '2'],
    });
    expect(server.output()).not.toContain('the embedded database serves one process');
    const origin = server.origin;
    const pidsAnswering = (log: string) => new Set([...log.matchAll(/^\{.*"pid":(\d+).*"msg":"request completed"/gm)].map((m) => m[1]));

    // The workers start independently and `/` answers as soon as the first one listens;
    // wait until both have answered something.
    await expect
      .poll(
        async () => {
          await Browser.at(origin).get('/sitemap.xml');
          return pidsAnswering(server!.output()).size;
        },
        { timeout: 80_000, interval: 100 },
      )
      .toBe(2);
    const mark = server.output().length;

    const visitor = Browser.at(origin);
    expect((await visitor.get('/')).status).toBe(200);
    expect(visitor.crumb).toBeDefined();
    const added = await visitor.post('/api/commerce/shopping-cart/entries', { itemId: 'cap', sku: 'CAP-1', quantity: 1, additionalFields: null });
    expect(added.status, added.text).toBe(200);
    for (let i = 0; i < 4; i++) {
      const again = await visitor.post('/api/commerce/shopping-cart/entries', { itemId: 'cap', sku: 'CAP-1', quantity: 1, additionalFields: null });
      expect(again.status, again.text).toBe(200);
      const cart = (await visitor.get('/api/commerce/shopping-cart')).json();
      expect(cart).toMatchObject({ id: visitor.cookies.get('CART'), totalQuantity: i + 2 });
    }

    const signUp = await visitor.post('/api/site-users/account/notifications/restock', {
      productId: 'tee',
      variantId: 'tee-l',
      siteVisitorEmail: 'worker@example.com',
      captchaToken: 'local-ok:demo-site-key:workers-1',
    });
    expect(signUp.status, signUp.text).toBe(200);
    const id = signUp.json<{ signUp: { id: string } }>().signUp.id;
    for (let i = 0; i < 2; i++) {
      const listed = await Browser.at(origin).get('/api/site-users/account/notifications/restock?productId=tee&variantId=tee-l', {
        authorization: 'Bearer workers-admin',
      });
      expect(listed.json()).toMatchObject({ signUps: [{ id, siteVisitorEmail: 'worker@example.com' }] });
    }
    // The visitor's requests really were spread over both workers.
    expect(pidsAnswering(server.output().slice(mark)).size).toBe(2);
  }, 240_000);
});
