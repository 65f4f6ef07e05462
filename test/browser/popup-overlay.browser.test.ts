// The popup overlay (page type 104, issue 18) in Chromium on the demo site, where site.json
// shows it on /journal after 4 s: it appears after its delay as a modal dialog over the
// viewport, Escape closes it, it stays closed on reload, and a submit keeps it away for good.
// The delay runs on Playwright's fake page clock, paused before the page loads and stepped
// by the test to just before and exactly at the due time; no check measures a time. The
// census calls are read back from the store, so a beacon the server refused fails here.
import type { Page } from 'playwright-core';
import { describe, expect, inject, test } from 'vitest';
import { useBrowserTier } from './support/tier.ts';
import { settle, visit } from './support/visit.ts';

const chromiumPath = inject('chromiumPath');
const JOURNAL = '/journal';
const OVERLAY_ID = 'journal-letters';
const DELAY_MS = 4000; // fixtures/sites/demo/site.json overlay.delaySeconds
const START = Date.parse('2026-03-02T10:00:00Z');

describe.skipIf(!chromiumPath)(`popup overlay in Chromium${chromiumPath ? '' : ` (skipped: ${inject('browserSkipReason')})`}`, () => {
  const tier = useBrowserTier(chromiumPath!);

  const dialog = (page: Page) => page.getByRole('dialog', { name: 'Letters from the studio' });
  const allActions = async (): Promise<string[]> =>
    (await tier.server.store.read.listCensusEvents())
      .filter((e) => e.kind === 'overlay' && (e.data as { overlayId?: unknown }).overlayId === OVERLAY_ID)
      .map((e) => String((e.data as { action?: unknown }).action));
  /** The overlay census events stored since the test began (the file shares one server). */
  let before = 0;
  const overlayActions = async (): Promise<string[]> => (await allActions()).slice(before);
  /** The overlay's own state (`data-overlay-state`): its module loads after the boot, so the test waits for it. */
  const overlayState = (page: Page) => page.evaluate(() => document.querySelector('.sf-popup-overlay')?.getAttribute('data-overlay-state') ?? null);

  test('OVL-1 appears after its delay over the viewport, closes with Escape, stays closed on reload; render and close are stored', async () => {
    before = (await allActions()).length;
    const v = await tier.newVisitor();
    const { page } = v;
    // Installed a second early: pauseAt must lie ahead of the running fake clock, and on a busy
    // machine a millisecond can pass between the two calls.
    await page.clock.install({ time: START - 1000 });
    await page.clock.pauseAt(START);
    expect(await visit(page, JOURNAL)).toBe(200);
    const overlay = page.locator('.sf-popup-overlay');
    // The delay starts when the overlay's module has started (on the paused clock: at START).
    await expect.poll(() => overlayState(page)).toBe('waiting');
    expect(await overlay.isHidden()).toBe(true);
    // The boot's own requests must be answered before the clock jumps, or their timeouts
    // (2.5 s for beacons, 30 s for the performance settings) would fire on the fake clock.
    await page.waitForLoadState('networkidle');

    await page.clock.runFor(DELAY_MS - 1);
    await settle(page);
    expect(await overlay.isHidden()).toBe(true);
    await page.clock.runFor(1);
    await expect.poll(() => dialog(page).isVisible()).toBe(true);
    await v.screenshot('overlay-1-shown');
    expect(await dialog(page).getAttribute('aria-modal')).toBe('true');
    // Over the viewport: the backdrop covers the whole window, the page behind cannot scroll.
    const box = await overlay.boundingBox();
    expect(box).toEqual({ x: 0, y: 0, width: 1100, height: 900 });
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).toBe('hidden');
    // Focus is in the dialog (its email field), and Tab keeps it there.
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest('[role="dialog"]') !== null)).toBe(true);
    for (let i = 0; i < 4; i += 1) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.closest('.sf-popup-overlay') !== null)).toBe(true);
    }

    await page.keyboard.press('Escape');
    await expect.poll(() => overlay.isHidden()).toBe(true);
    await v.screenshot('overlay-2-closed');
    await expect.poll(overlayActions).toEqual(['render', 'close']);

    await page.reload({ waitUntil: 'load' });
    await expect.poll(() => overlayState(page)).toBe('skipped');
    await page.waitForLoadState('networkidle');
    await page.clock.runFor(DELAY_MS);
    await settle(page);
    expect(await page.locator('.sf-popup-overlay').isHidden()).toBe(true);
    expect(await overlayActions()).toEqual(['render', 'close']);
  });

  test('OVL-2 the close button closes it; its newsletter submit keeps it away after a reload', async () => {
    before = (await allActions()).length;
    const v = await tier.newVisitor();
    const { page } = v;
    // Installed a second early: pauseAt must lie ahead of the running fake clock, and on a busy
    // machine a millisecond can pass between the two calls.
    await page.clock.install({ time: START - 1000 });
    await page.clock.pauseAt(START);
    expect(await visit(page, JOURNAL)).toBe(200);
    await expect.poll(() => overlayState(page)).toBe('waiting');
    await page.waitForLoadState('networkidle');
    await page.clock.runFor(DELAY_MS);
    await expect.poll(() => dialog(page).isVisible()).toBe(true);

    // The form's own work (form key, save) runs on real time from here.
    await page.clock.resume();
    await dialog(page).getByLabel('Email').fill('reader@example.com');
    await dialog(page).getByRole('button', { name: 'Sign Up' }).click();
    await expect.poll(() => dialog(page).locator('.sf-form-submission').isVisible()).toBe(true);
    await v.screenshot('overlay-3-submitted');
    await expect.poll(overlayActions).toEqual(['render', 'submit']);
    await dialog(page).getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => page.locator('.sf-popup-overlay').isHidden()).toBe(true);
    await expect.poll(overlayActions).toEqual(['render', 'submit', 'close']);

    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
    await page.reload({ waitUntil: 'load' });
    await expect.poll(() => overlayState(page)).toBe('skipped');
    await page.waitForLoadState('networkidle');
    await page.clock.runFor(DELAY_MS);
    await settle(page);
    expect(await page.locator('.sf-popup-overlay').isHidden()).toBe(true);
    expect(await overlayActions()).toEqual(['render', 'submit', 'close']);
  });
});
