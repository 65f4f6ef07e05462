import { PRODUCT_SCOPE_ATTR } from '../protocol/markers.ts';
import { parseProps } from '../protocol/props.ts';
import type { PageContext, VariantData } from './page-context.ts';

/** A3 selection state, published per product scope and read by A1, A4, A5 and A6. */
export interface SelectionState {
  unselectedOptions: string[];
  selectedVariant: VariantData | null;
  inStock: boolean;
  /** Raw text of the quantity input; "1" when the product has none. */
  quantityText: string;
}

export const VARIANT_CHANGE_EVENT = 'sf:variant-change';

export type Scope = Element | Document;

/** A1 product scope: the nearest `data-product-scope` ancestor, else the whole document. */
export function scopeOf(element: Element): Scope {
  return element.closest(`[${PRODUCT_SCOPE_ATTR}]`) ?? element.ownerDocument;
}

function cssString(value: string): string {
  return `"${value.replace(/["\\]/g, '\\$&')}"`;
}

/** Elements of one product inside a scope, matched by an id attribute. */
export function inScope<T extends Element = HTMLElement>(scope: Scope, selector: string, itemId: string, idAttr = 'data-item-id'): T[] {
  return [...scope.querySelectorAll<T>(`${selector}[${idAttr}=${cssString(itemId)}]`)];
}

export function isInStock(variant: VariantData | null): boolean {
  if (!variant) return false;
  return variant.unlimited === true || (typeof variant.qtyInStock === 'number' && variant.qtyInStock > 0);
}

export interface ProductInfo {
  itemId: string;
  productType: number;
  isSubscribable: boolean;
  variants: VariantData[];
  /** Option names in display order; empty for a one-variant product. */
  optionNames: string[];
  variantsElement: HTMLElement | null;
}

function readVariantsJson(element: Element): VariantData[] {
  const parsed = parseProps(element.getAttribute('data-variants') ?? '');
  if (!parsed.ok || !Array.isArray(parsed.value)) return [];
  return parsed.value.filter((v): v is VariantData => typeof v === 'object' && v !== null);
}

export function readOptionNames(variantsElement: Element): string[] {
  return [...variantsElement.querySelectorAll('.variant-option select[data-variant-option-name]')].map(
    (select) => select.getAttribute('data-variant-option-name') ?? '',
  );
}

/** A1 product data: the `.product-variants` JSON when present, else `sf-context.products`. */
export function productInfo(scope: Scope, itemId: string, context: PageContext): ProductInfo {
  const fromContext = context.products[itemId];
  const variantsElement = inScope(scope, '.product-variants', itemId)[0] ?? null;
  return {
    itemId,
    productType: fromContext?.productType ?? 0,
    isSubscribable: fromContext?.isSubscribable ?? false,
    variants: variantsElement ? readVariantsJson(variantsElement) : (fromContext?.variants ?? []),
    optionNames: variantsElement ? readOptionNames(variantsElement) : [],
    variantsElement,
  };
}

/** A3: the chosen values of the dropdowns (radios are kept in sync with them). */
export function readChosenValues(variantsElement: Element): Record<string, string> {
  const out: Record<string, string> = {};
  for (const select of variantsElement.querySelectorAll<HTMLSelectElement>('.variant-option select[data-variant-option-name]')) {
    const name = select.getAttribute('data-variant-option-name') ?? '';
    if (select.value !== '') out[name] = select.value;
  }
  return out;
}

export function computeSelection(info: ProductInfo, chosen: Record<string, string>, quantityText: string): SelectionState {
  if (!info.variantsElement) {
    const only = info.variants.length === 1 ? info.variants[0]! : null;
    return { unselectedOptions: [], selectedVariant: only, inStock: isInStock(only), quantityText };
  }
  const unselectedOptions = info.optionNames.filter((name) => !(name in chosen));
  let selectedVariant: VariantData | null = null;
  if (unselectedOptions.length === 0) {
    selectedVariant =
      info.variants.find((variant) => info.optionNames.every((name) => variant.attributes?.[name] === chosen[name])) ?? null;
  }
  return { unselectedOptions, selectedVariant, inStock: isInStock(selectedVariant), quantityText };
}

export interface SelectionStore {
  get(): SelectionState;
  info(): ProductInfo;
  /** Re-reads the variant controls and quantity text from the DOM and notifies on change. */
  refresh(): void;
  setQuantityText(text: string): void;
  subscribe(listener: (state: SelectionState) => void): () => void;
}

const stores = new WeakMap<Scope, Map<string, SelectionStore>>();

function readQuantityText(scope: Scope, itemId: string): string {
  const input = inScope(scope, '.product-quantity-input', itemId)[0]?.querySelector('input');
  return input ? (input as HTMLInputElement).value : '1';
}

/** The one selection store of a product within its scope (created on first use). */
export function selectionStore(scope: Scope, itemId: string, context: PageContext): SelectionStore {
  let byItem = stores.get(scope);
  if (!byItem) {
    byItem = new Map();
    stores.set(scope, byItem);
  }
  const existing = byItem.get(itemId);
  if (existing) return existing;

  const info = productInfo(scope, itemId, context);
  const listeners = new Set<(state: SelectionState) => void>();
  let quantityText = readQuantityText(scope, itemId);
  const compute = () =>
    computeSelection(info, info.variantsElement ? readChosenValues(info.variantsElement) : {}, quantityText);
  let state = compute();

  const store: SelectionStore = {
    get: () => state,
    info: () => info,
    refresh() {
      state = compute();
      for (const listener of [...listeners]) listener(state);
    },
    setQuantityText(text) {
      quantityText = text;
      state = { ...state, quantityText };
      for (const listener of [...listeners]) listener(state);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  byItem.set(itemId, store);
  return store;
}
