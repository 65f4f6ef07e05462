import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CartRecord, ProductType } from '../store/types.ts';
import { cartView, emptyCartView, mockCartView, purchasePrice } from './cart-view.ts';

function cart(entries: { quantity: number; price: number; type: ProductType }[]): CartRecord {
  return {
    id: 'c1',
    websiteId: 'w1',
    kind: 'main',
    ownerSiteUserId: null,
    orderId: null,
    isPurchased: false,
    created: 5,
    expiresAt: null,
    entries: entries.map((entry, index) => ({
      id: `e${index}`,
      cartId: 'c1',
      position: index,
      itemId: `p${index}`,
      sku: `S${index}`,
      variantId: `v${index}`,
      quantity: entry.quantity,
      productType: entry.type,
      attributes: {},
      title: 'T',
      purchasePriceCents: entry.price,
      additionalFields: null,
    })),
  };
}

const entry = fc.record({
  quantity: fc.integer({ min: 1, max: 9999 }),
  price: fc.integer({ min: 0, max: 10_000_000 }),
  type: fc.constantFrom<ProductType>(1, 2, 3, 4),
});

describe('cartView (B0.4)', () => {
  it('derives every total from the entries', () => {
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 8 }), (entries) => {
        const view = cartView(cart(entries));
        const subtotal = entries.reduce((sum, e) => sum + e.price * e.quantity, 0);
        expect(view.subtotalCents).toBe(subtotal);
        expect(view.grandTotalCents).toBe(subtotal);
        expect(view.totalQuantity).toBe(entries.reduce((sum, e) => sum + e.quantity, 0));
        expect(view.entries.map((e) => e.subTotal)).toEqual(entries.map((e) => e.price * e.quantity));
        expect(view.hasDigital).toBe(entries.some((e) => e.type === 2));
        expect(view.purelyDigital).toBe(entries.length > 0 && entries.every((e) => e.type === 2 || e.type === 4));
        expect(view.requiresShipping).toBe(entries.some((e) => e.type === 1));
      }),
    );
  });

  it('gives the empty and mock carts their fixed shapes', () => {
    expect(emptyCartView('w1')).toMatchObject({ id: null, entries: [], grandTotalCents: 0, purelyDigital: false });
    const mock = mockCartView('w1');
    expect(mock.id).toBe('mock');
    expect(mock.entries).toHaveLength(2);
    expect(mock.subtotalCents).toBe(mock.entries.reduce((sum, e) => sum + e.subTotal, 0));
  });

  it('uses the sale price only when on sale', () => {
    const variant = { id: 'v', sku: 's', attributes: {}, priceCents: 3000, salePriceCents: 2000, onSale: true, qtyInStock: 1, unlimited: false };
    expect(purchasePrice(variant)).toBe(2000);
    expect(purchasePrice({ ...variant, onSale: false })).toBe(3000);
  });
});
