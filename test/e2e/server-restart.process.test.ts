// What a visitor did survives a crash of the real server process: a cart entry and a
// restock sign-up acknowledged over HTTP are still there after SIGKILL and a restart on the
// same DATA_DIR. The store test checks the same at the store level; this one goes through
// `bin/start.mjs` (what `npm start` runs), its environment and the HTTP API, as deployed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Browser } from './browser.ts';
import { freePort, startServer, type ServerProcess } from './server-process.ts';

describe('the server process after SIGKILL', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-restart-'));
  let server: ServerProcess | null = null;

  afterAll(async () => {
    await server?.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  // Start-up time is bench/'s concern; startServer's deadline is only a hang guard.
  const start = (port: number) => startServer({ port, env: { DATA_DIR: dataDir } });

  it('keeps an acknowledged cart entry and restock sign-up', async () => {
    const port = await freePort();
    server = await start(port);
    const visitor = Browser.at(server.origin);

    // C3: the first page view hands out the crumb that the API's double-submit check wants.
    const home = await visitor.get('/');
    expect(home.status).toBe(200);
    expect(visitor.crumb).toMatch(/^[A-Za-z0-9_-]{16,64}$/);

    const added = await visitor.post('/api/commerce/shopping-cart/entries', { itemId: 'tee', sku: 'TEE-S', quantity: 2, additionalFields: null });
    expect(added.status, added.text).toBe(200);
    const cartId = visitor.cookies.get('CART');
    expect(cartId).toBeTruthy();

    // The demo site has a local captcha key (A13): its tokens read local-ok:{siteKey}:{random}.
    const signUpBody = (token: string) => ({
      productId: 'tee',
      variantId: 'tee-l',
      siteVisitorEmail: 'Night.Owl@example.com',
      isJoinMailingList: false,
      captchaToken: `local-ok:demo-site-key:${token}`,
    });
    const signedUp = await visitor.post('/api/site-users/account/notifications/restock', signUpBody('before-crash'));
    expect(signedUp.status, signedUp.text).toBe(200);
    const before = signedUp.json<{ signUp: { id: string; createdOn: string } }>().signUp;

    expect(await server.kill('SIGKILL')).toBe(null); // killed by the signal, not exited
    server = await start(port);

    const cart = (await visitor.get('/api/commerce/shopping-cart')).json();
    expect(cart).toMatchObject({ id: cartId, totalQuantity: 2, entries: [{ itemId: 'tee', quantity: 2, chosenVariant: { sku: 'TEE-S' } }] });

    // A pending sign-up is unique per variant and email (B10): asking again returns the
    // stored row, so an equal id and creation time prove it outlived the crash.
    const again = await visitor.post('/api/site-users/account/notifications/restock', signUpBody('after-restart'));
    expect(again.status, again.text).toBe(200);
    expect(again.json<{ signUp: { id: string; createdOn: string } }>().signUp).toMatchObject(before);
  }, 240_000);
});
