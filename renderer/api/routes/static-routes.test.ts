import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BNPL_LOCALES, assetFile, bnplFragment, registerStaticRoutes } from './static-routes.ts';

let app: FastifyInstance;
let assetsDir: string;

beforeAll(async () => {
  assetsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-assets-'));
  fs.mkdirSync(path.join(assetsDir, 'chunks'));
  fs.writeFileSync(path.join(assetsDir, 'islands.js'), 'console.log("islands");');
  fs.writeFileSync(path.join(assetsDir, 'chunks', 'cart-ABC123.js'), 'export const x = 1;');
  fs.writeFileSync(path.join(assetsDir, 'secret.txt'), 'no');
  app = Fastify();
  registerStaticRoutes(app, { assetsDir });
  await app.ready();
});

afterAll(async () => {
  await app.close();
  fs.rmSync(assetsDir, { recursive: true, force: true });
});

describe('BNPL fragments (B9)', () => {
  it('serves every D6 locale of its provider and nothing else', async () => {
    for (const [provider, keys] of Object.entries(BNPL_LOCALES)) {
      for (const key of keys) {
        const response = await app.inject({ method: 'GET', url: `/static/bnpl/${provider}/${key}.html` });
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(response.headers['cache-control']).toBe('public, max-age=86400');
        expect(response.body).toContain(provider === 'clearpay' ? 'Clearpay' : 'Afterpay');
      }
    }
    for (const url of ['/static/bnpl/klarna/en_US.html', '/static/bnpl/clearpay/en_US.html', '/static/bnpl/afterpay/en_US.txt']) {
      expect((await app.inject({ method: 'GET', url })).statusCode).toBe(404);
    }
    expect(bnplFragment('afterpay', 'fr_CA')).toContain('lang="fr"');
  });

  it("a provider named like an Object.prototype member is a 404, not a 500", async () => {
    for (const provider of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      expect(bnplFragment(provider, 'en_US'), provider).toBeNull();
      expect((await app.inject({ method: 'GET', url: `/static/bnpl/${provider}/en_US.html` })).statusCode, provider).toBe(404);
    }
  });
});

describe('assets (B29)', () => {
  it('serves the built bundle and its hashed chunks', async () => {
    const entry = await app.inject({ method: 'GET', url: '/assets/islands.js' });
    expect(entry.statusCode).toBe(200);
    expect(entry.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(entry.headers['cache-control']).toBe('no-cache');
    expect(entry.body).toBe('console.log("islands");');
    const chunk = await app.inject({ method: 'GET', url: '/assets/chunks/cart-ABC123.js' });
    expect(chunk.headers['cache-control']).toContain('immutable');
  });

  it('refuses files outside the directory or of other types', async () => {
    for (const url of ['/assets/secret.txt', '/assets/..%2F..%2Fetc%2Fpasswd', '/assets/missing.js', '/assets/%2e%2e/x.js']) {
      expect((await app.inject({ method: 'GET', url })).statusCode).toBe(404);
    }
    expect(assetFile('/srv/assets', '../outside.js')).toBe('/srv/assets/outside.js');
    expect(assetFile('/srv/assets', '')).toBeNull();
  });

  it('answers the favicon with 204', async () => {
    expect((await app.inject({ method: 'GET', url: '/favicon.ico' })).statusCode).toBe(204);
  });
});
