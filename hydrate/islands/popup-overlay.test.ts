// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { DIALOG_OPEN_CLASS } from '../runtime/dialog.ts';
import { click, createPage, press, type Page } from '../test-support/page.ts';
import { OVERLAY_KEYS } from './popup-overlay.ts';

let page: Page;
beforeEach(() => {
  vi.useFakeTimers();
  localStorage.clear();
});
afterEach(() => {
  page?.cleanup();
  vi.useRealTimers();
});

/** The renderer's `popup-overlay` markup (renderer/site/builtin-templates.ts) around a small form. */
function overlayHtml(version = '1', delayMs = 3000): string {
  return (
    `<a href="/elsewhere" class="page-link">page</a>` +
    `<div class="sf-popup-overlay" data-overlay-id="welcome" data-overlay-version="${version}" data-overlay-delay-ms="${delayMs}" role="dialog" aria-modal="true" aria-label="Stay in touch" hidden>` +
    `<div class="sf-popup-overlay-content"><h2 class="sf-popup-overlay-title">Stay in touch</h2>` +
    `<form class="news"><input type="email" name="email"><button type="button" class="send">Sign Up</button>` +
    `<div class="sf-form-submission" hidden>Thank you!</div></form>` +
    `<a href="/about" class="more">More</a>` +
    `<button type="button" class="sf-popup-overlay-close" aria-label="Close">×</button></div></div>`
  );
}

async function open(version = '1', delayMs = 3000) {
  page = createPage({ body: overlayHtml(version, delayMs) });
  page.fetch.on('POST', '/api/census/overlay', { status: 204 });
  await page.boot();
}
const overlay = () => document.querySelector<HTMLElement>('.sf-popup-overlay')!;
const censusActions = () => page.fetch.callsTo('/api/census/overlay', 'POST').map((c) => (c.json as { action: string }).action);

describe('popup overlay (page type 104, #18)', () => {
  test('shows after its delay as a modal dialog, focus inside, and sends the render census', async () => {
    await open();
    expect(overlay().getAttribute('data-overlay-state')).toBe('waiting');
    await page.advance(2999);
    expect(overlay().hidden).toBe(true);
    expect(censusActions()).toEqual([]);
    await page.advance(1);
    expect(overlay().hidden).toBe(false);
    expect(overlay().getAttribute('role')).toBe('dialog');
    expect(overlay().getAttribute('aria-modal')).toBe('true');
    expect(document.documentElement.classList.contains(DIALOG_OPEN_CLASS)).toBe(true);
    expect(document.activeElement).toBe(document.querySelector('input[name="email"]'));
    const body = page.fetch.callsTo('/api/census/overlay')[0]!.json as Record<string, unknown>;
    // visitorCookie is the ss_cvr value the analytics boot just wrote (A12.7).
    expect(body).toEqual({
      overlayId: 'welcome',
      action: 'render',
      visitorCookie: /ss_cvr=([^;]*)/.exec(document.cookie)?.[1] ?? '',
      fields: { website_id: expect.any(String), page_id: expect.any(String), logged_in: false },
    });
  });

  test('Escape closes it, frees the page and stores date-closed with the version', async () => {
    await open('3');
    await page.advance(3000);
    await page.act(() => press(document.activeElement!, 'Escape'));
    expect(overlay().hidden).toBe(true);
    expect(document.documentElement.classList.contains(DIALOG_OPEN_CLASS)).toBe(false);
    expect(censusActions()).toEqual(['render', 'close']);
    expect(JSON.parse(localStorage.getItem(`sf.data.${OVERLAY_KEYS.version}`)!).value).toBe('3');
    expect(localStorage.getItem(`sf.data.${OVERLAY_KEYS.dateClosed}`)).not.toBeNull();
  });

  test('the close button and the backdrop close it; a link inside sends the click census', async () => {
    await open();
    await page.advance(3000);
    await page.act(() => click(document.querySelector('.more')!));
    expect(overlay().hidden).toBe(false);
    await page.act(() => click(document.querySelector('.sf-popup-overlay-close')!));
    expect(overlay().hidden).toBe(true);
    expect(censusActions()).toEqual(['render', 'click', 'close']);
    page.cleanup();

    localStorage.clear();
    await open();
    await page.advance(3000);
    await page.act(() => click(overlay()));
    expect(overlay().hidden).toBe(true);
  });

  test('Tab stays inside the dialog', async () => {
    await open();
    await page.advance(3000);
    const close = document.querySelector<HTMLElement>('.sf-popup-overlay-close')!;
    close.focus();
    await page.act(() => press(close, 'Tab'));
    expect(document.activeElement).toBe(document.querySelector('input[name="email"]'));
    await page.act(() => press(document.activeElement!, 'Tab', { shiftKey: true }));
    expect(document.activeElement).toBe(close);
  });

  test('once closed it does not come back at the same version, and does at a new one', async () => {
    await open('1');
    await page.advance(3000);
    await page.act(() => press(document.activeElement!, 'Escape'));
    page.cleanup();

    await open('1');
    await page.advance(60_000);
    expect(overlay().hidden).toBe(true);
    expect(overlay().getAttribute('data-overlay-state')).toBe('skipped');
    page.cleanup();

    await open('2');
    await page.advance(3000);
    expect(overlay().hidden).toBe(false);
  });

  test('never again after a submit, whatever the version', async () => {
    await open('1');
    await page.advance(3000);
    await page.act(() => document.querySelector('.sf-form-submission')!.removeAttribute('hidden'));
    await page.advance(0);
    expect(censusActions()).toEqual(['render', 'submit']);
    expect(overlay().hidden).toBe(false); // the thank-you stays readable until the visitor closes it
    page.cleanup();

    await open('2');
    await page.advance(60_000);
    expect(overlay().hidden).toBe(true);
    expect(censusActions()).toEqual([]);
  });

  test('a page without an overlay loads no overlay code and sends nothing', async () => {
    page = createPage({ body: '<p>plain</p>' });
    await page.boot();
    await page.advance(60_000);
    expect(page.fetch.callsTo('/api/census/overlay')).toEqual([]);
  });
});
