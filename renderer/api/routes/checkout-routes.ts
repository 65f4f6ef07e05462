import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { CHECKOUT_FIELD_TEXT, addressTooLongText, couponsLimitedText, type AddressPart } from '../../../hydrate/shared/checkout-text.ts';
import { CHECKOUT_ERR, checkoutCart, checkoutView, commerceRules, entryFieldValues, providersOf, quote } from '../../orders/checkout.ts';
import { confirmationUrl, offlineOrderUnits, placeOrder } from '../../orders/place-order.ts';
import { isKnownCoupon, normaliseCouponCodes } from '../../orders/pricing.ts';
import { PRODUCT_TYPE, type Site } from '../../store/types.ts';
import { purchasePrice } from '../cart-view.ts';
import { liveSession, mailOrigin, requireSite, type ApiDeps } from '../context.ts';
import { ApiError } from '../errors.ts';
import { takeDistinct } from '../rate-limits.ts';
import { addRoute, takeRateLimit, type RouteKit, type SchemaFailure } from '../route-kit.ts';
import { createEmptyCart, DAY_MS } from './cart-routes.ts';

// The checkout of the orders contract (renderer/orders/README.md): the view of a cart with
// its totals, a quote for an address, option and coupons, and placing the order. The gift
// card page has no cart, so it first makes a one-line cart of the chosen denomination.

const TEXT = Type.String({ maxLength: 1000 });
// Every address field is optional in the schema: a quote is asked while the visitor types,
// and placing reports each missing field next to it (CHECKOUT_INVALID), not as one 400.
const ADDRESS = Type.Object(
  {
    firstName: Type.Optional(TEXT),
    lastName: Type.Optional(TEXT),
    line1: Type.Optional(TEXT),
    line2: Type.Optional(TEXT),
    city: Type.Optional(TEXT),
    region: Type.Optional(TEXT),
    postalCode: Type.Optional(TEXT),
    country: Type.Optional(Type.String({ maxLength: 100, description: 'ISO 3166-1 alpha-2.' })),
  },
  { description: 'Where the order ships.' },
);
const QUOTE_FIELDS = {
  cartToken: Type.String({ minLength: 1, maxLength: 200 }),
  email: Type.Optional(TEXT),
  shippingAddress: Type.Optional(Type.Union([ADDRESS, Type.Null()])),
  shippingOptionId: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
  couponCodes: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 10 })),
};
const EXPIRY_PART = Type.Union([Type.Integer({ minimum: 0, maximum: 9999 }), Type.String({ maxLength: 4 })]);
const PAYMENT = Type.Object(
  {
    provider: Type.String({ minLength: 1, maxLength: 50, description: "A provider the store offers ('test', 'manual', …)." }),
    cardNumber: Type.Optional(Type.String({ maxLength: 40 })),
    expMonth: Type.Optional(EXPIRY_PART),
    expYear: Type.Optional(EXPIRY_PART),
    cvc: Type.Optional(Type.String({ maxLength: 8 })),
  },
  { description: 'The provider and its own fields; card fields are never stored or logged.' },
);

type Address = { firstName?: string; lastName?: string; line1?: string; line2?: string; city?: string; region?: string; postalCode?: string; country?: string };

/** The schema's optional address as the orders module's (missing fields empty, reported by the checks). */
function address(value: Address | null | undefined) {
  if (!value) return null;
  return {
    firstName: value.firstName ?? '',
    lastName: value.lastName ?? '',
    line1: value.line1 ?? '',
    ...(value.line2 ? { line2: value.line2 } : {}),
    city: value.city ?? '',
    region: value.region ?? '',
    postalCode: value.postalCode ?? '',
    country: value.country ?? '',
  };
}

const ADDRESS_PARTS = Object.keys(ADDRESS.properties) as AddressPart[];

/**
 * An address part past the schema's bound is the same field error placing gives a part past
 * ADDRESS_FIELD_MAX (CHECKOUT_INVALID, keyed `shippingAddress.<part>`), which the checkout
 * shows next to that field, instead of the schema's generic "Invalid shippingAddress.".
 * TypeBox reports a failure inside the address/null union at the union (`/shippingAddress`,
 * the whole object) or at the part (`/shippingAddress/line1`, the text): both are read. Only
 * the part's name goes back, never its text.
 */
