import { describe, expect, test } from 'vitest';
import {
  addressOf,
  cardErrors,
  contactErrors,
  controlIdOf,
  couponsAlreadyShown,
  couponsLimitedMessage,
  firstError,
  newIdempotencyKey,
  parseExpiry,
  pricingKey,
  readView,
  offlineTooLargeMessage,
  safeConfirmationUrl,
  settlesAttempt,
  splitServerErrors,
} from './checkout-form.ts';

const now = new Date(2026, 10, 28);

describe('checkout form rules', () => {
  test('expiry is read as MM/YY, MM / YYYY or MMYY; month 13 and words are not', () => {
    expect(parseExpiry('12/30')).toEqual({ expMonth: 12, expYear: 2030 });
    expect(parseExpiry(' 1 / 2031 ')).toEqual({ expMonth: 1, expYear: 2031 });
    expect(parseExpiry('0729')).toEqual({ expMonth: 7, expYear: 2029 });
    expect(parseExpiry('13/30')).toBeNull();
    expect(parseExpiry('soon')).toBeNull();
  });

  test('card checks: digits, expiry, expired, CVC, in the server\'s sentences; spaces in the number are fine', () => {
    expect(cardErrors({ cardNumber: '', expiry: '', cvc: '' }, now)).toEqual({ cardNumber: 'Enter a valid card number.', expiry: 'Enter a valid expiry date.', cvc: 'Enter a valid security code.' });
    expect(cardErrors({ cardNumber: '4242 4242 4242 4242', expiry: '12/30', cvc: '123' }, now)).toEqual({});
    expect(cardErrors({ cardNumber: '4242x', expiry: '10/26', cvc: '12' }, now)).toEqual({
      cardNumber: 'Enter a valid card number.',
      expiry: 'Your card has expired.',
      cvc: 'Enter a valid security code.',
    });
    // The current month is still good.
    expect(cardErrors({ cardNumber: '4242424242424242', expiry: '11/26', cvc: '1234' }, now)).toEqual({});
  });

  test('contact and address checks; line 2 is optional and dropped when empty', () => {
    const address = addressOf({ 'sf-checkout-first-name': ' Ada ', 'sf-checkout-line2': ' ', 'sf-checkout-country': 'US' });
    expect(address).toEqual({ firstName: 'Ada', lastName: '', line1: '', city: '', region: '', postalCode: '', country: 'US' });
    const errors = contactErrors('not-an-email', address);
    expect(errors.email).toBe('Enter a valid email address.');
    expect(errors).toEqual({
      email: 'Enter a valid email address.',
      'shippingAddress.lastName': 'Enter your last name.',
      'shippingAddress.line1': 'Enter your street address.',
      'shippingAddress.city': 'Enter your city.',
      'shippingAddress.region': 'Enter your state or region.',
      'shippingAddress.postalCode': 'Enter your postal code.',
    });
    expect(contactErrors(' ', null)).toEqual({ email: 'Enter your email address.' });
    expect(firstError({ cvc: 'x', 'shippingAddress.city': 'y' })).toBe('shippingAddress.city');
    expect(controlIdOf('shippingAddress.city')).toBe('sf-checkout-city');
    expect(controlIdOf('shippingOptionId')).toBe('sf-checkout-shipping-option-0');
  });

  test('an address part over 200 characters (as read: an emoji once) is said with its name and the limit, as the server says it', () => {
    const complete = { firstName: 'Ada', lastName: 'L', line1: '1 Main St', city: 'NYC', region: 'NY', postalCode: '10001', country: 'US' };
    expect(contactErrors('a@b.co', { ...complete, line1: '🏠'.repeat(200) })).toEqual({});
    expect(contactErrors('a@b.co', { ...complete, line1: 'x'.repeat(201), line2: 'y'.repeat(201) })).toEqual({
      'shippingAddress.line1': 'The street address can be at most 200 characters.',
      'shippingAddress.line2': 'The apartment or suite line can be at most 200 characters.',
    });
  });

  test('a quote is keyed by the priced parts of the address only', () => {
    const a = { firstName: 'A', lastName: 'B', line1: '1 St', city: 'X', region: 'NY', postalCode: '10001', country: 'US' };
    expect(pricingKey(a)).toBe(pricingKey({ ...a, firstName: 'Z', line1: '2 St' }));
    expect(pricingKey(a)).not.toBe(pricingKey({ ...a, postalCode: '10002' }));
    expect(pricingKey({ ...a, country: '' })).toBeNull();
  });

  test('server errors: contract keys go to fields, others are said apart', () => {
    expect(splitServerErrors({ errors: { 'shippingAddress.postalCode': 'Bad code', item1: 'Sold out', cvc: 3 } })).toEqual({
      fields: { 'shippingAddress.postalCode': 'Bad code' },
      other: ['Sold out'],
    });
    expect(splitServerErrors(null)).toEqual({ fields: {}, other: [] });
  });

  test('only an answered refusal ends an attempt; no answer, 5xx, 429 and a stale crumb keep its key', () => {
    expect(settlesAttempt(402, { code: 'PAYMENT_DECLINED' })).toBe(true);
    expect(settlesAttempt(400, {})).toBe(true);
    expect(settlesAttempt(null, null)).toBe(false);
    expect(settlesAttempt(503, {})).toBe(false);
    expect(settlesAttempt(429, {})).toBe(false);
    expect(settlesAttempt(403, { crumbFail: true })).toBe(false);
  });

  test('idempotency keys are 32 hex digits and differ', () => {
    const keys = new Set(Array.from({ length: 50 }, () => newIdempotencyKey()));
    expect(keys.size).toBe(50);
    for (const key of keys) expect(key).toMatch(/^[0-9a-f]{32}$/);
  });

  test('a confirmation URL is followed only on this site', () => {
    expect(safeConfirmationUrl('/commerce/orders/o1/confirmed')).toBe('/commerce/orders/o1/confirmed');
    expect(safeConfirmationUrl('//evil.example/x')).toBeNull();
    expect(safeConfirmationUrl('https://evil.example/')).toBeNull();
    expect(safeConfirmationUrl('/\\evil.example')).toBeNull();
    expect(safeConfirmationUrl(7)).toBeNull();
  });

  test('a view missing lists and totals reads with empty ones; a body without a token is no view', () => {
    const view = readView({ cartToken: 't', entries: [] })!;
    expect(view.shippingOptions).toEqual([]);
    expect(view.grandTotalCents).toBe(0);
    expect(view.currency).toBe('USD');
    expect(readView({ entries: [] })).toBeNull();
  });

  test("the offline bound: the server's sentence past the view's offlineOrderMaxUnits only; none from an older server that sends no bound", () => {
    const view = readView({ cartToken: 't', entries: [], offlineOrderMaxUnits: 3, stockUnits: 4 })!;
    expect(offlineTooLargeMessage(view)).toBe('An order paid offline can hold at most 3 items from stock; this cart has 4. Remove some, or choose another payment method.');
    expect(offlineTooLargeMessage({ offlineOrderMaxUnits: 3, stockUnits: 3 })).toBeNull();
    expect(offlineTooLargeMessage({ offlineOrderMaxUnits: 1, stockUnits: 2 })).toBe('An order paid offline can hold at most 1 item from stock; this cart has 2. Remove some, or choose another payment method.');
    const older = readView({ cartToken: 't', entries: [] })!;
    expect([older.offlineOrderMaxUnits, older.stockUnits]).toEqual([null, 0]);
    expect(offlineTooLargeMessage({ ...older, stockUnits: 99 })).toBeNull();
  });

  test("a 429 naming couponCodes is the coupon field's message; the codes a view answered are kept", () => {
    const body = { error: 'Too many requests.', code: 'RATE_LIMITED', errors: { couponCodes: 'Too many coupon codes were tried. Please try again in 5 minutes.' } };
    expect(couponsLimitedMessage(429, body)).toBe('Too many coupon codes were tried. Please try again in 5 minutes.');
    expect(couponsLimitedMessage(429, { error: 'Too many requests.', code: 'RATE_LIMITED' })).toBeNull();
    expect(couponsLimitedMessage(400, body)).toBeNull();
    expect(couponsLimitedMessage(null, null)).toBeNull();
    expect(couponsAlreadyShown(['WELCOME10', 'welcom10', 'NEW1'], ['WELCOME10', 'WELCOM10'])).toEqual(['WELCOME10', 'welcom10']);
  });
});
