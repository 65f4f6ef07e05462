// The inline template of `product-checkout` (PLUGINS §4): the three checkout formatters
// applied to the same product, not private, outputs concatenated as they are.
export const PRODUCT_CHECKOUT_TEMPLATE = '{@|variants-select}{@|quantity-input}{@|add-to-cart-btn}';
