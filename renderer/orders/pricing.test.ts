import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { CommerceSettings, ShippingAddress } from '../store/types.ts';
import { COUPON_REASONS, minimumSubtotalMessage, percentOf, priceCheckout, type PricedLine } from './pricing.ts';

const NOW = Date.UTC(2026, 0, 15);

const RULES: CommerceSettings = {
  minimumOrderSubtotalCents: 1000,
  shippingOptions: [
    { id: 'standard', name: 'Standard', costCents: 500, freeOverCents: 10000 },
    { id: 'express', name: 'Express', costCents: 1500 },
    { id: 'intl', name: 'International', costCents: 2500, countries: ['CA', 'GB'] },
  ],
  taxRules: [
    { name: 'NY sales tax', ratePercent: 8.875, country: 'US', regions: ['NY'] },
    { name: 'Canada GST', ratePercent: 5, country: 'CA', appliesToShipping: true },
  ],
  coupons: [
    { code: 'WELCOME10', description: '10% off', percentOff: 10 },
    { code: 'FIVEOFF', description: '$5 off', amountOffCents: 500, minimumSubtotalCents: 3000 },
    { code: 'OLD', description: 'expired', percentOff: 50, expiresOn: NOW - 1 },
  ],
};

const address = (country: string, region: string): ShippingAddress => ({
  firstName: 'Ada', lastName: 'L', line1: '1 Main St', city: 'Town', region, postalCode: '10001', country,
});
const tee = (quantity: number, unit = 2500): PricedLine => ({
  itemId: 'tee', sku: 'TEE', productName: 'Tee', variantLabel: 'M', quantity, unitPriceCents: unit, productType: 1,
});
const ebook: PricedLine = { itemId: 'eb', sku: 'EB', productName: 'E-book', variantLabel: '', quantity: 1, unitPriceCents: 1200, productType: 2 };
const giftCard: PricedLine = { itemId: 'gc', sku: 'GC', productName: 'Gift card', variantLabel: '', quantity: 1, unitPriceCents: 5000, productType: 4 };

const price = (lines: PricedLine[], extra: Partial<Parameters<typeof priceCheckout>[0]> = {}) =>
  priceCheckout({ lines, rules: RULES, currency: 'USD', shippingLocation: null, now: NOW, ...extra });

