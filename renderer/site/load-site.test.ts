import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { loadSite, SITE_JSON_DEPTH, SiteLoadError, siteLoadFailure, siteSeed, START_PROBLEMS } from './load-site.ts';
import { formatSiteDiagnostic, validateSiteFiles } from './validate-site-files.ts';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
});

/** A site folder from a map of relative path → file text. */
function folder(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-site-'));
  roots.push(root);
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  return root;
}

async function loadError(dir: string): Promise<SiteLoadError> {
  const error = await loadSite(dir).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SiteLoadError);
  return error as SiteLoadError;
}

describe('loadSite', () => {
  it('reads settings, content, templates and partials, with defaults filled in', async () => {
    const site = await loadSite(
      folder({
        'site.json': JSON.stringify({ title: 'Shop', cartVersion: 2, homePage: 'about', baseUrl: 'https://x.example' }),
        'content/about.json': JSON.stringify({ title: 'About', blocks: [{ type: 'html', html: '<p>Hi</p>' }] }),
        'content/blog.json': JSON.stringify({ kind: 'collection', collectionType: 'blog', items: [{ slug: 'first', title: 'First' }] }),
        'templates/page.jsont': '<h1>{page.title}</h1>',
        'partials/card.jsont': '<div>{title}</div>',
        'styles.css': 'body { color: red }',
        'styles/b.css': '.b {}',
        'styles/a.css': '.a {}',
      }),
    );
    expect(site.config).toMatchObject({ title: 'Shop', cartVersion: 2, locale: 'en-US', lock: { enabled: false }, extra: { baseUrl: 'https://x.example' } });
    expect(site.home?.slug).toBe('about');
    expect(site.bySlug.get('about')).toMatchObject({ kind: 'page', pageType: 2, id: 'about' });
    expect(site.bySlug.get('blog')).toMatchObject({ kind: 'collection', pageType: 1, collectionType: 'blog' });
    expect(site.bySlug.get('blog')!.items[0]).toMatchObject({ slug: 'first', id: 'blog-first' });
    expect(site.templates.get('page')!.template.render({ page: { title: 'A' } }).html).toBe('<h1>A</h1>');
    expect(site.partials.card).toBe('<div>{title}</div>');
    expect(site.partials['sf-product-detail']).toContain('data-product-scope');
    expect(site.stylesheet).toBe('body { color: red }\n/* styles/a.css */\n.a {}\n/* styles/b.css */\n.b {}');
    expect(site.catalog).toBeNull();
    // Without a catalogue the store still gets a site row, named after the folder.
    expect(siteSeed(site)).toEqual({ site: { websiteId: path.basename(site.dir) } });
  });

  it('compiles a template once per content: an unchanged file keeps its compiled template across loads', async () => {
    const files = { 'templates/page.jsont': '<p>{page.title}</p>', 'templates/other.jsont': 'x' };
    const first = await loadSite(folder(files));
    const second = await loadSite(folder({ ...files, 'templates/other.jsont': 'y' }));
    expect(second.templates.get('page')!.template).toBe(first.templates.get('page')!.template);
    expect(second.templates.get('other')!.template).not.toBe(first.templates.get('other')!.template);
    expect(second.hash).not.toBe(first.hash);
  });

  it('reports bad JSON with its file, line and column', async () => {
    const error = await loadError(folder({ 'content/about.json': '{\n  "title": "About",\n  "slug": ,\n}' }));
    expect(error.code).toBe('SITE_JSON_INVALID');
    expect(error.file).toBe('content/about.json');
    expect(error.line).toBe(3);
    expect(error.column).toBe(11);
  });

  it('reports a template syntax error with its position, or keeps it with allowTemplateErrors', async () => {
    const dir = folder({ 'templates/page.jsont': 'line one\n{.section page}{.end}{.end}' });
    const error = await loadError(dir);
    expect(error.code).toBe('TEMPLATE_SYNTAX');
    expect(error.file).toBe('templates/page.jsont');
    expect(error.line).toBe(2);
    const tolerant = await loadSite(dir, { allowTemplateErrors: true });
    expect(tolerant.problems).toHaveLength(1);
    expect(tolerant.templates.has('page')).toBe(true);
  });

  it('refuses duplicate slugs, reserved slugs, two home pages and bad blocks, listing every problem', async () => {
    const error = await loadError(
      folder({
        'content/a.json': JSON.stringify({ slug: 'same', home: true }),
        'content/b.json': JSON.stringify({ slug: 'same' }),
        'content/c.json': JSON.stringify({ slug: 'cart' }),
        'content/d.json': JSON.stringify({ home: true, blocks: [{ html: 'no type' }] }),
        'content/e.json': '[1, 2]',
      }),
    );
    const codes = error.problems.map((p) => `${p.file} ${p.code}`);
    expect(codes).toEqual(
      expect.arrayContaining([
        'content/b.json SITE_DUPLICATE_PATH',
        'content/c.json SITE_SCHEMA_INVALID',
        'content/d.json SITE_SCHEMA_INVALID',
        'content/e.json SITE_SCHEMA_INVALID',
      ]),
    );
    expect(error.problems.some((p) => p.message.includes('only one content file may be the home page'))).toBe(true);
  });

  it('places a bad slug, kind or homePage at its value', async () => {
    const error = await loadError(
      folder({
        'site.json': '{\n  "homePage": "nope"\n}',
        'content/a.json': '{\r\n  "title": "A",\r\n  "slug": ".."\r\n}',
        'content/b.json': '{ "slug": "b", "kind": "Collection" }',
      }),
    );
    expect(error.problems.map((p) => `${p.file}:${p.line}:${p.column}`)).toEqual(['content/a.json:3:11', 'content/b.json:1:24', 'site.json:2:15']);
  });

  it('offers the nearest kind for a misspelt one', async () => {
    const error = await loadError(folder({ 'content/a.json': '{ "slug": "a", "kind": "pgae" }', 'content/b.json': '{ "slug": "b", "kind": "blog" }' }));
    expect(error.problems.map((p) => p.message)).toEqual([
      '"kind" must be "page", "collection" or "cover" (found "pgae": did you mean "page"?)',
      '"kind" must be "page", "collection" or "cover"',
    ]);
  });

  it('places a repeated slug, a bad item and a block without a type at their place in the file (all were at 1:1)', async () => {
    const journal = [
      '{',
      '  "kind": "collection",',
      '  "slug": "journal",',
      '  "items": [',
      '    { "slug": "hello" },',
      '    { "slug": "hello" },',
      '    7,',
      '    { "id": "Bad Id" },',
      '    { "slug": "ok", "blocks": [{ "type": "text" }, { "type": 3 }, "x"] }',
      '  ],',
      '  "blocks": {}',
      '}',
    ].join('\n');
    const error = await loadError(folder({ 'content/a.json': '{ "slug": "same" }', 'content/b.json': '{\n  "title": "B",\n  "slug": "same"\n}', 'content/journal.json': journal }));
    const at = (line: number, needle: string) => `${line}:${journal.split('\n')[line - 1]!.indexOf(needle) + 1}`;
    expect(error.problems.map((p) => `${p.file}:${p.line}:${p.column} ${p.message}`)).toEqual([
      'content/b.json:3:11 slug "same" is already used by content/a.json',
      `content/journal.json:${at(6, '"hello"')} items[1]: slug "hello" is used twice`,
      `content/journal.json:${at(7, '7')} items[2] must be an object`,
      `content/journal.json:${at(8, '"Bad Id"')} items[3] needs a slug matching /^[a-z0-9][a-z0-9-]*$/`,
      `content/journal.json:${at(9, '3 }')} items[4].blocks[1] needs a string "type"`,
      `content/journal.json:${at(9, '"x"')} items[4].blocks[2] needs a string "type"`,
      `content/journal.json:${at(11, '{}')} page.blocks must be an array`,
    ]);
  });

  it('a broken content file named as the homePage is reported once, at its own error, not also as a homePage naming no file', async () => {
    const error = await loadError(
      folder({
        'site.json': '{\n  "homePage": "home"\n}',
        'content/home.json': '{\n  "title": "Welcome"\n  "home": true\n}',
      }),
    );
    expect(error.problems.map((p) => `${p.code} ${p.file}:${p.line}:${p.column}`)).toEqual(['SITE_JSON_INVALID content/home.json:2:21']);
  });

  it('checks catalog.json as a seed and refuses a missing folder', async () => {
    const error = await loadError(folder({ 'catalog.json': JSON.stringify({ site: {}, products: [{ id: 'p' }] }) }));
    expect(error.problems.map((p) => p.message)).toEqual(expect.arrayContaining(['site.websiteId must be a non-empty string']));
    expect((await loadError(path.join(os.tmpdir(), 'quire-no-such-site-folder'))).code).toBe('SITE_NOT_FOUND');
  });

  it('refuses a catalogue the store cannot take, before the store opens: an id twice, one URL twice, text it cannot hold, each at its position', async () => {
    const text = [
      '{ "site": { "websiteId": "w" },',
      '  "products": [',
      '    { "id": "tee", "collectionId": "shop", "variants": [{ "id": "s", "sku": "A", "priceCents": 1 }, { "id": "s", "sku": "B", "priceCents": 1 }] },',
      '    { "id": "tee", "title": "Tee \\u0000", "variants": [] },',
      '    { "id": "mug", "collectionId": "shop", "urlSlug": "tee", "variants": [] }',
      '  ] }',
    ].join('\n');
    const error = await loadError(folder({ 'catalog.json': text }));
    const at = (line: number, needle: string): string => `${line}:${text.split('\n')[line - 1]!.indexOf(needle) + 1}`;
    expect(error.problems.map((p) => `${p.file}:${p.line}:${p.column} ${p.code} ${p.message}`)).toEqual([
      `catalog.json:${at(4, '"tee"')} SITE_DUPLICATE_ID products[1].id "tee" is also products[0].id`,
      `catalog.json:${at(3, '"s", "sku": "B"')} SITE_DUPLICATE_ID products[0].variants[1].id "s" is also products[0].variants[0].id`,
      `catalog.json:${at(5, '"tee"')} SITE_DUPLICATE_PATH products[2] has the URL of products[0]: slug "tee" in collection "shop"`,
      `catalog.json:${at(4, '"Tee')} SITE_VALUE_INVALID products[1].title holds U+0000, which the store cannot hold`,
    ]);
  });

  it('refuses a variant with no price, which sold for $0.00: at a misspelled price key with its hint, else at the variant; 0 loads', async () => {
    const text = [
      '{ "site": { "websiteId": "w" },',
      '  "products": [',
      '    { "id": "tee", "variants": [{ "id": "s", "sku": "S", "price": 25 }] },',
      '    { "id": "card", "productType": 4, "variants": [{ "id": "c", "sku": "C" }] }',
      '  ] }',
    ].join('\n');
    const error = await loadError(folder({ 'catalog.json': text }));
    const at = (line: number, needle: string): string => `${line}:${text.split('\n')[line - 1]!.indexOf(needle) + 1}`;
    expect(error.problems.map((p) => `${p.file}:${p.line}:${p.column} ${p.code} ${p.message}`)).toEqual([
      `catalog.json:${at(3, '25')} SITE_VALUE_INVALID products[0].variants[0] has no "priceCents" ("price" is no key of a variant: did you mean "priceCents"?): it would sell for $0.00 (write "priceCents": 0 to sell it free)`,
      `catalog.json:${at(4, '{ "id": "c"')} SITE_VALUE_INVALID products[1].variants[0] has no "priceCents": it would sell for $0.00 (write "priceCents": 0 to sell it free)`,
    ]);
    const free = await loadSite(folder({ 'catalog.json': '{ "site": { "websiteId": "w" }, "products": [{ "id": "p", "variants": [{ "id": "v", "sku": "V", "priceCents": 0 }] }] }' }));
    expect(free.catalog!.products![0]!.variants[0]!.priceCents).toBe(0);
  });

  it("refuses a digital product's file that is missing or leaves the folder, at its value; loads one that is there", async () => {
    const product = (id: string, file: string) => `    { "id": "${id}", "productType": 2, "digitalFile": ${JSON.stringify(file)}, "variants": [] }`;
    const text = [
      '{ "site": { "websiteId": "w" },',
      '  "products": [',
      `${product('ok', 'downloads/ok.pdf')},`,
      `${product('gone', 'downloads/gone.pdf')},`,
      `${product('up', '../outside.pdf')},`,
      `${product('abs', '/etc/passwd')},`,
      `${product('dir', 'downloads')}`,
      '  ] }',
    ].join('\n');
    const root = folder({ 'catalog.json': text, 'downloads/ok.pdf': '%PDF-1.4' });
    fs.writeFileSync(path.join(path.dirname(root), 'outside.pdf'), 'secret');
    const error = await loadError(root);
    const at = (line: number): string => `${line}:${text.split('\n')[line - 1]!.indexOf('"digitalFile"') + 16}`;
    expect(error.problems.map((p) => `${p.file}:${p.line}:${p.column} ${p.code} ${p.message}`)).toEqual([
      `catalog.json:${at(4)} SITE_VALUE_INVALID products[1].digitalFile "downloads/gone.pdf" is not a file in the site folder`,
      `catalog.json:${at(5)} SITE_VALUE_INVALID products[2].digitalFile "../outside.pdf" leaves the site folder`,
      `catalog.json:${at(6)} SITE_VALUE_INVALID products[3].digitalFile must be a path inside the site folder (such as "downloads/poster.pdf"), found "/etc/passwd"`,
      `catalog.json:${at(7)} SITE_VALUE_INVALID products[4].digitalFile "downloads" is not a file`,
    ]);
    // A link inside the folder that points out of it is refused too.
    const linked = folder({ 'catalog.json': `{ "site": { "websiteId": "w" }, "products": [${product('ln', 'downloads/link.pdf')}] }` });
    fs.mkdirSync(path.join(linked, 'downloads'));
    fs.symlinkSync(path.join(path.dirname(root), 'outside.pdf'), path.join(linked, 'downloads', 'link.pdf'));
    expect((await loadError(linked)).problems.map((p) => p.message)).toEqual(['products[0].digitalFile "downloads/link.pdf" leaves the site folder (through a link)']);
    const good = folder({ 'catalog.json': `{ "site": { "websiteId": "w" }, "products": [${product('ok', 'downloads/ok.pdf')}] }`, 'downloads/ok.pdf': '%PDF-1.4' });
    expect((await loadSite(good)).catalog!.products![0]!.digitalFile).toBe('downloads/ok.pdf');
    expect(await validateSiteFiles(good)).toEqual([]);
    // Sold without a file, its buyers would get nothing: quire check warns at its productType.
    const fileless = folder({ 'catalog.json': '{ "site": { "websiteId": "w" },\n  "products": [{ "id": "p", "productType": 2, "variants": [] }] }' });
    expect((await validateSiteFiles(fileless)).map(formatSiteDiagnostic)).toEqual([
      'catalog.json:2:44 warning SITE_VALUE_INVALID products[0] is digital (productType 2) but names no digitalFile: its buyers get no download',
    ]);
  });

  it('refuses access fields it cannot read, where they would have served a protected page to everyone', async () => {
    const error = await loadError(
      folder({
        'site.json': '{\n  "lock": { "enabled": true, "password": "" }\n}',
        'content/a.json': '{ "slug": "a",\n  "password": 1234 }',
        'content/b.json': '{ "slug": "b", "memberArea": "true", "videoPaywall": 1 }',
      }),
    );
    expect(error.problems.map((p) => `${p.file}:${p.line}:${p.column} ${p.message}`)).toEqual([
      'site.json:2:11 lock.enabled needs a lock.password that is not empty',
      'content/a.json:2:15 "password" must be text: the page is not served unprotected',
      'content/b.json:1:30 "memberArea" must be true or false: the page is not served unprotected',
      'content/b.json:1:54 "videoPaywall" must be true or false: the page is not served unprotected',
    ]);
    await loadSite(folder({ 'site.json': '{ "lock": { "enabled": false } }', 'content/a.json': '{ "slug": "a", "password": "x", "memberArea": true }' }));
  });

  it('refuses a file that is not UTF-8 at its first bad byte, and reads one with a byte-order mark', async () => {
    const dir = folder({ 'content/a.json': '{ "slug": "a" }', 'content/b.json': '\ufeff{ "slug": "b", "title": "Café" }' });
    fs.writeFileSync(path.join(dir, 'content/a.json'), Buffer.concat([Buffer.from('{ "slug": "a",\n  "title": "Caf'), Buffer.from([0xe9]), Buffer.from('" }')]));
    const error = await loadError(dir);
    expect(error.problems.map((p) => `${p.file}:${p.line}:${p.column} ${p.code} ${p.message}`)).toEqual([
      'content/a.json:2:16 SITE_READ_FAILED not UTF-8 text: byte 0xE9 at line 2, column 16 (save the file as UTF-8)',
    ]);
    fs.rmSync(path.join(dir, 'content/a.json'));
    expect((await loadSite(dir)).bySlug.get('b')?.title).toBe('Café');
  });

  it('loads the demo site without problems', async () => {
    const site = await loadSite(path.resolve(__dirname, '../../fixtures/sites/demo'));
    expect(site.problems).toEqual([]);
    expect(site.catalog?.products?.length).toBeGreaterThanOrEqual(12);
    expect(siteSeed(site)).toBe(site.catalog);
    expect(site.bySlug.get('shop')?.collectionType).toBe('products');
  });

  it("siteSeed: site.json's deprecated minimumOrderSubtotalCents becomes the store's rule only while catalog.json sets none", async () => {
    const catalog = (commerce?: object) => JSON.stringify({ site: { websiteId: 'w', settings: { currency: 'USD', ...(commerce ? { commerce } : {}) } } });
    const legacy = await loadSite(folder({ 'site.json': '{ "minimumOrderSubtotalCents": 2500 }', 'catalog.json': catalog({ storeName: 'S' }) }));
    expect(siteSeed(legacy).site.settings).toEqual({ currency: 'USD', commerce: { storeName: 'S', minimumOrderSubtotalCents: 2500 } });
    expect(legacy.catalog?.site.settings?.commerce).toEqual({ storeName: 'S' }); // the loaded catalogue is not changed
    const noSettings = await loadSite(folder({ 'site.json': '{ "minimumOrderSubtotalCents": 0 }' }));
    expect(siteSeed(noSettings).site.settings).toEqual({ commerce: { minimumOrderSubtotalCents: 0 } });
    // The store's rules win; without the old key the catalogue is the seed as it is.
    const both = await loadSite(folder({ 'site.json': '{ "minimumOrderSubtotalCents": 2500 }', 'catalog.json': catalog({ minimumOrderSubtotalCents: 4000 }) }));
    expect(siteSeed(both)).toBe(both.catalog);
    const none = await loadSite(folder({ 'site.json': '{}', 'catalog.json': catalog() }));
    expect(none.config.minimumOrderSubtotalCents).toBeNull();
    expect(siteSeed(none)).toBe(none.catalog);
  });
});

