import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTestStore } from '../test-support/use-test-store.ts';
import { checkPaths } from './check-site.ts';
import { STARTER_FILES, writeStarterSite } from './new-site.ts';
import { renderPage } from './render-page.ts';

const fresh = () => path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'quire-new-')), 'site');
const headOf = (html: string) => html.slice(html.indexOf('<head>'), html.indexOf('</head>'));

describe('quire new', () => {
  const store = useTestStore();

  it('writes a starter that quire check accepts and whose every page renders without a problem', async () => {
    const dir = fresh();
    const written = writeStarterSite(dir);
    expect(written).toEqual({ ok: true, files: Object.keys(STARTER_FILES) });
    for (const file of ['catalog.json', 'styles.css', 'partials/head.jsont', 'templates/layout.jsont', 'content/journal.json', 'content/contact.json']) {
      expect(fs.existsSync(path.join(dir, file)), file).toBe(true);
    }
    const catalog = JSON.parse(fs.readFileSync(path.join(dir, 'catalog.json'), 'utf8'));
    expect(catalog.products).toHaveLength(2);
    expect(catalog.forms.map((form: { id: string }) => form.id)).toEqual(['contact']);

    const check = await checkPaths([dir]);
    expect(check.frames.map((frame) => frame.text)).toEqual([]);
    expect(check.exitCode).toBe(0);

    const pages: [string, string][] = [
      ['/', 'Welcome'],
      ['/shop', 'Stoneware Mug'],
      ['/shop/tote', 'Canvas Tote'],
      ['/journal', 'A new glaze'],
      ['/journal/hello', 'Hello, world'],
      ['/contact', 'contact-email'],
    ];
    for (const [url, text] of pages) {
      const result = await renderPage(dir, url, { store: store(), now: () => 1_770_000_000_000 });
      expect(result.frames.map((frame) => frame.text), url).toEqual([]);
      expect(result).toMatchObject({ exitCode: 0, status: 200 });
      expect(result.html, url).toContain(text);
      // The starter's head partial: a description and an icon inside <head>, on every page.
      expect(headOf(result.html), url).toContain('<meta name="description" content="Small things, made with care.">');
      expect(headOf(result.html), url).toContain('<link rel="icon"');
    }
  }, 120_000);

  it('refuses a folder that is not empty, and a file, with one line; an empty folder is fine', () => {
    const dir = fresh();
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'mine');
    expect(writeStarterSite(dir)).toEqual({ ok: false, error: `${dir}: the folder is not empty; choose a new or empty folder` });
    expect(fs.readdirSync(dir)).toEqual(['notes.txt']);
    expect(writeStarterSite(path.join(dir, 'notes.txt'))).toEqual({ ok: false, error: `${path.join(dir, 'notes.txt')}: exists and is not a folder` });
    const empty = fresh();
    fs.mkdirSync(empty);
    expect(writeStarterSite(empty).ok).toBe(true);
  });

  it('creates missing folders above the site, and fails where a level cannot be made', () => {
    const nested = path.join(fresh(), 'a', 'b');
    expect(writeStarterSite(nested).ok).toBe(true);
    expect(fs.existsSync(path.join(nested, 'site.json'))).toBe(true);
    // A level that cannot be made fails there (Node's recursive mkdir retried /proc/x for ever,
    // a synchronous loop no test timeout ends, so that path is not tried here).
    const file = path.join(fresh(), 'plain');
    fs.mkdirSync(path.dirname(file));
    fs.writeFileSync(file, 'x');
    expect(writeStarterSite(path.join(file, 'site'))).toEqual({ ok: false, error: `${path.join(file, 'site')}: cannot write the site (ENOTDIR)` });
  });

  it('refuses an empty folder name (`quire new "$UNSET"`) instead of writing into the working folder', () => {
    const before = fs.readdirSync(process.cwd());
    expect(writeStarterSite('')).toEqual({ ok: false, error: 'a folder name is required: quire new DIR' });
    expect(writeStarterSite('  ')).toEqual({ ok: false, error: 'a folder name is required: quire new DIR' });
    expect(fs.readdirSync(process.cwd())).toEqual(before);
  });
});

describe('the head partial', () => {
  const store = useTestStore();
  let dir: string;
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  };

  it('renders with the page context, last inside <head>, and nowhere else', async () => {
    dir = fresh();
    write('site.json', JSON.stringify({ title: 'Tiny' }));
    write('content/about.json', JSON.stringify({ slug: 'about', title: 'About & us', summary: 'Who we are' }));
    write('templates/page.jsont', '<h1>{page.title|html}</h1>');
    write('partials/head.jsont', '<meta name="description" content="{page.summary|htmlattr}">\n<meta property="og:title" content="{pageTitle|htmlattr}">\n');
    const result = await renderPage(dir, '/about', { store: store() });
    expect(result).toMatchObject({ exitCode: 0, status: 200, frames: [] });
    const head = headOf(result.html);
    expect(head).toContain('<meta name="description" content="Who we are">\n<meta property="og:title" content="About &amp; us">');
    // After the renderer's own head (title, styles, the site stylesheet), right before </head>.
    expect(result.html).toMatch(/<\/style>\n(?:<link rel="stylesheet" href="\/assets\/site\/[^"]+">\n)?<meta name="description" content="Who we are">\n<meta property="og:title" content="About &amp; us">\n<\/head>\n<body/);
    expect(result.html.split('og:title')).toHaveLength(2);
  }, 60_000);

  it('reports a render error of the head partial as a page problem, framed in its file', async () => {
    dir = fresh();
    write('content/about.json', JSON.stringify({ slug: 'about', title: 'About' }));
    // A render-time error: only a head partial that is rendered can report it.
    write('partials/head.jsont', '<meta name="x">\n{page|apply nowhere}\n');
    const result = await renderPage(dir, '/about', { store: store() });
    expect(result.exitCode).toBe(1);
    expect(result.frames.map((frame) => frame.code)).toEqual(['APPLY_PARTIAL_MISSING']);
    expect(result.frames[0]!.text).toContain('at partials/head.jsont:2:');
    expect(result.frames[0]!.text).toContain('> 2 | {page|apply nowhere}');
  }, 60_000);

  it('a site without one keeps the renderer head unchanged', async () => {
    dir = fresh();
    write('content/about.json', JSON.stringify({ slug: 'about', title: 'About' }));
    const result = await renderPage(dir, '/about', { store: store() });
    expect(result.html).toMatch(/<\/style>\n(?:<link rel="stylesheet" href="\/assets\/site\/[^"]+">\n)?<\/head>\n<body/);
  }, 60_000);
});
