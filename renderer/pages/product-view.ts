import { serializeProps } from '../../hydrate/protocol/props.ts';
import { VARIANT_IMAGE_ATTR } from '../../hydrate/protocol/markers.ts';
import { parseOriginalSize, sqsImageUrl, sqsSrcSet, widthVariantFor } from '../../hydrate/shared/image-width-variants.ts';
import type { ProductReview } from '../store/review-repository.ts';
import type { Form, Product, Variant } from '../store/types.ts';
import type { SiteConfig } from '../site/site-types.ts';
import { escapeHtml } from './html.ts';
import { moneyNode } from './money.ts';
import { formatFileSize } from '../../hydrate/shared/file-size.ts';

// Store products (cents, `extra`) turned into the item shape the commerce formatters read
// (PLUGINS §4.0: `structuredContent`, money as `{value, currency}` decimal strings), plus
// the `productMerchandisingContext` entry and the renderer-made markup of section A.

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown, fallback = ''): string => (typeof value === 'string' ? value : fallback);

/** A4 default texts of the restock box (designed here; `extra.restock` overrides them). */
export const RESTOCK_DEFAULTS = {
  CTAText: 'Notify me when this product is back in stock.',
  placeholderText: 'Email Address',
  buttonText: 'Sign Up',
  mailingListDescription: 'Sign up for news and updates',
};

export interface ProductViewOptions {
  currency: string;
  config: SiteConfig;
  /** `collectionId` → the products collection's slug, for `fullUrl`. */
  collectionSlugs: ReadonlyMap<string, string>;
  forms: ReadonlyMap<string, Form>;
  reviewsShown: boolean;
}

export interface ProductView {
  item: Json;
  merchandising: Json;
  /** `sf-context.products[id]` (A0.1). */
  contextEntry: Json;
  /** The card picture loaded at once: for the first card of a grid, above the fold. */
  eagerThumbnail: string;
}

/** The item for the first card of a grid: its picture loads at once (the others wait, lazily). */
export function firstCardItem(view: ProductView): Json {
  return { ...view.item, sf: { ...(view.item.sf as Json), thumbnail: view.eagerThumbnail } };
}

function variantNode(variant: Variant, currency: string): Json {
  return {
    id: variant.id,
    sku: variant.sku,
    attributes: variant.attributes,
    optionValues: Object.entries(variant.attributes).map(([optionName, value]) => ({ optionName, value })),
    priceMoney: moneyNode(variant.priceCents, currency),
    salePriceMoney: moneyNode(variant.salePriceCents, currency),
    onSale: variant.onSale,
    qtyInStock: variant.qtyInStock,
    unlimited: variant.unlimited,
    // Legacy numeric fields: hasVariedPrices compares these (PLUGINS §4.0).
    price: variant.priceCents,
    salePrice: variant.salePriceCents,
  };
}

function optionOrdering(product: Product): string[] {
  const given = product.extra.variantOptionOrdering;
  if (Array.isArray(given) && given.every((name) => typeof name === 'string')) return given as string[];
  const names: string[] = [];
  for (const variant of product.variants) for (const name of Object.keys(variant.attributes)) if (!names.includes(name)) names.push(name);
  return names;
}

const effective = (variant: Variant): number => (variant.onSale ? variant.salePriceCents : variant.priceCents);

/** C6 sold-out rule (the `product-status` rule): only physical and service products sell out. */
export function isSoldOut(product: Product): boolean {
  if (product.productType === 2 || product.productType === 4) return false;
  if (product.productType !== 1 && product.productType !== 3) return true;
  return !product.variants.some((variant) => variant.unlimited || variant.qtyInStock > 0);
}

/** The additional-fields form in the A6 shape the add-to-cart button carries. */
export function formDefinition(form: Form): Json {
  const extra = form.extra;
  return {
    id: form.id,
    name: form.name,
    fields: form.fields,
    parsedSubmissionMessage: str(extra.parsedSubmissionMessage),
    submissionHTML: str(extra.submissionHTML),
    successRedirect: str(extra.successRedirect),
    parsedDisclaimerMessage: str(extra.parsedDisclaimerMessage),
    captchaEnabled: form.captchaEnabled,
    captchaTheme: str(extra.captchaTheme, 'light'),
    captchaAlignment: str(extra.captchaAlignment, 'center'),
  };
}

