// D2 money for text the renderer writes itself (cart totals, checkout lines, the minimum
// notice, the legacy-span CSS rule). Prices inside formatter markup are the formatters'
// business; they read the `{value, currency}` nodes made by `moneyNode`.

import { currencyLayout, formatMoney as formatShared, knownCurrency } from '../../hydrate/shared/currency.ts';

export { knownCurrency };

/** Minor units as a plain decimal string with the currency's digits (`2500` USD → `25.00`). */
export function decimalString(cents: number, currency: string): string {
  const digits = currencyLayout(currency).digits;
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

/** D2 display text (hydrate/shared/currency.ts); stored amounts are whole minor units. */
export function formatMoney(cents: number, currency: string): string {
  return formatShared(Math.trunc(cents), currency);
}

/** D2: the one CSS rule that gives legacy `.sqs-money-native` spans the store's symbol. */
export function moneySymbolCss(currency: string): string {
  const layout = currencyLayout(currency);
  const symbol = JSON.stringify(layout.position === 'after-space' ? ` ${layout.symbol}` : layout.position === 'before-space' ? `${layout.symbol} ` : layout.symbol);
  return layout.position === 'after-space'
    ? `.sqs-money-native::after { content: ${symbol} }`
    : `.sqs-money-native::before { content: ${symbol} }`;
}
