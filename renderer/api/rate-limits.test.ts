import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestStore } from '../test-support/use-test-store.ts';
import { DatabaseCounters, MAX_MEMORY_KEYS, MemoryCounters, installRateLimits, type CounterBackend, type Limiter } from './rate-limits.ts';

const store = useTestStore();

const backends: [string, (now: () => number) => CounterBackend][] = [
  ['memory', (now) => new MemoryCounters(now)],
  ['database', (now) => new DatabaseCounters(store(), now)],
];

describe.each(backends)('%s counters', (_name, make) => {
  it('count hits in a fixed window that starts again once it ends', async () => {
    await store().read.truncateAll();
    const clock = { now: 1_000_000 };
    const counters = make(() => clock.now);
    expect(await counters.hit('k', 60_000)).toEqual({ hits: 1, expiresAt: 1_060_000 });
    clock.now += 30_000;
    expect(await counters.hit('k', 60_000)).toEqual({ hits: 2, expiresAt: 1_060_000 });
    expect(await counters.peek('k')).toEqual({ hits: 2, expiresAt: 1_060_000 });
    expect(await counters.peek('other')).toBeNull();
    clock.now = 1_060_000;
    expect(await counters.peek('k')).toBeNull();
    expect(await counters.hit('k', 60_000)).toEqual({ hits: 1, expiresAt: 1_120_000 });
  });

  it('count every one of many concurrent hits', async () => {
    await store().read.truncateAll();
    const counters = make(() => 5_000);
    await Promise.all(Array.from({ length: 25 }, () => counters.hit('busy', 60_000)));
    expect(await counters.peek('busy')).toEqual({ hits: 25, expiresAt: 65_000 });
  });
});

describe('memory counters past their key cap', () => {
  // Keys are `<limit>:<digest>`. One IPv6 /48 holds 65,536 /64s, each a client of its own: a
  // page beacon from each of them used to push a victim account's sign-in failures out of the
  // one map, and its 5 tries per 15 minutes started again.
  it("forget the flooded limit's own oldest keys, never another limit's", async () => {
    const counters = new MemoryCounters(() => 1_000);
    for (let i = 0; i < 5; i++) await counters.hit('loginFailures:victim', 900_000);
    const flood = MAX_MEMORY_KEYS + 1_000;
    for (let i = 0; i < flood; i++) await counters.hit(`census:client-${i}`, 60_000);
    expect(await counters.peek('loginFailures:victim')).toEqual({ hits: 5, expiresAt: 901_000 });
    // The cap still holds: the flood's oldest keys went, its newest stay.
    expect(await counters.peek('census:client-0')).toBeNull();
    expect(await counters.peek(`census:client-${flood - MAX_MEMORY_KEYS + 1}`)).toEqual({ hits: 1, expiresAt: 61_000 });
    expect(await counters.peek(`census:client-${flood - MAX_MEMORY_KEYS}`)).toBeNull();
  });
});

describe('installRateLimits (@fastify/rate-limit with a custom store)', () => {
  const clock = { now: 2_000_000 };
  let app: FastifyInstance;
  let limiters: Record<'three' | 'failures', Limiter>;
  // What createRateLimit reads of a request: the address and the route options.
  const request = (ip: string) => ({ ip, routeOptions: { config: {} } }) as unknown as FastifyRequest;

  beforeAll(async () => {
    app = Fastify();
    limiters = await installRateLimits(app, {
      rules: { three: { limit: 3, windowMs: 60_000 }, failures: { limit: 2, windowMs: 60_000 } },
      backend: new MemoryCounters(() => clock.now),
      now: () => clock.now,
    });
    await app.ready();
  });

  afterAll(async () => {
    await app.close();
  });

  it('take allows the limit per window and then says when to retry', async () => {
    const verdicts = [];
    for (let i = 0; i < 4; i++) {
      verdicts.push(await limiters.three.take(request('10.0.0.1')));
      clock.now += 10_000;
    }
    expect(verdicts.map((v) => v.allowed)).toEqual([true, true, true, false]);
    expect(verdicts[3]!.retryAfterSeconds).toBe(30);
    // Another address, and the same address under another limit, count apart.
    expect((await limiters.three.take(request('10.0.0.2'))).allowed).toBe(true);
    expect((await limiters.failures.take(request('10.0.0.1'))).allowed).toBe(true);
    clock.now += 30_000;
    expect((await limiters.three.take(request('10.0.0.1'))).allowed).toBe(true);
  });

  it('check counts nothing and refuses once the limit is used up', async () => {
    const r = request('10.0.0.9');
    expect((await limiters.failures.check(r, 'a@example.com')).allowed).toBe(true);
    expect((await limiters.failures.check(r, 'a@example.com')).allowed).toBe(true);
    await limiters.failures.take(r, 'a@example.com');
    expect((await limiters.failures.check(r, 'a@example.com')).allowed).toBe(true);
    await limiters.failures.take(r, 'a@example.com');
    const refused = await limiters.failures.check(r, 'a@example.com');
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterSeconds).toBeGreaterThan(0);
    // The subject, not the address, is what a subject limit counts.
    expect((await limiters.failures.check(r, 'b@example.com')).allowed).toBe(true);
    expect((await limiters.failures.check(request('10.0.0.10'), 'a@example.com')).allowed).toBe(false);
  });

  it('one IPv6 subscriber (a /64) counts as one client', async () => {
    for (const suffix of ['1', '2', '3']) {
      expect((await limiters.three.take(request(`2001:db8:1:2::${suffix}`))).allowed).toBe(true);
    }
    expect((await limiters.three.take(request('2001:db8:1:2:ffff::4'))).allowed).toBe(false);
    expect((await limiters.three.take(request('2001:db8:1:3::1'))).allowed).toBe(true);
  });

  it('keys are digests: a long subject is stored at a fixed size and not in clear', async () => {
    await store().read.truncateAll();
    const shared = Fastify();
    const limits = await installRateLimits(shared, {
      rules: { login: { limit: 5, windowMs: 60_000 } },
      backend: new DatabaseCounters(store(), () => clock.now),
      now: () => clock.now,
    });
    const email = `${'x'.repeat(60_000)}@example.com`;
    expect((await limits.login.take(request('10.0.0.1'), email)).allowed).toBe(true);
    expect((await limits.login.check(request('10.0.0.1'), email)).allowed).toBe(true);
    const rows = await store().client.query('SELECT key FROM rate_limit_counters');
    expect(rows).toHaveLength(1);
    expect(String(rows[0]!.key)).toMatch(/^login:[A-Za-z0-9_-]{43}$/);
    await shared.close();
  });
});
