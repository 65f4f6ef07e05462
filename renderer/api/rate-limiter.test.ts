import { describe, expect, it } from 'vitest';
import { SlidingWindowCounter } from './rate-limiter.ts';

describe('SlidingWindowCounter', () => {
  it('allows the limit per window and says when to retry', () => {
    const clock = { now: 0 };
    const counter = new SlidingWindowCounter({ limit: 3, windowMs: 60_000 }, () => clock.now);
    for (let index = 0; index < 3; index += 1) {
      expect(counter.take('ip').allowed).toBe(true);
      clock.now += 10_000;
    }
    expect(counter.take('ip')).toEqual({ allowed: false, retryAfterSeconds: 30 });
    expect(counter.take('other').allowed).toBe(true);
    clock.now = 60_001;
    expect(counter.take('ip').allowed).toBe(true);
  });

  it('check does not count; record does', () => {
    const clock = { now: 0 };
    const counter = new SlidingWindowCounter({ limit: 1, windowMs: 1000 }, () => clock.now);
    expect(counter.check('k').allowed).toBe(true);
    expect(counter.check('k').allowed).toBe(true);
    counter.record('k');
    expect(counter.check('k')).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });
});
