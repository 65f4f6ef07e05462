// @vitest-environment happy-dom
import { beforeEach, describe, expect, test } from 'vitest';
import { createStorageAccess } from '../platform/storage-access.ts';
import { CHECKOUT_DRAFT_PREFIX, checkoutDraftKey, clearCheckoutDraft, readCheckoutDraft, writeCheckoutDraft, type CheckoutDraft } from './checkout-draft.ts';

const DRAFT: CheckoutDraft = {
  email: 'ada@example.com',
  address: { firstName: 'Ada', city: 'Springfield', country: 'US' },
  shippingOptionId: 'express',
  providerId: 'test',
  couponCodes: ['SAVE10'],
};

const storage = createStorageAccess(window);
beforeEach(() => sessionStorage.clear());

describe('checkout draft', () => {
  test('one entry per checkout: a cart by its token, a gift card by its item and variant', () => {
    expect(checkoutDraftKey('cart', 'c1', '', '')).toBe(`${CHECKOUT_DRAFT_PREFIX}cart:c1`);
    expect(checkoutDraftKey('subscription', 'c1', '', '')).not.toBe(checkoutDraftKey('cart', 'c1', '', ''));
    // The gift card's cart is made anew on every visit; its token would never find the entry again.
    expect(checkoutDraftKey('gift-card', 'gc-1', 'gc', 'GC-50')).toBe(checkoutDraftKey('gift-card', 'gc-2', 'gc', 'GC-50'));
  });

  test('kept and read back as written; cleared when asked', () => {
    const key = checkoutDraftKey('cart', 'c1', '', '');
    writeCheckoutDraft(storage, key, DRAFT);
    expect(readCheckoutDraft(storage, key)).toEqual(DRAFT);
    clearCheckoutDraft(storage, key);
    expect(readCheckoutDraft(storage, key)).toBeNull();
  });

  test('empty address parts are not kept; a value longer than any field takes is cut, so the draft still reads', () => {
    const key = checkoutDraftKey('cart', 'c1', '', '');
    writeCheckoutDraft(storage, key, { ...DRAFT, address: { firstName: '', line1: 'x'.repeat(5000) }, couponCodes: Array.from({ length: 50 }, (_, i) => `C${i}`) });
    const read = readCheckoutDraft(storage, key)!;
    expect(read.address).toEqual({ line1: 'x'.repeat(500) });
    expect(read.couponCodes).toHaveLength(20);
  });

  test('a stored value of another shape reads as no draft', () => {
    const key = checkoutDraftKey('cart', 'c1', '', '');
    for (const bad of ['{', 'null', '"x"', '{"email":1}', '{"address":{"city":2}}', '{"shippingOptionId":[]}', '{"couponCodes":[1]}']) {
      sessionStorage.setItem(key, bad);
      expect(readCheckoutDraft(storage, key), bad).toBeNull();
    }
  });
});
