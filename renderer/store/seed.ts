import fs from 'node:fs';
import { hashPassword } from './password.ts';
import { pointerPlace, pointerToken } from './json-pointer.ts';
import { emailKey, UNSTORABLE_TEXT } from './repository.ts';
import type { Store } from './store.ts';
import type { Form, Order, Product, ProductType, Site, SiteSettings, Variant } from './types.ts';

// Seed files are hand-written, so every field but the ids is optional and gets the
// STOREFRONT default (D7: services may be bought in quantity, USD, America/New_York).

export interface SeedVariant extends Partial<Omit<Variant, 'id' | 'sku'>> {
  id: string;
  sku: string;
}

export interface SeedProduct extends Partial<Omit<Product, 'id' | 'variants'>> {
  id: string;
  variants: SeedVariant[];
  /** A digital product's file, a path in the site folder (orders/digital-downloads.ts); read from the loaded catalogue, never stored. */
  digitalFile?: string;
}

export interface SeedForm extends Partial<Omit<Form, 'id'>> {
  id: string;
}

export interface SeedUser {
  id: string;
  email: string;
  /** Plain text in seed files; hashed with scrypt when seeded. */
  password?: string;
  passwordHash?: string;
  locale?: string | null;
}

export interface SeedData {
  site: { websiteId: string; settings?: Partial<SiteSettings> };
  products?: SeedProduct[];
  forms?: SeedForm[];
  users?: SeedUser[];
  orders?: SeedOrder[];
}

export type SeedOrder = Partial<Order> & { id: string };

export function siteSettings(partial: Partial<SiteSettings> = {}): SiteSettings {
  return {
    currency: 'USD',
    expressCheckout: false,
    customCart: false,
    multipleQuantityAllowedForServices: true,
    restockNotificationsSuccessText: null,
    captcha: { siteKey: null, provider: 'local' },
    cookiePolicy: null,
    trackingDisabled: false,
    isCloneable: false,
    flags: {},
    timeZone: 'America/New_York',
    extra: {},
    ...partial,
  };
}

export function normalizeProduct(seed: SeedProduct): Product {
  return {
    id: seed.id,
    title: seed.title ?? seed.id,
    urlSlug: seed.urlSlug ?? seed.id,
    collectionId: seed.collectionId ?? null,
    productType: (seed.productType ?? 1) as ProductType,
    isSubscribable: seed.isSubscribable ?? false,
    subscriptionPlan: seed.subscriptionPlan ?? null,
    additionalFieldsFormId: seed.additionalFieldsFormId ?? null,
    restockEnabled: seed.restockEnabled ?? false,
    extra: seed.extra ?? {},
    variants: seed.variants.map((variant) => ({
      id: variant.id,
      sku: variant.sku,
      attributes: variant.attributes ?? {},
      priceCents: variant.priceCents ?? 0,
      salePriceCents: variant.salePriceCents ?? 0,
      onSale: variant.onSale ?? false,
      qtyInStock: variant.qtyInStock ?? 0,
      unlimited: variant.unlimited ?? false,
    })),
  };
}

export function normalizeForm(seed: SeedForm): Form {
  return {
    id: seed.id,
    name: seed.name ?? seed.id,
    fields: seed.fields ?? [],
    captchaEnabled: seed.captchaEnabled ?? false,
    storageConfigured: seed.storageConfigured ?? true,
    isNewsletter: seed.isNewsletter ?? false,
    // Only when set, so forms without it keep the definition stored before it existed.
    ...(typeof seed.notifyEmail === 'string' && seed.notifyEmail.trim() !== '' ? { notifyEmail: seed.notifyEmail.trim() } : {}),
    extra: seed.extra ?? {},
  };
}

export function normalizeOrder(seed: SeedOrder, websiteId: string): Order {
  return {
    id: seed.id,
    purchasedCartId: seed.purchasedCartId ?? null,
    testMode: seed.testMode ?? false,
    websiteId: seed.websiteId ?? websiteId,
    items: seed.items ?? [],
    grandTotal: seed.grandTotal ?? null,
    shippingTotal: seed.shippingTotal ?? null,
    taxTotal: seed.taxTotal ?? null,
    extra: seed.extra ?? {},
  };
}

export interface HashedSeedUser {
  id: string;
  email: string;
  passwordHash: string;
  locale: string | null;
}

/** A seed user with its password hashed (scrypt: slow, so callers do it outside a transaction). */
export async function hashSeedUser(user: SeedUser): Promise<HashedSeedUser> {
  return {
    id: user.id,
    email: user.email,
    passwordHash: user.passwordHash ?? (await hashPassword(user.password ?? '')),
    locale: user.locale ?? null,
  };
}

