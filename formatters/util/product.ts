// The reference's shared product helpers (PLUGINS §4.0), used by the commerce formatters
// and predicates. Every path is relative to the product ("item") node; absent members read
// as missing, never as an error, except a money amount that is not a decimal (the
// reference's BigDecimal parse fails and the instruction emits nothing).

import { asBoolean, asLong, isObject, isTruthy, jsonEquals, member, textOf, type Value } from '../../engine/plugin-api.ts';
import { compareDecimal, movePointRight, parseDecimal, toPlainString, DECIMAL_ZERO, type Decimal } from './decimal.ts';

/** PLUGINS §16 ProductType codes. */
export const ProductType = {
  UNDEFINED: -1,
  PHYSICAL: 1,
  DIGITAL: 2,
  SERVICE: 3,
  GIFT_CARD: 4,
} as const;
export type ProductType = (typeof ProductType)[keyof typeof ProductType];

/** Own member of an object node; missing for anything else. */
export function field(node: Value, key: string): Value {
  return isObject(node) ? member(node, key) : undefined;
}

// The members a page reads of every product and variant are read where they are used
// (`isObject(v) ? v.onSale : undefined`), not through `field`: each such read keeps an inline
// cache of its own, where every `field` call shares one that sees every key and object shape
// (megamorphic). Over a grid's fresh variants, three reads took 217 ns through `field`
// against 76 ns written out (bench/README.md, "Runs, call-site reads, no memos"). None of
// these names is one a plain object inherits, which is all `member` guards against.

/** Element of an array node; missing for anything else. */
export function element(node: Value, index: number): Value {
  return Array.isArray(node) && index >= 0 && index < node.length ? node[index] : undefined;
}

export function structuredContent(item: Value): Value {
  return isObject(item) ? item.structuredContent : undefined;
}

export function productType(item: Value): ProductType {
  return contentType(structuredContent(item));
}

/** The ProductType of a product's `structuredContent` node. */
function contentType(content: Value): ProductType {
  switch (asLong(isObject(content) ? content.productType : undefined)) {
    case 1:
      return ProductType.PHYSICAL;
    case 2:
      return ProductType.DIGITAL;
    case 3:
      return ProductType.SERVICE;
    case 4:
      return ProductType.GIFT_CARD;
    default:
      return ProductType.UNDEFINED;
  }
}

export function isSubscribable(item: Value): boolean {
  return asBoolean(field(structuredContent(item), 'isSubscribable'));
}

const NO_VARIANTS: readonly Value[] = [];

export function variants(item: Value): readonly Value[] {
  return contentVariants(structuredContent(item));
}

function contentVariants(content: Value): readonly Value[] {
  const v = isObject(content) ? content.variants : undefined;
  return Array.isArray(v) ? v : NO_VARIANTS;
}

export function hasVariants(item: Value): boolean {
  return productType(item) !== ProductType.DIGITAL && variants(item).length > 1;
}

// ---- money -----------------------------------------------------------------------------

export interface Money {
  readonly amount: Decimal;
  readonly currency: string;
}

export const DEFAULT_MONEY: Money = { amount: DECIMAL_ZERO, currency: 'USD' };

/**
 * Reads a `{value, currency}` node. An empty amount is 0 and an empty currency USD; an
 * amount that is not a decimal throws NumberFormatException as the reference does.
 */
export function readMoney(node: Value): Money {
  // Not an object: no amount (0) and no currency (USD).
  if (!isObject(node)) return DEFAULT_MONEY;
  const text = textOf(node.value).trim();
  // Parsed on every read: a table of parsed amounts (until 2026-11-28) only paid on repeated
  // prices; with a page's prices new on every render, its misses made `{…priceMoney|money}
  // {@|product-price}` over a 200-product grid 5–20% slower.
  const amount = text.length === 0 ? DECIMAL_ZERO : parseDecimal(text);
  const currency = textOf(node.currency).trim();
  return { amount, currency: currency.length === 0 ? 'USD' : currency };
}

function effectivePrice(variant: Value): Money {
  if (!isObject(variant)) return DEFAULT_MONEY;
  return readMoney(isTruthy(variant.onSale) ? variant.salePriceMoney : variant.priceMoney);
}

/** The entry with the smallest (or largest) amount; the first one wins ties. */
function extreme<T>(items: readonly T[], money: (item: T) => Money, wantLargest: boolean): { item: T; money: Money } | undefined {
  let best: { item: T; money: Money } | undefined;
  for (const item of items) {
    const m = money(item);
    if (best === undefined) best = { item, money: m };
    else {
      const c = compareDecimal(m.amount, best.money.amount);
      if (wantLargest ? c > 0 : c < 0) best = { item, money: m };
    }
  }
  return best;
}

