import { fractionDigits } from '../shared/currency.ts';

// The D2 table and display text live in hydrate/shared/currency.ts (the renderer uses them too).
export { CURRENCIES, formatMoney } from '../shared/currency.ts';

/** A money node in either template shape, as amount text plus currency code. */
export function readMoneyNode(node: unknown): { amount: string; currency: string } | null {
  if (typeof node !== 'object' || node === null) return null;
  const m = node as Record<string, unknown>;
  if ('value' in m || 'currency' in m) {
    return { amount: String(m.value ?? '0').trim() || '0', currency: String(m.currency ?? '').trim() || 'USD' };
  }
  if ('decimalValue' in m || 'currencyCode' in m) {
    return { amount: String(m.decimalValue ?? '0').trim() || '0', currency: String(m.currencyCode ?? '').trim() || 'USD' };
  }
  return null;
}

/** A1: amount × 10^digits, rounded to an integer. Unparsable amounts count as 0. */
export function toMinorUnits(node: unknown): { cents: number; currency: string } {
  const money = readMoneyNode(node);
  if (!money) return { cents: 0, currency: 'USD' };
  const amount = Number(money.amount);
  if (!Number.isFinite(amount)) return { cents: 0, currency: money.currency };
  return { cents: Math.round(amount * 10 ** fractionDigits(money.currency)), currency: money.currency };
}

const legacyNumber = new Intl.NumberFormat('en-US', {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
  useGrouping: true,
  roundingMode: 'halfEven',
} as Intl.NumberFormatOptions);

/**
 * PLUGINS §15.1 legacy money string as `product-price` writes it: always two decimals,
 * half-even on the double value, no symbol (the renderer's CSS adds it).
 */
export function legacyMoneyHtml(node: unknown): string {
  const money = readMoneyNode(node) ?? { amount: '0', currency: 'USD' };
  const amount = Number(money.amount);
  const text = legacyNumber.format(Number.isFinite(amount) ? amount : 0);
  return `<span class="sqs-money-native">${text}</span>`;
}

/** CLDR mode: the locale's currency format, as `Intl.NumberFormat` writes it. */
export function cldrMoneyText(node: unknown, locale: string): string {
  const money = readMoneyNode(node) ?? { amount: '0', currency: 'USD' };
  const amount = Number(money.amount);
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency: money.currency }).format(Number.isFinite(amount) ? amount : 0);
  } catch {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(Number.isFinite(amount) ? amount : 0);
  }
}
