import { cartPage } from './cart.ts';
import { checkoutPage } from './checkout.ts';
import { composerPreviewPage } from './composer-preview.ts';
import { contentPages, type EntryRoute } from './content.ts';
import { contributionConfirmedPage, donatePage } from './donations.ts';
import { emailPreviewPage } from './email-preview.ts';
import { membershipConfirmedPage } from './membership-confirmed.ts';
import { newsletterUnsubscribePage } from './newsletter-unsubscribe.ts';
import { orderConfirmedPage } from './order-confirmed.ts';
import { orderReceivedPages, orderStatusPage } from './order-pages.ts';
import type { PageKind, RouteOf } from './page-kind.ts';
import { popupOverlayPage } from './popup-overlay.ts';
import { reviewsRequestPage } from './reviews-request.ts';
import { searchPage } from './search.ts';
import { lockScreenPage, notFoundPage } from './site-states.ts';

// The page-type table (README.md "Page types"): one entry per kind of page. A page type is
// added by writing its entry (a PageKind) and listing it here; nothing else names it.

/** Entries that own content files of a page type (`contentPageTypes`), loaded after access checks. */
const CONTENT_TYPES: readonly PageKind<EntryRoute>[] = [
  donatePage,
  contributionConfirmedPage,
  membershipConfirmedPage,
  reviewsRequestPage,
  composerPreviewPage,
  newsletterUnsubscribePage,
  emailPreviewPage,
];

const byContentPageType = new Map<number, PageKind<EntryRoute>>();
for (const kind of CONTENT_TYPES) for (const pageType of kind.contentPageTypes ?? []) byContentPageType.set(pageType, kind);

/**
 * In URL-matching order: fixed URLs first, the site's content slugs last (its matcher claims
 * every path left). Entries without `match` have no URL of their own.
 */
export const PAGE_TABLE = [
  searchPage,
  cartPage,
  checkoutPage,
  orderConfirmedPage,
  orderReceivedPages,
  orderStatusPage,
  ...CONTENT_TYPES,
  contentPages((pageType) => byContentPageType.get(pageType)),
  notFoundPage,
  lockScreenPage,
  popupOverlayPage,
] as const;

/** Every route the table's entries load. */
export type TableRoute = RouteOf<(typeof PAGE_TABLE)[number]>;

const byKind = new Map<string, PageKind>();
const templatesByType = new Map<number, readonly string[]>();
for (const kind of PAGE_TABLE as readonly PageKind[]) {
  for (const routeKind of kind.kinds) {
    // Two entries for one route kind or page type is a table bug: fail at startup, not per request.
    if (byKind.has(routeKind)) throw new Error(`page table: route kind ${routeKind} has two entries`);
    byKind.set(routeKind, kind);
  }
  for (const [pageType, names] of Object.entries(kind.templates)) {
    if (templatesByType.has(Number(pageType))) throw new Error(`page table: page type ${pageType} has two entries`);
    templatesByType.set(Number(pageType), names);
  }
}

/** The entry that loads a route kind. */
export function pageKindOf<R extends TableRoute>(route: R): PageKind<R> {
  return byKind.get(route.kind) as unknown as PageKind<R>;
}

/** Every template name of the table (`cart`, `page`, `collection.list` …), for `quire check`'s unused templates. */
export const allTableTemplateNames = (): string[] => [...templatesByType.values()].flat();

/** The table's template names of a page type, most specific first (undefined: none). */
export const tableTemplateNames = (pageType: number): readonly string[] | undefined => templatesByType.get(pageType);

const unlisted = new Set((CONTENT_TYPES as readonly PageKind[]).filter((kind) => kind.listed === false).flatMap((kind) => kind.contentPageTypes ?? []));

/** Whether content files of a page type belong in the sitemap (special landing pages do not). */
export const isListedPageType = (pageType: number): boolean => !unlisted.has(pageType);