/** The variant with the lowest effective price (PHYSICAL/SERVICE/GIFT_CARD), first on ties. */
export function lowestPricedVariant(item: Value): Value {
  switch (productType(item)) {
    case ProductType.PHYSICAL:
    case ProductType.SERVICE:
    case ProductType.GIFT_CARD:
      return extreme(variants(item), effectivePrice, false)?.item;
    default:
      return undefined;
  }
}

/** The "from" price. */
export function lowestPrice(item: Value): Money {
  switch (productType(item)) {
    case ProductType.PHYSICAL:
    case ProductType.SERVICE:
    case ProductType.GIFT_CARD:
      return extreme(variants(item), effectivePrice, false)?.money ?? DEFAULT_MONEY;
    case ProductType.DIGITAL:
      return digitalMoney(item, 'priceMoney');
    default:
      return DEFAULT_MONEY;
  }
}

/** The "normal" price: the largest regular price, sales ignored. */
export function highestPrice(item: Value): Money {
  switch (productType(item)) {
    case ProductType.PHYSICAL:
    case ProductType.SERVICE:
    case ProductType.GIFT_CARD:
      return extreme(variants(item), (v) => readMoney(isObject(v) ? v.priceMoney : undefined), true)?.money ?? DEFAULT_MONEY;
    case ProductType.DIGITAL:
      return digitalMoney(item, 'priceMoney');
    default:
      return DEFAULT_MONEY;
  }
}

/** The lowest sale price among variants on sale. */
export function salePrice(item: Value): Money {
  switch (productType(item)) {
    case ProductType.PHYSICAL:
    case ProductType.SERVICE: {
      const onSale = variants(item).filter((v) => isTruthy(field(v, 'onSale')));
      return extreme(onSale, (v) => readMoney(field(v, 'salePriceMoney')), false)?.money ?? DEFAULT_MONEY;
    }
    case ProductType.DIGITAL:
      return digitalMoney(item, 'salePriceMoney');
    default:
      return DEFAULT_MONEY;
  }
}

function digitalMoney(item: Value, key: string): Money {
  const node = field(structuredContent(item), key);
  return node === undefined ? DEFAULT_MONEY : readMoney(node);
}

/**
 * Compares the legacy numeric fields, type-strictly, as the reference does. The members are
 * read at this call site (see above): through `field`, this was 9.5% of `product-price` over
 * grid products of 1–4 variants.
 */
export function hasVariedPrices(item: Value): boolean {
  const content = structuredContent(item);
  switch (contentType(content)) {
    case ProductType.PHYSICAL:
    case ProductType.SERVICE:
    case ProductType.GIFT_CARD: {
      const all = contentVariants(content);
      if (all.length < 2) return false;
      const first = all[0];
      const firstObject = isObject(first);
      const firstOnSale = firstObject ? first.onSale : undefined;
      const firstSalePrice = firstObject ? first.salePrice : undefined;
      const firstPrice = firstObject ? first.price : undefined;
      for (let i = 1; i < all.length; i++) {
        const v = all[i];
        const object = isObject(v);
        if (!jsonEquals(object ? v.onSale : undefined, firstOnSale)) return true;
        if (isTruthy(firstOnSale) && !jsonEquals(object ? v.salePrice : undefined, firstSalePrice)) return true;
        if (!jsonEquals(object ? v.price : undefined, firstPrice)) return true;
      }
      return false;
    }
    default:
      return false;
  }
}

/** What `product-price` prints of a product. */
export interface PriceFigures {
  readonly varied: boolean;
  /** The "from" price (`lowestPrice`); read only when `varied`. */
  readonly lowest: Money;
  readonly onSale: boolean;
  /** `salePrice`; read only when `onSale`. */
  readonly sale: Money;
  readonly highest: Money;
}

/**
 * `hasVariedPrices`, `lowestPrice`, `isOnSale`, `salePrice` and `highestPrice`, in that order.
 * A physical or service product's are read in one pass over its variants, each amount parsed
 * once: one by one, every regular price was parsed two or three times and the lowest, sale and
 * highest prices were three walks (38% of `product-price` over grid products, its view's
 * share). The one pass parses the same amounts (every regular price, every sale price of a
 * variant on sale), so it throws when one of them is not a decimal exactly when the five do;
 * the five are then asked one by one, to throw the error they meet first.
 */
export function priceFigures(item: Value): PriceFigures {
  const type = productType(item);
  if (type === ProductType.PHYSICAL || type === ProductType.SERVICE) {
    try {
      return onePass(item);
    } catch {
      // Asked again below, in the reference's order.
    }
  }
  const varied = hasVariedPrices(item);
  const lowest = varied ? lowestPrice(item) : DEFAULT_MONEY;
  const onSale = isOnSale(item);
  const sale = onSale ? salePrice(item) : DEFAULT_MONEY;
  return { varied, lowest, onSale, sale, highest: highestPrice(item) };
}

