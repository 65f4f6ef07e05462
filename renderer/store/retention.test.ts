import { beforeEach, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app.ts';
import { useTestStore } from '../test-support/use-test-store.ts';
import { DEFAULT_RETENTION, startRetentionSweep, sweepExpired } from './retention.ts';

const DAY = 24 * 60 * 60_000;
/** vi.waitFor polls for the state; the bound only keeps a broken sweep from hanging the suite. */
const UNTIL = { timeout: 60_000, interval: 20 };
const NOW = Date.UTC(2026, 5, 1);

const store = useTestStore();

/** One row per anonymous table, written `ageMs` before NOW, ids suffixed with `tag`. */
async function writeRows(tag: string, ageMs: number): Promise<void> {
  const at = NOW - ageMs;
  const repo = store().read;
  await repo.insertCensusEvent({ id: `ev-${tag}`, kind: 'hit', event: 'view', data: {}, ssCvr: null, userAgent: null, receivedAt: at });
  await repo.insertJsErrorReport({ id: `jse-${tag}`, event: 'e', data: {}, timestamp: at, userAgent: null, referer: null, receivedAt: at });
  await repo.insertClankerEvent({ id: `ce-${tag}`, schemaName: 's', content: {}, transport: 'json', userAgent: null, receivedAt: at });
  await repo.insertPageLoad(`pl-${tag}`, at);
  const pageLoad = (await repo.getPageLoad(`pl-${tag}`))!;
  await repo.insertPerformanceRecords(pageLoad, [
    { id: `pr-${tag}`, pageLoadId: pageLoad.id, pagePath: '/', metric: 'LCP', value: 1, rating: 'good', at: 1, receivedAt: at },
  ]);
  await repo.insertSubmissionKey(`key-${tag}`, at);
}

async function remaining(): Promise<Record<string, string[]>> {
  const ids = async (sql: string) => (await store().client.query(sql)).map((row) => String(row.id)).sort();
  return {
    census: await ids('SELECT id FROM census_events'),
    errors: await ids('SELECT id FROM js_error_reports'),
    tracker: await ids('SELECT id FROM clanker_events'),
    pageLoads: await ids('SELECT id FROM performance_page_loads'),
    records: await ids('SELECT id FROM performance_records'),
    formKeys: await ids('SELECT key AS id FROM form_submission_keys'),
    counters: await ids('SELECT key AS id FROM rate_limit_counters'),
  };
}

describe('retention sweep', () => {
  beforeEach(async () => {
    await store().read.truncateAll();
  });

  it('deletes the rows older than each table period and keeps the rest', async () => {
    await writeRows('fresh', 0);
    await writeRows('week', 7 * DAY); // older than the form keys' day only
    await writeRows('month', 31 * DAY); // older than errors' and performance's 30 days
    await writeRows('quarter', 91 * DAY); // older than every period
    await store().read.hitRateCounter('ended', NOW - 120_000, 60_000);
    await store().read.hitRateCounter('live', NOW - 30_000, 60_000);

    const result = await sweepExpired(store(), NOW, DEFAULT_RETENTION);

    expect(result.complete).toBe(true);
    expect(await remaining()).toEqual({
      census: ['ev-fresh', 'ev-month', 'ev-week'],
      errors: ['jse-fresh', 'jse-week'],
      tracker: ['ce-fresh', 'ce-month', 'ce-week'],
      pageLoads: ['pl-fresh', 'pl-week'],
      records: ['pr-fresh', 'pr-week'],
      formKeys: ['key-fresh'],
      counters: ['live'],
    });
    expect(result.deleted).toMatchObject({ censusEvents: 1, jsErrorReports: 2, performancePageLoads: 2, formSubmissionKeys: 3, rateLimitCounters: 1 });
  });

  it('deletes carts never bought once expired, with their entries; keeps live, bought and members\' carts', async () => {
    const repo = store().read;
    const cart = async (id: string, expiresAt: number | null, owner: string | null = null) => {
      await repo.createCart({ id, websiteId: 'w1', kind: owner ? 'main' : 'express', ownerSiteUserId: owner, created: NOW - DAY, expiresAt, clonedFrom: null });
      await repo.insertEntry(id, {
        id: `e-${id}`, itemId: 'p1', sku: 'SQ-1', variantId: 'v1', quantity: 1, productType: 1, attributes: {}, title: 'T', purchasePriceCents: 100, additionalFields: null,
      });
    };
    await cart('expired', NOW - 1);
    await cart('live', NOW + DAY);
    await cart('bought', NOW - DAY);
    await repo.orders.markCartPurchased('bought', 'o1');
    await cart('member', null, 'u1');

    const result = await sweepExpired(store(), NOW, DEFAULT_RETENTION);

    expect(result.deleted.expiredCarts).toBe(1);
    const ids = async (sql: string) => (await store().client.query(sql)).map((row) => String(row.id)).sort();
    expect(await ids('SELECT id FROM carts')).toEqual(['bought', 'live', 'member']);
    expect(await ids('SELECT id FROM cart_entries')).toEqual(['e-bought', 'e-live', 'e-member']);
  });

  it('deletes in bounded batches and says when it stopped short', async () => {
    for (let i = 0; i < 7; i++) await store().read.insertCensusEvent({ id: `old-${i}`, kind: 'hit', event: 'view', data: {}, ssCvr: null, userAgent: null, receivedAt: NOW - 100 * DAY + i });
    const calls = vi.spyOn(store().read, 'deleteExpired');

    const first = await sweepExpired(store(), NOW, DEFAULT_RETENTION, { batchSize: 2, maxBatches: 2 });
    expect(first.complete).toBe(false);
    expect(first.deleted.censusEvents).toBe(4);
    expect(calls.mock.calls.filter(([table]) => table === 'censusEvents')).toHaveLength(2);

    const second = await sweepExpired(store(), NOW, DEFAULT_RETENTION, { batchSize: 2, maxBatches: 2 });
    expect(second.deleted.censusEvents).toBe(3);
    expect(second.complete).toBe(true);
    expect((await remaining()).census).toEqual([]);
    calls.mockRestore();
  });

  it('periods are configurable', async () => {
    await writeRows('week', 7 * DAY);
    await sweepExpired(store(), NOW, { ...DEFAULT_RETENTION, censusEvents: 6 * DAY });
    expect((await remaining()).census).toEqual([]);
    expect((await remaining()).tracker).toEqual(['ce-week']);
  });

  it('startRetentionSweep sweeps at once on its own unref-ed timer, and stop waits for it', async () => {
    await writeRows('quarter', 91 * DAY);
    const sweep = startRetentionSweep({ store: store(), now: () => NOW, periods: DEFAULT_RETENTION });
    await vi.waitFor(async () => expect((await remaining()).census).toEqual([]), UNTIL);
    await sweep.stop();
    expect(await sweep.run()).not.toBeNull();
  });

  it('buildApp enforces retention from its start, by its injected clock', async () => {
    await writeRows('quarter', 91 * DAY);
    await writeRows('fresh', 0);
    const app = await buildApp({ store: store(), now: () => NOW });
    await app.ready();
    await vi.waitFor(async () => expect((await remaining()).census).toEqual(['ev-fresh']), UNTIL);
    await app.close();

    await writeRows('again', 91 * DAY);
    const off = await buildApp({ store: store(), now: () => NOW, retention: false });
    await off.ready();
    expect(off.retentionSweep).toBeNull();
    await off.close();
    expect((await remaining()).census).toEqual(['ev-again', 'ev-fresh']);
  });
});
