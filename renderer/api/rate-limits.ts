import crypto from 'node:crypto';
import fastifyRateLimit, { normalizeIP, type FastifyRateLimitStore } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RateCounter } from '../store/repository.ts';
import type { Store } from '../store/store.ts';

// Every limit of the server (D10, the beacons, /unlock) is a fixed window counted by
// @fastify/rate-limit through `createRateLimit`, called at the point of the handler where the
// spec puts the check (some limits count only failures, some are keyed by a body field).
// The counters live in this process's memory on the embedded database (one process), and in
// the database itself on PostgreSQL, so that N instances share them.

/** At most `limit` events per key within a window of `windowMs`. */
export interface WindowLimit {
  limit: number;
  windowMs: number;
}

export interface LimitVerdict {
  allowed: boolean;
  /** Whole seconds until the window ends (at least 1); 0 when allowed. */
  retryAfterSeconds: number;
  /** Events the window still allows (after this one, for `take`). */
  remaining: number;
}

/** Where the counters are kept. */
export interface CounterBackend {
  /** Counts one hit for `key`, starting a new window of `windowMs` when none is live. */
  hit(key: string, windowMs: number): Promise<RateCounter>;
  /** The live window of `key`, counting nothing. */
  peek(key: string): Promise<RateCounter | null>;
}

// Keys are digests of client input (addresses, emails); the map is capped so a flood of
// distinct keys cannot grow memory without bound. Evicting a key only forgets its count.
export const MAX_MEMORY_KEYS = 50_000;

/**
 * One process's counters (the embedded database serves one process), one map per limit (the
 * key's name before `:`), each least recently used first. Past MAX_MEMORY_KEYS in all, the
 * least recently used key of the limit holding the most keys is forgotten. With one map for
 * every limit, a flood of distinct keys of a cheap limit (a page beacon from each of 50,000
 * IPv6 /64s of one /48) pushed out the oldest keys of all, a victim account's sign-in failures
 * among them, and its 5 tries per 15 minutes started again after each flood.
 */
export class MemoryCounters implements CounterBackend {
  private readonly byLimit = new Map<string, Map<string, RateCounter>>();
  private size = 0;

  constructor(private readonly now: () => number) {}

  private static limitOf(key: string): string {
    const colon = key.indexOf(':');
    return colon < 0 ? '' : key.slice(0, colon);
  }

  async hit(key: string, windowMs: number): Promise<RateCounter> {
    const now = this.now();
    const limit = MemoryCounters.limitOf(key);
    let windows = this.byLimit.get(limit);
    if (windows === undefined) this.byLimit.set(limit, (windows = new Map()));
    const live = windows.get(key);
    const next = live && live.expiresAt > now ? { hits: live.hits + 1, expiresAt: live.expiresAt } : { hits: 1, expiresAt: now + windowMs };
    // Re-inserted, so the map's order is least recently used first.
    if (!windows.delete(key)) this.size++;
    windows.set(key, next);
    if (this.size > MAX_MEMORY_KEYS) this.evict();
    return { ...next };
  }

  /** Forgets the least recently used key of the limit that holds the most keys. */
  private evict(): void {
    let largest: Map<string, RateCounter> | undefined;
    for (const windows of this.byLimit.values()) if (largest === undefined || windows.size > largest.size) largest = windows;
    const oldest = largest?.keys().next().value;
    if (largest !== undefined && oldest !== undefined) {
      largest.delete(oldest);
      this.size--;
    }
  }

  async peek(key: string): Promise<RateCounter | null> {
    const live = this.byLimit.get(MemoryCounters.limitOf(key))?.get(key);
    return live && live.expiresAt > this.now() ? { ...live } : null;
  }
}

/** Counters in the `rate_limit_counters` table, shared by every instance on the database. */
export class DatabaseCounters implements CounterBackend {
  constructor(
    private readonly store: Store,
    private readonly now: () => number,
  ) {}

  hit(key: string, windowMs: number): Promise<RateCounter> {
    return this.store.read.hitRateCounter(key, this.now(), windowMs);
  }

  peek(key: string): Promise<RateCounter | null> {
    return this.store.read.getRateCounter(key, this.now());
  }
}

