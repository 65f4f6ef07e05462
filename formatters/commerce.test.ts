// Unit tests of the commerce formatters' own logic, run against a small real context (no
// engine). The markup of the built-in templates is checked end to end by the spec files
// in fixtures/formatters/commerce/.
import { describe, expect, it } from 'vitest';
import { JavaError, type FormatterSpec, type Node, type TemplateHandle, type Value } from '../engine/plugin-api.ts';
import { commerceFormatters } from './commerce.ts';
import { bindFormatter, TestPluginContext, type TestFrame } from './util/plugin-test-context.ts';
import { ADD_TO_CART_BTN_TEMPLATE } from './templates/add-to-cart-btn.ts';
import { PRODUCT_CHECKOUT_TEMPLATE } from './templates/product-checkout.ts';
import { QUANTITY_INPUT_TEMPLATE } from './templates/quantity-input.ts';
import { SUMMARY_FORM_FIELD_LIKERT_TEMPLATE } from './templates/summary-form-field-likert.ts';
import { SUMMARY_FORM_FIELD_NAME_TEMPLATE } from './templates/summary-form-field-name.ts';

interface TemplateCall {
  source: string;
  node: Value;
  isPrivate: boolean;
}

/** The test context, recording template runs; a run outputs `outputs[source]` or `<rendered>`. */
class RecordingContext extends TestPluginContext {
  readonly calls: TemplateCall[] = [];
  outputs: { [source: string]: string } = {};
  /** Declines: `product-price` then runs its template, whose view these tests read (its printing in code: product-price-in-code.test.ts). */
  override spend(): boolean {
    return false;
  }
  override runTemplate(template: TemplateHandle, node: Value, isPrivate: boolean): string {
    this.calls.push({ source: template.source, node, isPrivate });
    return this.outputs[template.source] ?? '<rendered>';
  }
}

function spec(name: string): FormatterSpec<any> {
  const found = commerceFormatters.find((f) => f.name === name);
  if (!found) throw new Error(`no formatter ${name}`);
  return found;
}

/**
 * Runs `{x|name args}` the way the engine does: the page is the root frame and the value
 * being formatted is pushed as the formatter's frame.
 */
function run(name: string, value: Value, page: Node = {}, args: string[] = []): { result: Value; ctx: RecordingContext } {
  const f = spec(name);
  const bound = bindFormatter(f, args);
  const frames: TestFrame[] = [{ node: page }, { node: value }];
  const ctx = new RecordingContext(frames);
  return { result: f.apply(value, bound, ctx, []), ctx };
}

const format = (name: string, value: Value, page: Node = {}, args: string[] = []) => run(name, value, page, args).result;

function javaClassOf(action: () => unknown): string | null {
  try {
    action();
    return null;
  } catch (e) {
    if (e instanceof JavaError) return e.javaClass;
    throw e;
  }
}

const physical = (variants: Node[], extra: { [key: string]: Node } = {}): Node => ({
  id: 'p1',
  structuredContent: { productType: 1, variants, ...extra },
});

describe('the commerce table', () => {
  it('registers the 23 formatters of PLUGINS §4 once each', () => {
    const names = commerceFormatters.map((f) => f.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.sort()).toEqual(
      [
        'add-to-cart-btn', 'bookkeeper-money-format', 'cart-quantity', 'cart-subtotal', 'cart-url', 'from-price',
        'money-format', 'money-string', 'moneyFormat', 'normal-price', 'percentage-format', 'product-checkout',
        'product-price', 'product-quick-view', 'product-restock-notification', 'product-scarcity', 'product-status',
        'quantity-input', 'sale-price', 'subscription-price', 'summary-form-field', 'variant-descriptor', 'variants-select',
      ].sort(),
    );
  });

  it('accepts and ignores extra arguments, as the reference has no validators for them', () => {
    for (const f of commerceFormatters) {
      expect(f.requiresArgs, f.name).toBeFalsy();
      expect(() => bindFormatter(f, ['a', 'b', 'c']), f.name).not.toThrow();
    }
    expect(format('cart-url', {}, {}, ['x', 'y'])).toBe('/cart');
    expect(format('from-price', physical([{ priceMoney: { value: '2' } }]), {}, ['junk'])).toBe('200');
  });
});

