// STOREFRONT D2: the currency table and display text, shared by the renderer (cart totals,
// checkout lines, the minimum notice, the legacy-span CSS rule) and the islands (pill cart,
// BNPL), so the server's text and the client's text can never disagree.

export interface CurrencyLayout {
  /** Fraction digits of the minor unit. */
  digits: number;
  symbol: string;
  position: 'before' | 'before-space' | 'after-space';
}

const layout = (digits: number, symbol: string, position: CurrencyLayout['position'] = 'before'): CurrencyLayout => ({
  digits,
  symbol,
  position,
});

export const CURRENCIES: Readonly<Record<string, CurrencyLayout>> = {
  EUR: layout(2, '€'), USD: layout(2, '$'), AUD: layout(2, 'A$'), NOK: layout(2, 'kr', 'after-space'),
  CAD: layout(2, 'CA$'), NZD: layout(2, 'NZ$'), DKK: layout(2, 'kr', 'after-space'), GBP: layout(2, '£'),
  HKD: layout(2, 'HK$'), CHF: layout(2, 'CHF', 'before-space'), MXN: layout(2, 'MX$'), SGD: layout(2, 'S$'),
  SEK: layout(2, 'kr', 'after-space'), CZK: layout(2, 'Kč', 'after-space'), ILS: layout(2, '₪'), PHP: layout(2, '₱'),
  RUB: layout(2, '₽', 'after-space'), PLN: layout(2, 'zł', 'after-space'), THB: layout(2, '฿'), MYR: layout(2, 'RM'),
  ARS: layout(2, 'AR$'), BRL: layout(2, 'R$'), COP: layout(2, 'COL$'), IDR: layout(2, 'Rp'), INR: layout(2, '₹'),
  JPY: layout(0, '¥'), ZAR: layout(2, 'R'),
};

/** D2: an unknown currency falls back to USD, which keeps the page usable (callers report it). */
export function knownCurrency(code: string): string {
  return Object.hasOwn(CURRENCIES, code) ? code : 'USD';
}

export function currencyLayout(code: string): CurrencyLayout {
  return CURRENCIES[knownCurrency(code)]!;
}

export function fractionDigits(code: string): number {
  return currencyLayout(code).digits;
}

const MAX_INTEGER_DIGITS = 15;

/** Seed §5: `freeIfZero` needs its label; the cart's lines use this one (designed wording). */
export const FREE_LABEL = 'Free';
export const FREE_LABEL_REQUIRED = 'A free label is required when freeIfZero is used.';

/**
 * A money display (seed §5): the amount's text, or, with `freeIfZero`, the free label for 0.
 * `freeIfZero` without a non-empty `freeLabel` is a TypeError (the seed's required label).
 */
export function moneyDisplay(cents: number, currencyCode: string, options: { freeIfZero?: boolean; freeLabel?: string } = {}): string {
  if (options.freeIfZero) {
    if (typeof options.freeLabel !== 'string' || options.freeLabel.trim() === '') throw new TypeError(FREE_LABEL_REQUIRED);
    if (cents === 0) return options.freeLabel;
  }
  return formatMoney(cents, currencyCode);
}

/** A cart line's total: a free line (a zero-priced item) says so rather than `$0.00`. */
export function lineTotalText(cents: number, currencyCode: string): string {
  return moneyDisplay(cents, currencyCode, { freeIfZero: true, freeLabel: FREE_LABEL });
}

/**
 * A0.5 / D2: minor units to display text with fixed `,` grouping and `.` decimals whatever
 * the locale, symbol placed per the table. Throws RangeError for a non-integer amount or past
 * 15 integer digits (D2): amounts come from server-validated data.
 */
export function formatMoney(cents: number, currencyCode: string): string {
  if (!Number.isInteger(cents)) throw new RangeError(`amount ${cents} is not an integer number of minor units`);
  const cur = currencyLayout(currencyCode);
  const abs = Math.abs(cents);
  const scale = 10 ** cur.digits;
  const whole = Math.floor(abs / scale);
  if (String(whole).length > MAX_INTEGER_DIGITS) throw new RangeError(`amount ${cents} exceeds ${MAX_INTEGER_DIGITS} digits`);
  let number = String(whole).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  if (cur.digits > 0) number += `.${String(abs % scale).padStart(cur.digits, '0')}`;
  const sign = cents < 0 ? '-' : '';
  switch (cur.position) {
    case 'before':
      return `${sign}${cur.symbol}${number}`;
    case 'before-space':
      return `${sign}${cur.symbol} ${number}`;
    case 'after-space':
      return `${sign}${number} ${cur.symbol}`;
  }
}
