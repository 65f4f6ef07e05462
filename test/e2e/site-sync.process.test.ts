// Issue 17's acceptance for the site content sync, through `bin/start.mjs` as deployed: an
// owner edits a price and a title and removes a product in a copy of the demo's
// catalog.json, restarts on the same data (PGlite DATA_DIR, and PostgreSQL when one answers):
// pages and API show the new values, the removed product is hidden, a visitor's cart and
// restock sign-up are still there, and a restart with no edit logs "no changes".
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { reachablePostgres, throwAwaySchema } from '../../renderer/test-support/postgres.ts';
import { Browser } from './browser.ts';
import { freePort, startServer, type ServerProcess } from './server-process.ts';

const DEMO = path.join(import.meta.dirname, '..', '..', 'fixtures', 'sites', 'demo');

interface CatalogFile {
  products: { id: string; title: string; variants: { id: string; priceCents?: number }[] }[];
}

function syncScenario(database: () => Promise<{ env: Record<string, string>; drop(): Promise<void> }>) {
  const siteDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-sync-site-'));
  let server: ServerProcess | null = null;
  let drop: (() => Promise<void>) | null = null;

  afterAll(async () => {
    await server?.kill('SIGKILL');
    await drop?.();
    fs.rmSync(siteDir, { recursive: true, force: true });
  });

  it('applies catalogue edits on restart and keeps what visitors did', async () => {
    fs.cpSync(DEMO, siteDir, { recursive: true });
    const db = await database();
    drop = db.drop;
    const port = await freePort();
    const start = () => startServer({ port, env: { ...db.env, SITE_DIR: siteDir } });
    server = await start();
    // `npm ci` prepared the demo's store (its catalogue synced): a new DATA_DIR starts from it.
    // PostgreSQL, or a machine where the preparation could not run, inserts the catalogue.
    expect(server.output()).toMatch(/quire: site content \(catalog\.json\): 13 products (added|in the store npm ci prepared)/);

    const visitor = Browser.at(server.origin);
    expect((await visitor.get('/')).status).toBe(200);
    const added = await visitor.post('/api/commerce/shopping-cart/entries', { itemId: 'cap', sku: 'CAP-1', quantity: 1, additionalFields: null });
    expect(added.status, added.text).toBe(200);
    const signUpBody = (token: string) => ({
      productId: 'tee',
      variantId: 'tee-l',
      siteVisitorEmail: 'night.owl@example.com',
      isJoinMailingList: false,
      captchaToken: `local-ok:demo-site-key:${token}`,
    });
    const signedUp = await visitor.post('/api/site-users/account/notifications/restock', signUpBody('before-edit'));
    expect(signedUp.status, signedUp.text).toBe(200);
    const before = signedUp.json<{ signUp: { id: string } }>().signUp;
    expect((await visitor.get('/shop/cap')).status).toBe(200);

    // The owner's edit: a title, a price, and the cap taken out of the catalogue.
    const file = path.join(siteDir, 'catalog.json');
    const catalog = JSON.parse(fs.readFileSync(file, 'utf8')) as CatalogFile;
    const tee = catalog.products.find((product) => product.id === 'tee')!;
    tee.title = 'Everyday Tee';
    tee.variants[0]!.priceCents = 2700;
    catalog.products = catalog.products.filter((product) => product.id !== 'cap');
    // A misspelled key is ignored by the import, and said so in the start log.
    (catalog.products.find((product) => product.id === 'mug')!.variants[0] as Record<string, unknown>).price = 1900;
    fs.writeFileSync(file, JSON.stringify(catalog, null, 2));

    await server.kill('SIGTERM');
    server = await start();
    expect(server.output()).toContain('quire: site content (catalog.json): 1 product changed, 1 hidden');
    expect(server.output()).toMatch(/quire: catalog\.json:\d+:\d+ warning SITE_KEY_UNKNOWN unknown key "price" in products\[2\]\.variants\[0\] \(did you mean "priceCents"\?\)/);

    const page = await visitor.get('/shop/tee');
    expect(page.status).toBe(200);
    // The image's alt text in `extra` still says "Classic Tee"; the title does not.
    expect(page.text).toMatch(/<title>[^<]*Everyday Tee/);
    expect(page.text).not.toMatch(/<title>[^<]*Classic Tee/);
    expect(page.text).toContain('27.00');
    expect((await visitor.get('/shop/cap')).status).toBe(404);
    expect((await visitor.get('/shop')).text).not.toContain('Canvas Cap');
    const refused = await visitor.post('/api/commerce/shopping-cart/entries', { itemId: 'cap', sku: 'CAP-1', quantity: 1, additionalFields: null });
    expect(refused.status).not.toBe(200);

    // The visitor's cart still holds the (now hidden) cap; the sign-up is the stored one.
    const cart = (await visitor.get('/api/commerce/shopping-cart')).json<{ entries: { itemId: string }[] }>();
    expect(cart.entries.map((entry) => entry.itemId)).toEqual(['cap']);
    const again = await visitor.post('/api/site-users/account/notifications/restock', signUpBody('after-edit'));
    expect(again.status, again.text).toBe(200);
    expect(again.json<{ signUp: { id: string } }>().signUp.id).toBe(before.id);

    await server.kill('SIGTERM');
    server = await start();
    expect(server.output()).toContain('quire: site content (catalog.json): no changes');
  }, 300_000);
}

describe('site content sync across restarts (PGlite DATA_DIR)', () => {
  syncScenario(async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-sync-data-'));
    return { env: { DATA_DIR: dataDir }, drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
  });
});

const pgUrl = await reachablePostgres();
describe.skipIf(pgUrl === null)(pgUrl === null ? 'site content sync across restarts (PostgreSQL: no server, skipped)' : 'site content sync across restarts (PostgreSQL)', () => {
  syncScenario(async () => {
    const schema = await throwAwaySchema(pgUrl!, 'sync_e2e');
    return { env: { DATABASE_URL: schema.databaseUrl }, drop: schema.drop };
  });
});
