import type { Product } from '../../store/types.ts';
import { firstString, type Json, type PageJob } from '../page-context.ts';
import { isUnlocked, unlockSecret } from '../visitor.ts';

/**
 * Whether this visitor may see the products of the entry `collectionId` names: not while a
 * member-only entry has no signed-in member, nor while a password-protected one is locked for
 * them (the checks of the collection's own pages, content.ts). A product of no entry is open.
 */
export async function collectionOpenTo(job: PageJob, collectionId: string | null): Promise<boolean> {
  if (collectionId === null) return true;
  const entry = job.site.entries.find((candidate) => candidate.id === collectionId);
  if (!entry) return true;
  if (entry.memberArea && !job.session) return false;
  if (entry.password && !isUnlocked(job.request, await unlockSecret(job.deps), job.row.websiteId, entry.id, entry.password)) return false;
  return true;
}

/**
 * The product a special page's `?productId=` names, or null (absent, too long, unknown, or of
 * a collection this visitor cannot open: the reviews request page listed a locked collection's
 * product with its title, picture, price and link, as search once did).
 */
export async function productOfQuery(job: PageJob, query: Json): Promise<Product | null> {
  const id = firstString(query.productId);
  if (id === null || id === '' || id.length > 200) return null;
  const product = await job.reads.getProduct(id);
  return product && (await collectionOpenTo(job, product.collectionId)) ? product : null;
}
