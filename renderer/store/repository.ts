import { AdminRepository } from './admin-repository.ts';
import { OrderRepository } from './order-repository.ts';
import { ReviewRepository, type ProductReview } from './review-repository.ts';
import type { Queryable } from './sql-client.ts';
import type {
  AfterAnswerJob,
  CartEntryRecord,
  CartKind,
  CartRecord,
  CensusEvent,
  CensusKind,
  ClankerEventRecord,
  ClankerTransport,
  Form,
  FormSubmission,
  JsErrorReport,
  MailingListEntry,
  MailingListSource,
  Order,
  OutboxMessage,
  OutboxRow,
  OutboxStatus,
  PerformancePageLoad,
  Product,
  ProductType,
  RestockGroupRow,
  RestockSignUp,
  Session,
  Site,
  StoredSiteFeatures,
  SiteUser,
  StoreCategory,
  StoreCollection,
  StoredPerformanceRecord,
  Variant,
} from './types.ts';

type Row = Record<string, unknown>;

// Drivers disagree on bigint columns (pg: string, PGlite: number or bigint); every numeric
// column goes through here so callers always see numbers.
function num(value: unknown): number {
  return typeof value === 'number' ? value : Number(value);
}

function numOrNull(value: unknown): number | null {
  return value === null || value === undefined ? null : num(value);
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : String(value);
}

function strOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : str(value);
}

// jsonb comes back parsed from both drivers; text is parsed defensively.
function json<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}

/** A value as a `$n::jsonb` parameter (undefined as JSON null). */
export function jsonParam(value: unknown): string {
  return JSON.stringify(value ?? null);
}

/**
 * Text PostgreSQL cannot store: NUL (text refuses it) and an unpaired surrogate (jsonb refuses
 * its `\\u` escape; text would get U+FFFD in its place). Input holding it is refused before
 * it reaches the database: a request with a 400, a catalogue at its position (seed.ts).
 */
export const UNSTORABLE_TEXT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * The comparison key of an email (B0.5: unique, case-insensitive): trimmed, lower-cased and in
 * Unicode NFC, so `josé` typed with a combining accent is the address typed with `é`. Keys
 * stored before NFC were brought to it by migration 012.
 */
export function emailKey(email: string): string {
  return email.trim().toLowerCase().normalize('NFC');
}

/** A cart entry as inserted: its cart and position are assigned by `insertEntry`. */
export type NewCartEntry = Omit<CartEntryRecord, 'cartId' | 'position'>;

export interface KeysetAfter {
  createdOn: number;
  id: string;
}

export interface GroupKeysetAfter {
  latestSignUpOn: number;
  productId: string;
  variantId: string;
}

const ALL_TABLES = [
  'sites', 'products', 'variants', 'forms', 'carts', 'cart_entries', 'site_users', 'sessions',
  'restock_sign_ups', 'mailing_list', 'outbox', 'form_submission_keys', 'form_submissions',
  'census_events', 'js_error_reports', 'orders', 'order_counters', 'gift_cards', 'subscriptions', 'used_captcha_tokens',
  'clanker_events', 'performance_records', 'performance_page_loads', 'store_categories', 'store_collections',
  'site_layouts', 'rate_limit_counters', 'owners', 'owner_sessions', 'api_keys', 'site_features', 'site_secrets', 'product_reviews',
  'password_resets', 'order_refunds', 'after_answer_jobs',
];

/**
 * The tables the retention sweep empties (store/retention.ts): each row expires by one time
 * column; `key` is the primary key that a bounded delete selects by. Performance records go
 * with their page load (ON DELETE CASCADE).
 */
export const RETENTION_TABLES = {
  censusEvents: { table: 'census_events', key: 'id', time: 'received_at' },
  jsErrorReports: { table: 'js_error_reports', key: 'id', time: 'received_at' },
  clankerEvents: { table: 'clanker_events', key: 'id', time: 'received_at' },
  performancePageLoads: { table: 'performance_page_loads', key: 'id', time: 'issued_at' },
  formSubmissionKeys: { table: 'form_submission_keys', key: 'key', time: 'created_at' },
  rateLimitCounters: { table: 'rate_limit_counters', key: 'key', time: 'expires_at' },
  // Carts past their expiry that were never bought (anonymous, express, gift-card and
  // subscription carts; a member's cart never expires): every read treats them as gone
  // already. Bought carts stay, as their orders name them. Entries go with their cart.
  expiredCarts: { table: 'carts', key: 'id', time: 'expires_at', where: 'NOT is_purchased' },
} as const;

export type RetentionTable = keyof typeof RETENTION_TABLES;

/** A fixed-window counter: hits so far and when the window ends (ms). */
export interface RateCounter {
  hits: number;
  expiresAt: number;
}

/**
 * All SQL of the store. One instance wraps either the pooled client or one transaction,
 * so the same methods serve single reads and multi-step transactional writes.
 */
export class Repository {
  constructor(private readonly db: Queryable) {}

  /** The admin's owners, owner sessions, API keys and lists (admin-repository.ts), on this connection. */
  get admin(): AdminRepository {
    return new AdminRepository(this.db);
  }

  // ---- site -------------------------------------------------------------------------

  async getSite(): Promise<Site | null> {
    // The admin's feature toggles ride along, so a page's one cached site read has them.
    const rows = await this.db.query(
      `SELECT s.website_id, s.settings, f.config AS features, f.updated_at AS features_updated_at
       FROM sites s LEFT JOIN site_features f ON f.website_id = s.website_id ORDER BY s.website_id LIMIT 1`,
    );
    const row = rows[0];
    return row ? { websiteId: str(row.website_id), settings: json(row.settings), features: toStoredFeatures(row) } : null;
  }

  // ---- feature toggles (008-site-features) ---------------------------------------------

  async putSiteFeatures(websiteId: string, config: Omit<StoredSiteFeatures, 'updatedAt'>, now: number): Promise<StoredSiteFeatures> {
    const document = { features: config.features, experiments: config.experiments };
    await this.db.query(
      `INSERT INTO site_features (website_id, config, updated_at) VALUES ($1, $2::jsonb, $3)
       ON CONFLICT (website_id) DO UPDATE SET config = EXCLUDED.config, updated_at = EXCLUDED.updated_at`,
      [websiteId, jsonParam(document), now],
    );
    return { ...document, updatedAt: now };
  }

