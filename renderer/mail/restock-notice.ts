/**
 * The mail a restock sign-up receives when its variant is back (B13/B14, through the outbox).
 * One module so the send and the commerce email preview (page type 301) show the same words.
 */
export function restockNoticeMail(productTitle: string): { subject: string; body: string } {
  return {
    subject: `${productTitle} is back in stock`,
    body: `Good news: ${productTitle} is back in stock.`,
  };
}
