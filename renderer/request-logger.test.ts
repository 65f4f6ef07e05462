import { describe, expect, test, vi } from 'vitest';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { requestLogger } from './request-logger.ts';

/** A Fastify app whose pino logger writes into `lines`; `child` counted on the root logger. */
async function appAt(level: string) {
  const lines: Record<string, unknown>[] = [];
  const app = Fastify({ logger: { level, stream: { write: (line: string) => void lines.push(JSON.parse(line)) } }, childLoggerFactory: requestLogger });
  const child = vi.spyOn(app.log, 'child');
  app.get('/quiet', async () => 'ok');
  app.get('/warns', async (request) => {
    request.log.warn({ note: 'n' }, 'a warning');
    request.log.info('an info line');
    return 'ok';
  });
  await app.ready();
  return { app, lines, child };
}

const withoutTime = ({ time: _time, ...line }: Record<string, unknown>) => line;

describe('requestLogger (a request child logger made when it writes)', () => {
  test('a request that writes no line at an enabled level makes no pino child', async () => {
    const { app, lines, child } = await appAt('warn');
    for (let i = 0; i < 3; i++) expect((await app.inject('/quiet')).statusCode).toBe(200);
    expect(child).not.toHaveBeenCalled();
    expect(lines).toEqual([]);
    await app.close();
  });

  test('a line written is the child’s: the same reqId binding and fields as pino’s own child writes', async () => {
    const { app, lines, child } = await appAt('warn');
    await app.inject('/warns');
    expect(child).toHaveBeenCalledTimes(1);
    expect(lines.map(withoutTime)).toEqual([{ level: 40, pid: process.pid, hostname: expect.any(String), reqId: 'req-1', note: 'n', msg: 'a warning' }]);
    // Fastify's own default factory, for comparison.
    const plain: Record<string, unknown>[] = [];
    const reference = Fastify({ logger: { level: 'warn', stream: { write: (line: string) => void plain.push(JSON.parse(line)) } } });
    reference.get('/warns', async (request) => {
      request.log.warn({ note: 'n' }, 'a warning');
      request.log.info('an info line');
      return 'ok';
    });
    await reference.inject('/warns');
    expect(lines.map(withoutTime)).toEqual(plain.map(withoutTime));
    await Promise.all([app.close(), reference.close()]);
  });

  test('at an enabled level Fastify’s request lines are written as before', async () => {
    const { app, lines } = await appAt('info');
    await app.inject('/quiet');
    expect(lines.map((line) => [line.reqId, line.msg])).toEqual([
      ['req-1', 'incoming request'],
      ['req-1', 'request completed'],
    ]);
    await app.close();
  });

  test('a route’s own logger options, or a logger that cannot tell its levels, get the child at once', () => {
    const made = { level: 'warn' } as unknown as FastifyBaseLogger;
    const parent = { isLevelEnabled: () => false, child: vi.fn(() => made) } as unknown as FastifyBaseLogger;
    expect(requestLogger(parent, { reqId: 'r' }, { level: 'debug' })).toBe(made);
    const levelless = { child: vi.fn(() => made) } as unknown as FastifyBaseLogger;
    expect(requestLogger(levelless, { reqId: 'r' }, {})).toBe(made);
  });
});
