import { offlineLimitId, offlineLimitText } from '../../../hydrate/shared/checkout-text.ts';
import { isLiveMainCart } from '../../api/context.ts';
import { cartView } from '../../api/cart-view.ts';
import { cartLines, commerceRules, entryFieldValues, providersOf, type OfflineOrderUnits } from '../../orders/checkout.ts';
import { providerViews } from '../../orders/payment-providers.ts';
import { confirmationUrl, offlineOrderMaxUnits, offlineOrderUnits } from '../../orders/place-order.ts';
import { priceCheckout, type PricedLine } from '../../orders/pricing.ts';
import type { Site } from '../../store/types.ts';
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
      const line: PricedLine = { itemId: product.id, sku: chosen.sku, productName: product.title, variantLabel: totalText, quantity: 1, unitPriceCents: chosen.priceCents, productType: 4 };
      ctx.checkout = {
        kind: 'gift-card',
        // The checkout island asks the API for this denomination's one-line cart (issue 15).
        itemId: product.id,
        sku: chosen.sku,
        lines: [{ title: product.title, variantText: totalText, quantity: 1, totalText, sku: chosen.sku, fieldValues: [] }],
        totalCents: chosen.priceCents,
        totalText,
        // A gift card is an unlimited variant unless the shop stocks it: counted as placing counts (stockUnits).
        ...firstView(job.row, [line], job.currency, job.deps.now(), { offlineOrderMaxUnits: offlineOrderMaxUnits(job.row), stockUnits: chosen.unlimited ? 0 : 1 }),
      };
      resolved.itemId = product.id;
      return resolved;
    }
    const token = firstString(query.cartToken);
    if (!token || token.length > 200) throw new NotFound();
    const cart = await job.deps.store.read.getCart(token);
    // The API's owner check (callerCart): a cart that belongs to a user is shown to that user
    // alone, whoever else knows its id (it was the CART cookie until the user signed in).
    // Opened with no session, it is the visitor's own checkout after they signed out (in another
    // tab; a checkout tab reloads when they come back to it, runtime/signed-in-state.ts): the cart
    // page shows the cart they have now (Sign Out leaves them a copy), where "We couldn't find
    // that page, the link may be mistyped" lied. Another account's cart stays not found.
    if (cart && cart.ownerSiteUserId !== null && !job.session) throw new PageRedirect('/cart');
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
    const fieldValues = await entryFieldValues(job.deps.store.read, cart);
    ctx.checkout = {
      kind: variant === 'subscription' ? 'subscription' : 'cart',
      cartToken: cart.id,
      lines: view.entries.map((entry, index) => ({
        title: entry.title,
        variantText: Object.values(entry.chosenVariant.attributes).join(' / '),
        quantity: entry.quantity,
        sku: entry.chosenVariant.sku,
        totalText: formatMoney(entry.subTotal, job.currency),
        fieldValues: fieldValues[index] ?? [],
      })),
      totalCents: view.grandTotalCents,
      totalText: formatMoney(view.grandTotalCents, job.currency),
      ...firstView(job.row, cartLines(cart), job.currency, now, await offlineOrderUnits(job.deps.store.read, job.row, cart)),
    };
    return resolved;
  },
});

/**
 * What the checkout island's first view of these lines will show (the API prices them the same
 * way: no address, no coupon, the first shipping option), so that the server's markup can have
 * the island's layout before the island has it: the summary's totals in their place and a
 * placeholder of each form section the island will draw (an address and shipping options only
 * for a physical line, card fields when the first provider takes cards, a choice of providers
 * when there are several). Without it the form pushed the page down when it came (CLS 0.25 on a
 * desktop, 0.42 on a phone). A cart over the shop's offline bound has the island's sentence at
 * the offline choice, the same words, id and place (hydrate/shared/checkout-text.ts), so a slow
 * phone shows it from the start and the form does not push it in.
 */
function firstView(site: Site, lines: PricedLine[], currency: string, now: number, offline: OfflineOrderUnits) {
  const totals = priceCheckout({ lines, rules: commerceRules(site), currency, shippingLocation: null, shippingOptionId: null, couponCodes: [], now });
  const providers = providersOf(site);
  const money = (cents: number) => formatMoney(cents, currency);
  const limitText = offlineLimitText(offline.offlineOrderMaxUnits, offline.stockUnits);
  // The island's offlineLimit: after an offline provider's choice, or after the hint when it is the only way to pay.
  const limitOf = (provider: { id: string; kind: 'card' | 'offline' }) => (limitText !== null && provider.kind === 'offline' ? { id: offlineLimitId(provider.id), text: limitText } : null);
  const sole = providers.length === 1 ? providers[0] : undefined;
  return {
    subtotalText: money(totals.subtotalCents),
    requiresShipping: totals.requiresShipping,
    shippingOptions: totals.shippingOptions.map((option) => ({ name: option.name, described: option.description !== undefined })),
    shippingText: totals.requiresShipping ? (totals.selectedShippingOption !== null ? money(totals.shippingCostCents) : 'Calculated from your address') : null,
    taxText: money(totals.taxCents),
    grandTotalText: money(totals.grandTotalCents),
    minimumMessage: totals.belowMinimum ? totals.minimumMessage : null,
    providerChoices: providers.length > 1 ? providerViews(providers, !totals.requiresShipping).map((view) => ({ label: view.label, offlineLimit: limitOf(view) })) : [],
    soleOfflineLimit: sole ? limitOf(sole) : null,
    payByCard: providers[0]?.kind === 'card',
    // The test provider's card fields come with a two-line hint (the test card's number).
    testCard: providers[0]?.id === 'test',
  };
}
