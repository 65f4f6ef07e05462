import { formatMoney } from '../money.ts';
import { NotFound } from '../page-context.ts';
import { PAGE_TYPE } from '../page-type-numbers.ts';
import { loadEntryPage } from './content.ts';
import { contentFilePage } from './page-kind.ts';
import { productOfQuery } from './product-query.ts';

/**
 * C1 210: a digital product (`?productId=`) as its buyer will meet it: title, pictures,
 * description, price and how it is delivered. A product that is not digital, or none, is not
 * found: there is nothing to preview.
 */
export const composerPreviewPage = contentFilePage({
  name: 'digital product composer preview',
  pageType: PAGE_TYPE.digitalProductComposerPreview,
  template: 'digital-product-composer-preview',
  listed: false,
  context: ['page', 'item', 'composer'],
  async load({ job, route, ctx, query }) {
    const product = await productOfQuery(job, query);
    const variant = product?.productType === 2 ? product.variants[0] : undefined;
    if (!product || !variant) throw new NotFound();
    const resolved = await loadEntryPage(job, route.entry, ctx);
    ctx.item = job.use(job.view(product, await job.viewOptions(false, [product])));
    const delivery = typeof product.extra.delivery === 'string' ? product.extra.delivery : 'A download link arrives by email as soon as the order is paid.';
    ctx.composer = {
      title: product.title,
      priceText: formatMoney(variant.onSale ? variant.salePriceCents : variant.priceCents, job.currency),
      deliveryText: delivery,
    };
    resolved.itemId = product.id;
    return resolved;
  },
});
