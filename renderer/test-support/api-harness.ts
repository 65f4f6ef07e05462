import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { beforeEach } from 'vitest';
import { buildApp } from '../app.ts';
import type { ServerLimits } from '../api/context.ts';
import { hashPassword } from '../store/password.ts';
import type { SeedData } from '../store/seed.ts';
import type { SqlStore } from '../store/store.ts';
import { reseed } from './test-store.ts';
import { useTestStore } from './use-test-store.ts';

export const CRUMB = 'crumb-0123456789abcdefghijklmnop';
export const ADMIN_TOKEN = 'admin-secret-token';
export const USER_PASSWORD = 'correct horse battery';
export const START = Date.UTC(2026, 0, 15, 12, 0, 0);

let userHash: Promise<string> | null = null;

/** The catalogue the B acceptance checks describe (p1, p2, sale, form, gift card, …). */
export async function acceptanceSeed(overrides: { currency?: string; captchaSiteKey?: string | null } = {}): Promise<SeedData> {
  userHash ??= hashPassword(USER_PASSWORD);
  return {
    site: {
      websiteId: 'w1',
      settings: {
        currency: overrides.currency ?? 'USD',
        captcha: { siteKey: overrides.captchaSiteKey ?? null, provider: 'local' },
        multipleQuantityAllowedForServices: false,
      },
    },
    products: [
      { id: 'p1', title: 'T-shirt', variants: [{ id: 'v1', sku: 'SQ-1', priceCents: 2500, qtyInStock: 5, attributes: { Size: 'M' } }] },
      {
        id: 'p2',
        title: 'Mug',
        variants: [
          { id: 'v2a', sku: 'SQ-2A', priceCents: 1200, unlimited: true, qtyInStock: 0 },
          { id: 'v2b', sku: 'SQ-2B', priceCents: 1200, qtyInStock: 3 },
        ],
      },
      {
        id: 'p3',
        title: 'Hoodie',
        variants: [
          { id: 'v3s', sku: 'HD-S', priceCents: 4000, qtyInStock: 10, attributes: { Size: 'S' } },
          { id: 'v3m', sku: 'HD-M', priceCents: 4000, qtyInStock: 10, attributes: { Size: 'M' } },
        ],
      },
      { id: 'sale', title: 'Cap', variants: [{ id: 'vs', sku: 'CAP-1', priceCents: 3000, salePriceCents: 2000, onSale: true, qtyInStock: 10 }] },
      { id: 'pf', title: 'Engraved pen', additionalFieldsFormId: 'fa', variants: [{ id: 'vf', sku: 'PEN-1', priceCents: 1500, qtyInStock: 10 }] },
      { id: 'gc', title: 'Gift card', productType: 4, variants: [{ id: 'vgc', sku: 'GC-50', priceCents: 5000, unlimited: true }] },
      { id: 'psub', title: 'Coffee club', isSubscribable: true, variants: [{ id: 'vsub', sku: 'SUB-1', priceCents: 1800, qtyInStock: 10 }] },
      { id: 'psubd', title: 'E-book club', productType: 2, isSubscribable: true, variants: [{ id: 'vsubd', sku: 'EB-1', priceCents: 900, unlimited: true }] },
      { id: 'psvc', title: 'Consultation', productType: 3, variants: [{ id: 'vsvc', sku: 'SVC-1', priceCents: 10000, unlimited: true }] },
      { id: 'pdig', title: 'Wallpaper', productType: 2, variants: [{ id: 'vdig', sku: 'DIG-1', priceCents: 300, unlimited: true }] },
      {
        id: 'pso',
        title: 'Rare vinyl',
        restockEnabled: true,
        variants: [
          { id: 'vso1', sku: 'VY-1', priceCents: 2000, qtyInStock: 0 },
          { id: 'vso2', sku: 'VY-2', priceCents: 2000, qtyInStock: 0 },
          { id: 'vso3', sku: 'VY-3', priceCents: 2000, qtyInStock: 0 },
          { id: 'vin', sku: 'VY-4', priceCents: 2000, qtyInStock: 4 },
        ],
      },
      { id: 'pnorestock', title: 'Plain', variants: [{ id: 'vnr', sku: 'PL-1', priceCents: 100, qtyInStock: 0 }] },
    ],
    forms: [
      { id: 'fa', name: 'Engraving', fields: [{ id: 'f1', type: 'text', title: 'Text', required: true }] },
      {
        id: 'fv',
        name: 'Validate',
        fields: [
          { id: 'e1', type: 'email', title: 'Email', required: true },
          { id: 't1', type: 'textarea', title: 'Note', maxLength: 5 },
          { id: 'r1', type: 'radio', title: 'Pick', options: ['a', 'b'] },
          { id: 's1', type: 'section', title: 'Section' },
        ],
      },
      {
        id: 'contact',
        name: 'Contact',
        fields: [
          { id: 'name', type: 'name', title: 'Name', required: true },
          { id: 'msg', type: 'textarea', title: 'Message' },
        ],
      },
      { id: 'news', name: 'Newsletter', isNewsletter: true, fields: [{ id: 'em', type: 'email', title: 'Email', required: true }] },
      { id: 'captcha-form', name: 'Protected', captchaEnabled: true, fields: [{ id: 'q', type: 'text', title: 'Q' }] },
      { id: 'unstored', name: 'Nowhere', storageConfigured: false, fields: [] },
    ],
    users: [{ id: 'u1', email: 'alice@example.com', passwordHash: await userHash }],
  };
}

