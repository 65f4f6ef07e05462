import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { JDouble, JavaError, type Node, type Value } from '../../engine/plugin-api.ts';
import { compareDecimal, toPlainString } from './decimal.ts';
import {
  hasVariants,
  hasVariedPrices,
  highestPrice,
  isOnSale,
  isSoldOut,
  isSubscribable,
  saleClasses,
  legacyCentsText,
  lowestPrice,
  lowestPricedVariant,
  moneyNode,
  priceFigures,
  type PriceFigures,
  ProductType,
  productType,
  readMoney,
  salePrice,
  totalStockRemaining,
  variants,
  type Money,
} from './product.ts';

function product(structuredContent: { [key: string]: Node }): Value {
  return { structuredContent };
}

const price = (value: string, extra: { [key: string]: Node } = {}): Node => ({ priceMoney: { value }, ...extra });
const onSale = (sale: string, regular = '100'): Node => ({ onSale: true, salePriceMoney: { value: sale }, priceMoney: { value: regular } });
const amount = (m: Money) => toPlainString(m.amount);

describe('productType', () => {
  it('reads the integer code, strings included', () => {
    expect(productType(product({ productType: 1 }))).toBe(ProductType.PHYSICAL);
    expect(productType(product({ productType: '2' }))).toBe(ProductType.DIGITAL);
    expect(productType(product({ productType: 3 }))).toBe(ProductType.SERVICE);
    expect(productType(product({ productType: new JDouble(4) }))).toBe(ProductType.GIFT_CARD);
  });

  it('is UNDEFINED for missing, unknown and wrong-typed codes', () => {
    expect(productType(product({}))).toBe(ProductType.UNDEFINED);
    expect(productType(product({ productType: 7 }))).toBe(ProductType.UNDEFINED);
    expect(productType(product({ productType: null }))).toBe(ProductType.UNDEFINED);
    expect(productType(product({ productType: [1] }))).toBe(ProductType.UNDEFINED);
    expect(productType(undefined)).toBe(ProductType.UNDEFINED);
    expect(productType('item')).toBe(ProductType.UNDEFINED);
  });
});

describe('simple product facts', () => {
  it('isSubscribable uses the boolean coercion', () => {
    expect(isSubscribable(product({ isSubscribable: true }))).toBe(true);
    expect(isSubscribable(product({ isSubscribable: 'true' }))).toBe(true);
    expect(isSubscribable(product({ isSubscribable: 'yes' }))).toBe(false);
    expect(isSubscribable(product({}))).toBe(false);
  });

  it('variants is empty unless an array', () => {
    expect(variants(product({ variants: [{}, {}] }))).toHaveLength(2);
    expect(variants(product({ variants: { a: 1 } }))).toEqual([]);
    expect(variants(null)).toEqual([]);
  });

  it('hasVariants needs two variants and a non-digital type', () => {
    expect(hasVariants(product({ productType: 1, variants: [{}, {}] }))).toBe(true);
    expect(hasVariants(product({ variants: [{}, {}] }))).toBe(true);
    expect(hasVariants(product({ productType: 1, variants: [{}] }))).toBe(false);
    expect(hasVariants(product({ productType: 2, variants: [{}, {}] }))).toBe(false);
  });
});

