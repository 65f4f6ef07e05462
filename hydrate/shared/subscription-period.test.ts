import { describe, expect, test } from 'vitest';
import { PERIODS_PER_YEAR, SUBSCRIPTION_UNAVAILABLE, subscriptionPeriod, subscriptionPriceText } from './subscription-period.ts';

const plan = (value: unknown, unit: unknown, numBillingCycles: unknown = 0) => ({ billingPeriod: { value, unit }, numBillingCycles });

describe('subscription periods (seed §3, §9)', () => {
  test('periods per year', () => {
    expect(PERIODS_PER_YEAR).toEqual({ WEEK: 52, MONTH: 12, YEAR: 1 });
  });

  test.each([
    [plan(1, 'WEEK'), {}, '$10.00 every week'],
    [plan(2, 'WEEK'), {}, '$10.00 every 2 weeks'],
    [plan(1, 'MONTH'), { variedPrices: true }, 'from $10.00 every month'],
    [plan(1, 'MONTH', 3), {}, '$10.00 every month for 3 months'],
    [plan(1, 'MONTH', 12), {}, '$10.00 every month for 1 year'],
    [plan(2, 'WEEK', 26), {}, '$10.00 every 2 weeks for 1 year'],
    [plan(2, 'MONTH', 12), {}, '$10.00 every 2 months for 2 years'],
    [plan(1, 'WEEK', 1), {}, '$10.00 every week for 1 week'],
    [plan(1, 'YEAR', 3), {}, '$10.00 every year for 3 years'],
    [plan('2', 'MONTH', '0'), {}, '$10.00 every 2 months'],
  ])('%j %j', (input, options, text) => {
    expect(subscriptionPriceText(input, '$10.00', options)).toBe(text);
  });

  test('0 billing cycles is indefinite', () => {
    expect(subscriptionPeriod(plan(1, 'MONTH', 0))).toMatchObject({ ok: true, indefinite: true, duration: 0 });
    expect(subscriptionPeriod(plan(1, 'MONTH', 2))).toMatchObject({ ok: true, indefinite: false, duration: 2, durationUnit: 'MONTH' });
  });

  test.each([
    [null],
    [{}],
    [plan(1, 'DAY')],
    [plan(0, 'WEEK')],
    [plan(1.5, 'WEEK')],
    [plan(1, 'WEEK', -1)],
    [plan(1, 'week')],
  ])('%j is Unavailable', (input) => {
    expect(SUBSCRIPTION_UNAVAILABLE).toBe('Unavailable');
    expect(subscriptionPriceText(input, '$1.00')).toBe('Unavailable');
  });
});
