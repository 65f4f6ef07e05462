// Built-in template of `subscription-price` (PLUGINS §4): the `product-price` layout for the
// pricing options of a subscription product. Private; money values as in product-price.
export const SUBSCRIPTION_PRICE_TEMPLATE = `
{.var @from formattedFromPrice}{.var @sale formattedSubscriptionSalePrice}{.var @normal formattedNormalSubscriptionPrice}{.if formattedFromPriceMoney}{.var @from formattedFromPriceMoney|money}{.end}{.if formattedSubscriptionSalePriceMoney}{.var @sale formattedSubscriptionSalePriceMoney|money}{.end}{.if formattedNormalSubscriptionPriceMoney}{.var @normal formattedNormalSubscriptionPriceMoney|money}{.end}


<div class="subscription-price">
{.if @from}{fromText|message fromPrice:@from}
{.or}{.if @sale}<span class="visually-hidden v6-visually-hidden">Sale Price:</span>{formattedSubscriptionSalePriceText|message price:@sale} <span class="visually-hidden v6-visually-hidden">Original Price:</span><span class="original-price">{formattedNormalSubscriptionPriceText|message price:@normal}</span>
{.or}{.if @normal}{formattedNormalSubscriptionPriceText|message price:@normal}{.end}{.end}{.end}
</div>
`;