  async deleteSiteFeatures(websiteId: string): Promise<void> {
    await this.db.query('DELETE FROM site_features WHERE website_id = $1', [websiteId]);
  }

  async putSite(site: Site): Promise<void> {
    await this.db.query('DELETE FROM sites WHERE website_id <> $1', [site.websiteId]);
    await this.db.query(
      `INSERT INTO sites (website_id, settings) VALUES ($1, $2::jsonb)
       ON CONFLICT (website_id) DO UPDATE SET settings = EXCLUDED.settings`,
      [site.websiteId, jsonParam(site.settings)],
    );
  }

  // ---- catalogue ----------------------------------------------------------------------

  async getProduct(id: string): Promise<Product | null> {
    // Hidden: removed from the site folder (store/site-sync.ts); not listed, not sold, no page.
    const rows = await this.db.query('SELECT * FROM products WHERE id = $1 AND NOT hidden', [id]);
    const row = rows[0];
    if (!row) return null;
    const variants = await this.db.query('SELECT * FROM variants WHERE product_id = $1 AND NOT hidden ORDER BY position', [id]);
    return toProduct(row, variants);
  }

  async listProducts(): Promise<Product[]> {
    const rows = await this.db.query('SELECT * FROM products WHERE NOT hidden ORDER BY position, id');
    const variants = await this.db.query('SELECT * FROM variants WHERE NOT hidden ORDER BY product_id, position');
    return rows.map((row) => toProduct(row, variants.filter((v) => v.product_id === row.id)));
  }

  async putProduct(product: Product, position: number): Promise<void> {
    await this.db.query('DELETE FROM products WHERE id = $1', [product.id]);
    await this.db.query(
      `INSERT INTO products (id, position, title, url_slug, collection_id, product_type, is_subscribable,
         subscription_plan, additional_fields_form_id, restock_enabled, extra)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10, $11::jsonb)`,
      [
        product.id, position, product.title, product.urlSlug, product.collectionId, product.productType,
        product.isSubscribable, jsonParam(product.subscriptionPlan), product.additionalFieldsFormId,
        product.restockEnabled, jsonParam(product.extra),
      ],
    );
    for (const [index, variant] of product.variants.entries()) {
      await this.db.query(
        `INSERT INTO variants (product_id, id, position, sku, attributes, price_cents, sale_price_cents,
           on_sale, qty_in_stock, unlimited)
         VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9, $10)`,
        [
          product.id, variant.id, index, variant.sku, jsonParam(variant.attributes), variant.priceCents,
          variant.salePriceCents, variant.onSale, variant.qtyInStock, variant.unlimited,
        ],
      );
    }
  }

  /**
   * Sets a variant's stock; with `expected`, only while the variant still has that stock
   * (an unlimited variant's count does not matter), else 'stale' and nothing is written. The
   * condition is in the UPDATE's WHERE, which PostgreSQL evaluates again on a row a concurrent
   * transaction changed, so the check and the write are one step.
   */
  async updateVariantStock(
    productId: string,
    variantId: string,
    change: { qtyInStock?: number; unlimited?: boolean },
    expected?: { qtyInStock: number; unlimited: boolean },
  ): Promise<Variant | null | 'stale'> {
    const rows = await this.db.query(
      `UPDATE variants SET qty_in_stock = COALESCE($3, qty_in_stock), unlimited = COALESCE($4, unlimited)
       WHERE product_id = $1 AND id = $2
         AND ($5::boolean IS NULL OR (unlimited = $5::boolean AND (unlimited OR qty_in_stock = $6::bigint)))
       RETURNING *`,
      [productId, variantId, change.qtyInStock ?? null, change.unlimited ?? null, expected?.unlimited ?? null, expected?.qtyInStock ?? null],
    );
    if (rows[0]) return toVariant(rows[0]);
    if (!expected) return null;
    const exists = await this.db.query('SELECT 1 FROM variants WHERE product_id = $1 AND id = $2', [productId, variantId]);
    return exists.length > 0 ? 'stale' : null;
  }

  async getForm(id: string): Promise<Form | null> {
    const rows = await this.db.query('SELECT definition FROM forms WHERE id = $1 AND NOT hidden', [id]);
    return rows[0] ? json<Form>(rows[0].definition) : null;
  }

  async listForms(): Promise<Form[]> {
    const rows = await this.db.query('SELECT definition FROM forms WHERE NOT hidden ORDER BY id');
    return rows.map((row) => json<Form>(row.definition));
  }

  async putForm(form: Form): Promise<void> {
    await this.db.query(
      `INSERT INTO forms (id, definition) VALUES ($1, $2::jsonb)
       ON CONFLICT (id) DO UPDATE SET definition = EXCLUDED.definition, hidden = false`,
      [form.id, jsonParam(form)],
    );
  }

  async getOrder(id: string): Promise<Order | null> {
    const rows = await this.db.query('SELECT data FROM orders WHERE id = $1', [id]);
    return rows[0] ? json<Order>(rows[0].data) : null;
  }

  async putOrder(order: Order): Promise<void> {
    await this.db.query(
      `INSERT INTO orders (id, data) VALUES ($1, $2::jsonb) ON CONFLICT (id) DO UPDATE SET data = EXCLUDED.data`,
      [order.id, jsonParam(order)],
    );
  }

  /** Placed orders: numbering, stock moves, lookups and the owner's list (order-repository.ts), on this connection. */
  get orders(): OrderRepository {
    return new OrderRepository(this.db);
  }

  /** Product reviews of the reviews request page (review-repository.ts). */
  get reviews(): ReviewRepository {
    return new ReviewRepository(this.db);
  }

  /** A product's approved reviews, newest first: the product page's display read (read-cache.ts keeps it). */
  listApprovedReviews(websiteId: string, productId: string, limit: number): Promise<ProductReview[]> {
    return this.reviews.list(websiteId, productId, 'approved', limit);
  }

  /** The count and rating sum of a product's approved reviews: a display read too (read-cache.ts). */
  approvedRatings(websiteId: string, productId: string): Promise<{ count: number; sum: number }> {
    return this.reviews.approvedRatings(websiteId, productId);
  }

  // ---- carts --------------------------------------------------------------------------

