import type { Queryable } from './sql-client.ts';
import type { OrderStatus, OwnerRefund, PlacedOrder } from './types.ts';

// The SQL of placed orders (renderer/orders/, migration 006-orders): the order's JSON
// document plus the columns it is found, numbered and locked by, the per-site counter, the
// stock moves of placing and cancelling, gift cards and subscriptions. Reached as
// `repo.orders` on the pooled client or inside a transaction.

type Row = Record<string, unknown>;

const num = (value: unknown): number => (typeof value === 'number' ? value : Number(value));
const json = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;

export interface OrderKeyset {
  createdOn: number;
  id: string;
}

export interface NewGiftCard {
  code: string;
  websiteId: string;
  orderId: string;
  itemId: string;
  sku: string;
  amountCents: number;
  currency: string;
  createdOn: number;
}

export interface NewSubscription {
  id: string;
  websiteId: string;
  orderId: string;
  email: string;
  itemId: string;
  variantId: string;
  sku: string;
  quantity: number;
  priceCents: number;
  billingPeriod: { value: number; unit: string };
  numBillingCycles: number;
  createdOn: number;
  nextBillingOn: number;
}

export interface StoredSubscription extends NewSubscription {
  status: string;
}

/** What the owner's order list is narrowed to (GET /api/commerce/orders `status`, `q`). */
export interface OrderFilter {
  status?: OrderStatus;
  orderNumber?: number;
  emailContains?: string;
}

/** Placed orders (with a number) only: a seeded analytics order is not one a buyer can look up or the owner list. */
const PLACED = 'order_number IS NOT NULL';

export class OrderRepository {
  constructor(private readonly db: Queryable) {}

