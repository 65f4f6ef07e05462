import { describe, expect, it } from 'vitest';
import type { OrderItem, PlacedOrder } from '../store/types.ts';
import { attachmentDisposition, downloadContentType, downloadLinks, newDownloadToken, DOWNLOAD_TOKEN } from './digital-downloads.ts';

const line = (itemId: string, productType: OrderItem['productType'], productName = itemId): OrderItem => ({
  sku: itemId.toUpperCase(), productName, quantity: 1, unitPrice: 100, itemId, variantId: `${itemId}-1`, productType, variantLabel: '', lineTotal: 100,
});
const order = (status: PlacedOrder['status'], items: OrderItem[], downloadToken?: string) => ({ status, items, downloadToken }) as PlacedOrder;
const TOKEN = 'a'.repeat(32);

describe('digital downloads', () => {
  it('a token is 32 URL-safe characters, new each time', () => {
    const tokens = new Set(Array.from({ length: 50 }, newDownloadToken));
    expect(tokens.size).toBe(50);
    for (const token of tokens) expect(token).toMatch(DOWNLOAD_TOKEN);
  });

  it('links: one per digital product of a paid or fulfilled order, none before payment or after a cancel', () => {
    const items = [line('poster', 2, 'Poster'), line('tee', 1), line('poster', 2, 'Poster'), line('gc', 4), line('ebook', 2, 'E-book')];
    expect(downloadLinks(order('paid', items, TOKEN))).toEqual([
      { itemId: 'poster', title: 'Poster', url: `/commerce/downloads/${TOKEN}/poster` },
      { itemId: 'ebook', title: 'E-book', url: `/commerce/downloads/${TOKEN}/ebook` },
    ]);
    expect(downloadLinks(order('fulfilled', items, TOKEN), 'https://shop.example/')[0]!.url).toBe(`https://shop.example/commerce/downloads/${TOKEN}/poster`);
    expect(downloadLinks(order('awaiting-payment', items, TOKEN))).toEqual([]);
    expect(downloadLinks(order('cancelled', items, TOKEN))).toEqual([]);
    expect(downloadLinks(order('paid', items))).toEqual([]);
    // An item id is a path segment of the link, escaped.
    expect(downloadLinks(order('paid', [line('a/b c', 2)], TOKEN))[0]!.url).toBe(`/commerce/downloads/${TOKEN}/a%2Fb%20c`);
  });

  it('Content-Type by extension (plain bytes when unknown), and an attachment whose name survives quotes and non-ASCII', () => {
    expect(downloadContentType('/site/downloads/Poster.PDF')).toBe('application/pdf');
    expect(downloadContentType('/site/downloads/guide.epub')).toBe('application/epub+zip');
    expect(downloadContentType('/site/downloads/tool.exe')).toBe('application/octet-stream');
    expect(attachmentDisposition('/site/downloads/poster.pdf')).toBe(`attachment; filename="poster.pdf"; filename*=UTF-8''poster.pdf`);
    expect(attachmentDisposition('/site/downloads/Café "noir".pdf')).toBe(`attachment; filename="Caf_ _noir_.pdf"; filename*=UTF-8''Caf%C3%A9%20%22noir%22.pdf`);
  });
});
