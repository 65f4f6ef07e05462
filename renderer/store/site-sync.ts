import { MIGRATION_LOCK_KEY } from './migrations.ts';
import { emailKey, jsonParam } from './repository.ts';
import { checkSeed, hashSeedUser, normalizeForm, normalizeOrder, normalizeProduct, siteSettings, type HashedSeedUser, type SeedData } from './seed.ts';
import type { Queryable, SqlClient } from './sql-client.ts';
import type { Form, Product, Variant } from './types.ts';

/*
 * Site content sync: the site folder's `catalog.json` is the truth for what the owner wrote
 * (site settings, products, variants, prices, forms); the store keeps what visitors did
 * (carts, orders, sign-ups, submissions, accounts, stock movements since the import).
 *
 * Rules (renderer/README.md "Site content sync"):
 * - Products, variants and forms are upserted by id, every owner field from the folder.
 * - Something the folder no longer has is hidden, never deleted: not listed, not sold, its
 *   page 404s, while carts, orders and sign-ups that name it keep their rows. It shows
 *   again when it comes back to the folder.
 * - Stock: each variant keeps the count it was last imported with (`imported_qty`,
 *   `imported_unlimited`). A restart with the same folder count leaves the live count alone
 *   (purchases and admin edits since the import stay); a folder count that differs from
 *   the imported one is an owner's new count ("I have 20 now") and replaces the live count.
 *   Rows imported before migration 004 have no imported count: the folder's count becomes
 *   the baseline and the live count is kept.
 * - Users and orders of the catalogue are inserted when absent and never overwritten
 *   (a visitor may have changed them since).
 * - Everything runs in ONE transaction under the migration advisory lock, so N instances
 *   starting together apply it once; the others find nothing to change. Rows that already
 *   match are not written.
 */

export interface SyncCounts {
  added: number;
  changed: number;
  hidden: number;
  /** Hidden before, back in the folder now. */
  restored: number;
}

export interface SyncResult {
  products: SyncCounts;
  forms: SyncCounts;
  /** Variants whose live stock was set from a changed folder count. */
  stockSet: number;
  settings: 'added' | 'changed' | null;
  usersAdded: number;
  ordersAdded: number;
  /** The folder lists products in another relative order than the store shows them. */
  productsReordered: boolean;
}

type Row = Record<string, unknown>;

const counts = (): SyncCounts => ({ added: 0, changed: 0, hidden: 0, restored: 0 });

/** JSON with object keys sorted: jsonb does not keep key order, so compare this way. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const keys = Object.keys(value as Row).filter((key) => (value as Row)[key] !== undefined).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical((value as Row)[key])}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

const jsonEqual = (a: unknown, b: unknown): boolean => canonical(a) === canonical(b);
const parsed = (value: unknown): unknown => (typeof value === 'string' ? JSON.parse(value) : value);
const numOrNull = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

/**
 * Whether the ids kept from `rows` (by stored position) come in another relative order than
 * `ids`: removing an entry shifts the positions after it, which is no reorder.
 */
function orderChanged(ids: readonly string[], rows: readonly Row[]): boolean {
  const wanted = new Set(ids);
  const stored = rows
    .filter((row) => row.hidden !== true && wanted.has(String(row.id)))
    .sort((a, b) => Number(a.position) - Number(b.position))
    .map((row) => String(row.id));
  const kept = new Set(stored);
  const folder = ids.filter((id) => kept.has(id));
  return folder.some((id, index) => id !== stored[index]);
}

// Positions are compared apart from the other fields: they are rewritten when they differ,
// but only a change of relative order is reported.
function productFieldsDiffer(row: Row, product: Product): boolean {
  return (
    row.title !== product.title ||
    row.url_slug !== product.urlSlug ||
    (row.collection_id ?? null) !== product.collectionId ||
    Number(row.product_type) !== product.productType ||
    Boolean(row.is_subscribable) !== product.isSubscribable ||
    !jsonEqual(parsed(row.subscription_plan), product.subscriptionPlan) ||
    (row.additional_fields_form_id ?? null) !== product.additionalFieldsFormId ||
    Boolean(row.restock_enabled) !== product.restockEnabled ||
    !jsonEqual(parsed(row.extra), product.extra)
  );
}

