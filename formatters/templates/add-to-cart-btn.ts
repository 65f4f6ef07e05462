// Built-in template of `add-to-cart-btn` (PLUGINS §4). Runs on the product node and is not
// private, so `localizedStrings.*` resolve from the page. The template is trimmed before it
// is compiled; each of the 13 lines before the markup then emits one newline.
export const ADD_TO_CART_BTN_TEMPLATE = `
{# label: custom text, else the subscribe or add-to-cart string of the page, else English.}
{# every branch sets the label, so a label of the page is never picked up by mistake}
{.if structuredContent.useCustomAddButtonText && structuredContent.customAddButtonText}{.var @label structuredContent.customAddButtonText}{.or}{.if structuredContent.isSubscribable}{.if localizedStrings.productSubscribeText}{.var @label localizedStrings.productSubscribeText}{.or}{.eval @label = 'Subscribe'}{.end}{.or}{.if localizedStrings.productAddToCartText}{.var @label localizedStrings.productAddToCartText}{.or}{.eval @label = 'Add To Cart'}{.end}{.end}{.end}










<div class="sqs-add-to-cart-button-wrapper" data-animation-role="button">
  <div class="sqs-add-to-cart-button sqs-suppress-edit-mode sqs-editable-button sqs-button-element--primary {.if structuredContent.additionalFieldsFormId && structuredContent.additionalFieldsForm}use-form{.end}" role="button" tabindex="0" data-dynamic-strings data-collection-id="{collectionId}" data-item-id="{id}" data-product-type="{structuredContent.productType}" data-use-custom-label="{structuredContent.useCustomAddButtonText}" {.if structuredContent.isSubscribable}data-is-subscription="{structuredContent.isSubscribable}" {.end}data-original-label="{@label|htmlattr}" {.if structuredContent.additionalFieldsFormId && structuredContent.additionalFieldsForm}data-form="{structuredContent.additionalFieldsForm|json|htmlattr}"{.end}{.if structuredContent.productSubscriptionOptions && structuredContent.isSubscribable}data-subscription-option-id="{structuredContent.productSubscriptionOptions.0.id}"{.end}>
    <div class="sqs-add-to-cart-button-inner">{@label|htmltag}</div>
  </div>
</div>
`;
