import { reviewFormHtml } from '../../../hydrate/shared/review-rules.ts';
import type { ProductReview } from '../../store/review-repository.ts';
import { escapeHtml } from '../html.ts';
import { PAGE_TYPE } from '../page-type-numbers.ts';
import { loadEntryPage } from './content.ts';
import { contentFilePage } from './page-kind.ts';
import { productOfQuery } from './product-query.ts';

/**
 * C1 209: the page a review request mail links to with `?productId=`: the product bought, its
 * rating so far and the way to its reviews, the review form (the review-form island, POST
 * /api/commerce/reviews) and the reviews an owner approved. A new review is stored pending
 * moderation: the island shows it as sent, marked so; the list here holds approved ones only.
 * Without a known product it is the page alone.
 */
const APPROVED_SHOWN = 20;

function reviewsHtml(reviews: readonly ProductReview[]): string {
  if (reviews.length === 0) return '';
  const items = reviews
    .map((review) => `<li class="sf-review"><p class="sf-review-stars">${review.rating} out of 5</p><p>${escapeHtml(review.text)}</p><footer>${escapeHtml(review.name)}</footer></li>`)
    .join('');
  return `<section class="sf-reviews" aria-labelledby="sf-reviews-title"><h2 id="sf-reviews-title">Reviews</h2><ul>${items}</ul></section>`;
}

export const reviewsRequestPage = contentFilePage({
  name: 'reviews request',
  pageType: PAGE_TYPE.reviewsRequest,
  template: 'reviews-request',
  listed: false,
  context: ['page', 'item', 'reviewRequest'],
  async load({ job, route, ctx, query }) {
    const resolved = await loadEntryPage(job, route.entry, ctx);
    const product = await productOfQuery(job, query);
    if (!product) {
      ctx.reviewRequest = null;
      return resolved;
    }
    const item = job.use(job.view(product, await job.viewOptions(true, [product])));
    // The rating so far counts the catalogue's reviews and those an owner approved.
    const reviews = Array.isArray(product.extra.reviews) ? product.extra.reviews : [];
    const ratings = reviews.map((review) => Number((review as { rating?: unknown })?.rating)).filter((rating) => Number.isFinite(rating) && rating >= 0 && rating <= 5);
    const approved = await job.reads.approvedRatings(job.row.websiteId, product.id);
    const count = ratings.length + approved.count;
    const average = count ? (ratings.reduce((sum, rating) => sum + rating, 0) + approved.sum) / count : null;
    ctx.item = item;
    ctx.reviewRequest = {
      title: product.title,
      productUrl: item.fullUrl,
      reviewCount: count,
      averageText: average === null ? '' : average.toFixed(1),
      formHtml: `<div class="sf-review-form-island" data-island="review-form">${reviewFormHtml(product.id)}</div>`,
      reviewsHtml: reviewsHtml(await job.reads.listApprovedReviews(job.row.websiteId, product.id, APPROVED_SHOWN)),
    };
    resolved.itemId = product.id;
    return resolved;
  },
});
