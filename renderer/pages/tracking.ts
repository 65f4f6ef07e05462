import { PAGE_TYPE } from './page-type-numbers.ts';

/** A contributor of the website (admin, editor, viewer …), from the injectable resolveMember. */
export interface Member {
  roles: string[];
  inConfigArea: boolean;
}

export type SkipReason =
  | 'tracking-disabled'
  | 'logged-in-member'
  | 'not-found'
  | 'error'
  | 'search'
  | 'lock-screen'
  | 'member-area-denied'
  | 'video-paywall';

export interface SkipInput {
  trackingDisabled: boolean;
  member: Member | null;
  pageType: number;
  path: string;
  /** The page is paywalled and `flags.videoPaywall` is on. */
  videoPaywall: boolean;
}

/** C4: why the page view is not recorded, first match wins; null records it. */
export function skipPageView(input: SkipInput): SkipReason | null {
  if (input.trackingDisabled) return 'tracking-disabled';
  if (input.member) {
    const onlyViewer = input.member.roles.length > 0 && input.member.roles.every((role) => role === 'viewer');
    if (!onlyViewer || input.member.inConfigArea) return 'logged-in-member';
  }
  if (input.pageType === PAGE_TYPE.notFound || input.pageType === PAGE_TYPE.commerceEmailPreview) return 'not-found';
  if (input.pageType === PAGE_TYPE.error) return 'error';
  if (input.pageType === PAGE_TYPE.search || input.path === '/search') return 'search';
  if (input.pageType === PAGE_TYPE.lockScreen) return 'lock-screen';
  if (input.pageType === PAGE_TYPE.memberAreaDenied) return 'member-area-denied';
  if (input.videoPaywall) return 'video-paywall';
  return null;
}

/** A2 and C1: page types that never carry the pill cart. */
const NO_PILL = new Set<number>([
  PAGE_TYPE.error,
  PAGE_TYPE.lockScreen,
  PAGE_TYPE.protectedContent,
  PAGE_TYPE.memberAreaDenied,
  PAGE_TYPE.cart,
  PAGE_TYPE.cartV2,
  PAGE_TYPE.checkout,
  PAGE_TYPE.orderConfirmed,
]);

export function showsPillCart(pageType: number, store: { expressCheckout: boolean; customCart: boolean }): boolean {
  return !NO_PILL.has(pageType) && !store.expressCheckout && !store.customCart;
}

export { PILL_CART_HTML } from '../../hydrate/shared/island-markup.ts';
