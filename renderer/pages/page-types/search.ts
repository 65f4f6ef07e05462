import { firstString, resolvedPage, type Json } from '../page-context.ts';
import { PAGE_TYPE } from '../page-type-numbers.ts';
import { contentItemObject } from '../page-views.ts';
import { pageKind } from './page-kind.ts';

/** C1 type 102, `/search?q=`: up to 20 products and content items whose title holds the query. */
export const searchPage = pageKind<{ kind: 'search' }>({
  name: 'search',
  kinds: ['search'],
  match: (segments) => (segments.length === 1 && segments[0] === 'search' ? { kind: 'search' } : null),
  templates: { [PAGE_TYPE.search]: ['search'] },
  context: ['search', 'items'],
  async load({ job, ctx, query }) {
    const q = (firstString(query.q) ?? '').trim().slice(0, 200);
    const needle = q.toLowerCase();
    const results: Json[] = [];
    if (needle !== '') {
      // Password-protected and member-only pages stay out of the results, and so do the
      // products of such a collection: their titles, prices and links were listed here.
      const guarded = new Set(job.site.entries.filter((entry) => entry.memberArea || entry.password).map((entry) => entry.id));
      const products = (await job.listProducts()).filter((product) => product.collectionId === null || !guarded.has(product.collectionId));
      const options = await job.viewOptions(false, products);
      for (const product of products) {
        if (results.length >= 20) break;
        if (product.title.toLowerCase().includes(needle)) results.push(job.use(job.view(product, options)));
      }
      for (const entry of job.site.entries) {
        if (guarded.has(entry.id)) continue;
        for (const item of entry.items) {
          if (results.length >= 20) break;
          if (item.title.toLowerCase().includes(needle)) results.push(contentItemObject(entry, item, ''));
        }
      }
    }
    ctx.search = { query: q, resultCount: results.length };
    ctx.items = results;
    return resolvedPage(job, PAGE_TYPE.search, null, 'Search');
  },
});
