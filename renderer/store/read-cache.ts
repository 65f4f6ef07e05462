import type { Repository } from './repository.ts';
import type { ProductReview } from './review-repository.ts';
import type { Store } from './store.ts';
import type { Form, Product, Site } from './types.ts';

/**
 * Page display reads (site row, catalogue, forms, a product's approved reviews) served from memory for at most `ttlMs`.
 *
 * Why: every page needs the site row and usually a product, and on the embedded PGlite
 * database each statement is slow and serialised behind one connection, so these reads
 * dominated a page request. Servers are stateless and several may share one PostgreSQL,
 * so the staleness bound is the TTL: another server's write shows up at most `ttlMs`
 * later; this process's own writes (any write through the wrapped store) drop the whole
 * cache at once. Only display data is cached: carts, sessions and the stock checks of cart
 * writes keep reading the database inside their transactions.
 *
 * Cached values are shared by concurrent requests and must be treated as read-only.
 */
export interface ReadCacheOptions {
  ttlMs: number;
  /** Monotonic milliseconds; injectable for tests. */
  clock?: () => number;
  /** Keys held at most (product lookups are keyed by URL slugs, which visitors choose). */
  maxEntries?: number;
}

interface Entry {
  at: number;
  value: Promise<unknown>;
}

/** Repository methods that never write; every other call through the wrapped store invalidates. */
const READ_ONLY = /^(get|list|count)/;

export class ReadCache {
  private readonly entries = new Map<string, Entry>();
  private readonly ttlMs: number;
  private readonly clock: () => number;
  private readonly maxEntries: number;
  /** The store to give everything else: its writes invalidate this cache. */
  readonly store: Store;

  constructor(
    private readonly inner: Store,
    options: ReadCacheOptions,
  ) {
    this.ttlMs = options.ttlMs;
    this.clock = options.clock ?? (() => performance.now());
    this.maxEntries = options.maxEntries ?? 1000;
    this.store = this.invalidatingStore();
  }

  getSite(): Promise<Site | null> {
    return this.through('site', () => this.inner.read.getSite());
  }

  getProduct(id: string): Promise<Product | null> {
    return this.through(`product:${id}`, () => this.inner.read.getProduct(id));
  }

  listProducts(): Promise<Product[]> {
    return this.through('products', () => this.inner.read.listProducts());
  }

  listForms(): Promise<Form[]> {
    return this.through('forms', () => this.inner.read.listForms());
  }

  /** A product page's approved reviews; an owner's approve or delete runs in a transaction, so it drops them. */
  listApprovedReviews(websiteId: string, productId: string, limit: number): Promise<ProductReview[]> {
    return this.through(`reviews:${websiteId}:${productId}:${limit}`, () => this.inner.read.listApprovedReviews(websiteId, productId, limit));
  }

  /** The 209 page's rating so far over approved reviews; dropped with them on an owner's approve or delete. */
  approvedRatings(websiteId: string, productId: string): Promise<{ count: number; sum: number }> {
    return this.through(`ratings:${websiteId}:${productId}`, () => this.inner.read.approvedRatings(websiteId, productId));
  }

  invalidate(): void {
    this.entries.clear();
  }

  /**
   * The promise is stored when the read starts, so concurrent misses share one query, and a
   * write that lands meanwhile clears it: a read begun before a commit is never kept after it.
   */
  private through<T>(key: string, read: () => Promise<T>): Promise<T> {
    const now = this.clock();
    const hit = this.entries.get(key);
    if (hit && now - hit.at < this.ttlMs) return hit.value as Promise<T>;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    const value = read();
    const entry: Entry = { at: now, value };
    this.entries.set(key, entry);
    value.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    return value;
  }

  private invalidatingStore(): Store {
    const inner = this.inner;
    const invalidate = () => this.invalidate();
    // Methods are wrapped once per name, not on every call of a request.
    const wrapped = new Map<PropertyKey, unknown>();
    const read = new Proxy(inner.read, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver) as unknown;
        if (typeof value !== 'function') return value;
        const known = wrapped.get(key);
        if (known) return known;
        const method =
          typeof key === 'string' && READ_ONLY.test(key)
            ? value.bind(target)
            : async (...args: unknown[]) => {
                try {
                  return await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
                } finally {
                  invalidate();
                }
              };
        wrapped.set(key, method);
        return method;
      },
    }) as Repository;
    return {
      get kind() {
        return inner.kind;
      },
      read,
      async transaction<T>(work: (repo: Repository) => Promise<T>): Promise<T> {
        try {
          return await inner.transaction(work);
        } finally {
          invalidate();
        }
      },
      close: () => inner.close(),
    };
  }
}
