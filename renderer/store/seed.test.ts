import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkSeed, loadSeedFile, normalizeForm, normalizeProduct, SEED_FINDINGS_MAX, seedFindings, siteSettings, type SeedData } from './seed.ts';

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

  it('finds an id given twice, two products at one URL and text the store cannot hold, each at its pointer', () => {
    const seed: SeedData = {
      site: { websiteId: 'w' },
      products: [
        { id: 'tee', collectionId: 'shop', variants: [{ id: 'v', sku: 'a' }, { id: 'w', sku: 'b' }, { id: 'v', sku: 'c' }] },
        { id: 'mug', collectionId: 'shop', urlSlug: 'tee', variants: [{ id: 'v', sku: 'a' }] },
        { id: 'tee', title: 'Tee\u0000', variants: [] },
        // Another collection, or none, is another URL.
        { id: 'cup', collectionId: 'home', urlSlug: 'tee', variants: [] },
        { id: 'jar', urlSlug: 'tee', variants: [], extra: { ['a/b~\ud800']: 1, list: ['ok', 'x\udc00'] } },
      ],
      forms: [{ id: 'f' }, { id: 'f' }],
      users: [{ id: 'u1', email: 'Ann@Example.com' }, { id: 'u2', email: ' ann@example.com' }, { id: 'u1', email: 'bo@example.com' }],
      orders: [{ id: 'o' }, { id: 'o' }],
    };
    expect(seedFindings(seed)).toEqual([
      { pointer: '/products/2/id', kind: 'id', message: 'products[2].id "tee" is also products[0].id' },
      { pointer: '/products/0/variants/2/id', kind: 'id', message: 'products[0].variants[2].id "v" is also products[0].variants[0].id' },
      { pointer: '/forms/1/id', kind: 'id', message: 'forms[1].id "f" is also forms[0].id' },
      { pointer: '/users/2/id', kind: 'id', message: 'users[2].id "u1" is also users[0].id' },
      // The address is a visitor's: not echoed.
      { pointer: '/users/1/email', kind: 'id', message: 'users[1].email is also users[0].email (emails are compared without case)' },
      { pointer: '/orders/1/id', kind: 'id', message: 'orders[1].id "o" is also orders[0].id' },
      { pointer: '/products/1/urlSlug', kind: 'path', message: 'products[1] has the URL of products[0]: slug "tee" in collection "shop"' },
      { pointer: '/products/2/title', kind: 'text', message: 'products[2].title holds U+0000, which the store cannot hold' },
      { pointer: '/products/4/extra/a~1b~0\ud800', kind: 'text', message: 'a key of products[4].extra holds an unpaired surrogate (U+D800), which the store cannot hold' },
      { pointer: '/products/4/extra/list/1', kind: 'text', message: 'products[4].extra.list[1] holds an unpaired surrogate (U+DC00), which the store cannot hold' },
    ]);
    // checkSeed (the sync's and a seed file's check) gives the same messages.
    expect(checkSeed(seed)).toEqual(seedFindings(seed).map((finding) => finding.message));
    expect(seedFindings(loadSeedFile(DEMO))).toEqual([]);
  });

  it('finds prices below zero and product slugs that are no URL segment', () => {
    const seed: SeedData = {
      site: { websiteId: 'w' },
      products: [
        { id: 'a', collectionId: 'shop', urlSlug: 'a/b', variants: [{ id: 'v', sku: 's', priceCents: -500 }, { id: 'w', sku: 't', priceCents: 100, salePriceCents: -1, onSale: true }] },
        { id: '..', collectionId: 'shop', variants: [] },
        { id: 'c', collectionId: 'shop', urlSlug: 'Ok_slug.v2~x', variants: [] },
        // Not in a collection: no page, no URL.
        { id: 'd', urlSlug: 'q?x', variants: [] },
      ],
    };
    expect(seedFindings(seed).map((finding) => `${finding.kind} ${finding.pointer} ${finding.message}`)).toEqual([
      'value /products/0/urlSlug products[0] slug "a/b" must be letters, digits, "-", "_", "." or "~" (it is the product\'s URL segment)',
      'value /products/1/id products[1] slug ".." must be letters, digits, "-", "_", "." or "~" (it is the product\'s URL segment)',
      'value /products/0/variants/0/priceCents products[0].variants[0].priceCents is below zero',
      'value /products/0/variants/1/salePriceCents products[0].variants[1].salePriceCents is below zero',
    ]);
  });

  it('keeps the first SEED_FINDINGS_MAX findings of a kind and counts the rest', () => {
    const products = Array.from({ length: SEED_FINDINGS_MAX + 6 }, () => ({ id: 'p', title: '\u0000', variants: [] }));
    const findings = seedFindings({ site: { websiteId: 'w' }, products: [{ id: 'p', variants: [] }, ...products] });
    expect(findings.filter((finding) => finding.kind === 'id')).toHaveLength(SEED_FINDINGS_MAX + 1);
    expect(findings.filter((finding) => finding.kind === 'text')).toHaveLength(SEED_FINDINGS_MAX + 1);
    expect(findings.map((finding) => finding.message).filter((message) => message.includes('more'))).toEqual(['6 more ids given twice', '6 more texts the store cannot hold']);
    // A walk of its own stack: a seed file is not depth-checked.
    let deep: unknown = 'x\u0000';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(seedFindings({ site: { websiteId: 'w' }, products: [{ id: 'p', variants: [], extra: { deep } }] })).toHaveLength(1);
  });
});