function variantFieldsDiffer(row: Row, variant: Variant): boolean {
  return (
    row.sku !== variant.sku ||
    !jsonEqual(parsed(row.attributes), variant.attributes) ||
    Number(row.price_cents) !== variant.priceCents ||
    Number(row.sale_price_cents) !== variant.salePriceCents ||
    Boolean(row.on_sale) !== variant.onSale
  );
}

/** The live stock after the sync, by the rules above, and whether the folder's count was applied. */
export function stockAfterSync(
  live: { qty: number; unlimited: boolean },
  imported: { qty: number | null; unlimited: boolean | null },
  folder: { qty: number; unlimited: boolean },
): { qty: number; unlimited: boolean; applied: boolean } {
  const qtyApplied = imported.qty !== null && imported.qty !== folder.qty;
  const unlimitedApplied = imported.unlimited !== null && imported.unlimited !== folder.unlimited;
  return {
    qty: qtyApplied ? folder.qty : live.qty,
    unlimited: unlimitedApplied ? folder.unlimited : live.unlimited,
    applied: qtyApplied || unlimitedApplied,
  };
}

/**
 * Rows per batched statement. One statement a row took a start 5.9 s to write a catalogue of
 * 1,013 products and 15,195 variants on the embedded store (~0.3 ms a statement); a batch
 * passes its rows as one JSON parameter read by `jsonb_to_recordset`, the same for both
 * drivers, and is bounded so one statement's parameter stays a few megabytes.
 */
export const SYNC_BATCH_ROWS = 1000;

/** Runs `sql` over `rows` in batches of `SYNC_BATCH_ROWS`, each passed as `$1`, a JSON array; returns the rows the statements returned. */
async function inBatches(tx: Queryable, sql: string, rows: readonly Row[]): Promise<number> {
  let returned = 0;
  for (let i = 0; i < rows.length; i += SYNC_BATCH_ROWS) returned += (await tx.query(sql, [JSON.stringify(rows.slice(i, i + SYNC_BATCH_ROWS))])).length;
  return returned;
}

/** A product to insert or update, at its position in the folder. */
interface ProductWrite {
  product: Product;
  position: number;
}

/** A variant to insert or update, with the live stock it gets. */
interface VariantWrite {
  productId: string;
  variant: Variant;
  position: number;
  stock: { qty: number; unlimited: boolean };
}

// jsonb members given as JSON null are stored as JSON null (`COALESCE`), as `jsonParam` stored them one row at a time.
const UPSERT_PRODUCTS = `INSERT INTO products (id, position, title, url_slug, collection_id, product_type, is_subscribable,
       subscription_plan, additional_fields_form_id, restock_enabled, extra, hidden)
     SELECT r.id, r.position, r.title, r.url_slug, r.collection_id, r.product_type, r.is_subscribable,
       COALESCE(r.subscription_plan, 'null'::jsonb), r.additional_fields_form_id, r.restock_enabled, COALESCE(r.extra, 'null'::jsonb), false
     FROM jsonb_to_recordset($1::jsonb) AS r(id text, position integer, title text, url_slug text, collection_id text,
       product_type integer, is_subscribable boolean, subscription_plan jsonb, additional_fields_form_id text,
       restock_enabled boolean, extra jsonb)
     ON CONFLICT (id) DO UPDATE SET position = EXCLUDED.position, title = EXCLUDED.title,
       url_slug = EXCLUDED.url_slug, collection_id = EXCLUDED.collection_id, product_type = EXCLUDED.product_type,
       is_subscribable = EXCLUDED.is_subscribable, subscription_plan = EXCLUDED.subscription_plan,
       additional_fields_form_id = EXCLUDED.additional_fields_form_id, restock_enabled = EXCLUDED.restock_enabled,
       extra = EXCLUDED.extra, hidden = false`;

