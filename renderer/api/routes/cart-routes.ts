import { Type, type TSchema } from '@sinclair/typebox';
import type { Repository } from '../../store/repository.ts';
import type { CartEntryRecord, CartKind, CartRecord, Product, Site, Variant } from '../../store/types.ts';
import { ENTRY_UNAVAILABLE, cartView, emptyCartView, entryView, mockCartView, purchasePrice } from '../cart-view.ts';
import { callerCart, liveSession, requireSite, type ApiDeps } from '../context.ts';
import { CART_COOKIE_MAX_AGE_SECONDS, clearCartCookies, setCartCookies } from '../cookies.ts';
import { ApiError, GENERIC } from '../errors.ts';
import { FIELD_MESSAGES, parseFieldsObject, validateFormValues } from '../form-validation.ts';
import { QueryFlag, addRoute, checkedInHandler, fieldCodes, takeRateLimit, type RouteKit } from '../route-kit.ts';

// B1–B4, B26, B27: the shopping cart. Every write runs in one transaction that locks the
// cart row first, so concurrent adds cannot both pass the stock check on stale counts.

export const DAY_MS = 24 * 60 * 60 * 1000;
export const MAX_QUANTITY = 9999;
/**
 * Lines one cart holds (designed here; the spec sets none). A line per distinct engraving made
 * carts of 1,000 lines, and reading one for checkout held the embedded database for 2.6 s,
 * every other visitor's page waiting behind it.
 */
export const MAX_CART_ENTRIES = 100;

const ERR = {
  invalidItemId: () => new ApiError(400, 'INVALID_ITEM_ID', 'itemId is required.'),
  itemNotFound: () => new ApiError(404, 'ITEM_NOT_FOUND', 'Item not found.'),
  quantityNaN: () => new ApiError(400, 'QUANTITY_NAN', 'Quantity must be a number.'),
  quantityNotInteger: () => new ApiError(400, 'QUANTITY_NOT_INTEGER', 'Quantity must be a whole number'),
  quantityRange: () => new ApiError(400, 'QUANTITY_RANGE', `Quantity must be between 1 and ${MAX_QUANTITY}.`),
  giftCard: () => new ApiError(400, 'GIFT_CARD_NOT_ADDABLE', 'Gift cards are purchased on the gift card page.'),
  subscription: () => new ApiError(400, 'SUBSCRIPTION_NOT_ADDABLE', 'Subscription items cannot be added to the cart.'),
  notSubscribable: () => new ApiError(400, 'NOT_SUBSCRIBABLE', 'This item is not available as a subscription.'),
  variantUnavailable: () =>
    new ApiError(400, 'VARIANT_UNAVAILABLE', 'Sorry, that item variant is unavailable. Please select another variant.'),
  quantityLimit: () => new ApiError(400, 'QUANTITY_LIMIT', 'Only one of this item can be purchased.'),
  outOfStock: () => new ApiError(409, 'OUT_OF_STOCK', 'Sorry, we do not have enough of that item available.'),
  cartFull: () => new ApiError(409, 'CART_FULL', `A cart holds at most ${MAX_CART_ENTRIES} different items. Remove one to add another.`),
  fieldsInvalid: () =>
    new ApiError(400, 'ADDITIONAL_FIELDS_INVALID', 'Could not parse the form fields, please check your entries.'),
  formInvalid: (errors: Record<string, string>) =>
    new ApiError(400, 'FORM_INVALID', FIELD_MESSAGES.formInvalid, { errors }),
  entryNotFound: () => new ApiError(404, 'ENTRY_NOT_FOUND', 'Cart entry not found.'),
  entryMismatch: () => new ApiError(400, 'ENTRY_MISMATCH', 'Item does not match the cart entry.'),
  noForm: () => new ApiError(400, 'NO_FORM', 'This item has no form.'),
  // The line's product or variant left the catalogue: "select another variant" sent the visitor
  // looking for a choice the cart page does not offer.
  itemUnavailable: () => new ApiError(409, 'ITEM_UNAVAILABLE', ENTRY_UNAVAILABLE.message),
};

