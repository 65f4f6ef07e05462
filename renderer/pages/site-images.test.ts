import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SQS_SRCSET_WIDTHS } from '../../hydrate/shared/image-width-variants.ts';
import { loadSite } from '../site/load-site.ts';
import type { LoadedSite } from '../site/site-types.ts';
import { IMMUTABLE_CACHE, PLAIN_IMAGE_CACHE, indexImages, pickImageFile, registerSiteImageRoute } from './site-images.ts';

const DEMO = path.resolve(import.meta.dirname, '..', '..', 'fixtures', 'sites', 'demo');

describe('indexImages / pickImageFile', () => {
  const index = indexImages('/site/images', ['tee-1692d8b5-300w.webp', 'tee-1692d8b5-100w.webp', 'tee-1692d8b5-1000w.webp', 'logo.png', 'logo-50w.png', 'notes.txt', 'run-300w.svg']);

  it('groups width variants under the public name, smallest first, and skips what is not an image', () => {
    expect([...index.keys()].sort()).toEqual(['logo.png', 'tee-1692d8b5.webp']);
    expect(index.get('tee-1692d8b5.webp')!.variants.map((v) => v.width)).toEqual([100, 300, 1000]);
    expect(index.get('logo.png')!.original).toBe('/site/images/logo.png');
  });

  it('answers a width with the largest variant under it, never upscaling', () => {
    const tee = index.get('tee-1692d8b5.webp')!;
    const pick = (format?: string) => path.basename(pickImageFile(tee, format)!);
    expect(pick('100w')).toBe('tee-1692d8b5-100w.webp');
    expect(pick('500w')).toBe('tee-1692d8b5-300w.webp');
    expect(pick('2500w')).toBe('tee-1692d8b5-1000w.webp');
    expect(pick('50w')).toBe('tee-1692d8b5-100w.webp');
    // No format (a plain <img src>) or `original`: the original, else the largest variant.
    expect(pick()).toBe('tee-1692d8b5-1000w.webp');
    expect(path.basename(pickImageFile(index.get('logo.png')!, undefined)!)).toBe('logo.png');
    expect(path.basename(pickImageFile(index.get('logo.png')!, '750w')!)).toBe('logo-50w.png');
  });
});

describe('GET /assets/site/images/:file', () => {
  let app: FastifyInstance;
  let site: LoadedSite;
  let dir: string;

  beforeAll(async () => {
    site = await loadSite(DEMO);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-images-'));
    fs.mkdirSync(path.join(dir, 'images'));
    fs.writeFileSync(path.join(dir, 'images', 'banner.jpg'), 'jpeg bytes');
    let current = site;
    app = Fastify();
    registerSiteImageRoute(app, () => current);
    await app.ready();
    // A second site folder, swapped in as a preview reload does.
    (app as unknown as { swap: (s: LoadedSite) => void }).swap = (s) => {
      current = s;
    };
  });

  afterAll(async () => {
    await app.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('serves every srcset width of a demo picture as WebP, cached for good (the name holds its hash)', async () => {
    const name = fs.readdirSync(path.join(DEMO, 'images')).find((f) => /^tee-[0-9a-f]{8}-100w\.webp$/.test(f))!.replace('-100w', '');
    const sizes: number[] = [];
    for (const width of SQS_SRCSET_WIDTHS) {
      const response = await app.inject({ method: 'GET', url: `/assets/site/images/${name}?format=${width}w` });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('image/webp');
      expect(response.headers['cache-control']).toBe(IMMUTABLE_CACHE);
      expect(response.rawPayload.subarray(8, 12).toString('latin1')).toBe('WEBP');
      sizes.push(response.rawPayload.length);
    }
    // Wider asks get more bytes until the largest stored variant (1000w for a product).
    expect(sizes.slice(0, 5)).toEqual([...sizes.slice(0, 5)].sort((a, b) => a - b));
    expect(sizes[5]).toBe(sizes[4]);
    expect(sizes[6]).toBe(sizes[4]);
  });

  it('404s unknown names and paths that leave the folder; 400s a format that is not a width', async () => {
    for (const url of ['/assets/site/images/nope.webp', '/assets/site/images/..%2Fcatalog.json', '/assets/site/images/%2e%2e', '/assets/site/images/catalog.json']) {
      expect((await app.inject({ method: 'GET', url })).statusCode, url).toBe(404);
    }
    const bad = await app.inject({ method: 'GET', url: '/assets/site/images/x.webp?format=huge' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('a name without a hash revalidates; a reloaded site is indexed afresh', async () => {
    (app as unknown as { swap: (s: LoadedSite) => void }).swap({ ...site, dir });
    const response = await app.inject({ method: 'GET', url: '/assets/site/images/banner.jpg' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/jpeg');
    expect(response.headers['cache-control']).toBe(PLAIN_IMAGE_CACHE);
    expect(response.body).toBe('jpeg bytes');
  });
});
