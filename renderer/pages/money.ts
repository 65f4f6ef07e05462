// D2 money for text the renderer writes itself (cart totals, checkout lines, the minimum
// notice, the legacy-span CSS rule). Prices inside formatter markup are the formatters'
// business; they read the `{value, currency}` nodes made by `moneyNode`.

interface CurrencyLayout {
  digits: number;
  symbol: string;
  position: 'before' | 'before-space' | 'after-space';
}

const at = (digits: number, symbol: string, position: CurrencyLayout['position'] = 'before'): CurrencyLayout => ({ digits, symbol, position });

export const CURRENCY_LAYOUTS: Readonly<Record<string, CurrencyLayout>> = {
  EUR: at(2, '€'), USD: at(2, '$'), AUD: at(2, 'A$'), NOK: at(2, 'kr', 'after-space'), CAD: at(2, 'CA$'),
  NZD: at(2, 'NZ$'), DKK: at(2, 'kr', 'after-space'), GBP: at(2, '£'), HKD: at(2, 'HK$'), CHF: at(2, 'CHF', 'before-space'),
  MXN: at(2, 'MX$'), SGD: at(2, 'S$'), SEK: at(2, 'kr', 'after-space'), CZK: at(2, 'Kč', 'after-space'), ILS: at(2, '₪'),
  PHP: at(2, '₱'), RUB: at(2, '₽', 'after-space'), PLN: at(2, 'zł', 'after-space'), THB: at(2, '฿'), MYR: at(2, 'RM'),
  ARS: at(2, 'AR$'), BRL: at(2, 'R$'), COP: at(2, 'COL$'), IDR: at(2, 'Rp'), INR: at(2, '₹'), JPY: at(0, '¥'), ZAR: at(2, 'R'),
};

/** D2: an unknown store currency falls back to USD (the caller reports it). */
export function knownCurrency(code: string): string {
  return Object.hasOwn(CURRENCY_LAYOUTS, code) ? code : 'USD';
}

function layoutOf(code: string): CurrencyLayout {
  return CURRENCY_LAYOUTS[knownCurrency(code)]!;
}

/** Minor units as a plain decimal string with the currency's digits (`2500` USD → `25.00`). */
export function decimalString(cents: number, currency: string): string {
  const digits = layoutOf(currency).digits;
  const negative = cents < 0;
  const abs = String(Math.abs(Math.trunc(cents)));
  if (digits === 0) return (negative ? '-' : '') + abs;
  const padded = abs.padStart(digits + 1, '0');
  return `${negative ? '-' : ''}${padded.slice(0, -digits)}.${padded.slice(-digits)}`;
}

/** The money node the commerce formatters read (PLUGINS §4.0, STOREFRONT C2). */
export function moneyNode(cents: number, currency: string): { value: string; currency: string } {
  return { value: decimalString(cents, currency), currency: knownCurrency(currency) };
}

/** D2 display text: fixed `,` grouping and `.` decimals, symbol per the table. */
export function formatMoney(cents: number, currency: string): string {
  const layout = layoutOf(currency);
  const text = decimalString(Math.abs(cents), currency);
  const [whole = '0', fraction] = text.split('.');
  const number = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',') + (fraction === undefined ? '' : `.${fraction}`);
  const sign = cents < 0 ? '-' : '';
  if (layout.position === 'before') return `${sign}${layout.symbol}${number}`;
  if (layout.position === 'before-space') return `${sign}${layout.symbol} ${number}`;
  return `${sign}${number} ${layout.symbol}`;
}

/** D2: the one CSS rule that gives legacy `.sqs-money-native` spans the store's symbol. */
export function moneySymbolCss(currency: string): string {
  const layout = layoutOf(currency);
  const symbol = JSON.stringify(layout.position === 'after-space' ? ` ${layout.symbol}` : layout.position === 'before-space' ? `${layout.symbol} ` : layout.symbol);
  return layout.position === 'after-space'
    ? `.sqs-money-native::after { content: ${symbol} }`
    : `.sqs-money-native::before { content: ${symbol} }`;
}
