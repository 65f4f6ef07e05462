// `npm start` on a port another process holds prints one line that says what to change and
// exits non-zero, with no stack trace; `--workers N` too (no crash loop of workers).
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, spawnStart } from './server-process.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

async function runStart(port: number, args: string[]): Promise<{ code: number | null; output: string }> {
  // DATABASE_URL names no server: the port check comes before any database work.
  const run = spawnStart(args, { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: path.join(ROOT, 'data', 'never-created'), DATABASE_URL: 'postgres://nobody@127.0.0.1:9/none' });
  const code = await run.exited;
  return { code, output: run.output() };
}

describe('npm start on a port in use', () => {
  const holder = net.createServer();
  let port = 0;

  beforeAll(async () => {
    port = await freePort();
    await new Promise<void>((resolve) => holder.listen(port, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => holder.close(() => resolve())));

  it.each([[[] as string[]], [['--workers', '2']]])('with args %j prints one line and exits non-zero', async (args) => {
    const { code, output } = await runStart(port, args);
    expect(code).not.toBe(0);
    expect(code).not.toBeNull();
    expect(output).toBe(`quire: port ${port} on 127.0.0.1 is already in use (set PORT)\n`);
  });
});
