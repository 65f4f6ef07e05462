import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Diagnostic, RenderOptions } from '../../engine/index.ts';
import type { ApiDeps } from '../api/context.ts';
import { compileCached } from '../site/load-site.ts';
import type { Block, ContentEntry, LoadedSite, SiteConfig } from '../site/site-types.ts';
import type { Repository } from '../store/repository.ts';
import type { Form, Product, Session, Site } from '../store/types.ts';
import { accountHtml, renderBlocks } from './blocks.ts';
import { minimumOrderSubtotal } from '../orders/pricing.ts';
import { knownCurrency } from './money.ts';
import { productView, type ProductView, type ProductViewOptions } from './product-view.ts';
import { LOCK_HINTS, navigation } from './site-navigation.ts';
import { isStorable } from './visitor.ts';
import { serializeProps } from '../../hydrate/protocol/props.ts';
import { FEATURE, effectiveToggles, experimentDefinitions, mergeSiteFeatures, type SiteFeatures } from '../../hydrate/shared/feature-toggles.ts';

// The shared part of every page render: the per-request job (reads, caches, problems), the
// template-context members every page type gets, and the `Resolved` a page type's loader
// returns. Page types (page-types/) add their own members on top; document-writer.ts turns
// the result into bytes.

export type Json = Record<string, unknown>;

/** The display reads of a page: the store itself, or a `ReadCache` in front of it. */
export type PageReads = Pick<Repository, 'getSite' | 'getProduct' | 'listProducts' | 'listForms' | 'listApprovedReviews' | 'approvedRatings'>;

export const NO_FORMS: ReadonlyMap<string, Form> = new Map();

/** Thrown by data loading when the route names nothing (unknown token, sku, order …). */
export class NotFound extends Error {}

/** What a page type's loader settled: the page type rendered and its sf-context members. */
export interface Resolved {
  pageType: number;
  status: number;
  entry: ContentEntry | null;
  pageId: string;
  pageTitle: string;
  collectionId: string | null;
  itemId: string | null;
  recordType: number | null;
  videoPaywall: boolean;
  order: Json | null;
}

/** A `Resolved` with the defaults: status 200, no collection, item or order. */
export function resolvedPage(job: PageJob, pageType: number, entry: ContentEntry | null, title: string): Resolved {
  return {
    pageType,
    status: 200,
    entry,
    pageId: entry?.id ?? `type-${pageType}`,
    pageTitle: title,
    collectionId: null,
    itemId: null,
    recordType: null,
    videoPaywall: entry?.videoPaywall === true && job.flags.videoPaywall === true,
    order: null,
  };
}

/** A page the renderer settles itself (lock screen, not found): no entry, fixed id. */
export function fixedPage(pageType: number, status: number, pageId: string, pageTitle: string): Resolved {
  return { pageType, status, entry: null, pageId, pageTitle, collectionId: null, itemId: null, recordType: null, videoPaywall: false, order: null };
}

// Per-request work derived only from shared, read-only objects (the loaded site, rows the
// read cache hands to every request for its TTL) is done once per object. Without the read
// cache rows are new objects on every request, and these simply miss.
const formsById = new WeakMap<readonly Form[], Map<string, Form>>();
const slugsBySite = new WeakMap<LoadedSite, Map<string, string>>();
const viewsByProduct = new WeakMap<Product, { options: ProductViewOptions; view: ProductView }[]>();
const memberTextByView = new WeakMap<ProductView, string | null>();

const sameViewOptions = (a: ProductViewOptions, b: ProductViewOptions): boolean =>
  a.currency === b.currency && a.config === b.config && a.collectionSlugs === b.collectionSlugs && a.forms === b.forms && a.reviewsShown === b.reviewsShown;

/** Template-context members that depend only on the loaded site and the site row. */
export interface SiteShared {
  currency: string;
  flags: Record<string, boolean>;
  website: Json;
  websiteSettings: Json;
  storeSettings: Json;
  featureFlags: Json;
  /** The site's feature toggles and A/B tests in force: the folder's, then the admin's (issue 18). */
  features: SiteFeatures;
  /** Every toggle in force by name (defaults filled in); templates read it as `features.<name>`. */
  toggles: Record<string, boolean>;
  /** The site's config as the product views see it: without BNPL when its toggle is off. */
  config: SiteConfig;
  /** The sf-context members that depend only on the site and the row, as JSON text. */
  context: Record<string, string | null>;
}

/**
 * Built once per (site, row) pair and shared by every request that sees that pair (the row
 * object is shared for the read cache's TTL); templates only read them.
 */