describe('legacy money formatters', () => {
  it('money-format and moneyFormat print cents as #,##0.00', () => {
    for (const name of ['money-format', 'moneyFormat']) {
      expect(format(name, 12345)).toBe('123.45');
      expect(format(name, 1)).toBe('0.01');
      expect(format(name, '100000')).toBe('1,000.00');
      expect(format(name, -5)).toBe('-0.05');
      expect(format(name, 1.5)).toBe('0.01');
    }
  });

  it('money-format is a runtime error for missing, null and non-numeric input', () => {
    expect(javaClassOf(() => format('money-format', undefined))).toBe('NumberFormatException');
    expect(javaClassOf(() => format('money-format', null))).toBe('NumberFormatException');
    expect(javaClassOf(() => format('moneyFormat', 'abc'))).toBe('NumberFormatException');
    expect(javaClassOf(() => format('money-string', { a: 1 }))).toBe('NumberFormatException');
  });

  it('money-string wraps the amount', () => {
    expect(format('money-string', 12345)).toBe('<span class="sqs-money-native">123.45</span>');
  });

  it('bookkeeper-money-format prints US dollars from cents', () => {
    expect(format('bookkeeper-money-format', 12345)).toBe('$123.45');
    expect(format('bookkeeper-money-format', -123)).toBe('-$1.23');
    expect(format('bookkeeper-money-format', 12.5)).toBe('$0.12');
    expect(format('bookkeeper-money-format', 123456789)).toBe('$1,234,567.89');
    expect(format('bookkeeper-money-format', '250')).toBe('$2.50');
  });

  it('bookkeeper-money-format treats missing, null and non-numeric input as zero', () => {
    for (const v of [undefined, null, 'A', { a: 1 }, [1]]) expect(format('bookkeeper-money-format', v)).toBe('$0.00');
  });

  it('percentage-format keeps 2-3 decimals, or 0-3 with trim', () => {
    expect(format('percentage-format', 123456)).toBe('123,456.00');
    expect(format('percentage-format', 53.6)).toBe('53.60');
    expect(format('percentage-format', 0.12345)).toBe('0.123');
    expect(format('percentage-format', 123456, {}, ['trim'])).toBe('123,456');
    expect(format('percentage-format', 53.6, {}, ['trim'])).toBe('53.6');
  });

  it('percentage-format only recognises trim as its first argument', () => {
    expect(format('percentage-format', 1, {}, ['TRIM'])).toBe('1.00');
    expect(format('percentage-format', 1, {}, ['x', 'trim'])).toBe('1.00');
  });

  it('percentage-format treats missing, null and non-numeric input as zero', () => {
    for (const v of [undefined, null, 'A', {}]) {
      expect(format('percentage-format', v)).toBe('0.00');
      expect(format('percentage-format', v, {}, ['trim'])).toBe('0');
    }
  });
});

