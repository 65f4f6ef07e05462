import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkSeed, loadSeedFile, normalizeForm, normalizeProduct, siteSettings } from './seed.ts';

const DEMO = path.join(import.meta.dirname, '..', '..', 'fixtures', 'sites', 'demo', 'catalog.json');

describe('seed normalisation', () => {
  it('fills the STOREFRONT defaults', () => {
    expect(siteSettings()).toMatchObject({ currency: 'USD', multipleQuantityAllowedForServices: true, timeZone: 'America/New_York' });
    const product = normalizeProduct({ id: 'p', variants: [{ id: 'v', sku: 's' }] });
    expect(product).toMatchObject({ title: 'p', productType: 1, isSubscribable: false, additionalFieldsFormId: null });
    expect(product.variants[0]).toEqual({ id: 'v', sku: 's', attributes: {}, priceCents: 0, salePriceCents: 0, onSale: false, qtyInStock: 0, unlimited: false });
    expect(normalizeForm({ id: 'f' })).toMatchObject({ storageConfigured: true, captchaEnabled: false, isNewsletter: false, fields: [] });
  });

  it('keeps the demo catalogue consistent', () => {
    const seed = loadSeedFile(DEMO);
    const products = (seed.products ?? []).map(normalizeProduct);
    const formIds = new Set((seed.forms ?? []).map((form) => form.id));
    expect(new Set(products.map((product) => product.id)).size).toBe(products.length);
    for (const product of products) {
      expect(product.variants.length).toBeGreaterThan(0);
      expect(new Set(product.variants.map((variant) => variant.sku)).size).toBe(product.variants.length);
      if (product.additionalFieldsFormId) expect(formIds.has(product.additionalFieldsFormId)).toBe(true);
      for (const variant of product.variants) expect(Number.isInteger(variant.priceCents)).toBe(true);
    }
    expect(seed.users?.every((user) => user.password || user.passwordHash)).toBe(true);
  });

  it('lists what is wrong with a malformed seed instead of failing later', () => {
    expect(checkSeed(null)).toEqual(['the seed must be a JSON object']);
    expect(checkSeed({ site: {}, products: [{ id: 'p' }, { id: 'q', variants: [{ id: 'v' }] }], users: 'x' })).toEqual([
      'site.websiteId must be a non-empty string',
      'products[0].variants must be an array',
      'products[1].variants[0] needs an id and a sku',
      'users must be an array',
    ]);
    expect(checkSeed(loadSeedFile(DEMO))).toEqual([]);
    expect(() => loadSeedFile(path.join(import.meta.dirname, 'no-such-seed.json'))).toThrow(/Cannot read seed file/);
  });
});