const sharedBySite = new WeakMap<LoadedSite, { row: Site; shared: SiteShared }>();
function siteShared(site: LoadedSite, row: Site): SiteShared {
  const cached = sharedBySite.get(site);
  if (cached && cached.row === row) return cached.shared;
  const settings = row.settings;
  const currency = knownCurrency(settings.currency);
  const flags: Record<string, boolean> = { ...site.config.flags, ...row.settings.flags };
  const storeSettings = {
    selectedCurrency: currency,
    expressCheckout: settings.expressCheckout,
    customCart: settings.customCart,
    multipleQuantityAllowedForServices: settings.multipleQuantityAllowedForServices,
    restockNotificationsSuccessText: settings.restockNotificationsSuccessText,
    // The store's rule, as checkout applies it (the cart page's notice and the checkout's 422 agree).
    minimumOrderSubtotalCents: minimumOrderSubtotal(settings.commerce),
  };
  const websiteSettings = (typeof site.config.extra.websiteSettings === 'object' && site.config.extra.websiteSettings) || {};
  const features = mergeSiteFeatures(site.config.features, row.features ? { features: row.features.features, experiments: row.features.experiments } : null);
  const toggles = effectiveToggles(features);
  const shared: SiteShared = {
    currency,
    flags,
    website: {
      ...site.config.extra,
      id: row.websiteId,
      siteTitle: site.config.title,
      language: site.config.locale,
      timeZone: settings.timeZone,
      captchaSettings: { siteKey: settings.captcha.siteKey },
      shareButtonOptions: (site.config.extra.shareButtonOptions as Json | undefined) ?? {},
    },
    websiteSettings: { ...(websiteSettings as Json), storeSettings },
    storeSettings,
    featureFlags: { ...flags, useCLDRMoneyFormat: flags.useCLDRMoneyFormat === true },
    features,
    toggles,
    // The `bnpl` toggle off: no pill anywhere, as for a site without BNPL (one object per pair, so views stay cached).
    config: toggles[FEATURE.bnpl] ? site.config : { ...site.config, bnpl: null },
    context: {},
  };
  shared.context = constantContext(site, row, shared);
  sharedBySite.set(site, { row, shared });
  return shared;
}

/** A value as sf-context JSON text, or null when it cannot be serialized. */
export function propsText(value: unknown): string | null {
  const serialized = serializeProps(value);
  return serialized.ok ? serialized.text : null;
}

/**
 * The sf-context members that depend only on the loaded site and the site row, serialized
 * once per pair: only the per-page members are serialized per request.
 */
function constantContext(site: LoadedSite, row: Site, shared: SiteShared): Record<string, string | null> {
  const settings = row.settings;
  const bnpl = shared.config.bnpl;
  const policy = (settings.cookiePolicy ?? {}) as Json;
  const flags = shared.flags;
  return {
    websiteId: propsText(row.websiteId),
    templateId: propsText(site.config.templateId),
    websiteLocale: propsText(site.config.locale),
    store: propsText(shared.storeSettings),
    captcha: propsText({ siteKey: settings.captcha.siteKey, provider: settings.captcha.provider }),
    flags: propsText({
      videoPaywall: flags.videoPaywall === true,
      commerceVisitorMetrics: flags.commerceVisitorMetrics === true,
      vanillaFormHandler: flags.vanillaFormHandler === true,
      reviewsKillSwitch: flags.reviewsKillSwitch === true,
      useCLDRMoneyFormat: flags.useCLDRMoneyFormat === true,
    }),
    // `tracking` minus skipPageView, which is per page.
    trackingRest: propsText({
      isCloneable: settings.isCloneable,
      cookiePolicy: { restrictive: policy.restrictive === true, absolute: policy.absolute === true, bannerEnabled: policy.bannerEnabled === true },
    }),
    platform: site.config.platform ? propsText(site.config.platform) : null,
    bnpl: propsText(bnpl ? { stripeAccountCountry: bnpl.stripeAccountCountry, shopperLanguage: bnpl.shopperLanguage } : null),
    experiments: propsText(experimentDefinitions(shared.features)),
  };
}

/** The first value of a query parameter; values the store cannot hold count as absent. */
export const firstString = (value: unknown): string | null => {
  const text = typeof value === 'string' ? value : Array.isArray(value) && typeof value[0] === 'string' ? value[0] : null;
  return text !== null && isStorable(text) ? text : null;
};

/** Everything a render needs, gathered per request. */
export class PageJob {
  readonly problems: string[] = [];
  readonly diagnostics: Diagnostic[] = [];
  private products: Promise<Product[]> | null = null;
  private forms: Promise<Map<string, Form>> | null = null;
  readonly currency: string;
  readonly contextProducts = new Map<string, ProductView>();
  readonly merchandising: Json = {};
  readonly flags: Record<string, boolean>;
  readonly shared: SiteShared;

  constructor(
    readonly deps: ApiDeps,
    readonly reads: PageReads,
    readonly site: LoadedSite,
    readonly row: Site,
    readonly request: FastifyRequest,
    readonly reply: FastifyReply,
    readonly session: Session | null,
  ) {
    this.shared = siteShared(site, row);
    this.currency = this.shared.currency;
    this.flags = this.shared.flags;
  }