/** B2 quantity rules, in the order of its table. */
export function checkQuantity(value: unknown, options: { allowZero?: boolean } = {}): number {
  if (typeof value !== 'number' || Number.isNaN(value)) throw ERR.quantityNaN();
  if (!Number.isInteger(value)) throw ERR.quantityNotInteger();
  if (options.allowZero && value === 0) return 0;
  if (value < 1 || value > MAX_QUANTITY) throw ERR.quantityRange();
  return value;
}

async function loadProduct(repo: Repository, itemId: string): Promise<Product> {
  const product = itemId.length <= 200 ? await repo.getProduct(itemId) : null;
  if (!product) throw ERR.itemNotFound();
  return product;
}

/** A null sku picks the only variant; anything else must name one exactly. */
function chooseVariant(product: Product, sku: unknown): Variant {
  if (sku === null || sku === undefined) {
    if (product.variants.length === 1 && product.variants[0]) return product.variants[0];
    throw ERR.variantUnavailable();
  }
  const variant = typeof sku === 'string' ? product.variants.find((candidate) => candidate.sku === sku) : undefined;
  if (!variant) throw ERR.variantUnavailable();
  return variant;
}

/** One bound on the quantity of a cart line, with the B2 error for going past it. */
export interface LineBound {
  max: number;
  refuse: () => ApiError;
}

/**
 * The B2 bounds on one line of a cart, in the order B2 checks them: the service limit (the
 * item's quantity over the whole cart), the variant's stock (item and sku over the whole
 * cart) and the 1..9999 range of the line itself. `others` are the cart's other lines.
 * Every path that sets a quantity uses these: adding and changing a quantity refuse what
 * goes past them (`checkLineQuantity`), merging and cloning carts keep what fits
 * (`fittingQuantity`), so no path can grow a line past the stock, the range or int4.
 */
export function lineBounds(
  site: Site,
  product: Product,
  variant: Variant,
  others: readonly CartEntryRecord[],
): LineBound[] {
  const bounds: LineBound[] = [];
  if (product.productType === 3 && !site.settings.multipleQuantityAllowedForServices) {
    bounds.push({ max: 1 - sumOf(others, (entry) => entry.itemId === product.id), refuse: ERR.quantityLimit });
  }
  if (!variant.unlimited) {
    bounds.push({ max: variant.qtyInStock - sumOf(others, (entry) => sameLine(entry, product.id, variant.sku)), refuse: ERR.outOfStock });
  }
  bounds.push({ max: MAX_QUANTITY, refuse: ERR.quantityRange });
  return bounds;
}

/** Adding or changing a quantity: refuses a line quantity past any bound, first bound first. */
export function checkLineQuantity(bounds: readonly LineBound[], lineQuantity: number): void {
  const broken = bounds.find((bound) => lineQuantity > bound.max);
  if (broken) throw broken.refuse();
}

/** Merging or cloning: the most of `wanted` that every bound allows (0 when nothing fits). */
export function fittingQuantity(bounds: readonly LineBound[], wanted: number): number {
  return Math.max(0, Math.min(wanted, ...bounds.map((bound) => bound.max)));
}

/**
 * The additionalFields value to store: null for a product without a form; otherwise the
 * sent string, once it parses to an object and passes B0.6.
 */
async function checkAdditionalFields(repo: Repository, product: Product, raw: unknown): Promise<string | null> {
  if (product.additionalFieldsFormId === null) return null;
  const form = await repo.getForm(product.additionalFieldsFormId);
  if (!form) return null;
  const values = parseFieldsObject(raw);
  if (!values) throw ERR.fieldsInvalid();
  const { errors } = validateFormValues(form, values);
  if (Object.keys(errors).length > 0) throw ERR.formInvalid(errors);
  return raw as string;
}

function sameLine(entry: CartEntryRecord, itemId: string, sku: string): boolean {
  return entry.itemId === itemId && entry.sku === sku;
}

function sumOf(entries: readonly CartEntryRecord[], predicate: (entry: CartEntryRecord) => boolean): number {
  return entries.filter(predicate).reduce((sum, entry) => sum + entry.quantity, 0);
}

