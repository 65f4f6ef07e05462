import { describe, expect, it } from 'vitest';
import type { FastifyRequest } from 'fastify';
import type { CompiledTemplate } from '../site/site-types.ts';
import type { Template } from '../../engine/index.ts';
import { CRUMB } from '../test-support/api-harness.ts';
import { DEMO_PASSWORD, demoSeed, demoSite, pageHarness, reseed, setCookies, sfContext, useDemoHarness, withConfig, withPage } from '../test-support/page-harness.ts';
import type { Member } from './index.ts';
import { compileCached } from '../site/load-site.ts';
import { syncSiteContent } from '../store/site-sync.ts';

// STOREFRONT C7 (REN-1 … REN-17) and the C3/C5/C6 rules, against the demo site and its
// catalogue on one database.

/** Members come from a test header, so one app serves every REN-12 case. */
const resolveMember = (request: FastifyRequest): Member | null => {
  const header = request.headers['x-test-member'];
  return typeof header === 'string' ? (JSON.parse(header) as Member) : null;
};

const h = useDemoHarness({ resolveMember, resetEach: true });
const site = await demoSite();

/** The body of a page: negative checks must not match the class names in the head CSS. */
const bodyOf = (html: string) => (html.includes('<body') ? html.slice(html.indexOf('<body')) : html);

const islandsLast = (html: string) => /<script type="module" src="\/assets\/islands.js"><\/script>\s*<\/body>\s*<\/html>\s*$/.test(html);

async function addToCart(itemId: string, sku: string, quantity: number, cookies: Record<string, string> = {}) {
  const response = await h.inject({
    method: 'POST',
    url: '/api/commerce/shopping-cart/entries',
    cookies: { crumb: CRUMB, ...cookies },
    headers: { 'x-csrf-token': CRUMB },
    payload: { itemId, sku, quantity, additionalFields: null },
  });
  expect(response.statusCode).toBe(200);
  return response.json() as { shoppingCart: { id: string } };
}