/** `priceFigures` of a PHYSICAL or SERVICE product: the rules of `extreme` (first on ties). */
function onePass(item: Value): PriceFigures {
  const all = variants(item);
  let lowest: Money | undefined;
  let highest: Money | undefined;
  let sale: Money | undefined;
  for (let i = 0; i < all.length; i++) {
    const v = all[i];
    let regular = DEFAULT_MONEY;
    let effective = DEFAULT_MONEY;
    if (isObject(v)) {
      regular = readMoney(v.priceMoney);
      if (isTruthy(v.onSale)) {
        effective = readMoney(v.salePriceMoney);
        if (sale === undefined || compareDecimal(effective.amount, sale.amount) < 0) sale = effective;
      } else effective = regular;
    }
    if (lowest === undefined || compareDecimal(effective.amount, lowest.amount) < 0) lowest = effective;
    if (highest === undefined || compareDecimal(regular.amount, highest.amount) > 0) highest = regular;
  }
  return {
    varied: hasVariedPrices(item),
    lowest: lowest ?? DEFAULT_MONEY,
    onSale: sale !== undefined,
    sale: sale ?? DEFAULT_MONEY,
    highest: highest ?? DEFAULT_MONEY,
  };
}

/** A variant on sale: what `on-sale?` and the `on-sale` class ask of each variant. */
function variantOnSale(v: Value): boolean {
  return isObject(v) && isTruthy(v.onSale);
}

/** A variant that can be bought: unlimited, or some in stock (`sold-out?`, the `sold-out` class). */
function variantInStock(v: Value): boolean {
  return isObject(v) && (isTruthy(v.unlimited) || asLong(v.qtyInStock) > 0);
}

// The predicates a grid asks of every product (`on-sale?`, `sold-out?`, `varied-prices?`)
// read the content node once and loop over the variants without a callback: with
// `variants(item).some(…)` and a second walk to the content, `on-sale?` took 2x as long.
export function isOnSale(item: Value): boolean {
  const content = structuredContent(item);
  switch (contentType(content)) {
    case ProductType.PHYSICAL:
    case ProductType.SERVICE: {
      const all = contentVariants(content);
      for (let i = 0; i < all.length; i++) {
        if (variantOnSale(all[i])) return true;
      }
      return false;
    }
    case ProductType.DIGITAL:
      return isTruthy(field(content, 'onSale'));
    default:
      return false;
  }
}

/**
 * `isOnSale` and `isSoldOut` as the classes `item-classes` adds (` on-sale`, ` sold-out`), in
 * one pass over the variants: a grid page asks this of every item.
 */
export function saleClasses(item: Value): string {
  const content = structuredContent(item);
  switch (contentType(content)) {
    case ProductType.PHYSICAL:
    case ProductType.SERVICE: {
      const all = contentVariants(content);
      let onSale = false;
      let inStock = false;
      for (let i = 0; i < all.length && !(onSale && inStock); i++) {
        const v = all[i];
        if (!onSale && variantOnSale(v)) onSale = true;
        if (!inStock && variantInStock(v)) inStock = true;
      }
      return onSale ? (inStock ? ' on-sale' : ' on-sale sold-out') : inStock ? '' : ' sold-out';
    }
    case ProductType.DIGITAL:
      return isTruthy(field(content, 'onSale')) ? ' on-sale' : '';
    case ProductType.GIFT_CARD:
      return '';
    default:
      return ' sold-out';
  }
}

export function isSoldOut(item: Value): boolean {
  const content = structuredContent(item);
  switch (contentType(content)) {
    case ProductType.PHYSICAL:
    case ProductType.SERVICE: {
      const all = contentVariants(content);
      for (let i = 0; i < all.length; i++) {
        if (variantInStock(all[i])) return false;
      }
      return true;
    }
    case ProductType.DIGITAL:
    case ProductType.GIFT_CARD:
      return false;
    default:
      return true;
  }
}

/** Units left to sell; Infinity when unlimited. */
export function totalStockRemaining(item: Value): number {
  const type = productType(item);
  if (type === ProductType.DIGITAL || type === ProductType.GIFT_CARD) return Infinity;
  let total = 0;
  for (const v of variants(item)) {
    if (isTruthy(field(v, 'unlimited'))) return Infinity;
    total += asLong(field(v, 'qtyInStock'));
  }
  return total;
}

/** Legacy cents as a plain decimal string: `"1.555"` → `155.5`. */
export function legacyCentsText(money: Money): string {
  return toPlainString(movePointRight(money.amount, 2));
}

/** Legacy cents as an exact decimal. */
export function legacyCents(money: Money): Decimal {
  return movePointRight(money.amount, 2);
}

/** The money node the CLDR `money` formatter reads. */
export function moneyNode(money: Money): { decimalValue: string; currencyCode: string } {
  return { decimalValue: toPlainString(money.amount), currencyCode: money.currency };
}
