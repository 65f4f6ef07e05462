// Storefront helpers for the peer engines (Handlebars, LiquidJS), written here so that their
// templates can express the same pages as the JSON-T workloads. They approximate the Quire
// formatters closely enough that every engine does comparable work and emits a page of
// comparable size; byte-identity is only checked between Quire and the reference port.

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

export function slugify(value: unknown): string {
  return String(value ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9\s-]/g, '')
    .trim()
    .replace(/[\s-]+/g, '-');
}

export function pluralize(n: unknown, singular: string, plural: string): string {
  return Number(n) === 1 ? singular : plural;
}

export function capitalize(value: unknown): string {
  const s = String(value ?? '');
  return s.charAt(0).toUpperCase() + s.slice(1);
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const pad = (n: number): string => (n < 10 ? '0' + n : String(n));

interface ZonedParts {
  year: number;
  month: number;
  day: number;
  weekday: number;
  hour: number;
  minute: number;
  second: number;
  offsetMinutes: number;
  zoneName: string;
}

const zoneFormats = new Map<string, Intl.DateTimeFormat>();

function zoned(epoch: number, timeZone: string): ZonedParts {
  let f = zoneFormats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      weekday: 'short',
      timeZoneName: 'short',
    });
    zoneFormats.set(timeZone, f);
  }
  const p: Record<string, string> = {};
  for (const part of f.formatToParts(new Date(epoch))) p[part.type] = part.value;
  const year = Number(p.year);
  const month = Number(p.month);
  const day = Number(p.day);
  const hour = Number(p.hour);
  const minute = Number(p.minute);
  const second = Number(p.second);
  const asUtc = Date.UTC(year, month - 1, day, hour, minute, second);
  const offsetMinutes = Math.round((asUtc - Math.floor(epoch / 1000) * 1000) / 60000);
  const weekday = new Date(Date.UTC(year, month - 1, day)).getUTCDay();
  return { year, month, day, weekday, hour, minute, second, offsetMinutes, zoneName: p.timeZoneName ?? 'UTC' };
}

/** A strftime subset (the codes the workloads use), in the site's time zone. */
export function strftime(epoch: unknown, pattern: string, timeZone = 'America/New_York'): string {
  const z = zoned(Number(epoch) || 0, timeZone);
  return pattern.replace(/%([a-zA-Z%])/g, (_m, c: string) => {
    switch (c) {
      case 'Y': return String(z.year);
      case 'm': return pad(z.month);
      case 'd': return pad(z.day);
      case 'e': return z.day < 10 ? ' ' + z.day : String(z.day);
      case 'H': return pad(z.hour);
      case 'I': return pad(z.hour % 12 || 12);
      case 'l': { const h = z.hour % 12 || 12; return h < 10 ? ' ' + h : String(h); }
      case 'M': return pad(z.minute);
      case 'S': return pad(z.second);
      case 'p': return z.hour < 12 ? 'AM' : 'PM';
      case 'A': return DAYS[z.weekday];
      case 'B': return MONTHS[z.month - 1];
      case 'b': return MONTHS[z.month - 1].slice(0, 3);
      case 'Z': return z.zoneName;
      case 'z': {
        const o = Math.abs(z.offsetMinutes);
        return (z.offsetMinutes < 0 ? '-' : '+') + pad(Math.floor(o / 60)) + ':' + pad(o % 60);
      }
      case '%': return '%';
      default: return '%' + c;
    }
  });
}

function variants(p: Json): Json[] {
  return p?.structuredContent?.variants ?? [];
}

const cents = (m: Json): number => Math.round(Number(m?.value ?? 0) * 100);
const effective = (v: Json): number => cents(v.onSale ? v.salePriceMoney : v.priceMoney);

export function onSale(p: Json): boolean {
  return variants(p).some((v) => Boolean(v.onSale));
}

export function soldOut(p: Json): boolean {
  return !variants(p).some((v) => v.unlimited || Number(v.qtyInStock) > 0);
}

export function hasVariants(p: Json): boolean {
  return variants(p).length > 1;
}

export function variedPrices(p: Json): boolean {
  const list = variants(p);
  const first = list[0];
  return list.slice(1).some((v) => v.onSale !== first.onSale || (first.onSale && v.salePrice !== first.salePrice) || v.price !== first.price);
}

function moneyText(c: number): string {
  const s = (c / 100).toFixed(2);
  const [whole, frac] = s.split('.');
  return whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',') + '.' + frac;
}

const span = (c: number): string => `<span class="sqs-money-native">${moneyText(c)}</span>`;

/** The legacy (non-CLDR) product-price markup. */
export function productPrice(p: Json): string {
  const list = variants(p);
  let body: string;
  if (list.length === 0) body = '';
  else if (variedPrices(p)) {
    body = 'from ' + span(Math.min(...list.map(effective))) + '\n';
  } else if (onSale(p)) {
    const sale = Math.min(...list.filter((v) => v.onSale).map((v) => cents(v.salePriceMoney)));
    const normal = Math.max(...list.map((v) => cents(v.priceMoney)));
    body =
      '<span class="visually-hidden v6-visually-hidden">Sale Price:</span>' + span(sale) +
      ' <span class="visually-hidden v6-visually-hidden">Original Price:</span><span class="original-price">' + span(normal) + '</span>\n';
  } else body = span(Math.max(...list.map((v) => cents(v.priceMoney))));
  return '\n\n\n<div class="product-price">\n' + body + '\n</div>';
}

export function itemClasses(p: Json, index?: number): string {
  let s = 'hentry';
  for (const c of p.categories ?? []) s += ' category-' + slugify(c);
  for (const t of p.tags ?? []) s += ' tag-' + slugify(t);
  if (p.author?.displayName) s += ' author-' + slugify(p.author.displayName);
  s += ' post-type-' + (p.recordTypeLabel ?? '');
  if (index !== undefined) s += ' article-index-' + index;
  if (p.starred) s += ' featured';
  if (p.recordType === 11) {
    if (onSale(p)) s += ' on-sale';
    if (soldOut(p)) s += ' sold-out';
  }
  return s;
}
