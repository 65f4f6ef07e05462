import { describe, expect, it } from 'vitest';
import { acceptanceSeed, adminHeaders, cookieOf, json, useApiHarness, withCrumb } from '../test-support/api-harness.ts';
import { MAX_CART_ENTRIES } from './routes/cart-routes.ts';

// STOREFRONT B acceptance checks for the cart, subscriptions, stock and restock, run with
// app.inject against one shared PGlite database that is emptied and reseeded per test.

const h = useApiHarness();

const ENTRIES = '/api/commerce/shopping-cart/entries';
const CART = '/api/commerce/shopping-cart';

function add(body: Record<string, unknown>, cookies: Record<string, string> = {}, url = ENTRIES) {
  return h.inject(withCrumb({ method: 'POST', url, payload: body, cookies }));
}

async function addP1(quantity: number, cookies: Record<string, string> = {}) {
  return add({ itemId: 'p1', sku: null, quantity, additionalFields: null }, cookies);
}

function cartCookie(response: Awaited<ReturnType<typeof add>>): Record<string, string> {
  const value = cookieOf(response, 'CART')?.value;
  if (!value) throw new Error('no CART cookie');
  return { CART: value };
}

describe('cart and entries', () => {
  it('API-CART-1: no cookies gives the empty cart', async () => {
    const response = await h.inject({ method: 'GET', url: CART });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const cart = json(response);
    expect(cart).toMatchObject({ id: null, entries: [], totalQuantity: 0, grandTotalCents: 0 });
  });

  it('API-CART-2: adding p1 computes totals on the server and sets the cart cookies', async () => {
    const response = await addP1(2);
    expect(response.statusCode).toBe(200);
    const body = json(response);
    expect(body.newlyAdded.quantity).toBe(2);
    expect(body.newlyAdded.purchasePriceCents).toBe(2500);
    expect(body.newlyAdded.subTotal).toBe(5000);
    expect(body.shoppingCart).toMatchObject({
      subtotalCents: 5000,
      grandTotalCents: 5000,
      totalQuantity: 2,
      requiresShipping: true,
      hasDigital: false,
      purelyDigital: false,
    });
    expect(cookieOf(response, 'CART')?.value).toBe(body.shoppingCart.id);
    expect(cookieOf(response, 'hasCart')?.value).toBe('true');
    expect(cookieOf(response, 'CART')?.httpOnly).toBeFalsy();
  });

  it('API-CART-3: the same line posted again merges into one entry', async () => {
    const first = await addP1(2);
    const second = await addP1(2, cartCookie(first));
    expect(second.statusCode).toBe(200);
    expect(json(second).newlyAdded.id).toBe(json(first).newlyAdded.id);
    expect(json(second).newlyAdded.quantity).toBe(4);
    const cart = json(await h.inject({ method: 'GET', url: CART, cookies: cartCookie(first) }));
    expect(cart.entries).toHaveLength(1);
    expect(cart.entries[0].quantity).toBe(4);
    expect(cart.subtotalCents).toBe(10000);
  });

  it('API-CART-4: more than the stock gives 409 and leaves the cart unchanged', async () => {
    const first = await addP1(4);
    const response = await addP1(2, cartCookie(first));
    expect(response.statusCode).toBe(409);
    expect(json(response)).toEqual({ error: 'Sorry, we do not have enough of that item available.', code: 'OUT_OF_STOCK' });
    const cart = json(await h.inject({ method: 'GET', url: CART, cookies: cartCookie(first) }));
    expect(cart.totalQuantity).toBe(4);
  });

  it('API-CART-5: quantity must be a whole number from 1 to 9999', async () => {
    const codes = [];
    for (const quantity of ['two', 1.5, 0, 10000]) {
      const response = await add({ itemId: 'p1', sku: null, quantity, additionalFields: null });
      expect(response.statusCode).toBe(400);
      codes.push(json(response).code);
    }
    expect(codes).toEqual(['QUANTITY_NAN', 'QUANTITY_NOT_INTEGER', 'QUANTITY_RANGE', 'QUANTITY_RANGE']);
    const missing = await add({ itemId: 'p1', sku: null });
    expect(json(missing)).toEqual({ error: 'Quantity must be a number.', code: 'QUANTITY_NAN' });
    expect(json(await add({ itemId: 'p1', sku: null, quantity: 1.5 })).error).toBe('Quantity must be a whole number');
  });

  it('API-CART-6: a null sku on a multi-variant product, or an unknown sku, is unavailable', async () => {
    const message = 'Sorry, that item variant is unavailable. Please select another variant.';
    for (const sku of [null, 'NOPE']) {
      const response = await add({ itemId: 'p3', sku, quantity: 1, additionalFields: null });
      expect(response.statusCode).toBe(400);
      expect(json(response)).toEqual({ error: message, code: 'VARIANT_UNAVAILABLE' });
    }
    const chosen = await add({ itemId: 'p3', sku: 'HD-M', quantity: 1, additionalFields: null });
    expect(json(chosen).newlyAdded.chosenVariant).toEqual({ sku: 'HD-M', attributes: { Size: 'M' } });
  });

  it('API-CART-7: a missing or different crumb header gives 403 and a fresh crumb cookie', async () => {
    const body = { itemId: 'p1', sku: null, quantity: 1, additionalFields: null };
    const missing = await h.inject({ method: 'POST', url: ENTRIES, payload: body, cookies: { crumb: 'c'.repeat(32) } });
    const differs = await h.inject({
      method: 'POST',
      url: ENTRIES,
      payload: body,
      cookies: { crumb: 'c'.repeat(32) },
      headers: { 'x-csrf-token': 'd'.repeat(32) },
    });
    for (const response of [missing, differs]) {
      expect(response.statusCode).toBe(403);
      expect(json(response)).toEqual({ error: 'Invalid or missing crumb.', code: 'CRUMB_FAIL', crumbFail: true });
      const crumb = cookieOf(response, 'crumb');
      expect(crumb?.value).toMatch(/^[A-Za-z0-9_-]{32}$/);
      expect(crumb?.httpOnly).toBeFalsy();
      expect(crumb?.path).toBe('/');
    }
    expect(await h.store.read.countCarts()).toBe(0);
  });

  it('API-CART-8: a sale variant is bought at its sale price', async () => {
    const response = await add({ itemId: 'sale', sku: null, quantity: 3, additionalFields: null });
    expect(json(response).newlyAdded.purchasePriceCents).toBe(2000);
    expect(json(response).shoppingCart.subtotalCents).toBe(6000);
  });

  it('API-CART-9: form products validate their additional fields', async () => {
    const empty = await add({ itemId: 'pf', sku: null, quantity: 1, additionalFields: '{"f1":""}' });
    expect(empty.statusCode).toBe(400);
    expect(json(empty)).toMatchObject({ code: 'FORM_INVALID', errors: { f1: 'Required' } });
    const garbage = await add({ itemId: 'pf', sku: null, quantity: 1, additionalFields: 'not json' });
    expect(garbage.statusCode).toBe(400);
    expect(json(garbage)).toEqual({
      error: 'Could not parse the form fields, please check your entries.',
      code: 'ADDITIONAL_FIELDS_INVALID',
    });
  });

  it('API-CART-10: the same form product with different values makes two entries', async () => {
    const first = await add({ itemId: 'pf', sku: null, quantity: 1, additionalFields: '{"f1":"Ann"}' });
    const second = await add({ itemId: 'pf', sku: null, quantity: 1, additionalFields: '{"f1":"Bob"}' }, cartCookie(first));
    const entries = json(second).shoppingCart.entries;
    expect(entries).toHaveLength(2);
    expect(entries.map((entry: { additionalFields: string }) => entry.additionalFields)).toEqual([
      '{"f1":"Ann"}',
      '{"f1":"Bob"}',
    ]);
    const plain = await addP1(1, cartCookie(first));
    expect(json(plain).newlyAdded.additionalFields).toBeNull();
  });

  it(`a cart holds at most MAX_CART_ENTRIES (${MAX_CART_ENTRIES}) lines: one more is CART_FULL, a line it has still grows`, async () => {
    await h.inject({ method: 'PUT', url: '/api/commerce/inventory/stock/pf/vf', payload: { unlimited: true }, headers: adminHeaders() });
    const first = await add({ itemId: 'pf', sku: null, quantity: 1, additionalFields: '{"f1":"n0"}' });
    for (let i = 1; i < MAX_CART_ENTRIES; i++) expect((await add({ itemId: 'pf', sku: null, quantity: 1, additionalFields: `{"f1":"n${i}"}` }, cartCookie(first))).statusCode).toBe(200);
    const full = await add({ itemId: 'pf', sku: null, quantity: 1, additionalFields: '{"f1":"one more"}' }, cartCookie(first));
    expect(full.statusCode).toBe(409);
    expect(json(full)).toEqual({ error: `A cart holds at most ${MAX_CART_ENTRIES} different items. Remove one to add another.`, code: 'CART_FULL' });
    const grown = await add({ itemId: 'pf', sku: null, quantity: 2, additionalFields: '{"f1":"n7"}' }, cartCookie(first));
    expect(json(grown).shoppingCart.entries).toHaveLength(MAX_CART_ENTRIES);
    expect(json(grown).newlyAdded.quantity).toBe(3);
  });

  it('API-CART-11: express checkout gets its own cart and no cookie', async () => {
    const main = await addP1(1);
    const express = await add({ itemId: 'p1', sku: null, quantity: 5, additionalFields: null }, cartCookie(main), `${ENTRIES}?express=true`);
    expect(express.statusCode).toBe(200);
    const body = json(express);
    expect(body.shoppingCart.entries).toHaveLength(1);
    expect(body.shoppingCart.totalQuantity).toBe(5);
    expect(body.shoppingCart.id).not.toBe(json(main).shoppingCart.id);
    expect(cookieOf(express, 'CART')).toBeUndefined();
    const mainCart = json(await h.inject({ method: 'GET', url: CART, cookies: cartCookie(main) }));
    expect(mainCart.totalQuantity).toBe(1);
  });

  it('API-CART-12: gift cards and subscribable products are refused', async () => {
    const gift = await add({ itemId: 'gc', sku: null, quantity: 1, additionalFields: null });
    expect(json(gift)).toEqual({ error: 'Gift cards are purchased on the gift card page.', code: 'GIFT_CARD_NOT_ADDABLE' });
    const sub = await add({ itemId: 'psub', sku: null, quantity: 1, additionalFields: null });
    expect(json(sub)).toEqual({
      error: 'Subscription items cannot be added to the cart.',
      code: 'SUBSCRIPTION_NOT_ADDABLE',
    });
  });

  it("API-CART-13: additional fields of another visitor's entry are out of reach", async () => {
    const owner = await add({ itemId: 'pf', sku: null, quantity: 1, additionalFields: '{"f1":"Ann"}' });
    const entryId = json(owner).newlyAdded.id;
    const url = `${ENTRIES}/${entryId}/additionalFields`;
    const payload = { itemId: 'pf', sku: 'PEN-1', additionalFields: '{"f1":"Zed"}' };
    const other = await add({ itemId: 'p1', sku: null, quantity: 1, additionalFields: null });
    const stranger = await h.inject(withCrumb({ method: 'PUT', url, payload, cookies: cartCookie(other) }));
    expect(stranger.statusCode).toBe(404);
    expect(json(stranger).code).toBe('ENTRY_NOT_FOUND');
    const mine = await h.inject(withCrumb({ method: 'PUT', url, payload, cookies: cartCookie(owner) }));
    expect(mine.statusCode).toBe(200);
    expect(json(mine).updatedEntry.additionalFields).toBe('{"f1":"Zed"}');
    const mismatch = await h.inject(withCrumb({ method: 'PUT', url, payload: { ...payload, itemId: 'p1' }, cookies: cartCookie(owner) }));
    expect(json(mismatch).code).toBe('ENTRY_MISMATCH');
  });

  it('API-CART-14: a CART cookie naming no cart is cleared', async () => {
    const response = await h.inject({ method: 'GET', url: CART, cookies: { CART: 'c_gone', hasCart: 'true' } });
    expect(response.statusCode).toBe(200);
    expect(json(response).id).toBeNull();
    for (const name of ['CART', 'hasCart']) {
      const cookie = cookieOf(response, name);
      expect(cookie?.value).toBe('');
      expect(cookie?.maxAge).toBe(0);
    }
  });

  it('API-CART-15: mock must be true or false; the mock cart is never stored', async () => {
    const bad = await h.inject({ method: 'GET', url: `${CART}?mock=yes` });
    expect(bad.statusCode).toBe(400);
    expect(json(bad)).toEqual({ error: 'Invalid query parameter.', code: 'BAD_QUERY' });
    const mock = await h.inject({ method: 'GET', url: `${CART}?mock=true&timecode=123&calculateSubtotal=true` });
    expect(mock.statusCode).toBe(200);
    expect(json(mock).id).toBe('mock');
    expect(json(mock).entries).toHaveLength(2);
    expect(await h.store.read.countCarts()).toBe(0);
    expect(json(await h.inject({ method: 'GET', url: `${CART}?calculateSubtotal=maybe` })).code).toBe('BAD_QUERY');
  });

  it('API-CART-16: JPY amounts are whole yen', async () => {
    const seed = await acceptanceSeed({ currency: 'JPY' });
    const yenProduct = { id: 'pj', title: 'Tea', variants: [{ id: 'vj', sku: 'TEA', priceCents: 1500, qtyInStock: 10 }] };
    await h.reset({ seed: { ...seed, products: [...(seed.products ?? []), yenProduct] } });
    const response = await add({ itemId: 'pj', sku: null, quantity: 2, additionalFields: null });
    expect(json(response).shoppingCart.subtotalCents).toBe(3000);
  });

  it('API-CART-17: quantity 0 removes an entry; unknown entries give 404', async () => {
    const first = await addP1(2);
    const entryId = json(first).newlyAdded.id;
    const cookies = cartCookie(first);
    const changed = await h.inject(withCrumb({ method: 'PUT', url: `${ENTRIES}/${entryId}`, payload: { quantity: 3 }, cookies }));
    expect(json(changed).shoppingCart.totalQuantity).toBe(3);
    const tooMany = await h.inject(withCrumb({ method: 'PUT', url: `${ENTRIES}/${entryId}`, payload: { quantity: 6 }, cookies }));
    expect(json(tooMany).code).toBe('OUT_OF_STOCK');
    const removed = await h.inject(withCrumb({ method: 'PUT', url: `${ENTRIES}/${entryId}`, payload: { quantity: 0 }, cookies }));
    expect(removed.statusCode).toBe(200);
    expect(json(removed).shoppingCart.entries).toEqual([]);
    const missing = await h.inject(withCrumb({ method: 'DELETE', url: `${ENTRIES}/e_unknown`, cookies }));
    expect(missing.statusCode).toBe(404);
    expect(json(missing).code).toBe('ENTRY_NOT_FOUND');
    const again = await addP1(1, cookies);
    const deleted = await h.inject(withCrumb({ method: 'DELETE', url: `${ENTRIES}/${json(again).newlyAdded.id}`, cookies }));
    expect(json(deleted).shoppingCart.totalQuantity).toBe(0);
  });

  it('flags digital carts and enforces the single-service rule', async () => {
    const digital = await add({ itemId: 'pdig', sku: null, quantity: 2, additionalFields: null });
    expect(json(digital).shoppingCart).toMatchObject({ hasDigital: true, purelyDigital: true, requiresShipping: false });
    const service = await add({ itemId: 'psvc', sku: null, quantity: 2, additionalFields: null });
    expect(json(service)).toEqual({ error: 'Only one of this item can be purchased.', code: 'QUANTITY_LIMIT' });
  });

  it('serialises concurrent adds so the stock check cannot be raced', async () => {
    const first = await addP1(1);
    const cookies = cartCookie(first);
    const results = await Promise.all([1, 2, 3, 4].map(() => addP1(2, cookies)));
    const accepted = results.filter((response) => response.statusCode === 200).length;
    expect(accepted).toBe(2);
    const cart = json(await h.inject({ method: 'GET', url: CART, cookies }));
    expect(cart.totalQuantity).toBe(5);
  });
});

