import { describe, expect, test } from 'vitest';
import { CARD_MESSAGES, REFUND_FAILS_CARD, REFUND_REFUSED, cardDigits, luhnValid, manualProvider, offeredProviders, providerOf, providerViews, testCardProvider, testRefunds } from './payment-providers.ts';

const NOW = Date.UTC(2026, 0, 15);
const card = (cardNumber: string, extra: Record<string, unknown> = {}) => ({ cardNumber, expMonth: 12, expYear: 2030, cvc: '123', ...extra });
const authorize = (details: Record<string, unknown>) => testCardProvider.authorize({ orderId: 'o1', amountCents: 100, currency: 'USD', details, now: NOW });

describe('test card provider', () => {
  test.each(['4242424242424242', '4242 4242 4242 4242', '5555-5555-5555-4444'])('approves the test number %s as paid, testMode', async (number) => {
    expect(testCardProvider.check(card(number), NOW)).toEqual({});
    const outcome = await authorize(card(number));
    expect(outcome).toMatchObject({ kind: 'approved', status: 'paid', testMode: true });
    // Only the last four digits are kept, in the label.
    expect(JSON.stringify(outcome)).not.toContain(number.replace(/\D/g, ''));
  });

  test('Amex takes a four-digit security code', async () => {
    expect(testCardProvider.check(card('378282246310005', { cvc: '1234' }), NOW)).toEqual({});
    expect(testCardProvider.check(card('378282246310005', { cvc: '123' }), NOW)).toEqual({ cvc: CARD_MESSAGES.cvc });
    expect((await authorize(card('378282246310005', { cvc: '1234' }))).kind).toBe('approved');
  });

  test('declines any other valid number with a clear message', async () => {
    const number = '4000000000000002';
    expect(luhnValid(number)).toBe(true);
    expect(testCardProvider.check(card(number), NOW)).toEqual({});
    expect(await authorize(card(number))).toEqual({ kind: 'declined', message: 'Your card was declined.' });
  });

  test.each([
    [card('4242424242424241'), { cardNumber: CARD_MESSAGES.cardNumber }],
    [card('abc'), { cardNumber: CARD_MESSAGES.cardNumber }],
    [card('4242424242424242', { expMonth: 13 }), { expiry: CARD_MESSAGES.expiry }],
    [card('4242424242424242', { expMonth: 12, expYear: 2025 }), { expiry: CARD_MESSAGES.expired }],
    [card('4242424242424242', { expMonth: '01', expYear: '26' }), {}],
    [card('4242424242424242', { cvc: '12' }), { cvc: CARD_MESSAGES.cvc }],
    [{}, { cardNumber: CARD_MESSAGES.cardNumber, expiry: CARD_MESSAGES.expiry, cvc: CARD_MESSAGES.cvc }],
  ])('field errors %#', (details, errors) => {
    expect(testCardProvider.check(details, NOW)).toEqual(errors);
  });

  test('refunds an approved payment once per idempotency key, with a refund reference', async () => {
    const paid = await authorize(card('4242424242424242'));
    if (paid.kind !== 'approved') throw new Error('not approved');
    const before = testRefunds.size;
    const first = await testCardProvider.refund(paid.reference, 2500, 'refund-o1');
    expect(first).toEqual({ kind: 'refunded', refundReference: expect.stringMatching(/^test_refund_/) });
    // A retry with the same key (a cancel whose commit failed) answers the same refund.
    expect(await testCardProvider.refund(paid.reference, 2500, 'refund-o1')).toEqual(first);
    expect(testRefunds.size).toBe(before + 1);
    expect(testRefunds.get('refund-o1')).toEqual({ refundReference: (first as { refundReference: string }).refundReference, paymentReference: paid.reference, amountCents: 2500 });
  });

  test(`${REFUND_FAILS_CARD} pays, and its refund is refused`, async () => {
    expect(luhnValid(REFUND_FAILS_CARD)).toBe(true);
    const paid = await authorize(card(REFUND_FAILS_CARD));
    expect(paid).toMatchObject({ kind: 'approved', status: 'paid', label: 'Visa ending 5126 (test)' });
    if (paid.kind !== 'approved') throw new Error('not approved');
    const before = testRefunds.size;
    expect(await testCardProvider.refund(paid.reference, 100, 'refund-o2')).toEqual({ kind: 'failed', message: REFUND_REFUSED });
    expect(testRefunds.size).toBe(before);
  });

  test('cardDigits refuses what is not a card number', () => {
    expect(cardDigits('4242')).toBeNull();
    expect(cardDigits(4242424242424242)).toBeNull();
    expect(cardDigits('4242 4242 4242 4242')).toBe('4242424242424242');
  });
});

describe('manual provider and the offered list', () => {
  test('manual places the order awaiting payment, not in test mode', async () => {
    expect(manualProvider.check({}, NOW)).toEqual({});
    expect(await manualProvider.authorize({ orderId: 'o', amountCents: 1, currency: 'USD', details: {}, now: NOW })).toMatchObject({
      kind: 'approved', status: 'awaiting-payment', testMode: false,
    });
  });

  test('an order that ships nothing (digital, gift cards) is labelled a bank transfer, with no pickup offered; one with goods may be picked up', async () => {
    const request = { orderId: 'o', amountCents: 1, currency: 'USD', details: {}, now: NOW };
    expect(await manualProvider.authorize({ ...request, shipsNothing: true })).toMatchObject({ label: 'Bank transfer' });
    expect(await manualProvider.authorize({ ...request, shipsNothing: false })).toMatchObject({ label: 'Bank transfer or pay on pickup' });
    // At checkout, the same: the card provider's label is the same either way.
    const offered = offeredProviders(['test', 'manual']);
    expect(providerViews(offered, true).map((p) => p.label)).toEqual([testCardProvider.label, 'Pay offline (bank transfer)']);
    expect(providerViews(offered).map((p) => p.label)).toEqual([testCardProvider.label, 'Pay offline (bank transfer or on pickup)']);
  });

  test('manual has nothing a provider can refund: the owner gives a paid order back by hand', async () => {
    expect(await manualProvider.refund('manual_x', 4500, 'refund-o3')).toEqual({ kind: 'by-hand' });
  });

  test('an order is refunded by the provider that took it, offered now or not', () => {
    expect(providerOf('test')).toBe(testCardProvider);
    expect(providerOf('manual')).toBe(manualProvider);
    expect(providerOf('stripe')).toBeUndefined();
  });

  test('offered providers keep the store order, drop unknown ids, default to manual', () => {
    expect(offeredProviders(['test', 'nope', 'manual']).map((p) => p.id)).toEqual(['test', 'manual']);
    expect(offeredProviders(undefined).map((p) => p.id)).toEqual(['manual']);
  });
});