describe('seed content limits where content is loaded (content-limits.ts)', () => {
  const blocks = (n: number) => Array.from({ length: n }, () => ({ type: 'html', html: '<p>x</p>' }));
  const gallery = (n: number) => ({ kind: 'collection', collectionType: 'gallery', items: Array.from({ length: n }, (_, i) => ({ slug: `i-${i}` })) });
  const site = () =>
    folder({
      'site.json': '{ "title": "S" }',
      'content/about.json': JSON.stringify({ title: 'About', blocks: blocks(61) }, null, 2),
      'content/photos.json': JSON.stringify(gallery(51), null, 2),
    });

  it('loadSite refuses the folder with SITE_LIMIT_EXCEEDED at file:line:col', async () => {
    const error = await loadError(site());
    expect(error.problems.map((p) => `${p.file}:${p.line}:${p.column} ${p.code} ${p.message}`)).toEqual([
      'content/about.json:244:5 SITE_LIMIT_EXCEEDED This page has 61 blocks; a layout holds at most 60.',
      'content/photos.json:155:5 SITE_LIMIT_EXCEEDED This collection has 51 items; a gallery holds at most 50 images.',
    ]);
  });

  it('finds the positions of many over-full collections in one pass over the catalogue, in the loader and in quire check', async () => {
    const products = [];
    for (let c = 0; c < 6; c++) for (let i = 0; i < 201; i++) products.push({ id: `p${c}-${i}`, collectionId: `c${c}` });
    const text = JSON.stringify({ site: { websiteId: 'w' }, products }, null, 1);
    const dir = folder({ 'catalog.json': text });
    // A pass over the text for positions reads its strings with JSON.parse: a pass or two a text, not one a finding.
    const strings = text.match(/"(?:[^"\\]|\\.)*"/g)!.length;
    const parse = vi.spyOn(JSON, 'parse');
    try {
      const error = await loadError(dir);
      const over = error.problems.filter((p) => p.code === 'SITE_LIMIT_EXCEEDED');
      expect(over.map((p) => p.message.split(' has ')[0])).toEqual([0, 1, 2, 3, 4, 5].map((c) => `Collection "c${c}"`));
      // Each at the 201st product of its collection.
      expect(over.map((p) => p.line)).toEqual([0, 1, 2, 3, 4, 5].map((c) => text.slice(0, text.indexOf(`"p${c}-200"`)).split('\n').length - 1));
      expect(parse.mock.calls.length).toBeLessThan(3 * strings);
      parse.mockClear();
      const findings = (await validateSiteFiles(dir)).filter((d) => d.code === 'SITE_LIMIT_EXCEEDED');
      expect(findings.map((d) => d.line)).toEqual(over.map((p) => p.line));
      expect(parse.mock.calls.length).toBeLessThan(3 * strings);
    } finally {
      parse.mockRestore();
    }
  });

  it(`refuses a data file whose values nest deeper than SITE_JSON_DEPTH (${SITE_JSON_DEPTH}) levels, where the too-deep value opens`, async () => {
    // The file's own object is the first level; brackets in a string are not structure.
    const catalog = (levels: number) => `{\n  "site": { "websiteId": "w" },\n  "x": ${'['.repeat(levels - 1)}${']'.repeat(levels - 1)},\n  "s": "${'['.repeat(500)}"\n}`;
    await loadSite(folder({ 'catalog.json': catalog(SITE_JSON_DEPTH) }));
    const content = `{ "slug": "a", "deep": ${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)} }`;
    const error = await loadError(folder({ 'catalog.json': catalog(SITE_JSON_DEPTH + 1), 'content/a.json': content }));
    const catalogColumn = '  "x": '.length + SITE_JSON_DEPTH;
    const contentColumn = '{ "slug": "a", "deep": '.length + 5 * (SITE_JSON_DEPTH - 1) + 1;
    expect(error.problems.map((p) => `${p.file}:${p.line}:${p.column} ${p.code}`)).toEqual([
      `catalog.json:3:${catalogColumn} SITE_LIMIT_EXCEEDED`,
      `content/a.json:1:${contentColumn} SITE_LIMIT_EXCEEDED`,
    ]);
    expect(error.problems[0].message).toBe(`This value nests deeper than ${SITE_JSON_DEPTH} levels; a site file's values nest ${SITE_JSON_DEPTH} levels at most.`);
  });

  it('quire check (validateSiteFiles) reports the same findings as errors', async () => {
    const findings = (await validateSiteFiles(site())).filter((d) => d.code === 'SITE_LIMIT_EXCEEDED');
    expect(findings.map(formatSiteDiagnostic)).toEqual([
      'content/about.json:244:5 error SITE_LIMIT_EXCEEDED This page has 61 blocks; a layout holds at most 60.',
      'content/photos.json:155:5 error SITE_LIMIT_EXCEEDED This collection has 51 items; a gallery holds at most 50 images.',
    ]);
  });
});

