// Keyboard focus as a visitor meets it, shared by the browser scenarios that walk a form or a
// whole page by Tab: where focus is, whether it shows a ring, lies in the window and is on top
// (not under a sticky header or another layer).
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

/** The focused control as a visitor meets it: its id (else its name), a ring, in the window, on top. */
export interface Focused {
  /** Top and bottom of its box, and the window's height (for the failure message). */
  box?: number[];
  id: string;
  ring: boolean;
  inViewport: boolean;
  onTop: boolean;
}

export const focusedNow = (page: Page): Promise<Focused> =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { box: [], id: 'body', ring: false, inViewport: false, onTop: false };
    const shows = (node: Element | null) => {
      if (!node) return false;
      const s = getComputedStyle(node);
      return (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0) || s.boxShadow !== 'none';
    };
    const r = el.getBoundingClientRect();
    // The middle of its part inside the window (a tall textarea may run past the bottom edge).
    const hit = document.elementFromPoint(r.left + r.width / 2, (Math.max(r.top, 0) + Math.min(r.bottom, innerHeight)) / 2);
    const labelFor = el.id ? document.querySelector(`label[for="${CSS.escape(el.id)}"]`) : null;
    return {
      box: [Math.round(r.top), Math.round(r.bottom), innerHeight],
      id: el.id || el.getAttribute('name') || el.getAttribute('aria-label') || (el.textContent ?? '').trim(),
      ring: shows(el) || shows(labelFor) || shows(el.closest('label')),
      // Whole, or for a tall box (a textarea the browser scrolls to no further) its top 24 px, where typing starts.
      inViewport: r.width > 0 && r.height > 0 && r.top >= 0 && r.left >= 0 && r.right <= innerWidth + 1 && (r.bottom <= innerHeight + 1 || innerHeight - r.top >= 24),
      onTop: hit !== null && (el.contains(hit) || hit.contains(el) || (labelFor?.contains(hit) ?? false) || (el.closest('label')?.contains(hit) ?? false)),
    };
  });

/** The controls of `root` Tab should reach, in document order (visible, enabled, not taken out of the order). */
export const tabbableIn = (root: Locator): Promise<string[]> =>
  root.evaluate((el) =>
    // A <details> element's own <summary> is a Tab stop too (the product page's panels).
    [...el.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea, details > summary:first-of-type, [tabindex]')]
      .filter((c) => !(c as HTMLInputElement).disabled && c.tabIndex >= 0 && (c as HTMLInputElement).type !== 'hidden')
      .filter((c) => c.getClientRects().length > 0 && getComputedStyle(c).visibility !== 'hidden')
      // One stop per radio group: the checked one, else the first.
      .filter((c, _i, all) => {
        const radio = c as HTMLInputElement;
        if (radio.type !== 'radio') return true;
        const group = all.filter((o) => (o as HTMLInputElement).type === 'radio' && (o as HTMLInputElement).name === radio.name) as HTMLInputElement[];
        return (group.find((o) => o.checked) ?? group[0]) === radio;
      })
      .map((c) => c.id || c.getAttribute('name') || c.getAttribute('aria-label') || (c.textContent ?? '').trim()),
  );

/**
 * Tab from just before `root`'s first control to its last, as a keyboard visitor does: each stop
 * shows a ring, lies in the window and is not covered; the stops are the root's controls in order.
 */
export async function walk(page: Page, root: Locator, label: string): Promise<void> {
  const expected = await tabbableIn(root);
  expect(expected.length, `${label}: controls to reach`).toBeGreaterThan(0);
  await root.evaluate((el) => {
    // Focus a stand-in just before the form, so the first Tab lands on its first control.
    const before = document.createElement('span');
    before.tabIndex = -1;
    before.className = 'sf-test-before';
    el.before(before);
    before.focus();
  });
  const stops: string[] = [];
  for (let i = 0; i < expected.length; i++) {
    await page.keyboard.press('Tab');
    const now = await focusedNow(page);
    expect(now, `${label}: Tab ${i + 1} (${stops.join(' | ')}) ${JSON.stringify(now)}`).toMatchObject({ ring: true, inViewport: true, onTop: true });
    stops.push(now.id);
  }
  await page.evaluate(() => document.querySelector('.sf-test-before')?.remove());
  expect(stops, `${label}: Tab order`).toEqual(expected);
}
