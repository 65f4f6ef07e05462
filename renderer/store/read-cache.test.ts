import { describe, expect, it } from 'vitest';
import { ReadCache } from './read-cache.ts';
import type { Repository } from './repository.ts';
import type { Store } from './store.ts';
import type { Site } from './types.ts';

/** A store whose site row is a counter, so each database read is visible. */
function fakeStore() {
  const state = { reads: 0, title: 'one', failNext: false };
  const read = {
    async getSite(): Promise<Site> {
      state.reads++;
      if (state.failNext) {
        state.failNext = false;
        throw new Error('database gone');
      }
      return { websiteId: 'w', settings: { title: state.title } } as unknown as Site;
    },
    async getProduct(id: string) {
      state.reads++;
      return id === 'tee' ? ({ id } as never) : null;
    },
    async putSite(): Promise<void> {
      state.title = 'two';
    },
  };
  const store: Store = {
    kind: 'pglite',
    read: read as unknown as Repository,
    transaction: async (work) => {
      state.title = 'three';
      return work(read as unknown as Repository);
    },
    close: async () => {},
  };
  return { state, store };
}

const titleOf = (site: Site | null) => (site?.settings as unknown as { title: string }).title;

describe('ReadCache', () => {
  it('serves a read from memory until the TTL has passed', async () => {
    const { state, store } = fakeStore();
    const clock = { now: 0 };
    const cache = new ReadCache(store, { ttlMs: 1000, clock: () => clock.now });
    await cache.getSite();
    clock.now = 999;
    await cache.getSite();
    expect(state.reads).toBe(1);
    clock.now = 1000;
    await cache.getSite();
    expect(state.reads).toBe(2);
  });

  it('with no time limit (the embedded store), reads again only after a write', async () => {
    const { state, store } = fakeStore();
    const clock = { now: 0 };
    const cache = new ReadCache(store, { ttlMs: Number.POSITIVE_INFINITY, clock: () => clock.now });
    await cache.getSite();
    clock.now = 1e12;
    expect(titleOf(await cache.getSite())).toBe('one');
    expect(state.reads).toBe(1);
    await (cache.store.read as unknown as { putSite(): Promise<void> }).putSite();
    expect(titleOf(await cache.getSite())).toBe('two');
    expect(state.reads).toBe(2);
  });

  it('shares one database read between concurrent misses', async () => {
    const { state, store } = fakeStore();
    const cache = new ReadCache(store, { ttlMs: 1000, clock: () => 0 });
    await Promise.all([cache.getSite(), cache.getSite(), cache.getSite()]);
    expect(state.reads).toBe(1);
  });

  it("drops everything on this process's own writes, through the repository or a transaction", async () => {
    const { store } = fakeStore();
    const cache = new ReadCache(store, { ttlMs: 60_000, clock: () => 0 });
    expect(titleOf(await cache.getSite())).toBe('one');
    await cache.store.read.putSite({} as Site);
    expect(titleOf(await cache.getSite())).toBe('two');
    await cache.store.transaction(async () => {});
    expect(titleOf(await cache.getSite())).toBe('three');
  });

  it('keeps reads made through the wrapped store uncached and non-invalidating', async () => {
    const { state, store } = fakeStore();
    const cache = new ReadCache(store, { ttlMs: 60_000, clock: () => 0 });
    await cache.getSite();
    await cache.store.read.getSite();
    await cache.getSite();
    expect(state.reads).toBe(2);
  });

  it('does not keep a failed read', async () => {
    const { state, store } = fakeStore();
    const cache = new ReadCache(store, { ttlMs: 60_000, clock: () => 0 });
    state.failNext = true;
    await expect(cache.getSite()).rejects.toThrow('database gone');
    expect(titleOf(await cache.getSite())).toBe('one');
  });

  it('holds at most maxEntries keys (product lookups are keyed by visitor-chosen slugs)', async () => {
    const { state, store } = fakeStore();
    const cache = new ReadCache(store, { ttlMs: 60_000, clock: () => 0, maxEntries: 3 });
    for (const slug of ['a', 'b', 'c', 'd']) await cache.getProduct(slug);
    const before = state.reads;
    await cache.getProduct('a');
    expect(state.reads).toBe(before + 1);
    expect(await cache.getProduct('tee')).toEqual({ id: 'tee' });
  });
});