  /** With `lock`, the cart row stays locked until the transaction ends (serialises writers). */
  async getCart(id: string, options: { lock?: boolean } = {}): Promise<CartRecord | null> {
    const rows = await this.db.query(`SELECT * FROM carts WHERE id = $1${options.lock ? ' FOR UPDATE' : ''}`, [id]);
    const row = rows[0];
    if (!row) return null;
    return this.withEntries(row);
  }

  async getUserMainCart(siteUserId: string, options: { lock?: boolean } = {}): Promise<CartRecord | null> {
    const rows = await this.db.query(
      `SELECT * FROM carts WHERE owner_site_user_id = $1 AND kind = 'main' AND NOT is_purchased
       ORDER BY created DESC, id LIMIT 1${options.lock ? ' FOR UPDATE' : ''}`,
      [siteUserId],
    );
    const row = rows[0];
    return row ? this.withEntries(row) : null;
  }

  private async withEntries(row: Row): Promise<CartRecord> {
    // `available`: the line's product and variant are still in the catalogue (a product the owner
    // removed from the site folder is hidden, never deleted: store/site-sync.ts). Read in the same
    // statement, so every cart read knows which lines can no longer be bought.
    const entries = await this.db.query(
      `SELECT e.*, (p.id IS NOT NULL AND NOT p.hidden AND v.id IS NOT NULL AND NOT v.hidden) AS available
       FROM cart_entries e
       LEFT JOIN products p ON p.id = e.item_id
       LEFT JOIN variants v ON v.product_id = e.item_id AND v.id = e.variant_id
       WHERE e.cart_id = $1 ORDER BY e.position, e.id`,
      [row.id],
    );
    return {
      id: str(row.id),
      websiteId: str(row.website_id),
      kind: str(row.kind) as CartKind,
      ownerSiteUserId: strOrNull(row.owner_site_user_id),
      orderId: strOrNull(row.order_id),
      isPurchased: Boolean(row.is_purchased),
      created: num(row.created),
      expiresAt: numOrNull(row.expires_at),
      entries: entries.map(toEntry),
      clonedFrom: strOrNull(row.cloned_from),
    };
  }

  async createCart(cart: Omit<CartRecord, 'orderId' | 'isPurchased' | 'entries'>): Promise<void> {
    await this.db.query(
      `INSERT INTO carts (id, website_id, kind, owner_site_user_id, created, expires_at, cloned_from)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [cart.id, cart.websiteId, cart.kind, cart.ownerSiteUserId, cart.created, cart.expiresAt, cart.clonedFrom ?? null],
    );
  }

  async updateCartOwnership(cartId: string, ownerSiteUserId: string | null, expiresAt: number | null): Promise<void> {
    await this.db.query('UPDATE carts SET owner_site_user_id = $2, expires_at = $3 WHERE id = $1', [
      cartId, ownerSiteUserId, expiresAt,
    ]);
  }

  async setCartExpiry(cartId: string, expiresAt: number | null): Promise<void> {
    await this.db.query('UPDATE carts SET expires_at = $2 WHERE id = $1', [cartId, expiresAt]);
  }

  async deleteCart(cartId: string): Promise<void> {
    await this.db.query('DELETE FROM carts WHERE id = $1', [cartId]);
  }

  async insertEntry(cartId: string, entry: NewCartEntry): Promise<void> {
    await this.db.query(
      `INSERT INTO cart_entries (id, cart_id, position, item_id, sku, variant_id, quantity, product_type,
         attributes, title, purchase_price_cents, additional_fields)
       VALUES ($1, $2, (SELECT COALESCE(MAX(position) + 1, 0) FROM cart_entries WHERE cart_id = $2),
         $3, $4, $5, $6, $7, $8::jsonb, $9, $10, $11)`,
      [
        entry.id, cartId, entry.itemId, entry.sku, entry.variantId, entry.quantity, entry.productType,
        jsonParam(entry.attributes), entry.title, entry.purchasePriceCents, entry.additionalFields,
      ],
    );
  }

  async updateEntryQuantity(entryId: string, quantity: number, purchasePriceCents: number): Promise<void> {
    await this.db.query('UPDATE cart_entries SET quantity = $2, purchase_price_cents = $3 WHERE id = $1', [
      entryId, quantity, purchasePriceCents,
    ]);
  }

  async updateEntryAdditionalFields(entryId: string, additionalFields: string | null): Promise<void> {
    await this.db.query('UPDATE cart_entries SET additional_fields = $2 WHERE id = $1', [entryId, additionalFields]);
  }

  async deleteEntry(entryId: string): Promise<void> {
    await this.db.query('DELETE FROM cart_entries WHERE id = $1', [entryId]);
  }

  async countCarts(): Promise<number> {
    const rows = await this.db.query('SELECT count(*) AS n FROM carts');
    return num(rows[0]?.n ?? 0);
  }

  // ---- site users and sessions --------------------------------------------------------

  async getUserByEmail(email: string): Promise<SiteUser | null> {
    const rows = await this.db.query('SELECT * FROM site_users WHERE email_key = $1', [emailKey(email)]);
    return rows[0] ? toUser(rows[0]) : null;
  }

  async getUser(id: string): Promise<SiteUser | null> {
    const rows = await this.db.query('SELECT * FROM site_users WHERE id = $1', [id]);
    return rows[0] ? toUser(rows[0]) : null;
  }

  async putUser(user: SiteUser): Promise<void> {
    await this.db.query(
      `INSERT INTO site_users (id, email, email_key, password_hash, locale) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (id) DO UPDATE SET email = EXCLUDED.email, email_key = EXCLUDED.email_key,
         password_hash = EXCLUDED.password_hash, locale = EXCLUDED.locale`,
      [user.id, user.email, emailKey(user.email), user.passwordHash, user.locale],
    );
  }

  async setUserLocale(id: string, locale: string): Promise<void> {
    await this.db.query('UPDATE site_users SET locale = $2 WHERE id = $1', [id, locale]);
  }

  async createSession(session: Session): Promise<void> {
    await this.db.query(
      `INSERT INTO sessions (id, site_user_id, xsrf_token, created_at, expires_at, persistent)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [session.id, session.siteUserId, session.xsrfToken, session.createdAt, session.expiresAt, session.persistent],
    );
  }