interface AddLine {
  product: Product;
  variant: Variant;
  quantity: number;
  additionalFields: string | null;
}

function newEntry(deps: ApiDeps, line: AddLine) {
  return {
    id: deps.newId('e'),
    itemId: line.product.id,
    sku: line.variant.sku,
    variantId: line.variant.id,
    quantity: line.quantity,
    productType: line.product.productType,
    attributes: line.variant.attributes,
    title: line.product.title,
    purchasePriceCents: purchasePrice(line.variant),
    additionalFields: line.additionalFields,
  };
}

/** B2 merge rule: the line with the same item, sku and identical additionalFields string (null equals null). */
function lineToMerge(cart: CartRecord, itemId: string, sku: string, additionalFields: string | null): CartEntryRecord | undefined {
  return cart.entries.find((entry) => sameLine(entry, itemId, sku) && entry.additionalFields === additionalFields);
}

/**
 * Adds `line` by the B2 merge rule: a matching entry grows (within the B2 bounds, else the
 * bound's error), anything else appends. Returns the id of the entry changed.
 */
export async function mergeLine(deps: ApiDeps, repo: Repository, site: Site, cart: CartRecord, line: AddLine): Promise<string> {
  const match = lineToMerge(cart, line.product.id, line.variant.sku, line.additionalFields);
  if (match) {
    const others = cart.entries.filter((entry) => entry !== match);
    checkLineQuantity(lineBounds(site, line.product, line.variant, others), match.quantity + line.quantity);
    await repo.updateEntryQuantity(match.id, match.quantity + line.quantity, purchasePrice(line.variant));
    return match.id;
  }
  if (cart.entries.length >= MAX_CART_ENTRIES) throw ERR.cartFull();
  const entry = newEntry(deps, line);
  await repo.insertEntry(cart.id, entry);
  return entry.id;
}

/**
 * The bounds of a line already in some cart, read from the catalogue. A line whose product
 * or variant is gone keeps only the 1..9999 range (no stock is known for it).
 */
async function storedLineBounds(repo: Repository, site: Site, entry: CartEntryRecord, others: readonly CartEntryRecord[]): Promise<LineBound[]> {
  const product = await repo.getProduct(entry.itemId);
  const variant = product?.variants.find((candidate) => candidate.sku === entry.sku);
  if (!product || !variant) return [{ max: MAX_QUANTITY, refuse: ERR.quantityRange }];
  return lineBounds(site, product, variant, others);
}

/**
 * B17: adds a line of another cart into `cart` by the B2 merge rule, keeping only what fits
 * the B2 bounds. Signing in never fails over a quantity, so nothing is refused: a line grows
 * at most to its bound and is never lowered, and a new line that no longer fits (its stock, or
 * a cart of `MAX_CART_ENTRIES` lines) is left out.
 */
export async function mergeEntryThatFits(deps: ApiDeps, repo: Repository, site: Site, cart: CartRecord, entry: CartEntryRecord, copyOfCart = false): Promise<void> {
  const match = lineToMerge(cart, entry.itemId, entry.sku, entry.additionalFields);
  const others = cart.entries.filter((candidate) => candidate !== match);
  const current = match?.quantity ?? 0;
  // A copy of this cart's own lines (`copyOfCart`, B18 then B17) brings the larger of the two
  // quantities, not their sum: signing out and in again doubled every line.
  const wanted = copyOfCart ? Math.max(current, entry.quantity) : current + entry.quantity;
  const quantity = Math.max(current, fittingQuantity(await storedLineBounds(repo, site, entry, others), wanted));
  if (match) {
    if (quantity === current) return;
    match.quantity = quantity;
    await repo.updateEntryQuantity(match.id, quantity, entry.purchasePriceCents);
    return;
  }
  if (quantity < 1 || cart.entries.length >= MAX_CART_ENTRIES) return;
  const copy = { ...entry, id: deps.newId('e'), quantity };
  await repo.insertEntry(cart.id, copy);
  cart.entries.push({ ...copy, cartId: cart.id, position: cart.entries.length });
}

