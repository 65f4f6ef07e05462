import type { Product } from '../../store/types.ts';
import { firstString, type Json, type PageJob } from '../page-context.ts';

/** The product a special page's `?productId=` names, or null (absent, too long, unknown). */
export async function productOfQuery(job: PageJob, query: Json): Promise<Product | null> {
  const id = firstString(query.productId);
  if (id === null || id === '' || id.length > 200) return null;
  return job.reads.getProduct(id);
}
