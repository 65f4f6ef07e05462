import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { checkPaths, checkReport } from './check-site.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const demo = path.join(root, 'fixtures/sites/demo');

describe('checkPaths', () => {
  let dir: string;
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
    return path.join(dir, file);
  };

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-check-'));
  });

  it('accepts the demo site folder, its templates/ and its partials/ (renderer formatters such as image-component known)', async () => {
    const site = await checkPaths([demo]);
    expect(site.frames.map((frame) => frame.text)).toEqual([]);
    expect(site).toMatchObject({ exitCode: 0, pathErrors: [], checked: { sites: 1 } });
    expect(site.checked.templates).toBeGreaterThan(20);
    const folders = await checkPaths([path.join(demo, 'templates'), path.join(demo, 'partials')]);
    expect(folders.frames.map((frame) => frame.text)).toEqual([]);
    expect(folders.exitCode).toBe(0);
    const gallery = await checkPaths([path.join(demo, 'templates/gallery.item.jsont')]);
    expect(gallery.exitCode).toBe(0);
  });

  it('a missing or unreadable path is one line each and exit 2, and the other paths are still checked', async () => {
    const bad = write('bad.jsont', '{.section a}');
    const result = await checkPaths([path.join(dir, 'nope'), path.join(bad, 'below'), bad]);
    expect(result.exitCode).toBe(2);
    expect(result.pathErrors).toEqual([`${path.join(dir, 'nope')}: no such file or folder`, `${path.join(bad, 'below')}: a part of the path is not a folder`]);
    expect(result.frames.map((frame) => frame.code)).toEqual(['EOF_IN_BLOCK']);
  });

  it('warnings alone (an unknown or deprecated key) are shown but pass; an invalid value fails', async () => {
    write('site.json', '{"title": "T", "navigaton": []}');
    write('templates/page.jsont', '<h1>{page.title|html}</h1>\n');
    const warned = await checkPaths([dir]);
    expect(warned.frames.map((frame) => [frame.code, frame.warning])).toEqual([['SITE_KEY_UNKNOWN', true]]);
    expect(warned.exitCode).toBe(0);
    write('site.json', '{"title": 5, "navigaton": []}');
    const failed = await checkPaths([dir]);
    expect(failed.frames.map((frame) => frame.code).sort()).toEqual(['SITE_KEY_UNKNOWN', 'SITE_VALUE_INVALID']);
    expect(failed.exitCode).toBe(1);
  });

  it('warns about a variable written into a <script> or <style> unescaped, in a site folder and a given file, and passes', async () => {
    write('site.json', '{"title": "T"}');
    write('templates/page.jsont', '<h1>{page.title|html}</h1>\n<script>var title = {page.title|json}, id = {page.id};</script>\n');
    write('partials/theme.jsont', '<style>.hero{background:{colour}}</style>\n');
    const site = await checkPaths([dir]);
    expect(site.frames.map((frame) => [frame.code, frame.where, frame.warning])).toEqual([
      ['TEMPLATE_SCRIPT_VARIABLE', path.join(dir, 'templates/page.jsont:2:45'), true],
      ['TEMPLATE_STYLE_VARIABLE', path.join(dir, 'partials/theme.jsont:1:25'), true],
    ]);
    expect(site.exitCode).toBe(0);
    expect(checkReport(site).problems[0]).toMatchObject({ code: 'TEMPLATE_SCRIPT_VARIABLE', severity: 'warning', line: 2, column: 45, hint: expect.stringContaining('write {page.id|json}') });
    const file = await checkPaths([path.join(dir, 'templates/page.jsont')]);
    expect(file.frames.map((frame) => frame.code)).toEqual(['TEMPLATE_SCRIPT_VARIABLE']);
  });

  it('frames every finding of a large minified catalogue, reading the file once for all frames, its long line cut around each', async () => {
    const variants = Array.from({ length: 150_000 }, (_, i) => ({ id: `v${i}`, sku: `S${i}`, priceCents: 1, bogus: 0 }));
    const catalog = JSON.stringify({ site: { websiteId: 'w' }, products: [{ id: 'p', title: 'P', urlSlug: 'p', variants }] });
    const file = write('catalog.json', catalog);
    const reads = vi.spyOn(fs, 'readFileSync');
    try {
      // A spread of 150,000 frames overflowed the call stack; a read a frame took minutes.
      const result = await checkPaths([dir]);
      const unknown = result.frames.filter((frame) => frame.code === 'SITE_KEY_UNKNOWN');
      expect(unknown.length).toBe(150_000);
      // Once by the loader, once by the schema check (validateSiteFiles), once for all the frames.
      expect(reads.mock.calls.filter(([p]) => path.resolve(String(p)) === file).length).toBe(3);
      const last = unknown[unknown.length - 1].text.split('\n');
      expect(last[0]).toBe('Warning SITE_KEY_UNKNOWN: unknown key "bogus" in products[0].variants[149999]');
      const marked = last.findIndex((line) => line.startsWith('>'));
      expect(last[marked].length).toBeLessThan(200);
      expect(last[marked].slice(last[marked + 1].indexOf('^'))).toMatch(/^"bogus":0}]}]}/);
    } finally {
      reads.mockRestore();
    }
  });

  it('a folder with neither site files nor templates is a path error', async () => {
    fs.mkdirSync(path.join(dir, 'empty'));
    const result = await checkPaths([path.join(dir, 'empty')]);
    expect(result).toMatchObject({ exitCode: 2, pathErrors: [`${path.join(dir, 'empty')}: no templates (*.jsont, *.html) and no site files in this folder`] });
  });

  it('reports template and partial syntax errors of a site with their file, relative to the path given', async () => {
    write('site.json', '{"title": "T"}');
    write('templates/page.jsont', '<h1>{page.title|html}</h1>\n{page.x|nope}\n');
    write('partials/card.jsont', '{.section a}\n');
    const result = await checkPaths([dir]);
    expect(result.exitCode).toBe(1);
    expect(result.frames.map((frame) => [frame.code, frame.where])).toEqual([
      ['FORMATTER_UNKNOWN', path.join(dir, 'templates/page.jsont:2:9')],
      ['EOF_IN_BLOCK', path.join(dir, 'partials/card.jsont:2:1')],
    ]);
    expect(result.frames[0]!.text).toContain(`  at ${path.join(dir, 'templates/page.jsont')}:2:9`);
    expect(result.frames[0]!.text).toContain('> 2 | {page.x|nope}');
  });

  it('reports the content problems the site loader finds (bad JSON, bad catalogue)', async () => {
    write('catalog.json', '{"site": {}}');
    write('content/about.json', '{ "slug": "about", }');
    const result = await checkPaths([dir]);
    expect(result.exitCode).toBe(1);
    expect(result.frames.map((frame) => frame.code).sort()).toEqual(['SITE_JSON_INVALID', 'SITE_SCHEMA_INVALID']);
    expect(result.frames.find((frame) => frame.code === 'SITE_JSON_INVALID')!.where).toBe(path.join(dir, 'content/about.json:1:18'));
    // A file that does not parse is a syntax error; a catalogue that parses but is wrong is an error.
    expect(result.frames.map((frame) => frame.text.split(' ')[0]).sort()).toEqual(['Error', 'SyntaxError']);
  });

  it('checks a data file given on its own as data (JSON, then its schema), and refuses a file that is neither', async () => {
    const broken = write('broken.json', '{"title": "x",, }');
    const content = write('page.json', '{"kind": "post"}');
    const result = await checkPaths([broken, content]);
    expect(result.exitCode).toBe(1);
    expect(result.checked).toMatchObject({ templates: 0, dataFiles: 2 });
    expect(result.frames.map((frame) => `${frame.code} ${frame.where.slice(dir.length + 1)} ${frame.text.split('\n')[0]!.split(':')[0]}`)).toEqual([
      'SITE_JSON_INVALID broken.json:1:15 SyntaxError SITE_JSON_INVALID',
      'SITE_VALUE_INVALID page.json:1:10 Error SITE_VALUE_INVALID',
    ]);
    const css = write('styles.css', 'body {}');
    const refused = await checkPaths([css]);
    expect(refused).toMatchObject({ exitCode: 2, pathErrors: [`${css}: not a template (*.jsont, *.html) or a site data file (*.json)`] });
  });

  it('warns about a page naming a template the folder does not have (it renders with its default silently)', async () => {
    write('content/a.json', '{"slug": "a",\n "template": "nope"}');
    write('content/b.json', '{"slug": "b", "template": "page"}');
    write('content/c.json', '{"slug": "c", "template": "pgae"}');
    const result = await checkPaths([dir]);
    expect(result.exitCode).toBe(0);
    expect(result.frames.map((frame) => [frame.where.slice(dir.length + 1), frame.warning, frame.text.split('\n')[0]])).toEqual([
      ['content/a.json:2:2', true, 'Warning SITE_CONTENT: template "nope" is not in templates/: the page renders with the template its page type gets by default'],
      ['content/c.json:1:15', true, 'Warning SITE_CONTENT: template "pgae" is not in templates/ (did you mean "page"?): the page renders with the template its page type gets by default'],
    ]);
  });

  it('warns about a template no page is rendered with (blog.list.jsont saved as blog.lst.jsont), with the name a page would use', async () => {
    write('content/a.json', '{"slug": "a"}');
    write('content/journal.json', '{"slug": "journal", "kind": "collection", "collectionType": "blog", "template": "news"}');
    write('templates/blog.lst.jsont', '<p>{page.title}</p>');
    // Used: the layout, a table name, a collection's own .list/.item and its "template".
    for (const name of ['layout', 'page', 'cart', 'news.item', 'news']) write(`templates/${name}.jsont`, '{@}');
    const result = await checkPaths([dir]);
    expect(result.exitCode).toBe(0);
    expect(result.frames.map((frame) => [frame.where.slice(dir.length + 1), frame.warning, frame.text.split('\n')[0]])).toEqual([
      [
        'templates/blog.lst.jsont:1:1',
        true,
        'Warning SITE_CONTENT: no page is rendered with templates/blog.lst.jsont (did you mean blog.list.jsont? Without it, those pages render with Quire\'s built-in blog.list template): a page uses the template of its type (page, cover, blog.list, products.item …) or the "template" its content file names',
      ],
    ]);
  });

  describe('templates/page.jsont missing while pages render with it (they fell back to the built-in page template, and every tool said 0 problems)', () => {
    const missing = async () => {
      const result = await checkPaths([dir]);
      expect(result.exitCode).toBe(0);
      return result.frames.map((frame) => [frame.where.slice(dir.length + 1), frame.warning, frame.text]);
    };
    const words = (fix: string) => `Warning SITE_TEMPLATE_MISSING: no templates/page.jsont, so 2 pages (content/about.json, content/contact.json) render with Quire's built-in page template: ${fix}`;

    beforeEach(() => {
      write('content/about.json', '{"slug": "about"}');
      write('content/contact.json', '{"slug": "contact", "kind": "cover"}');
      // Pages with a template of their own that exists are not counted.
      write('content/landing.json', '{"slug": "landing", "template": "landing"}');
      write('templates/landing.jsont', '{@}');
      write('templates/layout.jsont', '{mainContent}');
    });

    it('deleted: a warning at the missing file, naming the pages and what to do', async () => {
      expect(await missing()).toEqual([
        ['templates/page.jsont', true, `${words('add templates/page.jsont, or name in a content file the "template" it renders with')}\n  at ${dir}/templates/page.jsont`],
      ]);
    });

    it('saved as Page.jsont, page.json or pages.jsont: did you mean that file, said once (not also as a template no page uses)', async () => {
      for (const [file, rest] of [['Page.jsont', ['pages.jsont']], ['page.json', ['pages.jsont']], ['pgae.jsont', []], ['pages.jsont', []]] as const) {
        for (const name of fs.readdirSync(path.join(dir, 'templates'))) if (!['landing.jsont', 'layout.jsont'].includes(name)) fs.rmSync(path.join(dir, 'templates', name));
        write(`templates/${file}`, '<p>{page.title}</p>');
        for (const other of rest) write(`templates/${other}`, '{@}');
        const frames = await missing();
        expect(frames[0]).toEqual(['templates/page.jsont', true, `${words(`did you mean templates/${file}? A page template is found by its exact name, page.jsont`)}\n  at ${dir}/templates/page.jsont`]);
        // The other near name is still a template no page uses, reported as before.
        expect(frames.slice(1).map(([where]) => where)).toEqual(rest.map((other) => `templates/${other}:1:1`));
      }
    });

    it('is not said when page.jsont is there, no page renders with it, or the folder has no templates/ (the built-in templates meant)', async () => {
      const codes = async () => (await missing()).map(([, , text]) => String(text).split(':')[0]);
      write('templates/page.jsont', '{@}');
      expect(await codes()).toEqual([]);
      fs.rmSync(path.join(dir, 'templates/page.jsont'));
      write('content/about.json', '{"slug": "about", "template": "landing"}');
      write('content/contact.json', '{"slug": "contact", "template": "landing"}');
      expect(await codes()).toEqual([]);
      write('content/about.json', '{"slug": "about"}');
      fs.rmSync(path.join(dir, 'templates'), { recursive: true });
      // Only the pages naming a template the folder lacks are said, as before.
      expect(await codes()).toEqual(['Warning SITE_CONTENT', 'Warning SITE_CONTENT']);
    });
  });

  it('lists template syntax errors with the content problems that refuse the folder, in one run', async () => {
    write('content/bad.json', '{"slug": "Bad_Slug"}');
    write('templates/page.jsont', '<p>x</p>\n{.end}');
    const result = await checkPaths([dir]);
    expect(result.frames.map((frame) => `${frame.code} ${frame.where.slice(dir.length + 1)}`)).toEqual(['SITE_SCHEMA_INVALID content/bad.json:1:10', 'MISMATCHED_END templates/page.jsont:2:1']);
  });

  it("frames a refused folder's template errors as the engine's own, with their hints, and lists its data files' schema findings too", async () => {
    write('site.json', '{"title": 5}');
    write('content/about.json', '{ "slug": "about", }');
    write('templates/page.jsont', '\ufeff<h1>{page.title|htm}</h1>\r\n{.section page}\r\n');
    const result = await checkPaths([dir]);
    expect(result.exitCode).toBe(1);
    // Before: `SyntaxError TEMPLATE_SYNTAX: FORMATTER_UNKNOWN: …` without a hint, and no word on site.json until the comma was fixed.
    expect(result.frames.map((frame) => `${frame.code} ${frame.where.slice(dir.length + 1)}`)).toEqual([
      'SITE_JSON_INVALID content/about.json:1:18',
      'FORMATTER_UNKNOWN templates/page.jsont:1:17',
      'EOF_IN_BLOCK templates/page.jsont:3:1',
      'SITE_VALUE_INVALID site.json:1:11',
    ]);
    const [, unknown, eof] = result.frames.map((frame) => frame.text.split('\n'));
    expect(unknown![0]).toBe("SyntaxError FORMATTER_UNKNOWN: Formatter 'htm' is unknown.");
    expect(unknown).toContain('> 1 | <h1>{page.title|htm}</h1>');
    expect(unknown).toContain('    |                 ^');
    expect(unknown!.at(-1)).toBe("  hint: did you mean 'html'? (every formatter: docs/reference/formatters.md)");
    expect(eof!.at(-1)).toBe('  hint: add {.end} where the block should close');
  });

  it('reports an .eval that does not parse, which no syntax check saw (the engine says it when a render reaches it)', async () => {
    write('site.json', '{}');
    write('templates/page.jsont', '<h1>{page.title|html}</h1>\n{.section page.missing}{.eval foo(1)}{.end}\n');
    write('partials/card.jsont', '{.eval "abc}');
    const result = await checkPaths([dir]);
    expect(result.exitCode).toBe(1);
    expect(result.frames.map((frame) => `${frame.where.slice(dir.length + 1)} ${frame.text.split('\n')[0]}`)).toEqual([
      'templates/page.jsont:2:24 RuntimeError EXPRESSION_PARSE: Error parsing expression: Invalid function: foo',
      'partials/card.jsont:1:1 RuntimeError EXPRESSION_PARSE: Error parsing expression: Unterminated string',
    ]);
    const file = write('loose/t.jsont', '{.eval (1}');
    expect((await checkPaths([file])).frames.map((frame) => frame.code)).toEqual(['EXPRESSION_PARSE']);
  });

  it('reports an .eval with an operator short of an operand, which parses and which the engine drops silently when assigned', async () => {
    write('site.json', '{}');
    write('templates/page.jsont', '<h1>{page.title|html}</h1>\n<p>{.eval @total = page.price *}{@total}</p>\n');
    const result = await checkPaths([dir]);
    expect(result.exitCode).toBe(1);
    expect(result.frames.map((frame) => `${frame.where.slice(dir.length + 1)} ${frame.code}`)).toEqual(['templates/page.jsont:2:4 EXPRESSION_REDUCE']);
    expect(checkReport(result).problems[0]!.hint).toMatch(/^every operator needs a value on each side/);
    const file = write('loose/t.jsont', '{.eval 1 + * 2}');
    expect((await checkPaths([file])).frames.map((frame) => frame.code)).toEqual(['EXPRESSION_REDUCE']);
  });

  it('warns about a picture /assets/site/images/NAME names that images/ does not have, in data files, templates and styles', async () => {
    write('site.json', '{}');
    write('content/home.json', '{\n  "slug": "home",\n  "blocks": [{ "type": "image", "url": "/assets/site/images/hero.webp", "alt": "" }, { "type": "image", "url": "/assets/site/images/kept.webp?format=500w", "alt": "" }]\n}');
    write('templates/page.jsont', '<img src="/assets/site/images/{page.slug}.webp" alt=""><img src="/assets/site/images/logo%20mark.png" alt="">');
    write('styles.css', 'body { background: url(/assets/site/images/bg.png); }');
    // Stored as width variants only, or as the original: both answer the name.
    write('images/kept-300w.webp', 'x');
    write('images/bg.png', 'x');
    const result = await checkPaths([dir]);
    expect(result.exitCode).toBe(0);
    expect(result.frames.map((frame) => [frame.code, frame.where.slice(dir.length + 1), frame.warning])).toEqual([
      ['SITE_IMAGE_MISSING', 'content/home.json:3:41', true],
      ['SITE_IMAGE_MISSING', 'templates/page.jsont:1:66', true],
    ]);
    expect(result.frames[0]!.text.split('\n')[0]).toBe(
      'Warning SITE_IMAGE_MISSING: /assets/site/images/hero.webp: no images/hero.webp (or a width variant such as images/hero-500w.webp) in the site folder; the page shows a broken picture',
    );
    expect(result.frames[1]!.text.split('\n')[0]).toContain('no images/logo mark.png');
  });

  it('reports a partial that calls itself on every render, once per cycle; recursion under a section ends with the data', async () => {
    write('site.json', '{}');
    write('templates/page.jsont', '{.include a}{.include loop}{.include tree}');
    write('partials/loop.jsont', '<p>{.include loop}</p>');
    write('partials/a.jsont', '{.var @x page}\n{@x|apply b}');
    write('partials/b.jsont', '{.include a}');
    write('partials/tree.jsont', '{.section children}{.repeated section @}{@|apply tree}{.end}{.end}');
    write('partials/own.jsont', '{.macro own}x{.end}{@|apply own}');
    const result = await checkPaths([dir]);
    expect(result.exitCode).toBe(1);
    // The engine's words and place (what a page using it shows in the preview), the cycle in the hint.
    expect(result.frames.map((frame) => `${frame.where.slice(dir.length + 1)} ${frame.text.split('\n')[0]} | ${frame.text.split('\n').at(-1)}`)).toEqual([
      "partials/a.jsont:2:1 RuntimeError APPLY_PARTIAL_RECURSION_DEPTH: Recursion through partial b exceeded maximum depth of 16 |   hint: partial 'a' calls itself on every render (a -> b -> a): put the call inside a {.section} or {.if} that ends",
      "partials/loop.jsont:1:4 RuntimeError APPLY_PARTIAL_RECURSION_DEPTH: Recursion through partial loop exceeded maximum depth of 16 |   hint: partial 'loop' calls itself on every render (loop -> loop): put the call inside a {.section} or {.if} that ends",
    ]);
  });

  it('checkReport: the --json shape, one problem per frame with its file, position, words, hint and frame', async () => {
    const file = write('card.jsont', '{title|htm}\n');
    const content = write('page.json', '{"kind": "post", "titel": "x"}');
    const report = checkReport(await checkPaths([file, content, path.join(dir, 'gone.jsont')]));
    expect(report).toEqual({
      version: 1,
      exitCode: 2,
      checked: { templates: 1, sites: 0, dataFiles: 1 },
      pathErrors: [`${path.join(dir, 'gone.jsont')}: no such file or folder`],
      problems: [
        {
          code: 'FORMATTER_UNKNOWN',
          severity: 'error',
          file,
          line: 1,
          column: 8,
          message: "Formatter 'htm' is unknown.",
          hint: "did you mean 'html'? (every formatter: docs/reference/formatters.md)",
          frame: expect.stringContaining('> 1 | {title|htm}'),
        },
        { code: 'SITE_VALUE_INVALID', severity: 'error', file: content, line: 1, column: 10, message: expect.stringMatching(/^kind must be/), frame: expect.any(String) },
        { code: 'SITE_KEY_UNKNOWN', severity: 'warning', file: content, line: 1, column: 18, message: expect.stringContaining('"titel"'), frame: expect.any(String) },
      ],
    });
  });

  it('frames a template given on its own with the hints of a site template', async () => {
    const file = write('card.jsont', '{title|htm}\n{.equl? a b}x{.end}\n');
    const result = await checkPaths([file]);
    expect(result.frames.map((frame) => frame.text.split('\n').at(-1))).toEqual([
      "  hint: did you mean 'html'? (every formatter: docs/reference/formatters.md)",
      "  hint: did you mean 'equal?'? (every predicate: docs/reference/predicates.md)",
    ]);
  });

  it('frames a catalogue id given twice as an error at the second id', async () => {
    write('catalog.json', '{"site": {"websiteId": "w"},\n "products": [{"id": "p", "variants": []},\n  {"id": "p", "variants": []}]}');
    const result = await checkPaths([dir]);
    expect(result.exitCode).toBe(1);
    expect(result.frames.map((frame) => [frame.where.slice(dir.length + 1), frame.text.split('\n').slice(0, 1)[0]])).toEqual([
      ['catalog.json:3:10', 'Error SITE_DUPLICATE_ID: products[1].id "p" is also products[0].id'],
    ]);
  });

  it('reports the content problems a page would show: unknown block types, forms and products missing from the catalogue', async () => {
    write('catalog.json', JSON.stringify({ site: { websiteId: 's' }, forms: [{ id: 'contact' }], products: [{ id: 'mug', variants: [] }] }));
    write('content/contact.json', JSON.stringify({ slug: 'contact', blocks: [{ type: 'form', formId: 'contact' }, { type: 'newsletter', formId: 'news' }] }, null, 2));
    write('content/shop.json', JSON.stringify({ slug: 'shop', blocks: [{ type: 'product', productId: 'mug' }, { type: 'product', productId: 'cup' }, { type: 'carousel' }] }, null, 2));
    const result = await checkPaths([dir]);
    expect(result.exitCode).toBe(1);
    expect(result.frames.map((frame) => [frame.code, frame.where.slice(dir.length + 1), frame.text.split('\n')[0]])).toEqual([
      ['SITE_CONTENT', 'content/contact.json:10:17', 'RuntimeError SITE_CONTENT: newsletter block: no form "news" in catalog.json'],
      ['SITE_CONTENT', 'content/shop.json:10:20', 'RuntimeError SITE_CONTENT: product block: no product "cup" in catalog.json'],
      ['SITE_CONTENT', 'content/shop.json:13:15', 'RuntimeError SITE_CONTENT: unknown block type "carousel"'],
    ]);
  });

  it('reports data files against the published schemas: unknown keys with a suggestion, wrong types', async () => {
    write('catalog.json', JSON.stringify({ site: { websiteId: 's' }, products: [{ id: 'mug', variants: [{ id: 'm', sku: 'M', priceCents: 900, qty: 3, onSale: 'yes' }] }] }, null, 2));
    const result = await checkPaths([dir]);
    expect(result.exitCode).toBe(1);
    expect(result.frames.map((frame) => [frame.where.slice(dir.length + 1), frame.text.split('\n')[0]])).toEqual([
      ['catalog.json:13:11', 'Warning SITE_KEY_UNKNOWN: unknown key "qty" in products[0].variants[0] (did you mean "qtyInStock"?)'],
      ['catalog.json:14:21', 'Error SITE_VALUE_INVALID: products[0].variants[0].onSale must be boolean, found string "yes"'],
    ]);
  });

  it('fails a variant whose price is misspelled (it sold for $0.00), at the misspelled key with its hint', async () => {
    write('catalog.json', JSON.stringify({ site: { websiteId: 's' }, products: [{ id: 'mug', variants: [{ id: 'm', sku: 'M', price: 25 }] }] }, null, 2));
    const result = await checkPaths([dir]);
    expect(result.exitCode).toBe(1);
    expect(result.frames.map((frame) => [frame.where.slice(dir.length + 1), frame.text.split('\n')[0]])).toEqual([
      ['catalog.json:12:20', 'Error SITE_VALUE_INVALID: products[0].variants[0] has no "priceCents" ("price" is no key of a variant: did you mean "priceCents"?): it would sell for $0.00 (write "priceCents": 0 to sell it free)'],
    ]);
  });

  it('an apply or include naming no partial and no macro is a problem; macros, site and renderer partials are not', async () => {
    write('site.json', '{}');
    write('partials/card.jsont', '<b>{title}</b>{@|apply missing-in-partial}');
    write(
      'templates/page.jsont',
      '{.macro m}<i>{@}</i>{.end}{page|apply m}{page|apply card}{.section page}{@|apply sf-product-card}{.end}\n{page|apply cardd}{.include nowhere}',
    );
    const result = await checkPaths([dir]);
    expect(result.exitCode).toBe(1);
    // The words, place and hint of the preview's overlay when a page renders the call.
    expect(result.frames.map((frame) => `${frame.text.split('\n')[0]} | ${frame.text.split('\n').at(-1)}`)).toEqual([
      "RuntimeError APPLY_PARTIAL_MISSING: Attempt to apply partial 'cardd' which could not be found. |   hint: no partials/cardd.jsont in the site folder and no {.macro cardd} in this file: did you mean 'card'?",
      // The code the render reports for an `.include` (INCLUDE_PARTIAL_MISSING), not an apply's.
      "RuntimeError INCLUDE_PARTIAL_MISSING: Attempt to include partial 'nowhere' which could not be found. |   hint: no partials/nowhere.jsont in the site folder and no {.macro nowhere} in this file",
      "RuntimeError APPLY_PARTIAL_MISSING: Attempt to apply partial 'missing-in-partial' which could not be found. |   hint: no partials/missing-in-partial.jsont in the site folder and no {.macro missing-in-partial} in this file",
    ]);
    expect(result.frames[0]!.where).toBe(path.join(dir, 'templates/page.jsont:2:1'));
  });

  it("an include or apply naming a partial's file (post-meta.jsont) says to drop .jsont, never a doubled extension", async () => {
    write('site.json', '{}');
    write('partials/post-meta.jsont', '<p>{title}</p>');
    write('templates/page.jsont', '{.include post-meta.jsont}{page|apply post-meta.jsont}{.include gone.jsont}');
    const result = await checkPaths([dir]);
    expect(result.exitCode).toBe(1);
    expect(result.frames.map((frame) => frame.text.split('\n').at(-1))).toEqual([
      "  hint: partials are named without .jsont: write 'post-meta'",
      "  hint: partials are named without .jsont: write 'post-meta'",
      '  hint: no partials/gone.jsont in the site folder and no {.macro gone.jsont} in this file',
    ]);
    write('templates/page.jsont', '{page|apply post-meat}');
    const slip = await checkPaths([dir]);
    expect(slip.frames.map((frame) => frame.text.split('\n').at(-1))).toEqual(["  hint: no partials/post-meat.jsont in the site folder and no {.macro post-meat} in this file: did you mean 'post-meta'?"]);
  });

  it("a folder of partials/ alone (Quire's templates, the author's head.jsont) is checked as the site it is; with templates of its own it is a folder of templates", async () => {
    write('partials/head.jsont', '<meta name="x" content="{website.siteTitle|htmlattr}">\n');
    expect(await checkPaths([dir])).toMatchObject({ exitCode: 0, pathErrors: [], checked: { sites: 1 } });
    write('card.jsont', '{.section a}\n');
    const loose = await checkPaths([dir]);
    expect(loose.checked).toEqual({ templates: 1, sites: 0, dataFiles: 0 });
    expect(loose.frames.map((frame) => frame.code)).toEqual(['EOF_IN_BLOCK']);
  });

  it('places findings of a one-line content file with a byte-order mark at what they name, not a column late', async () => {
    write('templates/page.jsont', '<p>{page.title}</p>\n');
    write('content/about.json', '\uFEFF{"kind":"page","slug":"about","title":"A","template":"landng","blocks":[{"type":"nope"},{"type":"image","url":"/assets/site/images/x.webp"}]}');
    const text = fs.readFileSync(path.join(dir, 'content/about.json'), 'utf8').slice(1);
    const result = await checkPaths([dir]);
    const at = (code: string, needle: string) => [code, `${path.join(dir, 'content/about.json')}:1:${text.indexOf(needle) + 1}`];
    expect(result.frames.map((frame) => [frame.code, frame.where])).toEqual(
      expect.arrayContaining([at('SITE_CONTENT', '"nope"'), at('SITE_CONTENT', '"template"'), at('SITE_IMAGE_MISSING', '/assets/site/images/x.webp')]),
    );
  });

  it('places a "template" the folder lacks at its key, not at a title that says "template"', async () => {
    write('templates/page.jsont', '<p>{page.title}</p>\n');
    write('content/about.json', '{"kind": "page", "slug": "about", "title": "template",\n "template": "landng"}');
    const result = await checkPaths([dir]);
    expect(result.frames.map((frame) => [frame.code, frame.where])).toEqual([['SITE_CONTENT', `${path.join(dir, 'content/about.json')}:2:2`]]);
  });

  it("places a block problem at that block's value, not at the first same text of the file", async () => {
    write('templates/page.jsont', '<p>{page.title}</p>\n');
    write('content/about.json', '{"kind": "page", "slug": "about", "title": "nope", "description": "",\n "blocks": [{"type": "nope"},\n  {"type": "form"}]}');
    const result = await checkPaths([dir]);
    const file = path.join(dir, 'content/about.json');
    expect(result.frames.map((frame) => [frame.code, frame.where])).toEqual([
      ['SITE_CONTENT', `${file}:2:22`],
      ['SITE_CONTENT', `${file}:3:3`],
    ]);
  });

  it('reads templates as render does: a file that is not UTF-8 is a path error at its first bad byte, a byte-order mark is read past', async () => {
    const latin1 = path.join(dir, 'latin1.jsont');
    fs.writeFileSync(latin1, Buffer.from('abc \xff\xfe {x}', 'latin1'));
    const bom = write('bom.jsont', '\ufeff{.section a}x{.end}{.foo}');
    const result = await checkPaths([latin1, bom]);
    expect(result.exitCode).toBe(2);
    expect(result.pathErrors).toEqual([`${latin1}: not UTF-8 text: byte 0xFF at line 1, column 5 (save the file as UTF-8)`]);
    expect(result.frames.map((frame) => frame.where)).toEqual([`${bom}:1:20`]);
  });
});

describe("docs/language.md's code frame", () => {
  it('is what quire check prints for the example it frames, hint included', async () => {
    const guide = fs.readFileSync(path.join(root, 'docs/language.md'), 'utf8');
    const section = guide.slice(guide.indexOf('## 10. Diagnostics'));
    const template = /```jsont\n([\s\S]*?)```/.exec(section)![1]!;
    const shown = /The command line shows each problem[\s\S]*?```text\n([\s\S]*?)\n```/.exec(section)![1]!;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-guide-'));
    fs.writeFileSync(path.join(dir, 'page.jsont'), template);
    const result = await checkPaths([path.join(dir, 'page.jsont')]);
    expect(result.frames.map((frame) => frame.text.replace(`${dir}${path.sep}`, ''))).toEqual([shown]);
  });
});
