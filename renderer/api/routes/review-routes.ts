import { Type } from '@sinclair/typebox';
import { liveSession, requireSite } from '../context.ts';
import { ApiError } from '../errors.ts';
import { addRoute, takeRateLimit, type RouteKit } from '../route-kit.ts';
import { reviewErrors } from '../../../hydrate/shared/review-rules.ts';
import type { SiteSource } from '../../pages/page-renderer.ts';
import { collectionOpenTo } from '../../pages/visitor.ts';

// A buyer's product review from the reviews request page (page type 209, issue 18): a rating
// of 1 to 5, a name and a text, stored pending moderation (store/review-repository.ts).

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

/**
 * `folder`: the site folder whose entries say which collections are member-only or
 * password-protected (a getter: a preview swaps folders); without one no collection is guarded.
 */
export function registerReviewRoutes(kit: RouteKit, folder?: SiteSource): void {
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
      // A product of a collection this visitor cannot open is refused as an unknown one (the
      // reviews request page's rule, pages/visitor.ts): a review of it was stored, and a 200 told
      // whoever guessed the id that the locked collection held it.
      const entries = folder ? (typeof folder === 'function' ? folder() : folder).entries : [];
      const visitor = { request, deps, websiteId: site.websiteId, signedIn: async () => (await liveSession(deps, request)) !== null };
      if (!product || !(await collectionOpenTo(visitor, entries, product.collectionId))) throw REVIEW_ERR.productNotFound();
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