/** B18 cloneCart: copies `entries` into the new cart `cartId`, each cut to what fits the B2 bounds. */
export async function copyEntriesThatFit(deps: ApiDeps, repo: Repository, site: Site, cartId: string, entries: readonly CartEntryRecord[]): Promise<void> {
  const copied: CartEntryRecord[] = [];
  for (const entry of entries) {
    if (copied.length >= MAX_CART_ENTRIES) break;
    const quantity = fittingQuantity(await storedLineBounds(repo, site, entry, copied), entry.quantity);
    if (quantity < 1) continue;
    const copy = { ...entry, id: deps.newId('e'), cartId, quantity };
    await repo.insertEntry(cartId, copy);
    copied.push(copy);
  }
}

/** Creates an empty cart of `kind` and returns its id; `lifetimeMs` null never expires. */
export async function createEmptyCart(
  deps: ApiDeps,
  repo: Repository,
  site: Site,
  cart: { kind: CartKind; ownerSiteUserId: string | null; lifetimeMs: number | null; clonedFrom?: string | null },
): Promise<string> {
  const now = deps.now();
  const id = deps.newId('c');
  await repo.createCart({
    id,
    websiteId: site.websiteId,
    kind: cart.kind,
    ownerSiteUserId: cart.ownerSiteUserId,
    created: now,
    expiresAt: cart.lifetimeMs === null ? null : now + cart.lifetimeMs,
    clonedFrom: cart.clonedFrom ?? null,
  });
  return id;
}

async function reload(repo: Repository, cartId: string): Promise<CartRecord> {
  const cart = await repo.getCart(cartId);
  if (!cart) throw GENERIC.internal();
  return cart;
}

function findEntry(cart: CartRecord | null, entryId: string): CartEntryRecord {
  const entry = cart?.entries.find((candidate) => candidate.id === entryId);
  if (!entry) throw ERR.entryNotFound();
  return entry;
}

// Schemas. B2 and B4 check `itemId` first, then look the product up (404), and only then
// the other fields; B3 and B26 look the entry up first. A field checked after a lookup is
// published with its shape but checked in the handler, so the first failure in the
// table's order still wins (route-kit.ts, checkedInHandler).
const afterLookup = (schema: TSchema) => checkedInHandler(schema, 'Checked in the handler, after the lookup, in the order of its table.');
const SKU = Type.Union([Type.String(), Type.Null()]);
const ADDITIONAL_FIELDS = Type.Union([Type.String({ description: 'A JSON object, as text.' }), Type.Null()]);
const ENTRY_PARAMS = Type.Object({ entryId: Type.String() });
const itemIdCodes = fieldCodes({ itemId: ERR.invalidItemId });

const LINE_FIELDS = {
  itemId: Type.String({ minLength: 1 }),
  sku: Type.Optional(afterLookup(SKU)),
  additionalFields: Type.Optional(afterLookup(ADDITIONAL_FIELDS)),
};
const QUANTITY = afterLookup(Type.Integer({ minimum: 1, maximum: MAX_QUANTITY }));

/** An add to cart found no cart of the caller's: it is counted against `cartCreations`, then run again. */
class CartNeeded extends Error {}