async function upsertProducts(tx: Queryable, writes: readonly ProductWrite[]): Promise<void> {
  const rows = writes.map(({ product, position }) => ({
    id: product.id,
    position,
    title: product.title,
    url_slug: product.urlSlug,
    collection_id: product.collectionId,
    product_type: product.productType,
    is_subscribable: product.isSubscribable,
    subscription_plan: product.subscriptionPlan ?? null,
    additional_fields_form_id: product.additionalFieldsFormId,
    restock_enabled: product.restockEnabled,
    extra: product.extra ?? null,
  }));
  await inBatches(tx, UPSERT_PRODUCTS, rows);
}

const UPSERT_VARIANTS = `INSERT INTO variants (product_id, id, position, sku, attributes, price_cents, sale_price_cents, on_sale,
       qty_in_stock, unlimited, hidden, imported_qty, imported_unlimited)
     SELECT r.product_id, r.id, r.position, r.sku, COALESCE(r.attributes, 'null'::jsonb), r.price_cents, r.sale_price_cents, r.on_sale,
       r.qty_in_stock, r.unlimited, false, r.imported_qty, r.imported_unlimited
     FROM jsonb_to_recordset($1::jsonb) AS r(product_id text, id text, position integer, sku text, attributes jsonb,
       price_cents bigint, sale_price_cents bigint, on_sale boolean, qty_in_stock bigint, unlimited boolean,
       imported_qty bigint, imported_unlimited boolean)
     ON CONFLICT (product_id, id) DO UPDATE SET position = EXCLUDED.position, sku = EXCLUDED.sku,
       attributes = EXCLUDED.attributes, price_cents = EXCLUDED.price_cents, sale_price_cents = EXCLUDED.sale_price_cents,
       on_sale = EXCLUDED.on_sale, qty_in_stock = EXCLUDED.qty_in_stock, unlimited = EXCLUDED.unlimited,
       hidden = false, imported_qty = EXCLUDED.imported_qty, imported_unlimited = EXCLUDED.imported_unlimited`;

async function upsertVariants(tx: Queryable, writes: readonly VariantWrite[]): Promise<void> {
  const rows = writes.map(({ productId, variant, position, stock }) => ({
    product_id: productId,
    id: variant.id,
    position,
    sku: variant.sku,
    attributes: variant.attributes ?? null,
    price_cents: variant.priceCents,
    sale_price_cents: variant.salePriceCents,
    on_sale: variant.onSale,
    qty_in_stock: stock.qty,
    unlimited: stock.unlimited,
    imported_qty: variant.qtyInStock,
    imported_unlimited: variant.unlimited,
  }));
  await inBatches(tx, UPSERT_VARIANTS, rows);
}

/** What a sync writes, gathered while the folder is compared with the store, then written in batches. */
interface SyncWrites {
  products: ProductWrite[];
  variants: VariantWrite[];
  /** Variants the folder no longer has (`product_id`, `id`), and products (`id`). */
  hideVariants: Row[];
  hideProducts: Row[];
}

/** Compares one product's variants with its rows, noting the writes; true when any row changed. */
function syncVariants(product: Product, rows: Row[], result: SyncResult, writes: SyncWrites): boolean {
  const existing = new Map(rows.map((row) => [String(row.id), row]));
  let changed = orderChanged(product.variants.map((variant) => variant.id), rows);
  for (const [position, variant] of product.variants.entries()) {
    const row = existing.get(variant.id);
    existing.delete(variant.id);
    if (!row) {
      writes.variants.push({ productId: product.id, variant, position, stock: { qty: variant.qtyInStock, unlimited: variant.unlimited } });
      changed = true;
      continue;
    }
    const stock = stockAfterSync(
      { qty: Number(row.qty_in_stock), unlimited: Boolean(row.unlimited) },
      { qty: numOrNull(row.imported_qty), unlimited: row.imported_unlimited === null || row.imported_unlimited === undefined ? null : Boolean(row.imported_unlimited) },
      { qty: variant.qtyInStock, unlimited: variant.unlimited },
    );
    if (stock.applied) result.stockSet++;
    const baselineMissing = row.imported_qty === null || row.imported_unlimited === null;
    const ownerChange = stock.applied || row.hidden === true || variantFieldsDiffer(row, variant);
    if (!ownerChange && !baselineMissing && Number(row.position) === position) continue;
    writes.variants.push({ productId: product.id, variant, position, stock });
    // Adopting a baseline or shifting a position is bookkeeping, not a change the owner made.
    if (ownerChange) changed = true;
  }
  for (const row of existing.values()) {
    if (row.hidden) continue;
    writes.hideVariants.push({ product_id: product.id, id: row.id });
    changed = true;
  }
  return changed;
}

