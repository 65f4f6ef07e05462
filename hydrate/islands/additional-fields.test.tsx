// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { addToCartBtn } from '../test-support/formatter-markup.ts';
import { alertText, choose, click, createPage, press, typeInto, type Page } from '../test-support/page.ts';
import { cartWith, contextProducts, product, productPage, teeProduct, variant } from '../test-support/products.ts';
import type { FormField } from '../runtime/form-fields.ts';

let page: Page;
beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  page?.cleanup();
  vi.useRealTimers();
});

const textField: FormField = { id: 'f1', type: 'text', title: 'Engraving', required: true };

function formProduct(fields: FormField[] = [textField], extra: Record<string, unknown> = {}) {
  return teeProduct({ additionalFieldsFormId: 'form-1', additionalFieldsForm: { id: 'form-1', name: 'Personalize', fields }, ...extra });
}

async function open(item = formProduct(), opts: { cart?: ReturnType<typeof cartWith>; stock?: Record<string, unknown> } = {}) {
  page = createPage({ body: productPage(item), context: { products: contextProducts(item) }, cookies: opts.cart ? { hasCart: 'true' } : {} });
  if (opts.cart) page.fetch.on('GET', '/api/commerce/shopping-cart', { json: opts.cart });
  page.fetch.on('GET', '/api/commerce/inventory/stock/', {
    json: { results: [{ itemId: 'p1', variantId: 'v-SQ-1', sku: 'SQ-1', unlimited: false, qtyInStock: 5, ...opts.stock }] },
  });
  await page.boot();
  await page.advance(0);
  await page.act(() => {
    choose(document.querySelector('select[data-variant-option-name="Size"]')!, 'M');
    choose(document.querySelector('select[data-variant-option-name="Color"]')!, 'Red');
  });
}

const button = () => document.querySelector<HTMLElement>('.sqs-add-to-cart-button')!;
const lightbox = () => document.querySelector<HTMLElement>('.sf-lightbox');
const submitButton = () => document.querySelector<HTMLButtonElement>('.sf-af-submit')!;
const field = (id: string) => document.querySelector<HTMLElement>(`.sf-lightbox .sf-field[data-field-id="${id}"]`)!;

async function openLightbox() {
  await page.act(() => click(button()));
  await page.advance(0);
  expect(lightbox()).not.toBeNull();
}
async function submitLightbox() {
  await page.act(() => submitButton().form!.requestSubmit());
}

