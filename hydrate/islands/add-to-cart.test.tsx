// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import fc from 'fast-check';
import { addToCartBtn } from '../test-support/formatter-markup.ts';
import { alertText, choose, click, createPage, press, typeInto, type Page } from '../test-support/page.ts';
import { cartWith, contextProducts, product, productPage, teeProduct, variant } from '../test-support/products.ts';

let page: Page;

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  page?.cleanup();
  vi.useRealTimers();
});

const button = () => document.querySelector<HTMLElement>('.sqs-add-to-cart-button')!;
const label = () => document.querySelector('.sqs-add-to-cart-button-inner')!.textContent;
const select = (name: string) => document.querySelector<HTMLSelectElement>(`select[data-variant-option-name="${name}"]`)!;
const entriesPosts = () => page.fetch.callsTo('/api/commerce/shopping-cart/entries', 'POST');

async function teePage(extra: Record<string, unknown> = {}, context: Record<string, unknown> = {}, item = teeProduct(extra)) {
  page = createPage({ body: productPage(item), context: { pageType: 50, products: contextProducts(item), ...context } });
  await page.boot();
  return item;
}

async function chooseTee(size: string, color: string) {
  await page.act(() => {
    choose(select('Size'), size);
    choose(select('Color'), color);
  });
}

function answerAdd(delayMs: number, cart = cartWith(2, 5000)) {
  page.fetch.on('POST', '/api/commerce/shopping-cart/entries', {
    status: 200,
    delayMs,
    json: { shoppingCart: cart, newlyAdded: { id: 'e1', itemId: 'p1', quantity: 2 } },
  });
}

/** Past the adding label's minimum time. */
const ADD_WAIT = 1000;

