// `product-price` prints its view in code (commerce.ts, `printedPrice`) and runs its built-in
// template only where that declines. These tests hold the two to one another through the real
// engine: the page, the errors, and the instructions and made text charged to the limits.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Node } from '../engine/plugin-api.ts';
import { productPriceSpec } from './commerce.ts';
import { inCodeHarness } from '../test/in-code-harness.ts';

const render = inCodeHarness([productPriceSpec(false)]);
const SOURCE = '{.section item}{@|product-price}{@|charged}{.end}';
const both = (page: Node, locale: string, limits = {}) => render(SOURCE, page, limits, locale);

const amount = fc.oneof(
  fc.integer({ min: 0, max: 100_000 }).map((n) => (n / 100).toFixed(2)),
  fc.constantFrom('0', '10', '9.999', '123456789012.34', '-5.00', '', '$1', '1e3', ' 7 '),
);
const currency = fc.constantFrom('USD', 'EUR', 'JPY', 'GBP', '', 'XYZ', 'usd');
const money = fc.oneof(fc.record({ value: amount, currency }, { requiredKeys: ['value'] }), fc.constantFrom(null, 'USD'));
const variant = fc.record(
  { price: fc.integer({ min: 0, max: 3 }), salePrice: fc.integer({ min: 0, max: 3 }), onSale: fc.boolean(), priceMoney: money, salePriceMoney: money },
  { requiredKeys: ['priceMoney'] },
);
const plan = fc.record(
  { billingPeriod: fc.record({ value: fc.integer({ min: 0, max: 3 }), unit: fc.constantFrom('WEEK', 'MONTH', 'YEAR') }), numBillingCycles: fc.integer({ min: 0, max: 30 }) },
  { requiredKeys: [] },
);
const item = fc.record(
  {
    structuredContent: fc.record(
      {
        productType: fc.constantFrom(1, 2, 3, 4, -1, '1'),
        variants: fc.array(variant, { maxLength: 4 }),
        isSubscribable: fc.boolean(),
        subscriptionPlan: plan,
        priceMoney: money,
        salePriceMoney: money,
        onSale: fc.boolean(),
      },
      { requiredKeys: ['productType'] },
    ),
  },
  { requiredKeys: [] },
);
// Plain patterns, and ones only the CLDR engine prints: an apostrophe, a plural, a space in an
// argument, a text long enough to be charged as work.
const pattern = fc.constantFrom(
  'from {fromPrice}',
  'ab {fromPrice} {price} {duration}',
  '{price} every {billingPeriodValue} weeks for {duration} years',
  "it's {fromPrice}",
  '{fromPrice, number}',
  '{ price }',
  '{duration, plural, one {# year} other {# years}}',
  'x'.repeat(70) + ' {price}',
  '',
  'no arguments',
);
const strings = fc.record(
  {
    productPriceFromText: pattern,
    productPriceUnavailable: pattern,
    productPrice__singlePrice__nMonthly__limited__nYears: pattern,
    productPrice__multiplePrices__1Weekly__indefinite: pattern,
    productPrice__singlePrice__1Monthly__indefinite: pattern,
  },
  { requiredKeys: [] },
);
const page = fc.record({ item, featureFlags: fc.record({ useCLDRMoneyFormat: fc.boolean() }), localizedStrings: strings }, { requiredKeys: ['item', 'featureFlags'] });
const locale = fc.constantFrom('en-US', 'fr-FR', 'de-DE', 'ja-JP');

describe('product-price printed in code', () => {
  it('prints what its template prints, with the same errors and the same charges', () => {
    fc.assert(
      fc.property(page, locale, (p, l) => {
        const { code, template } = both(p as Node, l);
        expect(code).toEqual(template);
      }),
      { numRuns: 3000 },
    );
  });

  it('ends a render at a limit where and as the template does', () => {
    fc.assert(
      fc.property(page, locale, fc.integer({ min: 1, max: 40 }), fc.integer({ min: 0, max: 30 }), (p, l, steps, made) => {
        const a = both(p as Node, l, { maxInstructions: steps });
        expect(a.code).toEqual(a.template);
        const b = both(p as Node, l, { maxTextMade: made });
        expect(b.code).toEqual(b.template);
        const c = both(p as Node, l, { maxOutputLength: made * 4 });
        expect(c.code).toEqual(c.template);
      }),
      { numRuns: 1500 },
    );
  });

  it('prints a simple product without running the template', () => {
    // A template run would charge the same; the printing is seen through its output only, so
    // this pins the common case to the fixture text it must keep.
    const p = { item: { structuredContent: { productType: 1, variants: [{ price: 1000, priceMoney: { value: '10.00', currency: 'USD' } }] } }, featureFlags: { useCLDRMoneyFormat: true } };
    const { code, template } = both(p, 'en-US');
    expect(code).toEqual(template);
    expect(code.html).toBe('\n\n\n<div class="product-price">\n$10.00\n</div>' + code.html.slice(code.html.indexOf('</div>') + 6));
  });
});
