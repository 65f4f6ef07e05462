import type { IslandKind } from '../protocol/markers.ts';
import type { IslandDefinition } from './island.ts';

/**
 * Island kind -> lazy module. Each import() is a split point for esbuild, so a page loads
 * only the islands whose markers it contains.
 */
export const ISLAND_LOADERS: Record<IslandKind, () => Promise<IslandDefinition>> = {
  'add-to-cart': () => import('./add-to-cart.tsx').then((m) => m.addToCartIsland),
  'variants': () => import('./variants-select.tsx').then((m) => m.variantsIsland),
  'quantity': () => import('./variants-select.tsx').then((m) => m.quantityIsland),
  'restock': () => import('./restock.tsx').then((m) => m.restockIsland),
  'pill-cart': () => import('./pill-cart.tsx').then((m) => m.pillCartIsland),
  'bnpl': () => import('./bnpl.tsx').then((m) => m.bnplIsland),
  'site-form': () => import('./site-form.tsx').then((m) => m.siteFormIsland),
  'account': () => import('./account.tsx').then((m) => m.accountIsland),
  'cart-page': () => import('./cart-page.tsx').then((m) => m.cartPageIsland),
  'gallery': () => import('./gallery.tsx').then((m) => m.galleryIsland),
  'checkout': () => import('./checkout.tsx').then((m) => m.checkoutIsland),
  'review-form': () => import('./review-form.tsx').then((m) => m.reviewFormIsland),
};
