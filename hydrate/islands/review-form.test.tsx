// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { createPage, typeInto, type Page } from '../test-support/page.ts';
import { REVIEW_FIELD_TEXT, REVIEW_THANKS, reviewErrors, reviewFormHtml } from '../shared/review-rules.ts';
import { REVIEWS_PATH } from './review-form.tsx';

let page: Page;
beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  page?.cleanup();
  vi.useRealTimers();
});

const HTML = `<div data-island="review-form">${reviewFormHtml('tee')}</div>`;
const form = () => document.querySelector<HTMLFormElement>('.sf-review-form')!;
const describedBy = (el: Element) => document.getElementById(el.getAttribute('aria-describedby') ?? '')?.textContent ?? null;

async function submit(fill: { rating?: string; name?: string; text?: string }) {
  await page.act(() => {
    if (fill.rating) form().querySelector<HTMLInputElement>(`input[name="rating"][value="${fill.rating}"]`)!.click();
    if (fill.name !== undefined) typeInto(form().querySelector('input[name="name"]')!, fill.name);
    if (fill.text !== undefined) typeInto(form().querySelector('textarea[name="text"]')!, fill.text);
  });
  await page.act(() => form().requestSubmit());
  await page.advance(0);
}

describe('review form (209)', () => {
  test('the button is written disabled (nothing goes as a GET before the island) and enabled once hydrated, with no mismatch', async () => {
    page = createPage({ body: HTML });
    const button = () => form().querySelector<HTMLButtonElement>('.sf-review-submit')!;
    expect(button().disabled).toBe(true);
    await page.boot();
    await page.advance(0);
    expect(page.recoverableErrors).toEqual([]);
    expect(page.consoleErrors).toEqual([]);
    expect(button().disabled).toBe(false);
  });

  test('an empty send says each error next to its field, focuses the rating and sends nothing', async () => {
    page = createPage({ body: HTML });
    await page.boot();
    await submit({});
    expect(describedBy(form().querySelector('fieldset')!)).toBe(REVIEW_FIELD_TEXT.rating);
    expect(describedBy(form().querySelector('input[name="name"]')!)).toBe(REVIEW_FIELD_TEXT.name);
    expect(form().querySelector('textarea')!.getAttribute('aria-invalid')).toBe('true');
    expect((document.activeElement as HTMLInputElement).name).toBe('rating');
    expect(page.fetch.callsTo(REVIEWS_PATH, 'POST')).toHaveLength(0);
  });

  test('an empty send says that 3 fields need attention; each field put right loses its error as it is typed, quietly', async () => {
    page = createPage({ body: HTML });
    await page.boot();
    const said = () => document.querySelector('body > .sf-announcer')?.textContent ?? null;
    await submit({});
    expect(said()).toBe('3 fields need attention.');
    const name = form().querySelector<HTMLInputElement>('input[name="name"]')!;
    await page.act(() => typeInto(name, 'Ada'));
    expect(name.hasAttribute('aria-invalid')).toBe(false);
    expect(describedBy(name)).toBeNull();
    expect(form().querySelector('textarea')!.getAttribute('aria-invalid')).toBe('true');
    expect(said()).toBe('');
    // Sent again with focus still in the rating (it does not move, so its error is said too).
    await submit({});
    expect((document.activeElement as HTMLInputElement).name).toBe('rating');
    expect(said()).toBe('Choose a rating from 1 to 5. 2 fields need attention.');
  });

  test("a valid review is sent; the server's field errors land next to their fields; success shows the thank-you", async () => {
    page = createPage({ body: HTML });
    await page.boot();
    // The first send is refused on a field, the second accepted.
    page.fetch.on('POST', REVIEWS_PATH, () =>
      page.fetch.callsTo(REVIEWS_PATH, 'POST').length === 1
        ? { status: 400, json: { error: 'The review has errors.', code: 'REVIEW_INVALID', errors: { text: REVIEW_FIELD_TEXT.textLong } } }
        : { json: { review: { id: 'rv1', status: 'pending' } } },
    );
    await submit({ rating: '4', name: 'Ada', text: 'Fine' });
    expect(describedBy(form().querySelector('textarea')!)).toBe(REVIEW_FIELD_TEXT.textLong);
    await submit({});
    const calls = page.fetch.callsTo(REVIEWS_PATH, 'POST');
    expect(calls).toHaveLength(2);
    expect(JSON.parse(String(calls[1]!.body))).toEqual({ productId: 'tee', rating: 4, name: 'Ada', text: 'Fine' });
    expect(form().hidden).toBe(true);
    const thanks = document.querySelector<HTMLElement>('.sf-review-thanks')!;
    expect(thanks.hidden).toBe(false);
    expect(thanks.textContent).toContain(REVIEW_THANKS);
    expect(document.activeElement).toBe(thanks);
  });

  test('reviewErrors: the same rules as the server (a digit string is a rating; blank and long texts are not)', () => {
    expect(reviewErrors({ rating: '3', name: 'A', text: 'B' })).toEqual({});
    expect(reviewErrors({ rating: 0, name: 'A'.repeat(101), text: ' ' })).toEqual({ rating: REVIEW_FIELD_TEXT.rating, name: REVIEW_FIELD_TEXT.nameLong, text: REVIEW_FIELD_TEXT.text });
  });
});
