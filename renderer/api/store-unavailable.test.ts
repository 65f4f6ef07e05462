import net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type SqlStore } from '../store/store.ts';
import { adminHeaders, freshHarness, json, type Harness } from '../test-support/api-harness.ts';
import { demoSeed, pageHarness, reseed, type PageHarness } from '../test-support/page-harness.ts';
import { reachablePostgres, throwAwaySchema } from '../test-support/postgres.ts';
import { isStoreUnreachable, toApiError } from './http.ts';

// A database that stops answering (down, restarting, the network) is 503 STORE_UNAVAILABLE
// with Retry-After in the shared error shape, not 500 INTERNAL "Something went wrong.": the
// owner's admin shows the server's sentence, so it now says what is wrong and to try again.
// A page is 503 with Retry-After too.

describe('isStoreUnreachable', () => {
  it.each([
    [{ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:5432' }, true],
    [{ code: 'ECONNRESET' }, true],
    [{ code: '57P01', message: 'terminating connection due to administrator command' }, true],
    [{ code: '08006' }, true],
    [new Error('Connection terminated unexpectedly'), true],
    [new Error('timeout exceeded when trying to connect'), true],
    [{ code: '23505', message: 'duplicate key value violates unique constraint' }, false],
    [new Error('boom'), false],
    [null, false],
  ])('%o -> %s', (error, unreachable) => {
    expect(isStoreUnreachable(error)).toBe(unreachable);
    expect(toApiError(error).code).toBe(unreachable ? 'STORE_UNAVAILABLE' : 'INTERNAL');
  });
});

const url = await reachablePostgres();

/** A TCP hop in front of PostgreSQL that can be cut and put back on the same port. */
function cuttableProxy(target: { host: string; port: number }) {
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;
  let port = 0;
  let up = false;
  const listen = () =>
    new Promise<void>((resolve) => {
      if (up) return resolve();
      up = true;
      server = net.createServer((client) => {
        const upstream = net.connect(target.port, target.host);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => {});
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as net.AddressInfo).port;
        resolve();
      });
    });
  return {
    listen,
    get port() {
      return port;
    },
    async cut() {
      up = false;
      await new Promise<void>((resolve) => {
        server!.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
    },
  };
}

describe.skipIf(url === null)(`the API while PostgreSQL cannot be reached${url === null ? ' (skipped: no PostgreSQL at 127.0.0.1:5432)' : ''}`, () => {
  const target = url ? new URL(url) : null;
  const proxy = cuttableProxy({ host: target?.hostname ?? '127.0.0.1', port: Number(target?.port || 5432) });
  let store: SqlStore;
  let drop: () => Promise<void>;
  let h: Harness;
  let pages: PageHarness;

  beforeAll(async () => {
    await proxy.listen();
    const viaProxy = new URL(url!);
    viaProxy.port = String(proxy.port);
    const schema = await throwAwaySchema(viaProxy.toString(), 'unreachable');
    drop = schema.drop;
    store = await openStore({ databaseUrl: schema.databaseUrl });
    h = await freshHarness(store);
  }, 60_000);

  it('a shop page is 503 with Retry-After while it is down (a crawler keeps it), and renders again once it is back', async () => {
    await reseed(store, await demoSeed());
    pages = await pageHarness(store);
    expect((await pages.inject('/shop')).statusCode).toBe(200);
    await proxy.cut();
    const down = await pages.inject('/shop');
    expect(down.statusCode).toBe(503);
    expect(down.headers['retry-after']).toBe('5');
    expect(down.body).toContain('Something went wrong');
    await proxy.listen();
    expect((await pages.inject('/shop')).statusCode).toBe(200);
    await pages.app.close();
    h = await freshHarness(store);
  });
  // A failed case must not leave the next one without its database.
  afterEach(() => proxy.listen());
  afterAll(async () => {
    await store?.close();
    await drop?.();
  });

  it('answers 503 STORE_UNAVAILABLE with Retry-After while it is down, and serves again once it is back', async () => {
    expect((await h.inject({ method: 'GET', url: '/api/commerce/orders', headers: adminHeaders() })).statusCode).toBe(200);
    await proxy.cut();
    for (const request of [
      { method: 'GET' as const, url: '/api/commerce/orders' },
      { method: 'POST' as const, url: '/api/commerce/orders/o1/status', payload: { status: 'cancelled' } },
    ]) {
      const down = await h.inject({ ...request, headers: adminHeaders() });
      expect(down.statusCode).toBe(503);
      expect(down.headers['retry-after']).toBe('5');
      expect(json(down)).toEqual({ code: 'STORE_UNAVAILABLE', error: "The store's database cannot be reached. Try again in a moment." });
    }
    await proxy.listen();
    expect((await h.inject({ method: 'GET', url: '/api/commerce/orders', headers: adminHeaders() })).statusCode).toBe(200);
  });
});