/** Writes the seed in one transaction; existing rows with the same ids are replaced. */
export async function seedStore(store: Store, seed: SeedData): Promise<void> {
  const problems = checkSeed(seed);
  if (problems.length > 0) throw new Error(`Invalid seed: ${problems.join('; ')}`);
  // Hashing is slow; do it before the transaction so the database lock is held briefly.
  const users = await Promise.all((seed.users ?? []).map(hashSeedUser));
  const site: Site = { websiteId: seed.site.websiteId, settings: siteSettings(seed.site.settings) };
  await store.transaction(async (repo) => {
    await repo.putSite(site);
    for (const [index, product] of (seed.products ?? []).entries()) await repo.putProduct(normalizeProduct(product), index);
    for (const form of seed.forms ?? []) await repo.putForm(normalizeForm(form));
    for (const user of users) await repo.putUser(user);
    for (const order of seed.orders ?? []) {
      await repo.putOrder(normalizeOrder(order, site.websiteId));
    }
  });
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isId = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

/**
 * Problems that would make seeding fail or produce nonsense; empty when the seed is usable: its
 * shape (`checkSeedShape`), then what the store cannot take (`seedFindings`).
 */
export function checkSeed(data: unknown): string[] {
  const problems = checkSeedShape(data);
  if (problems.length > 0) return problems;
  return seedFindings(data as SeedData).map((finding) => finding.message);
}

/** The seed's shape: the site's id, and an id (and sku) on every record; empty when it has one. */
export function checkSeedShape(data: unknown): string[] {
  if (!isObject(data)) return ['the seed must be a JSON object'];
  const problems: string[] = [];
  if (!isObject(data.site) || !isId(data.site.websiteId)) problems.push('site.websiteId must be a non-empty string');
  const list = (name: string): unknown[] => {
    const value = data[name];
    if (value === undefined) return [];
    if (!Array.isArray(value)) {
      problems.push(`${name} must be an array`);
      return [];
    }
    return value;
  };
  list('products').forEach((product, index) => {
    if (!isObject(product) || !isId(product.id)) return void problems.push(`products[${index}].id is missing`);
    if (!Array.isArray(product.variants)) return void problems.push(`products[${index}].variants must be an array`);
    product.variants.forEach((variant, vIndex) => {
      if (!isObject(variant) || !isId(variant.id) || typeof variant.sku !== 'string') {
        problems.push(`products[${index}].variants[${vIndex}] needs an id and a sku`);
      }
    });
  });
  list('forms').forEach((form, index) => {
    if (!isObject(form) || !isId(form.id)) problems.push(`forms[${index}].id is missing`);
  });
  list('users').forEach((user, index) => {
    if (!isObject(user) || !isId(user.id) || !isId(user.email)) problems.push(`users[${index}] needs an id and an email`);
  });
  list('orders').forEach((order, index) => {
    if (!isObject(order) || !isId(order.id)) problems.push(`orders[${index}].id is missing`);
  });
  return problems;
}

/** Reads and checks a seed file; throws an Error listing every problem found. */
export function loadSeedFile(file: string): SeedData {
  let data: unknown;
  try {
    data = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`Cannot read seed file ${file}: ${(error as Error).message}`, { cause: error });
  }
  const problems = checkSeed(data);
  if (problems.length > 0) throw new Error(`Invalid seed file ${file}: ${problems.join('; ')}`);
  return data as SeedData;
}

export interface SeedFinding {
  /** JSON pointer of the value at fault (an id, a slug, a text), for a position in the file. */
  pointer: string;
  /**
   * `id`: an id the store keys rows by, given twice; `path`: two products at one URL; `text`:
   * text the store cannot hold; `value`: a price below zero, a product slug that is no URL segment.
   */
  kind: 'id' | 'path' | 'text' | 'value';
  message: string;
}

/** A product's URL segment: RFC 3986's unreserved characters, so it is printed as it is. */
const PRODUCT_SLUG = /^[A-Za-z0-9._~-]+$/;

/** Findings of one kind past this many are counted in one more. */
export const SEED_FINDINGS_MAX = 100;

/**
 * What a seed of the right shape (`checkSeedShape`) may still hold that the store cannot take,
 * found before anything is written:
 * - an id given twice where the store keys rows by it (products, a product's variants, forms,
 *   users and their emails, orders). The store kept one row for both, the last written, and the
 *   start reported two added; a batched write refuses it outright (site-sync.ts);
 * - two products of one collection with one `urlSlug`: one URL, one page; a product's slug
 *   that is no URL segment (`a/b`, `q?x`, `..`): its links named another page or none;
 * - a price below zero: it lowered a real order's total;
 * - text PostgreSQL cannot hold (`UNSTORABLE_TEXT`), in a value or a key: the start stopped
 *   with "invalid byte sequence for encoding UTF8: 0x00" and no position.
 * Linear in the seed; the walk keeps its own stack, as a seed file is not depth-checked.
 */
