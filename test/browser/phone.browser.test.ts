// The demo site on a phone (issue 16), 390x844 in Debian's Chromium against the real server: a
// compact header whose navigation collapses behind a menu button, Add To Cart within the first
// screen of a product page, and no browser-default buttons.
import type { Page } from 'playwright-core';
import { describe, expect, inject, test } from 'vitest';
import { axeViolations } from './support/axe.ts';
import { viewportShot } from './support/chromium.ts';
import { useBrowserTier } from './support/tier.ts';
import { visit } from './support/visit.ts';

const chromiumPath = inject('chromiumPath');
const PHONE = { width: 390, height: 844 };

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
