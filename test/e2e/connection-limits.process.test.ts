// Finding 4 of issue 13: clients holding thousands of idle sockets ran the server out of file
// descriptors and every other visitor's connection was reset. `npm start` now caps the sockets
// per peer address (MAX_CONNECTIONS_PER_IP) and in all (MAX_CONNECTIONS); sockets over a cap
// are closed as they arrive. Small caps keep the test cheap; every wait is for a state.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Browser } from './browser.ts';
import { freePort, startServer, type ServerProcess } from './server-process.ts';

const MAX_CONNECTIONS = 12;
const PER_IP = 4;

interface HeldSocket {
  socket: net.Socket;
  closed: boolean;
}

/** Opens a silent socket from `localAddress` (any 127.x address is this machine's loopback). */
function openSilent(port: number, localAddress: string): Promise<HeldSocket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port, localAddress });
    const held: HeldSocket = { socket, closed: false };
    socket.on('error', () => {});
    socket.on('close', () => void (held.closed = true));
    socket.once('connect', () => resolve(held));
    socket.once('error', reject);
  });
}

const closedCount = (sockets: HeldSocket[]) => sockets.filter((s) => s.closed).length;

describe('connection caps of npm start', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-conn-'));
  let server: ServerProcess | null = null;
  const flood: HeldSocket[] = [];

  afterAll(async () => {
    for (const held of flood) held.socket.destroy();
    await server?.kill('SIGTERM');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses sockets over the per-address and total caps at once, keeps answering others, and serves again once they go', async () => {
    const port = await freePort();
    server = await startServer({
      port,
      env: {
        DATA_DIR: dataDir,
        MAX_CONNECTIONS: String(MAX_CONNECTIONS),
        MAX_CONNECTIONS_PER_IP: String(PER_IP),
        // Long enough that no held socket is closed by a deadline while the test looks at it.
        HEADERS_TIMEOUT_MS: '120000',
        CONNECTION_TIMEOUT_MS: '0',
        // The start-up probe's keep-alive socket goes at once and takes no slot.
        KEEP_ALIVE_TIMEOUT_MS: '1',
      },
    });
    const visitor = Browser.at(server.origin);
    expect((await visitor.get('/sitemap.xml')).status).toBe(200);

    // One client opens five times its share: all but PER_IP are closed by the server.
    const greedy: HeldSocket[] = [];
    for (let i = 0; i < PER_IP * 5; i++) greedy.push(await openSilent(port, '127.0.0.2'));
    flood.push(...greedy);
    await expect.poll(() => closedCount(greedy), { timeout: 30_000 }).toBe(PER_IP * 4);
    // Another visitor, from another address, is still answered while those are held.
    expect((await visitor.get('/')).status).toBe(200);
    expect((await visitor.get('/sitemap.xml')).status).toBe(200);
    expect(closedCount(greedy)).toBe(PER_IP * 4);

    // Clients from further addresses fill the total cap; the sockets past it are closed.
    const others: HeldSocket[] = [];
    for (const address of ['127.0.0.3', '127.0.0.4', '127.0.0.5']) {
      for (let i = 0; i < PER_IP; i++) others.push(await openSilent(port, address));
    }
    flood.push(...others);
    const room = MAX_CONNECTIONS - PER_IP;
    await expect.poll(() => closedCount(others), { timeout: 30_000 }).toBe(others.length - room);
    // Accepted in order: the first `room` are held, the rest were refused.
    expect(others.slice(0, room).every((s) => !s.closed)).toBe(true);
    // With every slot held, a new connection is closed too, and the server does not fall over.
    await expect(visitor.get('/sitemap.xml')).rejects.toThrow();

    // Once the flood lets go, visitors are served again.
    for (const held of flood) held.socket.destroy();
    await expect.poll(async () => (await visitor.get('/sitemap.xml').catch(() => ({ status: 0 }))).status, { timeout: 30_000 }).toBe(200);
    expect(server.child.exitCode).toBeNull();
  }, 120_000);
});
