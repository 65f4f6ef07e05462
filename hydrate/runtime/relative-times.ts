import { relativeTimeText } from '../shared/relative-time.ts';

/**
 * The `timesince` formatter writes `<span class="timesince" data-date="{epoch ms}">about an
 * hour ago</span>` (PLUGINS `timesince`), true when the page was rendered. A page read from a
 * cache, or left open, would go on saying "less than a minute ago"; the browser rewrites these
 * texts from `data-date` with the seed's relative-time rule (shared/relative-time.ts, the
 * formatter's own wording) on boot and once a minute.
 */
export const TIMESINCE_SELECTOR = '.timesince[data-date]';
export const REFRESH_MS = 60_000;

/** Rewrites every relative time under `root` that no island owns; returns how many it saw. */
export function refreshRelativeTimes(root: ParentNode, now: number): number {
  let seen = 0;
  for (const el of root.querySelectorAll<HTMLElement>(TIMESINCE_SELECTOR)) {
    // Text inside a hydrated island belongs to React.
    if (el.closest('[data-hydrated]')) continue;
    const date = Number(el.getAttribute('data-date'));
    if (!Number.isFinite(date)) continue;
    seen += 1;
    const text = relativeTimeText(date, now);
    if (el.textContent !== text) el.textContent = text;
  }
  return seen;
}

/** Starts the refresh on `doc`; returns a function that stops it. Pages without any cost one query. */
export function startRelativeTimes(doc: Document, now: () => number = () => Date.now()): () => void {
  if (refreshRelativeTimes(doc, now()) === 0) return () => undefined;
  const timer = setInterval(() => refreshRelativeTimes(doc, now()), REFRESH_MS);
  return () => clearInterval(timer);
}