/** @fastify/rate-limit's store contract over a backend; the clock is the app's injected one. */
function pluginStore(backend: CounterBackend, now: () => number) {
  type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;
  const reply = (cb: Callback) => [
    (counter: RateCounter | null) => cb(null, counter ? { current: counter.hits, ttl: Math.max(0, counter.expiresAt - now()) } : { current: 0, ttl: 0 }),
    (error: Error) => cb(error),
  ] as const;
  return class CounterStore implements FastifyRateLimitStore {
    incr(key: string, cb: Callback, timeWindow: number): void {
      void backend.hit(key, timeWindow).then(...reply(cb));
    }

    read(key: string, cb: Callback): void {
      void backend.peek(key).then(...reply(cb));
    }

    // Every limiter shares the one backend: its keys start with the limit's name.
    child(): FastifyRateLimitStore {
      return this;
    }
  };
}

/** The client address a per-IP limit counts by: IPv4, or the IPv6 /64 (one subscriber's prefix). */
export function clientAddress(request: FastifyRequest): string {
  return normalizeIP(request.ip);
}

export interface Limiter {
  /** Counts one event for `subject` (default: the client address); refused once over the limit. */
  take(request: FastifyRequest, subject?: string): Promise<LimitVerdict>;
  /** Whether one more event for `subject` would be within the limit; counts nothing. */
  check(request: FastifyRequest, subject?: string): Promise<LimitVerdict>;
}

export interface RateLimitsOptions<Name extends string> {
  rules: Record<Name, WindowLimit>;
  backend: CounterBackend;
  now: () => number;
}

/**
 * Registers @fastify/rate-limit on `app` (no route is limited by default) with a store over
 * `backend`, and returns one limiter per rule.
 */
export async function installRateLimits<Name extends string>(
  app: FastifyInstance,
  options: RateLimitsOptions<Name>,
): Promise<Record<Name, Limiter>> {
  await app.register(fastifyRateLimit, { global: false, store: pluginStore(options.backend, options.now) });
  // The subject of the call in progress: createRateLimit keys by request, and some limits
  // key by a body field the handler has already checked (an email, a form id).
  const subjects = new WeakMap<FastifyRequest, string>();
  const entries = (Object.entries(options.rules) as [Name, WindowLimit][]).map(([name, rule]) => {
    const limit = app.createRateLimit({
      max: rule.limit,
      timeWindow: rule.windowMs,
      // Digested: the key has a fixed size and no visitor's email is stored in clear.
      keyGenerator: (request) => `${name}:${digest(subjects.get(request) ?? clientAddress(request))}`,
    });
    const run = async (request: FastifyRequest, subject: string | undefined, increment: boolean): Promise<LimitVerdict> => {
      if (subject === undefined) subjects.delete(request);
      else subjects.set(request, subject);
      const result = await limit(request, { increment });
      const remaining = result.isAllowed ? rule.limit : result.remaining;
      if (result.isAllowed) return { allowed: true, retryAfterSeconds: 0, remaining };
      // A hit is refused once it goes over the limit; a check, once the limit is used up.
      const allowed = increment ? !result.isExceeded : result.remaining > 0;
      return { allowed, retryAfterSeconds: allowed ? 0 : Math.max(1, result.ttlInSeconds), remaining };
    };
    const limiter: Limiter = {
      take: (request, subject) => run(request, subject, true),
      check: (request, subject) => run(request, subject, false),
    };
    return [name, limiter] as const;
  });
  return Object.fromEntries(entries) as Record<Name, Limiter>;
}

function digest(subject: string): string {
  return crypto.createHash('sha256').update(subject).digest('base64url');
}

/** A failures-only limit an attempt counts against, by `subject` (default: the client address). */
export interface FailureCount {
  limiter: Limiter;
  subject?: string;
}

/** An attempt under failures-only limits (`beginAttempt`). */
export interface Attempt {
  /** Whether the limits allow the attempt; when not, it must be refused (429) and `end`ed. */
  allowed: boolean;
  retryAfterSeconds: number;
  /** Counts the attempt as a failure against every limit. */
  failed(): Promise<void>;
  /** Ends the attempt, whatever its outcome: always called. */
  end(): void;
}

/** Attempts under way, per limiter and subject, in this process. */
const underWay = new WeakMap<Limiter, Map<string, number>>();

