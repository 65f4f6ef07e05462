// What a template author sees in `quire preview` (renderer/preview), in Chromium: a template
// mistake is shown on the page over the last good render, with the file, line, column, the
// code, a code frame and a hint; saving the fix reloads the open page by itself and the
// overlay is gone; a data file that stops loading keeps the last good site on screen with its
// problem named; the overlay is a labelled dialog that can be closed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { writeStarterSite } from '../../renderer/preview/new-site.ts';
import { startPreview, type Preview, type ReloadOutcome } from '../../renderer/preview/preview-server.ts';
import type { SqlStore } from '../../renderer/store/store.ts';
import { openTestStore } from '../../renderer/test-support/test-store.ts';
import { axeViolations } from './support/axe.ts';
import { launchChromium, openVisitor, type VisitorPage } from './support/chromium.ts';

const chromiumPath = inject('chromiumPath');

describe.skipIf(!chromiumPath)(`quire preview in Chromium${chromiumPath ? '' : ` (skipped: ${inject('browserSkipReason')})`}`, () => {
  const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'quire-preview-browser-')), 'site');
  let store: SqlStore;
  let preview: Preview;
  let browser: Browser;
  let visitor: VisitorPage | undefined;
  const reloads: ReloadOutcome[] = [];
  // Resolves at the next reload the folder watcher makes.
  let nextReload: () => Promise<ReloadOutcome> = () => Promise.reject(new Error('not started'));

  beforeAll(async () => {
    const written = writeStarterSite(dir);
    if (!written.ok) throw new Error(written.error);
    store = await openTestStore();
    let waiting: ((outcome: ReloadOutcome) => void)[] = [];
    nextReload = () => new Promise((resolve) => waiting.push(resolve));
    [preview, browser] = await Promise.all([
      startPreview({
        dir,
        port: 0,
        store,
        debounceMs: 80,
        onReload: (outcome) => {
          reloads.push(outcome);
          const pending = waiting;
          waiting = [];
          for (const resolve of pending) resolve(outcome);
        },
      }),
      launchChromium(chromiumPath!),
    ]);
  });

  afterAll(async () => {
    const problems = visitor?.problems() ?? [];
    await visitor?.context.close();
    await browser?.close();
    await preview?.close();
    await store?.close();
    fs.rmSync(path.dirname(dir), { recursive: true, force: true });
    expect(problems).toEqual([]);
  });

  const write = async (file: string, text: string) => {
    const reloaded = nextReload();
    fs.writeFileSync(path.join(dir, file), text);
    return reloaded;
  };

  test('a template mistake is framed on the page; the saved fix reloads it clean; a broken data file keeps the last good page with its problem', async () => {
    visitor = await openVisitor(browser, preview.url);
    const page = visitor.page;
    const pageTemplate = fs.readFileSync(path.join(dir, 'templates/page.jsont'), 'utf8');
    expect(await page.goto('/contact').then((r) => r!.status())).toBe(200);
    expect(await page.locator('#quire-preview-overlay').count()).toBe(0);
    const title = page.locator('h1.sf-page-title');
    await expect.poll(() => title.textContent()).toBe('Contact');

    // The author misspells a formatter and leaves a section open; the open page reloads itself.
    const broken = pageTemplate.replace('{page.title|html}', '{page.title|htm}').replace('{page.blocksHtml}', '{.section page}{page.blocksHtml}');
    const loaded = page.waitForEvent('load');
    expect((await write('templates/page.jsont', broken)).ok).toBe(true);
    await loaded;
    const overlay = page.getByRole('alertdialog', { name: '2 errors in the site' });
    await overlay.waitFor();
    // A modal dialog: focus is on it after the live reload (a screen reader reads the problems,
    // the arrow keys scroll them), Tab reaches its Close button and never the hidden page under it.
    const focused = () => page.evaluate(() => {
      const active = document.activeElement;
      const overlay = document.getElementById('quire-preview-overlay');
      return active === overlay ? 'overlay' : active && overlay?.contains(active) ? `overlay ${active.tagName.toLowerCase()}` : active === document.body || active === null ? 'body' : `page ${active.tagName.toLowerCase()}`;
    });
    await expect.poll(focused).toBe('overlay');
    expect(await overlay.getAttribute('aria-modal')).toBe('true');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('overlay button');
    expect(await overlay.getByRole('button', { name: 'Close' }).evaluate((el) => getComputedStyle(el).outlineStyle)).not.toBe('none');
    for (let i = 0; i < 3; i++) {
      await page.keyboard.press('Tab');
      expect(await focused()).not.toMatch(/^page/);
    }
    const frames = overlay.locator('pre');
    expect(await frames.count()).toBe(2);
    const unknown = (await frames.nth(0).textContent())!.split('\n');
    expect(unknown[0]).toBe("SyntaxError FORMATTER_UNKNOWN: Formatter 'htm' is unknown.");
    const line = broken.split('\n')[1]!;
    const column = line.indexOf('|htm') + 2;
    expect(unknown[1]).toBe(`  at templates/page.jsont:2:${column}`);
    expect(unknown).toContain(`> 2 | ${line}`);
    // The caret under the formatter's first letter.
    expect(unknown[unknown.indexOf(`> 2 | ${line}`) + 1]).toBe(`    | ${' '.repeat(column - 1)}^`);
    expect(unknown.at(-1)).toBe("  hint: did you mean 'html'? (every formatter: docs/reference/formatters.md)");
    const eof = (await frames.nth(1).textContent())!.split('\n');
    expect(eof[0]).toMatch(/^SyntaxError EOF_IN_BLOCK: Reached EOF in the middle of \{\.section page\} started at line 3 char 1$/);
    expect(eof.at(-1)).toBe('  hint: add {.end} where the block should close');
    // The frames are read as written: monospace, lines kept, on top of the page.
    expect(await frames.nth(0).evaluate((el) => getComputedStyle(el).whiteSpace)).toBe('pre-wrap');
    expect(await overlay.evaluate((el) => getComputedStyle(el).position)).toBe('fixed');
    expect(await axeViolations(page)).toEqual([]);
    await visitor.screenshot('preview-overlay-template-errors');
    // Other pages keep being served, each with the same problems shown.
    const shop = await page.request.get('/shop');
    expect(shop.status()).toBe(200);
    expect(shop.headers()['x-quire-preview-problems']).toBe('2');

    // Closing the overlay shows the page under it.
    await overlay.getByRole('button', { name: 'Close' }).click();
    expect(await page.locator('#quire-preview-overlay').count()).toBe(0);

    // The fix, saved: the page reloads by itself, clean.
    const fixed = page.waitForEvent('load');
    expect((await write('templates/page.jsont', pageTemplate)).ok).toBe(true);
    await fixed;
    expect(await page.locator('#quire-preview-overlay').count()).toBe(0);
    await expect.poll(() => title.textContent()).toBe('Contact');

    // A comma missing in a data file: the last good site stays on screen, the problem named where the comma goes.
    const contact = fs.readFileSync(path.join(dir, 'content/contact.json'), 'utf8');
    const stale = page.waitForEvent('load');
    const missing = contact.replace('"title": "Contact",', '"title": "Contact Us"');
    expect((await write('content/contact.json', missing)).ok).toBe(false);
    await stale;
    const problem = page.getByRole('alertdialog', { name: '1 error in the site' });
    await problem.waitFor();
    await expect.poll(focused).toBe('overlay');
    expect(await problem.textContent()).toContain('The page below is the last version of the site that loaded');
    const json = (await problem.locator('pre').textContent())!.split('\n');
    const titleLine = missing.split('\n').findIndex((text) => text.includes('"Contact Us"')) + 1;
    const end = missing.split('\n')[titleLine - 1]!.length + 1;
    // Before: V8's "Expected ',' or '}' after property value in JSON at position 64", framed at the next line.
    expect(json[0]).toBe(`SyntaxError SITE_JSON_INVALID: a ',' is missing here, after this value: the next member starts at line ${titleLine + 1}, column 3`);
    expect(json[1]).toBe(`  at content/contact.json:${titleLine}:${end}`);
    expect(await title.textContent()).toBe('Contact');
    expect(await axeViolations(page)).toEqual([]);
    await visitor.screenshot('preview-overlay-last-good-site');
    // Escape closes it and gives the page back to the keyboard.
    await page.keyboard.press('Escape');
    expect(await page.locator('#quire-preview-overlay').count()).toBe(0);
    expect(await page.evaluate(() => [...document.body.children].filter((el) => (el as HTMLElement).inert).length)).toBe(0);
    await page.keyboard.press('Tab');
    expect(await focused()).toMatch(/^page /);

    const back = page.waitForEvent('load');
    expect((await write('content/contact.json', contact)).ok).toBe(true);
    await back;
    expect(await page.locator('#quire-preview-overlay').count()).toBe(0);
    expect(reloads.map((outcome) => outcome.ok)).toEqual([true, true, false, true]);
  });

  test("a script variable that renders empty for the page's data breaks the page's script in Chromium, and the overlay names its tag", async () => {
    // The first scenario's page would reload into the broken script too: it leaves the preview.
    await visitor?.page.goto('about:blank');
    const author = await openVisitor(browser, preview.url);
    try {
      const pageTemplate = fs.readFileSync(path.join(dir, 'templates/page.jsont'), 'utf8');
      const lines = pageTemplate.split('\n').length;
      // The contact page has no subtitle: `window.subtitle = ;` stops the script, silently for a visitor.
      expect((await write('templates/page.jsont', `${pageTemplate.replace(/\n?$/, '\n')}<script>window.subtitle = {page.subtitle};</script>\n`)).ok).toBe(true);
      expect(await author.page.goto('/contact').then((r) => r!.status())).toBe(200);
      const overlay = author.page.getByRole('alertdialog', { name: '1 warning in the site' });
      await overlay.waitFor();
      const frame = (await overlay.locator('pre').textContent())!.split('\n');
      expect(frame[0]).toBe("Warning TEMPLATE_SCRIPT_BROKEN: {page.subtitle} rendered empty in this page's <script>, leaving 'window.subtitle = ;'");
      expect(frame[1]).toBe(`  at templates/page.jsont:${lines}:27`);
      expect(frame).toContain(`    | ${' '.repeat(26)}^`);
      // What the overlay explains: Chromium refused the script.
      expect(author.problems().some((problem) => /^pageerror: .*SyntaxError|Unexpected token/.test(problem))).toBe(true);
      expect(await axeViolations(author.page)).toEqual([]);
      await author.screenshot('preview-overlay-script-variable');

      // An error and two warnings: the dialog is named for what it holds (it said "Problems in
      // the site (3)", the warnings counted as problems), in its heading too.
      const mixed = `${pageTemplate.replace('{page.title|html}', '{page.title|htm}').replace(/\n?$/, '\n')}<script>window.subtitle = {page.subtitle};</script>\n<script>window.kicker = {page.kicker};</script>\n`;
      // The open page reloads itself (a goto of ours would race it).
      const reloaded = author.page.waitForEvent('load');
      expect((await write('templates/page.jsont', mixed)).ok).toBe(true);
      await reloaded;
      const counted = author.page.getByRole('alertdialog', { name: '1 error, 2 warnings in the site' });
      await counted.waitFor();
      expect(await counted.getByRole('heading', { level: 2 }).textContent()).toBe('1 error, 2 warnings in the site');
      expect(await counted.locator('pre').count()).toBe(3);
      expect(await axeViolations(author.page)).toEqual([]);
      await author.screenshot('preview-overlay-error-and-warnings');
      expect((await write('templates/page.jsont', pageTemplate)).ok).toBe(true);
    } finally {
      await author.context.close();
    }
  });
});
