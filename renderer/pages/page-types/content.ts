import type { ContentEntry, ContentItem, LoadedSite } from '../../site/site-types.ts';
import type { Product } from '../../store/types.ts';
import { NotFound, renderContentBlocks, resolvedPage, type Json, type PageJob, type Resolved } from '../page-context.ts';
import { PAGE_TYPE } from '../page-type-numbers.ts';
import { collectionObject, contentItemObject, pageObject } from '../page-views.ts';
import { firstCardItem, reviewsHtml } from '../product-view.ts';
import { isStorable, isUnlocked, lockMessage, unlockSecret } from '../visitor.ts';
import { collectionFilterOf, filterContext, filterMatcher } from './collection-filter.ts';
import { pageKind, type PageKind } from './page-kind.ts';

/** Approved store reviews a product page lists (the reviews request page shows as many). */
const APPROVED_REVIEWS_SHOWN = 20;

export type EntryRoute = { kind: 'entry'; entry: ContentEntry };
export type ContentRoute = EntryRoute | { kind: 'content-item'; entry: ContentEntry; item: ContentItem } | { kind: 'product'; entry: ContentEntry; productSlug: string };

/** The site's content by slug: `/` is the home page, `/{slug}` an entry, `/{collection}/{item}` an item or product. */
function matchContent(segments: readonly string[], site: LoadedSite): ContentRoute | { kind: 'not-found' } {
  if (segments.length === 0) return site.home ? { kind: 'entry', entry: site.home } : { kind: 'not-found' };
  const [first, second] = segments as [string, string?];
  const entry = site.bySlug.get(first);
  if (!entry) return { kind: 'not-found' };
  if (segments.length === 1) return { kind: 'entry', entry };
  if (segments.length !== 2 || entry.kind !== 'collection' || second === undefined) return { kind: 'not-found' };
  if (entry.collectionType === 'products') return { kind: 'product', entry, productSlug: second };
  const item = entry.items.find((candidate) => candidate.slug === second);
  return item ? { kind: 'content-item', entry, item } : { kind: 'not-found' };
}

/** A content page as it is: its blocks rendered into `page.blocksHtml` (C1 2, 3 and the special types' default). */
export async function loadEntryPage(job: PageJob, entry: ContentEntry, ctx: Json): Promise<Resolved> {
  const resolved = resolvedPage(job, entry.pageType, entry, entry.title);
  ctx.page = pageObject(entry, await renderContentBlocks(job, ctx, 'c', entry.blocks));
  return resolved;
}

/**
 * The site's content (C1 1, 2, 3, 50, 105, 106): pages, collections, content items and
 * products. A page whose `pageType` another entry claims (`contentPageTypes`) is loaded by
 * that entry once the member-area and password checks pass.
 */