  /** The session only while it is live at `now`. */
  async getLiveSession(id: string, now: number): Promise<Session | null> {
    const rows = await this.db.query('SELECT * FROM sessions WHERE id = $1 AND expires_at > $2', [id, now]);
    const row = rows[0];
    if (!row) return null;
    return {
      id: str(row.id),
      siteUserId: str(row.site_user_id),
      xsrfToken: str(row.xsrf_token),
      createdAt: num(row.created_at),
      expiresAt: num(row.expires_at),
      persistent: Boolean(row.persistent),
    };
  }

  async deleteSession(id: string): Promise<void> {
    await this.db.query('DELETE FROM sessions WHERE id = $1', [id]);
  }

  /** Ends every session of a member (a password reset: whoever held one must sign in again). */
  async deleteUserSessions(siteUserId: string): Promise<void> {
    await this.db.query('DELETE FROM sessions WHERE site_user_id = $1', [siteUserId]);
  }

  async setUserPasswordHash(id: string, passwordHash: string): Promise<void> {
    await this.db.query('UPDATE site_users SET password_hash = $2 WHERE id = $1', [id, passwordHash]);
  }

  /** The member's one reset token (its hash): a new request replaces the old one. */
  async putPasswordReset(reset: { siteUserId: string; tokenHash: string; expiresAt: number }): Promise<void> {
    await this.db.query(
      `INSERT INTO password_resets (site_user_id, token_hash, expires_at, used_at) VALUES ($1, $2, $3, NULL)
       ON CONFLICT (site_user_id) DO UPDATE SET token_hash = EXCLUDED.token_hash, expires_at = EXCLUDED.expires_at, used_at = NULL`,
      [reset.siteUserId, reset.tokenHash, reset.expiresAt],
    );
  }

  /** The reset a token hash names, locked for the change that uses it. */
  async getPasswordReset(tokenHash: string): Promise<{ siteUserId: string; expiresAt: number; usedAt: number | null } | null> {
    const rows = await this.db.query('SELECT * FROM password_resets WHERE token_hash = $1 FOR UPDATE', [tokenHash]);
    const row = rows[0];
    if (!row) return null;
    return { siteUserId: str(row.site_user_id), expiresAt: num(row.expires_at), usedAt: row.used_at === null || row.used_at === undefined ? null : num(row.used_at) };
  }

  async markPasswordResetUsed(siteUserId: string, now: number): Promise<void> {
    await this.db.query('UPDATE password_resets SET used_at = $2 WHERE site_user_id = $1', [siteUserId, now]);
  }

  // ---- restock ------------------------------------------------------------------------

  /**
   * Inserts a pending sign-up unless one is already pending for the same variant and email
   * (the partial unique index makes this race-free); returns the row that stands.
   */
  async addRestockSignUp(signUp: RestockSignUp): Promise<RestockSignUp> {
    const inserted = await this.db.query(
      `INSERT INTO restock_sign_ups (id, product_id, variant_id, email, email_key, is_join_mailing_list,
         created_on, notified_on)
       VALUES ($1, $2, $3, $4, $5, $6, $7, NULL)
       ON CONFLICT (product_id, variant_id, email_key) WHERE notified_on IS NULL DO NOTHING
       RETURNING *`,
      [
        signUp.id, signUp.productId, signUp.variantId, signUp.siteVisitorEmail, emailKey(signUp.siteVisitorEmail),
        signUp.isJoinMailingList, signUp.createdOn,
      ],
    );
    if (inserted[0]) return toSignUp(inserted[0]);
    const existing = await this.db.query(
      `SELECT * FROM restock_sign_ups WHERE product_id = $1 AND variant_id = $2 AND email_key = $3
       AND notified_on IS NULL`,
      [signUp.productId, signUp.variantId, emailKey(signUp.siteVisitorEmail)],
    );
    return toSignUp(existing[0] as Row);
  }

  async listRestockSignUps(
    productId: string,
    variantId: string,
    after: KeysetAfter | null,
    limit: number,
  ): Promise<RestockSignUp[]> {
    const rows = after
      ? await this.db.query(
          `SELECT * FROM restock_sign_ups WHERE product_id = $1 AND variant_id = $2
             AND (created_on > $3 OR (created_on = $3 AND id COLLATE "C" > $4))
           ORDER BY created_on, id COLLATE "C" LIMIT $5`,
          [productId, variantId, after.createdOn, after.id, limit],
        )
      : await this.db.query(
          `SELECT * FROM restock_sign_ups WHERE product_id = $1 AND variant_id = $2
           ORDER BY created_on, id COLLATE "C" LIMIT $3`,
          [productId, variantId, limit],
        );
    return rows.map(toSignUp);
  }

  async listAllRestockSignUps(): Promise<RestockSignUp[]> {
    const rows = await this.db.query('SELECT * FROM restock_sign_ups ORDER BY created_on, id COLLATE "C"');
    return rows.map(toSignUp);
  }

  async listRestockGroups(after: GroupKeysetAfter | null, limit: number): Promise<RestockGroupRow[]> {
    const grouped = `SELECT product_id, variant_id, count(*) AS total_count,
        count(*) FILTER (WHERE notified_on IS NULL) AS pending_count, max(created_on) AS latest
      FROM restock_sign_ups GROUP BY product_id, variant_id`;
    const order = 'ORDER BY latest DESC, product_id COLLATE "C", variant_id COLLATE "C"';
    const rows = after
      ? await this.db.query(
          `SELECT * FROM (${grouped}) g
           WHERE latest < $1 OR (latest = $1 AND (product_id COLLATE "C" > $2
             OR (product_id = $2 AND variant_id COLLATE "C" > $3)))
           ${order} LIMIT $4`,
          [after.latestSignUpOn, after.productId, after.variantId, limit],
        )
      : await this.db.query(`SELECT * FROM (${grouped}) g ${order} LIMIT $1`, [limit]);
    return rows.map((row) => ({
      productId: str(row.product_id),
      variantId: str(row.variant_id),
      totalCount: num(row.total_count),
      pendingCount: num(row.pending_count),
      latestSignUpOn: num(row.latest),
    }));
  }