  listProducts(): Promise<Product[]> {
    this.products ??= this.reads.listProducts();
    return this.products;
  }

  listForms(): Promise<Map<string, Form>> {
    this.forms ??= this.reads.listForms().then((forms) => {
      let byId = formsById.get(forms);
      if (!byId) formsById.set(forms, (byId = new Map(forms.map((form) => [form.id, form]))));
      return byId;
    });
    return this.forms;
  }

  collectionSlugs(): Map<string, string> {
    let out = slugsBySite.get(this.site);
    if (out) return out;
    out = new Map<string, string>();
    for (const entry of this.site.entries) if (entry.collectionType === 'products') out.set(entry.id, entry.slug);
    slugsBySite.set(this.site, out);
    return out;
  }

  /** `productView`, reused while the product row and the options are the same objects. */
  view(product: Product, options: ProductViewOptions): ProductView {
    let views = viewsByProduct.get(product);
    const hit = views?.find((cached) => sameViewOptions(cached.options, options));
    if (hit) return hit.view;
    const view = productView(product, options);
    if (!views || views.length >= 4) viewsByProduct.set(product, (views = []));
    views.push({ options, view });
    return view;
  }

  /** Forms are read only when one of the products shown has an additional-fields form. */
  async viewOptions(reviewsShown: boolean, products: readonly Product[]): Promise<ProductViewOptions> {
    return {
      currency: this.currency,
      config: this.shared.config,
      collectionSlugs: this.collectionSlugs(),
      forms: products.some((product) => product.additionalFieldsFormId) ? await this.listForms() : NO_FORMS,
      reviewsShown,
    };
  }

  /** Registers a product for `sf-context.products` and `productMerchandisingContext`. */
  use(view: ProductView): Json {
    const id = String(view.item.id);
    this.contextProducts.set(id, view);
    this.merchandising[id] = view.merchandising;
    return view.item;
  }

  /** `sf-context.products` as JSON text, each product's member serialized once per view. */
  contextProductsJson(): string | null {
    let json = '';
    for (const [id, view] of this.contextProducts) {
      let member = memberTextByView.get(view);
      if (member === undefined) {
        const text = propsText({ [id]: view.contextEntry });
        member = text === null ? null : text.slice(1, -1);
        memberTextByView.set(view, member);
      }
      if (member === null) return null;
      if (member !== '') json += json === '' ? member : `,${member}`;
    }
    return `{${json}}`;
  }

  renderOptions(): RenderOptions {
    return {
      partials: this.site.partials,
      locale: this.site.config.locale,
      timezone: this.row.settings.timeZone,
      now: this.deps.now(),
    };
  }
}


/** The product block's template: compiled once, on the first product block. */
let productBlockTemplate: ReturnType<typeof compileCached>['template'] | null = null;

/** Renders blocks, reading forms and products only when a block needs them. */
export async function renderContentBlocks(job: PageJob, ctx: Json, contentSource: 'c' | 'i', blocks: readonly Block[]): Promise<string> {
  if (blocks.length === 0) return '';
  const needsForms = blocks.some((block) => block.type === 'form' || block.type === 'newsletter');
  const needsProducts = blocks.some((block) => block.type === 'product');
  const forms = needsForms ? await job.listForms() : NO_FORMS;
  const products = needsProducts ? await job.listProducts() : [];
  const viewOptions = await job.viewOptions(false, products);
  productBlockTemplate ??= compileCached('builtin:product-block', '{.section sfBlockItem}{@|apply sf-product-block}{.end}').template;
  const blockTemplate = productBlockTemplate;
  return renderBlocks(blocks, {
    forms,
    contentSource,
    accountHtml: String((ctx.sf as Json).account),
    report: (message) => job.problems.push(message),
    productBlock: (productId) => {
      const product = products.find((candidate) => candidate.id === productId);
      if (!product) return null;
      const item = job.use(job.view(product, viewOptions));
      // The block renders in the page's context so the formatters see localizedStrings,
      // productMerchandisingContext (the job's, set by baseContext) and the store settings.
      const result = blockTemplate.render({ ...ctx, sfBlockItem: item }, job.renderOptions());
      job.diagnostics.push(...result.errors);
      return result.html;
    },
  });
}

/** The template-context members every page type gets. */
export function baseContext(job: PageJob, path: string): Json {
  const { site, shared } = job;
  return {
    website: shared.website,
    websiteSettings: shared.websiteSettings,
    storeSettings: shared.storeSettings,
    flags: job.flags,
    featureFlags: shared.featureFlags,
    features: shared.toggles,
    localizedStrings: site.config.localizedStrings,
    productMerchandisingContext: job.merchandising,
    siteUser: job.session ? { authenticated: true, siteUserId: job.session.siteUserId } : null,
    navigation: navigation(site, path, job.session !== null),
    lockHints: LOCK_HINTS,
    sf: { account: accountHtml(job.session !== null), bnpl: '', cartForms: '' },
  };
}
