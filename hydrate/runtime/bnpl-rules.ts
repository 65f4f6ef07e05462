import { formatMoney } from './money.ts';

/** D6 supported countries: languages (first is the default) and provider. */
export const BNPL_COUNTRIES: Readonly<Record<string, { languages: string[]; provider: 'afterpay' | 'clearpay' }>> = {
  US: { languages: ['en'], provider: 'afterpay' },
  CA: { languages: ['en', 'fr'], provider: 'afterpay' },
  AU: { languages: ['en'], provider: 'afterpay' },
  NZ: { languages: ['en'], provider: 'afterpay' },
  GB: { languages: ['en'], provider: 'clearpay' },
};

/** D6: US territories use the US entry. */
const US_TERRITORIES = new Set(['PR', 'GU', 'VI', 'MP', 'AS', 'UM']);

export const INSTALLMENTS = 4;

export interface BnplContext {
  afterPayAvailable: boolean;
  afterPayMin: number;
  afterPayMax: number;
  shopperLanguage: string;
  stripeAccountCountry: string;
}

export function countryEntry(country: string): { country: string; languages: string[]; provider: 'afterpay' | 'clearpay' } | null {
  const code = US_TERRITORIES.has(country) ? 'US' : country;
  const entry = BNPL_COUNTRIES[code];
  return entry ? { country: code, ...entry } : null;
}

export function providerLabel(provider: 'afterpay' | 'clearpay'): string {
  return provider === 'clearpay' ? 'Clearpay' : 'Afterpay';
}

const KNOWN_KEYS = new Set(Object.entries(BNPL_COUNTRIES).flatMap(([c, e]) => e.languages.map((l) => `${l}_${c}`)));

/** D6 locale key: the shopper's language if the country has it, else its first; unknown keys fall back to en_US. */
export function localeKey(country: string, shopperLanguage: string): string {
  const entry = countryEntry(country);
  if (!entry) return 'en_US';
  const lang = entry.languages.includes(shopperLanguage) ? shopperLanguage : entry.languages[0]!;
  const key = `${lang}_${entry.country}`;
  return KNOWN_KEYS.has(key) ? key : 'en_US';
}

/** Half-up to the nearest minor unit (D6, designed). */
export function installmentCents(price: number, count = INSTALLMENTS): number {
  return Math.floor(price / count + 0.5);
}

/** A5 text for a price in minor units. */
export function bnplText(price: number, ctx: BnplContext, currency: string): { inRange: boolean; text: string } {
  if (price > ctx.afterPayMin && price <= ctx.afterPayMax) {
    const amount = formatMoney(installmentCents(price), currency);
    return { inRange: true, text: `or ${INSTALLMENTS} interest-free payments of ${amount} with` };
  }
  if (price > ctx.afterPayMax) return { inRange: false, text: `available for orders up to ${formatMoney(ctx.afterPayMax, currency)}` };
  return { inRange: false, text: `available for orders over ${formatMoney(ctx.afterPayMin, currency)}` };
}

export function parseBnplContext(value: unknown): BnplContext | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  const num = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) ? x : null);
  const min = num(v.afterPayMin);
  const max = num(v.afterPayMax);
  if (min === null || max === null) return null;
  return {
    afterPayAvailable: v.afterPayAvailable === true,
    afterPayMin: min,
    afterPayMax: max,
    shopperLanguage: typeof v.shopperLanguage === 'string' ? v.shopperLanguage : '',
    stripeAccountCountry: typeof v.stripeAccountCountry === 'string' ? v.stripeAccountCountry : '',
  };
}
