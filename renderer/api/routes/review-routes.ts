import { Type } from '@sinclair/typebox';
import { requireSite } from '../context.ts';
import { ApiError } from '../errors.ts';
import { addRoute, takeRateLimit, type RouteKit } from '../route-kit.ts';

// A buyer's product review from the reviews request page (page type 209, issue 18): a rating
// of 1 to 5, a name and a text, stored pending moderation (store/review-repository.ts).

/** Limits and the messages the form shows next to its fields (hydrate/islands/review-form.tsx). */
export const REVIEW_LIMITS = { nameMax: 100, textMax: 2000 } as const;
export const REVIEW_FIELD_TEXT = {
  rating: 'Choose a rating from 1 to 5.',
  name: 'Name is required.',
  nameLong: `Name must be at most ${REVIEW_LIMITS.nameMax} characters.`,
  text: 'Review is required.',
  textLong: `Review must be at most ${REVIEW_LIMITS.textMax} characters.`,
} as const;

export const REVIEW_ERR = {
  invalid: (errors: Record<string, string>) => new ApiError(400, 'REVIEW_INVALID', 'The review has errors.', { errors }),
  productNotFound: () => new ApiError(404, 'PRODUCT_NOT_FOUND', 'No such product.'),
};

// Each field may be missing or wrong in the body: the handler says which, next to the field.
const REVIEW_BODY = Type.Object({
  productId: Type.String({ minLength: 1, maxLength: 200 }),
  rating: Type.Optional(Type.Union([Type.Integer(), Type.String({ maxLength: 10 })], { description: '1 to 5 (an integer or its digit).' })),
  name: Type.Optional(Type.String({ maxLength: 1000 })),
  text: Type.Optional(Type.String({ maxLength: 20_000 })),
});

/** The field errors of a review (empty when it is valid), in the form's order. */
export function reviewErrors(body: { rating?: unknown; name?: unknown; text?: unknown }): Record<string, string> {
  const errors: Record<string, string> = {};
  const rating = typeof body.rating === 'string' && /^[1-5]$/.test(body.rating) ? Number(body.rating) : body.rating;
  if (typeof rating !== 'number' || !Number.isInteger(rating) || rating < 1 || rating > 5) errors.rating = REVIEW_FIELD_TEXT.rating;
  const name = typeof body.name === 'string' ? body.name.trim() : '';
  if (name === '') errors.name = REVIEW_FIELD_TEXT.name;
  else if (name.length > REVIEW_LIMITS.nameMax) errors.name = REVIEW_FIELD_TEXT.nameLong;
  const text = typeof body.text === 'string' ? body.text.trim() : '';
  if (text === '') errors.text = REVIEW_FIELD_TEXT.text;
  else if (text.length > REVIEW_LIMITS.textMax) errors.text = REVIEW_FIELD_TEXT.textLong;
  return errors;
}

export function registerReviewRoutes(kit: RouteKit): void {
  const { deps } = kit;
  addRoute(kit, {
    method: 'POST',
    url: '/commerce/reviews',
    crumb: true,
    schema: { summary: 'A product review from the reviews request page (209), stored pending moderation.', body: REVIEW_BODY },
    handler: async (request) => {
      const body = request.body;
      // Counted before anything else: every send costs, valid or not (the site forms' limit).
      await takeRateLimit(deps.limiters.saveFormSubmission, request);
      const errors = reviewErrors(body);
      if (Object.keys(errors).length > 0) throw REVIEW_ERR.invalid(errors);
      const site = await requireSite(deps);
      const product = await deps.store.read.getProduct(body.productId);
      if (!product) throw REVIEW_ERR.productNotFound();
      const review = {
        id: deps.newId('rv'),
        websiteId: site.websiteId,
        productId: product.id,
        rating: Number(body.rating),
        name: body.name!.trim(),
        text: body.text!.trim(),
        status: 'pending' as const,
        createdOn: deps.now(),
      };
      await deps.store.read.reviews.add(review);
      return { review: { id: review.id, productId: review.productId, rating: review.rating, name: review.name, text: review.text, status: review.status, createdOn: new Date(review.createdOn).toISOString() } };
    },
  });
}
