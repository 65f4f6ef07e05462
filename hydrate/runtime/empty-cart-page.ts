/**
 * An empty cart page that follows the cart from other tabs. The server writes the cart-page
 * island's container only around entries, so a cart page first loaded empty has no island to
 * notice an entry added in another tab, and showed "nothing in your cart" until a reload. Here,
 * when the visitor comes back to the tab (it becomes visible, or its window gets focus), the
 * stored cart is read again, and once it holds entries the page is loaded again: the server
 * then writes the rows, the island and the checkout link as for any cart. No markup changes,
 * so the theme's empty message stays as it is.
 *
 * Only a return to the tab (after it was hidden or lost focus) can reload it, never the boot's
 * own read of the cart nor a focus the page gets as it opens: were the page and the cart API ever
 * to disagree, that would reload the page again and again.
 */
import { ISLAND_ATTR } from '../protocol/markers.ts';
import { cartMayExist } from './cart-store.ts';
import { env } from './env.ts';
import type { Runtime } from './runtime.ts';
import { onReturnToTab } from './tab-return.ts';

/** STOREFRONT C1: the cart page's two page types (show cart, cart v2). */
const CART_PAGE_TYPES: readonly number[] = [200, 205];

export function startEmptyCartPage(runtime: Runtime): () => void {
  const { doc, win } = runtime;
  if (!CART_PAGE_TYPES.includes(runtime.context.pageType) || doc.querySelector(`[${ISLAND_ATTR}="cart-page"]`)) return () => undefined;
  let cameBack = false;
  const onCart = () => {
    const cart = runtime.cart.cart();
    if (!cameBack || !cart || cart.entries.length === 0) return;
    stop();
    env.reload();
  };
  const unsubscribe = runtime.cart.subscribe(onCart);
  const stopReturns = onReturnToTab(doc, win, () => {
    // No cart cookie even now: no tab has made a cart, and there is nothing to ask for.
    if (!cartMayExist(doc)) return;
    cameBack = true;
    runtime.cart.load();
  });
  function stop(): void {
    unsubscribe();
    stopReturns();
  }
  return stop;
}
