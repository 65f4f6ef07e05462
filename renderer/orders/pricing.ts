import { formatMoney } from '../pages/money.ts';
import type { CommerceSettings, CouponRule, ProductType, ShippingAddress, ShippingRule, TaxRule } from '../store/types.ts';

// Checkout totals from the store's rules (catalog.json `site.settings.commerce`): shipping
// options priced for the address, the coupon, the taxes of the address and the minimum
// subtotal. Pure: the same lines, rules, address and coupons always give the same totals, so
// the quote the visitor saw and the order placed agree. Names follow the seed's cart entity.

/** One cart line as pricing sees it (the catalogue's price at the time the line was set). */
export interface PricedLine {
  itemId: string;
  sku: string;
  productName: string;
  variantLabel: string;
  quantity: number;
  unitPriceCents: number;
  productType: ProductType;
}

export interface ShippingOptionView {
  id: string;
  name: string;
  costCents: number;
  description?: string;
}

export interface ValidCoupon {
  code: string;
  description: string;
  discountCents: number;
}

export interface InvalidCoupon {
  code: string;
  reason: string;
}

export interface PricingRequest {
  lines: readonly PricedLine[];
  rules: CommerceSettings;
  currency: string;
  /** Where the order ships; null before the visitor gave one (no tax, every option listed). */
  shippingLocation: ShippingAddress | null;
  shippingOptionId?: string | null;
  couponCodes?: readonly string[];
  now: number;
}

export interface Totals {
  subtotalCents: number;
  requiresShipping: boolean;
  hasDigital: boolean;
  purelyDigital: boolean;
  shippingLocation: ShippingAddress | null;
  shippingOptions: ShippingOptionView[];
  selectedShippingOption: string | null;
  /** A shipping option of the store was asked for that does not serve this address. */
  shippingOptionUnavailable: boolean;
  /** The store has shipping options and none serves this address: it does not ship there (placing is refused). */
  noShippingToAddress: boolean;
  applicableTaxRules: { name: string; ratePercent: number }[];
  taxCents: number;
  shippingCostCents: number;
  coupons: string[];
  validCoupons: ValidCoupon[];
  invalidCoupons: InvalidCoupon[];
  discountCents: number;
  grandTotalCents: number;
  minimumSubtotalCents: number;
  belowMinimum: boolean;
  minimumMessage: string | null;
}

export const COUPON_REASONS = {
  unknown: 'This coupon code is not valid.',
  expired: 'This coupon has expired.',
  oneOnly: 'Only one coupon can be used per order.',
  belowMinimum: (amount: string) => `This coupon needs an order subtotal of ${amount} or more.`,
};

/**
 * The minimum order subtotal: the store's rule (catalog.json `site.settings.commerce`), the
 * one source the cart page and checkout both read (site.json's old key is folded into it by
 * `siteSeed`).
 */
export function minimumOrderSubtotal(rules: CommerceSettings | undefined): number {
  return Math.max(0, rules?.minimumOrderSubtotalCents ?? 0);
}

/** The seed's cart text (D11), with the minimum as money. */
export function minimumSubtotalMessage(minimumCents: number, currency: string): string {
  return `To check out, your order subtotal must be ${formatMoney(minimumCents, currency)} or more.`;
}

/** Codes as the visitor typed them, trimmed, upper-cased, duplicates dropped (order kept). */
export function normaliseCouponCodes(codes: readonly string[]): string[] {
  const seen = new Set<string>();
  for (const code of codes) {
    const clean = code.trim().toUpperCase();
    if (clean !== '') seen.add(clean);
  }
  return [...seen];
}

function servesAddress(rule: ShippingRule, address: ShippingAddress | null): boolean {
  if (!rule.countries || rule.countries.length === 0 || address === null) return true;
  return rule.countries.includes(address.country.toUpperCase());
}

function taxApplies(rule: TaxRule, address: ShippingAddress | null): boolean {
  if (address === null || rule.country.toUpperCase() !== address.country.toUpperCase()) return false;
  return !rule.regions || rule.regions.length === 0 || rule.regions.some((region) => region.toUpperCase() === address.region.trim().toUpperCase());
}

/** `base × percent / 100`, rounded half up, in integer arithmetic (percent has at most 3 decimals). */
export function percentOf(base: number, percent: number): number {
  const milli = Math.round(percent * 1000);
  return Math.floor((base * milli + 50_000) / 100_000);
}

function couponDiscount(rule: CouponRule, subtotal: number): number {
  const raw = rule.percentOff !== undefined ? percentOf(subtotal, rule.percentOff) : (rule.amountOffCents ?? 0);
  return Math.max(0, Math.min(subtotal, raw));
}