describe('priceCheckout', () => {
  test.each([
    // name, lines, address, option, coupons, expected subset
    ['first option chosen by default, no address: no tax', [tee(2)], null, null, [], { subtotalCents: 5000, shippingCostCents: 500, selectedShippingOption: 'standard', taxCents: 0, grandTotalCents: 5500 }],
    ['express costs 15', [tee(2)], address('US', 'CA'), 'express', [], { shippingCostCents: 1500, taxCents: 0, grandTotalCents: 6500 }],
    ['standard free over $100', [tee(4)], address('US', 'CA'), 'standard', [], { subtotalCents: 10000, shippingCostCents: 0, grandTotalCents: 10000 }],
    ['NY tax 8.875% on the goods only', [tee(2)], address('US', 'ny'), 'standard', [], { taxCents: 444, grandTotalCents: 5944 }],
    ['Canada GST includes shipping', [tee(2)], address('CA', 'ON'), 'intl', [], { shippingCostCents: 2500, taxCents: 375, grandTotalCents: 7875 }],
    ['WELCOME10 takes 10% before tax', [tee(2)], address('US', 'NY'), 'express', ['welcome10'], { discountCents: 500, taxCents: 399, grandTotalCents: 4500 + 1500 + 399 }],
    ['discount can bring free shipping below reach', [tee(4)], address('US', 'CA'), 'standard', ['WELCOME10'], { discountCents: 1000, shippingCostCents: 500, grandTotalCents: 9500 }],
    ['FIVEOFF fixed amount', [tee(2)], null, 'express', ['FIVEOFF'], { discountCents: 500, grandTotalCents: 6000 }],
    ['digital only: no shipping', [ebook], null, null, [], { requiresShipping: false, purelyDigital: true, hasDigital: true, shippingOptions: [], shippingCostCents: 0, selectedShippingOption: null, grandTotalCents: 1200 }],
    ['gift card only: purely digital, no shipping', [giftCard], null, null, [], { requiresShipping: false, purelyDigital: true, hasDigital: false, grandTotalCents: 5000 }],
  ] as const)('%s', (_name, lines, location, option, coupons, expected) => {
    const totals = price([...lines], { shippingLocation: location, shippingOptionId: option, couponCodes: [...coupons] });
    expect(totals).toMatchObject(expected);
  });

  test('options are filtered by the address country', () => {
    expect(price([tee(1)], { shippingLocation: address('US', 'NY') }).shippingOptions.map((o) => o.id)).toEqual(['standard', 'express']);
    expect(price([tee(1)], { shippingLocation: address('GB', 'LDN') }).shippingOptions.map((o) => o.id)).toEqual(['standard', 'express', 'intl']);
  });

  test('an option that does not serve the address is reported, not charged', () => {
    const totals = price([tee(1)], { shippingLocation: address('US', 'NY'), shippingOptionId: 'intl' });
    expect(totals).toMatchObject({ selectedShippingOption: null, shippingOptionUnavailable: true, shippingCostCents: 0 });
  });

  test('coupons: invalid ones carry their reason; one coupon per order', () => {
    const totals = price([tee(1)], { couponCodes: ['nope', 'OLD', 'FIVEOFF', 'WELCOME10', 'FIVEOFF', ' welcome10 '] });
    expect(totals.coupons).toEqual(['NOPE', 'OLD', 'FIVEOFF', 'WELCOME10']);
    expect(totals.invalidCoupons).toEqual([
      { code: 'NOPE', reason: COUPON_REASONS.unknown },
      { code: 'OLD', reason: COUPON_REASONS.expired },
      { code: 'FIVEOFF', reason: 'This coupon needs an order subtotal of $30.00 or more.' },
    ]);
    expect(totals.validCoupons).toEqual([{ code: 'WELCOME10', description: '10% off', discountCents: 250 }]);
    const two = price([tee(2)], { couponCodes: ['WELCOME10', 'FIVEOFF'] });
    expect(two.invalidCoupons).toEqual([{ code: 'FIVEOFF', reason: COUPON_REASONS.oneOnly }]);
  });

  test("minimum subtotal: the seed's text with the minimum as money", () => {
    expect(price([tee(1, 900)])).toMatchObject({ belowMinimum: true, minimumSubtotalCents: 1000, minimumMessage: 'To check out, your order subtotal must be $10.00 or more.' });
    expect(price([tee(1, 1000)])).toMatchObject({ belowMinimum: false, minimumMessage: null });
    expect(minimumSubtotalMessage(5000, 'EUR')).toBe('To check out, your order subtotal must be €50.00 or more.');
  });

  test('percentOf rounds half up in integers', () => {
    expect(percentOf(5000, 8.875)).toBe(444); // 443.75
    expect(percentOf(200, 0.25)).toBe(1); // 0.5
    expect(percentOf(199, 0.25)).toBe(0); // 0.4975
    expect(percentOf(0, 10)).toBe(0);
  });

  test('property: grand = subtotal − discount + shipping + tax, never negative, discount ≤ subtotal', () => {
    const line = fc.record({
      quantity: fc.integer({ min: 1, max: 9999 }),
      unitPriceCents: fc.integer({ min: 0, max: 1_000_000 }),
      productType: fc.constantFrom(1, 2, 3, 4),
    });
    const rules = fc.record({
      minimumOrderSubtotalCents: fc.integer({ min: 0, max: 100_000 }),
      shippingOptions: fc.array(fc.record({ id: fc.string({ minLength: 1, maxLength: 4 }), name: fc.string(), costCents: fc.integer({ min: 0, max: 100_000 }), freeOverCents: fc.option(fc.integer({ min: 0, max: 1_000_000 }), { nil: undefined }) }), { maxLength: 4 }),
      taxRules: fc.array(fc.record({ name: fc.string(), ratePercent: fc.integer({ min: 0, max: 30_000 }).map((n) => n / 1000), country: fc.constantFrom('US', 'CA'), appliesToShipping: fc.boolean() }), { maxLength: 3 }),
      coupons: fc.array(
        fc.oneof(
          fc.record({ code: fc.constantFrom('A', 'B', 'C'), description: fc.string(), percentOff: fc.integer({ min: 0, max: 100 }) }),
          fc.record({ code: fc.constantFrom('A', 'B', 'C'), description: fc.string(), amountOffCents: fc.integer({ min: 0, max: 10_000_000 }) }),
        ),
        { maxLength: 3 },
      ),
    });
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 1, maxLength: 6 }),
        rules,
        fc.option(fc.constantFrom('US', 'CA', 'GB'), { nil: null }),
        fc.array(fc.constantFrom('a', 'B', 'c', 'zz'), { maxLength: 3 }),
        fc.option(fc.string({ maxLength: 4 }), { nil: null }),
        (raw, commerce, country, couponCodes, shippingOptionId) => {
          const lines = raw.map((entry, index) => ({ ...entry, itemId: `i${index}`, sku: `S${index}`, productName: 'P', variantLabel: '', productType: entry.productType as 1 | 2 | 3 | 4 }));
          const totals = priceCheckout({ lines, rules: commerce, currency: 'USD', shippingLocation: country ? address(country, 'X') : null, shippingOptionId, couponCodes, now: NOW });
          expect(totals.grandTotalCents).toBe(totals.subtotalCents - totals.discountCents + totals.shippingCostCents + totals.taxCents);
          expect(totals.grandTotalCents).toBeGreaterThanOrEqual(0);
          expect(totals.discountCents).toBeLessThanOrEqual(totals.subtotalCents);
          expect(Number.isInteger(totals.taxCents) && totals.taxCents >= 0).toBe(true);
          expect(totals.validCoupons.length).toBeLessThanOrEqual(1);
          if (!totals.requiresShipping) expect(totals.shippingCostCents).toBe(0);
        },
      ),
      { numRuns: 500 },
    );
  });
});