describe('A6 additional-fields form', () => {
  test('AF-1 one schema fetch for two form buttons; none without forms', async () => {
    const a = formProduct();
    const b = { ...formProduct(), id: 'p2' };
    const c = product({ id: 'p3', variants: [variant('X', {})] });
    page = createPage({ body: addToCartBtn(a) + addToCartBtn(b) + addToCartBtn(c), context: { products: contextProducts(a, b, c) } });
    await page.boot();
    expect(page.fetch.callsTo('/api/template/GetTemplateSchema?type=form', 'GET')).toHaveLength(1);
    page.cleanup();
    page = createPage({ body: addToCartBtn(c), context: { products: contextProducts(c) } });
    await page.boot();
    expect(page.fetch.callsTo('/api/template/GetTemplateSchema')).toHaveLength(0);
  });

  test('AF-2 the stock GET comes first and the lightbox waits for it', async () => {
    await open();
    page.fetch.routes.unshift((call) =>
      call.path.startsWith('/api/commerce/inventory/stock/')
        ? { json: { results: [{ sku: 'SQ-1', unlimited: false, qtyInStock: 5 }] }, delayMs: 300 }
        : undefined,
    );
    const before = page.fetch.calls.length;
    await page.act(() => click(button()));
    await page.advance(0);
    expect(page.fetch.calls[before]!.path).toBe('/api/commerce/inventory/stock/?itemId=p1');
    expect(lightbox()).toBeNull();
    await page.advance(300);
    expect(lightbox()).not.toBeNull();
  });

  test('AF-3 stock already in the cart blocks the lightbox', async () => {
    const inCart = (quantity: number) => cartWith(quantity, 100, [{ id: 'e1', itemId: 'p1', quantity, chosenVariant: { sku: 'SQ-1' } }]);
    await open(formProduct(), { cart: inCart(2), stock: { qtyInStock: 2 } });
    await page.act(() => click(button()));
    await page.advance(0);
    expect(alertText()).toEqual({ title: 'Unable to Add Item', message: 'Sorry, we do not have enough of that item available.' });
    expect(lightbox()).toBeNull();
    page.cleanup();
    await open(formProduct(), { cart: inCart(1), stock: { qtyInStock: 2 } });
    await openLightbox();
  });

  test('AF-4 unlimited stock always opens', async () => {
    await open(formProduct(), { cart: cartWith(50, 100, [{ id: 'e1', itemId: 'p1', quantity: 50, chosenVariant: { sku: 'SQ-1' } }]), stock: { unlimited: true, qtyInStock: 0 } });
    await openLightbox();
  });

  test('AF-5 an empty required text field shows Required above its title', async () => {
    await open();
    await openLightbox();
    const before = page.fetch.calls.length;
    await submitLightbox();
    const error = field('f1').querySelector('.field-error')!;
    expect(error.textContent).toBe('Required');
    expect(error.nextElementSibling!.classList.contains('title')).toBe(true);
    expect(page.fetch.calls.length).toBe(before);
    expect(submitButton().textContent).toBe('Submit');
  });

  test('AF-6 required checkbox, radio and select show Required; likert and section do not', async () => {
    await open(
      formProduct([
        { id: 'c', type: 'checkbox', title: 'C', required: true, options: ['A', 'B'] },
        { id: 'r', type: 'radio', title: 'R', required: true, options: ['A', 'B'] },
        { id: 's', type: 'select', title: 'S', required: true, options: ['A', 'B'] },
        { id: 'l', type: 'likert', title: 'L', required: true, questions: ['Q1'] },
        { id: 'x', type: 'section', title: 'X', required: true },
      ]),
    );
    await openLightbox();
    await submitLightbox();
    for (const id of ['c', 'r', 's']) expect(field(id).querySelector('.field-error')?.textContent).toBe('Required');
    for (const id of ['l', 'x']) expect(field(id).querySelector('.field-error')).toBeNull();
    // The empty option the rule reads is a prompt, not a blank box (designed: `Select {title}`).
    const empty = field('s').querySelector('option')!;
    expect([empty.value, empty.textContent]).toEqual(['', 'Select S']);
  });

  test('AF-6b errors take focus to the first wrong field, the dialog says how many, and a corrected field lets the count go', async () => {
    await open(
      formProduct([
        { id: 'sec', type: 'section', title: 'About' },
        { id: 'n', type: 'name', title: 'Name', required: true },
        { id: 'e', type: 'text', title: 'Engraving', required: true },
        { id: 'opt', type: 'text', title: 'Note' },
      ]),
    );
    await openLightbox();
    await submitLightbox();
    const first = field('n').querySelector('input')!;
    expect(document.activeElement).toBe(first);
    expect(first.getAttribute('aria-invalid')).toBe('true');
    // The dialog's own region: a screen reader leaves the page behind an aria-modal dialog unread.
    const region = lightbox()!.querySelector('.sf-announcer')!;
    expect(region.getAttribute('role')).toBe('status');
    expect(region.textContent).toBe('2 fields need attention.');
    await page.act(() => typeInto(field('e').querySelector('input')!, 'For Sam'));
    expect(field('e').querySelector('.field-error')).toBeNull();
    expect(region.textContent).toBe('');
    expect(field('n').querySelector('.field-error')?.textContent).toBe('Required');
  });

  test('AF-6c one wrong field: focus reads its error, no count is said; the server\'s field errors take focus the same way', async () => {
    await open(formProduct([textField, { id: 'f2', type: 'text', title: 'Gift note' }]));
    page.fetch.on('POST', '/api/rest/forms/validate/form-1', { status: 400, json: { errors: { f2: 'Too long', f9: 'Not a field here' } } });
    await openLightbox();
    await submitLightbox();
    expect(document.activeElement).toBe(field('f1').querySelector('input'));
    expect(lightbox()!.querySelector('.sf-announcer')!.textContent).toBe('');
    await page.act(() => typeInto(field('f1').querySelector('input')!, 'Hi'));
    await submitLightbox();
    await page.advance(0);
    expect(field('f2').querySelector('.field-error')?.textContent).toBe('Too long');
    expect(document.activeElement).toBe(field('f2').querySelector('input'));
  });

  test('AF-7, AF-8, AF-10 valid submit: Saving…, validate body, then the add with the values', async () => {
    await open(
      formProduct([
        { id: 'ph', type: 'phone', title: 'Phone', showCountryCode: false },
        { id: 'sec', type: 'section', title: 'About' },
      ]),
    );
    page.fetch.on('POST', '/api/rest/forms/validate/form-1', { json: {}, delayMs: 100 });
    page.fetch.on('POST', '/api/commerce/shopping-cart/entries', { json: { shoppingCart: cartWith(1, 2500), newlyAdded: { id: 'e1' } } });
    await openLightbox();
    const inputs = field('ph').querySelectorAll('input');
    await page.act(() => ['555', '123', '4567'].forEach((v, i) => typeInto(inputs[i] as HTMLInputElement, v)));
    await submitLightbox();
    expect(submitButton().textContent).toBe('Saving…');
    expect(submitButton().disabled).toBe(true);
    const validate = page.fetch.callsTo('/api/rest/forms/validate/form-1')[0]!;
    expect(validate.json).toEqual({ ph: ['', '555', '123', '4567'] });
    await page.advance(100);
    expect(lightbox()).toBeNull();
    expect(document.querySelector('.sqs-add-to-cart-button-inner')!.textContent).toBe('Adding…');
    const post = page.fetch.callsTo('/api/commerce/shopping-cart/entries', 'POST')[0]!;
    expect((post.json as { additionalFields: string }).additionalFields).toBe(JSON.stringify({ ph: ['', '555', '123', '4567'] }));
    await page.advance(999);
    expect(document.querySelector('.sqs-add-to-cart-button-inner')!.textContent).toBe('Adding…');
    await page.advance(1);
    expect(document.querySelector('.sqs-add-to-cart-button-inner')!.textContent).toBe('Added!');
  });

  test('AF-9 server field errors show above the field and re-enable Submit', async () => {
    await open(formProduct([{ id: 'f1', type: 'text', title: 'Engraving' }]));
    page.fetch.on('POST', '/api/rest/forms/validate/form-1', { status: 400, json: { errors: { f1: 'Please enter a shorter value.' } } });
    await openLightbox();
    await submitLightbox();
    await page.advance(0);
    const error = field('f1').querySelector('.field-error')!;
    expect(error.textContent).toBe('Please enter a shorter value.');
    expect(error.nextElementSibling!.classList.contains('title')).toBe(true);
    expect(submitButton().textContent).toBe('Submit');
    expect(submitButton().disabled).toBe(false);
  });

  test('field errors describe their controls, which are marked invalid; the page is held still while the lightbox is open', async () => {
    await open(
      formProduct([
        { id: 't', type: 'text', title: 'T', required: true },
        { id: 'r', type: 'radio', title: 'R', required: true, options: ['A', 'B'] },
      ]),
    );
    await openLightbox();
    expect(document.documentElement.classList.contains('sf-dialog-open')).toBe(true);
    await submitLightbox();
    for (const id of ['t', 'r']) {
      const controls = [...field(id).querySelectorAll('input')];
      expect(controls.length).toBeGreaterThan(0);
      for (const control of controls) {
        expect(control.getAttribute('aria-invalid')).toBe('true');
        expect(document.getElementById(control.getAttribute('aria-describedby')!)!.textContent).toBe('Required');
      }
    }
    await page.act(() => press(document.body, 'Escape'));
    await page.advance(0);
    expect(document.documentElement.classList.contains('sf-dialog-open')).toBe(false);
  });

  test('AF-11 Escape closes without a request; Enter and Space on the close control close it', async () => {
    await open();
    await openLightbox();
    const before = page.fetch.calls.length;
    await page.act(() => press(document.body, 'Escape'));
    await page.advance(0);
    expect(lightbox()).toBeNull();
    expect(page.fetch.calls.length).toBe(before);
    expect(document.activeElement).toBe(button());
    for (const key of ['Enter', ' ']) {
      await openLightbox();
      const close = document.querySelector<HTMLElement>('.sf-lightbox-close')!;
      expect(document.activeElement).toBe(close);
      await page.act(() => press(close, key));
      await page.advance(0);
      expect(lightbox()).toBeNull();
    }
  });

  test('AF-12 position from the measured height', async () => {
    for (const [height, margin] of [
      [900, '50px'],
      [300, '200px'],
    ] as const) {
      const item = formProduct();
      page?.cleanup();
      page = createPage({ body: productPage(item), context: { products: contextProducts(item) }, measure: () => ({ width: 500, height }) });
      Object.defineProperty(window, 'innerHeight', { value: 700, configurable: true });
      page.fetch.on('GET', '/api/commerce/inventory/stock/', { json: { results: [{ sku: 'SQ-1', unlimited: true }] } });
      await page.boot();
      await page.act(() => {
        choose(document.querySelector('select[data-variant-option-name="Size"]')!, 'M');
        choose(document.querySelector('select[data-variant-option-name="Color"]')!, 'Red');
      });
      await openLightbox();
      expect(document.querySelector<HTMLElement>('.sf-lightbox-content')!.style.marginTop).toBe(margin);
    }
  });

  test('AF-13 hidden fields take the query parameter, else their default', async () => {
    const hidden: FormField = { id: 'h', type: 'hidden', name: 'ref', value: 'none' };
    page = createPage({ body: '', context: {} });
    page.cleanup();
    for (const [search, expected] of [
      ['?ref=ad1', 'ad1'],
      ['', 'none'],
    ] as const) {
      window.history.replaceState(null, '', `/shop/tee${search}`);
      await open(formProduct([hidden]));
      page.fetch.on('POST', '/api/rest/forms/validate/form-1', { json: {} });
      await openLightbox();
      await submitLightbox();
      expect(page.fetch.callsTo('/api/rest/forms/validate/form-1')[0]!.json).toEqual({ h: expected });
      page.cleanup();
    }
    window.history.replaceState(null, '', '/');
  });

  test('AF-14 likert collects answered questions only', async () => {
    await open(formProduct([{ id: 'l', type: 'likert', title: 'L', questions: ['Q1', 'Q2'] }]));
    page.fetch.on('POST', '/api/rest/forms/validate/form-1', { json: {} });
    await openLightbox();
    await page.act(() => field('l').querySelector<HTMLInputElement>('[data-question="Q1"] input[value="Agree"]')!.click());
    await submitLightbox();
    expect(page.fetch.callsTo('/api/rest/forms/validate/form-1')[0]!.json).toEqual({ l: { Q1: 'Agree' } });
  });

  test('AF-18 typing in a field clears its error', async () => {
    await open();
    await openLightbox();
    await submitLightbox();
    expect(field('f1').querySelector('.field-error')).not.toBeNull();
    await page.act(() => typeInto(field('f1').querySelector('input')!, 'x'));
    expect(field('f1').querySelector('.field-error')).toBeNull();
  });

  test('SUB-6 a subscribable form product: stock and lightbox first, values in the subscription POST', async () => {
    await open(formProduct([{ id: 'f1', type: 'text', title: 'Note' }], { isSubscribable: true }));
    page.fetch.on('POST', '/api/rest/forms/validate/form-1', { json: {} });
    page.fetch.on('POST', '/api/3/commerce/cart/subscription', { json: { cartToken: 't' } });
    await openLightbox();
    await page.act(() => typeInto(field('f1').querySelector('input')!, 'hi'));
    await submitLightbox();
    await page.advance(0);
    const post = page.fetch.callsTo('/api/3/commerce/cart/subscription')[0]!;
    expect(post.json).toEqual({ itemId: 'p1', sku: 'SQ-1', qty: 1, additionalFields: JSON.stringify({ f1: 'hi' }) });
    expect(page.navigate).toHaveBeenCalledWith('/checkout/subscription?cartToken=t');
  });

  test('the focus stays inside the lightbox', async () => {
    await open();
    await openLightbox();
    const close = document.querySelector<HTMLElement>('.sf-lightbox-close')!;
    await page.act(() => press(close, 'Tab', { shiftKey: true }));
    expect(document.activeElement).toBe(submitButton());
    await page.act(() => press(submitButton(), 'Tab'));
    expect(document.activeElement).toBe(close);
  });
});