/**
 * `sizes` of the product images in a theme of the demo's proportions: the page's picture fills
 * the window on a phone and half of a 1080 px column on a desktop; a card is a grid cell.
 * With them the browser picks the srcset candidate for its window and pixel density.
 */
export const PRODUCT_IMAGE_SIZES = '(max-width: 720px) 100vw, 520px';
export const CARD_IMAGE_SIZES = '(max-width: 480px) 100vw, 260px';

/**
 * One product `<img>`. An image with its `originalSize` (`1000x1000`) is served by an image
 * service (site-images.ts): it gets the `sqs` loader's src and srcset of width variants, its
 * width and height (no layout shift) and `sizes`; any other URL is used as given. The page's
 * first picture loads at once with high priority; cards and variant pictures load lazily.
 */
function productImg(image: Json, alt: string, attrs: { className: string; sizes: string; eager: boolean; extra?: string }): string {
  const url = str(image.url);
  const size = parseOriginalSize(image.originalSize);
  const loading = attrs.eager ? ' loading="eager" fetchpriority="high"' : ' loading="lazy"';
  const extra = attrs.extra ?? '';
  if (!size.ok || url.startsWith('data:')) {
    return `<img class="${attrs.className}" src="${escapeHtml(url)}" alt="${alt}"${extra}${loading} decoding="async">`;
  }
  const src = sqsImageUrl(url, widthVariantFor(size.width));
  return (
    `<img class="${attrs.className}" src="${escapeHtml(src)}" srcset="${escapeHtml(sqsSrcSet(url))}" sizes="${attrs.sizes}"` +
    ` width="${size.width}" height="${size.height}" alt="${alt}"${extra}${loading} decoding="async">`
  );
}

function imagesHtml(product: Product): { images: string; thumbnail: string; eagerThumbnail: string } {
  const list = Array.isArray(product.extra.images) ? product.extra.images.filter(isObject) : [];
  let main = '';
  let thumbnail = '';
  let eagerThumbnail = '';
  let variantImages = '';
  for (const image of list) {
    if (str(image.url) === '') continue;
    const alt = escapeHtml(str(image.alt, product.title));
    const sku = str(image.variantSku);
    if (sku !== '') {
      // A3: variant images start hidden; the variants island shows the selected one.
      variantImages += productImg(image, alt, { className: 'sf-variant-image', sizes: PRODUCT_IMAGE_SIZES, eager: false, extra: ` ${VARIANT_IMAGE_ATTR}="${escapeHtml(sku)}" hidden` });
    } else if (main === '') {
      main = productImg(image, alt, { className: 'sf-product-image', sizes: PRODUCT_IMAGE_SIZES, eager: true });
      thumbnail = productImg(image, alt, { className: 'sf-product-image', sizes: CARD_IMAGE_SIZES, eager: false });
      eagerThumbnail = productImg(image, alt, { className: 'sf-product-image', sizes: CARD_IMAGE_SIZES, eager: true });
    }
  }
  return { images: main + variantImages, thumbnail, eagerThumbnail };
}

/** A5 markup, for a product (`data-context="product"`) or the cart page (`"cart"`). */
export function bnplIslandHtml(input: { context: 'product' | 'cart'; itemId: string; priceCents: number; currency: string; bnpl: NonNullable<SiteConfig['bnpl']> }): string {
  const json = serializeProps(input.bnpl);
  if (!json.ok) return '';
  return (
    `<div class="sf-bnpl" data-island="bnpl" data-context="${input.context}"\n` +
    `     data-item-id="${escapeHtml(input.itemId)}" data-product-type="1" data-price-cents="${input.priceCents}" data-currency="${escapeHtml(input.currency)}">\n` +
    `  <script type="application/json" data-bnpl-context>\n    ${json.text}\n  </script>\n</div>`
  );
}