describe('cart formatters', () => {
  it('cart-quantity sums numeric quantities', () => {
    expect(format('cart-quantity', { entries: [{ quantity: 2 }, { quantity: 3 }] })).toBe('<span class="sqs-cart-quantity">5</span>');
    expect(format('cart-quantity', { entries: [{ quantity: 2 }, { quantity: '3' }, { quantity: null }] })).toBe(
      '<span class="sqs-cart-quantity">2</span>',
    );
    expect(format('cart-quantity', { entries: [] })).toBe('<span class="sqs-cart-quantity">0</span>');
  });

  it('cart-quantity counts 0 without entries, for missing, null and wrong-typed carts', () => {
    for (const v of [undefined, null, 'cart', 7, {}, { entries: 'x' }]) {
      expect(format('cart-quantity', v)).toBe('<span class="sqs-cart-quantity">0</span>');
    }
  });

  it('cart-quantity is a runtime error for an entry without quantity', () => {
    expect(javaClassOf(() => format('cart-quantity', { entries: [{ quantity: 1 }, {}] }))).toBe('NullPointerException');
    expect(javaClassOf(() => format('cart-quantity', { entries: [5] }))).toBe('NullPointerException');
  });

  it('cart-subtotal prints the legacy subtotal', () => {
    expect(format('cart-subtotal', { subtotalCents: 12345 })).toBe(
      '<span class="sqs-cart-subtotal"><span class="sqs-money-native">123.45</span></span>',
    );
  });

  it('cart-subtotal is a runtime error without a decimal subtotal', () => {
    for (const v of [undefined, null, {}, { subtotalCents: 'x' }]) {
      expect(javaClassOf(() => format('cart-subtotal', v))).toBe('NumberFormatException');
    }
  });

  it('cart-url is always /cart', () => {
    for (const v of [undefined, null, 5, {}]) expect(format('cart-url', v)).toBe('/cart');
  });
});

describe('deprecated price formatters', () => {
  it('from-price prints the lowest price in cents (PLUGINS §4 examples)', () => {
    expect(format('from-price', physical([{ priceMoney: { value: '1' } }]))).toBe('100');
    expect(format('from-price', physical([{ priceMoney: { value: '.1' } }]))).toBe('10');
    expect(format('from-price', physical([{ priceMoney: { value: '3.00' } }]))).toBe('300');
    expect(format('from-price', physical([{ priceMoney: { value: '1.555' } }]))).toBe('155.5');
    expect(format('from-price', physical([]))).toBe('0');
  });

  it('normal-price and sale-price print the highest and the sale price', () => {
    const item = physical([{ priceMoney: { value: '4' } }, { onSale: true, priceMoney: { value: '9' }, salePriceMoney: { value: '100.00' } }]);
    expect(format('normal-price', item)).toBe('900');
    expect(format('sale-price', item)).toBe('10000');
    expect(format('sale-price', { structuredContent: { productType: 4, variants: [{ onSale: true, salePriceMoney: { value: '1' } }] } })).toBe('0');
  });

  it('print 0 for missing, null and wrong-typed products', () => {
    for (const name of ['from-price', 'normal-price', 'sale-price']) {
      for (const v of [undefined, null, 'x', 3, []]) expect(format(name, v), name).toBe('0');
    }
  });

  it('are runtime errors when a price is not a decimal', () => {
    expect(javaClassOf(() => format('from-price', physical([{ priceMoney: { value: 'ten' } }])))).toBe('NumberFormatException');
  });
});

describe('variant-descriptor', () => {
  it('joins the option values', () => {
    expect(format('variant-descriptor', { optionValues: [{ value: 'blue' }, { value: 'large' }, { value: 1 }] })).toBe('blue / large / 1');
  });

  it('is empty without an optionValues array', () => {
    for (const v of [undefined, null, 'x', {}, { optionValues: {} }]) expect(format('variant-descriptor', v)).toBe('');
  });
});

describe('product-quick-view', () => {
  const item = { id: 'q1', group: 'own' };

  it('takes the group from the product, then the scope, then the argument', () => {
    const markup = (group: string, text = 'Quick View') =>
      `<span class="sqs-product-quick-view-button" role="button" tabindex="0" data-id="q1" data-group="${group}">${text}</span>`;
    expect(format('product-quick-view', item, { group: 'page' }, ['group'])).toBe(markup('own'));
    expect(format('product-quick-view', item, { shelf: 'page' }, ['shelf'])).toBe(markup('page'));
    expect(format('product-quick-view', item, {}, ['shelf'])).toBe(markup('shelf'));
    expect(format('product-quick-view', item, {}, ['a.b'])).toBe(markup('a.b'));
    expect(format('product-quick-view', item, { group: 'page' })).toBe(markup(''));
    expect(format('product-quick-view', item, { localizedStrings: { productQuickViewText: 'Fast' } })).toBe(markup('', 'Fast'));
  });

  it('renders with empty id for missing, null and wrong-typed input', () => {
    for (const v of [undefined, null, 'x', 5]) {
      expect(format('product-quick-view', v)).toBe(
        '<span class="sqs-product-quick-view-button" role="button" tabindex="0" data-id="" data-group="">Quick View</span>',
      );
    }
  });
});

