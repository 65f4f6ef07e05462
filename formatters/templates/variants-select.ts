// Built-in template of `variants-select` (PLUGINS §4). Not private; runs on the view
// {item, options: [{name, values}], displayText, selectText, subscribable} that the
// formatter builds. The display and select texts are message patterns (`{name}`,
// `Select {variantName}`), formatted per option. The leading text after trimming is
// LF, four times two-spaces + LF, LF, two spaces.
export const VARIANTS_SELECT_TEMPLATE = `
{# options are listed in variantOptionOrdering order}
  {# values are the distinct attribute texts, in variant order}
  {# the aria-label is not escaped: the reference inserts the message text as is}
  {# every other name and value is htmltag-escaped}
  {# subscribable products carry their plan for the storefront script}

  <div class="product-variants" data-item-id="{item.id}" data-variants="{item.structuredContent.variants|json|htmltag}"{.if subscribable} data-is-subscribable="true" data-subscription-plan="{item.structuredContent.subscriptionPlan|json|htmltag}"{.end} data-animation-role="content">{.repeated section options}
    <div class="variant-option">
    <div class="variant-option-title">{displayText|message name:name|htmltag}: </div>
    <div class="variant-select-wrapper">
      <select aria-label="{selectText|message variantName:name}" data-variant-option-name="{name|htmltag}">
        <option value="">{selectText|message variantName:name|htmltag}</option>
        {.repeated section values}<option value="{@|htmltag}">{@|htmltag}</option>{.end}
      </select>
    </div>
    <div class="variant-radiobtn-wrapper" data-variant-option-name="{name|htmltag}">{.repeated section values}
      <input type="radio" class="variant-radiobtn" value="{@|htmltag}" name="variant-option-{name|htmltag}" id="variant-option-{name|htmltag}-{@|htmltag}"/>
      <label class="sqs-button-element--secondary" role="button" tabindex="0" for="variant-option-{name|htmltag}-{@|htmltag}">{@|htmltag}</label>{.end}
    </div>
    </div>{.end}
  </div>{.newline}
`;
