import net from 'node:net';
import { expect, it } from 'vitest';
import { buildApp } from './app.ts';
import { openTestStore } from './test-support/test-store.ts';

// A request that reaches a closing server (sent on a connection whose request is still answered) gets the
// B0.2 body with a code and Retry-After, not Fastify's `{error, message, statusCode}` (app.ts,
// answerWhileClosing), and runs no route.

/** A raw socket: `send` writes, `received` resolves with everything read once the server closes it. */
function connection(port: number): { send: (text: string) => void; received: Promise<string> } {
  const socket = net.connect({ host: '127.0.0.1', port });
  let data = '';
  const received = new Promise<string>((resolve) => {
    socket.on('data', (chunk) => void (data += chunk.toString()));
    socket.on('error', () => {});
    socket.on('close', () => resolve(data));
  });
  return { send: (text) => void socket.write(text), received };
}

it('answers requests that arrive while the server closes with 503 SHUTTING_DOWN, in the API shape and as a plain line on pages', async () => {
  const store = await openTestStore();
  const app = await buildApp({ store, logger: false });
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let entered!: () => void;
  const started = new Promise<void>((resolve) => (entered = resolve));
  let ran = 0;
  app.get('/held', async () => {
    entered();
    await held;
    return 'first';
  });
  app.get('/api/after', async () => {
    ran += 1;
    return { ran };
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.server.address() as net.AddressInfo).port;
  try {
    const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: localhost\r\n\r\n`;
    const socket = connection(port);
    socket.send(get('/held'));
    await started;
    // The server begins to close while /held is answered; then two more requests come on its connection.
    const closed = app.close();
    // Node hands pipelined requests to the server as it parses them, before /held is answered.
    const arrived = new Promise<void>((resolve) => {
      let seen = 0;
      app.server.on('request', () => void (++seen === 2 && resolve()));
    });
    socket.send(get('/api/after') + get('/after-page'));
    await arrived;
    release();
    const text = await socket.received;
    await closed;
    const responses = text.split(/(?=HTTP\/1\.1 )/);
    expect(responses[0]).toMatch(/^HTTP\/1\.1 200/);
    expect(responses[0]).toContain('first');
    expect(responses[1]).toMatch(/^HTTP\/1\.1 503/);
    expect(responses[1]).toMatch(/retry-after: 5/i);
    expect(responses[1]).toMatch(/x-content-type-options: nosniff/i);
    expect(JSON.parse(responses[1]!.slice(responses[1]!.indexOf('\r\n\r\n') + 4))).toEqual({
      error: 'The server is restarting. Try again in a moment.',
      code: 'SHUTTING_DOWN',
    });
    // The page answer, if the socket was still open for it, is a plain line.
    if (responses[2]) {
      expect(responses[2]).toMatch(/^HTTP\/1\.1 503/);
      expect(responses[2]).toContain('text/plain');
    }
    expect(ran).toBe(0);
  } finally {
    await store.close();
  }
});