describe('A1 add-to-cart button', () => {
  test('ATC-1 hydrates the formatter output without recoverable errors and keeps the server node', async () => {
    const item = teeProduct();
    page = createPage({ body: productPage(item), context: { products: contextProducts(item) } });
    const serverButton = button();
    await page.boot();
    expect(page.recoverableErrors).toEqual([]);
    expect(button()).toBe(serverButton);
    expect(label()).toBe('Add To Cart');
    expect(document.querySelector('.sqs-add-to-cart-button-wrapper')!.getAttribute('data-hydrated')).toBe('true');
  });

  test('ATC-1 holds for generated products (labels, subscribable, forms, quotes and <)', async () => {
    const title = fc.string({ maxLength: 12 }).map((s) => s.replace(/\s+$/, ''));
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          custom: fc.boolean(),
          customText: title,
          subscribable: fc.boolean(),
          withForm: fc.boolean(),
          formName: title,
          productType: fc.constantFrom(1, 2, 3, 4),
        }),
        async (p) => {
          const item = product({
            variants: [variant('S1', {})],
            extra: {
              productType: p.productType,
              useCustomAddButtonText: p.custom,
              customAddButtonText: `${p.customText}"<&>'`,
              isSubscribable: p.subscribable,
              ...(p.withForm
                ? { additionalFieldsFormId: 'f1', additionalFieldsForm: { id: 'f1', name: `<b>${p.formName}</b>"`, fields: [] } }
                : {}),
            },
          });
          page?.cleanup();
          page = createPage({ body: addToCartBtn(item), context: { products: contextProducts(item) } });
          const serverButton = button();
          const serverHtml = document.querySelector('.sqs-add-to-cart-button-wrapper')!.innerHTML;
          await page.boot();
          expect(page.recoverableErrors).toEqual([]);
          expect(page.consoleErrors).toEqual([]);
          expect(button()).toBe(serverButton);
          expect(document.querySelector('.sqs-add-to-cart-button-wrapper')!.innerHTML).toBe(serverHtml);
        },
      ),
      { numRuns: 25 },
    );
  });

  test.each([
    [5, 'This content comes with a membership; it is not sold through the cart.'],
    [9, 'Sorry, this item cannot be added to the cart.'],
  ])('a button of product type %i (paywall, unknown) reads unavailable, says why and sends nothing (issue 18)', async (productType, message) => {
    const item = product({ variants: [variant('S1', {})], extra: { productType } });
    page = createPage({ body: productPage(item), context: { products: contextProducts(item) } });
    await page.boot();
    expect(page.recoverableErrors).toEqual([]);
    expect(button().getAttribute('aria-disabled')).toBe('true');
    expect(button().getAttribute('data-state')).toBe('unavailable');
    await page.act(() => click(button()));
    expect(alertText()).toEqual({ title: 'Unable to Add Item', message });
    expect(entriesPosts()).toHaveLength(0);
  });

  test('ATC-2 two unselected options', async () => {
    await teePage();
    await page.act(() => click(button()));
    expect(alertText()).toEqual({ title: 'Unable to Add Item', message: 'Please select the Size and Color options.' });
    expect(entriesPosts()).toHaveLength(0);
    expect(label()).toBe('Add To Cart');
  });

  test('ATC-3 one unselected option', async () => {
    await teePage();
    await page.act(() => choose(select('Color'), 'Red'));
    await page.act(() => click(button()));
    expect(alertText()?.message).toBe('Please select the Size option.');
  });

  test('ATC-4 three unselected options use the serial comma', async () => {
    const item = product({
      options: ['Size', 'Color', 'Material'],
      variants: [variant('A', { Size: 'M', Color: 'Red', Material: 'Wool' }), variant('B', { Size: 'L', Color: 'Red', Material: 'Silk' })],
    });
    await teePage({}, {}, item);
    await page.act(() => click(button()));
    expect(alertText()?.message).toBe('Please select the Size, Color, and Material options.');
  });

  test('ATC-5 a combination no variant has', async () => {
    await teePage();
    await chooseTee('M', 'Blue');
    await page.act(() => click(button()));
    expect(alertText()?.message).toBe('Sorry, that item variant is unavailable. Please select another variant.');
  });

  test('ATC-6 a sold-out variant', async () => {
    await teePage();
    await chooseTee('S', 'Red');
    await page.act(() => click(button()));
    expect(alertText()?.message).toBe('Sorry, we do not have enough of that item available.');
    expect(entriesPosts()).toHaveLength(0);
  });

  test('ATC-7 quantity must be a number, then a whole number', async () => {
    await teePage();
    await chooseTee('M', 'Red');
    const qty = document.querySelector<HTMLInputElement>('.product-quantity-input input')!;
    await page.act(() => typeInto(qty, 'abc'));
    await page.act(() => click(button()));
    expect(alertText()?.message).toBe('Quantity must be a number.');
    await page.act(() => typeInto(qty, '1.5'));
    await page.act(() => click(button()));
    expect(alertText()?.message).toBe('Quantity must be a whole number');
    expect(entriesPosts()).toHaveLength(0);
  });

  test('ATC-8 label timeline with a 200 ms answer', async () => {
    await teePage();
    answerAdd(200);
    await chooseTee('M', 'Red');
    await page.act(() => typeInto(document.querySelector<HTMLInputElement>('.product-quantity-input input')!, '2'));
    await page.act(() => click(button()));
    expect(label()).toBe('Adding…');
    expect(entriesPosts()).toHaveLength(1);
    expect(entriesPosts()[0]!.body).toBe('{"itemId":"p1","sku":"SQ-1","quantity":2,"additionalFields":null}');
    await page.advance(999);
    expect(label()).toBe('Adding…');
    await page.advance(1);
    expect(label()).toBe('Added!');
    expect(button().getAttribute('data-state')).toBe('added');
    await page.advance(1999);
    expect(label()).toBe('Added!');
    await page.advance(1);
    expect(label()).toBe('Add To Cart');
    expect(button().hasAttribute('data-state')).toBe(false);
  });

  test('Added! is also said to assistive technology: a polite status region, read when the label changes', async () => {
    await teePage();
    const region = document.querySelector<HTMLElement>('.sf-announcer')!;
    // Made at boot, empty and out of sight, so that the first message is read.
    expect(region.getAttribute('role')).toBe('status');
    expect(region.getAttribute('aria-live')).toBe('polite');
    expect(region.textContent).toBe('');
    expect(region.style.position).toBe('absolute');
    expect(region.closest('.sqs-add-to-cart-button-wrapper')).toBeNull();
    page.fetch.on('POST', '/api/commerce/shopping-cart/entries', {
      json: { shoppingCart: cartWith(2, 5000), newlyAdded: { id: 'e1', itemId: 'p1', quantity: 2, title: 'Tee' } },
      delayMs: 200,
    });
    await chooseTee('M', 'Red');
    await page.act(() => click(button()));
    await page.advance(999);
    expect(region.textContent).toBe('');
    await page.advance(1);
    expect(label()).toBe('Added!');
    expect(region.textContent).toBe('Tee added to cart. 2 items in cart.');
    expect(document.querySelectorAll('.sf-announcer')).toHaveLength(1);
  });

  test('a failed add says nothing in the status region (the alert speaks)', async () => {
    await teePage();
    page.fetch.on('POST', '/api/commerce/shopping-cart/entries', { status: 409, json: { error: 'Sorry, we do not have enough of that item available.' } });
    await chooseTee('M', 'Red');
    await page.act(() => click(button()));
    await page.advance(ADD_WAIT);
    expect(alertText()?.title).toBe('Unable to Add Item');
    expect(document.querySelector('.sf-announcer')!.textContent).toBe('');
  });

  test('ATC-9 a slow answer shows Added! on arrival', async () => {
    await teePage();
    answerAdd(1500);
    await chooseTee('M', 'Red');
    await page.act(() => click(button()));
    await page.advance(1499);
    expect(label()).toBe('Adding…');
    await page.advance(1);
    expect(label()).toBe('Added!');
    await page.advance(1999);
    expect(label()).toBe('Added!');
    await page.advance(1);
    expect(label()).toBe('Add To Cart');
  });

  test('ATC-10 clicks while adding or added send nothing', async () => {
    await teePage();
    answerAdd(200);
    await chooseTee('M', 'Red');
    await page.act(() => click(button()));
    await page.act(() => click(button()));
    await page.advance(1000);
    expect(label()).toBe('Added!');
    await page.act(() => click(button()));
    expect(entriesPosts()).toHaveLength(1);
  });

  test('ATC-11 a 409 shows the server message and resets after 1000 ms', async () => {
    await teePage();
    page.fetch.on('POST', '/api/commerce/shopping-cart/entries', {
      status: 409,
      delayMs: 300,
      json: { error: 'Sorry, we do not have enough of that item available.' },
    });
    await chooseTee('M', 'Red');
    await page.act(() => click(button()));
    await page.advance(299);
    expect(alertText()).toBeNull();
    await page.advance(1);
    expect(alertText()).toEqual({ title: 'Unable to Add Item', message: 'Sorry, we do not have enough of that item available.' });
    expect(button().getAttribute('data-state')).toBe('error');
    await page.advance(999);
    expect(label()).toBe("Adding…");
    await page.advance(1);
    expect(label()).toBe('Add To Cart');
    await page.act(() => click(button()));
    expect(entriesPosts()).toHaveLength(2);
  });

  test('ATC-12 a 429 shows the rate-limit message', async () => {
    await teePage();
    page.fetch.on('POST', '/api/commerce/shopping-cart/entries', { status: 429, json: { error: 'Too many requests.' } });
    await chooseTee('M', 'Red');
    await page.act(() => click(button()));
    await page.advance(0);
    expect(alertText()?.message).toBe('Please try again in a few seconds.');
  });

  test('ATC-13 success fires sf:cart-added once and updates the pill', async () => {
    const item = teeProduct();
    page = createPage({
      body: productPage(item) + '<div class="sf-pill-cart-wrapper" data-island="pill-cart" data-state="hidden" hidden>\n  <a class="sf-pill-cart" href="/cart" aria-label="Cart">\n    <span class="sf-pill-count"></span>\n    <span class="sf-pill-subtotal"></span>\n  </a>\n</div>',
      context: { products: contextProducts(item) },
    });
    await page.boot();
    const added: CustomEvent[] = [];
    window.addEventListener('sf:cart-added', (e) => added.push(e as CustomEvent));
    answerAdd(100, cartWith(4, 10000));
    await chooseTee('M', 'Red');
    await page.act(() => click(button()));
    await page.advance(100);
    expect(added).toHaveLength(1);
    expect(added[0]!.detail.cart.totalQuantity).toBe(4);
    expect(added[0]!.detail.entry.id).toBe('e1');
    expect(document.querySelector('.sf-pill-count')!.textContent).toBe('4');
  });

  test('ATC-14 express checkout posts with express=true and navigates to checkout', async () => {
    await teePage({}, { store: { expressCheckout: true } });
    page.fetch.on('POST', '/api/commerce/shopping-cart/entries?express=true', {
      json: { shoppingCart: { ...cartWith(1, 2500), id: 'xc9' }, newlyAdded: {} },
    });
    await chooseTee('M', 'Red');
    await page.act(() => click(button()));
    await page.advance(0);
    expect(page.fetch.callsTo('/api/commerce/shopping-cart/entries?express=true', 'POST')).toHaveLength(1);
    expect(page.navigate).toHaveBeenCalledWith('/checkout?cartToken=xc9');
    expect(label()).not.toBe('Added!');
  });

  test('ATC-14 express checkout failure uses the purchase title', async () => {
    await teePage({}, { store: { expressCheckout: true } });
    page.fetch.on('POST', '/api/commerce/shopping-cart/entries', { status: 500, json: { error: 'boom' } });
    await chooseTee('M', 'Red');
    await page.act(() => click(button()));
    await page.advance(0);
    expect(alertText()).toEqual({ title: 'Unable to Purchase Item', message: 'boom' });
    expect(page.navigate).not.toHaveBeenCalled();
  });

  test('ATC-15 a custom label survives a full cycle', async () => {
    await teePage({ useCustomAddButtonText: true, customAddButtonText: 'Buy now' });
    expect(label()).toBe('Buy now');
    answerAdd(0);
    await chooseTee('M', 'Red');
    await page.act(() => click(button()));
    await page.advance(1000);
    expect(label()).toBe('Added!');
    await page.advance(2000);
    expect(label()).toBe('Buy now');
  });

  test('ATC-16 a one-variant product sends the sku from sf-context.products', async () => {
    const item = product({ variants: [variant('ONE-1', {})] });
    page = createPage({ body: productPage(item), context: { products: contextProducts(item) } });
    await page.boot();
    expect(document.querySelector('.product-variants')).toBeNull();
    answerAdd(0);
    await page.act(() => click(button()));
    expect(JSON.parse(entriesPosts()[0]!.body!).sku).toBe('ONE-1');
  });

  test.each(['Enter', ' '])('ATC-17 key %j on the focused button starts the flow', async (key) => {
    await teePage();
    answerAdd(0);
    await chooseTee('M', 'Red');
    button().focus();
    expect(document.activeElement).toBe(button());
    await page.act(() => press(button(), key));
    expect(label()).toBe('Adding…');
    expect(entriesPosts()).toHaveLength(1);
  });

  // Issue 16: a sold-out variant or product does not keep an active Add To Cart.
  test('the button reads Sold Out and aria-disabled while a sold-out variant is chosen', async () => {
    await teePage();
    expect(label()).toBe('Add To Cart');
    expect(button().hasAttribute('aria-disabled')).toBe(false);
    await chooseTee('S', 'Red');
    expect(label()).toBe('Sold Out');
    expect(button().getAttribute('aria-disabled')).toBe('true');
    expect(button().getAttribute('data-state')).toBe('sold-out');
    await page.act(() => click(button()));
    expect(alertText()?.message).toBe('Sorry, we do not have enough of that item available.');
    expect(entriesPosts()).toHaveLength(0);
    await chooseTee('M', 'Red');
    expect(label()).toBe('Add To Cart');
    expect(button().hasAttribute('aria-disabled')).toBe(false);
    expect(page.recoverableErrors).toEqual([]);
  });

  test('a product with no variant in stock reads sold out from the start, in its custom text', async () => {
    const item = { ...product({ variants: [variant('ONE', {}, { qtyInStock: 0 })] }), customSoldOutText: 'Back soon' };
    page = createPage({ body: productPage(item), context: { products: contextProducts(item) } });
    await page.boot();
    expect(page.recoverableErrors).toEqual([]);
    expect(label()).toBe('Back soon');
    expect(button().getAttribute('aria-disabled')).toBe('true');
  });
});
