import { Type, type TSchema } from '@sinclair/typebox';
import { FEATURE_NAME_PATTERN, MAX_FEATURES, MAX_VARIANT_LENGTH } from '../../../hydrate/shared/feature-toggles.ts';
import { CURRENCIES } from '../../../hydrate/shared/currency.ts';

/*
 * The JSON Schemas of a site folder's data files (renderer/README.md "Site folder"), written
 * once in TypeBox. `npx tsx renderer/site/schema/write-schemas.ts` writes them as the
 * published `*.schema.json` files beside this module (editors validate and complete with
 * them); site-folder-schema.test.ts fails when the published files drift from this source.
 *
 * `additionalProperties: false` marks a closed object: any other key is ignored by the loader,
 * so `validate-site-files.ts` warns about it (with a "did you mean"). Open objects
 * (`site.json`, content files, items, blocks) pass every key to templates; there only a key
 * within a small edit distance of a known one is reported, as a likely typo.
 */

const nullable = (type: 'string' | 'integer' | 'number' | 'object', description: string): TSchema =>
  Type.Unsafe({ type: [type, 'null'], description });
// enum rather than a union of literals: one clear error ("must be equal to one of …") instead of one per branch.
const oneOf = (type: 'string' | 'integer', values: readonly (string | number)[], description?: string): TSchema =>
  Type.Unsafe({ type, enum: [...values], ...(description ? { description } : {}) });
const open = (description: string): TSchema => Type.Object({}, { additionalProperties: true, description });
const id = (description: string) => Type.String({ minLength: 1, description });
/**
 * The largest count or amount the store holds exactly (its bigint columns are read as
 * JavaScript numbers); 1e300 passed `integer` and stopped the start with "bigint out of range".
 */
const MAX_AMOUNT = Number.MAX_SAFE_INTEGER;
// Never negative: a variant at -500 lowered a real order's total, and a shipping option at
// -1500 became free shipping without a word.
const cents = (description: string) => Type.Integer({ minimum: 0, maximum: MAX_AMOUNT, description });
const opt = Type.Optional;

// ---- site.json ---------------------------------------------------------------------------

export const SITE_SCHEMA = Type.Object(
  {
    $schema: opt(Type.String()),
    title: opt(Type.String({ description: 'Site title (<title>, header).' })),
    locale: opt(Type.String({ description: 'BCP 47 tag: <html lang>, the engine locale. Default en-US.' })),
    templateId: opt(Type.String({ description: 'Default quire-default.' })),
    homePage: opt(Type.String({ description: 'Slug of the content file served at / when none says "home": true.' })),
    cartVersion: opt(oneOf('integer', [1, 2], '1: /cart is page type 200; 2: page type 205.')),
    lock: opt(
      Type.Object(
        { enabled: opt(Type.Boolean()), password: opt(Type.String()) },
        { additionalProperties: false, description: 'Site-wide lock screen (page type 103).' },
      ),
    ),
    trackingDisabled: opt(Type.Boolean({ description: "ORed with the store's trackingDisabled." })),
    platform: opt(Type.Unsafe({ type: ['object', 'boolean'], description: 'sf-context.platform overrides; false turns the clients off.' })),
    navigation: opt(
      Type.Array(Type.Object({ title: Type.String(), path: Type.String() }, { additionalProperties: false }), {
        description: 'Header links; by default every content file whose navigation is not false.',
      }),
    ),
    reviews: opt(
      Type.Object({ nativeEnabled: opt(Type.Boolean()), importedEnabled: opt(Type.Boolean()) }, { additionalProperties: false }),
    ),
    bnpl: opt(
      Type.Unsafe({
        type: ['object', 'null'],
        additionalProperties: false,
        properties: {
          afterPayAvailable: { type: 'boolean' },
          afterPayMin: { type: 'number' },
          afterPayMax: { type: 'number' },
          stripeAccountCountry: { type: 'string' },
          shopperLanguage: { type: 'string' },
        },
        description: 'Buy-now-pay-later context; null: none.',
      }),
    ),
    // Deprecated (validate-site-files warns): the minimum is a store rule, read by checkout from
    // the catalogue; load-site's siteSeed still folds this key in when the catalogue sets none.
    minimumOrderSubtotalCents: opt(
      Type.Integer({
        minimum: 0,
        deprecated: true,
        description: "use catalog.json site.settings.commerce.minimumOrderSubtotalCents (the store's rules, read by the cart page and checkout); this key applies only while the catalogue sets none",
      }),
    ),
    flags: opt(Type.Record(Type.String(), Type.Boolean(), { description: "Feature flags the store does not hold; the store's flags win." })),
    localizedStrings: opt(Type.Record(Type.String(), Type.String())),
    features: opt(
      Type.Record(Type.String(), Type.Boolean(), {
        propertyNames: { pattern: FEATURE_NAME_PATTERN },
        maxProperties: MAX_FEATURES,
        description: 'Feature toggles by name (bnpl, quick-view, session-recording, …); the admin may override them.',
      }),
    ),
    experiments: opt(
      Type.Record(
        Type.String(),
        Type.Object(
          {
            variant: Type.String({ minLength: 1, maxLength: MAX_VARIANT_LENGTH }),
            segmentName: opt(Type.String({ minLength: 1, maxLength: MAX_VARIANT_LENGTH })),
          },
          { additionalProperties: false },
        ),
        { propertyNames: { pattern: FEATURE_NAME_PATTERN }, maxProperties: MAX_FEATURES, description: 'A/B tests by name: the variant and segment this site serves.' },
      ),
    ),
    overlay: opt(open('The popup overlay (page type 104): {enabled, id, title, blocks}.')),
    baseUrl: opt(Type.String({ description: 'Absolute origin used by the sitemap.' })),
  },
  {
    title: 'Quire site.json',
    description: 'Website settings of a site folder. Any other key reaches templates as website.*.',
    additionalProperties: true,
  },
);

