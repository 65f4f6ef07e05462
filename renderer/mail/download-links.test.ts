import { describe, expect, it } from 'vitest';
import type { PlacedOrder } from '../store/types.ts';
import { downloadLinksMail } from './download-links.ts';

// The download links the owner re-sends: one per digital product with what is left of its
// limit, and nothing more of the order than its number.

const TOKEN = 'A'.repeat(32);
const order = (over: Partial<PlacedOrder> = {}): PlacedOrder =>
  ({
    orderNumber: 12,
    status: 'paid',
    currency: 'USD',
    grandTotal: 2700,
    email: 'buyer@example.com',
    downloadToken: TOKEN,
    payment: { provider: 'test', reference: 'test_secret_ref', label: 'Visa ending 4242 (test)' },
    shippingAddress: null,
    items: [
      { itemId: 'poster', productName: 'Poster <digital>', productType: 2, quantity: 2 },
      { itemId: 'tee', productName: 'Classic Tee', productType: 1, quantity: 1 },
      { itemId: 'ebook', productName: 'Field guide', productType: 2, quantity: 1 },
    ],
    ...over,
  }) as PlacedOrder;

describe('downloadLinksMail', () => {
  it('lists each digital product once with its absolute link and the downloads left', () => {
    const mail = downloadLinksMail(order(), { poster: 3, ebook: 9 }, { title: 'Demo & Shop', url: 'https://shop.example/' });
    expect(mail.subject).toBe('Your downloads from Demo & Shop (order #12)');
    expect(mail.text).toBe(
      [
        'Here are the download links of your order #12 from Demo & Shop.',
        '',
        `Poster <digital>: https://shop.example/commerce/downloads/${TOKEN}/poster (7 downloads left)`,
        `Field guide: https://shop.example/commerce/downloads/${TOKEN}/ebook (1 download left)`,
        '',
        'Each file can be downloaded 10 times.',
        '',
      ].join('\n'),
    );
    expect(mail.html).toContain(`<li><a href="https://shop.example/commerce/downloads/${TOKEN}/poster">Download Poster &lt;digital&gt;</a> (7 downloads left)</li>`);
    expect(mail.html).toContain('from Demo &amp; Shop.');
  });

  it('says nothing of the order beyond its number: no payment reference, total, email or physical line', () => {
    const mail = downloadLinksMail(order(), {}, { title: 'Shop', url: 'https://shop.example' });
    for (const part of [mail.text, mail.html]) {
      expect(part).not.toContain('test_secret_ref');
      expect(part).not.toContain('Visa');
      expect(part).not.toContain('$27.00');
      expect(part).not.toContain('buyer@example.com');
      expect(part).not.toContain('Classic Tee');
    }
    expect(mail.text).toContain('(10 downloads left)');
  });
});
