// Page-level helpers shared by the browser scenarios.
import type { Page } from 'playwright-core';
import { FORMATTER_ISLANDS, ISLAND_ATTR } from '../../../hydrate/protocol/markers.ts';

/** Every island container kind: renderer-made (`data-island`) and formatter-made. */
const CONTAINERS = [`[${ISLAND_ATTR}]`, ...Object.values(FORMATTER_ISLANDS)].join(', ');

/**
 * Opens `path` and waits until the boot is over: every island container carries
 * `data-hydrated="true"` and the cart store has added `sf-cart-ready` to `<html>`.
 * Returns the HTTP status of the page.
 */
export async function visit(page: Page, path: string): Promise<number> {
  const response = await page.goto(path, { waitUntil: 'load' });
  await waitForBoot(page);
  return response?.status() ?? 0;
}

export async function waitForBoot(page: Page): Promise<void> {
  await page.waitForFunction(
    (selector) => {
      const containers = [...document.querySelectorAll(selector)];
      return document.documentElement.classList.contains('sf-cart-ready') && containers.every((c) => c.getAttribute('data-hydrated') === 'true');
    },
    CONTAINERS,
    { timeout: 15_000 },
  );
}

/** The page's `sf-context` block (A0.1). */
export function pageContext(page: Page): Promise<Record<string, unknown>> {
  return page.evaluate(() => JSON.parse(document.getElementById('sf-context')?.textContent ?? 'null') as Record<string, unknown>);
}

export interface TimedText {
  text: string;
  at: number;
}

/**
 * Records every text the element matching `selector` shows, with `performance.now()` times,
 * from now on. A MutationObserver sees each change as it happens, which polling from the
 * test process could miss.
 */
export async function recordTexts(page: Page, selector: string): Promise<() => Promise<TimedText[]>> {
  const key = `__texts_${Math.random().toString(36).slice(2)}`;
  await page.evaluate(
    ({ selector, key }) => {
      const element = document.querySelector(selector);
      if (!element) throw new Error(`no element matches ${selector}`);
      const seen: Array<{ text: string; at: number }> = [{ text: element.textContent ?? '', at: performance.now() }];
      (window as unknown as Record<string, unknown>)[key] = seen;
      new MutationObserver(() => {
        const text = element.textContent ?? '';
        if (seen[seen.length - 1]!.text !== text) seen.push({ text, at: performance.now() });
      }).observe(element, { childList: true, characterData: true, subtree: true });
    },
    { selector, key },
  );
  return () => page.evaluate((key) => (window as unknown as Record<string, TimedText[]>)[key]!, key);
}

/**
 * Starts recording, in the page, when the next `click` on `selector` happens. The returned
 * function gives its time on the `performance.now()` clock (null before any click).
 */
export async function recordClick(page: Page, selector: string): Promise<() => Promise<number | null>> {
  const key = `__click_${Math.random().toString(36).slice(2)}`;
  await page.evaluate(
    ({ selector, key }) => {
      const store = window as unknown as Record<string, number | null>;
      store[key] = null;
      document.addEventListener(
        'click',
        (event) => {
          if (store[key] === null && (event.target as Element | null)?.closest(selector)) store[key] = event.timeStamp;
        },
        true,
      );
    },
    { selector, key },
  );
  return () => page.evaluate((key) => (window as unknown as Record<string, number | null>)[key] ?? null, key);
}

/** When the page finished receiving the last response for a URL containing `part`, on the `performance.now()` clock. */
export function responseEnd(page: Page, part: string): Promise<number | null> {
  return page.evaluate((part) => {
    const entries = performance.getEntriesByType('resource').filter((e) => e.name.includes(part));
    return entries.length ? (entries[entries.length - 1] as PerformanceResourceTiming).responseEnd : null;
  }, part);
}
