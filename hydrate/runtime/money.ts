/** D2 currency table: fraction digits, symbol, and where the symbol goes. */
interface CurrencyLayout {
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

function currencyOf(code: string): CurrencyLayout {
  // Unknown codes never reach here from a valid site (the server rejects them); USD keeps the page usable.
  return CURRENCIES[code] ?? CURRENCIES.USD!;
}

export function fractionDigits(code: string): number {
  return currencyOf(code).digits;
}

function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

const MAX_INTEGER_DIGITS = 15;

/**
 * A0.5 / D2: minor units to display text with fixed `,` and `.` whatever the locale.
 * Throws RangeError past 15 integer digits (D2); callers pass server-validated amounts.
 */
export function formatMoney(cents: number, currencyCode: string): string {
  if (!Number.isInteger(cents)) throw new RangeError(`amount ${cents} is not an integer number of minor units`);
  const cur = currencyOf(currencyCode);
  const negative = cents < 0;
  const abs = Math.abs(cents);
  const scale = 10 ** cur.digits;
  const whole = Math.floor(abs / scale);
  if (String(whole).length > MAX_INTEGER_DIGITS) throw new RangeError(`amount ${cents} exceeds ${MAX_INTEGER_DIGITS} digits`);
  let number = groupThousands(String(whole));
  if (cur.digits > 0) number += `.${String(abs % scale).padStart(cur.digits, '0')}`;
  const sign = negative ? '-' : '';
  switch (cur.position) {
    case 'before':
      return `${sign}${cur.symbol}${number}`;
    case 'before-space':
      return `${sign}${cur.symbol} ${number}`;
    case 'after-space':
      return `${sign}${number} ${cur.symbol}`;
  }
}

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