/**
 * A digital product's file (`extra.download: {fileName, sizeBytes}`), its size in units of
 * 1024 (seed §9), e.g. `poster.pdf, 2.4 MB`; '' for other products or without a file.
 */
export function downloadHtml(product: Product): string {
  const download = product.extra.download;
  if (product.productType !== 2 || !isObject(download)) return '';
  const size = typeof download.sizeBytes === 'number' ? formatFileSize(download.sizeBytes) : null;
  const name = str(download.fileName);
  if (!name && !size) return '';
  const text = [name, size].filter(Boolean).join(', ');
  return `<p class="sf-product-download">Digital download: ${escapeHtml(text)}</p>`;
}

function bnplHtml(product: Product, options: ProductViewOptions): string {
  const bnpl = options.config.bnpl;
  // D6: physical products only; the island decides the rest from the context JSON.
  if (!bnpl || !bnpl.afterPayAvailable || product.productType !== 1 || product.variants.length === 0) return '';
  const priceCents = Math.min(...product.variants.map(effective));
  return bnplIslandHtml({ context: 'product', itemId: product.id, priceCents, currency: options.currency, bnpl });
}

/**
 * One review of the product page's list: its stars (named for screen readers), author and text.
 * The stars are role="img": ARIA does not allow naming a plain span, and screen readers then read
 * the glyphs ("black star, black star, …") instead of the label.
 */
function reviewItemHtml(rating: number, author: string, text: string): string {
  return (
    `<li class="sf-review"><span class="sf-review-rating" role="img" aria-label="${rating} out of 5">${'★'.repeat(rating)}${'☆'.repeat(5 - rating)}</span>` +
    ` <span class="sf-review-author">${escapeHtml(author)}</span>` +
    `<p class="sf-review-text">${escapeHtml(text)}</p></li>`
  );
}

/**
 * The product page's reviews: those an owner approved in the admin (`approved`, newest first,
 * from store/review-repository.ts), then the catalogue's own (`extra.reviews`).
 */
export function reviewsHtml(product: Product, approved: readonly ProductReview[] = []): string {
  const reviews = Array.isArray(product.extra.reviews) ? product.extra.reviews.filter(isObject) : [];
  const rows =
    approved.map((review) => reviewItemHtml(Math.max(1, Math.min(5, Math.trunc(review.rating))), review.name, review.text)).join('') +
    reviews.map((review) => reviewItemHtml(Math.max(0, Math.min(5, Math.trunc(Number(review.rating) || 0))), str(review.author, 'Anonymous'), str(review.text))).join('');
  return `<section class="sf-reviews"><h2>Reviews</h2>${rows ? `<ul class="sf-review-list">${rows}</ul>` : '<p class="sf-reviews-empty">No reviews yet.</p>'}</section>`;
}

function merchandisingOf(product: Product): Json {
  const extra = product.extra;
  const restock = isObject(extra.restock) ? extra.restock : {};
  const views: Json[] = [];
  // A4 / RST-14: digital products and gift cards never get restock views.
  if (product.restockEnabled && (product.productType === 1 || product.productType === 3)) {
    const single = product.variants.length === 1;
    for (const variant of product.variants) {
      if (variant.unlimited || variant.qtyInStock > 0) continue;
      views.push({ variantId: variant.id, hiddenByDefault: !single });
    }
  }
  const scarcity = isObject(extra.scarcity) ? extra.scarcity : {};
  const scarcityEnabled = scarcity.enabled === true;
  const threshold = typeof scarcity.threshold === 'number' ? scarcity.threshold : 5;
  const scarcityViews = scarcityEnabled
    ? product.variants
        .filter((variant) => !variant.unlimited && variant.qtyInStock > 0 && variant.qtyInStock <= threshold)
        .map((variant) => ({ attributes: product.variants.length > 1 ? variant.attributes : null, qtyInStock: variant.qtyInStock }))
    : [];
  return {
    restockNotificationViews: views,
    restockNotificationMessages: {
      CTAText: str(restock.CTAText, RESTOCK_DEFAULTS.CTAText),
      placeholderText: str(restock.placeholderText, RESTOCK_DEFAULTS.placeholderText),
      buttonText: str(restock.buttonText, RESTOCK_DEFAULTS.buttonText),
      mailingListDescription: str(restock.mailingListDescription, RESTOCK_DEFAULTS.mailingListDescription),
    },
    mailingListSignUpEnabled: restock.mailingListSignUpEnabled === true,
    mailingListOptInByDefault: restock.mailingListOptInByDefault === true,
    // product-scarcity fails on an entry without this flag, so it is always written.
    scarcityEnabled,
    scarcityText: str(scarcity.text, 'Only {qtyInStock} left in stock'),
    scarcityShownByDefault: true,
    scarcityTemplateViews: scarcityViews,
    customSoldOutText: str(extra.customSoldOutText),
  };
}

