// Built-in template of `product-scarcity` (PLUGINS §4). Not private; runs on the view
// {scarcityTemplateViews, scarcityText, scarcityShownByDefault} the formatter builds.
export const PRODUCT_SCARCITY_TEMPLATE = `
{.repeated section scarcityTemplateViews}
  <div class="product-scarcity"{.if attributes} data-variant-attributes="{attributes|json|htmltag}" hidden{.end}>
    {scarcityText|message qtyInStock:qtyInStock|htmltag}
  </div>
{.end}
`;
