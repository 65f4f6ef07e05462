import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from './app.ts';
import { acceptanceSeed, START, withCrumb } from './test-support/api-harness.ts';
import { reseed } from './test-support/test-store.ts';
import { useTestStore } from './test-support/use-test-store.ts';
import { fastifyTrustProxy, parseStartArgs } from './start-options.ts';

// TRUST_PROXY and the per-IP limits (D10): behind a proxy that appends to X-Forwarded-For, a
// client writes the header's leftmost entries itself. With the settings npm start accepts
// (a hop count, `true` read as one hop, the proxies' addresses), a spoofed leading entry does
// not change the address a limit counts by; Fastify's own `true` (every hop) did.

const open = useTestStore();
let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** The app as npm start builds it for this TRUST_PROXY, with one order look-up a minute per address. */
async function appFor(trustProxyText: string): Promise<FastifyInstance> {
  await reseed(open(), await acceptanceSeed());
  const trustProxy = fastifyTrustProxy(parseStartArgs([], { TRUST_PROXY: trustProxyText }, '/repo').trustProxy);
  app = await buildApp({ store: open(), now: () => START, trustProxy, limits: { orderLookup: { limit: 1, windowMs: 60_000 } } });
  return app;
}

/** An order look-up through the proxy at 10.0.0.2, which appended the client it saw (203.0.113.7). */
const lookUp = (forwardedFor: string): InjectOptions =>
  withCrumb({ method: 'POST', url: '/api/commerce/order-status', remoteAddress: '10.0.0.2', headers: { 'x-forwarded-for': forwardedFor }, payload: { orderNumber: 9, email: 'a@example.com' } });

describe('TRUST_PROXY and the per-IP rate limits', () => {
  it.each(['1', 'true', '10.0.0.0/8', '10.0.0.2'])('TRUST_PROXY=%s: a spoofed leading X-Forwarded-For is the same client for the limit', async (setting) => {
    const server = await appFor(setting);
    expect((await server.inject(lookUp('203.0.113.7'))).statusCode).toBe(404);
    // The client wrote its own entries before the one the proxy appended: still one client.
    for (const spoofed of ['198.51.100.1, 203.0.113.7', '192.0.2.55, 198.51.100.2, 203.0.113.7']) {
      const answer = await server.inject(lookUp(spoofed));
      expect([spoofed, answer.statusCode, answer.json().code]).toEqual([spoofed, 429, 'RATE_LIMITED']);
    }
    // Another client behind the same proxy has its own count.
    expect((await server.inject(lookUp('203.0.113.8'))).statusCode).toBe(404);
  });

  it('TRUST_PROXY=2: the client is the entry the farther of two proxies appended', async () => {
    const server = await appFor('2');
    expect((await server.inject(lookUp('203.0.113.7, 10.0.0.9'))).statusCode).toBe(404);
    expect((await server.inject(lookUp('198.51.100.1, 203.0.113.7, 10.0.0.9'))).statusCode).toBe(429);
  });

  it("Fastify's own trustProxy: true (every hop) takes the leftmost entry, so each spoof was a new client: why npm start reads true as one hop", async () => {
    await reseed(open(), await acceptanceSeed());
    app = await buildApp({ store: open(), now: () => START, trustProxy: true, limits: { orderLookup: { limit: 1, windowMs: 60_000 } } });
    expect((await app.inject(lookUp('203.0.113.7'))).statusCode).toBe(404);
    expect((await app.inject(lookUp('198.51.100.1, 203.0.113.7'))).statusCode).toBe(404);
  });

  it('unset: the socket peer is the client, whatever the header says', async () => {
    const server = await appFor('');
    expect((await server.inject(lookUp('203.0.113.7'))).statusCode).toBe(404);
    expect((await server.inject(lookUp('203.0.113.8'))).statusCode).toBe(429);
  });
});
