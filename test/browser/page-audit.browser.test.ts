// The demo pages a visitor reaches that no other browser file audits at a phone width (the
// sitemap's pages, the cart, checkout and sign-in are in accessibility.browser.test.ts and the
// journeys): the search page with and without results, the shop and journal filtered by the
// tag and category links of a product and a post (they once led to a search by title, which
// found nothing), the missing page, the Lookbook once its password opened it, and the members
// page signed in; and the sitemap pages a visitor opens most, which A11Y-1 checks with axe only
// (at 390 px). Each at 375 px and 1280 px: axe clean, no sideways scroll, one h1 and no heading
// level skipped, every picture with an alt, and every control Tab reaches in order with a ring,
// in the window and on top (not covered by the header or another layer); the tier checks the
// console stayed clean.
import type { Page } from 'playwright-core';
import { describe, expect, inject, test } from 'vitest';
import { axeViolations } from './support/axe.ts';
import { NARROW_WINDOWS, type NarrowWindowName, viewportShot, type VisitorPage } from './support/chromium.ts';
import { walk } from './support/focus.ts';
import { useBrowserTier } from './support/tier.ts';
import { visit, waitForBoot } from './support/visit.ts';

const chromiumPath = inject('chromiumPath');

const WINDOWS = NARROW_WINDOWS;
type WindowName = NarrowWindowName;