describe('REN acceptance checks', () => {
  it('REN-1: a product page is type 50 with the product islands, the pill cart and the islands script last', async () => {
    const response = await h.inject('/shop/tee');
    expect(response.statusCode).toBe(200);
    const html = response.body;
    expect(sfContext(html).pageType).toBe(50);
    expect(html).toContain('class="sqs-add-to-cart-button-wrapper"');
    expect(html).toContain('class="product-variants" data-item-id="tee"');
    expect(html).toContain('data-island="pill-cart"');
    expect(html).toContain('data-product-scope');
    expect(islandsLast(html)).toBe(true);
    expect(h.lastPage()).toMatchObject({ pageType: 50, templateName: expect.stringContaining('products.item') });
    // The demo template's `item-classes` reads the product's record type label.
    expect(html).toMatch(/class="demo-pd hentry [^"]*post-type-store-item[ "]/);
  });

  it('REN-2: an unknown path is the 404 page (type 100), page view skipped as not-found', async () => {
    const response = await h.inject('/no-such-page');
    expect(response.statusCode).toBe(404);
    const context = sfContext(response.body);
    expect(context.pageType).toBe(100);
    expect(context.tracking.skipPageView).toBe('not-found');
    expect((await h.inject('/shop/no-such-product')).statusCode).toBe(404);
    expect((await h.inject('/journal/no-such-post')).statusCode).toBe(404);
  });

  it('REN-3: a template that throws gives 500, the generic error page (101) and no stack trace', async () => {
    const throwing = { render: () => { throw new Error('secret failure detail'); }, diagnostics: [] } as unknown as Template;
    const broken: CompiledTemplate = { name: 'products.item', file: 'templates/products.item.jsont', hash: 'x', template: throwing };
    h.setSite({ ...site, templates: new Map([...site.templates, ['products.item', broken]]) });
    const response = await h.inject('/shop/tee');
    expect(response.statusCode).toBe(500);
    expect(sfContext(response.body).pageType).toBe(101);
    expect(sfContext(response.body).tracking.skipPageView).toBe('error');
    expect(bodyOf(response.body)).not.toContain('secret failure detail');
    expect(response.body).not.toMatch(/at \S+ \(|\.ts:\d+/);
    expect(bodyOf(response.body)).not.toContain('data-island="pill-cart"');
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it('REN-4: /search?q=tee is type 102, skipped as search, and finds the tee', async () => {
    const response = await h.inject('/search?q=TEE');
    expect(response.statusCode).toBe(200);
    const context = sfContext(response.body);
    expect(context.pageType).toBe(102);
    expect(context.tracking.skipPageView).toBe('search');
    expect(response.body).toContain('Classic Tee');
    expect(bodyOf(response.body)).not.toContain('Enamel Mug</a>');
  });

  it('REN-5: the site-wide lock shows the lock screen on every page, but not on /api or /assets', async () => {
    h.setSite(withConfig(site, { lock: { enabled: true, password: 'open sesame' } }));
    for (const url of ['/', '/shop/tee', '/cart', '/no-such-page']) {
      const response = await h.inject(url);
      expect(response.statusCode).toBe(200);
      const context = sfContext(response.body);
      expect(context.pageType).toBe(103);
      expect(context.tracking.skipPageView).toBe('lock-screen');
      expect(bodyOf(response.body)).not.toContain('data-island="pill-cart"');
    }
    const api = await h.inject('/api/commerce/shopping-cart');
    expect(api.statusCode).toBe(200);
    expect(api.headers['content-type']).toContain('application/json');
    const asset = await h.inject('/assets/no-such-file.js');
    expect(bodyOf(asset.body)).not.toContain('sf-context');

    // The password form's handler sets the unlock cookie; a wrong password sets nothing.
    const wrong = await h.inject({ method: 'POST', url: '/unlock', payload: 'scope=site&password=nope&returnTo=%2Fshop', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(wrong.statusCode).toBe(303);
    expect(setCookies(wrong)).toEqual([]);
    const right = await h.inject({ method: 'POST', url: '/unlock', payload: 'scope=site&password=open%20sesame&returnTo=%2Fshop', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(right.headers.location).toBe('/shop');
    const cookie = right.cookies.find((c) => c.name === 'sf_unlock');
    expect(cookie?.httpOnly).toBe(true);
    const unlocked = await h.inject({ url: '/shop', cookies: { sf_unlock: cookie!.value } });
    expect(sfContext(unlocked.body).pageType).toBe(1);
  });

  it('REN-6: a member-area page denies an anonymous visitor with 403 (106) and the login island', async () => {
    const response = await h.inject('/members');
    expect(response.statusCode).toBe(403);
    const context = sfContext(response.body);
    expect(context.pageType).toBe(106);
    expect(context.tracking.skipPageView).toBe('member-area-denied');
    expect(response.body).toContain('<div class="sf-account" data-island="account">');
    expect(response.body).toContain('<form class="sf-login" novalidate>');
  });

  it('REN-7: /cart shows the CART cookie cart (type 200) without the pill; cartVersion 2 is type 205', async () => {
    const first = await addToCart('tee', 'TEE-S', 1);
    const cartId = first.shoppingCart.id;
    await addToCart('cap', 'CAP-1', 2, { CART: cartId });
    const response = await h.inject({ url: '/cart', cookies: { CART: cartId } });
    expect(response.statusCode).toBe(200);
    expect(sfContext(response.body).pageType).toBe(200);
    expect(response.body).toContain('Classic Tee');
    expect(response.body).toContain('Canvas Cap');
    expect(response.body.match(/class="sf-cart-entry"/g)).toHaveLength(2);
    expect(response.body).toContain('$69.00');
    expect(bodyOf(response.body)).not.toContain('data-island="pill-cart"');
    expect(response.body).toContain('data-island="bnpl" data-context="cart"');

    h.setSite(withConfig(site, { cartVersion: 2 }));
    const v2 = await h.inject({ url: '/cart', cookies: { CART: cartId } });
    expect(sfContext(v2.body).pageType).toBe(205);
    expect(bodyOf(v2.body)).not.toContain('data-island="pill-cart"');
  });

  it('REN-8: the crumb cookie is set when missing or malformed, never when valid', async () => {
    const fresh = await h.inject('/shop');
    const crumb = fresh.cookies.find((c) => c.name === 'crumb');
    expect(crumb?.value).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(crumb?.path).toBe('/');
    expect(crumb?.httpOnly).toBeFalsy();
    expect(crumb?.sameSite).toBe('Lax');
    expect((await h.inject({ url: '/shop', cookies: { crumb: CRUMB } })).cookies.find((c) => c.name === 'crumb')).toBeUndefined();
    expect((await h.inject({ url: '/shop', cookies: { crumb: 'short' } })).cookies.find((c) => c.name === 'crumb')).toBeDefined();
  });

  it('REN-9: a SiteUserInfo cookie that does not parse renders the page as for an anonymous visitor', async () => {
    const response = await h.inject({ url: '/shop', headers: { cookie: 'SiteUserInfo=%7Bbad' } });
    expect(response.statusCode).toBe(200);
    expect(sfContext(response.body).siteUser).toBeNull();
  });

  it('REN-10: a valid session gives siteUser authenticated with the session xsrfToken', async () => {
    const signIn = await h.inject({
      method: 'POST',
      url: '/api/site-users/account/session',
      cookies: { crumb: CRUMB },
      headers: { 'x-csrf-token': CRUMB },
      payload: { email: 'demo@example.com', password: DEMO_PASSWORD },
    });
    expect(signIn.statusCode).toBe(200);
    const token = signIn.cookies.find((c) => c.name === 'SiteUserSecureAuthToken')!.value;
    const session = await h.store.read.getLiveSession(token, h.clock.now);
    const response = await h.inject({ url: '/members', cookies: { SiteUserSecureAuthToken: token } });
    expect(response.statusCode).toBe(200);
    expect(sfContext(response.body).siteUser).toEqual({ authenticated: true, siteUserId: 'demo-user', xsrfToken: session!.xsrfToken });
    expect(response.body).toContain('class="sf-logout"');
  });

  it('REN-11: a sold-out product with an empty customSoldOutText shows "sold out", not "sale"', async () => {
    await reseed(h.store, await demoSeed((seed) => {
      seed.products!.push({
        id: 'clearance', title: 'Clearance Scarf', urlSlug: 'clearance', collectionId: 'shop', productType: 1,
        variants: [{ id: 'cl-1', sku: 'CL-1', priceCents: 2000, salePriceCents: 1000, onSale: true, qtyInStock: 0 }],
        extra: { customSoldOutText: '' },
      });
    }));
    const page = await h.inject('/shop/clearance');
    expect(page.body).toContain('<div class="sf-product-status" data-item-id="clearance"><div class="product-mark sold-out">sold out</div></div>');
    expect(bodyOf(page.body)).not.toContain('product-mark sale');
    const grid = await h.inject('/shop');
    expect(grid.body).toContain('<div class="sf-product-status" data-item-id="clearance"><div class="product-mark sold-out">sold out</div></div>');
    // The demo tote has a custom text.
    expect((await h.inject('/shop/tote')).body).toContain('<div class="product-mark sold-out">Back soon</div>');
  });

  it('REN-12: a viewer outside the config area is recorded; an editor or a viewer in the config area is skipped', async () => {
    const skip = async (member: Member) =>
      sfContext((await h.inject({ url: '/shop', headers: { 'x-test-member': JSON.stringify(member) } })).body).tracking.skipPageView;
    expect(await skip({ roles: ['viewer'], inConfigArea: false })).toBeNull();
    expect(await skip({ roles: ['editor'], inConfigArea: false })).toBe('logged-in-member');
    expect(await skip({ roles: ['viewer'], inConfigArea: true })).toBe('logged-in-member');
    expect(await skip({ roles: ['viewer', 'admin'], inConfigArea: false })).toBe('logged-in-member');
    expect(sfContext((await h.inject('/shop')).body).tracking.skipPageView).toBeNull();
  });

  it('REN-13: with tracking disabled every page is skipped as tracking-disabled', async () => {
    h.setSite(withConfig(site, { trackingDisabled: true }));
    for (const url of ['/', '/shop/tee', '/search?q=a', '/no-such-page', '/members']) {
      expect(sfContext((await h.inject(url)).body).tracking.skipPageView).toBe('tracking-disabled');
    }
    h.setSite(site);
    await reseed(h.store, await demoSeed((seed) => { seed.site.settings!.trackingDisabled = true; }));
    expect(sfContext((await h.inject('/shop')).body).tracking.skipPageView).toBe('tracking-disabled');
  });

  it('REN-14: reviews show on a product page only when the kill switch is off and native reviews are on', async () => {
    expect((await h.inject('/shop/tee')).body).toContain('<section class="sf-reviews">');
    h.setSite(withConfig(site, { reviews: { nativeEnabled: false, importedEnabled: false } }));
    expect(bodyOf((await h.inject('/shop/tee')).body)).not.toContain('sf-reviews');
    h.setSite(site);
    await reseed(h.store, await demoSeed((seed) => { seed.site.settings!.flags = { reviewsKillSwitch: true }; }));
    const page = await h.inject('/shop/tee');
    expect(bodyOf(page.body)).not.toContain('sf-reviews');
    expect(sfContext(page.body).flags.reviewsKillSwitch).toBe(true);
  });

  it('REN-15: a context value holding </script> cannot break the JSON block', async () => {
    const title = '</script><script>alert(1)</script><!--';
    await reseed(h.store, await demoSeed((seed) => { seed.products![0]!.title = title; }));
    const response = await h.inject('/shop/tee');
    expect(bodyOf(response.body)).not.toContain('</script><script>alert(1)');
    const block = /id="sf-context"[^>]*>([\s\S]*?)<\/script>/.exec(response.body)![1]!;
    expect(bodyOf(block)).not.toContain('<');
    expect(block).toContain('\\u003c/script\\u003e');
    expect(sfContext(response.body).pageTitle).toBe(title);
  });

  it('REN-16: the gift-card checkout shows the denomination (201); an unknown sku is 404', async () => {
    const response = await h.inject('/checkout/gift-card?itemId=gift-card&sku=GC-50');
    expect(response.statusCode).toBe(200);
    expect(sfContext(response.body).pageType).toBe(201);
    expect(response.body).toContain('$50.00');
    expect(response.body).toContain('Gift Card');
    expect(bodyOf(response.body)).not.toContain('data-island="pill-cart"');
    const missing = await h.inject('/checkout/gift-card?itemId=gift-card&sku=nope');
    expect(missing.statusCode).toBe(404);
    expect(sfContext(missing.body).pageType).toBe(100);
    expect((await h.inject('/checkout/gift-card?itemId=tee&sku=TEE-S')).statusCode).toBe(404);
    expect((await h.inject('/checkout/gift-card')).statusCode).toBe(404);
  });

  it('REN-17: the order-confirmed page (202) carries the order fields A12.5 needs', async () => {
    const response = await h.inject('/commerce/orders/o1/confirmed');
    expect(response.statusCode).toBe(200);
    const context = sfContext(response.body);
    expect(context.pageType).toBe(202);
    expect(context.tracking.skipPageView).toBeNull();
    expect(context.order).toMatchObject({
      id: 'o1',
      purchasedCartId: 'demo-cart-o1',
      websiteId: 'demo-site',
      testMode: false,
      items: [{ sku: 'TEE-S', productName: 'Classic Tee', quantity: 1, unitPrice: 2500 }, expect.objectContaining({ sku: 'MUG-1' })],
      grandTotal: 6100,
      shippingTotal: 0,
      taxTotal: 0,
    });
    expect(response.body).toContain('$61.00');
    expect(bodyOf(response.body)).not.toContain('data-island="pill-cart"');
    expect((await h.inject('/commerce/orders/nope/confirmed')).statusCode).toBe(404);
  });
});

describe('checkout by cart token (201)', () => {
  it('shows the cart lines for a live cart token and 404s for an unknown one', async () => {
    const cart = await addToCart('hoodie', 'HD-M-NAVY', 2);
    const response = await h.inject(`/checkout?cartToken=${cart.shoppingCart.id}`);
    expect(response.statusCode).toBe(200);
    expect(sfContext(response.body).pageType).toBe(201);
    expect(response.body).toContain('Harbor Hoodie');
    expect(response.body).toContain('$110.00');
    expect((await h.inject('/checkout?cartToken=nope')).statusCode).toBe(404);
    expect((await h.inject('/checkout')).statusCode).toBe(404);
    expect((await h.inject('/checkout/subscription?cartToken=' + cart.shoppingCart.id)).statusCode).toBe(404);
  });

  it('shows a subscription cart at /checkout/subscription, and not at /checkout', async () => {
    const created = await h.inject({
      method: 'POST',
      url: '/api/3/commerce/cart/subscription',
      cookies: { crumb: CRUMB },
      headers: { 'x-csrf-token': CRUMB },
      payload: { itemId: 'coffee-club', sku: 'COF-1', qty: 1, additionalFields: null },
    });
    expect(created.statusCode).toBe(200);
    const token = (created.json() as { cartToken: string }).cartToken;
    const response = await h.inject(`/checkout/subscription?cartToken=${token}`);
    expect(response.statusCode).toBe(200);
    expect(sfContext(response.body).pageType).toBe(201);
    expect(response.body).toContain('Coffee Club');
    expect(response.body).toContain('$16.00');
    expect((await h.inject(`/checkout?cartToken=${token}`)).statusCode).toBe(404);
    h.clock.now += 25 * 60 * 60 * 1000;
    expect((await h.inject(`/checkout/subscription?cartToken=${token}`)).statusCode).toBe(404);
  });
});

describe('C3 cookies', () => {
  it('clears a session cookie naming no session and rewrites a SiteUserInfo that claims a user', async () => {
    const response = await h.inject({ url: '/shop', headers: { cookie: 'SiteUserSecureAuthToken=gone; SiteUserInfo=%7B%22authenticated%22%3Atrue%2C%22siteUserId%22%3A%22u%22%7D' } });
    const session = response.cookies.find((c) => c.name === 'SiteUserSecureAuthToken');
    expect(session?.maxAge).toBe(0);
    expect(session?.httpOnly).toBe(true);
    const info = response.cookies.find((c) => c.name === 'SiteUserInfo');
    expect(decodeURIComponent(info!.value)).toBe('{"authenticated":false}');
    expect(sfContext(response.body).siteUser).toBeNull();
  });

  it('clears CART and hasCart on the cart page when CART names no live cart', async () => {
    const response = await h.inject({ url: '/cart', cookies: { CART: 'no-such-cart', hasCart: 'true' } });
    expect(response.statusCode).toBe(200);
    expect(response.cookies.find((c) => c.name === 'CART')?.maxAge).toBe(0);
    expect(response.cookies.find((c) => c.name === 'hasCart')?.maxAge).toBe(0);
    expect(response.body).toContain('You have nothing in your shopping cart.');
  });

  it('sends every HTML page as text/html with Cache-Control no-store', async () => {
    for (const url of ['/', '/shop/tee', '/no-such-page', '/members', '/cart']) {
      const response = await h.inject(url);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-store');
    }
  });
});

describe('C5 shell', () => {
  it('writes the doctype, html lang, sf-context with the protocol version, and the islands script last', async () => {
    h.setSite(withConfig(site, { locale: 'en-GB' }));
    const html = (await h.inject('/shop')).body;
    expect(html.startsWith('<!doctype html>\n<html lang="en-GB">')).toBe(true);
    expect(html).toContain('<script type="application/json" id="sf-context" data-protocol="1">');
    expect(sfContext(html).websiteLocale).toBe('en-GB');
    expect(islandsLast(html)).toBe(true);
    expect(html).toContain('html:not(.sf-cart-ready) .sqs-add-to-cart-button { visibility: hidden; }');
    expect(html).toContain('.sqs-money-native::before { content: "$" }');
  });

  it('includes captcha-local.js only on pages holding a captcha container', async () => {
    h.setSite(withPage(site, 'write-to-us', [{ type: 'form', formId: 'contact' }]));
    const contact = await h.inject('/write-to-us');
    expect(contact.body).toContain('class="captcha-container"');
    expect(contact.body).toContain('<script type="module" src="/assets/captcha-local.js"></script>');
    const grid = await h.inject('/shop');
    expect(bodyOf(grid.body)).not.toContain('captcha-container');
    expect(bodyOf(grid.body)).not.toContain('captcha-local.js');
    await reseed(h.store, await demoSeed((seed) => { seed.site.settings!.captcha = { siteKey: null, provider: 'local' }; }));
    expect(bodyOf((await h.inject('/write-to-us')).body)).not.toContain('captcha-local.js');
  });

  it('PILL-9: the pill cart is left out when expressCheckout or customCart is on', async () => {
    await reseed(h.store, await demoSeed((seed) => { seed.site.settings!.expressCheckout = true; }));
    expect(bodyOf((await h.inject('/shop')).body)).not.toContain('data-island="pill-cart"');
    await reseed(h.store, await demoSeed((seed) => { seed.site.settings!.customCart = true; }));
    expect(bodyOf((await h.inject('/shop/tee')).body)).not.toContain('data-island="pill-cart"');
  });
});

describe('C6 product display', () => {
  it('GC-3: a gift card page has no quantity input, restock view or BNPL pill', async () => {
    const html = (await h.inject('/shop/gift-card')).body;
    expect(html).toContain('data-product-type="4"');
    expect(bodyOf(html)).not.toContain('product-quantity-input');
    expect(bodyOf(html)).not.toContain('product-restock-notification');
    expect(bodyOf(html)).not.toContain('data-island="bnpl"');
    expect(html).toContain('Select Value');
  });

  it('RST-14: restock views go to sold-out physical variants only, never to a digital product', async () => {
    const vinyl = (await h.inject('/shop/vinyl')).body;
    expect(vinyl.match(/class="product-restock-notification"/g)).toHaveLength(2);
    expect(vinyl).toContain('name="isJoinMailingList" checked');
    expect(bodyOf((await h.inject('/shop/ebook')).body)).not.toContain('product-restock-notification');
  });

  it('SUB-7: a subscribable product page renders no quantity input', async () => {
    const html = (await h.inject('/shop/coffee-club')).body;
    expect(html).toContain('data-is-subscription="true"');
    expect(bodyOf(html)).not.toContain('product-quantity-input');
    expect((await h.inject('/shop/hoodie')).body).toContain('product-quantity-input');
  });

  it('uses the custom add button label and marks sale products', async () => {
    expect((await h.inject('/shop/candle')).body).toContain('<div class="sqs-add-to-cart-button-inner">Add to Basket</div>');
    expect((await h.inject('/shop/cap')).body).toContain('<div class="product-mark sale">sale</div>');
    expect((await h.inject('/shop/coffee-club')).body).toContain('<div class="sqs-add-to-cart-button-inner">Subscribe</div>');
  });

  it('writes prices as {value, currency} money for the formatters and lists page products in sf-context', async () => {
    const html = (await h.inject('/shop/hoodie')).body;
    expect(html).toContain('from <span class="sqs-money-native">55.00</span>');
    const products = sfContext(html).products;
    expect(Object.keys(products)).toEqual(['hoodie']);
    expect(products.hoodie.variants[0].priceMoney).toEqual({ value: '55.00', currency: 'USD' });
    expect(html).toContain('data-variant-image-for="HD-M-NAVY"');
    const grid = sfContext((await h.inject('/shop')).body).products;
    expect(Object.keys(grid).length).toBe(13);
  });

  it('gives cart entries with form values an edit link and embeds their form definitions (A6 b)', async () => {
    const added = await h.inject({
      method: 'POST',
      url: '/api/commerce/shopping-cart/entries',
      cookies: { crumb: CRUMB },
      headers: { 'x-csrf-token': CRUMB },
      payload: { itemId: 'mug', sku: 'MUG-1', quantity: 1, additionalFields: JSON.stringify({ 'engrave-text': 'Hi', 'engrave-font': 'Serif' }) },
    });
    expect(added.statusCode).toBe(200);
    const cartId = (added.json() as { shoppingCart: { id: string } }).shoppingCart.id;
    const html = (await h.inject({ url: '/cart', cookies: { CART: cartId } })).body;
    expect(html).toMatch(/<tr class="sf-cart-entry" data-entry-id="[^"]+" data-item-id="mug" data-sku="MUG-1" data-form-id="engraving" data-additional-fields="[^"]*engrave-text[^"]*">/);
    expect(html).toContain('class="sf-entry-edit-form"');
    const forms = JSON.parse(/<script type="application\/json" data-cart-forms>([\s\S]*?)<\/script>/.exec(html)![1]!);
    expect(forms.engraving).toMatchObject({ id: 'engraving', name: 'Engraving', fields: [expect.objectContaining({ id: 'engrave-text' }), expect.objectContaining({ id: 'engrave-font' })] });
  });

  it('a line whose product the owner removed says so in the server HTML (no scripts needed), in the markup the island adopts, with its title as text, not a link to nowhere', async () => {
    const gone = 'Sorry, this item is no longer available. Please remove it from your cart.';
    const cartId = (await addToCart('tee', 'TEE-S', 1)).shoppingCart.id;
    await addToCart('cap', 'CAP-1', 1, { CART: cartId });
    // The owner takes the cap out of catalog.json; the next start's sync hides it (the harness reseeds before each test).
    const seed = await demoSeed();
    await syncSiteContent(h.store.client, { ...seed, products: seed.products!.filter((product) => product.id !== 'cap') });
    const html = bodyOf((await h.inject({ url: '/cart', cookies: { CART: cartId } })).body);
    const rowOf = (itemId: string) => new RegExp(`<tr class="sf-cart-entry"[^>]*data-item-id="${itemId}"[\\s\\S]*?</tr>`).exec(html)?.[0] ?? '';
    const cap = rowOf('cap');
    const tee = rowOf('tee');
    const id = /data-entry-id="([^"]+)"/.exec(cap)?.[1];
    expect(id).toBeTruthy();
    expect(cap).toContain(`<p class="sf-entry-message sf-entry-unavailable" id="sf-entry-unavailable-${id}" role="status">${gone}</p></td>`);
    expect(cap).toContain(`aria-label="Quantity of Canvas Cap" aria-describedby="sf-entry-unavailable-${id}"`);
    expect(cap).toContain('<td class="sf-entry-title">Canvas Cap');
    expect(cap).not.toContain('<a ');
    expect(html).not.toContain('href="#"');
    expect(html).not.toContain('Sorry, we do not have enough of that item available.');
    expect(tee).toMatch(/<td class="sf-entry-title"><a href="\/shop\/tee">Classic Tee<\/a>/);
    expect(tee).not.toContain('sf-entry-unavailable');
    expect(tee).not.toContain('aria-describedby');
    // B0.4: the subtotal is the sum of every entry's subTotal, the removed cap's too (tee $25 + cap $22).
    expect(html).toContain('$47.00');
  });

  it("shows the minimum-subtotal notice on the cart page when the subtotal is below the store's minimum, which checkout applies too", async () => {
    // One source: catalog.json site.settings.commerce (the store's rules), read by both.
    await reseed(h.store, await demoSeed((seed) => (seed.site.settings!.commerce!.minimumOrderSubtotalCents = 5000)));
    const cart = await addToCart('tee', 'TEE-S', 1);
    const html = (await h.inject({ url: '/cart', cookies: { CART: cart.shoppingCart.id } })).body;
    const notice = 'To check out, your order subtotal must be $50.00 or more.';
    expect(html).toContain(notice);
    expect(bodyOf(html)).not.toContain('sf-checkout-button');
    expect(sfContext(html).store.minimumOrderSubtotalCents).toBe(5000);
    const checkout = (await h.inject(`/api/commerce/checkout?cartToken=${cart.shoppingCart.id}`)).json();
    expect(checkout).toMatchObject({ minimumSubtotalCents: 5000, belowMinimum: true, minimumMessage: notice });
  });

  it("takes no minimum from the served site.json: its deprecated key reaches the store's rules only through the site content sync", async () => {
    h.setSite(withConfig(site, { minimumOrderSubtotalCents: 5000 }));
    const cart = await addToCart('tee', 'TEE-S', 1);
    const html = (await h.inject({ url: '/cart', cookies: { CART: cart.shoppingCart.id } })).body;
    expect(html).not.toContain('To check out, your order subtotal must be');
    expect(sfContext(html).store.minimumOrderSubtotalCents).toBe(0);
    expect((await h.inject(`/api/commerce/checkout?cartToken=${cart.shoppingCart.id}`)).json()).toMatchObject({ minimumSubtotalCents: 0, belowMinimum: false });
  });
});

describe('overlay, locked sitemap and member lookup failures', () => {
  it('renders an enabled popup overlay (104) into content pages only', async () => {
    h.setSite(withConfig(site, { extra: { ...site.config.extra, overlay: { enabled: true, id: 'welcome', title: 'Hello', blocks: [{ type: 'newsletter', formId: 'newsletter' }] } } }));
    const shop = (await h.inject('/shop')).body;
    expect(shop).toContain('<div class="sf-popup-overlay" data-overlay-id="welcome"');
    expect(shop).toContain('data-newsletter="true"');
    expect(h.lastPage()?.diagnostics).toEqual([]);
    expect(bodyOf((await h.inject('/cart')).body)).not.toContain('sf-popup-overlay');
    h.setSite(site);
    expect(bodyOf((await h.inject('/shop')).body)).not.toContain('sf-popup-overlay');
  });

  it('lists no pages in the sitemap of a locked site', async () => {
    h.setSite(withConfig(site, { lock: { enabled: true, password: 'x' } }));
    const sitemap = await h.inject('/sitemap.xml');
    expect(sitemap.statusCode).toBe(200);
    expect(bodyOf(sitemap.body)).not.toContain('<loc>');
  });

  it('treats a failing resolveMember as no member', async () => {
    const failing = await pageHarness(h.store, { resolveMember: () => { throw new Error('directory down'); } });
    const response = await failing.inject('/shop');
    expect(response.statusCode).toBe(200);
    expect(sfContext(response.body).tracking.skipPageView).toBeNull();
    await failing.app.close();
  });
});

describe('content page types', () => {
  it('a page with its own password shows the protected page (105) until its unlock cookie is set', async () => {
    h.setSite(withPage(site, 'vault', [{ type: 'text', text: 'Secret prices' }], {}, { password: 'pw' }));
    const locked = await h.inject('/vault');
    expect(locked.statusCode).toBe(200);
    expect(sfContext(locked.body).pageType).toBe(105);
    expect(sfContext(locked.body).tracking.skipPageView).toBeNull();
    expect(bodyOf(locked.body)).not.toContain('Secret prices');
    expect(bodyOf(locked.body)).not.toContain('data-island="pill-cart"');
    expect(bodyOf(locked.body)).toContain('This page is password protected.');
    // A wrong password comes back to the form, which says so.
    const wrong = await h.inject({ method: 'POST', url: '/unlock', payload: 'scope=vault&password=nope&returnTo=%2Fvault', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(wrong.headers.location).toBe('/vault?unlock=failed');
    expect(wrong.cookies).toEqual([]);
    expect(bodyOf((await h.inject('/vault?unlock=failed')).body)).toContain('Incorrect password. Please try again.');
    expect(bodyOf((await h.inject('/vault?unlock=wait')).body)).toContain('Too many attempts. Please wait a minute, then try again.');
    const unlock = await h.inject({ method: 'POST', url: '/unlock', payload: 'scope=vault&password=pw&returnTo=%2Fvault', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(unlock.headers.location).toBe('/vault');
    const cookie = unlock.cookies.find((c) => c.name === 'sf_unlock_vault')!;
    const open = await h.inject({ url: '/vault', cookies: { sf_unlock_vault: cookie.value } });
    expect(sfContext(open.body).pageType).toBe(2);
    expect(open.body).toContain('Secret prices');
    // Another page's cookie or a forged value does not open it.
    expect(sfContext((await h.inject({ url: '/vault', cookies: { sf_unlock: cookie.value } })).body).pageType).toBe(105);
    expect(sfContext((await h.inject({ url: '/vault', cookies: { sf_unlock_vault: 'x'.repeat(32) } })).body).pageType).toBe(105);
  });

  it('special page types render the page template; 301 is never public; video paywall pages skip the view', async () => {
    let changed = withPage(site, 'give', [{ type: 'text', text: 'Support us' }], {}, { pageType: 203 });
    changed = withPage(changed, 'email-preview', [], {}, { pageType: 301 });
    changed = withPage(changed, 'film', [{ type: 'text', text: 'Film' }], {}, { videoPaywall: true });
    h.setSite(changed);
    const give = await h.inject('/give');
    expect(give.statusCode).toBe(200);
    expect(sfContext(give.body).pageType).toBe(203);
    expect(give.body).toContain('Support us');
    expect((await h.inject('/email-preview')).statusCode).toBe(404);
    expect(sfContext((await h.inject('/film')).body).tracking.skipPageView).toBeNull();
    h.setSite(withConfig(changed, { flags: { ...site.config.flags, videoPaywall: true } }));
    const film = sfContext((await h.inject('/film')).body);
    expect(film.tracking.skipPageView).toBe('video-paywall');
    expect(film.flags.videoPaywall).toBe(true);
  });

  it('limits wrong password guesses per client to 10 a minute, and the form says what happened', async () => {
    const guess = () => h.inject({ method: 'POST', url: '/unlock', payload: 'scope=site&password=guess', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    const limited = await pageHarness(h.store);
    const answers: { status: number; location: unknown }[] = [];
    for (let i = 0; i < 11; i++) {
      const response = await limited.inject({ method: 'POST', url: '/unlock', payload: 'scope=site&password=guess', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      answers.push({ status: response.statusCode, location: response.headers.location });
    }
    expect(answers.slice(0, 10).every((a) => a.status === 303 && a.location === '/?unlock=failed')).toBe(true);
    expect(answers[10]).toEqual({ status: 303, location: '/?unlock=wait' });
    limited.clock.now += 61_000;
    expect((await limited.inject({ method: 'POST', url: '/unlock', payload: 'password=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } })).statusCode).toBe(303);
    await limited.app.close();
    expect((await guess()).statusCode).toBe(303);
  });

  it('answers HEAD like GET without a body, and other methods with 405', async () => {
    const head = await h.inject({ method: 'HEAD', url: '/shop' });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    const post = await h.inject({ method: 'POST', url: '/shop' });
    expect(post.statusCode).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
  });
});

describe('request.quirePage', () => {
  it('carries the render diagnostics with their template source, which the page never shows', async () => {
    const { template, hash } = compileCached('templates/page.jsont', '<p>{page.title|no-such-formatter}</p>');
    h.setSite(withPage({ ...site, templates: new Map([...site.templates, ['page', { name: 'page', file: 'templates/page.jsont', hash, template }]]) }, 'plain', []));
    const response = await h.inject('/plain');
    expect(response.statusCode).toBe(200);
    const info = h.lastPage()!;
    expect(info).toMatchObject({ pageType: 2, templateName: 'page' });
    expect(info.diagnostics.length).toBeGreaterThan(0);
    expect(info.diagnostics[0]).toMatchObject({ source: 'templates/page.jsont', line: 1 });
    // Safe mode emits the broken tag as text; the diagnostic itself never reaches the page.
    expect(bodyOf(response.body)).not.toContain(info.diagnostics[0]!.code);
    expect(bodyOf(response.body)).not.toContain(info.diagnostics[0]!.message);
  });

  it('reports content problems (unknown block, missing form or product) without failing the page', async () => {
    h.setSite(withPage(site, 'odd', [{ type: 'carousel' }, { type: 'form', formId: 'nope' }, { type: 'product', productId: 'nope' }, { type: 'text', text: 'still here' }]));
    const response = await h.inject('/odd');
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('still here');
    expect(h.lastPage()!.problems).toEqual([
      'unknown block type "carousel"',
      'form block: no form "nope" in the store',
      'product block: no product "nope" in the store',
    ]);
  });
});

describe('page bytes', () => {
  it('sends a page far larger than the encoding slab whole, multi-byte characters included', async () => {
    const text = 'Grüße — 東京 🍵 '.repeat(20_000);
    h.setSite(withPage(site, 'long-read', [{ type: 'text', text }]));
    const response = await h.inject('/long-read');
    expect(response.statusCode).toBe(200);
    expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length);
    expect(response.body).toContain(text);
    expect(islandsLast(response.body)).toBe(true);
    // The next, small page is not left with the long page's tail.
    const small = await h.inject('/shop/tee');
    expect(Number(small.headers['content-length'])).toBe(small.rawPayload.length);
    expect(islandsLast(small.body)).toBe(true);
    // Again: the same bytes.
    const again = await h.inject('/long-read');
    expect(again.rawPayload.equals(response.rawPayload)).toBe(true);
  });
});