  /** Marks every pending sign-up of the variant notified and returns them (row-locked). */
  async markRestockNotified(productId: string, variantId: string, now: number): Promise<RestockSignUp[]> {
    const rows = await this.db.query(
      `UPDATE restock_sign_ups SET notified_on = $3
       WHERE product_id = $1 AND variant_id = $2 AND notified_on IS NULL RETURNING *`,
      [productId, variantId, now],
    );
    return rows.map(toSignUp).sort((a, b) => a.createdOn - b.createdOn || (a.id < b.id ? -1 : 1));
  }

  /** Adds an address to the mailing list; false when it was on it already (nothing changes). */
  async addToMailingList(email: string, source: MailingListSource, now: number): Promise<boolean> {
    const rows = await this.db.query(
      `INSERT INTO mailing_list (email_key, email, source, added_on) VALUES ($1, $2, $3, $4)
       ON CONFLICT (email_key) DO NOTHING RETURNING email_key`,
      [emailKey(email), email.trim(), source, now],
    );
    return rows.length > 0;
  }

  /** Removes an address from the mailing list (newsletter unsubscribe); false when it was not on it. */
  async removeFromMailingList(email: string): Promise<boolean> {
    const rows = await this.db.query('DELETE FROM mailing_list WHERE email_key = $1 RETURNING email_key', [emailKey(email)]);
    return rows.length > 0;
  }

  async isOnMailingList(email: string): Promise<boolean> {
    const rows = await this.db.query('SELECT 1 FROM mailing_list WHERE email_key = $1', [emailKey(email)]);
    return rows.length > 0;
  }

  /**
   * The store's secret of this name: `fresh` is kept when there is none yet, else the one
   * stored first is returned (two instances racing both read the winner's).
   */
  async siteSecret(name: string, fresh: string, now: number): Promise<string> {
    await this.db.query('INSERT INTO site_secrets (name, secret, created_on) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING', [name, fresh, now]);
    const rows = await this.db.query('SELECT secret FROM site_secrets WHERE name = $1', [name]);
    return str(rows[0]!.secret);
  }

  async listMailingList(): Promise<MailingListEntry[]> {
    const rows = await this.db.query('SELECT * FROM mailing_list ORDER BY added_on, email_key');
    return rows.map((row) => ({
      email: str(row.email),
      source: str(row.source) as MailingListSource,
      addedOn: num(row.added_on),
    }));
  }

  async queueOutbox(message: OutboxMessage): Promise<void> {
    await this.db.query(
      `INSERT INTO outbox (id, to_email, subject, body, product_id, variant_id, queued_on, html, headers)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [message.id, message.to, message.subject, message.body, message.productId, message.variantId, message.queuedOn,
        message.html ?? null, message.headers ? JSON.stringify(message.headers) : null],
    );
  }

  async listOutbox(): Promise<OutboxRow[]> {
    const rows = await this.db.query('SELECT * FROM outbox ORDER BY queued_on, id');
    return rows.map(toOutboxRow);
  }

  /**
   * Claims up to `limit` due pending messages for `claimer` until `leaseUntil`, counting the
   * attempt. Run inside a transaction: FOR UPDATE SKIP LOCKED lets concurrent workers on one
   * PostgreSQL database claim disjoint rows without waiting on each other; a lapsed lease
   * (a worker that died mid-send) makes the row claimable again.
   */
  async claimOutbox(now: number, claimer: string, leaseUntil: number, limit: number): Promise<OutboxRow[]> {
    const due = await this.db.query(
      `SELECT id FROM outbox
       WHERE status = 'pending' AND next_attempt_at <= $1 AND (claimed_until IS NULL OR claimed_until <= $1)
       ORDER BY next_attempt_at, id LIMIT $2 FOR UPDATE SKIP LOCKED`,
      [now, limit],
    );
    if (due.length === 0) return [];
    const rows = await this.db.query(
      `UPDATE outbox SET claimed_by = $2, claimed_until = $3, attempts = attempts + 1
       WHERE id = ANY($1::text[]) RETURNING *`,
      [due.map((row) => str(row.id)), claimer, leaseUntil],
    );
    return rows.map(toOutboxRow).sort((a, b) => a.nextAttemptAt - b.nextAttemptAt || (a.id < b.id ? -1 : 1));
  }

  /** Records the hand-over; false when the claim was lost (another worker took the lapsed row). */
  async markOutboxSent(id: string, claimer: string, now: number, messageId: string): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE outbox SET status = 'sent', sent_at = $3, message_id = $4, claimed_by = NULL, claimed_until = NULL, last_error = NULL
       WHERE id = $1 AND claimed_by = $2 AND status = 'pending' RETURNING id`,
      [id, claimer, now, messageId],
    );
    return rows.length === 1;
  }

