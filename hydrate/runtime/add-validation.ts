import type { SelectionState } from './product-scope.ts';

/** A1 step 2 messages, quoted from the seeds (D11, E2, E3). */
export const ADD_MESSAGES = {
  unavailable: 'Sorry, that item variant is unavailable. Please select another variant.',
  notEnough: 'Sorry, we do not have enough of that item available.',
  quantityNaN: 'Quantity must be a number.',
  quantityNotInteger: 'Quantity must be a whole number',
  giftCardDenomination: 'Select a denomination for the Gift Card',
  // Designed (issue 18): the seed names a paywall type and an unknown type on buttons, not their text.
  paywall: 'This content comes with a membership; it is not sold through the cart.',
  unknownType: 'Sorry, this item cannot be added to the cart.',
} as const;

/**
 * Seed 000 §1: besides physical (1), digital (2), service (3) and gift card (4), a paywall
 * type and an unknown type appear on add buttons; neither goes into the cart. The paywall's
 * id is designed (the seed gives none); any other id the page writes is unknown. An empty
 * attribute (a product without a type, PLUGINS' missing field) or one that is no number
 * stays a plain product.
 */
export const PAYWALL_PRODUCT_TYPE = 5;

export type UnsellableKind = 'paywall' | 'unknown';

export function unsellableKind(productTypeAttr: string | null): UnsellableKind | null {
  const text = (productTypeAttr ?? '').trim();
  if (text === '') return null;
  const type = Number(text);
  // Text that is no id at all is malformed markup, which the button tolerates as before.
  if (!/^\d+$/.test(text)) return null;
  if (type === PAYWALL_PRODUCT_TYPE) return 'paywall';
  return type >= 1 && type <= 4 ? null : 'unknown';
}

/** `Please select the …` with E2's literal reading: serial comma before `and` for 3+. */
export function selectOptionsMessage(options: readonly string[]): string {
  if (options.length === 1) return `Please select the ${options[0]} option.`;
  if (options.length === 2) return `Please select the ${options[0]} and ${options[1]} options.`;
  const head = options.slice(0, -1).join(', ');
  return `Please select the ${head}, and ${options[options.length - 1]} options.`;
}

export type AddValidation = { ok: true; quantity: number; sku: string | null } | { ok: false; message: string };

/** A1 step 2, in the designed order; the first failure wins. */
export function validateAdd(state: SelectionState): AddValidation {
  if (state.unselectedOptions.length > 0) return { ok: false, message: selectOptionsMessage(state.unselectedOptions) };
  const variant = state.selectedVariant;
  if (!variant) return { ok: false, message: ADD_MESSAGES.unavailable };
  if (variant.unlimited !== true && variant.qtyInStock !== undefined && Number(variant.qtyInStock) <= 0) {
    return { ok: false, message: ADD_MESSAGES.notEnough };
  }
  const text = state.quantityText;
  const quantity = Number(text);
  if (text.trim() === '' || Number.isNaN(quantity)) return { ok: false, message: ADD_MESSAGES.quantityNaN };
  if (!Number.isInteger(quantity)) return { ok: false, message: ADD_MESSAGES.quantityNotInteger };
  return { ok: true, quantity, sku: typeof variant.sku === 'string' ? variant.sku : null };
}