/** Whether the store has a coupon of this (normalised) code, whatever its conditions. */
export function isKnownCoupon(rules: readonly CouponRule[] | undefined, code: string): boolean {
  return (rules ?? []).some((candidate) => candidate.code.toUpperCase() === code);
}

function priceCoupons(codes: string[], rules: readonly CouponRule[], subtotal: number, now: number, currency: string) {
  const valid: ValidCoupon[] = [];
  const invalid: InvalidCoupon[] = [];
  for (const code of codes) {
    const rule = rules.find((candidate) => candidate.code.toUpperCase() === code);
    if (!rule) invalid.push({ code, reason: COUPON_REASONS.unknown });
    else if (rule.expiresOn !== undefined && now >= rule.expiresOn) invalid.push({ code, reason: COUPON_REASONS.expired });
    else if (rule.minimumSubtotalCents !== undefined && subtotal < rule.minimumSubtotalCents) {
      invalid.push({ code, reason: COUPON_REASONS.belowMinimum(formatMoney(rule.minimumSubtotalCents, currency)) });
    } else if (valid.length > 0) invalid.push({ code, reason: COUPON_REASONS.oneOnly });
    else valid.push({ code, description: rule.description, discountCents: couponDiscount(rule, subtotal) });
  }
  return { valid, invalid, discount: valid.reduce((sum, coupon) => sum + coupon.discountCents, 0) };
}

/**
 * The totals of a checkout. Shipping is offered only when a line is physical; an option is
 * free once the discounted subtotal reaches its `freeOverCents`; tax is each rule of the
 * address's country (and region) on the discounted subtotal (plus shipping when the rule
 * says so). grand = subtotal − discount + shipping + tax, never negative (a discount never
 * exceeds the subtotal).
 */
export function priceCheckout(request: PricingRequest): Totals {
  const { lines, rules, currency, shippingLocation, now } = request;
  const subtotalCents = lines.reduce((sum, line) => sum + line.unitPriceCents * line.quantity, 0);
  const requiresShipping = lines.some((line) => line.productType === 1);
  const hasDigital = lines.some((line) => line.productType === 2);
  const purelyDigital = lines.length > 0 && lines.every((line) => line.productType === 2 || line.productType === 4);

  const coupons = normaliseCouponCodes(request.couponCodes ?? []);
  const priced = priceCoupons(coupons, rules.coupons ?? [], subtotalCents, now, currency);
  const discountCents = priced.discount;
  const discounted = subtotalCents - discountCents;

  const shippingOptions: ShippingOptionView[] = requiresShipping
    ? (rules.shippingOptions ?? [])
        .filter((rule) => servesAddress(rule, shippingLocation))
        .map((rule) => ({
          id: rule.id,
          name: rule.name,
          costCents: rule.freeOverCents !== undefined && discounted >= rule.freeOverCents ? 0 : Math.max(0, rule.costCents),
          ...(rule.description ? { description: rule.description } : {}),
        }))
    : [];
  const asked = request.shippingOptionId ?? null;
  const chosen = asked === null ? shippingOptions[0] : shippingOptions.find((option) => option.id === asked);
  const shippingCostCents = chosen?.costCents ?? 0;

  // No address yet (or a digital order without one): no tax rule applies.
  const applicable = (rules.taxRules ?? []).filter((rule) => taxApplies(rule, shippingLocation));
  const taxCents = applicable.reduce(
    (sum, rule) => sum + percentOf(discounted + (rule.appliesToShipping ? shippingCostCents : 0), rule.ratePercent),
    0,
  );

  const minimumSubtotalCents = minimumOrderSubtotal(rules);
  const belowMinimum = lines.length > 0 && subtotalCents < minimumSubtotalCents;
  return {
    subtotalCents,
    requiresShipping,
    hasDigital,
    purelyDigital,
    shippingLocation,
    shippingOptions,
    selectedShippingOption: chosen?.id ?? null,
    shippingOptionUnavailable: asked !== null && requiresShipping && chosen === undefined && (rules.shippingOptions ?? []).some((rule) => rule.id === asked),
    noShippingToAddress: requiresShipping && shippingLocation !== null && shippingOptions.length === 0 && (rules.shippingOptions ?? []).length > 0,
    applicableTaxRules: applicable.map((rule) => ({ name: rule.name, ratePercent: rule.ratePercent })),
    taxCents,
    shippingCostCents,
    coupons,
    validCoupons: priced.valid,
    invalidCoupons: priced.invalid,
    discountCents,
    grandTotalCents: discounted + shippingCostCents + taxCents,
    minimumSubtotalCents,
    belowMinimum,
    minimumMessage: belowMinimum ? minimumSubtotalMessage(minimumSubtotalCents, currency) : null,
  };
}
