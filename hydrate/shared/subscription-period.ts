/**
 * Subscription period texts (templates seed §3, §4, §8, §9): `$10.00 every 2 weeks for
 * 1 year`. Units and their count per year are the seed's; the English pattern is the one
 * PLUGINS.md gives for `product-price`. Pure.
 */

export const PERIODS_PER_YEAR = { WEEK: 52, MONTH: 12, YEAR: 1 } as const;
export type BillingUnit = keyof typeof PERIODS_PER_YEAR;
export const BILLING_UNITS = Object.keys(PERIODS_PER_YEAR) as BillingUnit[];

/** Seed §8: the text when the period and unit combination is not handled. */
export const SUBSCRIPTION_UNAVAILABLE = 'Unavailable';

export interface SubscriptionPlanInput {
  billingPeriod?: { value?: unknown; unit?: unknown } | null;
  numBillingCycles?: unknown;
}

export type SubscriptionPeriod =
  | {
      ok: true;
      value: number;
      unit: BillingUnit;
      /** Seed §4: 0 billing cycles means the subscription runs indefinitely. */
      indefinite: boolean;
      /** value × cycles, shown in years when it divides evenly into years. */
      duration: number;
      durationUnit: BillingUnit;
    }
  | { ok: false };

function positiveInteger(value: unknown): number | null {
  const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) && number > 0 ? number : null;
}

export function subscriptionPeriod(plan: SubscriptionPlanInput | null | undefined): SubscriptionPeriod {
  const unit = plan?.billingPeriod?.unit;
  const value = positiveInteger(plan?.billingPeriod?.value);
  if (value === null || typeof unit !== 'string' || !(BILLING_UNITS as string[]).includes(unit)) return { ok: false };
  const cyclesInput = plan?.numBillingCycles ?? 0;
  const cycles = cyclesInput === 0 || cyclesInput === '0' ? 0 : positiveInteger(cyclesInput);
  if (cycles === null) return { ok: false };
  const billingUnit = unit as BillingUnit;
  let duration = value * cycles;
  let durationUnit = billingUnit;
  const perYear = PERIODS_PER_YEAR[billingUnit];
  if (duration > 0 && perYear > 1 && duration % perYear === 0) {
    duration /= perYear;
    durationUnit = 'YEAR';
  }
  return { ok: true, value, unit: billingUnit, indefinite: cycles === 0, duration, durationUnit };
}

function unitText(unit: BillingUnit, plural: boolean): string {
  return unit.toLowerCase() + (plural ? 's' : '');
}

/**
 * `[from ]{price} every [{value} ]{unit}[s][ for {duration} {durationUnit}[s]]`, or
 * `Unavailable`. `from ` only when the product's variants have different prices.
 */
export function subscriptionPriceText(plan: SubscriptionPlanInput | null | undefined, price: string, options: { variedPrices?: boolean } = {}): string {
  const period = subscriptionPeriod(plan);
  if (!period.ok) return SUBSCRIPTION_UNAVAILABLE;
  let text = `${options.variedPrices ? 'from ' : ''}${price} every ${period.value > 1 ? `${period.value} ` : ''}${unitText(period.unit, period.value > 1)}`;
  if (!period.indefinite) text += ` for ${period.duration} ${unitText(period.durationUnit, period.duration !== 1)}`;
  return text;
}
