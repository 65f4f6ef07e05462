import type { SqlClient } from './sql-client.ts';

export interface Migration {
  id: string;
  sql: string;
}

// Append only: an applied migration is never edited, because databases that already ran
// it would silently differ from new ones. Timestamps are bigint milliseconds so ordering
// and cursors are exact on both drivers.
export const MIGRATIONS: readonly Migration[] = [
  {
    id: '001-initial',
    sql: `
      CREATE TABLE sites (
        website_id text PRIMARY KEY,
        settings jsonb NOT NULL
      );
      CREATE TABLE products (
        id text PRIMARY KEY,
        position integer NOT NULL,
        title text NOT NULL,
        url_slug text NOT NULL,
        collection_id text,
        product_type integer NOT NULL,
        is_subscribable boolean NOT NULL,
        subscription_plan jsonb,
        additional_fields_form_id text,
        restock_enabled boolean NOT NULL,
        extra jsonb NOT NULL DEFAULT '{}'::jsonb
      );
      CREATE TABLE variants (
        product_id text NOT NULL REFERENCES products(id) ON DELETE CASCADE,
        id text NOT NULL,
        position integer NOT NULL,
        sku text NOT NULL,
        attributes jsonb NOT NULL,
        price_cents bigint NOT NULL,
        sale_price_cents bigint NOT NULL,
        on_sale boolean NOT NULL,
        qty_in_stock bigint NOT NULL,
        unlimited boolean NOT NULL,
        PRIMARY KEY (product_id, id)
      );
      CREATE TABLE forms (
        id text PRIMARY KEY,
        definition jsonb NOT NULL
      );
      CREATE TABLE carts (
        id text PRIMARY KEY,
        website_id text NOT NULL,
        kind text NOT NULL,
        owner_site_user_id text,
        order_id text,
        is_purchased boolean NOT NULL DEFAULT false,
        created bigint NOT NULL,
        expires_at bigint
      );
      CREATE INDEX carts_owner ON carts (owner_site_user_id, kind);
      CREATE TABLE cart_entries (
        id text PRIMARY KEY,
        cart_id text NOT NULL REFERENCES carts(id) ON DELETE CASCADE,
        position integer NOT NULL,
        item_id text NOT NULL,
        sku text NOT NULL,
        variant_id text NOT NULL,
        quantity integer NOT NULL,
        product_type integer NOT NULL,
        attributes jsonb NOT NULL,
        title text NOT NULL,
        purchase_price_cents bigint NOT NULL,
        additional_fields text
      );
      CREATE INDEX cart_entries_cart ON cart_entries (cart_id, position);
      CREATE TABLE site_users (
        id text PRIMARY KEY,
        email text NOT NULL,
        email_key text NOT NULL UNIQUE,
        password_hash text NOT NULL,
        locale text
      );
      CREATE TABLE sessions (
        id text PRIMARY KEY,
        site_user_id text NOT NULL REFERENCES site_users(id) ON DELETE CASCADE,
        xsrf_token text NOT NULL,
        created_at bigint NOT NULL,
        expires_at bigint NOT NULL,
        persistent boolean NOT NULL
      );
      CREATE TABLE restock_sign_ups (
        id text PRIMARY KEY,
        product_id text NOT NULL,
        variant_id text NOT NULL,
        email text NOT NULL,
        email_key text NOT NULL,
        is_join_mailing_list boolean NOT NULL,
        created_on bigint NOT NULL,
        notified_on bigint
      );
      CREATE INDEX restock_by_variant ON restock_sign_ups (product_id, variant_id, created_on, id);
      CREATE UNIQUE INDEX restock_one_pending ON restock_sign_ups (product_id, variant_id, email_key)
        WHERE notified_on IS NULL;
      CREATE TABLE mailing_list (
        email_key text PRIMARY KEY,
        email text NOT NULL,
        source text NOT NULL,
        added_on bigint NOT NULL
      );
      CREATE TABLE outbox (
        id text PRIMARY KEY,
        to_email text NOT NULL,
        subject text NOT NULL,
        body text NOT NULL,
        product_id text,
        variant_id text,
        queued_on bigint NOT NULL
      );
      CREATE TABLE form_submission_keys (
        key text PRIMARY KEY,
        created_at bigint NOT NULL,
        used_at bigint
      );
      CREATE TABLE form_submissions (
        id text PRIMARY KEY,
        form_id text NOT NULL,
        submitted_values jsonb NOT NULL,
        page_id text NOT NULL,
        page_title text NOT NULL,
        page_path text NOT NULL,
        content_source text NOT NULL,
        page_permission_type_value integer NOT NULL,
        site_user_id text,
        created_on bigint NOT NULL
      );
      CREATE TABLE census_events (
        id text PRIMARY KEY,
        kind text NOT NULL,
        event text,
        data jsonb NOT NULL,
        ss_cvr text,
        user_agent text,
        received_at bigint NOT NULL
      );
      CREATE TABLE js_error_reports (
        id text PRIMARY KEY,
        event text NOT NULL,
        data jsonb NOT NULL,
        reported_at double precision NOT NULL,
        user_agent text,
        referer text,
        received_at bigint NOT NULL
      );
      CREATE TABLE orders (
        id text PRIMARY KEY,
        data jsonb NOT NULL
      );
      CREATE TABLE used_captcha_tokens (
        token text PRIMARY KEY,
        used_at bigint NOT NULL
      );
    `,
  },
  {
    // Platform runtime (templates seed §7): newer-tracker events, performance page loads
    // and their metric records, and the store-creation helper's collections, root
    // categories and site layout.
    id: '002-platform',
    sql: `
      CREATE TABLE clanker_events (
        id text PRIMARY KEY,
        schema_name text NOT NULL,
        content jsonb NOT NULL,
        transport text NOT NULL,
        user_agent text,
        received_at bigint NOT NULL
      );
      CREATE TABLE performance_page_loads (
        id text PRIMARY KEY,
        issued_at bigint NOT NULL,
        record_count integer NOT NULL DEFAULT 0
      );
      CREATE TABLE performance_records (
        id text PRIMARY KEY,
        page_load_id text NOT NULL REFERENCES performance_page_loads(id) ON DELETE CASCADE,
        position integer NOT NULL,
        page_path text NOT NULL,
        metric text NOT NULL,
        value double precision NOT NULL,
        rating text NOT NULL,
        at_ms double precision NOT NULL,
        received_at bigint NOT NULL
      );
      CREATE INDEX performance_records_by_load ON performance_records (page_load_id, position);
      CREATE TABLE store_collections (
        id text PRIMARY KEY,
        website_id text NOT NULL,
        navigation_title text NOT NULL,
        title text NOT NULL,
        url_id text NOT NULL,
        description text NOT NULL,
        enabled boolean NOT NULL,
        created_at bigint NOT NULL,
        UNIQUE (website_id, url_id)
      );
      CREATE TABLE store_categories (
        id text PRIMARY KEY,
        collection_id text NOT NULL REFERENCES store_collections(id) ON DELETE CASCADE,
        display_name text NOT NULL,
        parent_category_id text NOT NULL,
        type text NOT NULL,
        page_rendering text NOT NULL,
        display_index integer NOT NULL,
        created_at bigint NOT NULL
      );
      CREATE UNIQUE INDEX store_categories_one_root ON store_categories (collection_id) WHERE type = 'ROOT';
      CREATE TABLE site_layouts (
        website_id text PRIMARY KEY,
        layout jsonb NOT NULL
      );
    `,
  },
  {
    // Rate-limit counters shared by every instance on one PostgreSQL database (fixed
    // windows, api/rate-limits.ts), and the time indexes the retention sweep deletes by
    // (store/retention.ts), so each bounded delete reads only the rows it removes.
    id: '003-rate-limits-and-retention',
    sql: `
      CREATE TABLE rate_limit_counters (
        key text PRIMARY KEY,
        hits bigint NOT NULL,
        expires_at bigint NOT NULL
      );
      CREATE INDEX rate_limit_counters_expiry ON rate_limit_counters (expires_at);
      CREATE INDEX census_events_received ON census_events (received_at);
      CREATE INDEX js_error_reports_received ON js_error_reports (received_at);
      CREATE INDEX clanker_events_received ON clanker_events (received_at);
      CREATE INDEX performance_page_loads_issued ON performance_page_loads (issued_at);
      CREATE INDEX form_submission_keys_created ON form_submission_keys (created_at);
    `,
  },
  {
    // Site content sync (store/site-sync.ts): the folder's catalogue is applied on every
    // start, so what it removed is hidden rather than dropped (orders and carts still name
    // it), and each variant keeps the stock count last imported from the folder, so a
    // restart applies only a count the owner changed, never undoing visitors' purchases.
    // NULL: imported before this migration; the next sync adopts the folder's count as the
    // baseline and leaves the live count alone.
    id: '004-site-content-sync',
    sql: `
      ALTER TABLE products ADD COLUMN hidden boolean NOT NULL DEFAULT false;
      ALTER TABLE variants ADD COLUMN hidden boolean NOT NULL DEFAULT false;
      ALTER TABLE variants ADD COLUMN imported_qty bigint;
      ALTER TABLE variants ADD COLUMN imported_unlimited boolean;
      ALTER TABLE forms ADD COLUMN hidden boolean NOT NULL DEFAULT false;
    `,
  },
  {
    // Outbox delivery (mail/outbox-worker.ts): each message is pending, sent or failed. A
    // worker claims due rows by setting claimed_by/claimed_until (a lease, so a crashed
    // worker's claim lapses) and counts the attempt; a refused attempt is retried at
    // next_attempt_at. Rows queued before this migration are pending and due at once.
    id: '005-outbox-delivery',
    sql: `
      ALTER TABLE outbox ADD COLUMN status text NOT NULL DEFAULT 'pending';
      ALTER TABLE outbox ADD COLUMN attempts integer NOT NULL DEFAULT 0;
      ALTER TABLE outbox ADD COLUMN next_attempt_at bigint NOT NULL DEFAULT 0;
      ALTER TABLE outbox ADD COLUMN claimed_by text;
      ALTER TABLE outbox ADD COLUMN claimed_until bigint;
      ALTER TABLE outbox ADD COLUMN sent_at bigint;
      ALTER TABLE outbox ADD COLUMN last_error text;
      ALTER TABLE outbox ADD COLUMN message_id text;
      CREATE INDEX outbox_due ON outbox (next_attempt_at, id) WHERE status = 'pending';
    `,
  },
  {
    // The admin (renderer/admin/): owner accounts (scrypt hashes, store/password.ts), their
    // sessions and API keys. A session and a key are kept only as the SHA-256 of their
    // secret, so a copy of the database signs nobody in; a key's prefix is shown in lists.
    id: '007-admin',
    sql: `
      CREATE TABLE owners (
        id text PRIMARY KEY,
        email text NOT NULL,
        email_key text NOT NULL UNIQUE,
        password_hash text NOT NULL,
        created_at bigint NOT NULL
      );
      CREATE TABLE owner_sessions (
        id_hash text PRIMARY KEY,
        owner_id text NOT NULL REFERENCES owners (id) ON DELETE CASCADE,
        csrf_token text NOT NULL,
        created_at bigint NOT NULL,
        expires_at bigint NOT NULL
      );
      CREATE INDEX owner_sessions_expiry ON owner_sessions (expires_at);
      CREATE TABLE api_keys (
        id text PRIMARY KEY,
        name text NOT NULL,
        prefix text NOT NULL,
        key_hash text NOT NULL UNIQUE,
        created_by text,
        created_at bigint NOT NULL,
        last_used_at bigint
      );
    `,
  },
  {
    // Feature toggles and A/B tests the admin set (issue 18; GET/PUT /api/admin/features):
    // one JSON document per site, merged name by name over the site folder's `features` /
    // `experiments` (hydrate/shared/feature-toggles.ts). No row: the folder's alone.
    id: '008-site-features',
    sql: `
      CREATE TABLE site_features (
        website_id text PRIMARY KEY,
        config jsonb NOT NULL,
        updated_at bigint NOT NULL
      );
    `,
  },
  {
    // Orders placed through checkout (renderer/orders/): the order keeps its JSON document in
    // `data` and, as columns, what is searched or locked by: its site and per-site number, the
    // buyer's email key (order status lookup), status, time, and the cart and idempotency key
    // a retried submission is recognised by. Orders seeded before this have no number.
    // order_counters hands out the numbers (an upsert row-locks the site's counter); gift
    // cards issued by an order and the subscriptions it started have tables of their own.
    id: '006-orders',
    sql: `
      ALTER TABLE orders ADD COLUMN website_id text;
      ALTER TABLE orders ADD COLUMN order_number bigint;
      ALTER TABLE orders ADD COLUMN email_key text;
      ALTER TABLE orders ADD COLUMN status text NOT NULL DEFAULT 'paid';
      ALTER TABLE orders ADD COLUMN created_on bigint NOT NULL DEFAULT 0;
      ALTER TABLE orders ADD COLUMN purchased_cart_id text;
      ALTER TABLE orders ADD COLUMN idempotency_key text;
      CREATE UNIQUE INDEX orders_number ON orders (website_id, order_number) WHERE order_number IS NOT NULL;
      CREATE UNIQUE INDEX orders_idempotency ON orders (purchased_cart_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
      CREATE INDEX orders_listing ON orders (website_id, created_on, id);
      CREATE TABLE order_counters (
        website_id text PRIMARY KEY,
        last_number bigint NOT NULL
      );
      CREATE TABLE gift_cards (
        code text PRIMARY KEY,
        website_id text NOT NULL,
        order_id text NOT NULL,
        item_id text NOT NULL,
        sku text NOT NULL,
        initial_cents bigint NOT NULL,
        balance_cents bigint NOT NULL,
        currency text NOT NULL,
        created_on bigint NOT NULL
      );
      CREATE INDEX gift_cards_order ON gift_cards (order_id);
      CREATE TABLE subscriptions (
        id text PRIMARY KEY,
        website_id text NOT NULL,
        order_id text NOT NULL,
        email text NOT NULL,
        item_id text NOT NULL,
        variant_id text NOT NULL,
        sku text NOT NULL,
        quantity integer NOT NULL,
        price_cents bigint NOT NULL,
        billing_period_value integer NOT NULL,
        billing_period_unit text NOT NULL,
        num_billing_cycles integer NOT NULL,
        status text NOT NULL,
        created_on bigint NOT NULL,
        next_billing_on bigint NOT NULL
      );
      CREATE INDEX subscriptions_order ON subscriptions (order_id);
    `,
  },
  {
    // Secrets the store makes for itself (issue 18): the key that signs newsletter unsubscribe
    // links (renderer/mail/newsletter-unsubscribe.ts), created at random on first use, so every
    // instance on one database signs and checks with the same key and no setting is needed.
    id: '009-special-pages',
    sql: `
      CREATE TABLE site_secrets (
        name text PRIMARY KEY,
        secret text NOT NULL,
        created_on bigint NOT NULL
      );
    `,
  },
  {
    // Product reviews sent from the reviews request page (issue 18, store/review-repository.ts):
    // stored pending, listed per product newest first.
    id: '010-reviews',
    sql: `
      CREATE TABLE product_reviews (
        id text PRIMARY KEY,
        website_id text NOT NULL,
        product_id text NOT NULL,
        rating integer NOT NULL CHECK (rating BETWEEN 1 AND 5),
        name text NOT NULL,
        body text NOT NULL,
        status text NOT NULL,
        created_on bigint NOT NULL
      );
      CREATE INDEX product_reviews_product ON product_reviews (website_id, product_id, status, created_on);
    `,
  },
  {
    // An outbox message's HTML part and extra headers (a JSON object, e.g. List-Unsubscribe on
    // the newsletter welcome, mail/newsletter-welcome.ts); NULL for the plain-text mails before.
    id: '011-outbox-html-headers',
    sql: `
      ALTER TABLE outbox ADD COLUMN html text;
      ALTER TABLE outbox ADD COLUMN headers text;
    `,
  },
  {
    // Email keys in Unicode NFC (repository.ts emailKey): `josé` typed with a combining accent
    // was another address than with `é`, on the list, in sign-ins and in restock sign-ups.
    // Keys that become equal: the list and pending restock sign-ups keep their oldest row;
    // accounts and owners are never deleted, so only the first of a group is renamed when no
    // account already has the normal key (the others keep theirs, and sign in no more).
    id: '012-email-keys-nfc',
    sql: `
      DELETE FROM mailing_list a USING mailing_list b
        WHERE a.email_key <> b.email_key AND normalize(a.email_key, NFC) = normalize(b.email_key, NFC)
          AND (b.added_on < a.added_on OR (b.added_on = a.added_on AND b.email_key < a.email_key));
      UPDATE mailing_list SET email_key = normalize(email_key, NFC) WHERE email_key <> normalize(email_key, NFC);
      DELETE FROM restock_sign_ups a USING restock_sign_ups b
        WHERE a.notified_on IS NULL AND b.notified_on IS NULL AND a.id <> b.id
          AND a.product_id = b.product_id AND a.variant_id = b.variant_id
          AND normalize(a.email_key, NFC) = normalize(b.email_key, NFC)
          AND (b.created_on < a.created_on OR (b.created_on = a.created_on AND b.id < a.id));
      UPDATE restock_sign_ups SET email_key = normalize(email_key, NFC) WHERE email_key <> normalize(email_key, NFC);
      UPDATE site_users u SET email_key = normalize(u.email_key, NFC)
        WHERE u.email_key <> normalize(u.email_key, NFC) AND NOT EXISTS (
          SELECT 1 FROM site_users o WHERE o.id <> u.id AND normalize(o.email_key, NFC) = normalize(u.email_key, NFC)
            AND (o.email_key = normalize(o.email_key, NFC) OR o.id < u.id));
      UPDATE owners u SET email_key = normalize(u.email_key, NFC)
        WHERE u.email_key <> normalize(u.email_key, NFC) AND NOT EXISTS (
          SELECT 1 FROM owners o WHERE o.id <> u.id AND normalize(o.email_key, NFC) = normalize(u.email_key, NFC)
            AND (o.email_key = normalize(o.email_key, NFC) OR o.id < u.id));
      UPDATE orders SET email_key = normalize(email_key, NFC) WHERE email_key <> normalize(email_key, NFC)
    `,
  },
  {
    // The account's cart an anonymous cart was copied from at sign-out (B18 cloneCart): signing
    // in again merged the copy into the lines it was copied from, doubling every quantity.
    id: '013-cart-cloned-from',
    sql: `
      ALTER TABLE carts ADD COLUMN cloned_from text
    `,
  },
  {
    // Digital products' downloads (orders/digital-downloads.ts): a paid order's token, found by
    // the download route, and how often each of its files was served (item id -> count), counted
    // in one statement so two downloads at once never both take the last of the limit.
    id: '014-order-downloads',
    sql: `
      ALTER TABLE orders ADD COLUMN download_token text;
      ALTER TABLE orders ADD COLUMN download_counts jsonb NOT NULL DEFAULT '{}'::jsonb;
      CREATE UNIQUE INDEX orders_download_token ON orders (download_token) WHERE download_token IS NOT NULL
    `,
  },
  {
    // The site user a signed-in visitor placed an order as (orders/place-order.ts), so the order
    // status page (211) can list a buyer's own orders, newest first, a keyset page at a time.
    // Orders placed signed out, and those placed before this, have none: an account's email is
    // no proof of owning an order placed signed out, so they are never matched by it.
    id: '015-order-site-user',
    sql: `
      ALTER TABLE orders ADD COLUMN site_user_id text;
      CREATE INDEX orders_site_user ON orders (website_id, site_user_id, created_on, id) WHERE site_user_id IS NOT NULL
    `,
  },
  {
    // A member's password reset (designed here; api/routes/password-reset-routes.ts): one row per
    // member, so a new request replaces the old token. Only the token's SHA-256 is kept: a copy
    // of the database opens no account.
    id: '016-password-resets',
    sql: `
      CREATE TABLE password_resets (
        site_user_id text PRIMARY KEY REFERENCES site_users(id) ON DELETE CASCADE,
        token_hash text NOT NULL UNIQUE,
        expires_at bigint NOT NULL,
        used_at bigint
      )
    `,
  },
  {
    // The owner's refunds without a cancel (orders/order-refund.ts): the books of the money given
    // back, one row per refund, beside the order document's `refunds` that the pages read. The key
    // is the request's: a second row for one refund is refused by the primary key, whatever a
    // request did, so "never twice" does not rest on the document alone. Kept with its order.
    id: '017-order-refunds',
    sql: `
      CREATE TABLE order_refunds (
        order_id text NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
        refund_key text NOT NULL,
        website_id text,
        amount_cents bigint NOT NULL,
        kind text NOT NULL,
        provider_reference text,
        refunded_by text NOT NULL,
        reason text,
        created_on bigint NOT NULL,
        PRIMARY KEY (order_id, refund_key)
      )
    `,
  },
  {
    // The retention sweep deletes unbought carts once expired (store/retention.ts), chosen by
    // this index as the other tables' rows are by theirs.
    id: '018-carts-expiry',
    sql: `
      CREATE INDEX carts_expiry ON carts (expires_at) WHERE NOT is_purchased
    `,
  },
  {
    // Work a request owes past its answer (the password reset's lookup and mail, the newsletter
    // welcome), recorded before the answer by one INSERT that is the same for every address, so
    // a crash after the answer loses no mail (api/after-response.ts). A row holds a visitor's
    // address only until its job ran or was dropped: it is deleted then.
    id: '019-after-answer-jobs',
    sql: `
      CREATE TABLE after_answer_jobs (
        id text PRIMARY KEY,
        kind text NOT NULL,
        email text NOT NULL,
        detail jsonb NOT NULL,
        created_on bigint NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        due_at bigint NOT NULL
      );
      CREATE INDEX after_answer_jobs_due ON after_answer_jobs (due_at)
    `,
  },
];

