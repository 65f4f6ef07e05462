// `i18n-money-format` (PLUGINS §15.2): the reference's pre-CLDR, locale-aware money text,
// built from a fixed symbol table, a placement rule keyed by the exact locale tag and the
// Java platform's separators. It does not use CLDR patterns, so it is formatted by hand.
import { Decimal } from '@phensley/cldr';
import { baseCldr } from './cldr.ts';
import { groupDigits, nearestScaled } from './money-legacy.ts';

const SYMBOLS: Record<string, string> = {
  AUD: 'A$',
  CAD: 'C$',
  DKK: 'kr',
  EUR: '€',
  GBP: '£',
  JPY: '¥',
  NOK: 'kr',
  SEK: 'kr',
  USD: '$',
};

const SYMBOL_RIGHT = new Set(['da-DK', 'de-DE', 'fr-FR', 'sv-SE']);

interface Separators {
  readonly group: string;
  readonly decimal: string;
}

const EN: Separators = { group: ',', decimal: '.' };
const DOT_COMMA: Separators = { group: '.', decimal: ',' };
// Java 8 locale data (the reference tests' expectations) groups with U+00A0 in these.
const NBSP_COMMA: Separators = { group: '\u00a0', decimal: ',' };

const LANGUAGE_SEPARATORS: Record<string, Separators> = {
  de: DOT_COMMA,
  da: DOT_COMMA,
  nl: DOT_COMMA,
  es: DOT_COMMA,
  it: DOT_COMMA,
  pt: DOT_COMMA,
  id: DOT_COMMA,
  tr: DOT_COMMA,
  fr: NBSP_COMMA,
  sv: NBSP_COMMA,
  no: NBSP_COMMA,
  nb: NBSP_COMMA,
  fi: NBSP_COMMA,
  ru: NBSP_COMMA,
  pl: NBSP_COMMA,
  cs: NBSP_COMMA,
};

export interface LegacyLocale {
  /** `xx-YY` (or `xx`) */
  readonly tag: string;
  readonly language: string;
  /** The language's separators, and whether the tag puts the symbol after the number: read once, when the call is bound. */
  readonly separators: Separators;
  readonly symbolRight: boolean;
}

const LOCALE_RE = /^([A-Za-z]{2,3})(?:[-_]([A-Za-z]{2}|\d{3}))?$/;

/** Parses a Java-style locale argument (`en_US`, `de-DE`, `fr`); null when invalid. */
export function parseLegacyLocale(text: string): LegacyLocale | null {
  const m = LOCALE_RE.exec(text);
  if (!m) return null;
  const language = m[1].toLowerCase();
  const tag = m[2] ? language + '-' + m[2].toUpperCase() : language;
  return { tag, language, separators: LANGUAGE_SEPARATORS[language] ?? EN, symbolRight: SYMBOL_RIGHT.has(tag) };
}

let knownCurrencies: Set<string> | undefined;

/** True for an ISO 4217 code the platform knows (the reference throws for others). */
function isKnownCurrency(code: string): boolean {
  knownCurrencies ??= new Set(Intl.supportedValuesOf('currency'));
  return knownCurrencies.has(code);
}

function isLetter(c: string | undefined): boolean {
  return c !== undefined && c.toLowerCase() !== c.toUpperCase();
}

/** What a currency's text needs, besides the amount. */
export interface LegacyCurrency {
  readonly symbol: string;
  /** The currency's fraction digits (CLDR), and the fewest printed: min(2, digits). */
  readonly digits: number;
  readonly minDigits: number;
  /** Whether the symbol starts and ends with a letter. */
  readonly firstLetter: boolean;
  readonly lastLetter: boolean;
}

/**
 * Per known currency (a bounded set: codes the platform does not know are never kept). Looked
 * up on every call (the CLDR fraction digits, the symbol's letter tests), a call took ~1.5x as
 * long: 478–523 against 315–353 ns in a section of 50 values (bench/README.md,
 * "`i18n-money-format` bound once").
 */
const currencies = new Map<string, LegacyCurrency>();

/** The currency's entry, or null when the platform does not know the code. */
export function legacyCurrency(code: string): LegacyCurrency | null {
  const known = currencies.get(code);
  if (known !== undefined) return known;
  if (!isKnownCurrency(code)) return null;
  const symbol = SYMBOLS[code] ?? code;
  const digits = baseCldr().Numbers.getCurrencyFractions(code as never).digits;
  const entry: LegacyCurrency = { symbol, digits, minDigits: Math.min(2, digits), firstLetter: isLetter(symbol[0]), lastLetter: isLetter(symbol[symbol.length - 1]) };
  currencies.set(code, entry);
  return entry;
}

/**
 * Rounds a double half-even on its exact binary value, as Java's DecimalFormat does:
 * `toFixed(20)` is exact enough that a true tie shows as `…5000…` and a near-tie does not.
 */
export function roundDouble(x: number, fractionDigits: number): string {
  // Without the 20-digit text and the decimal when the double's product settles it (1.7 µs a
  // call of `i18n-money-format` before; formatter sweep 2026-11-29).
  const nearest = nearestScaled(x, fractionDigits);
  if (nearest >= 0) {
    let digits = '' + nearest;
    if (fractionDigits > 0) {
      if (digits.length <= fractionDigits) digits = '0'.repeat(fractionDigits - digits.length + 1) + digits;
      digits = digits.slice(0, digits.length - fractionDigits) + '.' + digits.slice(digits.length - fractionDigits);
    }
    return x < 0 ? '-' + digits : digits;
  }
  return roundDoubleExact(x, fractionDigits);
}

/** `roundDouble` through the decimal of the double's exact value (exported for the test that compares the two). */
export function roundDoubleExact(x: number, fractionDigits: number): string {
  const text = Math.abs(x) < 1e21 ? x.toFixed(20) : String(x);
  return new Decimal(text).setScale(fractionDigits, 'half-even').toString();
}

/** Formats an amount in a currency (`legacyCurrency`'s entry) for a legacy locale. */
export function formatLegacyMoney(amount: number, currency: LegacyCurrency, locale: LegacyLocale): string {
  if (!Number.isFinite(amount)) amount = 0;
  const { symbol, minDigits } = currency;
  const sep = locale.separators;
  let text = roundDouble(amount, currency.digits);
  const negative = text.charCodeAt(0) === 45; // '-'
  if (negative) text = text.slice(1);
  const dot = text.indexOf('.');
  const intPart = dot < 0 ? text : text.slice(0, dot);
  let fracPart = dot < 0 ? '' : text.slice(dot + 1);
  while (fracPart.length > minDigits && fracPart.endsWith('0')) fracPart = fracPart.slice(0, -1);
  const number = groupDigits(intPart, sep.group) + (fracPart ? sep.decimal + fracPart : '');
  const signed = negative ? '-' + number : number;
  if (locale.symbolRight) return currency.firstLetter ? signed + ' ' + symbol : signed + symbol;
  if (currency.lastLetter) return symbol + ' ' + signed;
  return (negative ? '-' : '') + symbol + number;
}
