import type { Product } from '../../store/types.ts';
import { firstString, type Json, type PageJob } from '../page-context.ts';
import { collectionOpenTo } from '../visitor.ts';

/**
 * The product a special page's `?productId=` names, or null (absent, too long, unknown, or of
 * a collection this visitor cannot open: the reviews request page listed a locked collection's
 * product with its title, picture, price and link, as search once did).
 */
export async function productOfQuery(job: PageJob, query: Json): Promise<Product | null> {
  const id = firstString(query.productId);
  if (id === null || id === '' || id.length > 200) return null;
  const product = await job.reads.getProduct(id);
  return product && (await collectionOpenTo({ request: job.request, deps: job.deps, websiteId: job.row.websiteId, signedIn: () => Boolean(job.session) }, job.site.entries, product.collectionId)) ? product : null;
}