describe('subscription and stock', () => {
  const SUB = '/api/3/commerce/cart/subscription';

  it('API-SUB-1: a subscription cart is separate from the main cart', async () => {
    const main = await addP1(1);
    const response = await add({ itemId: 'psub', sku: 'SUB-1', qty: 1, additionalFields: null }, cartCookie(main), SUB);
    expect(response.statusCode).toBe(200);
    const { cartToken } = json(response);
    expect(typeof cartToken).toBe('string');
    expect(cartToken).not.toBe(json(main).shoppingCart.id);
    const stored = await h.store.read.getCart(cartToken);
    expect(stored?.kind).toBe('subscription');
    expect(stored?.expiresAt).toBe(h.clock.now + 24 * 60 * 60 * 1000);
    const mainCart = json(await h.inject({ method: 'GET', url: CART, cookies: cartCookie(main) }));
    expect(mainCart.totalQuantity).toBe(1);
    expect(cookieOf(response, 'CART')).toBeUndefined();
  });

  it('API-SUB-2: only subscribable physical or service products qualify', async () => {
    for (const itemId of ['p1', 'psubd']) {
      const response = await add({ itemId, sku: null, qty: 1, additionalFields: null }, {}, SUB);
      expect(response.statusCode).toBe(400);
      expect(json(response)).toEqual({ error: 'This item is not available as a subscription.', code: 'NOT_SUBSCRIBABLE' });
    }
  });

  it('API-STOCK-1: stock lists every variant in product order', async () => {
    const response = await h.inject({ method: 'GET', url: '/api/commerce/inventory/stock/?itemId=p2' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(json(response).results).toEqual([
      { itemId: 'p2', variantId: 'v2a', sku: 'SQ-2A', unlimited: true, qtyInStock: 0 },
      { itemId: 'p2', variantId: 'v2b', sku: 'SQ-2B', unlimited: false, qtyInStock: 3 },
    ]);
    const noSlash = await h.inject({ method: 'GET', url: '/api/commerce/inventory/stock?itemId=p2' });
    expect(json(noSlash)).toEqual(json(response));
  });

  it('API-STOCK-2: itemId is required and must exist', async () => {
    const missing = await h.inject({ method: 'GET', url: '/api/commerce/inventory/stock/' });
    expect(missing.statusCode).toBe(400);
    expect(json(missing).code).toBe('INVALID_ITEM_ID');
    const unknown = await h.inject({ method: 'GET', url: '/api/commerce/inventory/stock/?itemId=nope' });
    expect(unknown.statusCode).toBe(404);
    expect(json(unknown).code).toBe('ITEM_NOT_FOUND');
  });

  it('API-STOCK-3: writing stock needs the admin token', async () => {
    const url = '/api/commerce/inventory/stock/p2/v2b';
    const denied = await h.inject({ method: 'PUT', url, payload: { qtyInStock: 7 } });
    expect(denied.statusCode).toBe(401);
    expect(json(denied)).toEqual({ error: 'Admin authorization required.', code: 'ADMIN_REQUIRED' });
    const wrong = await h.inject({ method: 'PUT', url, payload: { qtyInStock: 7 }, headers: { authorization: 'Bearer nope' } });
    expect(wrong.statusCode).toBe(401);
    const ok = await h.inject({ method: 'PUT', url, payload: { qtyInStock: 7 }, headers: adminHeaders() });
    expect(ok.statusCode).toBe(200);
    expect(json(ok).result).toEqual({ itemId: 'p2', variantId: 'v2b', sku: 'SQ-2B', unlimited: false, qtyInStock: 7 });
    const read = await h.inject({ method: 'GET', url: '/api/commerce/inventory/stock/?itemId=p2' });
    expect(json(read).results[1].qtyInStock).toBe(7);
    const bad = await h.inject({ method: 'PUT', url, payload: { qtyInStock: -1 }, headers: adminHeaders() });
    expect(json(bad)).toEqual({ error: 'qtyInStock must be an integer from 0 to 1000000000.', code: 'BAD_REQUEST' });
    const unknown = await h.inject({ method: 'PUT', url: '/api/commerce/inventory/stock/p2/nope', payload: { qtyInStock: 1 }, headers: adminHeaders() });
    expect(unknown.statusCode).toBe(404);
  });
});

describe('restock', () => {
  const RESTOCK = '/api/site-users/account/notifications/restock';

  function signUp(body: Record<string, unknown>) {
    return h.inject(withCrumb({ method: 'POST', url: RESTOCK, payload: { productId: 'pso', variantId: 'vso1', isJoinMailingList: false, ...body } }));
  }

  async function signUpMany(variantId: string, count: number, from = 0) {
    for (let index = from; index < from + count; index += 1) {
      h.clock.now += 1000;
      const response = await signUp({ variantId, siteVisitorEmail: `buyer${index}@example.com` });
      expect(response.statusCode).toBe(200);
    }
  }

  function list(query: string) {
    return h.inject({ method: 'GET', url: `${RESTOCK}?${query}`, headers: adminHeaders() });
  }

  it('API-RST-1: a sign-up is stored once per pending email, case-insensitively', async () => {
    const first = await signUp({ siteVisitorEmail: 'fan@example.com' });
    expect(first.statusCode).toBe(200);
    const { signUp: created } = json(first);
    expect(created).toMatchObject({ productId: 'pso', variantId: 'vso1', createdOn: new Date(h.clock.now).toISOString() });
    const again = await signUp({ siteVisitorEmail: '  FAN@EXAMPLE.COM ' });
    expect(again.statusCode).toBe(200);
    expect(json(again).signUp.id).toBe(created.id);
    const rows = await h.store.read.listAllRestockSignUps();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.notifiedOn).toBeNull();
  });

  it('API-RST-2: blank and malformed emails', async () => {
    const blank = await signUp({ siteVisitorEmail: '  ' });
    expect(blank.statusCode).toBe(400);
    expect(json(blank)).toEqual({ error: 'Email cannot be blank', code: 'EMAIL_BLANK' });
    const malformed = await signUp({ siteVisitorEmail: 'a@b.c' });
    expect(json(malformed)).toEqual({ error: 'Email is invalid', code: 'EMAIL_INVALID' });
  });

  it('API-RST-3: an in-stock variant refuses sign-ups', async () => {
    const response = await signUp({ variantId: 'vin', siteVisitorEmail: 'fan@example.com' });
    expect(response.statusCode).toBe(409);
    expect(json(response)).toEqual({ error: 'This item is currently in stock.', code: 'IN_STOCK' });
    const disabled = await signUp({ productId: 'pnorestock', variantId: 'vnr', siteVisitorEmail: 'fan@example.com' });
    expect(json(disabled).code).toBe('RESTOCK_DISABLED');
    expect(json(await signUp({ productId: 'nope', siteVisitorEmail: 'fan@example.com' })).code).toBe('PRODUCT_NOT_FOUND');
    expect(json(await signUp({ variantId: 'nope', siteVisitorEmail: 'fan@example.com' })).code).toBe('VARIANT_NOT_FOUND');
  });

  it('API-RST-4: a site captcha key requires a single-use token', async () => {
    await h.reset({ seed: await acceptanceSeed({ captchaSiteKey: 'site-key' }) });
    const missing = await signUp({ siteVisitorEmail: 'fan@example.com' });
    expect(missing.statusCode).toBe(400);
    expect(json(missing)).toEqual({ error: 'Complete CAPTCHA before submitting', code: 'CAPTCHA_REQUIRED' });
    const token = 'local-ok:site-key:abc123';
    const ok = await signUp({ siteVisitorEmail: 'fan@example.com', captchaToken: token });
    expect(ok.statusCode).toBe(200);
    const reused = await signUp({ siteVisitorEmail: 'other@example.com', captchaToken: token });
    expect(json(reused)).toEqual({ error: 'CAPTCHA verification failed. Please try again.', code: 'CAPTCHA_INVALID' });
    const wrongPrefix = await signUp({ siteVisitorEmail: 'other@example.com', captchaToken: 'local-ok:other:1' });
    expect(json(wrongPrefix).code).toBe('CAPTCHA_INVALID');
  });

  it('API-RST-5: joining the mailing list adds the email once and welcomes it once, with its unsubscribe link', async () => {
    await signUp({ siteVisitorEmail: 'quiet@example.com' });
    await h.app.storefrontApiSettled();
    expect(await h.store.read.listOutbox()).toEqual([]);
    // The Host header is the sender's to choose: the link in a mail to someone else never takes it.
    const hosted = withCrumb({ method: 'POST', url: RESTOCK, payload: { productId: 'pso', variantId: 'vso1', siteVisitorEmail: 'fan@example.com', isJoinMailingList: true } });
    expect((await h.inject({ ...hosted, headers: { ...hosted.headers, host: 'evil.example' } })).statusCode).toBe(200);
    await signUp({ variantId: 'vso2', siteVisitorEmail: 'Fan@Example.com', isJoinMailingList: true });
    const list = await h.store.read.listMailingList();
    expect(list).toEqual([{ email: 'fan@example.com', source: 'restock', addedOn: h.clock.now }]);
    // The welcome is queued after the answer (api/after-response.ts).
    await h.app.storefrontApiSettled();
    const mails = await h.store.read.listOutbox();
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to: 'fan@example.com' });
    expect(mails[0]!.subject).toMatch(/^You are subscribed to the .* newsletter$/);
    const link = /Unsubscribe: (\S+)/.exec(mails[0]!.body)![1]!;
    expect(new URL(link).pathname).toBe('/newsletter/unsubscribe');
    expect(new URL(link).origin).toBe('http://localhost');
    expect(mails[0]!.headers).toEqual({ 'List-Unsubscribe': `<${link}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });
    const bad = await signUp({ siteVisitorEmail: 'x@example.com', isJoinMailingList: 'yes' });
    expect(json(bad)).toEqual({ error: 'isJoinMailingList must be a boolean.', code: 'BAD_REQUEST' });
  });

  it('API-RST-6: 45 sign-ups page as 20, 20 and 5 in createdOn, id order', async () => {
    await h.reset({ limits: { restockSignUp: { limit: 1000, windowMs: 60_000 } } });
    await signUpMany('vso1', 45);
    const seen: { id: string; createdOn: string }[] = [];
    const flags: boolean[] = [];
    let cursor: string | null = null;
    const sizes: number[] = [];
    do {
      const response = await list(`productId=pso&variantId=vso1${cursor ? `&cursor=${cursor}` : ''}`);
      expect(response.statusCode).toBe(200);
      const page = json(response);
      sizes.push(page.signUps.length);
      flags.push(page.hasNextPage);
      seen.push(...page.signUps);
      cursor = page.nextPageCursor;
      expect(cursor === null).toBe(!page.hasNextPage);
    } while (cursor);
    expect(sizes).toEqual([20, 20, 5]);
    expect(flags).toEqual([true, true, false]);
    expect(new Set(seen.map((row) => row.id)).size).toBe(45);
    const sorted = [...seen].sort((a, b) => a.createdOn.localeCompare(b.createdOn) || (a.id < b.id ? -1 : 1));
    expect(seen).toEqual(sorted);
  });

  it('API-RST-7: rows added while paging show up later, none repeats', async () => {
    await h.reset({ limits: { restockSignUp: { limit: 1000, windowMs: 60_000 } } });
    await signUpMany('vso1', 25);
    const first = json(await list('productId=pso&variantId=vso1'));
    await signUpMany('vso1', 3, 100);
    const ids = first.signUps.map((row: { id: string }) => row.id);
    let cursor = first.nextPageCursor;
    while (cursor) {
      const page = json(await list(`productId=pso&variantId=vso1&cursor=${cursor}`));
      ids.push(...page.signUps.map((row: { id: string }) => row.id));
      cursor = page.nextPageCursor;
    }
    expect(ids).toHaveLength(28);
    expect(new Set(ids).size).toBe(28);
  });

  it('API-RST-8: foreign cursors are refused', async () => {
    const foreign = Buffer.from(JSON.stringify({ x: 1 })).toString('base64url');
    for (const cursor of ['%25%25%25', foreign]) {
      const response = await list(`productId=pso&variantId=vso1&cursor=${cursor}`);
      expect(response.statusCode).toBe(400);
      expect(json(response)).toEqual({ error: 'Invalid cursor.', code: 'INVALID_CURSOR' });
    }
    expect(json(await list('productId=pso')).code).toBe('BAD_QUERY');
    expect(json(await list('productId=pso&variantId=vso1&limit=101')).error).toBe('limit must be between 1 and 100.');
  });

  it('API-RST-9: listing needs the admin token', async () => {
    const response = await h.inject({ method: 'GET', url: `${RESTOCK}?productId=pso&variantId=vso1` });
    expect(response.statusCode).toBe(401);
    expect(json(response).code).toBe('ADMIN_REQUIRED');
  });

  it('API-RST-10: groups are ordered by latest sign-up, with counts', async () => {
    await signUpMany('vso2', 2);
    await signUpMany('vso1', 3, 10);
    await signUpMany('vso3', 1, 20);
    await h.inject({ method: 'PUT', url: '/api/commerce/inventory/stock/pso/vso1', payload: { qtyInStock: 2 }, headers: adminHeaders() });
    await h.inject({ method: 'POST', url: `${RESTOCK}/send`, payload: { productId: 'pso', variantId: 'vso1' }, headers: adminHeaders() });
    await h.inject({ method: 'PUT', url: '/api/commerce/inventory/stock/pso/vso1', payload: { qtyInStock: 0 }, headers: adminHeaders() });
    h.clock.now += 1000;
    expect((await signUp({ variantId: 'vso1', siteVisitorEmail: 'buyer10@example.com' })).statusCode).toBe(200);
    const response = await h.inject({ method: 'GET', url: `${RESTOCK}/groups`, headers: adminHeaders() });
    const groups = json(response).signUpGroups;
    expect(groups.map((group: { variantId: string }) => group.variantId)).toEqual(['vso1', 'vso3', 'vso2']);
    expect(groups[0]).toMatchObject({ productTitle: 'Rare vinyl', sku: 'VY-1', totalCount: 4, pendingCount: 1, inStock: false });
    expect(groups[1]).toMatchObject({ totalCount: 1, pendingCount: 1, inStock: false });
    expect(groups[2]).toMatchObject({ totalCount: 2, pendingCount: 2 });
    const paged = json(await h.inject({ method: 'GET', url: `${RESTOCK}/groups?limit=2`, headers: adminHeaders() }));
    expect(paged.hasNextPage).toBe(true);
    const rest = json(await h.inject({ method: 'GET', url: `${RESTOCK}/groups?limit=2&cursor=${paged.nextPageCursor}`, headers: adminHeaders() }));
    expect(rest.signUpGroups.map((group: { variantId: string }) => group.variantId)).toEqual(['vso2']);
    expect(rest.nextPageCursor).toBeNull();
  });

  it('API-RST-11: send waits for stock, then notifies each pending sign-up once', async () => {
    await signUpMany('vso1', 3);
    const send = () => h.inject({ method: 'POST', url: `${RESTOCK}/send`, payload: { productId: 'pso', variantId: 'vso1' }, headers: adminHeaders() });
    const early = await send();
    expect(early.statusCode).toBe(409);
    expect(json(early)).toEqual({ error: 'Cannot send restock emails for an out-of-stock variant.', code: 'OUT_OF_STOCK' });
    await h.inject({ method: 'PUT', url: '/api/commerce/inventory/stock/pso/vso1', payload: { qtyInStock: 3 }, headers: adminHeaders() });
    expect(json(await send())).toEqual({ sentCount: 3 });
    const outbox = await h.store.read.listOutbox();
    expect(outbox).toHaveLength(3);
    expect(outbox[0]?.subject).toBe('Rare vinyl is back in stock');
    expect(json(await send())).toEqual({ sentCount: 0 });
    expect((await h.store.read.listAllRestockSignUps()).every((row) => row.notifiedOn === h.clock.now)).toBe(true);
  });

  it('API-RST-12: send/all reports each item in order', async () => {
    await signUpMany('vso1', 2);
    await h.inject({ method: 'PUT', url: '/api/commerce/inventory/stock/pso/vso1', payload: { unlimited: true }, headers: adminHeaders() });
    const response = await h.inject({
      method: 'POST',
      url: `${RESTOCK}/send/all`,
      payload: { sendRequests: [{ productId: 'pso', variantId: 'vso1' }, { productId: 'pso', variantId: 'nope' }] },
      headers: adminHeaders(),
    });
    expect(response.statusCode).toBe(200);
    expect(json(response).results).toEqual([
      { productId: 'pso', variantId: 'vso1', sentCount: 2 },
      { productId: 'pso', variantId: 'nope', code: 'VARIANT_NOT_FOUND', error: 'Variant not found.' },
    ]);
    const empty = await h.inject({ method: 'POST', url: `${RESTOCK}/send/all`, payload: { sendRequests: [] }, headers: adminHeaders() });
    expect(json(empty)).toEqual({ error: 'sendRequests must hold 1 to 100 items.', code: 'BAD_REQUEST' });
  });

  it('rate-limits sign-ups per client IP (D10: 10 a minute)', async () => {
    await signUpMany('vso1', 10);
    const limited = await signUp({ siteVisitorEmail: 'one-more@example.com' });
    expect(limited.statusCode).toBe(429);
    expect(json(limited).code).toBe('RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    h.clock.now += 61_000;
    expect((await signUp({ siteVisitorEmail: 'one-more@example.com' })).statusCode).toBe(200);
  });
});
