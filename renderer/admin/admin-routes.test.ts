import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, useApiHarness } from '../test-support/api-harness.ts';
import { inventoryRow } from './admin-routes.ts';
import { ensureFirstOwner, firstOwnerLines, OwnerSettingsError } from './first-owner.ts';
import { knownDeviceNonce, OWNER_COOKIE, OWNER_DEVICE_COOKIE } from './owner-auth.ts';

// The admin's API: owner sign-in and out, the session cookie and its CSRF token, API keys,
// and the [admin] guard's three ways in (ADMIN_TOKEN, API key, owner session).

const EMAIL = 'owner@shop.test';
const PASSWORD = 'a long owner password';

describe('admin API', () => {
  const h = useApiHarness();

  async function makeOwner(): Promise<void> {
    await ensureFirstOwner(h.store, { ADMIN_EMAIL: EMAIL, ADMIN_PASSWORD: PASSWORD });
  }

  function ownerCookie(response: LightMyRequestResponse): string {
    const cookie = response.cookies.find((c) => c.name === OWNER_COOKIE);
    if (!cookie) throw new Error('no owner cookie');
    return cookie.value;
  }

  async function signIn(): Promise<{ cookie: string; csrf: string }> {
    await makeOwner();
    const response = await h.inject({ method: 'POST', url: '/api/admin/session', payload: { email: 'Owner@Shop.test ', password: PASSWORD } });
    expect(response.statusCode).toBe(200);
    return { cookie: ownerCookie(response), csrf: response.json().csrfToken };
  }

  it('signs an owner in with an HttpOnly, SameSite=Strict cookie on path /, and reads the session back', async () => {
    await makeOwner();
    const response = await h.inject({ method: 'POST', url: '/api/admin/session', payload: { email: EMAIL, password: PASSWORD } });
    expect(response.statusCode).toBe(200);
    const cookie = response.cookies.find((c) => c.name === OWNER_COOKIE)!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    const body = response.json();
    expect(body.owner).toEqual({ email: EMAIL });
    expect(body.csrfToken).toMatch(/^[\w-]{32}$/);
    const session = await h.inject({ method: 'GET', url: '/api/admin/session', cookies: { [OWNER_COOKIE]: cookie.value } });
    expect(session.json()).toEqual({ owner: { email: EMAIL }, csrfToken: body.csrfToken });
    // Only the hash of the secret is stored.
    const rows = await h.store.client.query<{ id_hash: string }>('SELECT id_hash FROM owner_sessions');
    expect(rows.map((r) => r.id_hash)).not.toContain(cookie.value);
  });

  it('refuses a wrong password with a stable code and never echoes it; missing fields are 400', async () => {
    await makeOwner();
    const wrong = await h.inject({ method: 'POST', url: '/api/admin/session', payload: { email: EMAIL, password: 'hunter2-wrong' } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ error: 'Email or password is incorrect.', code: 'INVALID_CREDENTIALS' });
    expect(wrong.body).not.toContain('hunter2');
    const unknown = await h.inject({ method: 'POST', url: '/api/admin/session', payload: { email: 'nobody@shop.test', password: PASSWORD } });
    expect(unknown.json().code).toBe('INVALID_CREDENTIALS');
    const missing = await h.inject({ method: 'POST', url: '/api/admin/session', payload: { email: EMAIL } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().code).toBe('MISSING_CREDENTIALS');
    const form = await h.inject({ method: 'POST', url: '/api/admin/session', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `email=${EMAIL}&password=x` });
    expect(form.statusCode).toBe(415);
  });

  it('rate limits failed sign-ins per email (5 in the window), even with the right password after', async () => {
    await makeOwner();
    for (let i = 0; i < 5; i++) {
      const r = await h.inject({ method: 'POST', url: '/api/admin/session', payload: { email: EMAIL, password: `wrong-${i}` } });
      expect(r.statusCode).toBe(401);
    }
    const limited = await h.inject({ method: 'POST', url: '/api/admin/session', payload: { email: EMAIL, password: PASSWORD } });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe('RATE_LIMITED');
    expect(limited.headers['retry-after']).toBeDefined();
  });

  it('a stranger failing for the owner email does not lock out a browser the owner signed in with', async () => {
    await makeOwner();
    const first = await h.inject({ method: 'POST', url: '/api/admin/session', payload: { email: EMAIL, password: PASSWORD } });
    const device = first.cookies.find((c) => c.name === OWNER_DEVICE_COOKIE)!;
    expect(device).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/admin/session' });
    const stranger = '203.0.113.9';
    for (let i = 0; i < 5; i++) {
      const r = await h.inject({ method: 'POST', url: '/api/admin/session', remoteAddress: stranger, payload: { email: EMAIL, password: `guess-${i}` } });
      expect(r.statusCode).toBe(401);
    }
    const sign = (cookies: Record<string, string>) =>
      h.inject({ method: 'POST', url: '/api/admin/session', cookies, payload: { email: EMAIL, password: PASSWORD } });
    // The email is locked for any other browser, a forged device token included.
    expect((await sign({})).statusCode).toBe(429);
    expect((await sign({ [OWNER_DEVICE_COOKIE]: `${device.value.split('.')[0]}.forged` })).statusCode).toBe(429);
    const known = await sign({ [OWNER_DEVICE_COOKIE]: device.value });
    expect(known.statusCode).toBe(200);
    // A known browser keeps its token, and has a window of its own: 5 failures lock it too.
    expect(known.cookies.find((c) => c.name === OWNER_DEVICE_COOKIE)).toBeUndefined();
    for (let i = 0; i < 5; i++) {
      const r = await h.inject({ method: 'POST', url: '/api/admin/session', cookies: { [OWNER_DEVICE_COOKIE]: device.value }, payload: { email: EMAIL, password: `typo-${i}` } });
      expect(r.statusCode).toBe(401);
    }
    expect((await sign({ [OWNER_DEVICE_COOKIE]: device.value })).statusCode).toBe(429);
  });

  it('a device token is the owner password hash\'s: a new password forgets every device', async () => {
    await makeOwner();
    const first = await h.inject({ method: 'POST', url: '/api/admin/session', payload: { email: EMAIL, password: PASSWORD } });
    const device = first.cookies.find((c) => c.name === OWNER_DEVICE_COOKIE)!.value;
    const owner = (await h.store.read.admin.getOwnerByEmail(EMAIL))!;
    expect(knownDeviceNonce(device, owner)).not.toBeNull();
    expect(knownDeviceNonce(device, { ...owner, passwordHash: owner.passwordHash + 'x' })).toBeNull();
    expect(knownDeviceNonce(device, { ...owner, id: 'another' })).toBeNull();
    expect(knownDeviceNonce('no-dot', owner)).toBeNull();
    expect(knownDeviceNonce(device, null)).toBeNull();
  });

  it('the [admin] guard takes the owner session: reads need no CSRF header, writes do', async () => {
    const { cookie, csrf } = await signIn();
    const cookies = { [OWNER_COOKIE]: cookie };
    expect((await h.inject({ method: 'GET', url: '/api/site-users/account/notifications/restock/groups', cookies })).statusCode).toBe(200);
    const url = '/api/commerce/inventory/stock/p1/v1';
    const noCsrf = await h.inject({ method: 'PUT', url, cookies, payload: { qtyInStock: 7 } });
    expect(noCsrf.statusCode).toBe(403);
    expect(noCsrf.json().code).toBe('OWNER_CSRF_FAIL');
    const wrongCsrf = await h.inject({ method: 'PUT', url, cookies, headers: { 'x-owner-csrf': 'x'.repeat(32) }, payload: { qtyInStock: 7 } });
    expect(wrongCsrf.statusCode).toBe(403);
    const ok = await h.inject({ method: 'PUT', url, cookies, headers: { 'x-owner-csrf': csrf }, payload: { qtyInStock: 7 } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().result.qtyInStock).toBe(7);
  });

  it('signing out ends the session: the same cookie no longer passes the guard', async () => {
    const { cookie, csrf } = await signIn();
    const cookies = { [OWNER_COOKIE]: cookie };
    expect((await h.inject({ method: 'DELETE', url: '/api/admin/session', cookies })).statusCode).toBe(403);
    const out = await h.inject({ method: 'DELETE', url: '/api/admin/session', cookies, headers: { 'x-owner-csrf': csrf } });
    expect(out.statusCode).toBe(200);
    expect(out.cookies.find((c) => c.name === OWNER_COOKIE)?.value).toBe('');
    const after = await h.inject({ method: 'GET', url: '/api/admin/inventory', cookies });
    expect(after.statusCode).toBe(401);
    expect(after.json().code).toBe('ADMIN_REQUIRED');
    expect((await h.inject({ method: 'GET', url: '/api/admin/session', cookies })).json()).toEqual({ owner: null, csrfToken: null });
  });

  it('an expired session is refused', async () => {
    const { cookie } = await signIn();
    h.clock.now += 12 * 60 * 60 * 1000 + 1;
    const response = await h.inject({ method: 'GET', url: '/api/admin/inventory', cookies: { [OWNER_COOKIE]: cookie } });
    expect(response.statusCode).toBe(401);
  });

  it('API keys: created by an owner (secret shown once, stored hashed), used as a bearer, deleted', async () => {
    const { cookie, csrf } = await signIn();
    const owner = { cookies: { [OWNER_COOKIE]: cookie }, headers: { 'x-owner-csrf': csrf } };
    const created = await h.inject({ method: 'POST', url: '/api/admin/api-keys', ...owner, payload: { name: 'Stock sync' } });
    expect(created.statusCode).toBe(200);
    const { apiKey, secret } = created.json();
    expect(secret).toMatch(/^qk_[\w-]{32}$/);
    expect(apiKey).toMatchObject({ name: 'Stock sync', prefix: secret.slice(0, 8), lastUsedAt: null });
    const rows = await h.store.client.query<Record<string, unknown>>('SELECT * FROM api_keys');
    expect(JSON.stringify(rows)).not.toContain(secret);

    const listed = await h.inject({ method: 'GET', url: '/api/admin/api-keys', cookies: owner.cookies });
    expect(listed.json().apiKeys.map((k: { id: string }) => k.id)).toEqual([apiKey.id]);
    expect(listed.body).not.toContain(secret);

    const bearer = { authorization: `Bearer ${secret}` };
    const write = await h.inject({ method: 'PUT', url: '/api/commerce/inventory/stock/p1/v1', headers: bearer, payload: { qtyInStock: 2 } });
    expect(write.statusCode).toBe(200);
    // A key cannot manage keys: that needs an owner session.
    const mint = await h.inject({ method: 'POST', url: '/api/admin/api-keys', headers: bearer, payload: { name: 'x' } });
    expect(mint.statusCode).toBe(401);
    expect(mint.json().code).toBe('OWNER_REQUIRED');

    const deleted = await h.inject({ method: 'DELETE', url: `/api/admin/api-keys/${apiKey.id}`, ...owner });
    expect(deleted.json()).toEqual({ deleted: true });
    const again = await h.inject({ method: 'DELETE', url: `/api/admin/api-keys/${apiKey.id}`, ...owner });
    expect(again.statusCode).toBe(404);
    expect(again.json().code).toBe('API_KEY_NOT_FOUND');
    const revoked = await h.inject({ method: 'PUT', url: '/api/commerce/inventory/stock/p1/v1', headers: bearer, payload: { qtyInStock: 2 } });
    expect(revoked.statusCode).toBe(401);
    expect(revoked.json().code).toBe('ADMIN_REQUIRED');
  });

  it('an API key name is required and bounded', async () => {
    const { cookie, csrf } = await signIn();
    for (const name of ['', '   ', 'x'.repeat(61)]) {
      const r = await h.inject({ method: 'POST', url: '/api/admin/api-keys', cookies: { [OWNER_COOKIE]: cookie }, headers: { 'x-owner-csrf': csrf }, payload: { name } });
      expect(r.statusCode).toBe(400);
      expect(r.json().code).toBe('INVALID_KEY_NAME');
    }
  });

  it('the guard: the ADMIN_TOKEN still passes; a wrong bearer, a malformed header or nothing is 401 ADMIN_REQUIRED', async () => {
    const url = '/api/admin/inventory';
    expect((await h.inject({ method: 'GET', url, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).statusCode).toBe(200);
    for (const headers of [{}, { authorization: 'Bearer qk_wrong' }, { authorization: 'Bearer nope' }, { authorization: 'Basic abc' }]) {
      const r = await h.inject({ method: 'GET', url, headers });
      expect(r.statusCode).toBe(401);
      expect(r.json()).toEqual({ error: 'Admin authorization required.', code: 'ADMIN_REQUIRED' });
    }
  });

  // Probe of the live server: 40 wrong bearers from one address were 40 401s, so a short
  // ADMIN_TOKEN could be guessed without end (owner passwords stop after 5 per email, 30 per address).
  it('wrong bearers count as failed sign-ins of the address: past the window even the right token waits', async () => {
    await h.reset({ limits: { loginFailuresPerIp: { limit: 3, windowMs: 60_000 } } });
    const url = '/api/admin/inventory';
    const guesses = await Promise.all(['a', 'b', 'c', 'd', 'e', 'qk_f'].map((guess) => h.inject({ method: 'GET', url, headers: { authorization: `Bearer ${guess}` } })));
    expect(guesses.filter((r) => r.statusCode === 401)).toHaveLength(3);
    const refused = guesses.filter((r) => r.statusCode === 429);
    expect(refused).toHaveLength(3);
    expect(refused[0]!.json().code).toBe('RATE_LIMITED');
    expect(refused[0]!.headers['retry-after']).toBeDefined();
    const right = await h.inject({ method: 'GET', url, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(right.statusCode).toBe(429);
    // Another address is not held back, and the right token counts nothing.
    for (let i = 0; i < 5; i += 1) {
      expect((await h.inject({ method: 'GET', url, remoteAddress: '198.51.100.7', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).statusCode).toBe(200);
    }
  });

  it('inventory: search by title or SKU, sort by name, stock and price, pages of 10', async () => {
    const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const get = async (query: string) => (await h.inject({ method: 'GET', url: `/api/admin/inventory?${query}`, headers: auth })).json();
    const first = await get('');
    expect(first.products).toHaveLength(10);
    expect(first.total).toBe(12);
    expect(first.nextPage).toBe(2);
    expect((await get('page=2')).products).toHaveLength(2);
    expect((await get('page=2')).nextPage).toBeNull();
    expect((await get('q=vinyl')).products.map((p: { id: string }) => p.id)).toEqual(['pso']);
    expect((await get('q=hd-m')).products.map((p: { id: string }) => p.id)).toEqual(['p3']);
    const byPrice = (await get('sort=price&dir=desc')).products.map((p: { priceCents: number }) => p.priceCents);
    expect(byPrice).toEqual([...byPrice].sort((a, b) => b - a));
    const byStock = (await get('sort=stock&dir=asc')).products;
    expect(byStock[0].stockTotal).toBe(0);
    const hoodie = (await get('q=hoodie')).products[0];
    expect(hoodie).toMatchObject({ title: 'Hoodie', stockTotal: 20, priceCents: 4000 });
    expect(hoodie.variants.map((v: { label: string }) => v.label)).toEqual(['S', 'M']);
    // The price column and its sort use the price an item sells at: the Cap (3000, on sale at 2000)
    // sorts with the 2000s, showing its regular price as "was".
    expect(hoodie.regularPriceCents).toBeNull();
    const cap = (await get('q=cap')).products[0];
    expect(cap).toMatchObject({ id: 'sale', priceCents: 2000, regularPriceCents: 3000 });
    expect(cap.variants[0]).toMatchObject({ sku: 'CAP-1', priceCents: 2000, regularPriceCents: 3000 });
    const ascending = (await get('sort=price&dir=asc')).products.map((p: { id: string }) => p.id);
    expect(ascending.slice(ascending.indexOf('psub'), ascending.indexOf('psub') + 4)).toEqual(['psub', 'sale', 'pso', 'p1']);
    const bad = await h.inject({ method: 'GET', url: '/api/admin/inventory?sort=colour', headers: auth });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('BAD_QUERY');
  });

  it('submissions: a page per form and a CSV export with quoted fields and formula cells defused', async () => {
    const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const base = { pageId: 'pg', pageTitle: 'Contact', pagePath: '/contact', contentSource: 'c', pagePermissionTypeValue: 1, siteUserId: null };
    await h.store.read.insertSubmission({ ...base, id: 's1', formId: 'contact', values: { name: ['Ada', 'Lovelace'], msg: 'Hi, "there"\nsecond line' }, createdOn: 1000 });
    await h.store.read.insertSubmission({ ...base, id: 's2', formId: 'contact', values: { name: ['=HYPERLINK("x")', 'B'], msg: '+1-2' }, createdOn: 2000 });
    const page = (await h.inject({ method: 'GET', url: '/api/admin/submissions?formId=contact', headers: auth })).json();
    expect(page.form.fields).toEqual([{ id: 'name', title: 'Name' }, { id: 'msg', title: 'Message' }]);
    expect(page.submissions.map((s: { id: string }) => s.id)).toEqual(['s2', 's1']);
    expect(page.submissions[1].values).toEqual({ name: 'Ada Lovelace', msg: 'Hi, "there"\nsecond line' });

    const csv = await h.inject({ method: 'GET', url: '/api/admin/submissions/export?formId=contact', headers: auth });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe('attachment; filename="contact-submissions.csv"');
    expect(csv.body).toBe(
      '\uFEFF"Submitted on","Page","Name","Message"\r\n' +
        `"${new Date(2000).toISOString()}","/contact","'=HYPERLINK(""x"") B","'+1-2"\r\n` +
        `"${new Date(1000).toISOString()}","/contact","Ada Lovelace","Hi, ""there""\nsecond line"\r\n`,
    );
    const missing = await h.inject({ method: 'GET', url: '/api/admin/submissions/export?formId=nope', headers: auth });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('FORM_NOT_FOUND');
    const badCursor = await h.inject({ method: 'GET', url: '/api/admin/submissions?formId=contact&cursor=%%%', headers: auth });
    expect(badCursor.statusCode).toBe(400);
  });

  it('serves the admin shell at /admin with the storefront CSP and no inline script', async () => {
    const response = await h.inject({ method: 'GET', url: '/admin' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    expect(response.body).toContain('<script type="module" src="/assets/admin.js"></script>');
    expect(response.body).not.toMatch(/<script(?![^>]*\bsrc=)/);
  });
});

describe('first owner', () => {
  const h = useApiHarness();

  it('creates the demo owner with a generated password once, then leaves the store alone', async () => {
    const first = await ensureFirstOwner(h.store, {});
    expect(first.kind).toBe('created');
    const [line] = firstOwnerLines(first, 'http://127.0.0.1:3000');
    expect(line).toContain('owner@example.com created with password ');
    expect(await ensureFirstOwner(h.store, {})).toEqual({ kind: 'unchanged' });
  });

  it('ADMIN_EMAIL + ADMIN_PASSWORD create that owner, and a later start resets its password, signing out its sessions', async () => {
    expect(await ensureFirstOwner(h.store, { ADMIN_EMAIL: EMAIL, ADMIN_PASSWORD: PASSWORD })).toEqual({ kind: 'created', email: EMAIL, generatedPassword: null });
    const before = await h.inject({ method: 'POST', url: '/api/admin/session', payload: { email: EMAIL, password: PASSWORD } });
    const cookies = { [OWNER_COOKIE]: before.cookies.find((c) => c.name === OWNER_COOKIE)!.value };
    // The same password again (every restart of a configured store) changes nothing.
    expect(await ensureFirstOwner(h.store, { ADMIN_EMAIL: EMAIL, ADMIN_PASSWORD: PASSWORD })).toEqual({ kind: 'unchanged' });
    expect((await h.inject({ method: 'GET', url: '/api/admin/session', cookies })).json().owner).toEqual({ email: EMAIL });
    const reset = await ensureFirstOwner(h.store, { ADMIN_EMAIL: EMAIL, ADMIN_PASSWORD: 'another long password' });
    expect(reset).toEqual({ kind: 'updated', email: EMAIL, sessionsEnded: 1, apiKeys: 0 });
    expect(firstOwnerLines(reset, 'http://x')).toEqual([`quire: admin owner ${EMAIL}: password set from ADMIN_PASSWORD; 1 session(s) signed out`]);
    // A session made with the old password is over.
    expect((await h.inject({ method: 'GET', url: '/api/admin/session', cookies })).json().owner).toBeNull();
    const ok = await h.inject({ method: 'POST', url: '/api/admin/session', payload: { email: EMAIL, password: 'another long password' } });
    expect(ok.statusCode).toBe(200);
  });

  it('naming an owner in ADMIN_EMAIL removes the demo owner whose password a start log printed', async () => {
    const demo = await ensureFirstOwner(h.store, {});
    const demoPassword = demo.kind === 'created' ? demo.generatedPassword! : '';
    const signIn = (email: string, password: string) => h.inject({ method: 'POST', url: '/api/admin/session', payload: { email, password } });
    const demoSession = await signIn('owner@example.com', demoPassword);
    expect(demoSession.statusCode).toBe(200);
    const result = await ensureFirstOwner(h.store, { ADMIN_EMAIL: EMAIL, ADMIN_PASSWORD: PASSWORD });
    expect(result).toEqual({ kind: 'created', email: EMAIL, generatedPassword: null, demoRemoved: true });
    expect(firstOwnerLines(result, 'http://x')[0]).toBe('quire: demo owner owner@example.com removed: ADMIN_EMAIL names the owner');
    expect((await signIn('owner@example.com', demoPassword)).statusCode).toBe(401);
    const cookies = { [OWNER_COOKIE]: demoSession.cookies.find((c) => c.name === OWNER_COOKIE)!.value };
    expect((await h.inject({ method: 'GET', url: '/api/admin/session', cookies })).json().owner).toBeNull();
    expect((await signIn(EMAIL, PASSWORD)).statusCode).toBe(200);
    // ADMIN_EMAIL naming the demo address itself keeps it (it is then the configured owner).
    expect((await ensureFirstOwner(h.store, { ADMIN_EMAIL: 'owner@example.com', ADMIN_PASSWORD: PASSWORD })).kind).toBe('created');
    expect((await ensureFirstOwner(h.store, { ADMIN_EMAIL: 'owner@example.com', ADMIN_PASSWORD: PASSWORD })).kind).toBe('unchanged');
  });

  it('refuses half or weak settings with one clear message, never echoing the password', async () => {
    await expect(ensureFirstOwner(h.store, { ADMIN_EMAIL: EMAIL })).rejects.toThrow(OwnerSettingsError);
    await expect(ensureFirstOwner(h.store, { ADMIN_EMAIL: EMAIL, ADMIN_PASSWORD: 'short' })).rejects.toThrow('ADMIN_PASSWORD must have at least 10 characters');
    await expect(ensureFirstOwner(h.store, { ADMIN_EMAIL: 'not-an-email', ADMIN_PASSWORD: PASSWORD })).rejects.toThrow('ADMIN_EMAIL is not an email address');
  });
});

describe('inventoryRow prices', () => {
  const variant = (id: string, priceCents: number, sale: { salePriceCents?: number; onSale?: boolean } = {}) => ({
    id,
    sku: id.toUpperCase(),
    attributes: {},
    priceCents,
    salePriceCents: sale.salePriceCents ?? 0,
    onSale: sale.onSale ?? false,
    qtyInStock: 1,
    unlimited: false,
  });
  const product = (variants: ReturnType<typeof variant>[]) => ({
    id: 'p',
    title: 'P',
    urlSlug: 'p',
    collectionId: null,
    productType: 1 as const,
    isSubscribable: false,
    subscriptionPlan: null,
    additionalFieldsFormId: null,
    restockEnabled: false,
    variants,
    extra: {},
  });

  it('the row shows the lowest price a variant sells at, with that variant regular price when on sale', () => {
    const row = inventoryRow(product([variant('a', 3000, { salePriceCents: 2200, onSale: true }), variant('b', 2500)]));
    expect(row).toMatchObject({ priceCents: 2200, regularPriceCents: 3000 });
    expect(row.variants.map((v) => [v.priceCents, v.regularPriceCents])).toEqual([
      [2200, 3000],
      [2500, null],
    ]);
  });

  it('a sale price that is not switched on, or not lower, shows no "was"; on a tie the regular-priced variant wins', () => {
    expect(inventoryRow(product([variant('a', 3000, { salePriceCents: 2000 })]))).toMatchObject({ priceCents: 3000, regularPriceCents: null });
    expect(inventoryRow(product([variant('a', 3000, { salePriceCents: 3000, onSale: true })]))).toMatchObject({ priceCents: 3000, regularPriceCents: null });
    expect(inventoryRow(product([variant('a', 3000, { salePriceCents: 2000, onSale: true }), variant('b', 2000)]))).toMatchObject({ priceCents: 2000, regularPriceCents: null });
    expect(inventoryRow(product([]))).toMatchObject({ priceCents: 0, regularPriceCents: null });
  });
});