describe('money', () => {
  it('reads value and currency, defaulting to 0 USD', () => {
    expect(readMoney({ value: ' 12.50 ', currency: 'EUR' })).toEqual({ amount: { unscaled: 1250n, scale: 2 }, currency: 'EUR' });
    expect(amount(readMoney({ value: '' }))).toBe('0');
    expect(readMoney(undefined).currency).toBe('USD');
    expect(readMoney({ value: 7, currency: '  ' })).toEqual({ amount: { unscaled: 7n, scale: 0 }, currency: 'USD' });
  });

  it('ignores the {decimalValue, currencyCode} shape', () => {
    expect(amount(readMoney({ decimalValue: '5.00', currencyCode: 'EUR' }))).toBe('0');
  });

  it('throws NumberFormatException for an amount that is not a decimal', () => {
    expect(() => readMoney({ value: 'abc' })).toThrow(JavaError);
    expect(() => readMoney({ value: null })).toThrow(JavaError);
    // Parsed amounts are remembered; a bad one is not, and fails every time.
    expect(() => readMoney({ value: 'abc' })).toThrow(JavaError);
  });

  it('reads the same amount the same way however often, and any number of amounts', () => {
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 600; i++) expect(amount(readMoney({ value: `${i}.${i % 10}0` }))).toBe(`${i}.${i % 10}0`);
    }
    const long = '1'.repeat(40) + '.5';
    expect(amount(readMoney({ value: long }))).toBe(long);
    expect(amount(readMoney({ value: long }))).toBe(long);
  });

  it('converts to the money node of the CLDR formatter', () => {
    expect(moneyNode(readMoney({ value: '2.5E3', currency: 'EUR' }))).toEqual({ decimalValue: '2500', currencyCode: 'EUR' });
  });
});

describe('prices', () => {
  it('lowest price takes sale prices into account, first on ties', () => {
    const item = product({ productType: 1, variants: [price('1.00'), onSale('.5'), price('.75'), onSale('0.50')] });
    expect(legacyCentsText(lowestPrice(item))).toBe('50');
    expect(lowestPricedVariant(item)).toBe(variants(item)[1]);
  });

  it('highest price ignores sales', () => {
    const item = product({ productType: 3, variants: [price('1.00'), onSale('.5', '9'), price('2')] });
    expect(legacyCentsText(highestPrice(item))).toBe('900');
  });

  it('sale price is the lowest sale among variants on sale', () => {
    const item = product({ productType: 1, variants: [price('1'), onSale('.50'), onSale('.25'), onSale('.75')] });
    expect(legacyCentsText(salePrice(item))).toBe('25');
    expect(legacyCentsText(salePrice(product({ productType: 1, variants: [price('1')] })))).toBe('0');
  });

  it('digital products read the product-level money', () => {
    const item = product({ productType: 2, priceMoney: { value: '7.50' }, salePriceMoney: { value: '5' } });
    expect(legacyCentsText(lowestPrice(item))).toBe('750');
    expect(legacyCentsText(highestPrice(item))).toBe('750');
    expect(legacyCentsText(salePrice(item))).toBe('500');
    expect(legacyCentsText(lowestPrice(product({ productType: 2 })))).toBe('0');
  });

  it('gift cards have no sale price, undefined products no price at all', () => {
    const card = product({ productType: 4, variants: [onSale('1', '25'), price('50')] });
    expect(legacyCentsText(lowestPrice(card))).toBe('100');
    expect(legacyCentsText(highestPrice(card))).toBe('5000');
    expect(legacyCentsText(salePrice(card))).toBe('0');
    const unknown = product({ productType: -1, variants: [price('9')] });
    expect(legacyCentsText(lowestPrice(unknown))).toBe('0');
    expect(legacyCentsText(highestPrice(unknown))).toBe('0');
    expect(lowestPricedVariant(unknown)).toBeUndefined();
  });

  it('no variants gives the default money', () => {
    expect(legacyCentsText(lowestPrice(product({ productType: 1, variants: [] })))).toBe('0');
    expect(legacyCentsText(highestPrice(product({ productType: 1 })))).toBe('0');
  });

  it('lowest is never above any effective price and highest never below any price', () => {
    const variant = fc.record({
      price: fc.integer({ min: 0, max: 100000 }),
      sale: fc.integer({ min: 0, max: 100000 }),
      onSale: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(variant, { minLength: 1, maxLength: 8 }), (vs) => {
        const item = product({
          productType: 1,
          variants: vs.map((v) => ({ onSale: v.onSale, priceMoney: { value: String(v.price / 100) }, salePriceMoney: { value: String(v.sale / 100) } })),
        });
        const low = lowestPrice(item).amount;
        const high = highestPrice(item).amount;
        for (const v of vs) {
          const effective = v.onSale ? v.sale : v.price;
          expect(compareDecimal(low, { unscaled: BigInt(effective), scale: 2 })).toBeLessThanOrEqual(0);
          expect(compareDecimal(high, { unscaled: BigInt(v.price), scale: 2 })).toBeGreaterThanOrEqual(0);
        }
      }),
    );
  });
});

