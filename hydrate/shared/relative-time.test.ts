import { describe, expect, test } from 'vitest';
import { LESS_THAN_A_MINUTE, relativeTimeText } from './relative-time.ts';

const NOW = Date.UTC(2026, 0, 15, 12);
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

describe('relative time (seed §9)', () => {
  test.each([
    [0, 'less than a minute ago'],
    [59_999, 'less than a minute ago'],
    [-5 * DAY, 'less than a minute ago'],
    [MIN, 'about a minute ago'],
    [59 * MIN, 'about 59 minutes ago'],
    [HOUR, 'about an hour ago'],
    [23 * HOUR + 59 * MIN, 'about 23 hours ago'],
    [DAY, 'about a day ago'],
    [6 * DAY, 'about 6 days ago'],
    [7 * DAY, 'about a week ago'],
    [29 * DAY, 'about 4 weeks ago'],
    [30 * DAY, 'about a month ago'],
    [364 * DAY, 'about 12 months ago'],
    [365 * DAY, 'about a year ago'],
    [3 * 365 * DAY + 100 * DAY, 'about 3 years ago'],
  ])('%d ms ago reads %j', (elapsed, text) => {
    expect(relativeTimeText(NOW - elapsed, NOW)).toBe(text);
  });

  test('the seed text for a moment ago', () => {
    expect(LESS_THAN_A_MINUTE).toBe('less than a minute ago');
    expect(relativeTimeText(Number.NaN, NOW)).toBe(LESS_THAN_A_MINUTE);
  });
});
