/** Test-only product nodes in the template shape, and a product page built from them. */
import { addToCartBtn, productPriceLegacy, productStatus, quantityInput, restockNotification, variantsSelect } from './formatter-markup.ts';

type Json = Record<string, any>;

export function money(value: string, currency = 'USD'): Json {
  return { value, currency };
}

export function variant(sku: string, attributes: Record<string, string>, extra: Json = {}): Json {
  return {
    id: `v-${sku}`,
    sku,
    attributes,
    priceMoney: money('25.00'),
    salePriceMoney: money('0.00'),
    onSale: false,
    qtyInStock: 10,
    unlimited: false,
    ...extra,
  };
}

export function product(opts: {
  id?: string;
  productType?: number;
  variants: Json[];
  options?: string[];
  extra?: Json;
}): Json {
  return {
    id: opts.id ?? 'p1',
    collectionId: 'c1',
    title: 'Tee',
    structuredContent: {
      productType: opts.productType ?? 1,
      variants: opts.variants,
      variantOptionOrdering: opts.options ?? [],
      ...opts.extra,
    },
  };
}

/** Size × Color tee with four combinations (no M/Blue variant, for the unavailable case). */
export function teeProduct(extra: Json = {}): Json {
  return product({
    options: ['Size', 'Color'],
    variants: [
      variant('SQ-1', { Size: 'M', Color: 'Red' }),
      variant('SQ-2', { Size: 'L', Color: 'Red' }),
      variant('SQ-3', { Size: 'L', Color: 'Blue' }),
      variant('SQ-0', { Size: 'S', Color: 'Red' }, { qtyInStock: 0 }),
    ],
    extra,
  });
}

export interface ProductPageOptions {
  localizedStrings?: Json;
  merchandising?: Json;
  captchaSiteKey?: string | null;
  status?: 'sold-out' | 'sale' | null;
  extraBody?: string;
}

/** A product wrapped in the renderer's product scope, with every formatter part. */
export function productPage(item: Json, opts: ProductPageOptions = {}): string {
  return (
    `<div class="product" data-product-scope>` +
    `<div class="sf-product-status" data-item-id="${item.id}">${productStatus(opts.status ?? null)}</div>` +
    productPriceLegacy('25.00') +
    variantsSelect(item, opts.localizedStrings) +
    quantityInput(item, {}, opts.localizedStrings) +
    addToCartBtn(item, opts.localizedStrings) +
    (opts.merchandising ? restockNotification(item, opts.merchandising, opts.captchaSiteKey ?? null) : '') +
    `</div>` +
    (opts.extraBody ?? '')
  );
}

/** The `sf-context.products` entry the renderer writes for an item. */
export function contextProducts(...items: Json[]): Json {
  const out: Json = {};
  for (const item of items) {
    out[item.id] = {
      productType: Number(item.structuredContent.productType),
      isSubscribable: item.structuredContent.isSubscribable === true,
      variants: item.structuredContent.variants,
      customSoldOutText: item.customSoldOutText ?? '',
      ...(item.structuredContent.subscriptionPlan ? { subscriptionPlan: item.structuredContent.subscriptionPlan } : {}),
    };
  }
  return out;
}

export function cartWith(totalQuantity: number, subtotalCents: number, entries: Json[] = []): Json {
  return { id: 'cart-1', entries, subtotalCents, totalQuantity };
}