describe('product-status', () => {
  it('marks sold-out products, preferring custom text (escaped) over localized text', () => {
    const item = physical([{ qtyInStock: 0 }]);
    expect(format('product-status', item)).toBe('<div class="product-mark sold-out">sold out</div>');
    expect(format('product-status', item, { localizedStrings: { productSoldOutText: 'gone' } })).toBe(
      '<div class="product-mark sold-out">gone</div>',
    );
    const page = { productMerchandisingContext: { p1: { customSoldOutText: '<b>"Out"</b>' } }, localizedStrings: { productSoldOutText: 'gone' } };
    expect(format('product-status', item, page)).toBe('<div class="product-mark sold-out">&lt;b&gt;&quot;Out&quot;&lt;/b&gt;</div>');
  });

  it('marks products on sale, unescaped', () => {
    const item = physical([{ qtyInStock: 2, onSale: true }]);
    expect(format('product-status', item)).toBe('<div class="product-mark sale">sale</div>');
    expect(format('product-status', item, { localizedStrings: { productSaleText: '<i>Sale</i>' } })).toBe(
      '<div class="product-mark sale"><i>Sale</i></div>',
    );
  });

  it('is missing for available products not on sale', () => {
    expect(format('product-status', physical([{ unlimited: true }]))).toBeUndefined();
    expect(format('product-status', { structuredContent: { productType: 2 } })).toBeUndefined();
  });

  it('counts missing, null and wrong-typed input as sold out (UNDEFINED type)', () => {
    for (const v of [undefined, null, 'x']) expect(format('product-status', v)).toBe('<div class="product-mark sold-out">sold out</div>');
  });
});

describe('add-to-cart-btn and product-checkout', () => {
  it('run their template on the product, not privately', () => {
    const item = physical([]);
    for (const [name, source] of [
      ['add-to-cart-btn', ADD_TO_CART_BTN_TEMPLATE.trim()],
      ['product-checkout', PRODUCT_CHECKOUT_TEMPLATE.trim()],
    ] as const) {
      const { result, ctx } = run(name, item);
      expect(result).toBe('<rendered>');
      expect(ctx.calls).toEqual([{ source, node: item, isPrivate: false }]);
    }
  });

  it('run even on missing input', () => {
    const { result, ctx } = run('add-to-cart-btn', undefined);
    expect(result).toBe('<rendered>');
    expect(ctx.calls[0].node).toBeUndefined();
  });
});

describe('quantity-input', () => {
  const visible = (item: Value, page: Node = {}) => {
    const { result, ctx } = run('quantity-input', item, page);
    if (result !== undefined) expect(ctx.calls).toEqual([{ source: QUANTITY_INPUT_TEMPLATE.trim(), node: item, isPrivate: false }]);
    return result !== undefined;
  };

  it('shows for physical products with more than one unit left', () => {
    expect(visible(physical([{ qtyInStock: 0 }, { qtyInStock: 100 }]))).toBe(true);
    expect(visible(physical([{ unlimited: true }]))).toBe(true);
    expect(visible(physical([{ qtyInStock: 1 }]))).toBe(false);
    expect(visible(physical([{ qtyInStock: 5 }], { isSubscribable: true }))).toBe(false);
  });

  it('shows for services unless the store forbids multiple quantities', () => {
    const service = { structuredContent: { productType: 3, variants: [{ qtyInStock: 2 }] } };
    const setting = (v: Node) => ({ websiteSettings: { storeSettings: { multipleQuantityAllowedForServices: v } } });
    expect(visible(service)).toBe(true);
    expect(visible(service, setting(null))).toBe(true);
    expect(visible(service, setting(true))).toBe(true);
    expect(visible(service, setting(false))).toBe(false);
  });

  it('never shows for digital, gift-card, undefined or malformed products', () => {
    expect(visible({ structuredContent: { productType: 2 } })).toBe(false);
    expect(visible({ structuredContent: { productType: 4 } })).toBe(false);
    for (const v of [undefined, null, 'x', { structuredContent: { variants: [{ unlimited: true }] } }]) expect(visible(v)).toBe(false);
  });
});