// ---- catalog.json ------------------------------------------------------------------------

const VARIANT = Type.Object(
  {
    id: id('Stable id; carts and sign-ups name it.'),
    sku: Type.String({ description: 'Stock-keeping unit shown in carts.' }),
    attributes: opt(Type.Record(Type.String(), Type.String(), { description: 'Option values, e.g. {"Size": "M"}.' })),
    // Required: a variant without one (a misspelled `price`) was sold at $0.00 with only a
    // warning; an owner who gives it away says so with 0.
    priceCents: cents('Price in minor units (2500 = $25.00); 0 sells it free.'),
    salePriceCents: opt(cents('Sale price in minor units, used when onSale.')),
    onSale: opt(Type.Boolean()),
    qtyInStock: opt(
      Type.Integer({
        minimum: 0,
        maximum: MAX_AMOUNT,
        description: 'Stock count. Applied on start only when it differs from the last imported count (sales since are kept).',
      }),
    ),
    unlimited: opt(Type.Boolean({ description: 'Never runs out.' })),
  },
  { additionalProperties: false },
);

/** The keys a catalogue variant knows (the loader's hint for a misspelled price). */
export const CATALOG_VARIANT_KEYS: readonly string[] = Object.keys(VARIANT.properties);

const PRODUCT = Type.Object(
  {
    id: id('Stable id; removing it from the file hides the product (kept for orders and carts).'),
    title: opt(Type.String()),
    urlSlug: opt(Type.String({ description: 'URL segment under its collection; default the id.' })),
    collectionId: opt(nullable('string', 'id of the products collection (content file) listing it.')),
    productType: opt(oneOf('integer', [1, 2, 3, 4], '1 physical, 2 digital, 3 service, 4 gift card.')),
    isSubscribable: opt(Type.Boolean()),
    subscriptionPlan: opt(nullable('object', 'Subscription plan data.')),
    additionalFieldsFormId: opt(nullable('string', 'id of a form asked for when adding to the cart.')),
    restockEnabled: opt(Type.Boolean({ description: 'Offer restock sign-ups when sold out.' })),
    digitalFile: opt(
      Type.String({
        minLength: 1,
        maxLength: 500,
        description:
          'Digital products (productType 2): the file a paid buyer downloads, a path inside the site folder (`downloads/poster.pdf`). Served only through the order\'s download links, never as a public URL; a missing file or a path leaving the folder stops the site load.',
      }),
    ),
    variants: Type.Array(VARIANT, { description: 'At least one variant per product.' }),
    extra: opt(open('Display data for templates: body, excerpt, images, …')),
  },
  { additionalProperties: false },
);

const FORM = Type.Object(
  {
    id: id('Stable id; content blocks name it as formId.'),
    name: opt(Type.String()),
    fields: opt(Type.Array(Type.Object({ id: Type.String(), type: Type.String() }, { additionalProperties: true }))),
    captchaEnabled: opt(Type.Boolean()),
    storageConfigured: opt(Type.Boolean()),
    isNewsletter: opt(Type.Boolean()),
    notifyEmail: opt(Type.String({ pattern: '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$', description: "The owner's address that is sent a notification of each saved submission (through the outbox)." })),
    extra: opt(open('Submission texts and anything else the renderer shows.')),
  },
  { additionalProperties: false },
);

const COUNTRIES = Type.Array(Type.String({ pattern: '^[A-Z]{2}$' }), { description: 'ISO 3166-1 alpha-2 codes; absent: everywhere.' });