  /** A refused attempt: due again at `nextAttemptAt`, or `failed` for good when that is null. */
  async markOutboxAttemptFailed(id: string, claimer: string, nextAttemptAt: number | null, error: string, messageId: string): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE outbox SET status = CASE WHEN $3::bigint IS NULL THEN 'failed' ELSE 'pending' END,
         next_attempt_at = COALESCE($3::bigint, next_attempt_at), last_error = $4, message_id = $5,
         claimed_by = NULL, claimed_until = NULL
       WHERE id = $1 AND claimed_by = $2 AND status = 'pending' RETURNING id`,
      [id, claimer, nextAttemptAt, error, messageId],
    );
    return rows.length === 1;
  }

  // ---- after-answer jobs (api/after-response.ts) -----------------------------------------

  /** The one statement a request runs to owe work past its answer: the same SQL for every address. */
  async recordAfterAnswerJob(job: Omit<AfterAnswerJob, 'attempts'>): Promise<void> {
    await this.db.query(
      'INSERT INTO after_answer_jobs (id, kind, email, detail, created_on, due_at) VALUES ($1, $2, $3, $4::jsonb, $5, $6)',
      [job.id, job.kind, job.email, jsonParam(job.detail), job.createdOn, job.dueAt],
    );
  }

  /**
   * Takes the job for the transaction it runs in: deletes it when it still has `attempts`
   * (nobody claimed it since), holding its row lock until the transaction ends, so a concurrent
   * claim or take waits and then finds it gone; null when it is gone or was claimed meanwhile.
   */
  async takeAfterAnswerJob(id: string, attempts: number): Promise<AfterAnswerJob | null> {
    const rows = await this.db.query('DELETE FROM after_answer_jobs WHERE id = $1 AND attempts = $2 RETURNING *', [id, attempts]);
    return rows[0] ? toAfterAnswerJob(rows[0]) : null;
  }

  /**
   * Claims up to `limit` due jobs, counting the attempt and making each due again after its
   * backoff (`retryBaseMs` doubled per earlier attempt, at most `retryMaxMs`): that is also the
   * lease, after which a claimer that died is replaced. SKIP LOCKED: concurrent claimers on one
   * PostgreSQL database take disjoint rows and pass over a job a request is running.
   */
  async claimAfterAnswerJobs(now: number, limit: number, retryBaseMs: number, retryMaxMs: number): Promise<AfterAnswerJob[]> {
    const rows = await this.db.query(
      `UPDATE after_answer_jobs SET attempts = attempts + 1,
         due_at = $1::bigint + LEAST($3::bigint * power(2, LEAST(attempts, 40))::bigint, $4::bigint)
       WHERE id IN (SELECT id FROM after_answer_jobs WHERE due_at <= $1 ORDER BY due_at, id LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING *`,
      [now, limit, retryBaseMs, retryMaxMs],
    );
    return rows.map(toAfterAnswerJob).sort((a, b) => a.createdOn - b.createdOn || (a.id < b.id ? -1 : 1));
  }

  /** Deletes the due jobs that had `maxAttempts` attempts already; returns them for the log. */
  async dropSpentAfterAnswerJobs(now: number, maxAttempts: number): Promise<AfterAnswerJob[]> {
    const rows = await this.db.query(
      `DELETE FROM after_answer_jobs WHERE id IN (SELECT id FROM after_answer_jobs WHERE due_at <= $1 AND attempts >= $2 FOR UPDATE SKIP LOCKED) RETURNING *`,
      [now, maxAttempts],
    );
    return rows.map(toAfterAnswerJob);
  }

  /** How many jobs are due at `now` (spent ones too): the recovery's check before it writes anything. */
  async countDueAfterAnswerJobs(now: number): Promise<number> {
    const rows = await this.db.query('SELECT count(*) AS n FROM after_answer_jobs WHERE due_at <= $1', [now]);
    return num(rows[0]?.n ?? 0);
  }

  async listAfterAnswerJobs(): Promise<AfterAnswerJob[]> {
    const rows = await this.db.query('SELECT * FROM after_answer_jobs ORDER BY created_on, id');
    return rows.map(toAfterAnswerJob);
  }

  // ---- forms --------------------------------------------------------------------------

  async insertSubmissionKey(key: string, createdAt: number): Promise<void> {
    await this.db.query('INSERT INTO form_submission_keys (key, created_at) VALUES ($1, $2)', [key, createdAt]);
  }

  /**
   * Marks the key used if it is unused and issued after `issuedAfter`; one UPDATE, so two
   * concurrent submissions cannot both consume it.
   */
  async consumeSubmissionKey(key: string, now: number, issuedAfter: number): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE form_submission_keys SET used_at = $2
       WHERE key = $1 AND used_at IS NULL AND created_at > $3 RETURNING key`,
      [key, now, issuedAfter],
    );
    return rows.length === 1;
  }

  async insertSubmission(submission: FormSubmission): Promise<void> {
    await this.db.query(
      `INSERT INTO form_submissions (id, form_id, submitted_values, page_id, page_title, page_path, content_source,
         page_permission_type_value, site_user_id, created_on)
       VALUES ($1, $2, $3::jsonb, $4, $5, $6, $7, $8, $9, $10)`,
      [
        submission.id, submission.formId, jsonParam(submission.values), submission.pageId, submission.pageTitle,
        submission.pagePath, submission.contentSource, submission.pagePermissionTypeValue, submission.siteUserId,
        submission.createdOn,
      ],
    );
  }

  async listSubmissions(): Promise<FormSubmission[]> {
    const rows = await this.db.query('SELECT * FROM form_submissions ORDER BY created_on, id');
    return rows.map((row) => ({
      id: str(row.id),
      formId: str(row.form_id),
      values: json(row.submitted_values),
      pageId: str(row.page_id),
      pageTitle: str(row.page_title),
      pagePath: str(row.page_path),
      contentSource: str(row.content_source),
      pagePermissionTypeValue: num(row.page_permission_type_value),
      siteUserId: strOrNull(row.site_user_id),
      createdOn: num(row.created_on),
    }));
  }

  /** True the first time a captcha token is seen; tokens are single-use. */
  async useCaptchaToken(token: string, now: number): Promise<boolean> {
    const rows = await this.db.query(
      'INSERT INTO used_captcha_tokens (token, used_at) VALUES ($1, $2) ON CONFLICT (token) DO NOTHING RETURNING token',
      [token, now],
    );
    return rows.length === 1;
  }

  // ---- analytics and error reports ----------------------------------------------------

  async insertCensusEvent(event: CensusEvent): Promise<void> {
    await this.db.query(
      `INSERT INTO census_events (id, kind, event, data, ss_cvr, user_agent, received_at)
       VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7)`,
      [event.id, event.kind, event.event, jsonParam(event.data), event.ssCvr, event.userAgent, event.receivedAt],
    );
  }

  async listCensusEvents(): Promise<CensusEvent[]> {
    const rows = await this.db.query('SELECT * FROM census_events ORDER BY received_at, id');
    return rows.map((row) => ({
      id: str(row.id),
      kind: str(row.kind) as CensusKind,
      event: strOrNull(row.event),
      data: json(row.data),
      ssCvr: strOrNull(row.ss_cvr),
      userAgent: strOrNull(row.user_agent),
      receivedAt: num(row.received_at),
    }));
  }

  async insertJsErrorReport(report: JsErrorReport): Promise<void> {
    await this.db.query(
      `INSERT INTO js_error_reports (id, event, data, reported_at, user_agent, referer, received_at)
       VALUES ($1, $2, $3::jsonb, $4, $5, $6, $7)`,
      [report.id, report.event, jsonParam(report.data), report.timestamp, report.userAgent, report.referer, report.receivedAt],
    );
  }

  async listJsErrorReports(): Promise<JsErrorReport[]> {
    const rows = await this.db.query('SELECT * FROM js_error_reports ORDER BY received_at, id');
    return rows.map((row) => ({
      id: str(row.id),
      event: str(row.event),
      data: json(row.data),
      timestamp: num(row.reported_at),
      userAgent: strOrNull(row.user_agent),
      referer: strOrNull(row.referer),
      receivedAt: num(row.received_at),
    }));
  }

  // ---- rate limits and retention -------------------------------------------------------

  /**
   * Counts one hit for `key` in one statement: a window that has ended starts again at 1.
   * The upsert takes the row lock, so concurrent hits on any instance are all counted.
   */
  async hitRateCounter(key: string, now: number, windowMs: number): Promise<RateCounter> {
    const rows = await this.db.query(
      `INSERT INTO rate_limit_counters AS c (key, hits, expires_at) VALUES ($1, 1, $2::bigint + $3::bigint)
       ON CONFLICT (key) DO UPDATE SET
         hits = CASE WHEN c.expires_at <= $2::bigint THEN 1 ELSE c.hits + 1 END,
         expires_at = CASE WHEN c.expires_at <= $2::bigint THEN $2::bigint + $3::bigint ELSE c.expires_at END
       RETURNING hits, expires_at`,
      [key, now, windowMs],
    );
    const row = rows[0]!;
    return { hits: num(row.hits), expiresAt: num(row.expires_at) };
  }

  /** The live window of `key`, or null when it has none. */
  async getRateCounter(key: string, now: number): Promise<RateCounter | null> {
    const rows = await this.db.query('SELECT hits, expires_at FROM rate_limit_counters WHERE key = $1 AND expires_at > $2', [key, now]);
    const row = rows[0];
    return row ? { hits: num(row.hits), expiresAt: num(row.expires_at) } : null;
  }

  /**
   * Deletes at most `limit` rows of `target` whose time is before `cutoff`, oldest first, and
   * says how many went; the time index makes each call read about as many rows as it deletes.
   */
  async deleteExpired(target: RetentionTable, cutoff: number, limit: number): Promise<number> {
    const spec: { table: string; key: string; time: string; where?: string } = RETENTION_TABLES[target];
    const { table, key, time } = spec;
    const also = spec.where ? ` AND ${spec.where}` : '';
    const rows = await this.db.query(
      // The outer tests are checked again on a row that changed meanwhile (a rate counter
      // whose window restarted, a cart bought meanwhile is kept).
      `DELETE FROM ${table} WHERE ${key} IN (SELECT ${key} FROM ${table} WHERE ${time} < $1${also} ORDER BY ${time} LIMIT $2)
         AND ${time} < $1${also} RETURNING 1 AS gone`,
      [cutoff, limit],
    );
    return rows.length;
  }

  // ---- platform runtime: newer tracker, performance records, store creation -----------

  async insertClankerEvent(event: ClankerEventRecord): Promise<void> {
    await this.db.query(
      `INSERT INTO clanker_events (id, schema_name, content, transport, user_agent, received_at)
       VALUES ($1, $2, $3::jsonb, $4, $5, $6)`,
      [event.id, event.schemaName, jsonParam(event.content), event.transport, event.userAgent, event.receivedAt],
    );
  }

  async listClankerEvents(): Promise<ClankerEventRecord[]> {
    const rows = await this.db.query('SELECT * FROM clanker_events ORDER BY received_at, id COLLATE "C"');
    return rows.map((row) => ({
      id: str(row.id),
      schemaName: str(row.schema_name),
      content: json(row.content),
      transport: str(row.transport) as ClankerTransport,
      userAgent: strOrNull(row.user_agent),
      receivedAt: num(row.received_at),
    }));
  }

  async insertPageLoad(id: string, issuedAt: number): Promise<void> {
    await this.db.query('INSERT INTO performance_page_loads (id, issued_at) VALUES ($1, $2)', [id, issuedAt]);
  }

  async getPageLoad(id: string, options: { lock?: boolean } = {}): Promise<PerformancePageLoad | null> {
    const rows = await this.db.query(
      `SELECT id, issued_at, record_count FROM performance_page_loads WHERE id = $1${options.lock ? ' FOR UPDATE' : ''}`,
      [id],
    );
    const row = rows[0];
    return row ? { id: str(row.id), issuedAt: num(row.issued_at), recordCount: num(row.record_count) } : null;
  }

  /** Appends a batch after the page load's count; the caller holds the page-load row lock. */
  async insertPerformanceRecords(pageLoad: PerformancePageLoad, records: StoredPerformanceRecord[]): Promise<void> {
    let position = pageLoad.recordCount;
    for (const record of records) {
      await this.db.query(
        `INSERT INTO performance_records (id, page_load_id, position, page_path, metric, value, rating, at_ms, received_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [record.id, pageLoad.id, position++, record.pagePath, record.metric, record.value, record.rating, record.at, record.receivedAt],
      );
    }
    await this.db.query('UPDATE performance_page_loads SET record_count = $2 WHERE id = $1', [pageLoad.id, position]);
  }

  async listPerformanceRecords(pageLoadId: string): Promise<StoredPerformanceRecord[]> {
    const rows = await this.db.query('SELECT * FROM performance_records WHERE page_load_id = $1 ORDER BY position', [pageLoadId]);
    return rows.map((row) => ({
      id: str(row.id),
      pageLoadId: str(row.page_load_id),
      pagePath: str(row.page_path),
      metric: str(row.metric),
      value: num(row.value),
      rating: str(row.rating),
      at: num(row.at_ms),
      receivedAt: num(row.received_at),
    }));
  }

  /** False when the url id is already used on that website (the unique key decides). */
  async insertStoreCollection(collection: StoreCollection): Promise<boolean> {
    const rows = await this.db.query(
      `INSERT INTO store_collections (id, website_id, navigation_title, title, url_id, description, enabled, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (website_id, url_id) DO NOTHING RETURNING id`,
      [
        collection.id, collection.websiteId, collection.navigationTitle, collection.title, collection.urlId,
        collection.description, collection.enabled, collection.createdAt,
      ],
    );
    return rows.length === 1;
  }

  async getStoreCollection(id: string): Promise<StoreCollection | null> {
    const rows = await this.db.query('SELECT * FROM store_collections WHERE id = $1', [id]);
    const row = rows[0];
    return row ? toStoreCollection(row) : null;
  }

  async listStoreCollections(websiteId: string): Promise<StoreCollection[]> {
    const rows = await this.db.query(
      'SELECT * FROM store_collections WHERE website_id = $1 ORDER BY created_at, id COLLATE "C"',
      [websiteId],
    );
    return rows.map(toStoreCollection);
  }

  /** False when the collection already has a root category (one per collection). */
  async insertStoreCategory(category: StoreCategory): Promise<boolean> {
    const rows = await this.db.query(
      `INSERT INTO store_categories (id, collection_id, display_name, parent_category_id, type, page_rendering, display_index, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING RETURNING id`,
      [
        category.id, category.collectionId, category.displayName, category.parentCategoryId, category.type,
        category.pageRendering, category.displayIndex, category.createdAt,
      ],
    );
    return rows.length === 1;
  }

  async listStoreCategories(collectionId: string): Promise<StoreCategory[]> {
    const rows = await this.db.query(
      'SELECT * FROM store_categories WHERE collection_id = $1 ORDER BY display_index, id COLLATE "C"',
      [collectionId],
    );
    return rows.map((row) => ({
      id: str(row.id),
      collectionId: str(row.collection_id),
      displayName: str(row.display_name),
      parentCategoryId: str(row.parent_category_id),
      type: str(row.type),
      pageRendering: str(row.page_rendering),
      displayIndex: num(row.display_index),
      createdAt: num(row.created_at),
    }));
  }

  async getSiteLayout(websiteId: string, options: { lock?: boolean } = {}): Promise<unknown[] | null> {
    const rows = await this.db.query(
      `SELECT layout FROM site_layouts WHERE website_id = $1${options.lock ? ' FOR UPDATE' : ''}`,
      [websiteId],
    );
    const row = rows[0];
    return row ? json<unknown[]>(row.layout) : null;
  }

  async putSiteLayout(websiteId: string, layout: unknown[]): Promise<void> {
    await this.db.query(
      `INSERT INTO site_layouts (website_id, layout) VALUES ($1, $2::jsonb)
       ON CONFLICT (website_id) DO UPDATE SET layout = EXCLUDED.layout`,
      [websiteId, jsonParam(layout)],
    );
  }

  // ---- maintenance --------------------------------------------------------------------

  /** Empties every table (tests reset one shared database between cases this way). */
  async truncateAll(): Promise<void> {
    await this.db.query(`TRUNCATE ${ALL_TABLES.join(', ')}`);
  }
}

function toStoredFeatures(row: Row): StoredSiteFeatures | null {
  if (row.features === null || row.features === undefined) return null;
  const config = json<{ features?: Record<string, boolean>; experiments?: StoredSiteFeatures['experiments'] }>(row.features);
  return { features: config.features ?? {}, experiments: config.experiments ?? {}, updatedAt: num(row.features_updated_at) };
}

function toVariant(row: Row): Variant {
  return {
    id: str(row.id),
    sku: str(row.sku),
    attributes: json(row.attributes),
    priceCents: num(row.price_cents),
    salePriceCents: num(row.sale_price_cents),
    onSale: Boolean(row.on_sale),
    qtyInStock: num(row.qty_in_stock),
    unlimited: Boolean(row.unlimited),
  };
}

function toProduct(row: Row, variants: Row[]): Product {
  return {
    id: str(row.id),
    title: str(row.title),
    urlSlug: str(row.url_slug),
    collectionId: strOrNull(row.collection_id),
    productType: num(row.product_type) as ProductType,
    isSubscribable: Boolean(row.is_subscribable),
    subscriptionPlan: json(row.subscription_plan),
    additionalFieldsFormId: strOrNull(row.additional_fields_form_id),
    restockEnabled: Boolean(row.restock_enabled),
    variants: variants.map(toVariant),
    extra: json(row.extra) ?? {},
  };
}

function toEntry(row: Row): CartEntryRecord {
  return {
    id: str(row.id),
    cartId: str(row.cart_id),
    position: num(row.position),
    itemId: str(row.item_id),
    sku: str(row.sku),
    variantId: str(row.variant_id),
    quantity: num(row.quantity),
    productType: num(row.product_type) as ProductType,
    attributes: json(row.attributes),
    title: str(row.title),
    purchasePriceCents: num(row.purchase_price_cents),
    additionalFields: strOrNull(row.additional_fields),
    // Only a cart read says it; a line no read has checked counts as available.
    ...(row.available === false ? { available: false } : {}),
  };
}

function toUser(row: Row): SiteUser {
  return {
    id: str(row.id),
    email: str(row.email),
    passwordHash: str(row.password_hash),
    locale: strOrNull(row.locale),
  };
}

function toSignUp(row: Row): RestockSignUp {
  return {
    id: str(row.id),
    productId: str(row.product_id),
    variantId: str(row.variant_id),
    siteVisitorEmail: str(row.email),
    isJoinMailingList: Boolean(row.is_join_mailing_list),
    createdOn: num(row.created_on),
    notifiedOn: numOrNull(row.notified_on),
  };
}

function toStoreCollection(row: Row): StoreCollection {
  return {
    id: str(row.id),
    websiteId: str(row.website_id),
    navigationTitle: str(row.navigation_title),
    title: str(row.title),
    urlId: str(row.url_id),
    description: str(row.description),
    enabled: Boolean(row.enabled),
    createdAt: num(row.created_at),
  };
}

function toAfterAnswerJob(row: Row): AfterAnswerJob {
  return {
    id: str(row.id),
    kind: str(row.kind),
    email: str(row.email),
    detail: json<Record<string, unknown>>(row.detail),
    createdOn: num(row.created_on),
    attempts: num(row.attempts),
    dueAt: num(row.due_at),
  };
}

function toOutboxRow(row: Row): OutboxRow {
  return {
    id: str(row.id),
    to: str(row.to_email),
    subject: str(row.subject),
    body: str(row.body),
    productId: strOrNull(row.product_id),
    variantId: strOrNull(row.variant_id),
    queuedOn: num(row.queued_on),
    html: strOrNull(row.html),
    headers: row.headers ? (JSON.parse(str(row.headers)) as Record<string, string>) : null,
    status: str(row.status) as OutboxStatus,
    attempts: num(row.attempts),
    nextAttemptAt: num(row.next_attempt_at),
    claimedBy: strOrNull(row.claimed_by),
    claimedUntil: numOrNull(row.claimed_until),
    sentAt: numOrNull(row.sent_at),
    lastError: strOrNull(row.last_error),
    messageId: strOrNull(row.message_id),
  };
}