describe('variants-select', () => {
  const item = {
    id: 'v1',
    structuredContent: {
      productType: 1,
      variantOptionOrdering: ['color', 'size'],
      variants: [
        { attributes: { size: 'S', color: 'red', extra: 'x' } },
        { attributes: { size: 'M', color: 'red' } },
        { attributes: { size: 'S' } },
      ],
    },
  };

  it('lists each ordered option with its distinct values, in variant order', () => {
    const { ctx } = run('variants-select', item);
    expect(ctx.calls).toHaveLength(1);
    expect(ctx.calls[0].isPrivate).toBe(false);
    expect(ctx.calls[0].node).toEqual({
      item,
      options: [
        { name: 'color', values: ['red'] },
        { name: 'size', values: ['S', 'M'] },
      ],
      displayText: '{name}',
      selectText: 'Select {variantName}',
      subscribable: false,
    });
  });

  it('gives names no variant has, inherited names and null values no values; dedupes by text', () => {
    const odd: Value = {
      structuredContent: {
        productType: 1,
        variantOptionOrdering: ['n', 'missing', 'constructor', 'n', 'z'],
        variants: [
          { attributes: { n: 1, z: null } },
          { attributes: { n: '1' } },
          { attributes: ['n'] },
          { attributes: { n: 2, constructor: 'c' } },
        ],
      },
    };
    expect(run('variants-select', odd).ctx.calls[0].node).toMatchObject({
      options: [
        { name: 'n', values: ['1', '2'] },
        { name: 'missing', values: [] },
        { name: 'constructor', values: ['c'] },
        { name: 'n', values: ['1', '2'] },
        { name: 'z', values: [] },
      ],
    });
  });

  it('uses the localized select text, and the gift-card texts for gift cards', () => {
    const strings = { productVariantSelectText: 'Pick {variantName}', giftCardValueDisplayText: 'Amount', giftCardVariantSelectText: 'Pick amount' };
    const page = { localizedStrings: strings };
    expect(run('variants-select', item, page).ctx.calls[0].node).toMatchObject({ displayText: '{name}', selectText: 'Pick {variantName}' });
    const card = { structuredContent: { ...item.structuredContent, productType: 4 } };
    expect(run('variants-select', card, page).ctx.calls[0].node).toMatchObject({ displayText: 'Amount', selectText: 'Pick amount' });
    expect(run('variants-select', card).ctx.calls[0].node).toMatchObject({ displayText: 'Value', selectText: 'Select Value' });
  });

  it('flags subscribable products', () => {
    const sub = { structuredContent: { ...item.structuredContent, isSubscribable: 'true' } };
    expect(run('variants-select', sub).ctx.calls[0].node).toMatchObject({ subscribable: true });
  });

  it('is missing with fewer than two variants and for missing, null and wrong-typed input', () => {
    for (const v of [undefined, null, 'x', physical([{}])]) {
      const { result, ctx } = run('variants-select', v);
      expect(result).toBeUndefined();
      expect(ctx.calls).toHaveLength(0);
    }
  });
});