export function seedFindings(seed: SeedData): SeedFinding[] {
  const out: SeedFinding[] = [];
  const counted = { id: 0, path: 0, text: 0, value: 0 };
  const add = (finding: SeedFinding): void => {
    const n = ++counted[finding.kind];
    if (n <= SEED_FINDINGS_MAX) out.push(finding);
  };
  const byId = (record: { id: string }): string => record.id;
  const unique = <T>(list: readonly T[] | undefined, base: string, field: string, key: (record: T) => string): void => {
    const first = new Map<string, number>();
    (list ?? []).forEach((record, index) => {
      const k = key(record);
      const at = first.get(k);
      if (at === undefined) return void first.set(k, index);
      const pointer = `${base}/${index}/${field}`;
      const other = pointerPlace(`${base}/${at}/${field}`);
      // An email is a visitor's: not echoed (the brief's rule for errors and logs).
      const message = field === 'email' ? `${pointerPlace(pointer)} is also ${other} (emails are compared without case)` : `${pointerPlace(pointer)} "${k}" is also ${other}`;
      add({ pointer, kind: 'id', message });
    });
  };
  const products = seed.products ?? [];
  unique(products, '/products', 'id', byId);
  products.forEach((product, index) => unique(product.variants, `/products/${index}/variants`, 'id', byId));
  unique(seed.forms, '/forms', 'id', byId);
  unique(seed.users, '/users', 'id', byId);
  unique(seed.users, '/users', 'email', (user) => emailKey(user.email));
  unique(seed.orders, '/orders', 'id', byId);

  const pages = new Map<string, number>();
  products.forEach((product, index) => {
    if (typeof product.collectionId !== 'string') return;
    const slug = typeof product.urlSlug === 'string' ? product.urlSlug : product.id;
    const field = typeof product.urlSlug === 'string' ? 'urlSlug' : 'id';
    // Printed into links as it is: `a/b`, `q?x`, `h#x`, `..` or `` named another page or none.
    if (!PRODUCT_SLUG.test(slug) || slug === '.' || slug === '..') {
      add({ pointer: `/products/${index}/${field}`, kind: 'value', message: `products[${index}] slug "${slug}" must be letters, digits, "-", "_", "." or "~" (it is the product's URL segment)` });
      return;
    }
    const key = `${product.collectionId}\n${slug}`;
    const at = pages.get(key);
    if (at === undefined) return void pages.set(key, index);
    add({ pointer: `/products/${index}/${field}`, kind: 'path', message: `products[${index}] has the URL of products[${at}]: slug "${slug}" in collection "${product.collectionId}"` });
  });
  products.forEach((product, index) =>
    product.variants.forEach((variant, v) => {
      for (const key of ['priceCents', 'salePriceCents'] as const) {
        const cents = variant[key];
        if (typeof cents === 'number' && cents < 0) add({ pointer: `/products/${index}/variants/${v}/${key}`, kind: 'value', message: `products[${index}].variants[${v}].${key} is below zero` });
      }
    }),
  );

  const stack: { value: unknown; pointer: string }[] = [{ value: seed, pointer: '' }];
  while (stack.length > 0) {
    const { value, pointer } = stack.pop()!;
    if (typeof value === 'string') {
      if (UNSTORABLE_TEXT.test(value)) add({ pointer, kind: 'text', message: `${pointerPlace(pointer) || 'the catalogue'} holds ${unstorableName(value)}, which the store cannot hold` });
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    const keys = Object.keys(value);
    // Pushed last to first, so findings come in the file's order.
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i];
      const at = Array.isArray(value) ? `${pointer}/${key}` : `${pointer}/${pointerToken(key)}`;
      if (!Array.isArray(value) && UNSTORABLE_TEXT.test(key)) {
        add({ pointer: at, kind: 'text', message: `a key of ${pointerPlace(pointer) || 'the catalogue'} holds ${unstorableName(key)}, which the store cannot hold` });
        continue;
      }
      stack.push({ value: (value as Record<string, unknown>)[key], pointer: at });
    }
  }
  const moreOf = { id: 'ids given twice', path: 'products at a URL already taken', text: 'texts the store cannot hold', value: 'prices below zero or product slugs that are no URL segment' };
  for (const kind of ['id', 'path', 'text', 'value'] as const) {
    const more = counted[kind] - SEED_FINDINGS_MAX;
    if (more > 0) out.push({ pointer: '', kind, message: `${more} more ${moreOf[kind]}` });
  }
  return out;
}

/** `U+0000` or `an unpaired surrogate (U+D800)`: the first character of `text` the store cannot hold. */
function unstorableName(text: string): string {
  const c = text.charCodeAt(text.search(UNSTORABLE_TEXT));
  return c === 0 ? 'U+0000' : `an unpaired surrogate (U+${c.toString(16).toUpperCase().padStart(4, '0')})`;
}
