/**
 * The mail a restock sign-up receives when its variant is back (B13/B14, through the outbox).
 * One module so the send and the commerce email preview (page type 301) show the same words.
 * The subject is B13's; the text names the variant the visitor signed up for (a "Classic Tee is
 * back" mail to someone waiting for size L, while only S came back, would mislead) and links to
 * the product's page, when the sender knows them: the visitor signed up days before, on a page
 * long closed.
 */
export function restockNoticeMail(
  productTitle: string,
  details: { variantLabel?: string; productUrl?: string | null; shop?: string } = {},
): { subject: string; body: string } {
  const variant = details.variantLabel?.trim();
  const shop = details.shop?.trim();
  const lines = [`Good news: ${productTitle}${variant ? ` (${variant})` : ''} is back in stock${shop ? ` at ${shop}` : ''}.`];
  if (details.productUrl) lines.push('', `Order it here: ${details.productUrl}`, '');
  return { subject: `${productTitle} is back in stock`, body: lines.join('\n') };
}