describe('product-restock-notification', () => {
  const entry = {
    restockNotificationViews: [{ variantId: 1 }],
    restockNotificationMessages: { CTAText: 'cta' },
    mailingListSignUpEnabled: true,
    mailingListOptInByDefault: false,
  };

  it('hands the merchandising entry and the captcha key to a private template', () => {
    const item = { id: 'r1' };
    const page = { productMerchandisingContext: { r1: entry }, website: { captchaSettings: { siteKey: 'k' } } };
    const { result, ctx } = run('product-restock-notification', item, page);
    expect(result).toBe('<rendered>');
    expect(ctx.calls[0].isPrivate).toBe(true);
    expect(ctx.calls[0].node).toEqual({
      product: item,
      views: entry.restockNotificationViews,
      messages: entry.restockNotificationMessages,
      mailingListSignUpEnabled: true,
      mailingListOptInByDefault: false,
      captchaSiteKey: 'k',
    });
  });

  it('renders with no views when there is no merchandising entry', () => {
    const { ctx } = run('product-restock-notification', { id: 'r1' });
    expect(ctx.calls[0].node).toEqual({ product: { id: 'r1' } });
  });

  it('is a runtime error without a product id (missing, null and wrong-typed input)', () => {
    for (const v of [undefined, null, 'x', {}]) {
      expect(javaClassOf(() => format('product-restock-notification', v))).toBe('NullPointerException');
    }
  });
});

describe('product-scarcity', () => {
  const entry = { scarcityEnabled: true, scarcityTemplateViews: [{ qtyInStock: 2 }], scarcityText: 'Only {qtyInStock}', scarcityShownByDefault: true };
  const item = { id: 's1' };

  it('renders the enabled entry with a public template', () => {
    const { result, ctx } = run('product-scarcity', item, { productMerchandisingContext: { s1: entry } });
    expect(result).toBe('<rendered>');
    expect(ctx.calls[0].isPrivate).toBe(false);
    expect(ctx.calls[0].node).toEqual({
      scarcityTemplateViews: entry.scarcityTemplateViews,
      scarcityText: 'Only {qtyInStock}',
      scarcityShownByDefault: true,
    });
  });

  it('leaves the value unchanged without context, entry, or when disabled', () => {
    expect(format('product-scarcity', item)).toBe(item);
    expect(format('product-scarcity', item, { productMerchandisingContext: {} })).toBe(item);
    expect(format('product-scarcity', item, { productMerchandisingContext: { s1: { scarcityEnabled: false } } })).toBe(item);
    expect(format('product-scarcity', undefined)).toBeUndefined();
    expect(format('product-scarcity', null)).toBeNull();
  });

  it('is a runtime error for an entry without scarcityEnabled or a product without id', () => {
    expect(javaClassOf(() => format('product-scarcity', item, { productMerchandisingContext: { s1: {} } }))).toBe('NullPointerException');
    expect(javaClassOf(() => format('product-scarcity', 'x', { productMerchandisingContext: { s1: entry } }))).toBe('NullPointerException');
  });
});