export interface Harness {
  app: FastifyInstance;
  clock: { now: number };
  inject(options: InjectOptions): Promise<LightMyRequestResponse>;
}

/** Empties the shared database, seeds it and builds a fresh app (fresh rate counters). */
export async function freshHarness(
  store: SqlStore,
  options: { seed?: SeedData; limits?: Partial<ServerLimits> } = {},
): Promise<Harness> {
  await reseed(store, options.seed ?? (await acceptanceSeed()));
  const clock = { now: START };
  const app = await buildApp({ store, now: () => clock.now, adminToken: ADMIN_TOKEN, limits: options.limits });
  return { app, clock, inject: (injectOptions) => app.inject(injectOptions) };
}

export type HarnessOptions = NonNullable<Parameters<typeof freshHarness>[1]>;

export interface ApiHarness extends Harness {
  /** The file's one database, open from beforeAll to afterAll. */
  readonly store: SqlStore;
  /** Empties and reseeds the database again and builds a new app, for a test that needs another seed or other limits. */
  reset(options?: HarnessOptions): Promise<void>;
}

/**
 * Registers the hooks of an API test file: one database for the file, emptied, reseeded and
 * served by a fresh app (fresh rate counters) before each test. Call it at the top level of
 * the file (or of a describe block); the returned object always points at the current app.
 */
export function useApiHarness(): ApiHarness {
  const open = useTestStore();
  let current: Harness | undefined;
  const harness = (): Harness => {
    if (!current) throw new Error('the harness is built in beforeEach');
    return current;
  };

  beforeEach(async () => {
    // The last test's handed-off work (a reset mail, a welcome: api/after-response.ts) ends
    // before the database is emptied under it.
    await current?.app.storefrontApiSettled();
    current = await freshHarness(open());
  });

  return {
    get store() {
      return open();
    },
    get app() {
      return harness().app;
    },
    get clock() {
      return harness().clock;
    },
    inject: (options) => harness().inject(options),
    async reset(options) {
      await current?.app.storefrontApiSettled();
      current = await freshHarness(open(), options);
    },
  };
}

/** Adds the crumb double-submit pair (cookie and header) to a request. */
export function withCrumb(options: InjectOptions): InjectOptions {
  const cookies = { ...(options.cookies ?? {}), crumb: CRUMB };
  const headers = { ...(options.headers ?? {}), 'x-csrf-token': CRUMB };
  return { ...options, cookies, headers };
}

export function adminHeaders(): Record<string, string> {
  return { authorization: `Bearer ${ADMIN_TOKEN}` };
}

export function cookieOf(response: LightMyRequestResponse, name: string) {
  return response.cookies.find((cookie) => cookie.name === name);
}

export function json(response: LightMyRequestResponse): any {
  return JSON.parse(response.body);
}
