import { describe, expect, it } from 'vitest';
import { CRUMB } from '../../test-support/api-harness.ts';
import { offlineLimitText } from '../../../hydrate/shared/checkout-text.ts';
import { demoSeed, reseed, useDemoHarness } from '../../test-support/page-harness.ts';
import { PageRedirect } from './page-kind.ts';

// Back after placing an order returns to /checkout?cartToken=… of a cart now bought: the page
// sends the buyer to that order's confirmation (as the place answer's confirmationUrl), by kind.

const h = useDemoHarness({ resetEach: true });
const ADDRESS = { firstName: 'Ada', lastName: 'Lovelace', line1: '1 Analytical Way', city: 'Albany', region: 'NY', postalCode: '12207', country: 'US' };
const TEST_CARD = { provider: 'test', cardNumber: '4242424242424242', expMonth: 12, expYear: 2034, cvc: '123' };

async function post(url: string, payload: unknown) {
  const response = await h.inject({ method: 'POST', url, cookies: { crumb: CRUMB }, headers: { 'x-csrf-token': CRUMB }, payload: payload as object });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as Record<string, any>;
}

async function placeCart(payment: Record<string, unknown>) {
  const { shoppingCart } = await post('/api/commerce/shopping-cart/entries?express=true', { itemId: 'tee', sku: 'TEE-S', quantity: 1, additionalFields: null });
  const placed = await post('/api/commerce/checkout/place', {
    cartToken: shoppingCart.id, email: 'ada@example.com', shippingAddress: ADDRESS, shippingOptionId: 'standard', payment, idempotencyKey: `key-${payment.provider}`,
  });
  return { cartToken: shoppingCart.id as string, placed };
}

describe('checkout of a bought cart (Back after placing)', () => {
  it('redirects (303) to the order confirmed page, and with no-store', async () => {
    const { cartToken, placed } = await placeCart(TEST_CARD);
    const back = await h.inject(`/checkout?cartToken=${cartToken}`);
    expect(back.statusCode).toBe(303);
    expect(back.headers.location).toBe(`/commerce/orders/${placed.orderId}/confirmed`);
    expect(back.headers.location).toBe(placed.confirmationUrl);
    expect(back.headers['cache-control']).toBe('no-store');
    expect((await h.inject(back.headers.location as string)).statusCode).toBe(200);
  });

  it('redirects an order paid offline to order received, a subscription to subscription confirmed', async () => {
    const { cartToken, placed } = await placeCart({ provider: 'manual' });
    const back = await h.inject(`/checkout?cartToken=${cartToken}`);
    expect(back.statusCode).toBe(303);
    expect(back.headers.location).toBe(`/commerce/orders/${placed.orderId}/received`);

    const { cartToken: subscriptionCart } = await post('/api/3/commerce/cart/subscription', { itemId: 'coffee-club', sku: 'COF-1', qty: 1, additionalFields: null });
    const subscription = await post('/api/commerce/checkout/place', {
      cartToken: subscriptionCart, email: 'ada@example.com', shippingAddress: ADDRESS, shippingOptionId: 'standard', payment: TEST_CARD, idempotencyKey: 'subscription-key-1',
    });
    const again = await h.inject(`/checkout/subscription?cartToken=${subscriptionCart}`);
    expect(again.statusCode).toBe(303);
    expect(again.headers.location).toBe(`/commerce/orders/${subscription.orderId}/subscription-confirmed`);
  });

  it("a signed-in visitor's checkout opened after signing out goes to the cart page (303), with the copy Sign Out left; signed in, it is the checkout", async () => {
    const login = await h.inject({ method: 'POST', url: '/api/site-users/account/session', cookies: { crumb: CRUMB }, headers: { 'x-csrf-token': CRUMB }, payload: { email: 'demo@example.com', password: 'demo-password' } });
    expect(login.statusCode, login.body).toBe(200);
    const session = login.cookies.find((c) => c.name === 'SiteUserSecureAuthToken')!.value;
    const added = await h.inject({ method: 'POST', url: '/api/commerce/shopping-cart/entries', cookies: { crumb: CRUMB, SiteUserSecureAuthToken: session }, headers: { 'x-csrf-token': CRUMB }, payload: { itemId: 'tee', sku: 'TEE-S', quantity: 1, additionalFields: null } });
    expect(added.statusCode, added.body).toBe(200);
    const cartToken = (added.json() as { shoppingCart: { id: string } }).shoppingCart.id;
    expect((await h.inject({ url: `/checkout?cartToken=${cartToken}`, cookies: { SiteUserSecureAuthToken: session } })).statusCode).toBe(200);
    const out = await h.inject({ method: 'DELETE', url: '/api/site-users/account/session?cloneCart=true', cookies: { crumb: CRUMB, SiteUserSecureAuthToken: session }, headers: { 'x-csrf-token': CRUMB } });
    expect(out.statusCode).toBe(200);
    const copy = out.cookies.find((c) => c.name === 'CART')!.value;
    const again = await h.inject({ url: `/checkout?cartToken=${cartToken}`, cookies: { CART: copy } });
    expect(again.statusCode).toBe(303);
    expect(again.headers.location).toBe('/cart');
    const cartPage = await h.inject({ url: '/cart', cookies: { CART: copy } });
    expect(cartPage.statusCode).toBe(200);
    expect(cartPage.body).toContain(`/checkout?cartToken=${copy}`);
  });

  it('an unknown cart is still not found', async () => {
    expect((await h.inject('/checkout?cartToken=no-such-cart')).statusCode).toBe(404);
  });
});

