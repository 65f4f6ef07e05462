import http from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { applyConnectionLimits, checkingIntervalMs, limitedServerFactory, type ConnectionLimits } from './connection-limits.ts';

const LIMITS: ConnectionLimits = {
  maxConnections: 50,
  maxConnectionsPerIp: 0,
  headersTimeoutMs: 60_000,
  requestTimeoutMs: 60_000,
  keepAliveTimeoutMs: 60_000,
  connectionTimeoutMs: 0,
  maxRequestsPerSocket: 0,
};

let server: http.Server | null = null;
const sockets: net.Socket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = null;
});

async function listen(limits: ConnectionLimits): Promise<number> {
  server = limitedServerFactory(limits)((_request, response) => response.end('ok'));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return (server.address() as net.AddressInfo).port;
}

function connect(port: number, localAddress = '127.0.0.1'): Promise<{ socket: net.Socket; closed: () => boolean; data: () => string }> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port, localAddress });
    sockets.push(socket);
    let closed = false;
    let data = '';
    socket.on('error', () => {});
    socket.on('data', (chunk) => void (data += chunk.toString()));
    socket.on('close', () => void (closed = true));
    socket.once('connect', () => resolve({ socket, closed: () => closed, data: () => data }));
  });
}

/** One request on a new socket: the answer, or '' when the server closed the socket unanswered. */
async function ask(port: number, localAddress: string): Promise<string> {
  const { socket, closed, data } = await connect(port, localAddress);
  socket.write('GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  await expect.poll(closed, { timeout: 15_000 }).toBe(true);
  return data();
}

describe('connection limits', () => {
  it("leaves a request without a Host to the app, which answers it in the API shape (Node's own answer is a bare 400)", async () => {
    const port = await listen(LIMITS);
    const { socket, closed, data } = await connect(port);
    socket.write('GET / HTTP/1.1\r\nConnection: close\r\n\r\n');
    await expect.poll(closed, { timeout: 15_000 }).toBe(true);
    expect(data()).toMatch(/\r\n\r\nok$/);
  });

  it('hands a request with an unknown Expect to the app (Node alone answers a bare 417)', async () => {
    const port = await listen(LIMITS);
    const { socket, closed, data } = await connect(port);
    socket.write('GET / HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\nConnection: close\r\n\r\n');
    await expect.poll(closed, { timeout: 15_000 }).toBe(true);
    expect(data()).toMatch(/^HTTP\/1\.1 200 OK\r\n[^]*\r\n\r\nok$/);
  });

  it('sets the Node server deadlines and caps', () => {
    const plain = http.createServer();
    applyConnectionLimits(plain, { ...LIMITS, headersTimeoutMs: 2000, requestTimeoutMs: 3000, keepAliveTimeoutMs: 700, connectionTimeoutMs: 9000, maxRequestsPerSocket: 10 });
    expect(plain).toMatchObject({ maxConnections: 50, headersTimeout: 2000, requestTimeout: 3000, keepAliveTimeout: 700, timeout: 9000, maxRequestsPerSocket: 10 });
    expect((plain as unknown as { connectionsCheckingInterval: number }).connectionsCheckingInterval).toBe(500);
    expect(checkingIntervalMs({ headersTimeoutMs: 60_000 })).toBe(1000);
    expect(checkingIntervalMs({ headersTimeoutMs: 10 })).toBe(100);
  });

  it('closes a socket that sends nothing once the header deadline passes (Node alone keeps it until the inactivity timeout)', async () => {
    const port = await listen({ ...LIMITS, headersTimeoutMs: 200, requestTimeoutMs: 200 });
    const silent = await connect(port);
    const talking = await connect(port);
    talking.socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    await expect.poll(() => silent.closed(), { timeout: 15_000 }).toBe(true);
    // A socket whose first request arrived in time was answered and is not cut by this deadline.
    expect(talking.data()).toMatch(/^HTTP\/1.1 200/);
  });

  it('closes the sockets one address holds over its cap, not those of another address', async () => {
    const port = await listen({ ...LIMITS, maxConnectionsPerIp: 2 });
    const greedy = [await connect(port, '127.0.0.2'), await connect(port, '127.0.0.2'), await connect(port, '127.0.0.2'), await connect(port, '127.0.0.2')];
    await expect.poll(() => greedy.filter((s) => s.closed()).length, { timeout: 15_000 }).toBe(2);
    expect(greedy.slice(0, 2).every((s) => !s.closed())).toBe(true);
    expect(await ask(port, '127.0.0.3')).toMatch(/^HTTP\/1.1 200/);
    expect(await ask(port, '127.0.0.2')).toBe('');
    // A slot is given back when its socket closes (the server sees the close a moment later).
    greedy[0]!.socket.destroy();
    await expect.poll(() => ask(port, '127.0.0.2'), { timeout: 15_000 }).toMatch(/^HTTP\/1.1 200/);
  });
});
