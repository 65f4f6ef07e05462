import { CHECKOUT_FIELD_TEXT } from '../../hydrate/shared/checkout-text.ts';
import type { CartEntryRecord, CartRecord, Variant } from '../store/types.ts';

// The B0.4 cart object. Totals are derived here from the stored entries on every read and
// write, never stored and never taken from the client.

export interface CartEntryView {
  id: string;
  itemId: string;
  quantity: number;
  productType: number;
  chosenVariant: { sku: string; attributes: Record<string, string> };
  title: string;
  purchasePriceCents: number;
  subTotal: number;
  additionalFields: string | null;
  /**
   * An addition to B0.4 (designed here), present only on a line whose product or variant the
   * owner removed from the catalogue since it was added: it can no longer be bought, and placing
   * the order is refused (409 `ITEM_UNAVAILABLE`) until the line is removed.
   */
  unavailable?: { code: 'ITEM_UNAVAILABLE'; message: string };
}

/** What an entry the catalogue no longer sells carries, in the error catalogue's code and words. */
export const ENTRY_UNAVAILABLE = { code: 'ITEM_UNAVAILABLE', message: CHECKOUT_FIELD_TEXT.itemUnavailable } as const;

export interface ShoppingCartView {
  id: string | null;
  websiteId: string;
  orderId: string | null;
  created: number | null;
  isPurchased: boolean;
  entries: CartEntryView[];
  shippingOptions: unknown[];
  selectedShippingOption: null;
  shippingLocation: null;
  applicableTaxRules: unknown[];
  coupons: unknown[];
  validCoupons: unknown[];
  invalidCoupons: unknown[];
  subtotalCents: number;
  taxCents: number;
  shippingCostCents: number;
  discountCents: number;
  grandTotalCents: number;
  totalQuantity: number;
  hasDigital: boolean;
  purelyDigital: boolean;
  requiresShipping: boolean;
}

/** B0.4: the sale price when the variant is on sale, else the regular price. */
export function purchasePrice(variant: Variant): number {
  return variant.onSale ? variant.salePriceCents : variant.priceCents;
}

export function entryView(entry: CartEntryRecord): CartEntryView {
  return {
    id: entry.id,
    itemId: entry.itemId,
    quantity: entry.quantity,
    productType: entry.productType,
    chosenVariant: { sku: entry.sku, attributes: entry.attributes },
    title: entry.title,
    purchasePriceCents: entry.purchasePriceCents,
    subTotal: entry.purchasePriceCents * entry.quantity,
    additionalFields: entry.additionalFields,
    ...(entry.available === false ? { unavailable: { ...ENTRY_UNAVAILABLE } } : {}),
  };
}

function buildView(
  head: { id: string | null; websiteId: string; orderId: string | null; created: number | null; isPurchased: boolean },
  entries: CartEntryView[],
): ShoppingCartView {
  const subtotalCents = entries.reduce((sum, entry) => sum + entry.subTotal, 0);
  const taxCents = 0;
  const shippingCostCents = 0;
  const discountCents = 0;
  return {
    ...head,
    entries,
    shippingOptions: [],
    selectedShippingOption: null,
    shippingLocation: null,
    applicableTaxRules: [],
    coupons: [],
    validCoupons: [],
    invalidCoupons: [],
    subtotalCents,
    taxCents,
    shippingCostCents,
    discountCents,
    grandTotalCents: subtotalCents + taxCents + shippingCostCents - discountCents,
    totalQuantity: entries.reduce((sum, entry) => sum + entry.quantity, 0),
    hasDigital: entries.some((entry) => entry.productType === 2),
    purelyDigital: entries.length > 0 && entries.every((entry) => entry.productType === 2 || entry.productType === 4),
    requiresShipping: entries.some((entry) => entry.productType === 1),
  };
}

export function cartView(cart: CartRecord): ShoppingCartView {
  return buildView(
    { id: cart.id, websiteId: cart.websiteId, orderId: cart.orderId, created: cart.created, isPurchased: cart.isPurchased },
    cart.entries.map(entryView),
  );
}

/** "No cart at all" (B0.4): `id` null, no entries, every total 0. */
export function emptyCartView(websiteId: string): ShoppingCartView {
  return buildView({ id: null, websiteId, orderId: null, created: null, isPurchased: false }, []);
}

/** The fixed editor-preview cart of B1 `mock=true`; never stored. */
export function mockCartView(websiteId: string): ShoppingCartView {
  const entries: CartEntryView[] = [
    {
      id: 'mock-entry-1',
      itemId: 'mock-item-1',
      quantity: 1,
      productType: 1,
      chosenVariant: { sku: 'MOCK-1', attributes: { Size: 'M' } },
      title: 'Sample Product',
      purchasePriceCents: 2500,
      subTotal: 2500,
      additionalFields: null,
    },
    {
      id: 'mock-entry-2',
      itemId: 'mock-item-2',
      quantity: 2,
      productType: 1,
      chosenVariant: { sku: 'MOCK-2', attributes: {} },
      title: 'Another Sample Product',
      purchasePriceCents: 1000,
      subTotal: 2000,
      additionalFields: null,
    },
  ];
  return buildView({ id: 'mock', websiteId, orderId: null, created: 0, isPurchased: false }, entries);
}
