import { isLiveMainCart } from '../../api/context.ts';
import { cartView } from '../../api/cart-view.ts';
import { confirmationUrl } from '../../orders/place-order.ts';
import { formatMoney } from '../money.ts';
import { firstString, NotFound, resolvedPage } from '../page-context.ts';
import { PAGE_TYPE } from '../page-type-numbers.ts';
import { pageKind, PageRedirect } from './page-kind.ts';

type CheckoutRoute = { kind: 'checkout'; variant: 'cart' | 'subscription' | 'gift-card' };

/**
 * C1 type 201: `/checkout?cartToken=` (a live main or express cart), `/checkout/subscription`
 * (a subscription cart) and `/checkout/gift-card?itemId=&sku=` (one gift card variant).
 * A cart already bought redirects (303) to its order's confirmation page.
 */
export const checkoutPage = pageKind<CheckoutRoute>({
  name: 'checkout',
  kinds: ['checkout'],
  match: (segments) => {
    if (segments[0] !== 'checkout') return null;
    if (segments.length === 1) return { kind: 'checkout', variant: 'cart' };
    if (segments.length !== 2) return null;
    if (segments[1] === 'subscription') return { kind: 'checkout', variant: 'subscription' };
    if (segments[1] === 'gift-card') return { kind: 'checkout', variant: 'gift-card' };
    return { kind: 'not-found' };
  },
  templates: { [PAGE_TYPE.checkout]: ['checkout'] },
  context: ['checkout', 'item'],
  async load({ job, route, ctx, query }) {
    const variant = route.variant;
    const resolved = resolvedPage(job, PAGE_TYPE.checkout, null, 'Checkout');
    if (variant === 'gift-card') {
      const itemId = firstString(query.itemId);
      const sku = firstString(query.sku);
      if (!itemId || !sku || itemId.length > 200) throw new NotFound();
      const product = await job.reads.getProduct(itemId);
      const chosen = product?.productType === 4 ? product.variants.find((candidate) => candidate.sku === sku) : undefined;
      if (!product || !chosen) throw new NotFound();
      ctx.item = job.use(job.view(product, await job.viewOptions(false, [product])));
      const totalText = formatMoney(chosen.priceCents, job.currency);
      ctx.checkout = {
        kind: 'gift-card',
        // The checkout island asks the API for this denomination's one-line cart (issue 15).
        itemId: product.id,
        sku: chosen.sku,
        lines: [{ title: product.title, variantText: totalText, quantity: 1, totalText, sku: chosen.sku }],
        totalCents: chosen.priceCents,
        totalText,
      };
      resolved.itemId = product.id;
      return resolved;
    }
    const token = firstString(query.cartToken);
    if (!token || token.length > 200) throw new NotFound();
    const cart = await job.deps.store.read.getCart(token);
    // The API's owner check (callerCart): a cart that belongs to a user is shown to that user
    // alone, whoever else knows its id (it was the CART cookie until the user signed in).
    if (cart && cart.ownerSiteUserId !== null && cart.ownerSiteUserId !== job.session?.siteUserId) throw new NotFound();
    // A bought cart's checkout (the buyer pressed Back after placing) is its order's confirmation.
    if (cart?.isPurchased && cart.orderId) {
      const order = await job.deps.store.read.orders.get(cart.orderId);
      if (order && order.websiteId === job.row.websiteId) throw new PageRedirect(confirmationUrl(order));
    }
    const now = job.deps.now();
    const usable =
      cart !== null &&
      !cart.isPurchased &&
      (cart.expiresAt === null || cart.expiresAt > now) &&
      (variant === 'subscription' ? cart.kind === 'subscription' : cart.kind === 'express' || isLiveMainCart(cart, now));
    if (!usable || !cart) throw new NotFound();
    const view = cartView(cart);
    ctx.checkout = {
      kind: variant === 'subscription' ? 'subscription' : 'cart',
      cartToken: cart.id,
      lines: view.entries.map((entry) => ({
        title: entry.title,
        variantText: Object.values(entry.chosenVariant.attributes).join(' / '),
        quantity: entry.quantity,
        sku: entry.chosenVariant.sku,
        totalText: formatMoney(entry.subTotal, job.currency),
      })),
      totalCents: view.grandTotalCents,
      totalText: formatMoney(view.grandTotalCents, job.currency),
    };
    return resolved;
  },
});
