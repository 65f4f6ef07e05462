import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { demoSeed, demoSite, withConfig } from '../../test-support/page-harness.ts';
import { openTestStore, reseed } from '../../test-support/test-store.ts';
import type { SqlStore } from '../../store/store.ts';

// Feature toggles per site (issue 18): the site folder's, then the admin's override.

const TOKEN = 'feature-admin-token';
const auth = { authorization: `Bearer ${TOKEN}` };

describe('feature toggles API', () => {
  let store: SqlStore;
  let app: FastifyInstance;
  beforeAll(async () => {
    store = await openTestStore();
    const site = withConfig(await demoSite(), {
      features: { features: { 'quick-view': false }, experiments: { 'hero-copy': { variant: 'b', segmentName: 'returning' } } },
    });
    app = await buildApp({ store, site: () => site, adminToken: TOKEN });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await store?.close();
  });
  beforeEach(async () => reseed(store, await demoSeed()));

  it('GET /api/features: the defaults under the site folder', async () => {
    const response = await app.inject('/api/features');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      features: { bnpl: true, 'quick-view': false, 'session-recording': false },
      experiments: { 'hero-copy': { variant: 'b', segmentName: 'returning' } },
    });
  });

  it('the admin routes need the admin guard', async () => {
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const response = await app.inject({ method, url: '/api/admin/features', payload: method === 'PUT' ? { features: {} } : undefined });
      expect(response.statusCode).toBe(401);
      expect(response.json().code).toMatch(/^[A-Z_]+$/);
    }
  });

  it('PUT stores an override that wins name by name; DELETE goes back to the folder', async () => {
    const put = await app.inject({ method: 'PUT', url: '/api/admin/features', headers: auth, payload: { features: { bnpl: false, 'quick-view': true } } });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({
      features: { bnpl: false, 'quick-view': true, 'session-recording': false },
      site: { features: { 'quick-view': false } },
      stored: { features: { bnpl: false, 'quick-view': true }, experiments: {} },
      defaults: { bnpl: true, 'quick-view': true, 'session-recording': false },
    });
    expect((await app.inject('/api/features')).json().features).toEqual({ bnpl: false, 'quick-view': true, 'session-recording': false });
    const read = await app.inject({ url: '/api/admin/features', headers: auth });
    expect(read.json().stored.updatedAt).toEqual(expect.any(Number));
    expect(read.json().known.map((k: { name: string }) => k.name)).toEqual(['bnpl', 'quick-view', 'session-recording']);

    const reset = await app.inject({ method: 'DELETE', url: '/api/admin/features', headers: auth });
    expect(reset.json()).toMatchObject({ features: { bnpl: true, 'quick-view': false }, stored: null });
  });

  it('a bad body is a 400 INVALID_FEATURES, never stored', async () => {
    for (const payload of [
      { features: { bnpl: 'off' } },
      { features: { 'Bad Name': true } },
      { experiments: { t: { variant: '' } } },
      { experiments: { t: { variant: 'a', extra: 1 } } },
      { other: true },
      { features: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`f${i}`, true])) },
    ]) {
      const response = await app.inject({ method: 'PUT', url: '/api/admin/features', headers: auth, payload });
      expect(response.statusCode, JSON.stringify(payload).slice(0, 60)).toBe(400);
      expect(response.json().code).toBe('INVALID_FEATURES');
    }
    expect((await app.inject({ url: '/api/admin/features', headers: auth })).json().stored).toBeNull();
  });
});
