import { PRODUCT_TYPES } from '../shared/platform-enums.ts';
import type { Cart } from './cart-store.ts';
import { toMinorUnits } from './money.ts';
import type { PageContext } from './page-context.ts';

/**
 * The seed's analytics event fields (seed 001 §3 "Analytics event fields (admin and commerce
 * events)"), in the seed's order. Money is in minor units (cents), as everywhere in Quire.
 */
export const ANALYTICS_FIELD_NAMES = [
  'website_id',
  'page_id',
  'cart_id',
  'item_id',
  'item_type',
  'item_title',
  'item_price',
  'item_quantity',
  'currency_code',
  'num_items_in_cart',
  'cart_value',
  'product_types_list',
  'purchase_type_list',
  'logged_in',
] as const;

export type AnalyticsFieldName = (typeof ANALYTICS_FIELD_NAMES)[number];

/** Who and where: on every event. */
export interface VisitorFields {
  website_id: string;
  page_id: string;
  logged_in: boolean;
}

/** The cart as it stands: on every commerce event (a visitor without a cart has an empty one). */
export interface CartFields {
  cart_id: string | null;
  currency_code: string;
  num_items_in_cart: number;
  cart_value: number;
  /** Distinct product types in the cart, by their seed names (physical, digital, service, gift-card). */
  product_types_list: string[];
  /** Distinct purchase types in the cart: `one-time`, `subscription`. */
  purchase_type_list: string[];
}

/** The item an event is about. */
export interface ItemFields {
  item_id: string;
  item_type: string | null;
  item_title: string | null;
  item_price: number | null;
  item_quantity: number;
}

const TYPE_NAMES = new Map<number, string>(Object.entries(PRODUCT_TYPES).map(([name, id]) => [id, name]));

export function productTypeName(type: unknown): string | null {
  return typeof type === 'number' ? (TYPE_NAMES.get(type) ?? null) : null;
}

export function visitorFields(context: PageContext): VisitorFields {
  return { website_id: context.websiteId, page_id: context.pageId, logged_in: context.siteUser?.authenticated === true };
}

export function cartFields(context: PageContext, cart: Cart | null): CartFields {
  const types = new Set<string>();
  const purchases = new Set<string>();
  for (const entry of cart?.entries ?? []) {
    const product = context.products[entry.itemId];
    const name = productTypeName(entry.productType ?? product?.productType);
    if (name) types.add(name);
    purchases.add(product?.isSubscribable ? 'subscription' : 'one-time');
  }
  return {
    cart_id: cart?.id ?? null,
    currency_code: context.store.selectedCurrency,
    num_items_in_cart: cart?.totalQuantity ?? 0,
    cart_value: cart?.subtotalCents ?? 0,
    product_types_list: [...types].sort(),
    purchase_type_list: [...purchases].sort(),
  };
}

/**
 * The item fields of a product: its type from the page context, its title and price from
 * the cart entry when the event has one, else the page (a product page's title) and the
 * first variant's price.
 */
export function itemFields(context: PageContext, itemId: string, detail: { quantity?: number; title?: string | null; priceCents?: number | null } = {}): ItemFields {
  const product = context.products[itemId];
  const variant = product?.variants[0];
  const price = detail.priceCents ?? (variant ? toMinorUnits(variant.onSale ? variant.salePriceMoney : variant.priceMoney).cents : null);
  const title = detail.title ?? (context.itemId === itemId && context.pageTitle ? context.pageTitle : null);
  return {
    item_id: itemId,
    item_type: productTypeName(product?.productType),
    item_title: title,
    item_price: price,
    item_quantity: detail.quantity ?? 1,
  };
}