describe('product-price', () => {
  const priceView = (item: Value, page: Node = {}) => {
    const { result, ctx } = run('product-price', item, page);
    expect(result).toBe('<rendered>');
    expect(ctx.calls[0].isPrivate).toBe(true);
    return ctx.calls[0].node;
  };
  const span = (s: string) => `<span class="sqs-money-native">${s}</span>`;

  it('builds from, sale and normal prices for varied products on sale', () => {
    const item = physical([
      { price: 100, priceMoney: { value: '100' } },
      { price: 200, onSale: true, priceMoney: { value: '200' }, salePriceMoney: { value: '50' } },
    ]);
    expect(priceView(item)).toEqual({
      fromText: 'from {fromPrice}',
      formattedFromPrice: span('50.00'),
      formattedSalePriceText: '{price}',
      formattedSalePrice: span('50.00'),
      formattedNormalPriceText: '{price}',
      formattedNormalPrice: span('200.00'),
    });
  });

  it('uses the localized from text and CLDR money nodes when the flag is on', () => {
    const item = physical([{ price: 1, priceMoney: { value: '1', currency: 'EUR' } }, { price: 2, priceMoney: { value: '2', currency: 'EUR' } }]);
    const page = { featureFlags: { useCLDRMoneyFormat: true }, localizedStrings: { productPriceFromText: 'ab {fromPrice}' } };
    expect(priceView(item, page)).toEqual({
      fromText: 'ab {fromPrice}',
      formattedFromPriceMoney: { decimalValue: '1', currencyCode: 'EUR' },
      formattedNormalPriceText: '{price}',
      formattedNormalPriceMoney: { decimalValue: '2', currencyCode: 'EUR' },
    });
  });

  it('has no prices for UNDEFINED products (missing, null and wrong-typed input too)', () => {
    for (const v of [undefined, null, 'x', { structuredContent: { productType: -1 } }]) expect(priceView(v)).toEqual({});
  });

  it('describes subscriptions with a localized key or the English pattern', () => {
    const sub = (unit: string, value: number, cycles: number, variants: Node[] = [{ price: 1, priceMoney: { value: '10' } }]) => ({
      structuredContent: {
        productType: 1,
        isSubscribable: true,
        subscriptionPlan: { billingPeriod: { unit, value }, numBillingCycles: cycles },
        variants,
      },
    });
    expect(priceView(sub('WEEK', 1, 0))).toMatchObject({ formattedNormalPriceText: '{price} every week', billingPeriodValue: 1, duration: 0 });
    expect(priceView(sub('WEEK', 2, 26))).toMatchObject({ formattedNormalPriceText: '{price} every {billingPeriodValue} weeks for {duration} year', duration: 1 });
    expect(priceView(sub('MONTH', 2, 7))).toMatchObject({ formattedNormalPriceText: '{price} every {billingPeriodValue} months for {duration} months', duration: 14 });
    expect(priceView(sub('MONTH', 1, 1))).toMatchObject({ formattedNormalPriceText: '{price} every month for {duration} month', duration: 1 });
    expect(priceView(sub('constructor', 1, 2))).toMatchObject({ formattedNormalPriceText: '{price} every constructor for {duration} constructors', duration: 2 });
    const varied = sub('WEEK', 1, 3, [{ price: 1, priceMoney: { value: '1' } }, { price: 2, priceMoney: { value: '2' } }]);
    expect(priceView(varied)).toMatchObject({ fromText: 'from {price} every week for {duration} weeks', formattedFromPrice: span('1.00') });
    const strings = {
      productPrice__singlePrice__nMonthly__limited__1Years: 'yearly {price}',
      productPrice__multiplePrices__1Weekly__limited__nWeeks: 'weekly {price}',
    };
    expect(priceView(sub('MONTH', 6, 2), { localizedStrings: strings })).toMatchObject({ formattedNormalPriceText: 'yearly {price}' });
    expect(priceView(varied, { localizedStrings: strings })).toMatchObject({ fromText: 'weekly {price}' });
  });

  it('reports an unavailable plan without a billing period', () => {
    const item = { structuredContent: { productType: 1, isSubscribable: 'true' } };
    expect(priceView(item)).toEqual({ formattedFromPrice: true, fromText: 'Unavailable' });
    expect(priceView(item, { localizedStrings: { productPriceUnavailable: 'N/A' } })).toEqual({ formattedFromPrice: true, fromText: 'N/A' });
  });

  it('is a runtime error when a price is not a decimal', () => {
    expect(javaClassOf(() => format('product-price', physical([{ priceMoney: { value: '$1' } }])))).toBe('NumberFormatException');
  });
});

