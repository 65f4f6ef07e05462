import { Type } from '@sinclair/typebox';
import type { Product, Variant } from '../../store/types.ts';
import { ApiError, GENERIC } from '../errors.ts';
import { addRoute, checkedInHandler, fieldCodes, type RouteKit, type RouteSchema, type SchemaRequest } from '../route-kit.ts';

// B5 (public stock read) and B28 (admin stock write, so the restock flow can be driven
// end to end in tests).

const MAX_STOCK = 1_000_000_000;

const invalidItemId = () => new ApiError(400, 'INVALID_ITEM_ID', 'itemId is required.');

const READ_SCHEMA = {
  summary: 'B5: stock of every variant of a product.',
  querystring: Type.Object({ itemId: Type.String({ minLength: 1 }) }),
} satisfies RouteSchema;

// B28 answers an unknown item or variant (404) before a bad value (400), so the values are
// checked in the handler, after the lookups.
const WRITE_SCHEMA = {
  summary: 'B28: set the stock of one variant.',
  params: Type.Object({ itemId: Type.String(), variantId: Type.String() }),
  body: Type.Object({
    qtyInStock: Type.Optional(checkedInHandler(Type.Integer({ minimum: 0, maximum: MAX_STOCK }), 'After the item and variant lookups.')),
    unlimited: Type.Optional(checkedInHandler(Type.Boolean(), 'After the item and variant lookups.')),
    expected: Type.Optional(
      Type.Object(
        { qtyInStock: Type.Integer({ minimum: 0, maximum: MAX_STOCK }), unlimited: Type.Boolean() },
        {
          additionalProperties: false,
          description:
            'The stock the write was made from (as B5 or the admin inventory read it). When the variant no longer has it, nothing is written: 409 STOCK_CHANGED.',
        },
      ),
    ),
  }),
} satisfies RouteSchema;

/**
 * The stock is set to an absolute number, so two owners (or two tabs, or an owner and a sale)
 * writing from the same reading would overwrite each other without either knowing. A write
 * that names the stock it was made from is refused when the variant no longer has it; the
 * message says what it is now, for the owner to decide again.
 */
const stockChanged = (sku: string, now: Variant) =>
  new ApiError(
    409,
    'STOCK_CHANGED',
    `The stock of ${sku} changed since you read it: it is now ${now.unlimited ? 'unlimited' : now.qtyInStock}. Nothing was saved.`,
  );

const invalidExpected = () => GENERIC.badRequest('expected must be { qtyInStock: integer 0 to 1000000000, unlimited: boolean }.');

function stockResult(product: Product, variant: Variant) {
  return {
    itemId: product.id,
    variantId: variant.id,
    sku: variant.sku,
    unlimited: variant.unlimited,
    qtyInStock: variant.unlimited ? 0 : variant.qtyInStock,
  };
}

export function registerStockRoutes(kit: RouteKit): void {
  const { deps } = kit;

  const readStock = async (request: SchemaRequest<typeof READ_SCHEMA>) => {
    const { itemId } = request.query;
    const product = itemId.length <= 200 ? await deps.store.read.getProduct(itemId) : null;
    if (!product) throw new ApiError(404, 'ITEM_NOT_FOUND', 'Item not found.');
    return { results: product.variants.map((variant) => stockResult(product, variant)) };
  };
  // The client calls the path with a trailing slash; both spellings answer (B5).
  for (const url of ['/commerce/inventory/stock/', '/commerce/inventory/stock']) {
    addRoute(kit, { method: 'GET', url, schema: READ_SCHEMA, invalid: invalidItemId, handler: readStock });
  }

  addRoute(kit, {
    method: 'PUT',
    url: '/commerce/inventory/stock/:itemId/:variantId',
    admin: true,
    schema: WRITE_SCHEMA,
    invalid: fieldCodes({ expected: invalidExpected }),
    handler: async (request) => {
      const { itemId, variantId } = request.params;
      const body = request.body;
      return deps.store.transaction(async (repo) => {
        const product = await repo.getProduct(itemId);
        if (!product) throw new ApiError(404, 'ITEM_NOT_FOUND', 'Item not found.');
        const current = product.variants.find((variant) => variant.id === variantId);
        if (!current) throw new ApiError(404, 'VARIANT_NOT_FOUND', 'Variant not found.');
        const { qtyInStock, unlimited } = body;
        const qtyOk =
          qtyInStock === undefined ||
          (typeof qtyInStock === 'number' && Number.isInteger(qtyInStock) && qtyInStock >= 0 && qtyInStock <= MAX_STOCK);
        if (!qtyOk || (qtyInStock === undefined && unlimited === undefined)) {
          throw GENERIC.badRequest(`qtyInStock must be an integer from 0 to ${MAX_STOCK}.`);
        }
        if (unlimited !== undefined && typeof unlimited !== 'boolean') {
          throw GENERIC.badRequest('unlimited must be a boolean.');
        }
        const change: { qtyInStock?: number; unlimited?: boolean } = {};
        if (typeof qtyInStock === 'number') change.qtyInStock = qtyInStock;
        if (typeof unlimited === 'boolean') change.unlimited = unlimited;
        // The comparison is made again by the UPDATE itself, so a sale committed between this
        // read and the write cannot slip through.
        const variant = await repo.updateVariantStock(itemId, variantId, change, body.expected);
        if (variant === 'stale') {
          const now = (await repo.getProduct(itemId))?.variants.find((entry) => entry.id === variantId) ?? current;
          throw stockChanged(current.sku, now);
        }
        if (!variant) throw new ApiError(404, 'VARIANT_NOT_FOUND', 'Variant not found.');
        return { result: stockResult(product, variant) };
      });
    },
  });
}
