import { PAGE_TYPE } from '../page-type-numbers.ts';
import { loadEntryPage } from './content.ts';
import { contentFilePage } from './page-kind.ts';
import { productOfQuery } from './product-query.ts';

/**
 * C1 209: the page a review request mail links to with `?productId=`: the product bought, its
 * rating so far and the way to its reviews. Without a known product it is the page alone.
 */
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
    const reviews = Array.isArray(product.extra.reviews) ? product.extra.reviews : [];
    const ratings = reviews.map((review) => Number((review as { rating?: unknown })?.rating)).filter((rating) => Number.isFinite(rating) && rating >= 0 && rating <= 5);
    const average = ratings.length ? ratings.reduce((sum, rating) => sum + rating, 0) / ratings.length : null;
    ctx.item = item;
    ctx.reviewRequest = {
      title: product.title,
      productUrl: item.fullUrl,
      reviewCount: ratings.length,
      averageText: average === null ? '' : average.toFixed(1),
    };
    resolved.itemId = product.id;
    return resolved;
  },
});
