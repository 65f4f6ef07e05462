/**
 * Relative-time texts ("about an hour ago") of templates seed §9, with the seed's unit
 * lengths: a week is 7 days, a month 30, a year 365. Pure.
 */

export const DAYS_PER_WEEK = 7;
export const DAYS_PER_MONTH = 30;
export const DAYS_PER_YEAR = 365;
export const LESS_THAN_A_MINUTE = 'less than a minute ago';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

type Unit = 'year' | 'month' | 'week' | 'day' | 'hour' | 'minute';

/** `about a year ago` / `about 3 years ago`; the hour takes `an`. */
export function aboutText(count: number, unit: Unit): string {
  if (count === 1) return `about ${unit === 'hour' ? 'an' : 'a'} ${unit} ago`;
  return `about ${count} ${unit}s ago`;
}

/** The largest whole unit of `now - then`; future times read as just now. */
export function relativeTimeText(then: number, now: number): string {
  const elapsed = now - then;
  if (!Number.isFinite(elapsed) || elapsed < MINUTE_MS) return LESS_THAN_A_MINUTE;
  const days = Math.floor(elapsed / DAY_MS);
  if (days >= DAYS_PER_YEAR) return aboutText(Math.floor(days / DAYS_PER_YEAR), 'year');
  if (days >= DAYS_PER_MONTH) return aboutText(Math.floor(days / DAYS_PER_MONTH), 'month');
  if (days >= DAYS_PER_WEEK) return aboutText(Math.floor(days / DAYS_PER_WEEK), 'week');
  if (days >= 1) return aboutText(days, 'day');
  const hours = Math.floor(elapsed / HOUR_MS);
  if (hours >= 1) return aboutText(hours, 'hour');
  return aboutText(Math.floor(elapsed / MINUTE_MS), 'minute');
}
