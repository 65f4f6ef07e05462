import fs from 'node:fs';
import { hashPassword } from './password.ts';
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

/** Problems that would make seeding fail or produce nonsense; empty when the seed is usable. */
export function checkSeed(data: unknown): string[] {
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