describe('PageRedirect', () => {
  it('takes a same-site path only', () => {
    expect(new PageRedirect('/commerce/orders/a/confirmed?x=1').location).toBe('/commerce/orders/a/confirmed?x=1');
    for (const location of ['//evil.example/x', '/\\evil.example', 'https://evil.example/', 'relative', '/a b', '/\t/evil.example', '']) {
      expect(() => new PageRedirect(location), location).toThrow(/same-site path/);
    }
  });
});

// The checkout page's markup before the island has its view (CLS): the summary shows the totals
// the island's first view will (the API's view of the same cart), and a placeholder stands for
// each section the island will draw, so the form replaces it without moving the page.
describe('the checkout page before the island has its view', () => {
  it('shows the first view\'s totals and a placeholder of each section: address, both options, both providers, test card fields', async () => {
    const { shoppingCart } = await post('/api/commerce/shopping-cart/entries?express=true', { itemId: 'tee', sku: 'TEE-S', quantity: 1, additionalFields: null });
    const view = (await h.inject(`/api/commerce/checkout?cartToken=${shoppingCart.id}`)).json() as Record<string, any>;
    expect([view.subtotalCents, view.shippingCostCents, view.taxCents, view.grandTotalCents]).toEqual([2500, 500, 0, 3000]);
    const body = (await h.inject(`/checkout?cartToken=${shoppingCart.id}`)).body;
    expect(body).toContain('data-total="subtotal">$25.00<');
    expect(body).toContain('data-total="shipping">$5.00<');
    expect(body).toContain('data-total="tax">$0.00<');
    expect(body).toContain('data-total="grand">$30.00<');
    expect(body).toContain('<td>Classic Tee<span class="sf-order-variant"> S</span></td><td>1</td><td>$25.00</td>');
    expect(body).toContain('class="sf-checkout-section sf-checkout-address"');
    expect(body.match(/sf-checkout-ph-option sf-checkout-ph-described/g)).toHaveLength(2);
    expect(body.match(/class="sf-checkout-ph-option"/g)).toHaveLength(2);
    expect(body).toContain('sf-checkout-ph-card sf-checkout-ph-test-card');
  });

  // The island's sentence at the offline choice (hydrate/shared/checkout-text.ts), drawn by the
  // server with the same words, id and class, so the form's arrival does not push it in.
  it("a cart over the shop's offline bound has the island's sentence after the offline choice; within it, none", async () => {
    await reseed(h.store, await demoSeed((seed) => {
      seed.site.settings = { ...seed.site.settings, commerce: { ...seed.site.settings?.commerce, offlineOrderMaxUnits: 1 } };
    }));
    const first = await post('/api/commerce/shopping-cart/entries?express=true', { itemId: 'tee', sku: 'TEE-S', quantity: 1, additionalFields: null });
    const within = (await h.inject(`/checkout?cartToken=${first.shoppingCart.id}`)).body;
    expect(within).not.toContain('sf-checkout-offline-limit');

    const { shoppingCart } = await post('/api/commerce/shopping-cart/entries?express=true', { itemId: 'tee', sku: 'TEE-M', quantity: 2, additionalFields: null });
    const view = (await h.inject(`/api/commerce/checkout?cartToken=${shoppingCart.id}`)).json() as Record<string, any>;
    const sentence = offlineLimitText(view.offlineOrderMaxUnits, view.stockUnits);
    expect(sentence).toBe('An order paid offline can hold at most 1 item from stock; this cart has 2. Remove some, or choose another payment method.');
    const body = (await h.inject(`/checkout?cartToken=${shoppingCart.id}`)).body;
    // The card's choice, then the offline one and its sentence; the card fields below.
    expect(body).toContain(`<span class="sf-checkout-ph-option"></span><span class="sf-checkout-ph-option"></span><p class="sf-checkout-offline-limit" id="sf-checkout-provider-manual-limit">${sentence}</p><span class="sf-checkout-ph-card`);
    expect(body.match(/sf-checkout-offline-limit/g)).toHaveLength(1);
  });

  it('a gift card: no address, no shipping row, its price as the total', async () => {
    const body = (await h.inject('/checkout/gift-card?itemId=gift-card&sku=GC-50')).body;
    expect(body).not.toContain('sf-checkout-address');
    expect(body).not.toContain('data-total="shipping"');
    expect(body).toContain('data-total="grand">$50.00<');
  });
});