  async insert(order: PlacedOrder, idempotencyKey: string | null): Promise<void> {
    await this.db.query(
      `INSERT INTO orders (id, data, website_id, order_number, email_key, status, created_on, purchased_cart_id, idempotency_key, download_token, site_user_id)
       VALUES ($1, $2::jsonb, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
        order.id, JSON.stringify(order), order.websiteId, order.orderNumber, order.email.trim().toLowerCase(), order.status,
        order.createdOn, order.purchasedCartId, idempotencyKey, order.downloadToken ?? null, order.siteUserId ?? null,
      ],
    );
  }

  /** With `lock`, the order row stays locked until the transaction ends (status changes). */
  async get(id: string, options: { lock?: boolean } = {}): Promise<PlacedOrder | null> {
    const rows = await this.db.query(`SELECT data FROM orders WHERE id = $1 AND ${PLACED}${options.lock ? ' FOR UPDATE' : ''}`, [id]);
    return rows[0] ? json<PlacedOrder>(rows[0].data) : null;
  }

  /** The order a submission with this key already placed for this cart (a retry), or null. */
  async findByIdempotencyKey(cartId: string, idempotencyKey: string): Promise<PlacedOrder | null> {
    const rows = await this.db.query('SELECT data FROM orders WHERE purchased_cart_id = $1 AND idempotency_key = $2', [cartId, idempotencyKey]);
    return rows[0] ? json<PlacedOrder>(rows[0].data) : null;
  }

  /** Order status (page type 211): number and email must both match, so a number alone reveals nothing. */
  async findByNumber(websiteId: string, orderNumber: number, email: string): Promise<PlacedOrder | null> {
    const rows = await this.db.query('SELECT data FROM orders WHERE website_id = $1 AND order_number = $2 AND email_key = $3', [
      websiteId, orderNumber, email.trim().toLowerCase(),
    ]);
    return rows[0] ? json<PlacedOrder>(rows[0].data) : null;
  }

  /**
   * The orders `siteUserId` placed signed in on this site, newest first, `limit` rows after the
   * keyset `after` (order status page, 211). Never by email: orders placed signed out are not here.
   */
  async listForSiteUser(websiteId: string, siteUserId: string, after: OrderKeyset | null, limit: number): Promise<PlacedOrder[]> {
    const params: unknown[] = [websiteId, siteUserId, limit];
    const keyset = after ? `AND (created_on, id) < ($${params.push(after.createdOn)}::bigint, $${params.push(after.id)}::text)` : '';
    const rows = await this.db.query(
      `SELECT data FROM orders WHERE website_id = $1 AND site_user_id = $2 AND ${PLACED} ${keyset} ORDER BY created_on DESC, id DESC LIMIT $3`,
      params,
    );
    return rows.map((row) => json<PlacedOrder>(row.data));
  }

  /** The order numbered `orderNumber` on this site when `siteUserId` placed it, else null (the buyer's own link on 211). */
  async findOwnByNumber(websiteId: string, siteUserId: string, orderNumber: number): Promise<PlacedOrder | null> {
    const rows = await this.db.query(`SELECT data FROM orders WHERE website_id = $1 AND order_number = $2 AND site_user_id = $3`, [websiteId, orderNumber, siteUserId]);
    return rows[0] ? json<PlacedOrder>(rows[0].data) : null;
  }

  /**
   * Newest first, `limit` rows after the keyset `after` (the last row of the previous page),
   * only those of `filter`: a status, an order number, or an email the buyer's contains.
   */
  async list(websiteId: string, after: OrderKeyset | null, limit: number, filter: OrderFilter = {}): Promise<PlacedOrder[]> {
    const params: unknown[] = [websiteId];
    const where = ['website_id = $1', PLACED];
    const param = (value: unknown) => `$${params.push(value)}`;
    if (filter.status) where.push(`status = ${param(filter.status)}`);
    if (filter.orderNumber !== undefined) where.push(`order_number = ${param(filter.orderNumber)}`);
    // LIKE's own characters in the typed text are literal (`_` in an address matched any one).
    if (filter.emailContains) where.push(`email_key LIKE ${param(`%${filter.emailContains.trim().normalize('NFC').toLowerCase().replace(/[\\%_]/g, '\\$&')}%`)}`);
    if (after) where.push(`(created_on, id) < (${param(after.createdOn)}::bigint, ${param(after.id)}::text)`);
    const rows = await this.db.query(`SELECT data FROM orders WHERE ${where.join(' AND ')} ORDER BY created_on DESC, id DESC LIMIT ${param(limit)}`, params);
    return rows.map((row) => json<PlacedOrder>(row.data));
  }

  /** Replaces the stored document (status changes); the status and download token columns follow it. */
  async update(order: PlacedOrder): Promise<void> {
    await this.db.query('UPDATE orders SET data = $2::jsonb, status = $3, download_token = $4 WHERE id = $1', [
      order.id, JSON.stringify(order), order.status, order.downloadToken ?? null,
    ]);
  }

  /** The placed order holding this download token, or null. */
  async findByDownloadToken(token: string): Promise<PlacedOrder | null> {
    const rows = await this.db.query(`SELECT data FROM orders WHERE download_token = $1 AND ${PLACED}`, [token]);
    return rows[0] ? json<PlacedOrder>(rows[0].data) : null;
  }

  /**
   * Counts one download of `itemId` of the order with `token`, only while the order is in one of
   * `statuses` and the file was served fewer than `limit` times; one statement, so downloads at
   * once never pass the limit. The new count, or null when refused.
   */
  async takeDownload(token: string, itemId: string, limit: number, statuses: readonly OrderStatus[]): Promise<number | null> {
    const rows = await this.db.query(
      `UPDATE orders SET download_counts = jsonb_set(download_counts, ARRAY[$2::text], to_jsonb(COALESCE((download_counts ->> $2::text)::int, 0) + 1))
       WHERE download_token = $1::text AND status = ANY($4::text[]) AND COALESCE((download_counts ->> $2::text)::int, 0) < $3::int
       RETURNING (download_counts ->> $2::text)::int AS n`,
      [token, itemId, limit, statuses],
    );
    return rows[0] ? num(rows[0].n) : null;
  }

  /** How often each file of the order was downloaded (item id -> count). */
  async downloadCounts(orderId: string): Promise<Record<string, number>> {
    const rows = await this.db.query('SELECT download_counts FROM orders WHERE id = $1', [orderId]);
    return rows[0] ? json<Record<string, number>>(rows[0].download_counts) : {};
  }

  /** The download counts of several orders at once (the owner's list): order id -> (item id -> count). */
  async downloadCountsOf(orderIds: readonly string[]): Promise<Map<string, Record<string, number>>> {
    const counts = new Map<string, Record<string, number>>();
    if (orderIds.length === 0) return counts;
    const rows = await this.db.query('SELECT id, download_counts FROM orders WHERE id = ANY($1::text[])', [orderIds]);
    for (const row of rows) counts.set(String(row.id), json<Record<string, number>>(row.download_counts) ?? {});
    return counts;
  }

  /** Starts one file's count of the order over (the owner's reset): its link works DOWNLOAD_LIMIT times again. */
  async resetDownloads(orderId: string, itemId: string): Promise<void> {
    await this.db.query('UPDATE orders SET download_counts = download_counts - $2::text WHERE id = $1', [orderId, itemId]);
  }

  /** The next order number of the site: 1, 2, 3, … The upsert row-locks the counter until the transaction ends. */
  async nextNumber(websiteId: string): Promise<number> {
    const rows = await this.db.query(
      `INSERT INTO order_counters AS c (website_id, last_number) VALUES ($1, 1)
       ON CONFLICT (website_id) DO UPDATE SET last_number = c.last_number + 1 RETURNING last_number`,
      [websiteId],
    );
    return num(rows[0]!.last_number);
  }

  /**
   * Takes `quantity` from a variant's stock in one statement, only when that many are left
   * (unlimited variants are not counted down). False: not enough, or no such variant. On
   * PostgreSQL a concurrent taker waits for this row lock and re-checks the condition, so
   * two checkouts can never both take the last item.
   */
  async takeStock(productId: string, variantId: string, quantity: number): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE variants SET qty_in_stock = CASE WHEN unlimited THEN qty_in_stock ELSE qty_in_stock - $3 END
       WHERE product_id = $1 AND id = $2 AND NOT hidden AND (unlimited OR qty_in_stock >= $3) RETURNING id`,
      [productId, variantId, quantity],
    );
    return rows.length === 1;
  }

