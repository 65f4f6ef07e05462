// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { createPage, typeInto, choose, press, type Page, type RecordedCall } from '../test-support/page.ts';
import type { CheckoutView } from '../runtime/checkout-form.ts';

// A fake of the orders contract's checkout API (issue 15): quotes price shipping by country,
// tax at 10 %, coupon SAVE10 takes 10 % off; place accepts 4242…, declines other numbers,
// remembers idempotency keys and counts the orders it made.

const LIMITED = 'Too many coupon codes were tried. Please try again in 42 minutes.';
const ADDRESS = { firstName: 'Ada', lastName: 'Lovelace', line1: '1 Analytical Way', city: 'Springfield', region: 'IL', postalCode: '62701', country: 'US' };

interface Fake {
  orders: string[];
  view: CheckoutView;
  keys: Map<string, unknown>;
  networkFailures: number;
  /** Codes the server refuses past its coupon guess limit: a quote carrying one is 429. */
  refused: Set<string>;
}

function baseView(patch: Partial<CheckoutView> = {}): CheckoutView {
  return {
    cartToken: 'c1',
    websiteId: 'w1',
    currency: 'USD',
    entries: [{ itemId: 'i1', productId: 'i1', sku: 'TEE-M', productName: 'Tee', variantLabel: 'M', quantity: 2, unitPriceCents: 1000, lineTotalCents: 2000, productType: 1 }],
    subtotalCents: 2000,
    requiresShipping: true,
    hasDigital: false,
    purelyDigital: false,
    shippingLocation: null,
    shippingOptions: [],
    selectedShippingOption: null,
    noShippingToAddress: false,
    applicableTaxRules: [],
    taxCents: 0,
    shippingCostCents: 0,
    coupons: [],
    validCoupons: [],
    invalidCoupons: [],
    discountCents: 0,
    grandTotalCents: 2000,
    minimumSubtotalCents: 0,
    belowMinimum: false,
    minimumMessage: null,
    paymentProviders: [
      { id: 'test', label: 'Card', kind: 'card' },
      { id: 'manual', label: 'Pay offline', kind: 'offline' },
    ],
    offlineOrderMaxUnits: 10,
    stockUnits: 2,
    linesKey: 'lines-tee-m-2',
    ...patch,
  };
}

const OPTIONS = [
  { id: 'standard', name: 'Standard', costCents: 500 },
  { id: 'express', name: 'Express', costCents: 1500, description: 'Next day' },
];

function quoteOf(fake: Fake, body: { shippingAddress?: typeof ADDRESS; shippingOptionId?: string; couponCodes?: string[] }): CheckoutView {
  const base = fake.view;
  const options = base.requiresShipping && body.shippingAddress ? OPTIONS : [];
  const selected = options.find((o) => o.id === body.shippingOptionId) ?? null;
  const codes = body.couponCodes ?? [];
  const valid = codes.filter((c) => c === 'SAVE10').map((code) => ({ code, description: '10% off', discountCents: Math.round(base.subtotalCents / 10) }));
  const invalid = codes.filter((c) => c !== 'SAVE10').map((code) => ({ code, reason: 'This coupon has expired.' }));
  const discount = valid.reduce((n, c) => n + c.discountCents, 0);
  const shipping = selected?.costCents ?? 0;
  const tax = body.shippingAddress ? Math.round((base.subtotalCents - discount) / 10) : 0;
  return {
    ...base,
    shippingLocation: body.shippingAddress ?? null,
    shippingOptions: options,
    selectedShippingOption: selected?.id ?? null,
    applicableTaxRules: body.shippingAddress ? [{ name: 'Sales tax', ratePercent: 10 }] : [],
    taxCents: tax,
    shippingCostCents: shipping,
    coupons: codes,
    validCoupons: valid,
    invalidCoupons: invalid,
    discountCents: discount,
    grandTotalCents: base.subtotalCents - discount + shipping + tax,
  };
}

