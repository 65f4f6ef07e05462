// The demo site on a phone (issue 16), 390x844 in Debian's Chromium against the real server: a
// compact header whose navigation collapses behind a menu button, Add To Cart within the first
// screen of a product page, and no browser-default buttons.
import type { Page } from 'playwright-core';
import { describe, expect, inject, test } from 'vitest';
import { axeViolations } from './support/axe.ts';
import { viewportShot } from './support/chromium.ts';
import { useBrowserTier } from './support/tier.ts';
import { addTeeToCart, visit } from './support/visit.ts';

const chromiumPath = inject('chromiumPath');
const PHONE = { width: 390, height: 844 };
// WCAG 1.4.10 Reflow: content readable at 320 CSS px (a 1280 px window at 400 %) without
// scrolling sideways.
const NARROW = { width: 320, height: 640 };

const box = (page: Page, selector: string) =>
  page.locator(selector).first().evaluate((el) => {
    const r = el.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, height: r.height, visible: r.height > 0 && getComputedStyle(el).display !== 'none' };
  });

describe.skipIf(!chromiumPath)(`phone layout in Chromium${chromiumPath ? '' : ` (skipped: ${inject('browserSkipReason')})`}`, () => {
  const tier = useBrowserTier(chromiumPath!);

  test('PHONE-1 the menu button opens and closes the navigation (aria-expanded, aria-controls, Escape), the header stays compact', async () => {
    const v = await tier.newVisitor();
    await v.page.setViewportSize(PHONE);
    await visit(v.page, '/shop/hoodie');
    const menu = v.page.getByRole('button', { name: 'Menu' });
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    // The navigation and the search field below it fold away together (one menu).
    expect(await menu.getAttribute('aria-controls')).toBe('demo-nav demo-search');
    expect((await box(v.page, '#demo-nav')).visible).toBe(false);
    // One row: at most a tenth of the screen (it was 22%).
    expect((await box(v.page, 'header.demo-header')).height).toBeLessThanOrEqual(PHONE.height / 10);
    expect((await box(v.page, 'header .demo-cart-link')).visible).toBe(true);
    await viewportShot(v.page, 'phone-1-menu-closed');

    await menu.focus();
    await v.page.keyboard.press('Enter');
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    const shop = v.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Shop' });
    expect(await shop.isVisible()).toBe(true);
    expect(await v.page.locator('header .demo-search input').isVisible()).toBe(true);
    expect(await axeViolations(v.page)).toEqual([]);
    await viewportShot(v.page, 'phone-2-menu-open');
    await shop.focus();
    await v.page.keyboard.press('Escape');
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await menu.evaluate((el) => el === document.activeElement)).toBe(true);
    expect((await box(v.page, '#demo-nav')).visible).toBe(false);

    // Tab past the menu's last control closes it (focus stays where it went); so does a tap on the page.
    await v.page.keyboard.press('Enter');
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    // From the navigation's last link Tab goes on to the search field, still in the menu.
    await v.page.locator('#demo-nav').locator('a[href]').last().focus();
    await v.page.keyboard.press('Tab');
    expect(await v.page.evaluate(() => document.querySelector('#demo-search')!.contains(document.activeElement))).toBe(true);
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    await v.page.keyboard.press('Tab');
    await expect.poll(() => menu.getAttribute('aria-expanded')).toBe('false');
    expect(await v.page.evaluate(() => ['#demo-nav', '#demo-search'].some((id) => document.querySelector(id)!.contains(document.activeElement)))).toBe(false);
    await menu.click();
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    await v.page.locator('main h1').first().click();
    await expect.poll(() => menu.getAttribute('aria-expanded')).toBe('false');
  });

  test('PHONE-6 Tab goes through the header as it reads: left to right on the phone row, down the open menu, and as before on a desktop (WCAG 2.4.3)', async () => {
    const v = await tier.newVisitor();
    // The focused control: its name, its left edge and its middle (a row's controls differ in
    // height). Tab is pressed from the skip link on.
    const focused = () =>
      v.page.evaluate(() => {
        const el = document.activeElement as HTMLElement;
        const r = el.getBoundingClientRect();
        return { name: el.getAttribute('aria-label') || el.textContent!.trim(), left: r.left, top: r.top + r.height / 2, inHeader: el.closest('header') !== null };
      });
    const tabThroughHeader = async () => {
      await v.page.locator('.demo-skip-link').focus();
      const seen: Array<{ name: string; left: number; top: number }> = [];
      for (;;) {
        await v.page.keyboard.press('Tab');
        const now = await focused();
        if (!now.inHeader || seen.length > 30) return seen;
        seen.push(now);
      }
    };
    const byBox = (controls: Array<{ name: string; left: number; top: number }>) =>
      [...controls].sort((a, b) => (Math.abs(a.top - b.top) > 8 ? a.top - b.top : a.left - b.left)).map((c) => c.name);

    await v.page.setViewportSize(PHONE);
    await visit(v.page, '/shop/hoodie');
    const phoneRow = await tabThroughHeader();
    // It was Quire Demo Shop, Menu, Sign In, Cart: Tab went right past Sign In and Cart, then back.
    expect(phoneRow.map((c) => c.name)).toEqual(['Quire Demo Shop', 'Sign In', 'Cart', 'Menu']);
    expect(phoneRow.map((c) => c.name)).toEqual(byBox(phoneRow));

    // The open menu: Tab from Menu goes down its links and the search field, then on into the page.
    const menu = v.page.getByRole('button', { name: 'Menu' });
    await menu.focus();
    await v.page.keyboard.press('Enter');
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    const opened: Array<{ name: string; left: number; top: number }> = [];
    for (;;) {
      await v.page.keyboard.press('Tab');
      const now = await focused();
      if (!now.inHeader || opened.length > 30) break;
      opened.push(now);
    }
    const links = await v.page.locator('#demo-nav a[href]').evaluateAll((els) => els.map((el) => el.textContent!.trim()));
    expect(opened.map((c) => c.name)).toEqual([...links, 'Search the shop and journal']);
    expect(opened.map((c) => c.name)).toEqual(byBox(opened));
    expect(opened[0]!.top).toBeGreaterThan(phoneRow[3]!.top);
    // Past the search field Tab left the header, and the menu closed behind it.
    await expect.poll(() => menu.getAttribute('aria-expanded')).toBe('false');
    // Shift+Tab from the menu's first link goes back up to Menu.
    await menu.click();
    await v.page.locator('#demo-nav a[href]').first().focus();
    await v.page.keyboard.press('Shift+Tab');
    expect(await menu.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    await v.page.keyboard.press('Escape');

    // A desktop window is as before: the navigation between the brand and the search field.
    await v.page.setViewportSize({ width: 1280, height: 800 });
    const desktop = await tabThroughHeader();
    expect(desktop.map((c) => c.name)).toEqual(['Quire Demo Shop', ...links, 'Search the shop and journal', 'Sign In', 'Cart']);
    expect(desktop.map((c) => c.name)).toEqual(byBox(desktop));
  });

  test('PHONE-2 Add To Cart is within the first screen of a product page, with its options', async () => {
    const v = await tier.newVisitor();
    await v.page.setViewportSize(PHONE);
    for (const product of ['/shop/hoodie', '/shop/tee', '/shop/mug']) {
      await visit(v.page, product);
      expect(await v.page.evaluate(() => window.scrollY)).toBe(0);
      const button = await box(v.page, '.sf-product .sqs-add-to-cart-button');
      expect(button.bottom, product).toBeLessThanOrEqual(PHONE.height);
    }
    expect(await axeViolations(v.page)).toEqual([]);
    await viewportShot(v.page, 'phone-3-product-first-screen');
    await visit(v.page, '/shop/hoodie');
    await viewportShot(v.page, 'phone-4-hoodie-first-screen');
  });

  test('PHONE-4 at 320 px (reflow) no page scrolls sideways, and the pill cart never hides the end of a page', async () => {
    const v = await tier.newVisitor();
    await v.page.setViewportSize(NARROW);
    await addTeeToCart(v.page, 'M');
    await expect.poll(() => v.page.locator('.sf-pill-cart-wrapper').getAttribute('data-state')).toBe('visible');
    // Text nodes and controls under the pill (fixed at the bottom right) once the page is scrolled to its end.
    const underPill = () =>
      v.page.evaluate(() => {
        window.scrollTo(0, document.documentElement.scrollHeight);
        const pill = document.querySelector('.sf-pill-cart-wrapper:not([hidden])');
        if (!pill) return [];
        const p = pill.getBoundingClientRect();
        const meets = (r: DOMRect) => r.width > 0 && r.right > p.left && r.left < p.right && r.bottom > p.top && r.top < p.bottom;
        const hidden: string[] = [];
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        while (walker.nextNode()) {
          const node = walker.currentNode;
          if (!node.textContent?.trim() || pill.contains(node) || !node.parentElement?.checkVisibility({ visibilityProperty: true })) continue;
          const range = document.createRange();
          range.selectNodeContents(node);
          if ([...range.getClientRects()].some(meets)) hidden.push(node.textContent.trim().slice(0, 40));
        }
        return hidden;
      });
    for (const path of ['/', '/shop', '/shop/tee', '/cart', '/journal', '/journal/riso-season', '/events', '/events/winter-market', '/gallery', '/contact']) {
      expect(await visit(v.page, path), path).toBe(200);
      const widths = await v.page.evaluate(() => ({ page: document.documentElement.scrollWidth, window: document.documentElement.clientWidth }));
      expect(widths.page, `${path} scrolls sideways`).toBeLessThanOrEqual(widths.window);
      if (path !== '/cart') {
        expect(await underPill(), `${path}: text under the pill cart`).toEqual([]);
        continue;
      }
      // The cart page (no pill there): every column, the remove button included, inside the window.
      const remove = await v.page.locator('.sf-entry-remove').first().evaluate((el) => el.getBoundingClientRect().right);
      expect(remove).toBeLessThanOrEqual(NARROW.width);
      await viewportShot(v.page, 'phone-6-cart-320');
    }
  });

  test('PHONE-5 Tab through a product page never leaves the focused control under the pill cart (focus not obscured)', async () => {
    const v = await tier.newVisitor();
    await v.page.setViewportSize(PHONE);
    await addTeeToCart(v.page, 'M');
    for (const path of ['/shop/tee', '/shop/hoodie']) {
      await visit(v.page, path);
      await expect.poll(() => v.page.locator('.sf-pill-cart-wrapper').getAttribute('data-state')).toBe('visible');
      const obscured: string[] = [];
      // Forward through the whole page: the focused control's centre is its own, never the pill's.
      for (let step = 0; step < 60; step++) {
        await v.page.keyboard.press('Tab');
        const seen = await v.page.evaluate(() => {
          const el = document.activeElement;
          if (!el || el === document.body) return { done: true, name: '', hidden: false };
          const r = el.getBoundingClientRect();
          const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          const name = `${el.tagName.toLowerCase()} ${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 30)}`;
          return { done: false, name, hidden: !!top?.closest('.sf-pill-cart-wrapper') && !el.closest('.sf-pill-cart-wrapper') };
        });
        if (seen.done) break;
        if (seen.hidden) obscured.push(seen.name);
      }
      expect(obscured, path).toEqual([]);
    }
  });

  test('PHONE-3 the search page button is styled, not the browser default, and big enough for a thumb', async () => {
    const v = await tier.newVisitor();
    await v.page.setViewportSize(PHONE);
    await visit(v.page, '/search?q=tee');
    const search = v.page.locator('main').getByRole('button', { name: 'Search' });
    const style = await search.evaluate((el) => {
      const s = getComputedStyle(el);
      return { background: s.backgroundColor, radius: s.borderTopLeftRadius, height: el.getBoundingClientRect().height };
    });
    expect(style.background).not.toBe('rgb(239, 239, 239)');
    expect(style.radius).not.toBe('0px');
    expect(style.height).toBeGreaterThanOrEqual(44);
    expect(await axeViolations(v.page)).toEqual([]);
    await viewportShot(v.page, 'phone-5-search');
  });
});
