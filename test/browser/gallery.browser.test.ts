// The gallery island (issue 18) in Chromium on the demo's galleries, one per design
// (content/gallery*.json): the slideshow advances on its own (its content sets a 2 s
// autoplay-duration) and by keyboard, hover holds it, its lightbox is a modal dialog inside
// the window that Escape closes; axe finds nothing serious on any design, desktop or phone.
// No check measures a time: tests wait for states, and the hover hold runs on the page clock.
import type { Page } from 'playwright-core';
import { describe, expect, inject, test } from 'vitest';
import { axeViolations } from './support/axe.ts';
import { useBrowserTier } from './support/tier.ts';
import { settle, visit } from './support/visit.ts';

const chromiumPath = inject('chromiumPath');
const SLIDESHOW = '/gallery-slideshow';
const AUTOPLAY_MS = 2000; // fixtures/sites/demo/content/gallery-slideshow.json autoplay-duration
const GALLERIES = [
  ['grid', '/gallery'],
  ['slideshow', SLIDESHOW],
  ['slider', '/gallery-slider'],
  ['stacked', '/gallery-stacked'],
] as const;
const VIEWPORTS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;

describe.skipIf(!chromiumPath)(`gallery in Chromium${chromiumPath ? '' : ` (skipped: ${inject('browserSkipReason')})`}`, () => {
  const tier = useBrowserTier(chromiumPath!);

  const attr = (page: Page, name: string) => page.evaluate((name) => document.querySelector('.sf-gallery')?.getAttribute(name) ?? null, name);
  const index = (page: Page) => attr(page, 'data-gallery-index');

  test('GAL-1 the slideshow is a carousel region that advances on its own, then by keyboard', async () => {
    const v = await tier.newVisitor();
    const { page } = v;
    expect(await visit(page, SLIDESHOW)).toBe(200);
    const region = page.getByRole('region', { name: 'Studio slideshow' });
    expect(await region.getAttribute('aria-roledescription')).toBe('carousel');
    expect(await page.locator('.sf-gallery-active').getAttribute('aria-label')).toBe('1 of 6');
    expect(await page.getByRole('button', { name: 'Next photo' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Previous photo' }).count()).toBe(1);
    await v.screenshot('gallery-1-slideshow');
    // On its own: the page's own clock, waited for (the poll timeout is a hang guard).
    await expect.poll(() => index(page), { timeout: 30_000 }).not.toBe('0');
    await v.screenshot('gallery-2-slideshow-advanced');

    // By keyboard: focus inside holds autoplay, so each move below is the key's.
    await page.getByRole('button', { name: 'Next photo' }).focus();
    await expect.poll(() => attr(page, 'data-gallery-state')).toBe('paused');
    const from = Number(await index(page));
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => index(page)).toBe(String((from + 1) % 6));
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => index(page)).toBe(String((from + 5) % 6));
    await page.keyboard.press('Enter'); // the focused Next photo button
    await expect.poll(() => index(page)).toBe(String(from));
    expect(await page.locator('.sf-gallery-active').getAttribute('aria-label')).toBe(`${from + 1} of 6`);
    // Only the shown slide is reachable.
    expect(await page.locator('.sf-gallery-slides > li[inert]').count()).toBe(5);
  });

  test('GAL-2 hovering the slideshow holds it; leaving lets it go on', async () => {
    const v = await tier.newVisitor();
    const { page } = v;
    await page.clock.install();
    expect(await visit(page, SLIDESHOW)).toBe(200);
    await page.waitForLoadState('networkidle');
    await page.locator('.sf-gallery-slides').hover();
    await expect.poll(() => attr(page, 'data-gallery-state')).toBe('paused');
    const held = await index(page);
    await page.clock.runFor(AUTOPLAY_MS * 4);
    await settle(page);
    expect(await index(page)).toBe(held);
    await page.mouse.move(5, 5);
    await expect.poll(() => attr(page, 'data-gallery-state')).toBe('playing');
    await page.clock.runFor(AUTOPLAY_MS);
    await expect.poll(() => index(page)).not.toBe(held);
  });

  test('GAL-3 the lightbox: a named modal dialog inside the window; Escape closes it and gives focus back', async () => {
    const v = await tier.newVisitor();
    const { page } = v;
    expect(await visit(page, SLIDESHOW)).toBe(200);
    const link = page.locator('.sf-gallery-active a');
    await link.focus();
    const name = (await link.innerText()).trim();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    expect(await dialog.getAttribute('aria-modal')).toBe('true');
    expect(page.url()).toMatch(/\/gallery-slideshow$/);
    const box = (await dialog.boundingBox())!;
    const viewport = page.viewportSize()!;
    expect(box.x >= 0 && box.y >= 0 && box.x + box.width <= viewport.width && box.y + box.height <= viewport.height).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.closest('[role="dialog"]') !== null)).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await v.screenshot('gallery-3-lightbox');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => page.locator('.sf-gallery-lightbox-count').innerText()).toMatch(/^\d of 6$/);
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.closest('.sf-gallery') !== null)).toBe(true);
    expect(await page.evaluate(() => document.documentElement.classList.contains('sf-dialog-open'))).toBe(false);
  });

  test('GAL-4 a swipe moves the slider', async () => {
    const v = await tier.newVisitor();
    const { page } = v;
    expect(await visit(page, '/gallery-slider')).toBe(200);
    // Swipe only once the pictures and the island's script are in: on a busy machine a swipe
    // before that lands on no listener, or on a box that has since moved.
    await page.waitForLoadState('networkidle');
    const box = (await page.locator('.sf-gallery-active').boundingBox())!;
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + box.width * 0.8, y);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.2, y, { steps: 5 });
    await page.mouse.up();
    await expect.poll(() => index(page)).toBe('1');
    expect(page.url()).toMatch(/\/gallery-slider$/);
  });

  test('GAL-6 Tab through every design: the focused control\'s ring is never cut off by the gallery around it', async () => {
    const v = await tier.newVisitor();
    const { page } = v;
    await page.emulateMedia({ reducedMotion: 'reduce' }); // the slideshow holds still while Tab walks it
    const clipped: string[] = [];
    for (const [design, url] of GALLERIES) {
      expect(await visit(page, url)).toBe(200);
      for (let step = 0; step < 60; step++) {
        await page.keyboard.press('Tab');
        const seen = await page.evaluate(() => {
          const el = document.activeElement;
          if (!el || el === document.body) return { done: true, cut: null };
          if (!el.closest('.sf-gallery')) return { done: false, cut: null };
          // The ring (outline plus its offset) must lie inside every ancestor that clips.
          const style = getComputedStyle(el);
          const ring = style.outlineStyle === 'none' ? 0 : parseFloat(style.outlineWidth) + Math.max(0, parseFloat(style.outlineOffset));
          const r = el.getBoundingClientRect();
          for (let a = el.parentElement; a && a !== document.documentElement; a = a.parentElement) {
            const s = getComputedStyle(a);
            if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
            const box = a.getBoundingClientRect();
            if (r.left - ring < box.left - 0.5 || r.top - ring < box.top - 0.5 || r.right + ring > box.right + 0.5 || r.bottom + ring > box.bottom + 0.5) {
              return { done: false, cut: `${el.tagName.toLowerCase()} ${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 30)}` };
            }
          }
          return { done: false, cut: null };
        });
        if (seen.done) break;
        if (seen.cut) clipped.push(`${design}: ${seen.cut}`);
      }
    }
    // Before, the slideshow's photo link showed no ring at all and the slider's buttons half of one.
    expect([...new Set(clipped)]).toEqual([]);
  });

  for (const [viewport, size] of Object.entries(VIEWPORTS)) {
    test(`GAL-5 every design at ${viewport} size: no serious axe finding; screenshots`, async () => {
      const v = await tier.newVisitor();
      const { page } = v;
      await page.setViewportSize(size);
      await page.emulateMedia({ reducedMotion: 'reduce' }); // a still slideshow for the screenshot
      for (const [design, url] of GALLERIES) {
        expect(await visit(page, url)).toBe(200);
        expect(await attr(page, 'data-gallery-design')).toBe(design);
        expect(await axeViolations(page)).toEqual([]);
        await v.screenshot(`gallery-${viewport}-${design}`);
      }
      // Reduced motion: the slideshow stays on its first photo until the visitor moves it.
      expect(await visit(page, SLIDESHOW)).toBe(200);
      expect(await attr(page, 'data-gallery-state')).toBe('paused');
    });
  }
});
