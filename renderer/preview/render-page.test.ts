import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openTestStore } from '../test-support/test-store.ts';
import type { SqlStore } from '../store/store.ts';
import { main } from './cli.ts';
import { renderPage } from './render-page.ts';

function capture() {
  const io = { stdout: '', stderr: '', out: (s: string) => void (io.stdout += s), err: (s: string) => void (io.stderr += s) };
  return io;
}

describe('renderPage', () => {
  let dir: string;
  let store: SqlStore;
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  };

  beforeAll(async () => {
    store = await openTestStore();
  }, 60_000);

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-render-page-'));
    write('site.json', JSON.stringify({ title: 'Tiny Shop' }));
    write('catalog.json', JSON.stringify({ site: { websiteId: 'tiny' } }));
    write('content/about.json', JSON.stringify({ slug: 'about', title: 'About', posted: 1788355800000 }));
    write('templates/page.jsont', '<h1>{page.title|html}</h1>\n<p>{page.posted|date %B %Y}</p>\n');
  });

  afterAll(async () => {
    await store?.close();
  });

  it('prints the page as the server renders it, with exit code 0', async () => {
    const result = await renderPage(dir, '/about', { store });
    expect(result).toMatchObject({ exitCode: 0, status: 200, pageType: 2, templateName: 'page', frames: [] });
    expect(result.html).toMatch(/^<!doctype html>/);
    expect(result.html).toContain('<h1>About</h1>\n<p>September 2026</p>');
  });

  it('exits 1 with a framed diagnostic when the template has an error', async () => {
    write('templates/page.jsont', '<h1>{page.title|html}</h1>\n<p>{page.posted|dat %B}</p>\n');
    const result = await renderPage(dir, '/about', { store });
    expect(result.exitCode).toBe(1);
    expect(result.status).toBe(200);
    expect(result.frames.map((frame) => frame.code)).toEqual(['FORMATTER_UNKNOWN']);
    expect(result.frames[0]!.text).toContain('at templates/page.jsont:2:');
    expect(result.frames[0]!.text).toContain('> 2 | <p>{page.posted|dat %B}</p>');
  });

  it("lists an applied partial's syntax errors once, as quire check does, not again under the render's COMPILE_PARTIAL_SYNTAX", async () => {
    write('templates/page.jsont', '<h1>{page.title|html}</h1>{page|apply meta}{page|apply meta}\n');
    write('partials/meta.jsont', '<p>{title|htm}</p>\n{.section tags}x\n');
    const result = await renderPage(dir, '/about', { store });
    expect(result.exitCode).toBe(1);
    // Before: FORMATTER_UNKNOWN, EOF_IN_BLOCK, then COMPILE_PARTIAL_SYNTAX repeating both as its children.
    expect(result.frames.map((frame) => frame.where)).toEqual(['partials/meta.jsont:1:11', 'partials/meta.jsont:3:1']);
  });

  it('warns, without failing the page, about a script variable of a partial that rendered empty for the page', async () => {
    write('templates/page.jsont', '<h1>{page.title|html}</h1>{page|apply track}\n');
    write('partials/track.jsont', '<script>\nvar posted = {posted}, price = {price};\n</script>\n');
    const result = await renderPage(dir, '/about', { store });
    expect(result.exitCode).toBe(0);
    expect(result.html).toContain('var posted = 1788355800000, price = ;');
    expect(result.frames.map((frame) => [frame.code, frame.where, frame.warning])).toEqual([['TEMPLATE_SCRIPT_BROKEN', 'partials/track.jsont:2:32', true]]);
    expect(result.frames[0]!.text.split('\n')[0]).toBe("Warning TEMPLATE_SCRIPT_BROKEN: {price} rendered empty in this page's <script>, leaving ', price = ;'");
    const io = capture();
    await main(['render-page', dir, '/about'], io);
    expect(io.stderr).toContain('quire: /about: 200, page type 2 (page), template page; 0 problem(s), 1 warning(s)\n');
    // Named from where the command ran, as `quire check` names it, so the terminal opens the file.
    expect(io.stderr).toContain(`  at ${path.join(dir, 'partials/track.jsont')}:2:32\n`);
  });

  it('warns, without failing the page, that page.jsont is missing and the page rendered with the built-in, as quire check and the preview say', async () => {
    fs.renameSync(path.join(dir, 'templates/page.jsont'), path.join(dir, 'templates/Page.jsont'));
    const result = await renderPage(dir, '/about', { store });
    // The spec's fallback: the page still renders, with Quire's built-in page template.
    expect(result).toMatchObject({ exitCode: 0, status: 200, templateName: 'builtin:page' });
    expect(result.frames.map((frame) => [frame.code, frame.where, frame.warning])).toEqual([['SITE_TEMPLATE_MISSING', 'templates/page.jsont', true]]);
    const words =
      "Warning SITE_TEMPLATE_MISSING: no templates/page.jsont, so 1 page (content/about.json) renders with Quire's built-in page template: did you mean templates/Page.jsont? A page template is found by its exact name, page.jsont";
    expect(result.frames[0]!.text).toBe(`${words}\n  at templates/page.jsont`);
    const io = capture();
    expect(await main(['render-page', dir, '/about'], io)).toBe(0);
    expect(io.stderr).toContain(`${words}\n  at ${path.join(dir, 'templates/page.jsont')}\n`);
    expect(io.stderr).toContain('template builtin:page; 0 problem(s), 1 warning(s)\n');
  });

  it('compiles templates and partials with the renderer engine, so image-component is no false diagnostic', async () => {
    write('content/about.json', JSON.stringify({ slug: 'about', title: 'About', hero: { src: '/a.jpg', width: 800, height: 600, alt: 'A cup' } }));
    write('templates/page.jsont', '{.section page.hero}{@|image-component;priority=high}{.end}{page|apply card}\n');
    write('partials/card.jsont', '{.section hero}{@|image-component;class=card}{.end}\n');
    const result = await renderPage(dir, '/about', { store });
    expect(result).toMatchObject({ exitCode: 0, status: 200, frames: [] });
    expect(result.html).toContain('fetchPriority="high"');
    expect(result.html).toContain('class="card"');
  });

  it('frames a partial\'s syntax error in the renderer engine\'s words, not as an unknown image-component', async () => {
    write('partials/card.jsont', '<p>\n{page.hero|image-component;bogus=1}</p>\n');
    write('templates/page.jsont', '{@|apply card}\n');
    const result = await renderPage(dir, '/about', { store });
    expect(result.exitCode).toBe(1);
    expect(result.frames.length).toBeGreaterThan(0);
    for (const frame of result.frames) expect(frame.text).not.toContain('FORMATTER_UNKNOWN');
    expect(result.frames[0]!.text).toContain('FORMATTER_ARGS_INVALID');
    expect(result.frames[0]!.text).toContain('> 2 | {page.hero|image-component;bogus=1}</p>');
  });

  it('reports a 404 page without failing, since the page itself rendered', async () => {
    const result = await renderPage(dir, '/nowhere', { store });
    expect(result).toMatchObject({ exitCode: 0, status: 404, pageType: 100 });
  });

  it('exits 1 with the load problems when the folder does not load', async () => {
    write('content/about.json', '{ "slug": "about", }');
    const result = await renderPage(dir, '/about', { store });
    expect(result).toMatchObject({ exitCode: 1, status: null, html: '' });
    expect(result.frames[0]).toMatchObject({ code: 'SITE_JSON_INVALID', where: 'content/about.json:1:18' });
    expect(result.frames[0]!.text).toContain('> 1 | { "slug": "about", }');
  });
});

describe('quire render-page / preview arguments', () => {
  it('prints usage for missing arguments', async () => {
    const io = capture();
    expect(await main(['render-page', 'only-one'], io)).toBe(2);
    expect(io.stderr).toContain('usage:');
  });

  it('refuses a folder that does not exist', async () => {
    const io = capture();
    expect(await main(['render-page', '/no/such/site', '/'], io)).toBe(2);
    expect(io.stderr).toBe('quire: /no/such/site: no such folder\n');
  });

  it('refuses an unknown option and a bad port', async () => {
    let io = capture();
    expect(await main(['preview', '.', '--colour', 'blue'], io)).toBe(2);
    expect(io.stderr).toContain('quire: unknown option --colour');
    io = capture();
    expect(await main(['preview', '.', '--port', 'eighty'], io)).toBe(2);
    expect(io.stderr).toContain('usage:');
  });
});
