// Built-in template of `product-price` (PLUGINS §4). Private: it sees only the view the
// formatter builds. In legacy mode a price (`formattedNormalPrice`) is finished
// `sqs-money-native` markup; in CLDR mode the view holds a money node instead
// (`formattedNormalPriceMoney`) and the template formats it with the `money` formatter.
// Three newlines precede the markup once the source is trimmed.
export const PRODUCT_PRICE_TEMPLATE = `
{.var @from formattedFromPrice}{.var @sale formattedSalePrice}{.var @normal formattedNormalPrice}{.if formattedFromPriceMoney}{.var @from formattedFromPriceMoney|money}{.end}{.if formattedSalePriceMoney}{.var @sale formattedSalePriceMoney|money}{.end}{.if formattedNormalPriceMoney}{.var @normal formattedNormalPriceMoney|money}{.end}


<div class="product-price">
{.if @from}{fromText|message fromPrice:@from price:@from billingPeriodValue:billingPeriodValue duration:duration}
{.or}{.if @sale}<span class="visually-hidden v6-visually-hidden">Sale Price:</span>{formattedSalePriceText|message price:@sale billingPeriodValue:billingPeriodValue duration:duration} <span class="visually-hidden v6-visually-hidden">Original Price:</span><span class="original-price">{formattedNormalPriceText|message price:@normal billingPeriodValue:billingPeriodValue duration:duration}</span>
{.or}{.if @normal}{formattedNormalPriceText|message price:@normal billingPeriodValue:billingPeriodValue duration:duration}{.end}{.end}{.end}
</div>
`;