/**
 * Begins an attempt under limits that count only failures (sign-in, B17: 5 failures per email
 * in 15 minutes, and per address). Each limit is checked before the attempt and counted after
 * it, when it fails; attempts still under way count as failures meanwhile. Checked and counted
 * apart, 12 sign-ins sent at once all found the same 0 failures and all 12 passwords were tried.
 * The attempt is registered before anything is awaited, so two at once never both see the last
 * free place. (Instances on one PostgreSQL database share the counts, not the attempts under
 * way: a burst spread over N instances may try up to N more.)
 */
export async function beginAttempt(request: FastifyRequest, counts: readonly FailureCount[]): Promise<Attempt> {
  const keys = counts.map(({ subject }) => subject ?? clientAddress(request));
  const places = counts.map(({ limiter }, i) => {
    let byKey = underWay.get(limiter);
    if (byKey === undefined) underWay.set(limiter, (byKey = new Map()));
    const place = (byKey.get(keys[i]!) ?? 0) + 1;
    byKey.set(keys[i]!, place);
    return place;
  });
  let ended = false;
  const end = (): void => {
    if (ended) return;
    ended = true;
    counts.forEach(({ limiter }, i) => {
      const byKey = underWay.get(limiter)!;
      const left = byKey.get(keys[i]!)! - 1;
      if (left === 0) byKey.delete(keys[i]!);
      else byKey.set(keys[i]!, left);
    });
  };
  let retryAfterSeconds = 0;
  try {
    // One at a time: a limiter keeps the subject of the call in progress per request.
    for (const [i, { limiter, subject }] of counts.entries()) {
      const verdict = await limiter.check(request, subject);
      // Refused by attempts under way only: they end within a password check.
      if (!verdict.allowed || verdict.remaining < places[i]!) retryAfterSeconds = Math.max(retryAfterSeconds, verdict.retryAfterSeconds, 1);
    }
  } catch (error) {
    end();
    throw error;
  }
  const failed = async (): Promise<void> => {
    for (const { limiter, subject } of counts) await limiter.take(request, subject);
  };
  return { allowed: retryAfterSeconds === 0, retryAfterSeconds, failed, end };
}

/** What `takeDistinct` decided: the items refused, and when to ask again. */
export interface DistinctVerdict {
  /** Items not checked: the limit is used up and they were never seen from this client. */
  refused: string[];
  retryAfterSeconds: number;
}

/**
 * A limit on distinct items rather than requests (coupon codes, D10 designed here): each item
 * a client sends is looked at once per window, however often it is sent again. `seen` (one
 * per window) marks the items this client already had checked, keyed by its address and the
 * item; they pass without counting. A new item for which `costs` says yes (an unknown coupon
 * code, a miss) takes one place of `limiter`; a new item that costs nothing (a code that
 * exists) takes none. Once the places are used up, every new item is refused, costing or not:
 * refusing only the misses would tell the guesser which of its guesses hit.
 * (Two requests at once with the same new item may both count it: a miss counted twice, never
 * a guess for free.)
 */
export async function takeDistinct(
  request: FastifyRequest,
  limits: { limiter: Limiter; seen: Limiter },
  items: readonly string[],
  costs: (item: string) => boolean,
): Promise<DistinctVerdict> {
  const refused: string[] = [];
  let retryAfterSeconds = 0;
  /** Whether the limit has a place left: asked once, then followed as places are taken. */
  let room: LimitVerdict | null = null;
  const address = clientAddress(request);
  for (const item of items) {
    const subject = `${address}\n${item}`;
    if (!(await limits.seen.check(request, subject)).allowed) continue;
    room ??= await limits.limiter.check(request);
    let verdict: LimitVerdict = room;
    if (verdict.allowed && costs(item)) {
      verdict = await limits.limiter.take(request);
      if (verdict.allowed && verdict.remaining === 0) room = { allowed: false, retryAfterSeconds: 0, remaining: 0 };
    }
    if (!verdict.allowed) {
      refused.push(item);
      retryAfterSeconds = Math.max(retryAfterSeconds, verdict.retryAfterSeconds);
      continue;
    }
    await limits.seen.take(request, subject);
  }
  if (refused.length > 0 && retryAfterSeconds === 0) retryAfterSeconds = Math.max(1, (await limits.limiter.check(request)).retryAfterSeconds);
  return { refused, retryAfterSeconds };
}