describe('siteLoadFailure: what npm start prints when the folder does not load', () => {
  it('names each file from where the folder was typed, the engine code first, and the command that frames them', () => {
    const problems = [
      { code: 'TEMPLATE_SYNTAX' as const, file: 'templates/page.jsont', line: 4, column: 16, message: "FORMATTER_UNKNOWN: Formatter 'mony' is unknown." },
      { code: 'SITE_JSON_INVALID' as const, file: 'content/home.json', line: 2, column: 17, message: "a ',' is missing here" },
    ];
    expect(siteLoadFailure(problems, 'my-site', 'npx quire')).toBe(
      'cannot load the site my-site (2 problems):\n' +
        "  my-site/templates/page.jsont:4:16 FORMATTER_UNKNOWN: Formatter 'mony' is unknown.\n" +
        "  my-site/content/home.json:2:17 SITE_JSON_INVALID: a ',' is missing here\n" +
        'quire: `npx quire check my-site` frames each one with a hint; `npx quire preview my-site` shows them on the page while you fix them',
    );
    // Many problems: the first START_PROBLEMS and a count; a folder with a space is quoted for the shell.
    const many = Array.from({ length: START_PROBLEMS + 3 }, () => problems[1]!);
    const text = siteLoadFailure(many, '/srv/my shop', 'npx --prefix /q quire');
    expect(text.split('\n')).toHaveLength(START_PROBLEMS + 3);
    expect(text).toContain('\n  … and 3 more\n');
    expect(text).toContain("`npx --prefix /q quire check '/srv/my shop'`");
  });
});
