import type { Queryable } from './sql-client.ts';

// Product reviews a buyer sends from the reviews request page (page type 209, issue 18),
// migration 010-reviews. A review is stored `pending` and shown publicly only once an owner
// approves it (no moderation screen yet: the page says the review awaits moderation).
// Reached as `repo.reviews` on the pooled client.

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
}