describe('hasVariedPrices', () => {
  it('compares the legacy price fields type-strictly', () => {
    expect(hasVariedPrices(product({ productType: 1, variants: [{ price: 100 }, { price: 200 }] }))).toBe(true);
    expect(hasVariedPrices(product({ productType: 3, variants: [{ price: 100 }, { price: 100 }] }))).toBe(false);
    expect(hasVariedPrices(product({ productType: 1, variants: [{ price: 100 }, { price: '100' }] }))).toBe(true);
    expect(hasVariedPrices(product({ productType: 1, variants: [{ price: 100 }, { price: new JDouble(100) }] }))).toBe(true);
  });

  it('counts a change of sale state, and of sale price only when the first is on sale', () => {
    expect(hasVariedPrices(product({ productType: 1, variants: [{ onSale: true, salePrice: 100 }, { price: 200 }] }))).toBe(true);
    expect(hasVariedPrices(product({ productType: 1, variants: [{ onSale: true, salePrice: 1 }, { onSale: true, salePrice: 2 }] }))).toBe(true);
    expect(hasVariedPrices(product({ productType: 1, variants: [{ onSale: false, salePrice: 1 }, { onSale: false, salePrice: 2 }] }))).toBe(false);
  });

  it('is false for digital, undefined and single-variant products', () => {
    expect(hasVariedPrices(product({ productType: 2, variants: [{ price: 1 }, { price: 2 }] }))).toBe(false);
    expect(hasVariedPrices(product({ variants: [{ price: 1 }, { price: 2 }] }))).toBe(false);
    expect(hasVariedPrices(product({ productType: 1, variants: [{ price: 1 }] }))).toBe(false);
    expect(hasVariedPrices(product({ productType: 1, variants: [] }))).toBe(false);
  });
});

describe('sale and stock state', () => {
  it('isOnSale looks at variants, or at the digital product itself', () => {
    expect(isOnSale(product({ productType: 1, variants: [{}, { onSale: true }] }))).toBe(true);
    expect(isOnSale(product({ productType: 1, variants: [{ onSale: false }] }))).toBe(false);
    expect(isOnSale(product({ productType: 2, onSale: true }))).toBe(true);
    expect(isOnSale(product({ productType: 4, variants: [{ onSale: true }] }))).toBe(false);
    expect(isOnSale(product({ productType: -1 }))).toBe(false);
  });

  it('isSoldOut: no unlimited variant and no stock; UNDEFINED is sold out', () => {
    expect(isSoldOut(product({ productType: 1, variants: [{ qtyInStock: 0 }] }))).toBe(true);
    expect(isSoldOut(product({ productType: 1, variants: [{ qtyInStock: 0 }, { qtyInStock: '2' }] }))).toBe(false);
    expect(isSoldOut(product({ productType: 3, variants: [{ unlimited: true }] }))).toBe(false);
    expect(isSoldOut(product({ productType: 1, variants: [] }))).toBe(true);
    expect(isSoldOut(product({ productType: 2 }))).toBe(false);
    expect(isSoldOut(product({ productType: 4 }))).toBe(false);
    expect(isSoldOut(product({}))).toBe(true);
    expect(isSoldOut(null)).toBe(true);
  });

  it('totalStockRemaining sums stock, infinite when unlimited or not physical', () => {
    expect(totalStockRemaining(product({ productType: 1, variants: [{ qtyInStock: 2 }, { qtyInStock: 3.9 }] }))).toBe(5);
    expect(totalStockRemaining(product({ productType: 1, variants: [{ qtyInStock: 2 }, { unlimited: true }] }))).toBe(Infinity);
    expect(totalStockRemaining(product({ productType: 2 }))).toBe(Infinity);
    expect(totalStockRemaining(product({ productType: 4 }))).toBe(Infinity);
    expect(totalStockRemaining(product({}))).toBe(0);
  });
});

