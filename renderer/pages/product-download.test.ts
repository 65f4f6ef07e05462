import { describe, expect, it } from 'vitest';
import type { Product } from '../store/types.ts';
import { useDemoHarness } from '../test-support/page-harness.ts';
import { downloadHtml } from './product-view.ts';

// A digital product's file and its size in units of 1024 (seed 001 §9), on its page.

describe('digital download size', () => {
  const h = useDemoHarness();

  it("the demo poster's page names its file and size (2,516,582 bytes is 2.4 MB)", async () => {
    const response = await h.inject('/shop/poster');
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<p class="sf-product-download">Digital download: poster.pdf, 2.4 MB</p>');
  });

  it('only digital products with a file say so; names are escaped', () => {
    const product = (productType: number, download: unknown) => ({ productType, extra: { download } }) as unknown as Product;
    expect(downloadHtml(product(1, { fileName: 'a.pdf', sizeBytes: 10 }))).toBe('');
    expect(downloadHtml(product(2, undefined))).toBe('');
    expect(downloadHtml(product(2, { fileName: '<b>.zip', sizeBytes: 1536 }))).toBe('<p class="sf-product-download">Digital download: &lt;b&gt;.zip, 1.5 KB</p>');
    expect(downloadHtml(product(2, { sizeBytes: 2048 }))).toBe('<p class="sf-product-download">Digital download: 2 KB</p>');
  });
});
