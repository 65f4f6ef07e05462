// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import fc from 'fast-check';
import { productScarcity, quantityInput, variantsSelect } from '../test-support/formatter-markup.ts';
import { choose, createPage, typeInto, type Page } from '../test-support/page.ts';
import { contextProducts, money, product, productPage, teeProduct, variant } from '../test-support/products.ts';
import type { SelectionState } from '../runtime/product-scope.ts';

let page: Page;
beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  page?.cleanup();
  vi.useRealTimers();
});

const select = (name: string) => document.querySelector<HTMLSelectElement>(`select[data-variant-option-name="${name}"]`)!;
const radio = (name: string, value: string) => document.querySelector<HTMLInputElement>(`input[name="variant-option-${name}"][value="${value}"]`)!;
const state = (itemId = 'p1'): SelectionState => {
  const scope = document.querySelector('[data-product-scope]') ?? document;
  return page.handle!.runtime.selection(scope, itemId).get();
};

async function open(item = teeProduct(), context: Record<string, unknown> = {}) {
  page = createPage({ body: productPage(item), context: { products: contextProducts(item), ...context } });
  await page.boot();
}

describe('A3 variant selectors and quantity input', () => {
  test('VAR-1 hydrates cleanly; the first option is the placeholder', async () => {
    await open();
    expect(page.recoverableErrors).toEqual([]);
    expect(page.consoleErrors).toEqual([]);
    expect(document.querySelector('.product-variants')!.getAttribute('data-hydrated')).toBe('true');
    const first = select('Size').options[0]!;
    expect(first.text).toBe('Select Size');
    expect(first.value).toBe('');
  });

  test('VAR-1 holds for generated option names and values (quotes, <, &)', async () => {
    // Option names go unescaped into the select's aria-label (PLUGINS `variants-select`), so a `"`
    // in a name yields malformed server markup; names here avoid it, values do not.
    const name = fc.stringMatching(/^[A-Za-z0-9 <>&']{1,8}$/);
    const value = fc.stringMatching(/^[A-Za-z0-9 "<>&']{1,8}$/);
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(name, { minLength: 1, maxLength: 3 }), fc.uniqueArray(value, { minLength: 2, maxLength: 4 }), async (names, values) => {
        const variants = values.map((v, i) => variant(`S${i}`, Object.fromEntries(names.map((n) => [n, v]))));
        const item = product({ variants, options: names });
        page?.cleanup();
        page = createPage({ body: variantsSelect(item), context: { products: contextProducts(item) } });
        const html = document.querySelector('.product-variants')!.innerHTML;
        await page.boot();
        expect(page.recoverableErrors).toEqual([]);
        expect(page.consoleErrors).toEqual([]);
        expect(document.querySelector('.product-variants')!.innerHTML).toBe(html);
      }),
      { numRuns: 20 },
    );
  });

  test('VAR-2 nothing chosen', async () => {
    await open();
    expect(state().unselectedOptions).toEqual(['Size', 'Color']);
    expect(state().selectedVariant).toBeNull();
  });

  test('VAR-3 the dropdown checks the matching radio', async () => {
    await open();
    await page.act(() => choose(select('Size'), 'M'));
    expect(state().unselectedOptions).toEqual(['Color']);
    expect(radio('Size', 'M').checked).toBe(true);
  });

  test('VAR-4 radio plus dropdown selects the variant; one event per change', async () => {
    await open();
    const events: SelectionState[] = [];
    document.addEventListener('sf:variant-change', (e) => events.push((e as CustomEvent<SelectionState>).detail));
    await page.act(() => radio('Size', 'M').click());
    expect(select('Size').value).toBe('M');
    await page.act(() => choose(select('Color'), 'Red'));
    expect(state().selectedVariant?.sku).toBe('SQ-1');
    expect(events).toHaveLength(2);
    expect(events[1]!.selectedVariant?.sku).toBe('SQ-1');
  });

  test('VAR-5 a combination with no variant', async () => {
    await open();
    await page.act(() => {
      choose(select('Size'), 'M');
      choose(select('Color'), 'Blue');
    });
    expect(state().selectedVariant).toBeNull();
    expect(state().unselectedOptions).toEqual([]);
  });

  test('VAR-6 price follows the variant in legacy and CLDR modes', async () => {
    await open();
    await page.act(() => {
      choose(select('Size'), 'M');
      choose(select('Color'), 'Red');
    });
    expect(document.querySelector('.product-price')!.innerHTML).toBe('<span class="sqs-money-native">25.00</span>');
    page.cleanup();

    const sale = teeProduct();
    sale.structuredContent.variants[0] = variant('SQ-1', { Size: 'M', Color: 'Red' }, { onSale: true, salePriceMoney: money('20.00') });
    await open(sale, { flags: { useCLDRMoneyFormat: true }, websiteLocale: 'en-US' });
    await page.act(() => {
      choose(select('Size'), 'L');
      choose(select('Color'), 'Red');
    });
    expect(document.querySelector('.product-price')!.textContent).toBe('$25.00');
    await page.act(() => choose(select('Size'), 'M'));
    const price = document.querySelector('.product-price')!;
    expect(price.querySelector('.original-price')!.textContent).toBe('$25.00');
    expect(price.textContent).toBe('Sale Price:$20.00 Original Price:$25.00');
  });

  test('VAR-6 legacy JPY prices keep two decimals; no full selection restores the server price', async () => {
    const item = teeProduct();
    item.structuredContent.variants[0] = variant('SQ-1', { Size: 'M', Color: 'Red' }, { priceMoney: money('1234', 'JPY') });
    await open(item);
    const server = document.querySelector('.product-price')!.innerHTML;
    await page.act(() => {
      choose(select('Size'), 'M');
      choose(select('Color'), 'Red');
    });
    expect(document.querySelector('.product-price')!.innerHTML).toBe('<span class="sqs-money-native">1,234.00</span>');
    await page.act(() => choose(select('Color'), ''));
    expect(document.querySelector('.product-price')!.innerHTML).toBe(server);
  });

  test('VAR-7 a sold-out selection shows the sold-out mark, with custom text', async () => {
    await open();
    await page.act(() => {
      choose(select('Size'), 'S');
      choose(select('Color'), 'Red');
    });
    const mark = () => document.querySelector('.sf-product-status .product-mark');
    expect(mark()!.className).toBe('product-mark sold-out');
    expect(mark()!.textContent).toBe('sold out');
    await page.act(() => choose(select('Size'), 'M'));
    expect(mark()).toBeNull();
    page.cleanup();

    const item = { ...teeProduct(), customSoldOutText: 'Gone!' };
    await open(item);
    await page.act(() => {
      choose(select('Size'), 'S');
      choose(select('Color'), 'Red');
    });
    expect(mark()!.textContent).toBe('Gone!');
  });

  test('a choice the browser restored into the dropdowns before the boot (Back to the page) is shown: price, sold-out mark, variant event; nothing announced', async () => {
    const item = teeProduct();
    page = createPage({ body: productPage(item), context: { products: contextProducts(item) } });
    // What the browser's form restoration does before the islands' script runs.
    select('Size').value = 'S';
    select('Color').value = 'Red';
    const events: SelectionState[] = [];
    document.addEventListener('sf:variant-change', (e) => events.push((e as CustomEvent<SelectionState>).detail));
    await page.boot();
    await page.advance(0);
    expect(state().selectedVariant?.sku).toBe('SQ-0');
    expect(document.querySelector('.sf-product-status .product-mark')!.textContent).toBe('sold out');
    expect(document.querySelector('.product-price')!.innerHTML).toBe('<span class="sqs-money-native">25.00</span>');
    expect(events.map((e) => e.selectedVariant?.sku)).toEqual(['SQ-0']);
    expect(document.querySelector('.sf-announcer')?.textContent ?? '').toBe('');
    page.cleanup();

    // Nothing restored: the server's price and marks stand, and no event is sent.
    const fresh = teeProduct();
    page = createPage({ body: productPage(fresh), context: { products: contextProducts(fresh) } });
    const server = document.querySelector('.product-price')!.innerHTML;
    events.length = 0;
    await page.boot();
    await page.advance(0);
    expect(document.querySelector('.product-price')!.innerHTML).toBe(server);
    expect(events).toEqual([]);
  });

  test('VAR-8 variant images follow the selection', async () => {
    const images = '<img data-variant-image-for="SQ-1" src="a.jpg"><img data-variant-image-for="SQ-2" src="b.jpg" hidden>';
    const item = teeProduct();
    page = createPage({ body: productPage(item).replace('<div class="product" data-product-scope>', `<div class="product" data-product-scope>${images}`), context: { products: contextProducts(item) } });
    await page.boot();
    await page.act(() => {
      choose(select('Size'), 'L');
      choose(select('Color'), 'Red');
    });
    const [a, b] = [...document.querySelectorAll('img')];
    expect(b!.hasAttribute('hidden')).toBe(false);
    expect(a!.hasAttribute('hidden')).toBe(true);
  });

  test('VAR-9 the quantity input hydrates and publishes its text', async () => {
    const item = teeProduct();
    page = createPage({ body: `<div data-product-scope>${quantityInput(item)}</div>`, context: { products: contextProducts(item) } });
    await page.boot();
    expect(page.recoverableErrors).toEqual([]);
    expect(document.querySelector('.product-quantity-input')!.getAttribute('data-hydrated')).toBe('true');
    await page.act(() => typeInto(document.querySelector<HTMLInputElement>('.product-quantity-input input')!, '3'));
    expect(state().quantityText).toBe('3');
  });

  test('VAR-10 scarcity views follow the selection', async () => {
    const item = teeProduct();
    const scarcity = productScarcity(
      [
        { attributes: { Size: 'M', Color: 'Red' }, qtyInStock: 10 },
        { attributes: { Size: 'L', Color: 'Red' }, qtyInStock: 3 },
      ],
      'Only {qtyInStock} left',
    );
    page = createPage({
      body: productPage(item).replace('<div class="product" data-product-scope>', `<div class="product" data-product-scope>${scarcity}`),
      context: { products: contextProducts(item) },
    });
    await page.boot();
    await page.act(() => {
      choose(select('Size'), 'L');
      choose(select('Color'), 'Red');
    });
    const [a, b] = [...document.querySelectorAll('.product-scarcity')];
    expect(b!.hasAttribute('hidden')).toBe(false);
    expect(a!.hasAttribute('hidden')).toBe(true);
  });

  test('VAR-11 a full choice is said in the page\'s status region: values, price with its currency, stock (WCAG 4.1.3)', async () => {
    const item = teeProduct();
    const scarcity = productScarcity([{ attributes: { Size: 'L', Color: 'Red' }, qtyInStock: 3 }], 'Only {qtyInStock} left');
    page = createPage({
      body: productPage(item).replace('<div class="product" data-product-scope>', `<div class="product" data-product-scope>${scarcity}`),
      context: { products: contextProducts(item) },
    });
    await page.boot();
    // The region is in the page before the first choice, or that choice would not be read.
    const region = document.querySelector('body > .sf-announcer')!;
    expect(region.getAttribute('role')).toBe('status');
    expect(region.textContent).toBe('');
    await page.act(() => choose(select('Size'), 'L'));
    expect(region.textContent).toBe('');
    await page.act(() => choose(select('Color'), 'Red'));
    expect(region.textContent).toMatch(/^L, Red: \$\d+\.\d\d, Only 3 left$/);
    await page.act(() => choose(select('Size'), 'S'));
    expect(region.textContent).toMatch(/^S, Red: \$\d+\.\d\d, sold out$/);
    await page.act(() => choose(select('Size'), 'M'));
    expect(region.textContent).toMatch(/^M, Red: \$\d+\.\d\d, in stock$/);
  });

  test('VAR-11 gift cards read Value', async () => {
    const item = product({ productType: 4, options: ['Amount'], variants: [variant('GC-25', { Amount: '$25' }), variant('GC-50', { Amount: '$50' })] });
    await open(item);
    expect(page.recoverableErrors).toEqual([]);
    expect(select('Amount').options[0]!.text).toBe('Select Value');
    expect(document.querySelector('.variant-option-title')!.textContent).toBe('Value: ');
  });

  test('VAR-12 a single variant is selected without any action', async () => {
    const item = product({ variants: [variant('ONE', {})] });
    await open(item);
    expect(state().selectedVariant?.sku).toBe('ONE');
    expect(state().unselectedOptions).toEqual([]);
  });

  test('radio labels choose their value with Enter', async () => {
    await open();
    const label = document.querySelector<HTMLElement>('label[for="variant-option-Size-L"]')!;
    await page.act(() => label.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true })));
    expect(select('Size').value).toBe('L');
  });

  // Issue 16: a combination no variant has is marked in the selectors, not offered and refused.
  test('values no variant has with the current choice are disabled and say (unavailable)', async () => {
    await open();
    const texts = (name: string) => [...select(name).options].map((o) => `${o.text}${o.disabled ? ' [disabled]' : ''}`);
    expect(texts('Color')).toEqual(['Select Color', 'Red', 'Blue']);
    await page.act(() => choose(select('Size'), 'M'));
    expect(texts('Color')).toEqual(['Select Color', 'Red', 'Blue (unavailable) [disabled]']);
    expect(radio('Color', 'Blue').disabled).toBe(true);
    expect(document.querySelector('label[for="variant-option-Color-Blue"]')!.getAttribute('aria-disabled')).toBe('true');
    await page.act(() => choose(select('Size'), 'L'));
    expect(texts('Color')).toEqual(['Select Color', 'Red', 'Blue']);
    expect(radio('Color', 'Blue').disabled).toBe(false);
    expect(document.querySelector('label[for="variant-option-Color-Blue"]')!.hasAttribute('aria-disabled')).toBe(false);
    await page.act(() => choose(select('Color'), 'Blue'));
    expect(texts('Size')).toEqual(['Select Size', 'M (unavailable) [disabled]', 'L', 'S (unavailable) [disabled]']);
    expect(page.recoverableErrors).toEqual([]);
  });

  test('the sale mark follows the chosen variant', async () => {
    const item = product({
      options: ['Size'],
      variants: [variant('FULL', { Size: 'S' }), variant('SALE', { Size: 'M' }, { onSale: true, salePriceMoney: money('20.00') })],
    });
    page = createPage({ body: productPage(item, { status: 'sale' }), context: { products: contextProducts(item) } });
    await page.boot();
    const marks = () => [...document.querySelectorAll('.sf-product-status .product-mark')].map((m) => `${m.className}:${m.textContent}`);
    expect(marks()).toEqual(['product-mark sale:sale']);
    await page.act(() => choose(select('Size'), 'S'));
    expect(marks()).toEqual([]);
    await page.act(() => choose(select('Size'), 'M'));
    expect(marks()).toEqual(['product-mark sale:sale']);
    await page.act(() => choose(select('Size'), ''));
    expect(marks()).toEqual(['product-mark sale:sale']);
  });

  test('a theme\'s status chips outside the scope follow the chosen variant, and come back as written', async () => {
    const item = product({
      options: ['Size'],
      variants: [
        variant('FULL', { Size: 'S' }),
        variant('SALE', { Size: 'M' }, { onSale: true, salePriceMoney: money('20.00') }),
        variant('GONE', { Size: 'L' }, { qtyInStock: 0, onSale: true }),
      ],
    });
    // As the demo's products.item writes them: every kind, the ones that do not apply hidden.
    const chips =
      `<p data-variant-badges-for="${item.id}"><span data-variant-badge="on-sale">On sale</span>` +
      `<span data-variant-badge="sold-out" hidden>Sold out</span><span data-variant-badge="in-stock">In stock</span><span>Price varies</span></p>` +
      `<p data-variant-badges-for="another"><span data-variant-badge="sold-out">Sold out</span></p>`;
    page = createPage({ body: productPage(item, { status: 'sale', extraBody: chips }), context: { products: contextProducts(item) } });
    await page.boot();
    const shown = () => [...document.querySelectorAll<HTMLElement>(`[data-variant-badges-for="${item.id}"] span`)].filter((c) => !c.hidden).map((c) => c.textContent);
    expect(shown()).toEqual(['On sale', 'In stock', 'Price varies']);
    await page.act(() => choose(select('Size'), 'S'));
    expect(shown()).toEqual(['In stock', 'Price varies']);
    await page.act(() => choose(select('Size'), 'L'));
    expect(shown()).toEqual(['Sold out', 'Price varies']);
    await page.act(() => choose(select('Size'), 'M'));
    expect(shown()).toEqual(['On sale', 'In stock', 'Price varies']);
    await page.act(() => choose(select('Size'), 'L'));
    await page.act(() => choose(select('Size'), ''));
    expect(shown()).toEqual(['On sale', 'In stock', 'Price varies']);
    // Another product's chips are not this product's business.
    expect(document.querySelector<HTMLElement>('[data-variant-badges-for="another"] span')!.hidden).toBe(false);
    expect(page.recoverableErrors).toEqual([]);
  });
});