export function productView(product: Product, options: ProductViewOptions): ProductView {
  const { currency } = options;
  const extra = product.extra;
  const variants = product.variants.map((variant) => variantNode(variant, currency));
  const first = product.variants[0];
  const form = product.additionalFieldsFormId ? options.forms.get(product.additionalFieldsFormId) : undefined;
  const structuredContent: Json = {
    productType: product.productType,
    isSubscribable: product.isSubscribable,
    variants,
    variantOptionOrdering: optionOrdering(product),
    useCustomAddButtonText: extra.useCustomAddButtonText === true,
    customAddButtonText: str(extra.customAddButtonText),
  };
  if (product.subscriptionPlan) structuredContent.subscriptionPlan = product.subscriptionPlan;
  if (Array.isArray(extra.productSubscriptionOptions)) structuredContent.productSubscriptionOptions = extra.productSubscriptionOptions;
  if (form) {
    structuredContent.additionalFieldsFormId = form.id;
    structuredContent.additionalFieldsForm = formDefinition(form);
  }
  if (product.productType === 2 && first) {
    // A digital product's price lives on the item itself (PLUGINS §4.0).
    structuredContent.priceMoney = moneyNode(first.priceCents, currency);
    structuredContent.salePriceMoney = moneyNode(first.salePriceCents, currency);
    structuredContent.onSale = first.onSale;
  }
  const slug = product.collectionId ? options.collectionSlugs.get(product.collectionId) : undefined;
  const { images, thumbnail, eagerThumbnail } = imagesHtml(product);
  const item: Json = {
    id: product.id,
    collectionId: product.collectionId ?? '',
    recordType: 11,
    // Record type 11's label, which `item-classes` writes as `post-type-store-item`.
    recordTypeLabel: 'store-item',
    title: product.title,
    urlId: product.urlSlug,
    fullUrl: slug ? `/${slug}/${product.urlSlug}` : `/${product.urlSlug}`,
    body: str(extra.body),
    excerpt: str(extra.excerpt),
    tags: Array.isArray(extra.tags) ? extra.tags : [],
    categories: Array.isArray(extra.categories) ? extra.categories : [],
    structuredContent,
    sf: {
      images,
      thumbnail,
      bnpl: bnplHtml(product, options),
      download: downloadHtml(product),
      reviews: options.reviewsShown ? reviewsHtml(product) : '',
      // C6 sold-out rule, for templates that style sold-out products without the badge.
      soldOut: isSoldOut(product),
    },
  };
  const merchandising = merchandisingOf(product);
  return {
    item,
    merchandising,
    eagerThumbnail,
    contextEntry: {
      productType: product.productType,
      isSubscribable: product.isSubscribable,
      variants,
      customSoldOutText: merchandising.customSoldOutText,
      // The islands write the billing period into a selected variant's price.
      ...(product.isSubscribable && product.subscriptionPlan ? { subscriptionPlan: product.subscriptionPlan } : {}),
    },
  };
}
