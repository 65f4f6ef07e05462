import { createServer } from 'node:net';

/**
 * A TCP port free on 127.0.0.1 right now, for a server process the bench starts itself (it
 * is given the port, so the bench knows where to knock before the server says anything).
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}
