import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openTestStore } from '../test-support/test-store.ts';
import type { SqlStore } from '../store/store.ts';
import { EVENTS_PATH } from './live-reload.ts';
import { OVERLAY_FRAMES } from './diagnostic-frames.ts';
import { FOREIGN_HOST_TEXT, isPreviewHost, startPreview, type Preview, type ReloadOutcome } from './preview-server.ts';
import { ensureFirstOwner } from '../admin/first-owner.ts';
import { startCommand } from './start-command.ts';

/** A small site folder in a temp directory, the way an author would start one. */
function writeSite(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-preview-'));
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  };
  write('site.json', JSON.stringify({ title: 'Tiny Shop' }));
  write('catalog.json', JSON.stringify({ site: { websiteId: 'tiny' }, products: [] }));
  write('content/home.json', JSON.stringify({ slug: 'home', home: true, title: 'Hello', blocks: [{ type: 'text', text: 'First words.' }] }));
  write('content/about.json', JSON.stringify({ slug: 'about', title: 'About' }));
  write('templates/page.jsont', '<article class="v1"><h1>{page.title|html}</h1>{page.blocksHtml}</article>\n');
  return dir;
}

/** Reads an SSE stream and hands out its events one by one. */
async function openEvents(url: string) {
  const controller = new AbortController();
  const response = await fetch(url + EVENTS_PATH, { signal: controller.signal });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  return {
    response,
    async next(): Promise<{ event: string; data: Record<string, unknown> }> {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event && data) return { event, data: JSON.parse(data) as Record<string, unknown> };
          continue;
        }
        const { value, done } = await reader.read();
        if (done) throw new Error('event stream ended');
        buffer += value;
      }
    },
    close: () => controller.abort(),
  };
}

