import type { Queryable } from './sql-client.ts';

// Product reviews a buyer sends from the reviews request page (page type 209, issue 18),
// migration 010-reviews. A review is stored `pending` and shown publicly only once an owner
// approves it in the admin's Reviews panel (admin/admin-routes.ts /api/admin/reviews).
// Reached as `repo.reviews` on the pooled client. Every query names the website.

export type ReviewStatus = 'pending' | 'approved';

export interface ProductReview {
  id: string;
  websiteId: string;
  productId: string;
  rating: number;
  name: string;
  text: string;
  status: ReviewStatus;
  createdOn: number;
}

/** A review in the owner's moderation list, with its product's title (null once the product is gone). */
export interface ModeratedReview extends ProductReview {
  productTitle: string | null;
}

/** Where the previous page of a site-wide list ended (the last row's time and id). */
export interface ReviewKeyset {
  createdOn: number;
  id: string;
}

type Row = Record<string, unknown>;

function review(row: Row): ProductReview {
  return {
    id: String(row.id),
    websiteId: String(row.website_id),
    productId: String(row.product_id),
    rating: Number(row.rating),
    name: String(row.name),
    text: String(row.body),
    status: String(row.status) as ReviewStatus,
    createdOn: Number(row.created_on),
  };
}

export class ReviewRepository {
  constructor(private readonly db: Queryable) {}

  async add(entry: ProductReview): Promise<void> {
    await this.db.query(
      'INSERT INTO product_reviews (id, website_id, product_id, rating, name, body, status, created_on) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
      [entry.id, entry.websiteId, entry.productId, entry.rating, entry.name, entry.text, entry.status, entry.createdOn],
    );
  }

  /** A product's reviews of one status, newest first, at most `limit`. */
  async list(websiteId: string, productId: string, status: ReviewStatus, limit: number): Promise<ProductReview[]> {
    const rows = await this.db.query(
      'SELECT * FROM product_reviews WHERE website_id = $1 AND product_id = $2 AND status = $3 ORDER BY created_on DESC, id DESC LIMIT $4',
      [websiteId, productId, status, limit],
    );
    return rows.map(review);
  }

  async count(websiteId: string, productId: string, status: ReviewStatus): Promise<number> {
    const rows = await this.db.query('SELECT count(*) AS n FROM product_reviews WHERE website_id = $1 AND product_id = $2 AND status = $3', [websiteId, productId, status]);
    return Number(rows[0]?.n ?? 0);
  }

  /**
   * One status's reviews across every product of the site, newest first, a keyset page after
   * `after` (the orders list's paging). The product index leads with product_id, so this reads
   * the site's rows of that status and sorts them: moderation queues stay small, and an owner
   * approves or deletes as they go.
   */
  async listForSite(websiteId: string, status: ReviewStatus, after: ReviewKeyset | null, limit: number): Promise<ModeratedReview[]> {
    const select = 'SELECT r.*, p.title AS product_title FROM product_reviews r LEFT JOIN products p ON p.id = r.product_id WHERE r.website_id = $1 AND r.status = $2';
    const rows = after
      ? await this.db.query(`${select} AND (r.created_on, r.id) < ($3::bigint, $4::text) ORDER BY r.created_on DESC, r.id DESC LIMIT $5`, [
          websiteId, status, after.createdOn, after.id, limit,
        ])
      : await this.db.query(`${select} ORDER BY r.created_on DESC, r.id DESC LIMIT $3`, [websiteId, status, limit]);
    return rows.map((row) => ({ ...review(row), productTitle: row.product_title === null || row.product_title === undefined ? null : String(row.product_title) }));
  }

  /** How many approved reviews a product has and the sum of their ratings (the 209 page's rating so far). */
  async approvedRatings(websiteId: string, productId: string): Promise<{ count: number; sum: number }> {
    const rows = await this.db.query(
      "SELECT count(*) AS n, coalesce(sum(rating), 0) AS s FROM product_reviews WHERE website_id = $1 AND product_id = $2 AND status = 'approved'",
      [websiteId, productId],
    );
    return { count: Number(rows[0]?.n ?? 0), sum: Number(rows[0]?.s ?? 0) };
  }

  /** Marks a review approved (again, if it already was); false when the site has no such review. */
  async approve(websiteId: string, id: string): Promise<boolean> {
    const rows = await this.db.query("UPDATE product_reviews SET status = 'approved' WHERE website_id = $1 AND id = $2 RETURNING id", [websiteId, id]);
    return rows.length > 0;
  }

  /** Deletes a review of any status; false when the site has no such review. */
  async delete(websiteId: string, id: string): Promise<boolean> {
    const rows = await this.db.query('DELETE FROM product_reviews WHERE website_id = $1 AND id = $2 RETURNING id', [websiteId, id]);
    return rows.length > 0;
  }
}