/** What the page shows that the audit reads in one go: sideways overflow, headings, pictures without alt. */
const pageShape = (page: Page) =>
  page.evaluate(() => ({
    overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    headings: [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')]
      .filter((h) => h.getClientRects().length > 0)
      .map((h) => Number(h.tagName[1])),
    noAlt: [...document.querySelectorAll('img')].filter((img) => !img.hasAttribute('alt')).map((img) => img.currentSrc || img.src),
  }));

/** The audit every page here gets, at the window the page was opened in. */
async function audit(page: Page, label: string): Promise<void> {
  expect(await axeViolations(page), `${label}: axe`).toEqual([]);
  const shape = await pageShape(page);
  expect(shape.overflow, `${label}: sideways scroll`).toBeLessThanOrEqual(0);
  expect(shape.noAlt, `${label}: pictures without alt`).toEqual([]);
  expect(shape.headings.filter((level) => level === 1), `${label}: one h1 (${shape.headings.join(' ')})`).toHaveLength(1);
  const skips = shape.headings.filter((level, i) => i > 0 && level > shape.headings[i - 1]! + 1);
  expect(skips, `${label}: heading levels in order (${shape.headings.join(' ')})`).toEqual([]);
  await walk(page, page.locator('body'), label);
  await viewportShot(page, `page-audit-${label.replaceAll(/[^a-z0-9]+/gi, '-')}`);
}

describe.skipIf(!chromiumPath)(`pages no other file audits, at 375 px and 1280 px, in Chromium${chromiumPath ? '' : ` (skipped: ${inject('browserSkipReason')})`}`, () => {
  const tier = useBrowserTier(chromiumPath!);

  async function visitor(name: WindowName): Promise<VisitorPage> {
    const v = await tier.newVisitor();
    await v.page.setViewportSize(WINDOWS[name]);
    return v;
  }

  for (const name of Object.keys(WINDOWS) as WindowName[]) {
    test(`AUDIT-1 (${name}) the search page: results for "tee", none for a word no title holds`, async () => {
      const { page } = await visitor(name);
      expect(await visit(page, '/search?q=tee')).toBe(200);
      expect(await page.locator('.sf-search-result').count()).toBeGreaterThan(0);
      await audit(page, `search-results-${name}`);
      expect(await visit(page, '/search?q=zeppelin')).toBe(200);
      expect(await page.locator('.sf-search-empty').isVisible()).toBe(true);
      await audit(page, `search-none-${name}`);
    });

    test(`AUDIT-6 (${name}) the tee's #apparel tag lands on the shop filtered by it: the tee and the others so tagged, a heading, a way back`, async () => {
      const { page } = await visitor(name);
      expect(await visit(page, '/shop/tee')).toBe(200);
      await Promise.all([page.waitForURL(/\/shop\?tag=apparel$/), page.getByRole('link', { name: '#apparel' }).click()]);
      await waitForBoot(page);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Shop: tagged “apparel”');
      const cards = page.locator('.sf-product-card-link');
      expect(await cards.evaluateAll((links) => links.map((a) => a.getAttribute('href')))).toEqual(['/shop/tee', '/shop/hoodie', '/shop/cap']);
      expect(await cards.first().isVisible()).toBe(true);
      const back = page.getByRole('link', { name: 'See all products' });
      expect(await back.isVisible()).toBe(true);
      await audit(page, `shop-tag-apparel-${name}`);
      await Promise.all([page.waitForURL(/\/shop$/), back.click()]);
      await waitForBoot(page);
      expect(await page.locator('.sf-product-card-link').count()).toBeGreaterThan(3);
    });

    test(`AUDIT-7 (${name}) a journal post's tag and category land on the journal filtered by them`, async () => {
      const { page } = await visitor(name);
      expect(await visit(page, '/journal/indigo-dye-day')).toBe(200);
      await Promise.all([page.waitForURL(/\/journal\?tag=behind\+the\+scenes$/), page.getByRole('link', { name: '#behind-the-scenes' }).click()]);
      await waitForBoot(page);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Journal: tagged “behind the scenes”');
      expect(await page.locator('.demo-post-title a').allTextContents()).toEqual(['Indigo dye day']);
      expect(await page.getByRole('link', { name: 'See all posts' }).isVisible()).toBe(true);
      await audit(page, `journal-tag-${name}`);
      expect(await visit(page, '/journal/indigo-dye-day')).toBe(200);
      await Promise.all([page.waitForURL(/\/journal\?category=Studio$/), page.locator('.demo-post-meta').getByRole('link', { name: 'Studio' }).click()]);
      await waitForBoot(page);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Journal: filed under “Studio”');
      expect((await page.locator('.demo-post-title a').allTextContents()).sort()).toEqual(['Indigo dye day', 'Riso season is back']);
      await audit(page, `journal-category-${name}`);
    });

    test(`AUDIT-2 (${name}) the missing page`, async () => {
      const v = await visitor(name);
      v.allowConsoleError(/status of 404/);
      expect(await visit(v.page, '/no/such/page')).toBe(404);
      await audit(v.page, `not-found-${name}`);
    });

    test(`AUDIT-3 (${name}) the Lookbook, opened with its password`, async () => {
      const { page } = await visitor(name);
      expect(await visit(page, '/lookbook')).toBe(200);
      await page.getByLabel('Password').fill('indigo');
      await Promise.all([page.waitForURL('**/lookbook'), page.getByLabel('Password').press('Enter')]);
      await waitForBoot(page);
      expect(await page.getByRole('heading', { name: 'Next season, first look' }).isVisible()).toBe(true);
      await audit(page, `lookbook-${name}`);
    });

    test(`AUDIT-4 (${name}) the members page, signed in`, async () => {
      const v = await visitor(name);
      // The members page answers 403 until the visitor signs in (its sign-in form); Chromium logs that.
      v.allowConsoleError(/status of 403/);
      const { page } = v;
      expect(await visit(page, '/members')).toBe(403);
      const login = page.locator('[data-island="account"] form.sf-login');
      await login.locator('input[name="email"]').fill('demo@example.com');
      await login.locator('input[name="password"]').fill('demo-password');
      await Promise.all([page.waitForNavigation(), login.locator('button[type="submit"]').click()]);
      await waitForBoot(page);
      expect(await visit(page, '/members')).toBe(200);
      await audit(page, `members-${name}`);
    });

    // The sitemap's pages have axe at 390 px (A11Y-1); the ones a visitor opens most also get
    // the rest of the audit at 375 px: the layout, headings, pictures and Tab order.
    test(`AUDIT-5 (${name}) the home, shop, a product, the journal and a post, the events and an event`, async () => {
      const { page } = await visitor(name);
      for (const path of ['/', '/shop', '/shop/tee', '/journal', '/journal/riso-season', '/events', '/events/winter-market']) {
        expect(await visit(page, path), path).toBe(200);
        await audit(page, `${path === '/' ? 'home' : path.slice(1)}-${name}`);
      }
    });
  }
});
