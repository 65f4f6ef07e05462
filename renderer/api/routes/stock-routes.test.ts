import { describe, expect, it } from 'vitest';
import { adminHeaders, json, useApiHarness } from '../../test-support/api-harness.ts';

// B28 with `expected`: a stock write made from a reading the variant no longer has is refused
// (409 STOCK_CHANGED, nothing written), so two owners or two tabs cannot overwrite each other.

const h = useApiHarness();
const URL = '/api/commerce/inventory/stock/p2/v2b';
const put = (payload: Record<string, unknown>) => h.inject({ method: 'PUT', url: URL, payload, headers: adminHeaders() });
const stock = async () => json(await h.inject({ method: 'GET', url: '/api/commerce/inventory/stock/?itemId=p2' })).results[1];

describe('B28 stock write with the stock it was made from', () => {
  it('writes when the variant still has the stock the owner read', async () => {
    const before = await stock();
    const ok = await put({ qtyInStock: 7, unlimited: false, expected: { qtyInStock: before.qtyInStock, unlimited: before.unlimited } });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(json(ok).result).toMatchObject({ unlimited: false, qtyInStock: 7 });
  });

  it('refuses a write from an older reading with 409 STOCK_CHANGED and the stock it has now; nothing changes', async () => {
    const before = await stock();
    expect((await put({ qtyInStock: 9 })).statusCode).toBe(200); // another tab
    const stale = await put({ qtyInStock: 4, unlimited: false, expected: { qtyInStock: before.qtyInStock, unlimited: before.unlimited } });
    expect(stale.statusCode).toBe(409);
    expect(json(stale)).toEqual({ error: 'The stock of SQ-2B changed since you read it: it is now 9. Nothing was saved.', code: 'STOCK_CHANGED' });
    expect((await stock()).qtyInStock).toBe(9);
  });

  it('unlimited and back: a variant made unlimited elsewhere refuses a count written from the old count', async () => {
    expect((await put({ qtyInStock: 3, unlimited: false })).statusCode).toBe(200);
    const toUnlimited = await put({ unlimited: true, expected: { qtyInStock: 3, unlimited: false } });
    expect(json(toUnlimited).result).toMatchObject({ unlimited: true, qtyInStock: 0 });
    const stale = await put({ qtyInStock: 5, unlimited: false, expected: { qtyInStock: 3, unlimited: false } });
    expect(json(stale).error).toBe('The stock of SQ-2B changed since you read it: it is now unlimited. Nothing was saved.');
    // An unlimited variant's count is not part of what was read.
    const back = await put({ qtyInStock: 5, unlimited: false, expected: { qtyInStock: 0, unlimited: true } });
    expect(json(back).result).toMatchObject({ unlimited: false, qtyInStock: 5 });
  });

  it('a malformed expected is 400 with what it must be; an unknown variant is still 404', async () => {
    for (const expected of [{ qtyInStock: '3', unlimited: false }, { qtyInStock: 3 }, 3, { qtyInStock: 3, unlimited: false, extra: 1 }]) {
      const bad = await put({ qtyInStock: 1, expected });
      expect(bad.statusCode).toBe(400);
      expect(json(bad)).toEqual({ error: 'expected must be { qtyInStock: integer 0 to 1000000000, unlimited: boolean }.', code: 'BAD_REQUEST' });
    }
    const unknown = await h.inject({ method: 'PUT', url: '/api/commerce/inventory/stock/p2/nope', payload: { qtyInStock: 1, expected: { qtyInStock: 0, unlimited: false } }, headers: adminHeaders() });
    expect(json(unknown).code).toBe('VARIANT_NOT_FOUND');
  });
});
