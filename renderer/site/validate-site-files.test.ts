import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { didYouMean, editDistance, findingLines, formatSiteDiagnostic, LOGGED_FINDINGS, validateSiteFiles, validateSiteText } from './validate-site-files.ts';

const DEMO = path.join(import.meta.dirname, '..', '..', 'fixtures', 'sites', 'demo');

const CATALOG = `{
  "site": { "websiteId": "w" },
  "products": [
    {
      "id": "tee",
      "titel": "Tee",
      "variants": [
        { "id": "s", "sku": "S", "price": 2500, "qtyInStock": "5" }
      ]
    }
  ]
}`;

describe('validateSiteText', () => {
  it('warns about unknown catalogue keys with a suggestion and a position, and errors on wrong types', () => {
    expect(validateSiteText('catalog.json', CATALOG).map(formatSiteDiagnostic)).toEqual([
      'catalog.json:6:7 warning SITE_KEY_UNKNOWN unknown key "titel" in products[0] (did you mean "title"?)',
      'catalog.json:8:9 error SITE_VALUE_INVALID products[0].variants[0] has no "priceCents": it would sell for $0.00 (write "priceCents": 0 to sell it free)',
      'catalog.json:8:34 warning SITE_KEY_UNKNOWN unknown key "price" in products[0].variants[0] (did you mean "priceCents"?)',
      'catalog.json:8:63 error SITE_VALUE_INVALID products[0].variants[0].qtyInStock must be integer, found string "5"',
    ]);
  });

  it('errors on a variant with no price (it sold for $0.00), of any product type; an explicit 0 sells it free', () => {
    const variant = (extra: object) => ({ id: 'v', sku: 's', ...extra });
    const text = JSON.stringify({
      site: { websiteId: 'w' },
      products: [
        { id: 'free', variants: [variant({ priceCents: 0 })] },
        { id: 'card', productType: 4, variants: [variant({ priceCents: 2500 }), variant({})] },
      ],
    });
    expect(validateSiteText('catalog.json', text).map((d) => `${d.severity} ${d.code} ${d.message}`)).toEqual([
      'error SITE_VALUE_INVALID products[1].variants[1] has no "priceCents": it would sell for $0.00 (write "priceCents": 0 to sell it free)',
    ]);
  });

  it('reports a key with no close match without a suggestion, and missing ids and bad enums as errors', () => {
    const text = JSON.stringify({ site: {}, products: [{ id: 'p', productType: 9, variants: [], colour: 'red' }] }, null, 2);
    expect(validateSiteText('catalog.json', text).map((d) => `${d.severity} ${d.message}`)).toEqual([
      'error site needs "websiteId"',
      'error products[0].productType must be one of 1, 2, 3, 4, found 9',
      'warning unknown key "colour" in products[0]',
    ]);
  });

  it('errors on an amount or count the store cannot hold exactly', () => {
    const text = JSON.stringify({ site: { websiteId: 'w' }, products: [{ id: 'p', variants: [{ id: 'v', sku: 's', priceCents: 1e300, qtyInStock: 2 ** 53 }] }] });
    expect(validateSiteText('catalog.json', text).map((d) => `${d.severity} ${d.message}`)).toEqual([
      'error products[0].variants[0].priceCents must be <= 9007199254740991',
      'error products[0].variants[0].qtyInStock must be <= 9007199254740991',
    ]);
    const negative = JSON.stringify({ site: { websiteId: 'w', settings: { commerce: { shippingOptions: [{ id: 'x', name: 'X', costCents: -1500 }] } } }, products: [{ id: 'p', variants: [{ id: 'v', sku: 's', priceCents: -500 }] }] });
    expect(validateSiteText('catalog.json', negative).map((d) => `${d.severity} ${d.message}`)).toEqual([
      'error site.settings.commerce.shippingOptions[0].costCents must be >= 0',
      'error products[0].variants[0].priceCents must be >= 0',
    ]);
    // The bound on an order paid offline is a whole number of units, at least 1.
    for (const [bound, message] of [[0, 'must be >= 1'], [2.5, 'must be integer'], ['50', 'must be integer']] as const) {
      const offline = JSON.stringify({ site: { websiteId: 'w', settings: { commerce: { offlineOrderMaxUnits: bound } } } });
      const found = validateSiteText('catalog.json', offline).map((d) => `${d.severity} ${d.message}`);
      expect(found, String(bound)).toHaveLength(1);
      expect(found[0]!.startsWith(`error site.settings.commerce.offlineOrderMaxUnits ${message}`), found[0]).toBe(true);
    }
    expect(validateSiteText('catalog.json', JSON.stringify({ site: { websiteId: 'w', settings: { commerce: { paymentProviders: ['manual'], offlineOrderMaxUnits: 500 } } } }))).toEqual([]);
    // A currency the storefront cannot format: pages would show USD while checkout named XYZ.
    const currency = validateSiteText('catalog.json', JSON.stringify({ site: { websiteId: 'w', settings: { currency: 'XYZ' } } }));
    expect(currency.map((d) => `${d.severity} ${d.message.slice(0, 50)}`)).toEqual(['error site.settings.currency must be one of "EUR", "USD"']);
  });

  it('errors on a site locale that is no language tag', () => {
    for (const locale of ['@@', 'en_US']) {
      expect(validateSiteText('site.json', JSON.stringify({ locale })).map((d) => `${d.severity} ${d.message}`)).toEqual([`error locale "${locale}" is not a language tag (BCP 47, such as en-US or fr-FR)`]);
    }
    expect(validateSiteText('site.json', JSON.stringify({ locale: 'fr-FR' }))).toEqual([]);
  });

  it('errors on a content pageType the renderer has no page for, and on a donate page without its amounts', () => {
    const findings = (data: unknown) => validateSiteText('content/give.json', JSON.stringify(data)).map((d) => `${d.severity} ${d.message}`);
    expect(findings({ pageType: 205 })).toEqual(['error pageType must be one of 203, 204, 208, 209, 210, 300, 301, found 205']);
    expect(findings({ pageType: 203 })).toEqual(['error the file needs "donation" for its pageType']);
    expect(findings({ pageType: 203, donation: { fund: 'Roof' } })).toEqual(['error donation needs "amounts" for its pageType']);
    // A contribution-confirmed page reads only the fund.
    expect(findings({ pageType: 204, donation: { fund: 'Roof' } })).toEqual([]);
    expect(findings({ pageType: 203, donation: { amounts: [], confirmPath: 'thanks' } })).toEqual([
      'error donation.amounts must NOT have fewer than 1 items',
      'error donation.confirmPath must match pattern "^/[^/]"',
    ]);
    expect(findings({ pageType: 203, donation: { fund: 'Roof', amounts: [500, 2500], confirmPath: '/thanks' } })).toEqual([]);
    expect(findings({ pageType: 300 })).toEqual([]);
  });

  it('in open files (site.json, content) reports only likely typos; other keys reach templates', () => {
    const site = '{\n  "title": "x",\n  "navigaton": [],\n  "websiteSettings": {},\n  "flags": { "anyFlag": true }\n}';
    expect(validateSiteText('site.json', site).map(formatSiteDiagnostic)).toEqual([
      'site.json:3:3 warning SITE_KEY_UNKNOWN unknown key "navigaton" (did you mean "navigation"?)',
    ]);
    const page = '{ "kind": "page", "tagline": "hi", "blcoks": [ { "type": "html", "html": "<p>", "tpye": 1 } ], "memberarea": true }';
    expect(validateSiteText('content/about.json', page).map((d) => d.message)).toEqual([
      'unknown key "blcoks" (did you mean "blocks"?)',
      'unknown key "memberarea" (did you mean "memberArea"?)',
    ]);
    expect(validateSiteText('content/about.json', '{ "kind": "post", "home": "yes" }').map((d) => d.message)).toEqual([
      'kind must be one of "page", "collection", "cover", found "post"',
      'home must be boolean, found string "yes"',
    ]);
  });

  it("warns about site.json's deprecated minimumOrderSubtotalCents, naming the store rule that replaces it", () => {
    const site = '{\n  "title": "x",\n  "minimumOrderSubtotalCents": 2500\n}';
    expect(validateSiteText('site.json', site).map(formatSiteDiagnostic)).toEqual([
      'site.json:3:3 warning SITE_KEY_DEPRECATED "minimumOrderSubtotalCents" is deprecated: use catalog.json site.settings.commerce.minimumOrderSubtotalCents' +
        " (the store's rules, read by the cart page and checkout); this key applies only while the catalogue sets none",
    ]);
  });

  it('leaves text that is not JSON, and files without a schema, to the loader', () => {
    expect(validateSiteText('catalog.json', '{ "site": ')).toEqual([]);
    expect(validateSiteText('templates/x.json', '{"a": 1}')).toEqual([]);
  });
});