/**
 * The transaction-level advisory lock that serialises schema changes and site content syncs
 * of every instance on one database (PGlite accepts the call too).
 */
export const MIGRATION_LOCK_KEY = 7318021;

/** Applies the migrations not yet recorded, all in one transaction. */
export async function migrate(client: SqlClient, migrations: readonly Migration[] = MIGRATIONS): Promise<string[]> {
  // One transaction for the check and every pending migration: a start on an up-to-date
  // database costs one round of three statements, new ones commit once (on PGlite each
  // commit is a WAL flush), and a failing migration leaves the database as it was. Under
  // the advisory lock, so two servers starting at once on one PostgreSQL database never both
  // apply a migration; the table is created under it too, because concurrent CREATE TABLE
  // IF NOT EXISTS can still collide in pg_type.
  return client.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`);
    await tx.query('CREATE TABLE IF NOT EXISTS schema_migrations (id text PRIMARY KEY, applied_at bigint NOT NULL)');
    const done = new Set((await tx.query<{ id: string }>('SELECT id FROM schema_migrations')).map((row) => row.id));
    const applied: string[] = [];
    for (const migration of migrations) {
      if (done.has(migration.id)) continue;
      for (const statement of splitStatements(migration.sql)) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (id, applied_at) VALUES ($1, $2)', [migration.id, Date.now()]);
      applied.push(migration.id);
    }
    return applied;
  });
}

// Extended-protocol queries take one statement each; migrations hold no string literals
// with semicolons, so a plain split is exact.
function splitStatements(sql: string): string[] {
  return sql
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
}
