import { orderReceiptMail } from '../../mail/order-receipt.ts';
import { restockNoticeMail } from '../../mail/restock-notice.ts';
import { commerceRules } from '../../orders/checkout.ts';
import type { OrderItem, PlacedOrder, Product } from '../../store/types.ts';
import { ownerSession } from '../../admin/owner-auth.ts';
import { NotFound } from '../page-context.ts';
import { PAGE_TYPE } from '../page-type-numbers.ts';
import { loadEntryPage } from './content.ts';
import { contentFilePage } from './page-kind.ts';

// C1 301: the commerce emails as the outbox sends them, rendered by the very functions the
// order placement and the restock send call, for a sample order of the site's own products
// (made up: no stored order or address is ever shown). It is the owner's page, never public:
// without a signed-in owner (the admin's session cookie) it is not found.

/** A made-up order of up to two of the site's physical products, as checkout would store it. */
export function sampleOrder(products: readonly Product[], websiteId: string, currency: string, now: number): PlacedOrder {
  const items: OrderItem[] = products
    .filter((product) => product.productType === 1 && product.variants.length > 0)
    .slice(0, 2)
    .map((product, index) => {
      const variant = product.variants[0]!;
      const unitPrice = variant.onSale ? variant.salePriceCents : variant.priceCents;
      const quantity = index + 1;
      return {
        sku: variant.sku,
        productName: product.title,
        quantity,
        unitPrice,
        itemId: product.id,
        variantId: variant.id,
        productType: product.productType,
        variantLabel: Object.values(variant.attributes).join(' / '),
        lineTotal: unitPrice * quantity,
      };
    });
  const subtotal = items.reduce((sum, item) => sum + item.lineTotal, 0);
  const shippingTotal = 500;
  return {
    id: 'sample-order',
    orderNumber: 1001,
    purchasedCartId: null,
    testMode: true,
    websiteId,
    email: 'customer@example.com',
    status: 'paid',
    createdOn: now,
    currency,
    items,
    subtotal,
    discountTotal: 0,
    grandTotal: subtotal + shippingTotal,
    shippingTotal,
    taxTotal: 0,
    shippingAddress: { firstName: 'Sam', lastName: 'Sample', line1: '1 Example Street', city: 'Providence', region: 'RI', postalCode: '02906', country: 'US' },
    shippingOptionName: 'Standard',
    couponCodes: [],
    payment: { provider: 'test', reference: 'sample', label: 'Test card' },
    giftCardCodes: [],
    subscription: null,
    restockedOn: null,
    extra: { currency },
  };
}

export const emailPreviewPage = contentFilePage({
  name: 'commerce email preview',
  pageType: PAGE_TYPE.commerceEmailPreview,
  template: 'commerce-email-preview',
  listed: false,
  context: ['page', 'emails'],
  async load({ job, route, ctx }) {
    if (!(await ownerSession(job.deps, job.request))) throw new NotFound();
    const resolved = await loadEntryPage(job, route.entry, ctx);
    const products = await job.listProducts();
    const receipt = orderReceiptMail(sampleOrder(products, job.row.websiteId, job.currency, job.deps.now()), {
      title: commerceRules(job.row).storeName ?? null,
      url: `${job.request.protocol}://${job.request.host}`,
    });
    const restocked = products.find((product) => product.restockEnabled) ?? products[0];
    // Worded as a send words it (api/routes/restock-routes.ts): the variant and the product's page.
    const slug = restocked?.collectionId ? job.collectionSlugs().get(restocked.collectionId) : undefined;
    const restock = restockNoticeMail(restocked?.title ?? 'Your product', {
      variantLabel: Object.values(restocked?.variants[0]?.attributes ?? {}).join(' / '),
      productUrl: restocked ? `${job.request.protocol}://${job.request.host}${slug ? `/${slug}` : ''}/${restocked.urlSlug}` : null,
      shop: job.site.config.title,
    });
    ctx.emails = [
      { id: 'order-receipt', name: 'Order receipt', subject: receipt.subject, text: receipt.text, html: receipt.html },
      { id: 'restock-notice', name: 'Restock notice', subject: restock.subject, text: restock.body, html: '' },
    ];
    return resolved;
  },
});