describe('saleClasses', () => {
  it('is isOnSale and isSoldOut as classes, for any product type and variants', () => {
    const scalar = fc.oneof(fc.constant(undefined), fc.constant(null), fc.boolean(), fc.integer({ min: -3, max: 3 }), fc.constantFrom('', '0', '2', 'yes'));
    const variant = fc.oneof(fc.record({ onSale: scalar, unlimited: scalar, qtyInStock: scalar }, { requiredKeys: [] }), scalar);
    const item = fc.record(
      { structuredContent: fc.record({ productType: fc.oneof(fc.integer({ min: -1, max: 5 }), scalar), variants: fc.oneof(fc.array(variant, { maxLength: 4 }), scalar), onSale: scalar }, { requiredKeys: [] }) },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(item, (it) => {
        const v = it as Value;
        expect(saleClasses(v)).toBe((isOnSale(v) ? ' on-sale' : '') + (isSoldOut(v) ? ' sold-out' : ''));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('priceFigures', () => {
  // The one pass against the five helpers asked one by one in the reference's order, over
  // every product type, odd variants and amounts that are not decimals (the same error).
  const askedOneByOne = (v: Value) => {
    const varied = hasVariedPrices(v);
    const lowest = varied ? lowestPrice(v) : undefined;
    const onSale = isOnSale(v);
    const sale = onSale ? salePrice(v) : undefined;
    return { varied, lowest, onSale, sale, highest: highestPrice(v) };
  };
  const outcome = (f: () => unknown): unknown => {
    try {
      return { value: f() };
    } catch (e) {
      return { error: e instanceof JavaError ? `${e.javaClass}: ${e.message}` : String(e) };
    }
  };
  const amount = fc.oneof(fc.integer({ min: 0, max: 400 }).map((n) => (n / 4).toFixed(2)), fc.constantFrom('10', '10.0', '9.999', '', ' 5 ', '1e3', 'x', '-1', '$1'));
  const money = fc.oneof(fc.record({ value: amount, currency: fc.constantFrom('USD', 'EUR', '') }, { requiredKeys: ['value'] }), fc.constantFrom(null, 3, 'USD'));
  const scalar = fc.oneof(fc.constant(undefined), fc.constant(null), fc.boolean(), fc.integer({ min: 0, max: 3 }), fc.constantFrom('', 'yes'));
  const variant = fc.oneof(
    fc.record({ onSale: scalar, price: fc.oneof(fc.integer({ min: 0, max: 3 }), scalar), salePrice: fc.integer({ min: 0, max: 3 }), priceMoney: money, salePriceMoney: money }, { requiredKeys: [] }),
    scalar,
  );
  const item = fc.record(
    {
      structuredContent: fc.record(
        { productType: fc.oneof(fc.integer({ min: -1, max: 5 }), scalar), variants: fc.oneof(fc.array(variant, { maxLength: 5 }), scalar), priceMoney: money, salePriceMoney: money, onSale: scalar },
        { requiredKeys: [] },
      ),
    },
    { requiredKeys: [] },
  );

  it('is the five helpers asked one by one, errors included', () => {
    fc.assert(
      fc.property(item, (it) => {
        const v = it as Value;
        const want = outcome(() => askedOneByOne(v)) as { value?: ReturnType<typeof askedOneByOne>; error?: string };
        const got = outcome(() => priceFigures(v)) as { value?: PriceFigures; error?: string };
        if (want.error !== undefined) {
          expect(got).toEqual(want);
          return;
        }
        const w = want.value as ReturnType<typeof askedOneByOne>;
        const g = got.value as PriceFigures;
        expect(g.varied).toBe(w.varied);
        expect(g.onSale).toBe(w.onSale);
        const same = (a: Money, b: Money) => expect({ amount: toPlainString(a.amount), currency: a.currency }).toEqual({ amount: toPlainString(b.amount), currency: b.currency });
        same(g.highest, w.highest);
        if (w.lowest !== undefined) same(g.lowest, w.lowest);
        if (w.sale !== undefined) same(g.sale, w.sale);
      }),
      { numRuns: 5000 },
    );
  });
});