function addressInvalid(failure: SchemaFailure): ApiError | undefined {
  if (failure.part !== 'body' || failure.field !== 'shippingAddress') return undefined;
  const part = failure.path.split('/')[2];
  const value: unknown = part === undefined ? failure.value : { [part]: failure.value };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const errors: Record<string, string> = {};
  for (const name of ADDRESS_PARTS) {
    const text = (value as Record<string, unknown>)[name];
    const max = ADDRESS.properties[name].maxLength ?? Infinity;
    // A country is chosen from a list, never typed: no length to tell of.
    if (typeof text === 'string' && text.length > max) errors[`shippingAddress.${name}`] = name === 'country' ? CHECKOUT_FIELD_TEXT.country : addressTooLongText(name);
  }
  return Object.keys(errors).length > 0 ? CHECKOUT_ERR.invalid(errors) : undefined;
}

/**
 * The coupon codes of a quote or a placement, under the guess limit (`couponGuesses`,
 * context.ts). A code the store does not know costs one place the first time this client sends
 * it, and nothing when the checkout sends it again with the next address or shipping change;
 * a code that exists costs nothing. Past the limit any code this client has not sent before is
 * refused, known or not (refusing only the misses would tell which guess hit): 429
 * `RATE_LIMITED` with Retry-After, and the coupon field's message at `errors.couponCodes`. The
 * codes it had checked before keep working, so a buyer's applied coupon stays applied. Placing
 * is checked the same way: a placement is no way around the limit.
 */
async function limitCouponGuesses(deps: ApiDeps, request: FastifyRequest, site: Site, codes: readonly string[] | undefined): Promise<void> {
  const normalised = normaliseCouponCodes(codes ?? []);
  if (normalised.length === 0) return;
  const known = commerceRules(site).coupons;
  const limits = { limiter: deps.limiters.couponGuesses, seen: deps.limiters.couponSeen };
  const verdict = await takeDistinct(request, limits, normalised, (code) => !isKnownCoupon(known, code));
  if (verdict.refused.length === 0) return;
  const wait = String(verdict.retryAfterSeconds);
  throw new ApiError(429, 'RATE_LIMITED', 'Too many requests.', { errors: { couponCodes: couponsLimitedText(verdict.retryAfterSeconds) }, headers: { 'retry-after': wait } });
}

const giftCardUnavailable = () => new ApiError(404, 'GIFT_CARD_NOT_FOUND', 'Gift card not found.');

