import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { openTestStore } from './test-support/test-store.ts';
import type { SqlStore } from './store/store.ts';

// Requests Node's HTTP parser refuses never reach Fastify's routes or hooks; they get the API's
// error shape and the security headers all the same (app.ts, `clientError`). Those Node would
// answer itself with a bare status (no Host, an Expect it does not know) reach the app instead.
let app: FastifyInstance;
let store: SqlStore;
let port: number;

beforeAll(async () => {
  store = await openTestStore();
  app = await buildApp({ store, logger: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  port = (app.server.address() as net.AddressInfo).port;
});

afterAll(async () => {
  await app.close();
  await store.close();
});

/** The raw answer to `request`, sent on a new socket. */
function raw(request: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    let data = '';
    socket.on('data', (chunk) => void (data += chunk.toString()));
    socket.on('error', () => {});
    socket.on('close', () => resolve(data));
    socket.write(request);
  });
}

describe('requests the HTTP parser refuses', () => {
  it('answers headers too large with 431 in the API shape, and a malformed request with 400', async () => {
    const big = await raw(`GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(big.split('\r\n')[0]).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(big).toMatch(/\r\nx-content-type-options: nosniff\r\n/);
    expect(JSON.parse(big.slice(big.indexOf('\r\n\r\n') + 4))).toEqual({ error: 'Request headers are too large.', code: 'HEADERS_TOO_LARGE' });
    const malformed = await raw('GET / HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n');
    expect(malformed.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
    expect(JSON.parse(malformed.slice(malformed.indexOf('\r\n\r\n') + 4))).toEqual({ error: 'Bad request.', code: 'BAD_REQUEST' });
  });

  it('answers an HTTP/1.1 request without a Host, or one with two, with 400 in the API shape (RFC 9112 3.2)', async () => {
    for (const request of ['GET / HTTP/1.1\r\nConnection: close\r\n\r\n', 'GET /api/commerce/shopping-cart HTTP/1.1\r\nHost: x\r\nHost: evil.example\r\nConnection: close\r\n\r\n']) {
      const answer = await raw(request);
      expect(answer.split('\r\n')[0], request).toBe('HTTP/1.1 400 Bad Request');
      expect(answer, request).toMatch(/\r\nx-content-type-options: nosniff\r\n/);
      expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)), request).toEqual({ error: 'Invalid Host header.', code: 'BAD_REQUEST' });
    }
    // HTTP/1.0 has no Host requirement, and one Host is the everyday request.
    expect((await raw('GET /favicon.ico HTTP/1.0\r\n\r\n')).split('\r\n')[0]).toBe('HTTP/1.1 204 No Content');
    expect((await raw('GET /favicon.ico HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).split('\r\n')[0]).toBe('HTTP/1.1 204 No Content');
  });

  it('serves a request whose Expect names something other than 100-continue (RFC 9110 10.1.1 allows it), where Node answered a bare 417', async () => {
    const answer = await raw('GET /favicon.ico HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\nConnection: close\r\n\r\n');
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 204 No Content');
    expect(answer).toMatch(/\r\nx-content-type-options: nosniff\r\n/);
    const api = await raw('GET /api/nope HTTP/1.1\r\nHost: x\r\nExpect: x\r\nConnection: close\r\n\r\n');
    expect(JSON.parse(api.slice(api.indexOf('\r\n\r\n') + 4)).code).toBe('NOT_FOUND');
  });
});