describe('A6 edit flow on the cart page', () => {
  const forms = { 'form-1': { id: 'form-1', name: 'Personalize', fields: [{ id: 'f1', type: 'text', title: 'Engraving', required: true }] } };
  const row = (formId = 'form-1') =>
    `<div class="sf-cart-entry" data-entry-id="e1" data-item-id="p1" data-sku="SQ-1" data-form-id="${formId}"><a href="#" class="sf-entry-edit-form">Edit</a></div>`;
  const cart = cartWith(1, 2500, [{ id: 'e1', itemId: 'p1', quantity: 1, chosenVariant: { sku: 'SQ-1' }, additionalFields: '{"f1":"Hello"}' }]);

  async function cartPage(formsJson = JSON.stringify(forms), formId = 'form-1') {
    page = createPage({
      body: row(formId) + `<script type="application/json" data-cart-forms>${formsJson}</script>`,
      context: { pageType: 200 },
      cookies: { hasCart: 'true' },
    });
    page.fetch.on('GET', '/api/commerce/shopping-cart', { json: cart });
    await page.boot();
    await page.advance(0);
  }
  const recalc: string[] = [];
  const onStart = () => recalc.push('start');
  const onEnd = () => recalc.push('end');
  beforeEach(() => {
    recalc.length = 0;
    window.addEventListener('sf:cart-recalc-start', onStart);
    window.addEventListener('sf:cart-recalc-end', onEnd);
  });
  afterEach(() => {
    window.removeEventListener('sf:cart-recalc-start', onStart);
    window.removeEventListener('sf:cart-recalc-end', onEnd);
  });

  test('AF-15 saved values fill the form; a valid submit PUTs and closes', async () => {
    await cartPage();
    page.fetch.on('POST', '/api/rest/forms/validate/form-1', { json: {} });
    page.fetch.on('PUT', '/api/commerce/shopping-cart/entries/e1/additionalFields', { json: { shoppingCart: cart, updatedEntry: {} } });
    await page.act(() => document.querySelector<HTMLElement>('.sf-entry-edit-form')!.click());
    await page.advance(0);
    const inputEl = field('f1').querySelector('input')!;
    expect(inputEl.value).toBe('Hello');
    await page.act(() => typeInto(inputEl, 'Bye'));
    await submitLightbox();
    await page.advance(0);
    const put = page.fetch.callsTo('/api/commerce/shopping-cart/entries/e1/additionalFields', 'PUT')[0]!;
    expect(put.json).toEqual({ itemId: 'p1', sku: 'SQ-1', additionalFields: '{"f1":"Bye"}' });
    expect(recalc).toEqual(['start', 'end']);
    expect(lightbox()).toBeNull();
  });

  test('AF-16 a failed PUT ends the recalc and alerts', async () => {
    await cartPage();
    page.fetch.on('POST', '/api/rest/forms/validate/form-1', { json: {} });
    page.fetch.on('PUT', '/api/commerce/shopping-cart/entries/e1/additionalFields', { status: 500, json: { error: 'boom' } });
    await page.act(() => document.querySelector<HTMLElement>('.sf-entry-edit-form')!.click());
    await page.advance(0);
    await submitLightbox();
    await page.advance(0);
    expect(recalc).toEqual(['start', 'end']);
    expect(alertText()).toEqual({ title: 'Unable to update form', message: 'boom' });
    expect(lightbox()).not.toBeNull();
    expect(submitButton().textContent).toBe('Submit');
  });

  test('AF-17 a missing form definition', async () => {
    await cartPage(JSON.stringify(forms), 'form-404');
    await page.act(() => document.querySelector<HTMLElement>('.sf-entry-edit-form')!.click());
    expect(alertText()).toEqual({ title: 'Unable to open form', message: 'Unable to open form' });
    page.cleanup();
    await cartPage('{broken');
    await page.act(() => document.querySelector<HTMLElement>('.sf-entry-edit-form')!.click());
    expect(alertText()?.title).toBe('Unable to open form');
  });
});