export function contentPages(special: (pageType: number) => PageKind<EntryRoute> | undefined) {
  return pageKind<ContentRoute>({
    name: 'content',
    kinds: ['entry', 'content-item', 'product'],
    match: matchContent,
    templates: {
      // Collections and items try `{template}.list|item` and `{collectionType}.list|item` first (route-resolver.ts).
      [PAGE_TYPE.collection]: ['collection.list'],
      [PAGE_TYPE.page]: ['page'],
      [PAGE_TYPE.splash]: ['cover', 'page'],
      [PAGE_TYPE.item]: ['collection.item'],
      [PAGE_TYPE.protectedContent]: ['protected'],
      [PAGE_TYPE.memberAreaDenied]: ['access-denied'],
    },
    context: ['page', 'collection', 'items', 'item', 'lock', 'tagFilter', 'categoryFilter', 'collectionFilter'],
    async load({ job, route, ctx, path, query }) {
      const entry = route.entry;
      if (entry.memberArea && !job.session) {
        ctx.page = pageObject(entry, '');
        const denied = resolvedPage(job, PAGE_TYPE.memberAreaDenied, entry, entry.title);
        denied.status = 403;
        return denied;
      }
      if (entry.password && !isUnlocked(job.request, await unlockSecret(job.deps), job.row.websiteId, entry.id, entry.password)) {
        ctx.page = pageObject(entry, '');
        ctx.lock = { returnTo: path, scope: entry.id, scopeKind: 'page', heading: entry.title, message: lockMessage('This page is password protected.', query) };
        return resolvedPage(job, PAGE_TYPE.protectedContent, entry, entry.title);
      }
      if (route.kind === 'entry' && entry.kind === 'collection') {
        // `?tag=` / `?category=` (collection-filter.ts): the items so labelled, where tag links lead.
        const filter = collectionFilterOf(query);
        const keeps = filter ? filterMatcher(filter) : () => true;
        const title = filter ? `${entry.title}: ${filter.kind === 'tag' ? 'tagged' : 'filed under'} “${filter.value}”` : entry.title;
        const resolved = resolvedPage(job, PAGE_TYPE.collection, entry, title);
        resolved.collectionId = entry.id;
        let items: Json[];
        if (entry.collectionType === 'products') {
          const products = (await job.listProducts()).filter((product) => product.collectionId === entry.id && keeps(product.extra));
          const options = await job.viewOptions(false, products);
          // The first card is above the fold: its picture loads at once, the others lazily.
          items = products.map((product, i) => {
            const view = job.view(product, options);
            const item = job.use(view);
            return i === 0 ? firstCardItem(view) : item;
          });
        } else {
          items = entry.items.filter((item) => keeps(item.data)).map((item) => contentItemObject(entry, item, ''));
        }
        ctx.items = items;
        const collection = collectionObject(entry, items.length);
        ctx.collection = collection;
        if (filter) Object.assign(ctx, filterContext(filter, items.length, collection.fullUrl as string));
        // A collection page may carry blocks of its own (an intro, a newsletter …).
        ctx.page = pageObject(entry, await renderContentBlocks(job, ctx, 'c', entry.blocks));
        return resolved;
      }
      if (route.kind === 'entry') {
        const own = special(entry.pageType);
        return own ? own.load({ job, route, ctx, path, query }) : loadEntryPage(job, entry, ctx);
      }
      ctx.collection = collectionObject(entry, route.kind === 'content-item' ? entry.items.length : 0);
      if (route.kind === 'content-item') {
        const resolved = resolvedPage(job, PAGE_TYPE.item, entry, route.item.title);
        resolved.collectionId = entry.id;
        resolved.itemId = route.item.id;
        const item = contentItemObject(entry, route.item, await renderContentBlocks(job, ctx, 'i', route.item.blocks));
        resolved.recordType = item.recordType as number;
        ctx.item = item;
        ctx.items = [item];
        ctx.page = pageObject(entry, '');
        return resolved;
      }
      const matches = (candidate: Product | null | undefined): candidate is Product =>
        !!candidate && candidate.collectionId === entry.id && candidate.urlSlug === route.productSlug;
      // Slugs are usually the product ids: one row read instead of the whole catalogue.
      const direct = route.productSlug.length <= 200 && isStorable(route.productSlug) ? await job.reads.getProduct(route.productSlug) : null;
      const product = matches(direct) ? direct : (await job.listProducts()).find(matches);
      if (!product) throw new NotFound();
      const config = job.site.config;
      const reviewsShown = job.flags.reviewsKillSwitch !== true && (config.reviews.nativeEnabled || config.reviews.importedEnabled);
      let item = job.use(job.view(product, await job.viewOptions(reviewsShown, [product])));
      if (reviewsShown) {
        // Reviews an owner approved change without the product row, so they are a display read
        // of their own, laid over the shared (memoised) view's item, never written into it.
        const approved = await job.reads.listApprovedReviews(job.row.websiteId, product.id, APPROVED_REVIEWS_SHOWN);
        if (approved.length > 0) item = { ...item, sf: { ...(item.sf as Json), reviews: reviewsHtml(product, approved) } };
      }
      ctx.item = item;
      ctx.items = [item];
      ctx.page = pageObject(entry, '');
      const resolved = resolvedPage(job, PAGE_TYPE.item, entry, product.title);
      resolved.collectionId = entry.id;
      resolved.itemId = product.id;
      resolved.recordType = 11;
      return resolved;
    },
  });
}
