// The seed's named navigations as a visitor meets them (issue 18), in Debian's Chromium against
// the demo site: the hidden Wholesale page opens by its URL but no menu links it; the locked
// Lookbook link says so (its name carries the seed's hint); the Members link appears only once
// the visitor has signed in, marked members-only; the lock screens carry the hints too.
import { describe, expect, inject, test } from 'vitest';
import { axeViolations } from './support/axe.ts';
import { VIEWPORTS, type ViewportName, viewportShot } from './support/chromium.ts';
import { useBrowserTier } from './support/tier.ts';
import { visit, waitForBoot } from './support/visit.ts';

const chromiumPath = inject('chromiumPath');

describe.skipIf(!chromiumPath)(`hidden and member-area navigation in Chromium${chromiumPath ? '' : ` (skipped: ${inject('browserSkipReason')})`}`, () => {
  const tier = useBrowserTier(chromiumPath!);

  for (const viewport of Object.keys(VIEWPORTS) as ViewportName[]) {
    test(`NAV-1 (${viewport}) hidden page reachable and unlinked; the locked link names its hint; Members only after signing in`, async () => {
      const v = await tier.newVisitor();
      // The members page answers 403 to a visitor (its sign-in form); Chromium logs that.
      v.allowConsoleError(/status of 403/);
      await v.page.setViewportSize(VIEWPORTS[viewport]);
      const nav = v.page.getByRole('navigation', { name: 'Main' });
      const openMenu = async () => {
        const menu = v.page.locator('.demo-menu-button');
        if (await menu.isVisible()) await menu.click();
      };

      expect(await visit(v.page, '/wholesale')).toBe(200);
      expect(await v.page.getByRole('heading', { name: 'Stocking Quire' }).isVisible()).toBe(true);
      expect(await v.page.locator('a[href="/wholesale"]').count()).toBe(0);

      await visit(v.page, '/');
      await openMenu();
      const lookbook = nav.getByRole('link', { name: 'Lookbook (This page is locked)' });
      expect(await lookbook.isVisible()).toBe(true);
      expect(await nav.locator('.demo-nav-lock').first().getAttribute('title')).toBe('This page is locked');
      expect(await nav.getByRole('link', { name: /Members/ }).count()).toBe(0);
      await viewportShot(v.page, `nav-visitor-${viewport}`);
      expect(await axeViolations(v.page)).toEqual([]);

      // The locked pages say what locks them.
      await Promise.all([v.page.waitForURL('**/lookbook'), lookbook.click()]);
      await waitForBoot(v.page);
      expect(await v.page.locator('.demo-lock-hint').textContent()).toBe('This page is locked');
      expect(await v.page.getByLabel('Password').count()).toBe(1);
      expect(await axeViolations(v.page)).toEqual([]);
      // The page's password opens it (the unlock cookie is signed with the store's key).
      await v.page.getByLabel('Password').fill('indigo');
      await Promise.all([v.page.waitForURL('**/lookbook'), v.page.getByLabel('Password').press('Enter')]);
      await waitForBoot(v.page);
      expect(await v.page.getByRole('heading', { name: 'Next season, first look' }).isVisible()).toBe(true);
      expect(await v.page.getByLabel('Password').count()).toBe(0);
      expect(await visit(v.page, '/members')).toBe(403);
      expect(await v.page.locator('.demo-lock-hint').textContent()).toBe('This page available only site members');

      // Signed in, the member-area navigation joins the main one.
      const login = v.page.locator('[data-island="account"] form.sf-login');
      await login.locator('input[name="email"]').fill('demo@example.com');
      await login.locator('input[name="password"]').fill('demo-password');
      await Promise.all([v.page.waitForNavigation(), login.locator('button[type="submit"]').click()]);
      await waitForBoot(v.page);
      await visit(v.page, '/shop');
      await openMenu();
      const members = nav.getByRole('link', { name: 'Members (This page available only site members)' });
      expect(await members.isVisible()).toBe(true);
      await viewportShot(v.page, `nav-member-${viewport}`);
      expect(await axeViolations(v.page)).toEqual([]);
      await Promise.all([v.page.waitForURL('**/members'), members.click()]);
      await waitForBoot(v.page);
      // (On a phone the menu is folded again on the new page: ask the markup, not the screen.)
      expect(await v.page.locator('#demo-nav a[href="/members"]').getAttribute('aria-current')).toBe('page');
      expect(await v.page.locator('a[href="/wholesale"]').count()).toBe(0);
    });

    test(`NAV-404 (${viewport}) a missing page keeps the navigation, a search, and its shop button apart from the Home page link`, async () => {
      const v = await tier.newVisitor();
      v.allowConsoleError(/status of 404/);
      await v.page.setViewportSize(VIEWPORTS[viewport]);
      expect(await visit(v.page, '/no/such/page')).toBe(404);
      expect(await v.page.locator('#demo-nav a[href="/shop"]').count()).toBe(1);
      expect(await v.page.locator('main form[role="search"] input[name="q"]').isVisible()).toBe(true);
      const shop = await v.page.locator('main a.demo-button[href="/shop"]').boundingBox();
      const home = await v.page.locator('main a[href="/"]').boundingBox();
      // Side by side (desktop) or wrapped (phone), the two never touch.
      const apart = home!.x >= shop!.x + shop!.width + 8 || home!.y >= shop!.y + shop!.height + 8;
      expect(apart).toBe(true);
      await viewportShot(v.page, `not-found-${viewport}`);
    });
  }

  test('NAV-SEARCH (phone) the folded menu holds the search field: click it, type, Enter searches; Tab reaches it too', async () => {
    const v = await tier.newVisitor();
    await v.page.setViewportSize(VIEWPORTS.phone);
    await visit(v.page, '/shop');
    await waitForBoot(v.page);
    const menu = v.page.locator('.demo-menu-button');
    const search = v.page.getByRole('searchbox', { name: 'Search the shop and journal' });
    expect(await search.isVisible()).toBe(false);
    await menu.click();
    await search.click();
    expect(await search.isVisible()).toBe(true);
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    await search.fill('tee');
    await Promise.all([v.page.waitForURL(/\/search\?q=tee$/), search.press('Enter')]);
    // By keyboard: Menu, then Tab through the links to the field.
    await visit(v.page, '/shop');
    await waitForBoot(v.page);
    await menu.focus();
    await v.page.keyboard.press('Enter');
    for (let i = 0; i < 30 && !(await search.evaluate((el) => el === document.activeElement)); i++) await v.page.keyboard.press('Tab');
    expect(await search.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    // A long query echoed on the results page wraps: the page never scrolls sideways.
    await visit(v.page, `/search?q=${'a'.repeat(300)}`);
    expect(await v.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
  });
});