  /** Puts a cancelled order's quantity back (unlimited variants are left alone). */
  async returnStock(productId: string, variantId: string, quantity: number): Promise<void> {
    await this.db.query('UPDATE variants SET qty_in_stock = qty_in_stock + $3 WHERE product_id = $1 AND id = $2 AND NOT unlimited', [
      productId, variantId, quantity,
    ]);
  }

  async markCartPurchased(cartId: string, orderId: string): Promise<void> {
    await this.db.query('UPDATE carts SET is_purchased = true, order_id = $2 WHERE id = $1', [cartId, orderId]);
  }

  async insertGiftCard(card: NewGiftCard): Promise<void> {
    await this.db.query(
      `INSERT INTO gift_cards (code, website_id, order_id, item_id, sku, initial_cents, balance_cents, currency, created_on)
       VALUES ($1, $2, $3, $4, $5, $6, $6, $7, $8)`,
      [card.code, card.websiteId, card.orderId, card.itemId, card.sku, card.amountCents, card.currency, card.createdOn],
    );
  }

  async listGiftCards(orderId: string): Promise<{ code: string; balanceCents: number; initialCents: number }[]> {
    const rows = await this.db.query('SELECT code, balance_cents, initial_cents FROM gift_cards WHERE order_id = $1 ORDER BY code', [orderId]);
    return rows.map((row) => ({ code: String(row.code), balanceCents: num(row.balance_cents), initialCents: num(row.initial_cents) }));
  }