/** Password hashes of the catalogue's users not yet in the store (hashing is slow: outside the transaction, only for new ones). */
async function newUsers(client: Queryable, seed: SeedData): Promise<HashedSeedUser[]> {
  const users = seed.users ?? [];
  if (users.length === 0) return [];
  const rows = await client.query<{ id: string }>('SELECT id FROM site_users WHERE id = ANY($1::text[])', [users.map((user) => user.id)]);
  const present = new Set(rows.map((row) => row.id));
  return Promise.all(users.filter((user) => !present.has(user.id)).map(hashSeedUser));
}

/** Applies the folder's catalogue to the store by the rules above; returns what changed. */
export async function syncSiteContent(client: SqlClient, seed: SeedData): Promise<SyncResult> {
  const problems = checkSeed(seed);
  if (problems.length > 0) throw new Error(`Invalid seed: ${problems.join('; ')}`);
  const users = await newUsers(client, seed);
  const result: SyncResult = { products: counts(), forms: counts(), stockSet: 0, settings: null, usersAdded: 0, ordersAdded: 0, productsReordered: false };
  await client.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`);

    const settings = siteSettings(seed.site.settings);
    const sites = await tx.query('SELECT website_id, settings FROM sites');
    const site = sites.find((row) => row.website_id === seed.site.websiteId);
    if (!site || sites.length > 1 || !jsonEqual(parsed(site.settings), settings)) {
      result.settings = sites.length === 0 ? 'added' : 'changed';
      await tx.query('DELETE FROM sites WHERE website_id <> $1', [seed.site.websiteId]);
      await tx.query(
        `INSERT INTO sites (website_id, settings) VALUES ($1, $2::jsonb)
         ON CONFLICT (website_id) DO UPDATE SET settings = EXCLUDED.settings`,
        [seed.site.websiteId, jsonParam(settings)],
      );
    }

    const allProducts = await tx.query('SELECT * FROM products');
    result.productsReordered = orderChanged((seed.products ?? []).map((product) => product.id), allProducts);
    const productRows = new Map(allProducts.map((row) => [String(row.id), row]));
    const variantRows = new Map<string, Row[]>();
    for (const row of await tx.query('SELECT * FROM variants ORDER BY product_id, position')) {
      const list = variantRows.get(String(row.product_id)) ?? [];
      list.push(row);
      variantRows.set(String(row.product_id), list);
    }
    const writes: SyncWrites = { products: [], variants: [], hideVariants: [], hideProducts: [] };
    for (const [position, seedProduct] of (seed.products ?? []).entries()) {
      const product = normalizeProduct(seedProduct);
      const row = productRows.get(product.id);
      productRows.delete(product.id);
      const fieldsChanged = !row || row.hidden === true || productFieldsDiffer(row, product);
      if (fieldsChanged || !row || Number(row.position) !== position) writes.products.push({ product, position });
      const variantsChanged = syncVariants(product, variantRows.get(product.id) ?? [], result, writes);
      if (!row) result.products.added++;
      else if (row.hidden === true) result.products.restored++;
      else if (fieldsChanged || variantsChanged) result.products.changed++;
    }
    for (const row of productRows.values()) {
      if (row.hidden === true) continue;
      writes.hideProducts.push({ id: row.id });
      result.products.hidden++;
    }
    // Products before their variants (a variant's row names its product's).
    await upsertProducts(tx, writes.products);
    await upsertVariants(tx, writes.variants);
    await inBatches(tx, 'UPDATE variants v SET hidden = true FROM jsonb_to_recordset($1::jsonb) AS r(product_id text, id text) WHERE v.product_id = r.product_id AND v.id = r.id', writes.hideVariants);
    await inBatches(tx, 'UPDATE products p SET hidden = true FROM jsonb_to_recordset($1::jsonb) AS r(id text) WHERE p.id = r.id', writes.hideProducts);

    const formRows = new Map((await tx.query('SELECT id, definition, hidden FROM forms')).map((row) => [String(row.id), row]));
    for (const seedForm of seed.forms ?? []) {
      const form: Form = normalizeForm(seedForm);
      const row = formRows.get(form.id);
      formRows.delete(form.id);
      if (row && row.hidden !== true && jsonEqual(parsed(row.definition), form)) continue;
      await tx.query(
        `INSERT INTO forms (id, definition, hidden) VALUES ($1, $2::jsonb, false)
         ON CONFLICT (id) DO UPDATE SET definition = EXCLUDED.definition, hidden = false`,
        [form.id, jsonParam(form)],
      );
      if (!row) result.forms.added++;
      else if (row.hidden === true) result.forms.restored++;
      else result.forms.changed++;
    }
    for (const row of formRows.values()) {
      if (row.hidden === true) continue;
      await tx.query('UPDATE forms SET hidden = true WHERE id = $1', [row.id]);
      result.forms.hidden++;
    }

    for (const user of users) {
      // ON CONFLICT DO NOTHING also skips an email another account holds.
      const inserted = await tx.query(
        `INSERT INTO site_users (id, email, email_key, password_hash, locale) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT DO NOTHING RETURNING id`,
        [user.id, user.email, emailKey(user.email), user.passwordHash, user.locale],
      );
      result.usersAdded += inserted.length;
    }
    const orders = (seed.orders ?? []).map((order) => ({ id: order.id, data: normalizeOrder(order, seed.site.websiteId) }));
    result.ordersAdded = await inBatches(tx, 'INSERT INTO orders (id, data) SELECT r.id, r.data FROM jsonb_to_recordset($1::jsonb) AS r(id text, data jsonb) ON CONFLICT (id) DO NOTHING RETURNING id', orders);
  });
  return result;
}

const plural = (count: number, noun: string): string => `${count} ${noun}${count === 1 ? '' : 's'}`;

function countsPhrase(noun: string, value: SyncCounts): string | null {
  const parts = (
    [
      [value.changed, 'changed'],
      [value.added, 'added'],
      [value.hidden, 'hidden'],
      [value.restored, 'shown again'],
    ] as const
  ).filter(([count]) => count > 0);
  if (parts.length === 0) return null;
  return parts.map(([count, verb], index) => (index === 0 ? `${plural(count, noun)} ${verb}` : `${count} ${verb}`)).join(', ');
}

/** One line for the log: "3 products changed, 1 added, 1 hidden; stock of 2 variants set from the folder", or "no changes". */
export function syncSummary(result: SyncResult): string {
  const parts = [
    countsPhrase('product', result.products),
    result.productsReordered ? 'product order changed' : null,
    result.stockSet > 0 ? `stock of ${plural(result.stockSet, 'variant')} set from the folder` : null,
    countsPhrase('form', result.forms),
    result.settings ? `site settings ${result.settings}` : null,
    result.usersAdded > 0 ? `${plural(result.usersAdded, 'account')} added` : null,
    result.ordersAdded > 0 ? `${plural(result.ordersAdded, 'order')} added` : null,
  ].filter((part): part is string => part !== null);
  return parts.length === 0 ? 'no changes' : parts.join('; ');
}