export function registerCheckoutRoutes(kit: RouteKit): void {
  const { deps } = kit;

  addRoute(kit, {
    method: 'GET',
    url: '/commerce/checkout',
    schema: { summary: 'The checkout view of a cart: lines, shipping options, taxes, coupons and totals.', querystring: Type.Object({ cartToken: QUOTE_FIELDS.cartToken }) },
    handler: async (request) => {
      const site = await requireSite(deps);
      const cart = await checkoutCart(deps.store.read, request.query.cartToken, await liveSession(deps, request), deps.now());
      return checkoutView(cart, site, quote(cart, site, {}, deps.now()), await entryFieldValues(deps.store.read, cart), await offlineOrderUnits(deps.store.read, site, cart));
    },
  });

  addRoute(kit, {
    method: 'POST',
    url: '/commerce/checkout/quote',
    invalid: addressInvalid,
    schema: { summary: 'The checkout view recomputed for an address, a shipping option and coupons.', body: Type.Object(QUOTE_FIELDS) },
    handler: async (request) => {
      const body = request.body;
      const site = await requireSite(deps);
      const cart = await checkoutCart(deps.store.read, body.cartToken, await liveSession(deps, request), deps.now());
      await limitCouponGuesses(deps, request, site, body.couponCodes);
      const totals = quote(cart, site, { shippingAddress: address(body.shippingAddress), shippingOptionId: body.shippingOptionId, couponCodes: body.couponCodes }, deps.now());
      return checkoutView(cart, site, totals, await entryFieldValues(deps.store.read, cart), await offlineOrderUnits(deps.store.read, site, cart));
    },
  });

  addRoute(kit, {
    method: 'POST',
    url: '/commerce/checkout/place',
    crumb: true,
    invalid: addressInvalid,
    schema: {
      summary: 'Places the order: pays through the chosen provider, takes the stock, numbers the order, queues the receipt. Idempotent per cart and key.',
      body: Type.Object({
        ...QUOTE_FIELDS,
        payment: PAYMENT,
        idempotencyKey: Type.String({ minLength: 8, maxLength: 100, description: 'One per submission attempt; a retry with the same key gets the same order.' }),
        expectedTotalCents: Type.Optional(
          Type.Integer({
            minimum: 0,
            maximum: Number.MAX_SAFE_INTEGER,
            description: 'The grand total the buyer was shown; another total (the cart changed in another tab) is 409 CART_CHANGED before any payment.',
          }),
        ),
        expectedLinesKey: Type.Optional(
          Type.String({
            minLength: 1,
            maxLength: 100,
            description: "The checkout view's `linesKey` the buyer was shown; other lines (even at the same total) are 409 CART_CHANGED before any payment.",
          }),
        ),
      }),
    },
    handler: async (request) => {
      const body = request.body;
      await takeRateLimit(deps.limiters.checkoutPlace, request);
      const site = await requireSite(deps);
      await limitCouponGuesses(deps, request, site, body.couponCodes);
      const { order } = await placeOrder(
        deps,
        site,
        {
          cartToken: body.cartToken,
          email: body.email ?? '',
          shippingAddress: address(body.shippingAddress),
          shippingOptionId: body.shippingOptionId ?? null,
          couponCodes: body.couponCodes ?? [],
          payment: body.payment,
          idempotencyKey: body.idempotencyKey,
          expectedTotalCents: body.expectedTotalCents ?? null,
          expectedLinesKey: body.expectedLinesKey ?? null,
          siteUrl: mailOrigin(deps),
          // Counted by placeOrder once the order passed its checks: a refused one costs none.
          countOfflineOrder: () => takeRateLimit(deps.limiters.offlineOrders, request),
        },
        await liveSession(deps, request),
      );
      // What was charged and which coupons applied, so a caller that sent no expected total reads
      // the amount from the answer, not from a quote it may have taken earlier.
      return {
        orderId: order.id, orderNumber: order.orderNumber, status: order.status, testMode: order.testMode, confirmationUrl: confirmationUrl(order),
        grandTotalCents: order.grandTotal, couponCodes: order.couponCodes,
      };
    },
  });

  addRoute(kit, {
    method: 'POST',
    url: '/commerce/checkout/gift-card',
    crumb: true,
    schema: {
      summary: 'A one-line cart of the chosen gift card denomination, to check out (the gift card page has no cart).',
      body: Type.Object({ itemId: Type.String({ minLength: 1, maxLength: 200 }), sku: Type.String({ minLength: 1, maxLength: 200 }) }),
    },
    handler: async (request) => {
      const { itemId, sku } = request.body;
      const site = await requireSite(deps);
      // Outside the transaction, as every limit: on PostgreSQL the counter is another pooled connection.
      await takeRateLimit(deps.limiters.cartCreations, request);
      const cartToken = await deps.store.transaction(async (repo) => {
        const product = await repo.getProduct(itemId);
        const variant = product?.productType === PRODUCT_TYPE.giftCard ? product.variants.find((candidate) => candidate.sku === sku) : undefined;
        if (!product || !variant) throw giftCardUnavailable();
        const id = await createEmptyCart(deps, repo, site, { kind: 'express', ownerSiteUserId: null, lifetimeMs: DAY_MS });
        await repo.insertEntry(id, {
          id: deps.newId('e'), itemId: product.id, sku: variant.sku, variantId: variant.id, quantity: 1, productType: product.productType,
          attributes: variant.attributes, title: product.title, purchasePriceCents: purchasePrice(variant), additionalFields: null,
        });
        return id;
      });
      return { cartToken };
    },
  });
}