  /** A cancelled order's gift cards are worth nothing any more. */
  async voidGiftCards(orderId: string): Promise<void> {
    await this.db.query('UPDATE gift_cards SET balance_cents = 0 WHERE order_id = $1', [orderId]);
  }

  /** A cancelled order's subscription stops. */
  async cancelSubscriptions(orderId: string): Promise<void> {
    await this.db.query("UPDATE subscriptions SET status = 'cancelled' WHERE order_id = $1", [orderId]);
  }

  async insertSubscription(subscription: NewSubscription): Promise<void> {
    await this.db.query(
      `INSERT INTO subscriptions (id, website_id, order_id, email, item_id, variant_id, sku, quantity, price_cents,
         billing_period_value, billing_period_unit, num_billing_cycles, status, created_on, next_billing_on)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 'active', $13, $14)`,
      [
        subscription.id, subscription.websiteId, subscription.orderId, subscription.email, subscription.itemId, subscription.variantId,
        subscription.sku, subscription.quantity, subscription.priceCents, subscription.billingPeriod.value, subscription.billingPeriod.unit,
        subscription.numBillingCycles, subscription.createdOn, subscription.nextBillingOn,
      ],
    );
  }

  async listSubscriptions(orderId: string): Promise<StoredSubscription[]> {
    const rows = await this.db.query('SELECT * FROM subscriptions WHERE order_id = $1 ORDER BY id', [orderId]);
    return rows.map((row: Row) => ({
      id: String(row.id),
      websiteId: String(row.website_id),
      orderId: String(row.order_id),
      email: String(row.email),
      itemId: String(row.item_id),
      variantId: String(row.variant_id),
      sku: String(row.sku),
      quantity: num(row.quantity),
      priceCents: num(row.price_cents),
      billingPeriod: { value: num(row.billing_period_value), unit: String(row.billing_period_unit) },
      numBillingCycles: num(row.num_billing_cycles),
      status: String(row.status),
      createdOn: num(row.created_on),
      nextBillingOn: num(row.next_billing_on),
    }));
  }

  /**
   * Books one owner's refund (migration 017), inside the transaction that stores it in the order.
   * False when this order already has a refund with this key: nothing is written twice.
   */
  async insertRefund(order: Pick<PlacedOrder, 'id' | 'websiteId'>, refund: OwnerRefund): Promise<boolean> {
    const rows = await this.db.query(
      `INSERT INTO order_refunds (order_id, refund_key, website_id, amount_cents, kind, provider_reference, refunded_by, reason, created_on)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (order_id, refund_key) DO NOTHING RETURNING refund_key`,
      [order.id, refund.key, order.websiteId, refund.amountCents, refund.kind, refund.reference, refund.by, refund.reason, refund.on],
    );
    return rows.length === 1;
  }

  /** The owner's refunds of an order as booked, oldest first (the books; the pages read the document). */
  async listRefunds(orderId: string): Promise<{ key: string; amountCents: number; kind: string; by: string; on: number }[]> {
    const rows = await this.db.query('SELECT refund_key, amount_cents, kind, refunded_by, created_on FROM order_refunds WHERE order_id = $1 ORDER BY created_on, refund_key', [orderId]);
    return rows.map((row) => ({ key: String(row.refund_key), amountCents: num(row.amount_cents), kind: String(row.kind), by: String(row.refunded_by), on: num(row.created_on) }));
  }

  /** Orders of the site with this status (tests and the admin's counts). */
  async countByStatus(websiteId: string, status: OrderStatus): Promise<number> {
    const rows = await this.db.query(`SELECT count(*) AS n FROM orders WHERE website_id = $1 AND status = $2 AND ${PLACED}`, [websiteId, status]);
    return num(rows[0]?.n ?? 0);
  }
}