// The store's checkout rules (renderer/orders/README.md): read by pricing and placing orders.
const COMMERCE = Type.Object(
  {
    storeName: opt(Type.String({ description: 'The shop name in order receipts.' })),
    minimumOrderSubtotalCents: opt(Type.Integer({ minimum: 0, description: 'Checkout refuses a smaller subtotal with the seed\'s minimum text.' })),
    paymentProviders: opt(Type.Array(oneOf('string', ['test', 'manual']), { description: "Offered at checkout, first is the default. Default ['manual']." })),
    offlineOrderMaxUnits: opt(
      Type.Integer({
        minimum: 1,
        maximum: 1_000_000,
        description:
          "The most units of stock one order paid offline ('manual') may hold: it takes its stock unpaid until the owner marks it paid or cancels it. Default 10; a larger cart is refused (OFFLINE_ORDER_TOO_LARGE). Unlimited variants (downloads, gift cards) are not counted.",
      }),
    ),
    shippingOptions: opt(
      Type.Array(
        Type.Object(
          {
            id: id('Stable id the checkout sends back.'),
            name: Type.String(),
            description: opt(Type.String()),
            costCents: cents('Price of the option.'),
            freeOverCents: opt(cents('Free once the discounted subtotal reaches this.')),
            countries: opt(COUNTRIES),
          },
          { additionalProperties: false },
        ),
      ),
    ),
    taxRules: opt(
      Type.Array(
        Type.Object(
          {
            name: Type.String(),
            ratePercent: Type.Number({ minimum: 0, maximum: 100, description: 'Percent, up to 3 decimals (8.875).' }),
            country: Type.String({ pattern: '^[A-Z]{2}$' }),
            regions: opt(Type.Array(Type.String(), { description: 'Region codes (NY); absent: the whole country.' })),
            appliesToShipping: opt(Type.Boolean()),
          },
          { additionalProperties: false },
        ),
      ),
    ),
    coupons: opt(
      Type.Array(
        Type.Object(
          {
            code: id('What the buyer types (case-insensitive).'),
            description: Type.String(),
            percentOff: opt(Type.Number({ minimum: 0, maximum: 100 })),
            amountOffCents: opt(Type.Integer({ minimum: 0 })),
            minimumSubtotalCents: opt(Type.Integer({ minimum: 0 })),
            expiresOn: opt(Type.Integer({ description: 'ms since the epoch.' })),
          },
          { additionalProperties: false },
        ),
      ),
    ),
  },
  { additionalProperties: false, description: 'Shipping, tax, coupons, minimum subtotal and payment providers of checkout.' },
);

const SETTINGS = Type.Object(
  {
    // Pages fall back to USD for a code they do not know (D2); checkout follows them, and the
    // check reports it here.
    currency: opt(oneOf('string', Object.keys(CURRENCIES), 'ISO 4217 code the storefront formats (D2). Default USD.')),
    expressCheckout: opt(Type.Boolean()),
    customCart: opt(Type.Boolean()),
    multipleQuantityAllowedForServices: opt(Type.Boolean()),
    restockNotificationsSuccessText: opt(nullable('string', 'Text shown after a restock sign-up.')),
    captcha: opt(
      Type.Object(
        { siteKey: opt(nullable('string', 'Captcha site key; null: none.')), provider: opt(oneOf('string', ['local', 'recaptcha'])) },
        { additionalProperties: false },
      ),
    ),
    cookiePolicy: opt(nullable('object', 'Cookie banner settings.')),
    trackingDisabled: opt(Type.Boolean()),
    isCloneable: opt(Type.Boolean()),
    flags: opt(Type.Record(Type.String(), Type.Boolean())),
    timeZone: opt(Type.String({ description: 'IANA time zone. Default America/New_York.' })),
    commerce: opt(COMMERCE),
    extra: opt(open('Renderer-only settings, passed through.')),
  },
  { additionalProperties: false },
);

export const CATALOG_SCHEMA = Type.Object(
  {
    $schema: opt(Type.String()),
    site: Type.Object({ websiteId: id('The website id.'), settings: opt(SETTINGS) }, { additionalProperties: false }),
    products: opt(Type.Array(PRODUCT)),
    forms: opt(Type.Array(FORM)),
    users: opt(
      Type.Array(
        Type.Object(
          {
            id: id('Account id.'),
            email: Type.String({ minLength: 1 }),
            password: opt(Type.String({ description: 'Plain text, hashed when imported.' })),
            passwordHash: opt(Type.String()),
            locale: opt(nullable('string', 'Preferred locale.')),
          },
          { additionalProperties: false, description: 'Imported once, never overwritten.' },
        ),
      ),
    ),
    orders: opt(
      Type.Array(
        Type.Object(
          {
            id: id('Order id.'),
            purchasedCartId: opt(nullable('string', 'The cart it was bought from.')),
            testMode: opt(Type.Boolean()),
            websiteId: opt(Type.String()),
            items: opt(Type.Array(Type.Unknown())),
            grandTotal: opt(Type.Unknown()),
            shippingTotal: opt(Type.Unknown()),
            taxTotal: opt(Type.Unknown()),
            extra: opt(open('Anything else.')),
          },
          { additionalProperties: false, description: 'Imported once, never overwritten.' },
        ),
      ),
    ),
  },
  {
    title: 'Quire catalog.json',
    description:
      'What the owner sells: store settings, products, variants, prices, forms. Synced into the store on every start (renderer/README.md "Site content sync").',
    additionalProperties: false,
  },
);