describe('did you mean', () => {
  it('takes a close spelling first, then (in closed objects) a key the word starts', () => {
    expect(didYouMean('price', ['id', 'sku', 'priceCents', 'salePriceCents'], true)).toBe('priceCents');
    expect(didYouMean('qty', ['qtyInStock', 'sku'], true)).toBe('qtyInStock');
    expect(didYouMean('onsale', ['onSale', 'salePriceCents'], true)).toBe('onSale');
    expect(didYouMean('home', ['homePage', 'title'], false)).toBeNull();
    expect(didYouMean('zzz', ['id', 'sku'], true)).toBeNull();
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('abcdefgh', 'zzzzzzzz', 2)).toBe(3);
  });
});

describe('validateSiteFiles', () => {
  it('finds nothing in the demo site', async () => {
    expect(await validateSiteFiles(DEMO)).toEqual([]);
  });

  it('checks site.json, catalog.json and every content file of a folder', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-validate-'));
    try {
      fs.mkdirSync(path.join(dir, 'content'));
      fs.writeFileSync(path.join(dir, 'catalog.json'), CATALOG);
      fs.writeFileSync(path.join(dir, 'site.json'), '{ "titel": "x" }');
      fs.writeFileSync(path.join(dir, 'content', 'a.json'), '{ "slug": "A b" }');
      const found = await validateSiteFiles(dir);
      expect(found.map((d) => `${d.file}:${d.line}:${d.column} ${d.code}`)).toEqual([
        'site.json:1:3 SITE_KEY_UNKNOWN',
        'catalog.json:6:7 SITE_KEY_UNKNOWN',
        'catalog.json:8:9 SITE_VALUE_INVALID',
        'catalog.json:8:34 SITE_KEY_UNKNOWN',
        'catalog.json:8:63 SITE_VALUE_INVALID',
        'content/a.json:1:11 SITE_VALUE_INVALID',
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('products no page shows', () => {
  it("warns at a product whose collectionId names no products collection, or that has none, unless a product block shows it", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-validate-'));
    try {
      fs.mkdirSync(path.join(dir, 'content'));
      const product = (id: string, extra: object) => ({ id, title: id.toUpperCase(), variants: [{ id: `${id}-1`, sku: id, priceCents: 100 }], ...extra });
      const catalog = {
        site: { websiteId: 'w' },
        products: [product('mug', { collectionId: 'shop' }), product('hat', { collectionId: 'shopp' }), product('cap', {}), product('gift', {}), product('tea', { collectionId: 'teas' })],
      };
      fs.writeFileSync(path.join(dir, 'catalog.json'), JSON.stringify(catalog, null, 2));
      fs.writeFileSync(path.join(dir, 'content', 'shop.json'), '{ "kind": "collection", "collectionType": "products" }');
      fs.writeFileSync(path.join(dir, 'content', 'tea-shop.json'), '{ "id": "teas", "kind": "collection", "collectionType": "products" }');
      fs.writeFileSync(path.join(dir, 'content', 'gifts.json'), '{ "blocks": [{ "type": "product", "productId": "gift" }] }');
      const found = await validateSiteFiles(dir);
      expect(found.map((d) => `${d.file}:${d.line}:${d.column} ${d.severity} ${d.code} ${d.message}`)).toEqual([
        'catalog.json:28:23 warning SITE_VALUE_INVALID products[1] ("HAT") is in collection "shopp", which no products collection in content/ has, so no page shows it (did you mean "shop"?)',
        'catalog.json:30:5 warning SITE_VALUE_INVALID products[2] ("CAP") names no collectionId, so no page shows it; set it to a products collection\'s id ("shop", "teas")',
      ]);
      // A site with no products collection (product blocks only) is not told about each product.
      fs.rmSync(path.join(dir, 'content', 'shop.json'));
      fs.rmSync(path.join(dir, 'content', 'tea-shop.json'));
      expect(await validateSiteFiles(dir)).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('findingLines (what a server start logs)', () => {
  it('logs every finding up to the limit, then one line counting the rest', () => {
    const finding = (i: number) => ({ severity: 'warning' as const, code: 'SITE_KEY_UNKNOWN' as const, file: 'catalog.json', line: i, column: 3, message: `unknown key "k${i}"` });
    const few = [1, 2].map(finding);
    expect(findingLines(few, 'site')).toEqual(few.map(formatSiteDiagnostic));
    const many = Array.from({ length: LOGGED_FINDINGS + 5 }, (_, i) => finding(i + 1));
    const lines = findingLines(many, 'my-site');
    expect(lines.length).toBe(LOGGED_FINDINGS + 1);
    expect(lines.slice(0, LOGGED_FINDINGS)).toEqual(many.slice(0, LOGGED_FINDINGS).map(formatSiteDiagnostic));
    expect(lines[LOGGED_FINDINGS]).toBe('5 more findings not logged: `quire check my-site` lists every one');
  });
});

describe('message plural keys in localizedStrings (seed §5)', () => {
  it("warns at the string's position about a key the site's locale lacks", () => {
    const text = JSON.stringify({ locale: 'en-US', localizedStrings: { items: '{0 plural =0{none} one{# item} few{# items} other{# items}}', ok: '{0 plural one{#} other{#}}' } }, null, 2);
    expect(validateSiteText('site.json', text).map(formatSiteDiagnostic)).toEqual([
      'site.json:4:14 warning SITE_VALUE_INVALID localizedStrings.items: plural key "few" is not a plural category of en-US (one, other); use =N for an exact number',
    ]);
  });
});