function installFake(page: Page, view: CheckoutView = baseView()): Fake {
  const fake: Fake = { orders: [], view, keys: new Map(), networkFailures: 0, refused: new Set() };
  page.fetch.on('GET', '/api/commerce/checkout?', { json: view });
  page.fetch.on('POST', '/api/commerce/checkout/quote', (call) => {
    const codes = (call.json as { couponCodes?: string[] }).couponCodes ?? [];
    if (codes.some((code) => fake.refused.has(code))) {
      return { status: 429, json: { error: 'Too many requests.', code: 'RATE_LIMITED', errors: { couponCodes: LIMITED } } };
    }
    return { json: quoteOf(fake, call.json as never) };
  });
  page.fetch.on('POST', '/api/commerce/checkout/gift-card', { json: { cartToken: 'gc-cart' } });
  page.fetch.on('POST', '/api/commerce/checkout/place', (call: RecordedCall) => {
    const body = call.json as { idempotencyKey: string; payment: { provider: string; cardNumber?: string } };
    const seen = fake.keys.get(body.idempotencyKey);
    if (seen) return { json: seen };
    if (fake.networkFailures > 0) {
      // The order is made but the answer is lost on the way back.
      fake.networkFailures--;
      const answer = { orderId: `o${fake.orders.length + 1}`, orderNumber: fake.orders.length + 1, confirmationUrl: `/commerce/orders/o${fake.orders.length + 1}/confirmed` };
      fake.orders.push(answer.orderId);
      fake.keys.set(body.idempotencyKey, answer);
      return 'reject';
    }
    if (body.payment.provider === 'test' && body.payment.cardNumber !== '4242424242424242') {
      return { status: 402, json: { error: 'Your card was declined.', code: 'PAYMENT_DECLINED', errors: { cardNumber: 'Your card was declined.' } } };
    }
    const id = `o${fake.orders.length + 1}`;
    fake.orders.push(id);
    const answer = { orderId: id, orderNumber: fake.orders.length, confirmationUrl: body.payment.provider === 'manual' ? `/commerce/orders/${id}/received` : `/commerce/orders/${id}/confirmed` };
    fake.keys.set(body.idempotencyKey, answer);
    return { json: answer };
  });
  return fake;
}

function markup(kind = 'cart', attrs = 'data-cart-token="c1"'): string {
  return `<section class="sf-checkout"><h1>Checkout</h1><div class="sf-checkout-app" data-island="checkout" data-checkout-kind="${kind}" ${attrs}><table class="sf-order-summary"><tbody><tr class="sf-order-line"><td>Tee</td><td>2</td><td>$20.00</td></tr></tbody></table><p class="sf-order-total">Total <span>$20.00</span></p></div></section>`;
}

let page: Page;
beforeEach(() => {
  // Every test is a new tab: no entries kept from another test's checkout.
  sessionStorage.clear();
  vi.useFakeTimers();
  vi.setSystemTime(new Date(2026, 10, 28, 12));
});
afterEach(() => {
  page?.cleanup();
  vi.useRealTimers();
});

async function open(view?: CheckoutView, kind?: string, attrs?: string): Promise<Fake> {
  page = createPage({ body: markup(kind, attrs) });
  const fake = installFake(page, view);
  await page.boot();
  await page.advance(0);
  expect(page.recoverableErrors).toEqual([]);
  return fake;
}

const $ = <T extends Element = HTMLInputElement>(selector: string) => document.querySelector<T>(selector)!;
const container = () => $<HTMLElement>('[data-island="checkout"]');
const placeCalls = () => page.fetch.callsTo('/api/commerce/checkout/place', 'POST');
const quoteCalls = () => page.fetch.callsTo('/api/commerce/checkout/quote', 'POST');
const total = (name: string) => $(`[data-total="${name}"]`)?.textContent;

async function fillAddress(address: Partial<typeof ADDRESS> = ADDRESS) {
  await page.act(() => {
    typeInto($('#sf-checkout-email'), 'ada@example.com');
    for (const [part, id] of [['firstName', 'first-name'], ['lastName', 'last-name'], ['line1', 'line1'], ['city', 'city'], ['region', 'region'], ['postalCode', 'postal-code']] as const) {
      if (address[part] !== undefined) typeInto($(`#sf-checkout-${id}`), address[part]);
    }
  });
  await page.act(() => choose($<HTMLSelectElement>('#sf-checkout-country'), address.country ?? ''));
  await page.advance(0);
}

async function fillCard(number = '4242 4242 4242 4242', expiry = '12/30', cvc = '123') {
  await page.act(() => {
    typeInto($('#sf-checkout-card-number'), number);
    typeInto($('#sf-checkout-expiry'), expiry);
    typeInto($('#sf-checkout-cvc'), cvc);
  });
}

async function submit() {
  await page.act(() => $<HTMLFormElement>('.sf-checkout-form').requestSubmit());
  await page.advance(0);
}

function describedError(input: Element): string | null {
  const id = input.getAttribute('aria-describedby');
  return id ? (document.getElementById(id)?.textContent ?? null) : null;
}

