import { describe, expect, it } from 'vitest';
import { json, useApiHarness, withCrumb } from '../../test-support/api-harness.ts';
import { REVIEW_FIELD_TEXT, reviewErrors } from '../../../hydrate/shared/review-rules.ts';

// POST /api/commerce/reviews (issue 18): a review from the reviews request page (209).

const h = useApiHarness();
const send = (payload: unknown) => h.inject(withCrumb({ method: 'POST', url: '/api/commerce/reviews', payload: payload as Record<string, unknown> }));

describe('POST /api/commerce/reviews', () => {
  it('stores a valid review pending moderation and answers it', async () => {
    const response = await send({ productId: 'p1', rating: 4, name: ' Ada ', text: ' Soft and well cut. ' });
    expect(response.statusCode, response.body).toBe(200);
    expect(json(response).review).toMatchObject({ productId: 'p1', rating: 4, name: 'Ada', text: 'Soft and well cut.', status: 'pending' });
    const stored = await h.store.read.reviews.list('w1', 'p1', 'pending', 10);
    expect(stored.map((r) => [r.rating, r.name, r.text])).toEqual([[4, 'Ada', 'Soft and well cut.']]);
    expect(await h.store.read.reviews.count('w1', 'p1', 'approved')).toBe(0);
    // The rating's digit, as a form sends it, is accepted too.
    expect((await send({ productId: 'p1', rating: '5', name: 'Bo', text: 'Great' })).statusCode).toBe(200);
  });

  it('says every wrong field by name, with the message the form shows next to it', async () => {
    const response = await send({ productId: 'p1', rating: 6, name: '  ', text: 'x'.repeat(2001) });
    expect(response.statusCode).toBe(400);
    expect(json(response)).toEqual({
      error: 'The review has errors.',
      code: 'REVIEW_INVALID',
      errors: { rating: REVIEW_FIELD_TEXT.rating, name: REVIEW_FIELD_TEXT.name, text: REVIEW_FIELD_TEXT.textLong },
    });
    expect(json(await send({ productId: 'p1' })).errors).toEqual({ rating: REVIEW_FIELD_TEXT.rating, name: REVIEW_FIELD_TEXT.name, text: REVIEW_FIELD_TEXT.text });
    expect(reviewErrors({ rating: 1.5, name: 'a'.repeat(101), text: 'ok' })).toEqual({ rating: REVIEW_FIELD_TEXT.rating, name: REVIEW_FIELD_TEXT.nameLong });
  });

  it('an unknown product is a 404; a body that is not the schema a 400; no crumb a 403; nothing stored', async () => {
    expect(json(await send({ productId: 'nope', rating: 3, name: 'A', text: 'B' })).code).toBe('PRODUCT_NOT_FOUND');
    const bad = await send({ productId: 7, rating: 3 });
    expect(bad.statusCode).toBe(400);
    expect(json(bad).code).toBe('BAD_REQUEST');
    const noCrumb = await h.inject({ method: 'POST', url: '/api/commerce/reviews', payload: { productId: 'p1', rating: 3, name: 'A', text: 'B' } });
    expect(noCrumb.statusCode).toBe(403);
    expect(await h.store.read.reviews.count('w1', 'p1', 'pending')).toBe(0);
  });

  it('is rate-limited per client: the sixth send in a minute is a 429 with Retry-After', async () => {
    const answers: number[] = [];
    for (let i = 0; i < 6; i++) answers.push((await send({ productId: 'p1', rating: 5, name: 'A', text: `Review ${i}` })).statusCode);
    expect(answers).toEqual([200, 200, 200, 200, 200, 429]);
  });
});