describe('quire preview', () => {
  let dir: string;
  let store: SqlStore;
  let preview: Preview;
  const reloads: ReloadOutcome[] = [];
  let waiters: ((outcome: ReloadOutcome) => void)[] = [];
  const nextReload = () => new Promise<ReloadOutcome>((resolve) => waiters.push(resolve));

  beforeAll(async () => {
    dir = writeSite();
    store = await openTestStore();
    preview = await startPreview({
      dir,
      port: 0,
      store,
      debounceMs: 80,
      onReload: (outcome) => {
        reloads.push(outcome);
        const pending = waiters;
        waiters = [];
        for (const resolve of pending) resolve(outcome);
      },
    });
  }, 60_000);

  afterAll(async () => {
    await preview?.close();
    await store?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('seeds its store from the folder and serves pages with the reload script', async () => {
    expect((await store.read.getSite())?.websiteId).toBe('tiny');
    // The start's sync into the empty store, summed up as `npm start` logs it.
    expect(preview.startSync).toBe('site settings added');
    const response = await fetch(preview.url + '/about');
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<article class="v1"><h1>About</h1>');
    expect(html).toContain(`new EventSource("${EVENTS_PATH}")`);
    expect(response.headers.get('x-quire-preview-problems')).toBe('0');
    expect(html).not.toContain('quire-preview-overlay');
    // The script goes inside the body, after the islands script of the shell.
    expect(html.indexOf('data-quire-preview')).toBeGreaterThan(html.indexOf('/assets/islands.js'));
    expect(html.indexOf('data-quire-preview')).toBeLessThan(html.lastIndexOf('</body>'));
  });

  it('answers /admin with where the admin is (npm start, the command for this folder) while its store has no owner; the admin once one exists', async () => {
    for (const url of ['/admin', '/admin/', '/admin?x=1']) {
      const response = await fetch(preview.url + url);
      expect(response.status, url).toBe(200);
      const html = await response.text();
      expect(html, url).toContain('<h1>The store admin is not available in the preview</h1>');
      expect(html, url).toContain(`<pre><code>${startCommand(dir)}</code></pre>`);
      expect(startCommand(dir)).toMatch(/^SITE_DIR=\S+ npm (--prefix \S+ )?start$/);
      expect(html, url).not.toContain('/assets/admin.js');
    }
    // A DATA_DIR store `npm start` has served has its owner: the preview serves the real admin.
    await ensureFirstOwner(store, {});
    expect(await preview.adminUnavailable()).toBe(false);
    expect(await (await fetch(preview.url + '/admin')).text()).toContain('/assets/admin.js');
  });

  it('announces a changed template and serves the new HTML', async () => {
    const events = await openEvents(preview.url);
    try {
      expect(events.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const hello = await events.next();
      expect(hello.event).toBe('hello');
      const reloaded = nextReload();
      fs.writeFileSync(path.join(dir, 'templates/page.jsont'), '<article class="v2"><h1>{page.title|html}!</h1>{page.blocksHtml}</article>\n');
      const event = await events.next();
      expect(event.event).toBe('reload');
      expect(event.data.version).toBe((hello.data.version as number) + 1);
      const outcome = await reloaded;
      expect(outcome.files).toContain(path.join('templates', 'page.jsont'));
      expect(outcome.sync).toBeNull(); // catalog.json unchanged: nothing synced, nothing to sum up
      const html = await (await fetch(preview.url + '/about')).text();
      expect(html).toContain('<article class="v2"><h1>About!</h1>');
      // The page knows which version it came from, so a reconnect after a missed event reloads.
      expect(html).toContain(`const v=${event.data.version as number};`);
    } finally {
      events.close();
    }
  });

  it('shows a broken template as an overlay with its code frame, then clears it', async () => {
    let reloaded = nextReload();
    fs.writeFileSync(path.join(dir, 'templates/page.jsont'), '<article>\n  <h1>{page.title|html}</h1>\n  {.end}\n</article>\n');
    await reloaded;
    const broken = await fetch(preview.url + '/about');
    const html = await broken.text();
    expect(html).toContain('id="quire-preview-overlay"');
    expect(html).toContain('SyntaxError MISMATCHED_END: Mismatched END found at ROOT.');
    expect(html).toContain('at templates/page.jsont:3:3');
    // The frame, escaped for HTML: the line, its neighbours and the caret under the column.
    expect(html).toContain('  2 |   &lt;h1&gt;{page.title|html}&lt;/h1&gt;\n&gt; 3 |   {.end}\n    |   ^\n  4 | &lt;/article&gt;');
    // The template still renders what it can, so the author sees the page behind the overlay.
    expect(html).toContain('<h1>About</h1>');
    // The kept syntax error is listed once, not again for each render of the template.
    expect(html.split('MISMATCHED_END').length - 1).toBe(1);
    expect(Number(broken.headers.get('x-quire-preview-problems'))).toBeGreaterThan(0);

    reloaded = nextReload();
    fs.writeFileSync(path.join(dir, 'templates/page.jsont'), '<article class="v3">{page.title|html}</article>\n');
    await reloaded;
    const fixed = await (await fetch(preview.url + '/about')).text();
    expect(fixed).toContain('<article class="v3">About</article>');
    expect(fixed).not.toContain('quire-preview-overlay');
  });

  it('frames render-time errors of the page it is showing', async () => {
    const reloaded = nextReload();
    fs.writeFileSync(path.join(dir, 'templates/page.jsont'), '<article>\n{page.title|no-such-formatter}\n</article>\n');
    await reloaded;
    const html = await (await fetch(preview.url + '/')).text();
    expect(html).toContain('FORMATTER_UNKNOWN');
    expect(html).toContain('&gt; 2 | {page.title|no-such-formatter}');
  });

  it("frames a script variable that rendered empty for the page's data, on that page only", async () => {
    const reloaded = nextReload();
    fs.writeFileSync(path.join(dir, 'templates/page.jsont'), '<article>{page.title|html}</article>\n<script>\nvar subtitle = {page.subtitle};\n</script>\n');
    await reloaded;
    const response = await fetch(preview.url + '/about');
    const html = await response.text();
    expect(html).toContain('Warning TEMPLATE_SCRIPT_BROKEN: {page.subtitle} rendered empty in this page&#39;s &lt;script&gt;, leaving &#39;var subtitle = ;&#39;');
    expect(html).toContain('at templates/page.jsont:3:16');
    expect(html).toContain('aria-label="1 warning in the site"');
    expect(response.headers.get('x-quire-preview-problems')).toBe('1');
  });

  it('keeps serving the last good site while a JSON file is broken, with the error on top', async () => {
    let reloaded = nextReload();
    fs.writeFileSync(path.join(dir, 'templates/page.jsont'), '<article class="v4">{page.title|html}</article>\n');
    await reloaded;
    reloaded = nextReload();
    fs.writeFileSync(path.join(dir, 'content/about.json'), '{\n  "slug": "about",\n  "title": "About" oops\n}\n');
    const outcome = await reloaded;
    expect(outcome.ok).toBe(false);
    expect(outcome.problems[0]).toMatchObject({ code: 'SITE_JSON_INVALID', file: path.join('content', 'about.json'), line: 3 });
    const response = await fetch(preview.url + '/about');
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<article class="v4">About</article>');
    expect(html).toContain('SITE_JSON_INVALID');
    expect(html).toContain('&gt; 3 |   &quot;title&quot;: &quot;About&quot; oops');

    reloaded = nextReload();
    fs.writeFileSync(path.join(dir, 'content/about.json'), JSON.stringify({ slug: 'about', title: 'About' }));
    expect((await reloaded).ok).toBe(true);
    expect(await (await fetch(preview.url + '/about')).text()).not.toContain('quire-preview-overlay');
  });

  it('shows a problem that stops the reload once, as the terminal and quire check do, not also as the same file\'s schema finding', async () => {
    let reloaded = nextReload();
    fs.writeFileSync(path.join(dir, 'content/about.json'), JSON.stringify({ kind: 'pgae', slug: 'about', title: 'About' }));
    const outcome = await reloaded;
    expect(outcome.ok).toBe(false);
    expect(outcome.problems.map((problem) => problem.code)).toEqual(['SITE_SCHEMA_INVALID']);
    const response = await fetch(preview.url + '/about');
    // Before, the overlay said "Problems in the site (2)": the loader's words and the schema's SITE_VALUE_INVALID at the same place.
    expect(response.headers.get('x-quire-preview-problems')).toBe('1');
    const html = await response.text();
    expect(html).toContain('SITE_SCHEMA_INVALID');
    expect(html).not.toContain('SITE_VALUE_INVALID');

    reloaded = nextReload();
    fs.writeFileSync(path.join(dir, 'content/about.json'), JSON.stringify({ slug: 'about', title: 'About' }));
    expect((await reloaded).ok).toBe(true);
  });

  it('names on the page a template a page asks for that templates/ does not have, as quire check does', async () => {
    let reloaded = nextReload();
    fs.writeFileSync(path.join(dir, 'content/about.json'), JSON.stringify({ slug: 'about', title: 'About', template: 'landng' }));
    expect((await reloaded).ok).toBe(true);
    const response = await fetch(preview.url + '/about');
    // Before: the page changed to its type's default template and no overlay said why.
    expect(response.headers.get('x-quire-preview-problems')).toBe('1');
    const html = await response.text();
    expect(html).toContain('Warning SITE_CONTENT: template &quot;landng&quot; is not in templates/');
    expect(html).toContain('aria-label="1 warning in the site"');

    reloaded = nextReload();
    fs.writeFileSync(path.join(dir, 'content/about.json'), JSON.stringify({ slug: 'about', title: 'About' }));
    expect((await reloaded).ok).toBe(true);
    expect(await (await fetch(preview.url + '/about')).text()).not.toContain('quire-preview-overlay');

    // page.jsont renamed: the pages fall back to the built-in template, and the overlay says why.
    const pageTemplate = fs.readFileSync(path.join(dir, 'templates/page.jsont'), 'utf8');
    reloaded = nextReload();
    fs.renameSync(path.join(dir, 'templates/page.jsont'), path.join(dir, 'templates/pages.jsont'));
    expect((await reloaded).ok).toBe(true);
    const renamedResponse = await fetch(preview.url + '/about');
    const renamed = await renamedResponse.text();
    expect(renamed).toContain('Warning SITE_TEMPLATE_MISSING: no templates/page.jsont, so 2 pages (');
    expect(renamed).toContain('did you mean templates/pages.jsont? A page template is found by its exact name, page.jsont');
    // One mistake, one warning: not also "no page is rendered with templates/pages.jsont".
    expect(renamedResponse.headers.get('x-quire-preview-problems')).toBe('1');
    expect(renamed).toContain('aria-label="1 warning in the site"');

    // page.jsont deleted: the same warning, with what to do instead of a file to rename.
    reloaded = nextReload();
    fs.rmSync(path.join(dir, 'templates/pages.jsont'));
    expect((await reloaded).ok).toBe(true);
    const deleted = await (await fetch(preview.url + '/about')).text();
    // The fallback still renders the page (STOREFRONT C1), under the overlay.
    expect(deleted).toContain('About');
    expect(deleted).toMatch(/Warning SITE_TEMPLATE_MISSING: no templates\/page\.jsont, so 2 pages \([^)]*content\/about\.json[^)]*\) render with Quire&#39;s built-in page template: add templates\/page\.jsont/);

    reloaded = nextReload();
    fs.writeFileSync(path.join(dir, 'templates/page.jsont'), pageTemplate);
    await reloaded;
    // The delete and the write may reload in one burst or two: wait for the page to be clean.
    await vi.waitFor(async () => expect(await (await fetch(preview.url + '/about')).text()).not.toContain('quire-preview-overlay'), { timeout: 20_000, interval: 100 });
  });

  it("after a failed reload lists only what stops the folder, not the last good site's syntax errors the file may no longer hold", async () => {
    let reloaded = nextReload();
    fs.writeFileSync(path.join(dir, 'templates/page.jsont'), '<article class="v5">{page.title|nope}</article>\n');
    await reloaded;
    expect(await (await fetch(preview.url + '/about')).text()).toContain('FORMATTER_UNKNOWN');
    reloaded = nextReload();
    // The author fixes the formatter and, in the same save, leaves a byte that is not UTF-8.
    fs.writeFileSync(path.join(dir, 'templates/page.jsont'), Buffer.from('<article class="v6">{page.title|html} caf\xe9</article>\n', 'latin1'));
    expect((await reloaded).ok).toBe(false);
    const response = await fetch(preview.url + '/about');
    const html = await response.text();
    expect(html).toContain('<article class="v5">');
    expect(html).toContain('SITE_READ_FAILED');
    expect(html).toContain('The page below is the last version of the site that loaded');
    // Before, the formatter error of the old text was listed too, with a frame of a line the file no longer has.
    expect(html).not.toContain('FORMATTER_UNKNOWN');
    expect(response.headers.get('x-quire-preview-problems')).toBe('1');
    reloaded = nextReload();
    fs.writeFileSync(path.join(dir, 'templates/page.jsont'), '<article class="v4">{page.title|html}</article>\n');
    expect((await reloaded).ok).toBe(true);
  });

  it('re-seeds the store when catalog.json changes', async () => {
    const reloaded = nextReload();
    const product = { id: 'mug', title: 'Mug', variants: [{ id: 'mug-1', sku: 'MUG-1', priceCents: 1800, qtyInStock: 4 }] };
    fs.writeFileSync(path.join(dir, 'catalog.json'), JSON.stringify({ site: { websiteId: 'tiny' }, products: [product] }));
    const outcome = await reloaded;
    expect(outcome.ok).toBe(true);
    expect(outcome.sync).toBe('1 product added');
    expect((await store.read.getProduct('mug'))?.variants[0]).toMatchObject({ priceCents: 1800, qtyInStock: 4 });
  });

  it('hides a product catalog.json no longer has, and frames its unknown keys with a suggestion', async () => {
    let reloaded = nextReload();
    const cup = { id: 'cup', title: 'Cup', variants: [{ id: 'cup-1', sku: 'CUP-1', priceCents: 900, qty: 3 }] };
    fs.writeFileSync(path.join(dir, 'catalog.json'), JSON.stringify({ site: { websiteId: 'tiny' }, products: [cup] }, null, 2));
    const outcome = await reloaded;
    expect(outcome.ok).toBe(true);
    expect(outcome.sync).toBe('1 product added, 1 hidden');
    expect(await store.read.getProduct('mug')).toBeNull();
    expect((await store.read.listProducts()).map((product) => product.id)).toEqual(['cup']);
    const response = await fetch(preview.url + '/about');
    const html = await response.text();
    expect(html).toContain('Warning SITE_KEY_UNKNOWN: unknown key &quot;qty&quot; in products[0].variants[0] (did you mean &quot;qtyInStock&quot;?)');
    expect(html).toContain('at catalog.json:14:11');
    expect(html).toContain('&gt; 14 |           &quot;qty&quot;: 3');
    expect(response.headers.get('x-quire-preview-problems')).toBe('1');

    reloaded = nextReload();
    fs.writeFileSync(path.join(dir, 'catalog.json'), JSON.stringify({ site: { websiteId: 'tiny' }, products: [{ ...cup, variants: [{ id: 'cup-1', sku: 'CUP-1', priceCents: 900 }] }] }));
    expect((await reloaded).ok).toBe(true);
    expect(await (await fetch(preview.url + '/about')).text()).not.toContain('quire-preview-overlay');
    expect((await store.read.getProduct('cup'))?.variants[0]?.priceCents).toBe(900);
  });

  it('draws the findings of a load once, not per page, and shows the first of many with a count of the rest', async () => {
    const catalog = path.join(dir, 'catalog.json');
    const before = fs.readFileSync(catalog, 'utf8');
    let reloaded = nextReload();
    const variants = Array.from({ length: 300 }, (_, i) => ({ id: `t-${i}`, sku: `T-${i}`, priceCents: 100, colour: 'red' }));
    fs.writeFileSync(catalog, JSON.stringify({ site: { websiteId: 'tiny' }, products: [{ id: 'tin', title: 'Tin', variants }] }));
    expect((await reloaded).ok).toBe(true);
    const reads = vi.spyOn(fs, 'readFileSync');
    try {
      for (const page of ['/about', '/', '/about']) {
        const response = await fetch(preview.url + page);
        const html = await response.text();
        expect(response.headers.get('x-quire-preview-problems')).toBe('300');
        expect(html.split('Warning SITE_KEY_UNKNOWN').length - 1).toBe(OVERLAY_FRAMES);
        expect(html).toContain(`${300 - OVERLAY_FRAMES} more not shown here: <code>quire render-page SITE_DIR /path</code> prints every one of this page`);
      }
      // Read once for the first page's frames, then kept until the next load.
      expect(reads.mock.calls.filter(([file]) => path.resolve(String(file)) === catalog).length).toBe(1);
    } finally {
      reads.mockRestore();
      reloaded = nextReload();
      fs.writeFileSync(catalog, before);
      await reloaded;
    }
  });

  it('leaves the API untouched', async () => {
    const response = await fetch(preview.url + '/api/commerce/shopping-cart');
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(JSON.parse(text)).toMatchObject({ id: null });
    expect(text).not.toContain('EventSource');
  });

  // DNS rebinding: a page at a name whose DNS answers 127.0.0.1 read the preview (pages,
  // overlay code frames, the reload stream, the API) as its own origin.
  it('refuses a request for a name other than localhost, an IP address or its --host', async () => {
    for (const url of ['/', EVENTS_PATH, '/api/commerce/shopping-cart', '/admin']) {
      const response = await preview.app.inject({ method: 'GET', url, headers: { host: 'rebind.attacker.example:3000' } });
      expect(response.statusCode, url).toBe(403);
      expect(response.body).toBe(FOREIGN_HOST_TEXT);
    }
    for (const host of ['localhost:3000', '127.0.0.1:3000', '[::1]:3000', 'shop.localhost', '192.168.1.20:3000']) {
      const response = await preview.app.inject({ method: 'GET', url: '/about', headers: { host } });
      expect(response.statusCode, host).toBe(200);
    }
    expect(isPreviewHost('my-box.lan:3000', 'my-box.lan')).toBe(true);
    expect(isPreviewHost('other.lan:3000', 'my-box.lan')).toBe(false);
    expect(isPreviewHost('localhost.attacker.example', '127.0.0.1')).toBe(false);
  });
});

describe('quire preview of a folder that does not load yet', () => {
  it('answers pages with the problems, then serves the site once the file is fixed', async () => {
    const dir = writeSite();
    fs.writeFileSync(path.join(dir, 'content/about.json'), '{ "slug": "about", "title": }');
    const store = await openTestStore();
    let reloaded: (outcome: ReloadOutcome) => void = () => {};
    const preview = await startPreview({ dir, port: 0, store, debounceMs: 80, onReload: (outcome) => reloaded(outcome) });
    try {
      expect(preview.site()).toBeNull();
      // Nothing is seeded from a folder that has not loaded.
      expect(await store.read.getSite()).toBeNull();
      const broken = await fetch(preview.url + '/about');
      expect(broken.status).toBe(500);
      const html = await broken.text();
      expect(html).toContain('The site folder could not be loaded');
      expect(html).toContain('SITE_JSON_INVALID');
      expect(html).toContain('&gt; 1 | { &quot;slug&quot;: &quot;about&quot;, &quot;title&quot;: }');
      expect(html).toContain(`new EventSource("${EVENTS_PATH}")`);
      expect((await fetch(preview.url + '/sitemap.xml')).status).toBe(500);

      const outcome = new Promise<ReloadOutcome>((resolve) => (reloaded = resolve));
      fs.writeFileSync(path.join(dir, 'content/about.json'), JSON.stringify({ slug: 'about', title: 'About' }));
      expect((await outcome).ok).toBe(true);
      const fixed = await fetch(preview.url + '/about');
      expect(fixed.status).toBe(200);
      expect(await fixed.text()).toContain('<article class="v1"><h1>About</h1>');
      expect((await store.read.getSite())?.websiteId).toBe('tiny');
    } finally {
      await preview.close();
      await store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