describe('checkout island (issue 15)', () => {
  test('hydrates over the server summary, then shows every field with a visible label', async () => {
    await open();
    expect(container().getAttribute('data-checkout-state')).toBe('ready');
    expect(page.fetch.callsTo('/api/commerce/checkout?cartToken=c1', 'GET')).toHaveLength(1);
    const controls = [...document.querySelectorAll<HTMLInputElement>('.sf-checkout-form input, .sf-checkout-form select')];
    expect(controls.length).toBeGreaterThan(10);
    for (const control of controls) {
      const label = control.closest('label') ?? document.querySelector(`label[for="${control.id}"]`);
      expect(label?.textContent?.trim(), control.id).toBeTruthy();
    }
    expect($('label[for="sf-checkout-email"]').textContent).toContain('Email');
    expect($('#sf-checkout-card-number').getAttribute('autocomplete')).toBe('cc-number');
    expect($('.sf-checkout-shipping').textContent).toContain('Enter your shipping address to see the shipping options.');
    expect($('.sf-checkout-place').textContent).toBe('Place order');
  });

  test('an empty Place order marks each field with its error, describes it, focuses the first and sends nothing', async () => {
    await open();
    await submit();
    expect(placeCalls()).toHaveLength(0);
    const expected = {
      email: 'Enter your email address.',
      'first-name': 'Enter your first name.',
      line1: 'Enter your street address.',
      'postal-code': 'Enter your postal code.',
      country: 'Choose a country.',
      'card-number': 'Enter a valid card number.',
      expiry: 'Enter a valid expiry date.',
      cvc: 'Enter a valid security code.',
    };
    for (const [id, message] of Object.entries(expected)) {
      const control = $(`#sf-checkout-${id}`);
      expect(control.getAttribute('aria-invalid'), id).toBe('true');
      expect(describedError(control), id).toBe(message);
    }
    expect($('#sf-checkout-line2').hasAttribute('aria-invalid')).toBe(false);
    expect(document.activeElement).toBe($('#sf-checkout-email'));
  });

  test('an empty Place order says how many fields need attention; each one corrected loses its error as it is typed, quietly, and a half-typed card keeps its own', async () => {
    await open();
    const said = () => document.querySelector('body > .sf-announcer')?.textContent ?? null;
    await submit();
    const wrong = () => document.querySelectorAll('.sf-checkout-form [aria-invalid="true"]').length;
    const count = wrong();
    expect(count).toBeGreaterThan(5);
    expect(document.activeElement).toBe($('#sf-checkout-email'));
    expect(said()).toBe(`${count} fields need attention.`);
    await page.act(() => typeInto($('#sf-checkout-email'), 'ada@'));
    expect($('#sf-checkout-email').getAttribute('aria-invalid')).toBe('true');
    expect(said()).toBe(`${count} fields need attention.`);
    await page.act(() => typeInto($('#sf-checkout-email'), 'ada@example.com'));
    expect($('#sf-checkout-email').hasAttribute('aria-invalid')).toBe(false);
    expect(describedError($('#sf-checkout-email'))).toBeNull();
    expect(wrong()).toBe(count - 1);
    expect(said()).toBe('');
    await page.act(() => typeInto($('#sf-checkout-card-number'), '4242'));
    expect(describedError($('#sf-checkout-card-number'))).toBe('Enter a valid card number.');
    await page.act(() => typeInto($('#sf-checkout-card-number'), '4242 4242 4242 4242'));
    expect($('#sf-checkout-card-number').hasAttribute('aria-invalid')).toBe(false);
    expect(wrong()).toBe(count - 2);
  });

  test('a complete address is quoted: the first shipping option is chosen and priced, another can be chosen', async () => {
    await open();
    await fillAddress();
    const quotes = quoteCalls();
    expect(quotes[0]!.json).toMatchObject({ cartToken: 'c1', shippingAddress: ADDRESS });
    // The first option is chosen and then priced.
    expect(quotes.at(-1)!.json).toMatchObject({ shippingOptionId: 'standard' });
    const radios = [...document.querySelectorAll<HTMLInputElement>('input[name="shippingOptionId"]')];
    expect(radios.map((r) => r.checked)).toEqual([true, false]);
    expect($('label[for="sf-checkout-shipping-option-1"]').textContent).toContain('Express$15.00Next day');
    expect(total('shipping')).toBe('$5.00');
    expect(total('tax')).toBe('$2.00');
    expect($('.sf-checkout-totals').textContent).toContain('Tax (Sales tax 10%)');
    expect(total('grand')).toBe('$27.00');
    await page.act(() => radios[1]!.click());
    await page.advance(0);
    expect(quoteCalls().at(-1)!.json).toMatchObject({ shippingOptionId: 'express' });
    expect(total('shipping')).toBe('$15.00');
    expect(total('grand')).toBe('$37.00');
  });

  test('coupons: a valid one is applied with its discount, an invalid one is shown as not applied; Enter applies, never places', async () => {
    await open();
    const input = $('#sf-checkout-coupon');
    await page.act(() => $<HTMLButtonElement>('.sf-checkout-coupon-apply').click());
    expect(describedError(input)).toBe('Enter a coupon code.');
    // Focus moved to the field reads the error: no alert, and the status region says nothing more.
    expect(document.getElementById(input.getAttribute('aria-describedby')!)!.hasAttribute('role')).toBe(false);
    expect(document.activeElement).toBe(input);
    expect(document.querySelector('body > .sf-announcer')!.textContent).toBe('');
    // Enter in the field, focus staying: the status region says it.
    await page.act(() => press(input, 'Enter'));
    expect(document.querySelector('body > .sf-announcer')!.textContent).toBe('Enter a coupon code.');
    await page.act(() => typeInto(input, 'SAVE10'));
    await page.act(() => press(input, 'Enter'));
    await page.advance(0);
    expect(placeCalls()).toHaveLength(0);
    expect(input.hasAttribute('aria-invalid')).toBe(false);
    expect($('.sf-coupon-valid').textContent).toContain('SAVE10 Applied10% off-$2.00');
    expect(total('discount')).toBe('-$2.00');
    await page.act(() => typeInto(input, 'OLD'));
    await page.act(() => $<HTMLButtonElement>('.sf-checkout-coupon-apply').click());
    await page.advance(0);
    expect(quoteCalls().at(-1)!.json).toMatchObject({ couponCodes: ['SAVE10', 'OLD'] });
    expect($('.sf-coupon-invalid').textContent).toContain('OLD Not appliedThis coupon has expired.');
    await page.act(() => $<HTMLButtonElement>('[aria-label="Remove coupon OLD"]').click());
    await page.advance(0);
    expect(document.querySelector('.sf-coupon-invalid')).toBeNull();
    expect(document.activeElement).toBe(input);
  });

  test('past the coupon guess limit (429) the new code is dropped and said at the coupon field; the applied coupon is priced again and kept', async () => {
    const fake = await open();
    await fillAddress();
    const input = $('#sf-checkout-coupon');
    await page.act(() => typeInto(input, 'SAVE10'));
    await page.act(() => press(input, 'Enter'));
    await page.advance(0);
    fake.refused.add('GUESS');
    const before = quoteCalls().length;
    await page.act(() => typeInto(input, 'GUESS'));
    await page.act(() => press(input, 'Enter'));
    await page.advance(0);
    // The refused quote, then the same without the new code.
    expect(quoteCalls().slice(before).map((call) => (call.json as { couponCodes: string[] }).couponCodes)).toEqual([['SAVE10', 'GUESS'], ['SAVE10']]);
    expect(describedError(input)).toBe(LIMITED);
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.value).toBe('GUESS');
    expect(document.activeElement).toBe(input);
    expect($('.sf-coupon-valid').textContent).toContain('SAVE10 Applied');
    expect(document.querySelector('[data-coupon="GUESS"]')).toBeNull();
    expect(total('discount')).toBe('-$2.00');
    expect(document.querySelector('.sf-checkout-error')).toBeNull();
    // The address still changes, priced with the applied coupon only.
    await page.act(() => typeInto($('#sf-checkout-city'), 'Shelbyville'));
    await page.act(() => $('#sf-checkout-city').dispatchEvent(new FocusEvent('focusout', { bubbles: true })));
    await page.advance(0);
    expect(quoteCalls().at(-1)!.json).toMatchObject({ couponCodes: ['SAVE10'], shippingAddress: { city: 'Shelbyville' } });
    // A code the server no longer knows from this client (its window ended) goes the same way.
    fake.refused.add('SAVE10');
    await page.act(() => typeInto($('#sf-checkout-city'), 'Capital City'));
    await page.act(() => $('#sf-checkout-city').dispatchEvent(new FocusEvent('focusout', { bubbles: true })));
    await page.advance(0);
    expect(quoteCalls().at(-1)!.json).toMatchObject({ couponCodes: [], shippingAddress: { city: 'Capital City' } });
    expect(describedError(input)).toBe(LIMITED);
    expect(document.querySelector('.sf-coupon')).toBeNull();
  });

  test('Place order sends the contract body once and goes to the confirmation page', async () => {
    const fake = await open();
    await fillAddress();
    await fillCard();
    await submit();
    expect(placeCalls()).toHaveLength(1);
    const body = placeCalls()[0]!.json as Record<string, unknown>;
    expect(body).toMatchObject({
      cartToken: 'c1',
      email: 'ada@example.com',
      shippingAddress: ADDRESS,
      shippingOptionId: 'standard',
      couponCodes: [],
      payment: { provider: 'test', cardNumber: '4242424242424242', expMonth: 12, expYear: 2030, cvc: '123' },
      // What the summary showed, total and lines: a cart changed in another tab is refused, not charged.
      expectedTotalCents: 2700,
      expectedLinesKey: 'lines-tee-m-2',
    });
    expect(body.idempotencyKey).toMatch(/^[0-9a-f]{32}$/);
    expect(fake.orders).toEqual(['o1']);
    expect(page.navigate).toHaveBeenCalledWith('/commerce/orders/o1/confirmed');
    expect($('.sf-checkout-place').textContent).toBe('Placing order…');
    expect($('.sf-checkout-place').getAttribute('aria-disabled')).toBe('true');
    // The page is leaving: another press sends nothing.
    await submit();
    expect(placeCalls()).toHaveLength(1);
  });

  test('a declined card says so next to the card field, makes no order, and the next press is a new attempt', async () => {
    const fake = await open();
    await fillAddress();
    await fillCard('4000 0000 0000 0002');
    await submit();
    const number = $('#sf-checkout-card-number');
    expect(number.getAttribute('aria-invalid')).toBe('true');
    expect(describedError(number)).toBe('Your card was declined.');
    expect(number.closest('.sf-field')!.querySelector('.field-error')!.textContent).toBe('Your card was declined.');
    expect(document.activeElement).toBe(number);
    expect(fake.orders).toEqual([]);
    expect(page.navigate).not.toHaveBeenCalled();
    expect($('.sf-checkout-place').textContent).toBe('Place order');
    await fillCard('4242424242424242');
    await submit();
    const [first, second] = placeCalls().map((c) => (c.json as { idempotencyKey: string }).idempotencyKey);
    expect(second).not.toBe(first);
    expect(fake.orders).toEqual(['o1']);
  });

  test('a lost answer is retried with the same key, and the server makes one order', async () => {
    const fake = await open();
    fake.networkFailures = 1;
    await fillAddress();
    await fillCard();
    await submit();
    expect($('#sf-checkout-error').textContent).toBe('Please check your internet connection.');
    expect($('#sf-checkout-error').getAttribute('role')).toBe('alert');
    expect(document.activeElement).toBe($('#sf-checkout-error'));
    await submit();
    const keys = placeCalls().map((c) => (c.json as { idempotencyKey: string }).idempotencyKey);
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    expect(fake.orders).toEqual(['o1']);
    expect(page.navigate).toHaveBeenCalledWith('/commerce/orders/o1/confirmed');
  });

  test('server field errors sit next to their fields; a stock conflict is said on its line', async () => {
    await open();
    await fillAddress();
    await fillCard();
    page.fetch.routes.unshift((call) =>
      call.path.startsWith('/api/commerce/checkout/place') && placeCalls().length === 1
        ? { status: 400, json: { error: 'Please check the highlighted fields.', code: 'INVALID_CHECKOUT', errors: { 'shippingAddress.postalCode': 'Enter a valid postal code.' } } }
        : call.path.startsWith('/api/commerce/checkout/place')
          ? { status: 409, json: { error: 'Some items are no longer in stock.', code: 'OUT_OF_STOCK', errors: { i1: 'Only 1 left.' } } }
          : undefined,
    );
    await submit();
    const postal = $('#sf-checkout-postal-code');
    expect(describedError(postal)).toBe('Enter a valid postal code.');
    expect(document.activeElement).toBe(postal);
    expect(document.querySelector('#sf-checkout-error')).toBeNull();
    await submit();
    expect($('#sf-checkout-error').textContent).toBe('Some items are no longer in stock.');
    expect($('.sf-order-line[data-item-id="i1"] .sf-order-line-error').textContent).toBe('Only 1 left.');
    expect(postal.hasAttribute('aria-invalid')).toBe(false);
  });

  test('a line whose product the owner removed is said at its line from the view, before any press; Place order refused says so with the focus', async () => {
    const gone = 'Sorry, this item is no longer available. Please remove it from your cart.';
    const tee = baseView().entries[0]!;
    const view = baseView({ entries: [tee, { ...tee, itemId: 'i2', productId: 'i2', sku: 'MUG', productName: 'Mug', variantLabel: '', unavailable: gone }] });
    await open(view);
    expect($('.sf-order-line[data-item-id="i2"] .sf-order-line-error').textContent).toBe(gone);
    expect(document.querySelector('.sf-order-line[data-item-id="i1"] .sf-order-line-error')).toBeNull();
    await fillAddress();
    await fillCard();
    const general = 'Sorry, an item in your cart is no longer available. Please remove it from your cart to check out.';
    page.fetch.routes.unshift((call) =>
      call.path.startsWith('/api/commerce/checkout/place') ? { status: 409, json: { error: general, code: 'ITEM_UNAVAILABLE', errors: { i2: gone } } } : undefined,
    );
    await submit();
    expect($('#sf-checkout-error').textContent).toBe(general);
    expect(document.activeElement).toBe($('#sf-checkout-error'));
    expect($('.sf-order-line[data-item-id="i2"] .sf-order-line-error').textContent).toBe(gone);
    expect(page.navigate).not.toHaveBeenCalled();
  });

  test('a coupon that lapsed before Place order: its reason said with the focus, the coupon shown not applied and the total without it; nothing placed', async () => {
    const fake = await open();
    await fillAddress();
    await fillCard();
    const input = $('#sf-checkout-coupon');
    await page.act(() => typeInto(input, 'SAVE10'));
    await page.act(() => press(input, 'Enter'));
    await page.advance(0);
    expect(total('discount')).toBe('-$2.00');
    const text = 'A coupon you applied no longer applies: This coupon has expired. Please review the totals.';
    // From now on the server finds SAVE10 expired: the place is refused and the quote says why.
    page.fetch.routes.unshift((call) =>
      call.path.startsWith('/api/commerce/checkout/place')
        ? { status: 409, json: { error: text, code: 'CART_CHANGED', errors: { couponCodes: 'This coupon has expired.' } } }
        : call.path.startsWith('/api/commerce/checkout/quote')
          ? { json: { ...quoteOf(fake, { ...(call.json as object), couponCodes: [] }), coupons: ['SAVE10'], invalidCoupons: [{ code: 'SAVE10', reason: 'This coupon has expired.' }] } }
          : undefined,
    );
    await submit();
    expect(placeCalls().at(-1)!.json).toMatchObject({ couponCodes: ['SAVE10'] });
    expect($('#sf-checkout-error').textContent).toBe(text);
    expect(document.activeElement?.id).toBe('sf-checkout-error');
    expect($('.sf-coupon-invalid').textContent).toContain('SAVE10 Not appliedThis coupon has expired.');
    expect(document.querySelector('[data-total="discount"]')).toBeNull();
    expect(fake.orders).toEqual([]);
  });

  test('below the minimum subtotal the seed message shows and nothing is placed', async () => {
    const message = 'To check out, your order subtotal must be $50.00 or more.';
    await open(baseView({ requiresShipping: false, minimumSubtotalCents: 5000, belowMinimum: true, minimumMessage: message }));
    expect($('.sf-checkout-minimum').textContent).toBe(message);
    expect($('.sf-checkout-minimum').getAttribute('role')).toBe('status');
    expect($('.sf-checkout-place').getAttribute('aria-disabled')).toBe('true');
    await page.act(() => typeInto($('#sf-checkout-email'), 'ada@example.com'));
    await fillCard();
    await submit();
    expect(placeCalls()).toHaveLength(0);
    expect($('#sf-checkout-error').textContent).toBe(message);
  });

  test('a digital cart asks no address; the offline provider asks no card and goes to the received page', async () => {
    const fake = await open(baseView({ requiresShipping: false, purelyDigital: true, hasDigital: true }));
    expect(document.querySelector('#sf-checkout-line1')).toBeNull();
    expect(document.querySelector('.sf-checkout-shipping')).toBeNull();
    await page.act(() => $('#sf-checkout-provider-manual').click());
    expect(document.querySelector('#sf-checkout-card-number')).toBeNull();
    expect($('.sf-checkout-payment').textContent).toContain('No card needed now: your order is held until your payment arrives.');
    await page.act(() => typeInto($('#sf-checkout-email'), 'ada@example.com'));
    await submit();
    expect(placeCalls()[0]!.json).toMatchObject({ payment: { provider: 'manual' } });
    expect(placeCalls()[0]!.json).not.toHaveProperty('shippingAddress');
    expect(fake.orders).toEqual(['o1']);
    expect(page.navigate).toHaveBeenCalledWith('/commerce/orders/o1/received');
  });

  test('an offline order holding more stock than the server allows (422 OFFLINE_ORDER_TOO_LARGE) says why, and goes nowhere', async () => {
    const message = 'An order paid offline can hold at most 10 items from stock; this cart has 25. Remove some, or choose another payment method.';
    const fake = await open(baseView({ requiresShipping: false, purelyDigital: true, hasDigital: true }));
    page.fetch.routes.unshift((call) =>
      call.path.startsWith('/api/commerce/checkout/place') ? { status: 422, json: { error: message, code: 'OFFLINE_ORDER_TOO_LARGE' } } : undefined,
    );
    await page.act(() => $('#sf-checkout-provider-manual').click());
    await page.act(() => typeInto($('#sf-checkout-email'), 'ada@example.com'));
    await submit();
    expect(placeCalls()).toHaveLength(1);
    expect($('#sf-checkout-error').textContent).toBe(message);
    expect(fake.orders).toEqual([]);
    expect(page.navigate).not.toHaveBeenCalled();
  });

  test("a cart over the shop's offline bound (the view's offlineOrderMaxUnits and stockUnits) says so at the offline choice before any press; Place order offline is refused unsent, a card pays", async () => {
    const message = 'An order paid offline can hold at most 3 items from stock; this cart has 4. Remove some, or choose another payment method.';
    const fake = await open(baseView({ requiresShipping: false, purelyDigital: true, hasDigital: true, offlineOrderMaxUnits: 3, stockUnits: 4 }));
    // Said as soon as the choice is shown, tied to the offline option (not colour alone: words).
    expect(describedError($('#sf-checkout-provider-manual'))).toBe(message);
    expect($('#sf-checkout-provider-test').hasAttribute('aria-describedby')).toBe(false);
    expect($('.sf-checkout-place').hasAttribute('aria-describedby')).toBe(false);

    await page.act(() => $('#sf-checkout-provider-manual').click());
    expect(describedError($('.sf-checkout-place'))).toBe(message);
    await page.act(() => typeInto($('#sf-checkout-email'), 'ada@example.com'));
    await submit();
    expect(placeCalls()).toHaveLength(0);
    expect($('#sf-checkout-error').textContent).toBe(message);
    expect(document.activeElement?.id).toBe('sf-checkout-error');

    await page.act(() => $('#sf-checkout-provider-test').click());
    expect($('.sf-checkout-place').hasAttribute('aria-describedby')).toBe(false);
    await fillCard();
    await submit();
    expect(placeCalls()).toHaveLength(1);
    expect(placeCalls()[0]!.json).toMatchObject({ payment: { provider: 'test' } });
    expect(fake.orders).toEqual(['o1']);
  });

  test('offline the only way to pay: the bound is said at the payment hint and by Place order, and nothing is sent; within the bound nothing is said', async () => {
    const message = 'An order paid offline can hold at most 1 item from stock; this cart has 2. Remove some, or choose another payment method.';
    await open(baseView({ requiresShipping: false, purelyDigital: true, paymentProviders: [{ id: 'manual', label: 'Pay offline', kind: 'offline' }], offlineOrderMaxUnits: 1, stockUnits: 2 }));
    expect($('.sf-checkout-payment').textContent).toContain(message);
    expect(describedError($('.sf-checkout-place'))).toBe(message);
    await page.act(() => typeInto($('#sf-checkout-email'), 'ada@example.com'));
    await submit();
    expect(placeCalls()).toHaveLength(0);
    expect($('#sf-checkout-error').textContent).toBe(message);
    page.cleanup();

    await open(baseView({ requiresShipping: false, purelyDigital: true, paymentProviders: [{ id: 'manual', label: 'Pay offline', kind: 'offline' }], offlineOrderMaxUnits: 2, stockUnits: 2 }));
    expect(document.querySelector('.sf-checkout-offline-limit')).toBeNull();
    await page.act(() => typeInto($('#sf-checkout-email'), 'ada@example.com'));
    await submit();
    expect(placeCalls()).toHaveLength(1);
  });

  test('the gift-card page first makes its one-line cart, then checks out as usual', async () => {
    await open(baseView({ cartToken: 'gc-cart', requiresShipping: false, purelyDigital: true }), 'gift-card', 'data-item-id="gc" data-sku="GC-50"');
    expect(page.fetch.callsTo('/api/commerce/checkout/gift-card', 'POST')[0]!.json).toEqual({ itemId: 'gc', sku: 'GC-50' });
    expect(page.fetch.callsTo('/api/commerce/checkout?cartToken=gc-cart', 'GET')).toHaveLength(1);
    expect(document.querySelector('#sf-checkout-email')).not.toBeNull();
  });

  test('a cart bought already (another tab, back after paying) goes to its order page', async () => {
    page = createPage({ body: markup() });
    page.fetch.on('GET', '/api/commerce/checkout?', { json: { ...baseView(), isPurchased: true, orderId: 'o9' } });
    await page.boot();
    await page.advance(0);
    expect(page.navigate).toHaveBeenCalledWith('/commerce/orders/o9/confirmed');
    expect(container().getAttribute('data-checkout-state')).toBe('done');
    expect(placeCalls()).toHaveLength(0);
  });

  test('the order placed meanwhile in another tab: Place order says so and links that order, and sends nothing again', async () => {
    const fake = await open();
    await fillAddress();
    await fillCard();
    // The other tab places the order: the server now refuses this one and its views say purchased.
    page.fetch.routes.unshift((call) =>
      call.path.startsWith('/api/commerce/checkout/place')
        ? { status: 409, json: { error: 'This cart has already been purchased.', code: 'CART_PURCHASED' } }
        : call.path.startsWith('/api/commerce/checkout/quote')
          ? { json: { ...quoteOf(fake, call.json as never), isPurchased: true, orderId: 'o7' } }
          : undefined,
    );
    await submit();
    const error = $<HTMLElement>('#sf-checkout-error');
    expect(error.textContent).toBe('This cart has already been purchased. View your order');
    const link = error.querySelector<HTMLAnchorElement>('a.sf-checkout-order-link')!;
    expect(link.getAttribute('href')).toBe('/commerce/orders/o7/confirmed');
    expect(link.textContent).toBe('View your order');
    expect(document.activeElement).toBe(error);
    expect($('.sf-checkout-place').getAttribute('aria-disabled')).toBe('true');
    expect(page.navigate).not.toHaveBeenCalled();
    // Pressed again: nothing is sent, the message and link stay.
    const sent = placeCalls().length;
    await submit();
    expect(placeCalls()).toHaveLength(sent);
    expect($('#sf-checkout-error').textContent).toBe('This cart has already been purchased. View your order');
    // Nothing of the bought cart is kept for this tab.
    expect(Object.keys(sessionStorage).filter((k) => sessionStorage.getItem(k)?.includes('ada@example.com'))).toEqual([]);
  });

  test('a quote that finds the cart bought in another tab links that order before any Place order', async () => {
    const fake = await open();
    page.fetch.routes.unshift((call) =>
      call.path.startsWith('/api/commerce/checkout/quote') ? { json: { ...quoteOf(fake, call.json as never), isPurchased: true, orderId: 'o8' } } : undefined,
    );
    await fillAddress();
    expect($('#sf-checkout-error').textContent).toBe('This cart has already been purchased. View your order');
    expect($<HTMLAnchorElement>('.sf-checkout-order-link').getAttribute('href')).toBe('/commerce/orders/o8/confirmed');
    await submit();
    expect(placeCalls()).toHaveLength(0);
  });

  test('a cart that cannot be checked out keeps the server summary and says why', async () => {
    page = createPage({ body: markup() });
    page.fetch.on('GET', '/api/commerce/checkout?', { status: 404, json: { error: 'This cart was not found.', code: 'CART_NOT_FOUND' } });
    await page.boot();
    await page.advance(0);
    expect(page.recoverableErrors).toEqual([]);
    expect(container().getAttribute('data-checkout-state')).toBe('failed');
    expect($('.sf-order-summary').textContent).toContain('Tee');
    expect($('#sf-checkout-error').textContent).toBe('This cart was not found.');
  });

  /** The page again in the same tab: what a reload does to the island (session storage stays). */
  async function reload(view?: CheckoutView): Promise<Fake> {
    page.cleanup();
    return open(view);
  }
  const draftText = () => sessionStorage.getItem('sf.checkout-draft.cart:c1');

  test('a reload keeps what was entered, never the card: the address is priced again with the chosen option and coupon', async () => {
    await open();
    await fillAddress();
    await page.act(() => $('#sf-checkout-shipping-option-1').click());
    await page.act(() => typeInto($('#sf-checkout-coupon'), 'SAVE10'));
    await page.act(() => $<HTMLButtonElement>('.sf-checkout-coupon-apply').click());
    await page.advance(0);
    await page.act(() => $('#sf-checkout-provider-manual').click());
    await page.act(() => $('#sf-checkout-provider-test').click());
    await fillCard();
    const kept = draftText()!;
    expect(JSON.parse(kept)).toEqual({ email: 'ada@example.com', address: ADDRESS, shippingOptionId: 'express', providerId: 'test', couponCodes: ['SAVE10'] });
    expect(kept).not.toMatch(/4242|12\/30|cvc|card/i);

    const fake = await reload();
    expect($('#sf-checkout-email').value).toBe('ada@example.com');
    expect($('#sf-checkout-first-name').value).toBe('Ada');
    expect($('#sf-checkout-postal-code').value).toBe('62701');
    expect($<HTMLSelectElement>('#sf-checkout-country').value).toBe('US');
    expect($('#sf-checkout-card-number').value).toBe('');
    // One quote prices the kept address with the kept option and coupon.
    expect(quoteCalls()).toHaveLength(1);
    expect(quoteCalls()[0]!.json).toEqual({ cartToken: 'c1', shippingAddress: ADDRESS, shippingOptionId: 'express', couponCodes: ['SAVE10'] });
    expect($('#sf-checkout-shipping-option-1').checked).toBe(true);
    expect($('.sf-coupon-valid').textContent).toContain('SAVE10 Applied');
    expect(total('grand')).toBe(`$${(20 - 2 + 15 + 1.8).toFixed(2)}`);

    await fillCard();
    await submit();
    expect(fake.orders).toEqual(['o1']);
    expect(draftText()).toBeNull();
  });

  test('an address left half-typed comes back as typed and is not priced; another cart starts empty', async () => {
    await open();
    await page.act(() => {
      typeInto($('#sf-checkout-first-name'), 'Ada ');
      typeInto($('#sf-checkout-city'), 'Spring');
    });
    await reload();
    expect($('#sf-checkout-first-name').value).toBe('Ada ');
    expect($('#sf-checkout-city').value).toBe('Spring');
    expect($('#sf-checkout-email').value).toBe('');
    expect(quoteCalls()).toHaveLength(0);
    page.cleanup();
    await open(baseView({ cartToken: 'c2' }), 'cart', 'data-cart-token="c2"');
    expect($('#sf-checkout-first-name').value).toBe('');
  });

  test('a kept draft that is not one the island wrote is ignored; refused storage keeps nothing and checkout still works', async () => {
    for (const bad of ['{', '[]', JSON.stringify({ email: 7 }), JSON.stringify({ address: { city: 'x'.repeat(501) } }), JSON.stringify({ couponCodes: 'SAVE10' })]) {
      sessionStorage.setItem('sf.checkout-draft.cart:c1', bad);
      await (page ? reload() : open());
      expect($('#sf-checkout-email').value, bad).toBe('');
      expect(quoteCalls(), bad).toHaveLength(0);
    }
    page.cleanup();
    sessionStorage.clear();
    const refuse = () => {
      throw new DOMException('refused', 'SecurityError');
    };
    const spies = [vi.spyOn(Storage.prototype, 'getItem').mockImplementation(refuse), vi.spyOn(Storage.prototype, 'setItem').mockImplementation(refuse)];
    try {
      const fake = await open();
      await fillAddress();
      await fillCard();
      await submit();
      expect(fake.orders).toEqual(['o1']);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });
});
