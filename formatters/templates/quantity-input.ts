// Built-in template of `quantity-input` (PLUGINS §4). Runs on the product node, not
// private: the label comes from the page's `localizedStrings`. Three newlines precede the
// markup once the source is trimmed.
export const QUANTITY_INPUT_TEMPLATE = `
{# every branch sets the label, so a label of the page is never picked up by mistake}
{.if localizedStrings.productQuantityInputLabel}{.var @label localizedStrings.productQuantityInputLabel}{.or}{.eval @label = 'Quantity'}{.end}

<div class="product-quantity-input" data-item-id="{id}" data-animation-role="content">
  <div class="quantity-label">{@label}:</div>
  <input aria-label="{@label}" size="4" max="9999" min="1" value="1" type="number" step="1"></input>
</div>
`;
