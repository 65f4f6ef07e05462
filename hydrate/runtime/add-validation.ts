import type { SelectionState } from './product-scope.ts';

/** A1 step 2 messages, quoted from the seeds (D11, E2, E3). */
export const ADD_MESSAGES = {
  unavailable: 'Sorry, that item variant is unavailable. Please select another variant.',
  notEnough: 'Sorry, we do not have enough of that item available.',
  quantityNaN: 'Quantity must be a number.',
  quantityNotInteger: 'Quantity must be a whole number',
  giftCardDenomination: 'Select a denomination for the Gift Card',
} as const;

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
