// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { createPage, type Page } from '../test-support/page.ts';
import { REFRESH_MS } from './relative-times.ts';

const HOUR = 3_600_000;
const NOW = Date.parse('2026-03-02T10:00:00Z');

let page: Page;
beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(NOW);
});
afterEach(() => {
  page?.cleanup();
  vi.useRealTimers();
});

/** A comment as the demo's partial writes it: `{addedOn|timesince}`, rendered when the page was cached. */
const comment = (addedOn: number, text: string) => `<p class="demo-comment-meta"><span class="demo-comment-when"><span class="timesince" data-date="${addedOn}">${text}</span></span></p>`;
const texts = () => [...document.querySelectorAll('.timesince')].map((el) => el.textContent);

describe('relative times of timesince spans (#18, templates seed §9)', () => {
  test('a page rendered earlier shows the visitor the time elapsed now, and keeps it current', async () => {
    // Rendered (and cached) when both comments were fresh.
    page = createPage({ body: comment(NOW - 2 * HOUR, 'less than a minute ago') + comment(NOW - 9 * 24 * HOUR, 'about a week ago') });
    await page.boot();
    expect(texts()).toEqual(['about 2 hours ago', 'about a week ago']);
    await page.advance(REFRESH_MS * 60 - 1);
    expect(texts()).toEqual(['about 2 hours ago', 'about a week ago']);
    await page.advance(1);
    expect(texts()).toEqual(['about 3 hours ago', 'about a week ago']);
  });

  test('an unreadable date and text inside an island are left alone', async () => {
    page = createPage({ body: '<span class="timesince" data-date="soon">kept</span><div data-hydrated="true"><span class="timesince" data-date="0">island text</span></div>' });
    await page.boot();
    expect(texts()).toEqual(['kept', 'island text']);
  });
});