// ---- content/*.json ----------------------------------------------------------------------

const BLOCK = Type.Object(
  {
    type: Type.String({ description: 'html, markdown, image, form, newsletter, product, account, button, …' }),
  },
  { additionalProperties: true },
);

const ITEM = Type.Object(
  {
    id: opt(Type.String()),
    slug: opt(Type.String({ pattern: '^[a-z0-9][a-z0-9-]*$' })),
    title: opt(Type.String()),
    blocks: opt(Type.Array(BLOCK)),
  },
  { additionalProperties: true, description: 'An inline item; every field reaches the template.' },
);

export const CONTENT_SCHEMA = Type.Object(
  {
    $schema: opt(Type.String()),
    kind: opt(oneOf('string', ['page', 'collection', 'cover'])),
    slug: opt(Type.String({ pattern: '^[a-z0-9][a-z0-9-]*$', description: 'URL segment; default the file name.' })),
    id: opt(Type.String()),
    title: opt(Type.String()),
    home: opt(Type.Boolean({ description: 'Served at / (one file at most).' })),
    // The content page types of the page table (renderer/pages/page-types/table.ts; the schema
    // test keeps the two lists one): any other number rendered as a plain page, silently.
    pageType: opt(
      oneOf(
        'integer',
        [203, 204, 208, 209, 210, 300, 301],
        'A special page type: 203 donate, 204 contribution confirmed, 208 membership confirmed, 209 reviews request, 210 digital product composer preview, 300 newsletter unsubscribe, 301 commerce email preview.',
      ),
    ),
    // As the donate page reads it (renderer/pages/page-types/donations.ts); 203 needs its amounts
    // and confirmPath, 204 (contribution confirmed) reads its fund.
    donation: opt(
      Type.Object(
        {
          fund: opt(Type.String({ description: 'What the gift is for: "Give to {fund}".' })),
          amounts: opt(Type.Array(Type.Integer({ minimum: 1, maximum: 1_000_000_000 }), { minItems: 1, maxItems: 12, description: 'The amounts offered, in cents.' })),
          confirmPath: opt(Type.String({ pattern: '^/[^/]', description: 'The contribution-confirmed page (204) the choice leads to, e.g. /thank-you.' })),
        },
        { additionalProperties: false, description: 'A donate page (pageType 203): the amounts it offers and where a choice leads; a contribution-confirmed page (204): its fund.' },
      ),
    ),
    template: opt(Type.String({ description: 'Template name to use instead of the default.' })),
    collectionType: opt(Type.String({ description: 'products (store products whose collectionId is this id), blog, events, gallery, …' })),
    items: opt(Type.Array(ITEM)),
    blocks: opt(Type.Array(BLOCK)),
    password: opt(Type.String({ description: 'Protected page (105).' })),
    memberArea: opt(Type.Boolean({ description: 'Signed-in visitors only (106).' })),
    videoPaywall: opt(Type.Boolean()),
    navigation: opt(
      Type.Union([Type.Boolean(), Type.Literal('_hidden'), Type.Literal('_memberareas')], {
        description:
          "false: in no navigation; '_hidden': reachable by its URL, never linked; '_memberareas': linked for signed-in members only (templates seed 001).",
      }),
    ),
    description: opt(Type.String()),
  },
  {
    title: 'Quire content file',
    description: 'One page, cover or collection (content/{slug}.json). Any other field reaches the template.',
    additionalProperties: true,
    // A donate page without its amounts rendered an empty form.
    allOf: [
      {
        if: { properties: { pageType: { const: 203 } }, required: ['pageType'] },
        then: { required: ['donation'], properties: { donation: { type: 'object', properties: { amounts: {}, confirmPath: {} }, required: ['amounts', 'confirmPath'] } } },
      },
    ],
  },
);

/** The published schemas by file name (beside this module). */
export const SITE_FOLDER_SCHEMAS: Readonly<Record<string, TSchema>> = {
  'site.schema.json': SITE_SCHEMA,
  'catalog.schema.json': CATALOG_SCHEMA,
  'content.schema.json': CONTENT_SCHEMA,
};

/** The published text of a schema: the plain JSON Schema, two-space indented. */
export function schemaText(schema: TSchema): string {
  return `${JSON.stringify({ $schema: 'http://json-schema.org/draft-07/schema#', ...schema }, null, 2)}\n`;
}