describe('subscription-price', () => {
  const option = (price: string, extra: { [key: string]: Node } = {}): Node => ({ priceMoney: { value: price }, onSale: false, ...extra });
  const priceView = (item: Value, page: Node = {}) => {
    const { ctx } = run('subscription-price', item, page);
    expect(ctx.calls[0].isPrivate).toBe(true);
    return ctx.calls[0].node;
  };
  const span = (s: string) => `<span class="sqs-money-native">${s}</span>`;

  it('prices the first option of the cheapest variant', () => {
    const item = physical([
      { price: 10, priceMoney: { value: '10' }, pricingOptions: [option('9'), option('1')] },
      { price: 5, onSale: true, salePriceMoney: { value: '5' }, pricingOptions: [option('4', { onSale: true, salePriceMoney: { value: '2.5' } })] },
    ]);
    expect(priceView(item)).toEqual({
      fromText: 'from {fromPrice}',
      formattedFromPrice: span('2.50'),
      formattedSubscriptionSalePriceText: '{price}',
      formattedSubscriptionSalePrice: span('2.50'),
      formattedNormalSubscriptionPriceText: '{price}',
      formattedNormalSubscriptionPrice: span('4.00'),
    });
  });

  it('has no prices without pricing options, for other types and bad input', () => {
    for (const v of [undefined, null, 'x', physical([{ priceMoney: { value: '1' } }]), { structuredContent: { productType: 2, pricingOptions: [option('1')] } }]) {
      expect(priceView(v)).toEqual({});
    }
  });
});

describe('summary-form-field', () => {
  const title = (t: string, value: string) => `<div style="font-size:11px; margin-top:3px">\n  <span style="font-weight:bold;">${t}:</span> ${value}\n</div>`;

  it('uses the field value for unknown types, N/A when falsy', () => {
    expect(format('summary-form-field', { type: 'text', rawTitle: 'T', value: 'hello' })).toBe(title('T', 'hello'));
    expect(format('summary-form-field', { rawTitle: '<b>', value: 12 })).toBe(title('<b>', '12'));
    expect(format('summary-form-field', { type: 'text', rawTitle: 'T', value: '' })).toBe(title('T', 'N/A'));
    expect(format('summary-form-field', { rawTitle: 'T' }, { localizedStrings: { productSummaryFormNoAnswerText: '-' } })).toBe(title('T', '-'));
  });

  it('runs the private value template of the field type', () => {
    const field = { type: 'name', rawTitle: 'Name', values: { First: 'A' } };
    const { result, ctx } = run('summary-form-field', field);
    expect(result).toBe(title('Name', '<rendered>'));
    expect(ctx.calls).toEqual([{ source: SUMMARY_FORM_FIELD_NAME_TEMPLATE.trim(), node: field, isPrivate: true }]);
  });

  it('falls back to N/A when the value template prints nothing', () => {
    const f = spec('summary-form-field');
    const ctx = new RecordingContext([{ node: {} }]);
    ctx.outputs[SUMMARY_FORM_FIELD_NAME_TEMPLATE.trim()] = '';
    expect(f.apply({ type: 'name', rawTitle: 'N' }, bindFormatter(f, []), ctx, [])).toBe(title('N', 'N/A'));
  });

  it('maps likert answers, unknown codes to neutral, with localized labels', () => {
    const field = { type: 'likert', rawTitle: 'L', values: { q1: '-2', q2: '1', q3: 'zz', q4: 2 } };
    const { ctx } = run('summary-form-field', field, { localizedStrings: { productAnswerMapAgree: 'Yes' } });
    expect(ctx.calls[0]).toEqual({
      source: SUMMARY_FORM_FIELD_LIKERT_TEMPLATE.trim(),
      isPrivate: true,
      node: {
        rows: [
          { question: 'q1', answer: 'Strongly Disagree' },
          { question: 'q2', answer: 'Yes' },
          { question: 'q3', answer: 'Neutral' },
          { question: 'q4', answer: 'Strongly Agree' },
        ],
      },
    });
  });

  it('renders N/A with an empty title for missing, null and wrong-typed input', () => {
    for (const v of [undefined, null, 'x', 3]) expect(format('summary-form-field', v)).toBe(title('', 'N/A'));
  });
});