export function registerCartRoutes(kit: RouteKit): void {
  const { deps } = kit;

  addRoute(kit, {
    method: 'GET',
    url: '/commerce/shopping-cart',
    schema: {
      summary: "B1: the caller's cart.",
      querystring: Type.Object({
        mock: Type.Optional(QueryFlag),
        calculateSubtotal: Type.Optional(QueryFlag),
        timecode: Type.Optional(Type.Unknown({ description: 'Cache buster, ignored.' })),
      }),
    },
    handler: async (request, reply) => {
      const site = await requireSite(deps);
      if (request.query.mock === 'true') return { ...mockCartView(site.websiteId) };
      const session = await liveSession(deps, request);
      const { cart, staleCookie } = await callerCart(deps, deps.store.read, request, session);
      if (staleCookie) clearCartCookies(request, reply);
      return cart ? cartView(cart) : emptyCartView(site.websiteId);
    },
  });

  addRoute(kit, {
    method: 'POST',
    url: '/commerce/shopping-cart/entries',
    crumb: true,
    schema: {
      summary: 'B2: add a line to the cart (express=true: a cart of its own).',
      querystring: Type.Object({ express: Type.Optional(Type.String()) }),
      body: Type.Object({ ...LINE_FIELDS, quantity: QUANTITY }),
    },
    invalid: itemIdCodes,
    handler: async (request, reply) => {
      const body = request.body;
      const express = request.query.express === 'true';
      const site = await requireSite(deps);
      const session = await liveSession(deps, request);
      // A cart made is counted (cartCreations) before it is written and outside the transaction
      // (on PostgreSQL the counter is another pooled connection): Buy now always makes one; an
      // add that finds no cart of the caller's comes back out, is counted and runs again.
      let creationCounted = express;
      if (express) await takeRateLimit(deps.limiters.cartCreations, request);
      const add = () => deps.store.transaction(async (repo) => {
        const product = await loadProduct(repo, body.itemId);
        const quantity = checkQuantity(body.quantity);
        if (product.productType === 4) throw ERR.giftCard();
        if (product.isSubscribable) throw ERR.subscription();
        const variant = chooseVariant(product, body.sku);
        const { cart: existing, staleCookie } = express
          ? { cart: null, staleCookie: false }
          : await callerCart(deps, repo, request, session, { lock: true });
        // The service limit and the stock count every line of the item; the range is checked
        // on the line this adds to, once additionalFields says which line that is.
        checkLineQuantity(lineBounds(site, product, variant, existing?.entries ?? []), quantity);
        const additionalFields = await checkAdditionalFields(repo, product, body.additionalFields);

        let cart = existing;
        let created = false;
        if (!cart) {
          if (!creationCounted) throw new CartNeeded();
          const owner = express ? null : (session?.siteUserId ?? null);
          const id = await createEmptyCart(deps, repo, site, {
            kind: express ? 'express' : 'main',
            ownerSiteUserId: owner,
            lifetimeMs: express ? DAY_MS : owner ? null : CART_COOKIE_MAX_AGE_SECONDS * 1000,
          });
          cart = await reload(repo, id);
          created = true;
        }
        const entryId = await mergeLine(deps, repo, site, cart, { product, variant, quantity, additionalFields });
        const saved = await reload(repo, cart.id);
        return { cart: saved, entryId, created, staleCookie };
      });
      let outcome: Awaited<ReturnType<typeof add>>;
      try {
        outcome = await add();
      } catch (error) {
        if (!(error instanceof CartNeeded)) throw error;
        await takeRateLimit(deps.limiters.cartCreations, request);
        creationCounted = true;
        outcome = await add();
      }
      if (!express && outcome.created && outcome.cart.ownerSiteUserId === null) {
        setCartCookies(request, reply, outcome.cart.id);
      } else if (outcome.staleCookie) {
        clearCartCookies(request, reply);
      }
      return { shoppingCart: cartView(outcome.cart), newlyAdded: entryView(findEntry(outcome.cart, outcome.entryId)) };
    },
  });

  addRoute(kit, {
    method: 'PUT',
    url: '/commerce/shopping-cart/entries/:entryId/additionalFields',
    crumb: true,
    schema: {
      summary: "B3: replace a line's additional fields.",
      params: ENTRY_PARAMS,
      body: Type.Object({ itemId: afterLookup(Type.String()), sku: afterLookup(SKU), additionalFields: afterLookup(ADDITIONAL_FIELDS) }),
    },
    handler: async (request) => {
      const body = request.body;
      const session = await liveSession(deps, request);
      const saved = await deps.store.transaction(async (repo) => {
        const { cart } = await callerCart(deps, repo, request, session, { lock: true });
        const entry = findEntry(cart, request.params.entryId);
        const product = await repo.getProduct(entry.itemId);
        const skuMatches =
          body.sku === entry.sku || (body.sku === null && product !== null && product.variants.length === 1);
        if (body.itemId !== entry.itemId || !skuMatches) throw ERR.entryMismatch();
        const form = product?.additionalFieldsFormId ? await repo.getForm(product.additionalFieldsFormId) : null;
        if (!form) throw ERR.noForm();
        const values = parseFieldsObject(body.additionalFields);
        if (!values) throw ERR.fieldsInvalid();
        const { errors } = validateFormValues(form, values);
        if (Object.keys(errors).length > 0) throw ERR.formInvalid(errors);
        await repo.updateEntryAdditionalFields(entry.id, body.additionalFields as string);
        return { cart: await reload(repo, entry.cartId), entryId: entry.id };
      });
      return { shoppingCart: cartView(saved.cart), updatedEntry: entryView(findEntry(saved.cart, saved.entryId)) };
    },
  });

  addRoute(kit, {
    method: 'PUT',
    url: '/commerce/shopping-cart/entries/:entryId',
    crumb: true,
    schema: {
      summary: "B26: change a line's quantity (0 removes it).",
      params: ENTRY_PARAMS,
      body: Type.Object({ quantity: afterLookup(Type.Integer({ minimum: 0, maximum: MAX_QUANTITY })) }),
    },
    handler: async (request) => {
      const body = request.body;
      const site = await requireSite(deps);
      const session = await liveSession(deps, request);
      const saved = await deps.store.transaction(async (repo) => {
        const { cart } = await callerCart(deps, repo, request, session, { lock: true });
        const entry = findEntry(cart, request.params.entryId);
        const quantity = checkQuantity(body.quantity, { allowZero: true });
        if (quantity === 0) {
          await repo.deleteEntry(entry.id);
          return reload(repo, entry.cartId);
        }
        const product = await repo.getProduct(entry.itemId);
        const variant = product?.variants.find((candidate) => candidate.sku === entry.sku);
        if (!product || !variant) throw ERR.itemUnavailable();
        const others = (cart?.entries ?? []).filter((candidate) => candidate.id !== entry.id);
        checkLineQuantity(lineBounds(site, product, variant, others), quantity);
        await repo.updateEntryQuantity(entry.id, quantity, purchasePrice(variant));
        return reload(repo, entry.cartId);
      });
      return { shoppingCart: cartView(saved) };
    },
  });

  addRoute(kit, {
    method: 'DELETE',
    url: '/commerce/shopping-cart/entries/:entryId',
    crumb: true,
    schema: { summary: 'B27: remove a line.', params: ENTRY_PARAMS },
    handler: async (request) => {
      const session = await liveSession(deps, request);
      const saved = await deps.store.transaction(async (repo) => {
        const { cart } = await callerCart(deps, repo, request, session, { lock: true });
        const entry = findEntry(cart, request.params.entryId);
        await repo.deleteEntry(entry.id);
        return reload(repo, entry.cartId);
      });
      return { shoppingCart: cartView(saved) };
    },
  });

  addRoute(kit, {
    method: 'POST',
    url: '/3/commerce/cart/subscription',
    crumb: true,
    schema: { summary: 'B4: a subscription cart of one line.', body: Type.Object({ ...LINE_FIELDS, qty: QUANTITY }) },
    invalid: itemIdCodes,
    handler: async (request) => {
      const body = request.body;
      const site = await requireSite(deps);
      await takeRateLimit(deps.limiters.cartCreations, request);
      const cartId = await deps.store.transaction(async (repo) => {
        const product = await loadProduct(repo, body.itemId);
        const quantity = checkQuantity(body.qty);
        if (!product.isSubscribable || (product.productType !== 1 && product.productType !== 3)) {
          throw ERR.notSubscribable();
        }
        const variant = chooseVariant(product, body.sku);
        checkLineQuantity(lineBounds(site, product, variant, []), quantity);
        const additionalFields = await checkAdditionalFields(repo, product, body.additionalFields);
        const id = await createEmptyCart(deps, repo, site, { kind: 'subscription', ownerSiteUserId: null, lifetimeMs: DAY_MS });
        await repo.insertEntry(id, newEntry(deps, { product, variant, quantity, additionalFields }));
        return id;
      });
      return { cartToken: cartId };
    },
  });
}
