import { callerCart } from '../../api/context.ts';
import { cartView, emptyCartView, type ShoppingCartView } from '../../api/cart-view.ts';
import { clearCartCookies } from '../../api/cookies.ts';
import { serializeProps } from '../../../hydrate/protocol/props.ts';
import { resolvedPage, type Json, type PageJob } from '../page-context.ts';
import { minimumOrderSubtotal } from '../../orders/pricing.ts';
import { PAGE_TYPE } from '../page-type-numbers.ts';
import { cartPageView } from '../page-views.ts';
import { bnplIslandHtml } from '../product-view.ts';
import { pageKind } from './page-kind.ts';

function cartBnplHtml(job: PageJob, view: ShoppingCartView): string {
  const bnpl = job.shared.config.bnpl;
  if (!bnpl || !bnpl.afterPayAvailable || view.entries.length === 0) return '';
  return bnplIslandHtml({ context: 'cart', itemId: '', priceCents: view.subtotalCents, currency: job.currency, bnpl });
}

/** C1 types 200 and 205 (`cartVersion: 2`), `/cart`: the caller's cart, its BNPL pill and forms. */
export const cartPage = pageKind<{ kind: 'cart' }>({
  name: 'cart',
  kinds: ['cart'],
  match: (segments) => (segments.length === 1 && segments[0] === 'cart' ? { kind: 'cart' } : null),
  templates: { [PAGE_TYPE.cart]: ['cart'], [PAGE_TYPE.cartV2]: ['cart-v2', 'cart'] },
  context: ['cart', 'sf.bnpl', 'sf.cartForms'],
  async load({ job, ctx }) {
    const pageType = job.site.config.cartVersion === 2 ? PAGE_TYPE.cartV2 : PAGE_TYPE.cart;
    const found = await callerCart(job.deps, job.deps.store.read, job.request, job.session);
    if (found.staleCookie) clearCartCookies(job.request, job.reply);
    const view = found.cart ? cartView(found.cart) : emptyCartView(job.row.websiteId);
    const { cart, formsJson } = cartPageView(view, { products: await job.listProducts(), forms: await job.listForms(), slugs: job.collectionSlugs(), currency: job.currency, minimumCents: minimumOrderSubtotal(job.row.settings.commerce), multipleQuantityAllowedForServices: job.row.settings.multipleQuantityAllowedForServices });
    ctx.cart = cart;
    const sf = ctx.sf as Json;
    sf.bnpl = cartBnplHtml(job, view);
    const formsText = serializeProps(formsJson);
    sf.cartForms = Object.keys(formsJson).length && formsText.ok ? `<script type="application/json" data-cart-forms>${formsText.text}</script>` : '';
    return resolvedPage(job, pageType, null, 'Shopping Cart');
  },
});
