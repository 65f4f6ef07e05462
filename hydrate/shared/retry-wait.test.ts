import { describe, expect, it } from 'vitest';
import { couponsLimitedText } from './checkout-text.ts';
import { resetRequestsLimitedText, tryAgainInText } from './retry-wait.ts';

describe('the wait of a 429 in words', () => {
  it('is whole minutes, rounded up, at least one', () => {
    expect([0, 1, 59, 60, 61, 3600, Number.NaN].map(tryAgainInText)).toEqual([
      'Please try again in 1 minute.',
      'Please try again in 1 minute.',
      'Please try again in 1 minute.',
      'Please try again in 1 minute.',
      'Please try again in 2 minutes.',
      'Please try again in 60 minutes.',
      'Please try again in 1 minute.',
    ]);
  });

  it('the password reset and the coupon limits say it in the same words', () => {
    expect(resetRequestsLimitedText(2520)).toBe('Too many password reset requests. Please try again in 42 minutes.');
    expect(couponsLimitedText(900)).toBe('Too many coupon codes were tried. Please try again in 15 minutes.');
  });
});
