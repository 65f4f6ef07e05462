// Built-in template of `product-restock-notification` (PLUGINS §4). Private: it sees only
// the view the formatter builds ({product, views, messages, mailingListSignUpEnabled,
// mailingListOptInByDefault, captchaSiteKey}). Six newlines precede the first view.
export const PRODUCT_RESTOCK_NOTIFICATION_TEMPLATE = `
{# one block per restock view}





{.repeated section views}
<div class="product-restock-notification" data-product-id="{product.id}" data-variant-id="{variantId}"{.if hiddenByDefault} hidden{.end}>
  <span class="product-restock-cta">{messages.CTAText|htmltag}</span>
  <form class="product-restock-form" action="#">
    <input type="text" x-autocompletetype="email" spellcheck="false" name="email" placeholder="{messages.placeholderText|htmlattr}">
    <input class="sqs-editable-button" type="submit" value="{messages.buttonText|htmlattr}">
  </form>
{.if mailingListSignUpEnabled}  <label class="product-restock-mailing-list"><input type="checkbox" name="isJoinMailingList"{.if mailingListOptInByDefault} checked{.end}>{messages.mailingListDescription|htmltag}</label>{.end}
{.if captchaSiteKey}  <div class="captcha-container"></div>{.end}
</div>
{.end}
`;
