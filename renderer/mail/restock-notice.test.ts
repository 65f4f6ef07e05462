import { describe, expect, it } from 'vitest';
import { restockNoticeMail } from './restock-notice.ts';

describe('restockNoticeMail', () => {
  it("keeps B13's subject, and names the variant, the shop and the product's page when the sender knows them", () => {
    expect(restockNoticeMail('Rare vinyl')).toEqual({ subject: 'Rare vinyl is back in stock', body: 'Good news: Rare vinyl is back in stock.' });
    const mail = restockNoticeMail('Classic Tee', { variantLabel: 'L', shop: 'Quire Demo Shop', productUrl: 'https://shop.example/shop/tee' });
    expect(mail.subject).toBe('Classic Tee is back in stock');
    expect(mail.body).toBe('Good news: Classic Tee (L) is back in stock at Quire Demo Shop.\n\nOrder it here: https://shop.example/shop/tee\n');
    // A product of one variant has no label to name; a blank shop name is left out.
    expect(restockNoticeMail('Market Tote', { variantLabel: '', shop: ' ', productUrl: null }).body).toBe('Good news: Market Tote is back in stock.');
  });
});
