// The seed's layout breakpoint (issue 18: "Mobile breakpoint up to 432 px, desktop from 433 px")
// as a visitor meets it, in Debian's Chromium against the demo site: at 432 px the header is the
// phone header (Menu button, navigation folded away), at 433 px the desktop one; an open phone
// menu closes when the window crosses into the desktop layout (hydrate/runtime/menu-toggle.ts).
import { describe, expect, inject, test } from 'vitest';
import { MOBILE_MAX_WIDTH_PX, DESKTOP_MIN_WIDTH_PX } from '../../hydrate/shared/breakpoints.ts';
import { axeViolations } from './support/axe.ts';
import { viewportShot } from './support/chromium.ts';
import { useBrowserTier } from './support/tier.ts';
import { visit } from './support/visit.ts';

const chromiumPath = inject('chromiumPath');

describe.skipIf(!chromiumPath)(`layout breakpoint in Chromium${chromiumPath ? '' : ` (skipped: ${inject('browserSkipReason')})`}`, () => {
  const tier = useBrowserTier(chromiumPath!);

  test('BP-1 432 px is a phone, 433 px a desktop; an open menu closes on the way to the desktop layout', async () => {
    const v = await tier.newVisitor();
    const menu = v.page.locator('.demo-menu-button');
    const shopLink = v.page.locator('#demo-nav a[href="/shop"]');
    await v.page.setViewportSize({ width: MOBILE_MAX_WIDTH_PX, height: 800 });
    await visit(v.page, '/shop/tee');
    expect(await menu.isVisible()).toBe(true);
    expect(await shopLink.isVisible()).toBe(false);
    await viewportShot(v.page, 'breakpoint-432');
    await menu.click();
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    expect(await shopLink.isVisible()).toBe(true);
    expect(await axeViolations(v.page)).toEqual([]);

    await v.page.setViewportSize({ width: DESKTOP_MIN_WIDTH_PX, height: 800 });
    await expect.poll(() => menu.getAttribute('aria-expanded')).toBe('false');
    expect(await menu.isVisible()).toBe(false);
    expect(await shopLink.isVisible()).toBe(true);
    await viewportShot(v.page, 'breakpoint-433');
    expect(await axeViolations(v.page)).toEqual([]);

    // Back to a phone: the menu starts folded again.
    await v.page.setViewportSize({ width: MOBILE_MAX_WIDTH_PX, height: 800 });
    await expect.poll(() => shopLink.isVisible()).toBe(false);
    expect(await menu.isVisible()).toBe(true);
  });
});
