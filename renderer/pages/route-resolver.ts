import type { ContentEntry, ContentItem, LoadedSite } from '../site/site-types.ts';

// C1 routing (designed here): URL → what to render. Pure, no I/O: the handler loads the
// data a route names. Products are matched later, against the store.

export const PAGE_TYPE = {
  collection: 1,
  page: 2,
  splash: 3,
  item: 50,
  notFound: 100,
  error: 101,
  search: 102,
  lockScreen: 103,
  popupOverlay: 104,
  protectedContent: 105,
  memberAreaDenied: 106,
  cart: 200,
  checkout: 201,
  orderConfirmed: 202,
  cartV2: 205,
  commerceEmailPreview: 301,
} as const;

/** Template names of the special page types a content file may take (C1 203–300). */
export const SPECIAL_TEMPLATE_NAMES: Readonly<Record<number, string>> = {
  203: 'donate',
  204: 'contribution-confirmed',
  206: 'subscription-confirmed',
  207: 'order-received',
  208: 'membership-confirmed',
  209: 'reviews-request',
  210: 'digital-product-composer-preview',
  211: 'order-status',
  300: 'newsletter-unsubscribe',
};

export type Route =
  | { kind: 'entry'; entry: ContentEntry }
  | { kind: 'content-item'; entry: ContentEntry; item: ContentItem }
  | { kind: 'product'; entry: ContentEntry; productSlug: string }
  | { kind: 'search' }
  | { kind: 'cart' }
  | { kind: 'checkout'; variant: 'cart' | 'subscription' | 'gift-card' }
  | { kind: 'order-confirmed'; orderId: string }
  | { kind: 'not-found' };

function decodeSegments(pathname: string): string[] | null {
  const segments: string[] = [];
  for (const raw of pathname.split('/')) {
    if (raw === '') continue;
    try {
      segments.push(decodeURIComponent(raw));
    } catch {
      return null;
    }
  }
  return segments;
}

/** The path of a request URL without its query; `//x` and other oddities resolve to not-found. */
export function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

export function resolveRoute(site: LoadedSite, pathname: string): Route {
  // A trailing slash names the same page; anything else unusual is simply not found.
  const segments = decodeSegments(pathname);
  if (segments === null || pathname.includes('//')) return { kind: 'not-found' };
  if (segments.length === 0) return site.home ? { kind: 'entry', entry: site.home } : { kind: 'not-found' };
  const [first, second, third, fourth] = segments as [string, string?, string?, string?];
  if (segments.length === 1) {
    if (first === 'search') return { kind: 'search' };
    if (first === 'cart') return { kind: 'cart' };
    if (first === 'checkout') return { kind: 'checkout', variant: 'cart' };
  }
  if (segments.length === 2 && first === 'checkout') {
    if (second === 'subscription') return { kind: 'checkout', variant: 'subscription' };
    if (second === 'gift-card') return { kind: 'checkout', variant: 'gift-card' };
    return { kind: 'not-found' };
  }
  if (segments.length === 4 && first === 'commerce' && second === 'orders' && fourth === 'confirmed' && third) {
    return { kind: 'order-confirmed', orderId: third };
  }
  const entry = site.bySlug.get(first);
  if (!entry) return { kind: 'not-found' };
  if (segments.length === 1) return { kind: 'entry', entry };
  if (segments.length !== 2 || entry.kind !== 'collection' || second === undefined) return { kind: 'not-found' };
  if (entry.collectionType === 'products') return { kind: 'product', entry, productSlug: second };
  const item = entry.items.find((candidate) => candidate.slug === second);
  return item ? { kind: 'content-item', entry, item } : { kind: 'not-found' };
}

/** Template names of the page types with a fixed template, most specific first. */
const FIXED_TEMPLATE_NAMES: Readonly<Record<number, string[]>> = {
  [PAGE_TYPE.page]: ['page'],
  [PAGE_TYPE.splash]: ['cover', 'page'],
  [PAGE_TYPE.notFound]: ['not-found'],
  [PAGE_TYPE.search]: ['search'],
  [PAGE_TYPE.lockScreen]: ['lock-screen'],
  [PAGE_TYPE.popupOverlay]: ['popup-overlay'],
  [PAGE_TYPE.protectedContent]: ['protected'],
  [PAGE_TYPE.memberAreaDenied]: ['access-denied'],
  [PAGE_TYPE.cart]: ['cart'],
  [PAGE_TYPE.cartV2]: ['cart-v2', 'cart'],
  [PAGE_TYPE.checkout]: ['checkout'],
  [PAGE_TYPE.orderConfirmed]: ['order-confirmed'],
};

/** Template names to try, most specific first, for a rendered page type. */
export function templateNames(pageType: number, entry: ContentEntry | null): string[] {
  const names: string[] = [];
  if (entry?.template && (pageType === entry.pageType || pageType === PAGE_TYPE.item)) {
    names.push(pageType === PAGE_TYPE.item ? `${entry.template}.item` : entry.template);
  }
  if (pageType === PAGE_TYPE.collection) names.push(`${entry?.collectionType ?? 'collection'}.list`, 'collection.list');
  else if (pageType === PAGE_TYPE.item) names.push(`${entry?.collectionType ?? 'collection'}.item`, 'collection.item');
  else names.push(...(FIXED_TEMPLATE_NAMES[pageType] ?? [SPECIAL_TEMPLATE_NAMES[pageType], 'page'].filter((name): name is string => !!name)));
  return names;
}
