/** A sliding-window limit: at most `limit` events per key within `windowMs`. */
export interface WindowLimit {
  limit: number;
  windowMs: number;
}

export interface LimitVerdict {
  allowed: boolean;
  /** Whole seconds until the oldest counted event leaves the window (at least 1). */
  retryAfterSeconds: number;
}

// Keys come from client input (IP, email); the map is capped so a flood of distinct keys
// cannot grow memory without bound. Evicting the oldest key only ever forgets old events.
const MAX_KEYS = 50_000;

/**
 * In-process counters: limits are per server process and reset on restart, which is fine
 * for abuse throttling (nothing acknowledged to a client depends on them).
 */
export class SlidingWindowCounter {
  private readonly events = new Map<string, number[]>();

  constructor(
    private readonly rule: WindowLimit,
    private readonly now: () => number,
  ) {}

  private live(key: string): number[] {
    const cutoff = this.now() - this.rule.windowMs;
    const times = (this.events.get(key) ?? []).filter((time) => time > cutoff);
    if (times.length === 0) this.events.delete(key);
    else this.events.set(key, times);
    return times;
  }

  /** Whether one more event would stay within the limit; records nothing. */
  check(key: string): LimitVerdict {
    const times = this.live(key);
    if (times.length < this.rule.limit) return { allowed: true, retryAfterSeconds: 0 };
    const oldest = times[times.length - this.rule.limit] ?? this.now();
    const waitMs = oldest + this.rule.windowMs - this.now();
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
  }

  record(key: string): void {
    const times = this.live(key);
    times.push(this.now());
    this.events.delete(key);
    this.events.set(key, times);
    if (this.events.size > MAX_KEYS) {
      const oldestKey = this.events.keys().next().value;
      if (oldestKey !== undefined) this.events.delete(oldestKey);
    }
  }

  /** Checks and, when allowed, records in one step. */
  take(key: string): LimitVerdict {
    const verdict = this.check(key);
    if (verdict.allowed) this.record(key);
    return verdict;
  }
}
