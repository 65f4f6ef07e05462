import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Diagnostic, RenderOptions, Template } from '../../engine/index.ts';
import { callerCart, ensureCrumbCookie, isLiveMainCart, type ApiDeps } from '../api/context.ts';
import { cartView, emptyCartView, type ShoppingCartView } from '../api/cart-view.ts';
import { clearCartCookies } from '../api/cookies.ts';
import { BUILTIN_TEMPLATES, ERROR_PAGE_BODY } from '../site/builtin-templates.ts';
import { compileCached } from '../site/load-site.ts';
import type { Block, CompiledTemplate, ContentEntry, LoadedSite } from '../site/site-types.ts';
import type { Repository } from '../store/repository.ts';
import type { Form, Product, Session, Site } from '../store/types.ts';
import { accountHtml, renderBlocks } from './blocks.ts';
import { formatMoney, knownCurrency } from './money.ts';
import { bnplIslandHtml, productView, type ProductView, type ProductViewOptions } from './product-view.ts';
import { PAGE_TYPE, pathOf, resolveRoute, templateNames, type Route } from './route-resolver.ts';
import { cartPageView, collectionObject, contentItemObject, navigation, orderView, pageObject } from './page-views.ts';
import { documentBytes } from './document-bytes.ts';
import { renderShell, rendererCss, shellFrame, shellStyle } from './shell.ts';
import { endOfTurn } from './turn-batching.ts';
import { signedInUser } from './signed-in-user.ts';
import { siteStylesheet } from './site-stylesheet.ts';
import { PILL_CART_HTML, showsPillCart, skipPageView, type Member } from './tracking.ts';
import { isStorable, isUnlocked, screenCookies, visitorSession } from './visitor.ts';
import { DEFAULT_PROPS_LIMITS, serializeProps } from '../../hydrate/protocol/props.ts';

type Json = Record<string, unknown>;

/** How long a popup overlay waits before it shows when `site.json` names no `delaySeconds`. */
const OVERLAY_DEFAULT_DELAY_MS = 5000;

/** What a page render leaves on the request, for the author-preview overlay and logs. */
export interface QuirePageInfo {
  pageType: number;
  /** Name of the template used (`products.item`, `builtin:not-found`, …). */
  templateName: string;
  /** Engine diagnostics of this render, each naming its template or partial source. */
  diagnostics: Diagnostic[];
  /** Problems of the site content found while rendering (unknown block, missing form …). */
  problems: string[];
}

declare module 'fastify' {
  interface FastifyRequest {
    quirePage?: QuirePageInfo;
  }
}

export type SiteSource = LoadedSite | (() => LoadedSite);
export type ResolveMember = (request: FastifyRequest) => Member | null | Promise<Member | null>;

/** The display reads of a page: the store itself, or a `ReadCache` in front of it. */
export type PageReads = Pick<Repository, 'getSite' | 'getProduct' | 'listProducts' | 'listForms'>;

export interface PageRendererOptions {
  deps: ApiDeps;
  site: SiteSource;
  resolveMember?: ResolveMember;
  /** Default: `deps.store.read`, uncached. */
  reads?: PageReads;
}

const NO_FORMS: ReadonlyMap<string, Form> = new Map();

/** Thrown by data loading when the route names nothing (unknown token, sku, order …). */
class NotFound extends Error {}

const builtinCache = new Map<string, CompiledTemplate>();
function builtinTemplate(name: string): CompiledTemplate | null {
  let hit = builtinCache.get(name);
  if (hit) return hit;
  const source = BUILTIN_TEMPLATES[name];
  if (source === undefined) return null;
  const file = `builtin:${name}`;
  const { template, hash } = compileCached(file, source);
  hit = { name: file, file, hash, template };
  builtinCache.set(name, hit);
  return hit;
}

/** A site's `head` partial compiled once per loaded site (null: the site has none). */
const headCache = new WeakMap<LoadedSite, Template | null>();
function headTemplate(site: LoadedSite): Template | null {
  let hit = headCache.get(site);
  if (hit === undefined) {
    hit = Object.hasOwn(site.partials, 'head') ? compileCached('partials/head.jsont', site.partials.head!).template : null;
    headCache.set(site, hit);
  }
  return hit;
}

/**
 * The head's styles of a site in a currency: the renderer's own few rules inline (the add
 * button must stay hidden until the cart is ready, before any stylesheet arrives), then the
 * link to the site's stylesheet. UTF-8 encoded once per loaded site and currency.
 */
const styleCache = new WeakMap<LoadedSite, Map<string, Buffer>>();
function pageStyle(site: LoadedSite, currency: string): Buffer {
  let bySite = styleCache.get(site);
  if (!bySite) styleCache.set(site, (bySite = new Map()));
  let style = bySite.get(currency);
  if (style === undefined) {
    const sheet = siteStylesheet(site);
    const link = sheet ? `<link rel="stylesheet" href="${sheet.href}">\n` : '';
    bySite.set(currency, (style = Buffer.from(shellStyle(rendererCss(currency)) + link)));
  }
  return style;
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
interface SiteShared {
  currency: string;
  flags: Record<string, boolean>;
  website: Json;
  websiteSettings: Json;
  storeSettings: Json;
  featureFlags: Json;
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
    minimumOrderSubtotalCents: site.config.minimumOrderSubtotalCents,
  };
  const websiteSettings = (typeof site.config.extra.websiteSettings === 'object' && site.config.extra.websiteSettings) || {};
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
    context: {},
  };
  shared.context = constantContext(site, row, shared);
  sharedBySite.set(site, { row, shared });
  return shared;
}

/** A value as sf-context JSON text, or null when it cannot be serialized. */
function propsText(value: unknown): string | null {
  const serialized = serializeProps(value);
  return serialized.ok ? serialized.text : null;
}

/**
 * The sf-context members that depend only on the loaded site and the site row, serialized
 * once per pair: only the per-page members are serialized per request.
 */
function constantContext(site: LoadedSite, row: Site, shared: SiteShared): Record<string, string | null> {
  const settings = row.settings;
  const bnpl = site.config.bnpl;
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
  };
}

function pickTemplate(site: LoadedSite, names: string[]): CompiledTemplate {
  for (const name of names) {
    const own = site.templates.get(name);
    if (own) return own;
  }
  for (const name of names) {
    const builtin = builtinTemplate(name);
    if (builtin) return builtin;
  }
  return builtinTemplate('page')!;
}

/** The first value of a query parameter; values the store cannot hold count as absent. */
const firstString = (value: unknown): string | null => {
  const text = typeof value === 'string' ? value : Array.isArray(value) && typeof value[0] === 'string' ? value[0] : null;
  return text !== null && isStorable(text) ? text : null;
};

/** Everything a render needs, gathered per request. */
class PageJob {
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
      config: this.site.config,
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

export function createPageRenderer(options: PageRendererOptions) {
  const { deps } = options;
  const reads = options.reads ?? deps.store.read;
  const getSite = typeof options.site === 'function' ? options.site : () => options.site as LoadedSite;
  const resolveMember = options.resolveMember ?? (() => null);
  const productBlockTemplate = compileCached('builtin:product-block', '{.section sfBlockItem}{@|apply sf-product-block}{.end}').template;

  /** Renders blocks, reading forms and products only when a block needs them. */
  async function renderContentBlocks(job: PageJob, ctx: Json, contentSource: 'c' | 'i', blocks: readonly Block[]): Promise<string> {
    if (blocks.length === 0) return '';
    const needsForms = blocks.some((block) => block.type === 'form' || block.type === 'newsletter');
    const needsProducts = blocks.some((block) => block.type === 'product');
    const forms = needsForms ? await job.listForms() : NO_FORMS;
    const products = needsProducts ? await job.listProducts() : [];
    const viewOptions = await job.viewOptions(false, products);
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
        const result = productBlockTemplate.render({ ...ctx, sfBlockItem: item }, job.renderOptions());
        job.diagnostics.push(...result.errors);
        return result.html;
      },
    });
  }

  function cartBnplHtml(job: PageJob, view: ShoppingCartView): string {
    const bnpl = job.site.config.bnpl;
    if (!bnpl || !bnpl.afterPayAvailable || view.entries.length === 0) return '';
    return bnplIslandHtml({ context: 'cart', itemId: '', priceCents: view.subtotalCents, currency: job.currency, bnpl });
  }

  interface Resolved {
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

  /** Loads the route's data into `ctx`; throws NotFound when the route names nothing. */
  async function load(job: PageJob, route: Route, ctx: Json, path: string, query: Json): Promise<Resolved> {
    const site = job.site;
    const base = (pageType: number, entry: ContentEntry | null, title: string): Resolved => ({
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
    });
    switch (route.kind) {
      case 'not-found':
        throw new NotFound();
      case 'search': {
        const q = (firstString(query.q) ?? '').trim().slice(0, 200);
        const needle = q.toLowerCase();
        const results: Json[] = [];
        if (needle !== '') {
          const products = await job.listProducts();
          const options = await job.viewOptions(false, products);
          for (const product of products) {
            if (results.length >= 20) break;
            if (product.title.toLowerCase().includes(needle)) results.push(job.use(job.view(product, options)));
          }
          for (const entry of site.entries) {
            if (entry.memberArea || entry.password) continue;
            for (const item of entry.items) {
              if (results.length >= 20) break;
              if (item.title.toLowerCase().includes(needle)) results.push(contentItemObject(entry, item, ''));
            }
          }
        }
        ctx.search = { query: q, resultCount: results.length };
        ctx.items = results;
        return base(PAGE_TYPE.search, null, 'Search');
      }
      case 'cart': {
        const pageType = site.config.cartVersion === 2 ? PAGE_TYPE.cartV2 : PAGE_TYPE.cart;
        const found = await callerCart(job.deps, job.deps.store.read, job.request, job.session);
        if (found.staleCookie) clearCartCookies(job.request, job.reply);
        const view = found.cart ? cartView(found.cart) : emptyCartView(job.row.websiteId);
        const { cart, formsJson } = cartPageView(view, { products: await job.listProducts(), forms: await job.listForms(), slugs: job.collectionSlugs(), currency: job.currency, minimumCents: job.site.config.minimumOrderSubtotalCents, multipleQuantityAllowedForServices: job.row.settings.multipleQuantityAllowedForServices });
        ctx.cart = cart;
        const sf = ctx.sf as Json;
        sf.bnpl = cartBnplHtml(job, view);
        const formsText = serializeProps(formsJson);
        sf.cartForms = Object.keys(formsJson).length && formsText.ok ? `<script type="application/json" data-cart-forms>${formsText.text}</script>` : '';
        return base(pageType, null, 'Shopping Cart');
      }
      case 'checkout':
        return loadCheckout(job, route.variant, ctx, query, base);
      case 'order-confirmed': {
        const order = route.orderId.length <= 200 && isStorable(route.orderId) ? await job.deps.store.read.getOrder(route.orderId) : null;
        if (!order || order.websiteId !== job.row.websiteId) throw new NotFound();
        const resolved = base(PAGE_TYPE.orderConfirmed, null, 'Order Confirmed');
        ctx.order = orderView(order, job.currency);
        resolved.order = {
          id: order.id,
          purchasedCartId: order.purchasedCartId,
          websiteId: order.websiteId,
          testMode: order.testMode,
          items: order.items,
          grandTotal: order.grandTotal,
          shippingTotal: order.shippingTotal,
          taxTotal: order.taxTotal,
        };
        return resolved;
      }
      case 'entry':
      case 'content-item':
      case 'product':
        return loadContent(job, route, ctx, path, base);
    }
  }

  async function loadCheckout(
    job: PageJob,
    variant: 'cart' | 'subscription' | 'gift-card',
    ctx: Json,
    query: Json,
    base: (pageType: number, entry: ContentEntry | null, title: string) => Resolved,
  ): Promise<Resolved> {
    const resolved = base(PAGE_TYPE.checkout, null, 'Checkout');
    if (variant === 'gift-card') {
      const itemId = firstString(query.itemId);
      const sku = firstString(query.sku);
      if (!itemId || !sku || itemId.length > 200) throw new NotFound();
      const product = await job.reads.getProduct(itemId);
      const chosen = product?.productType === 4 ? product.variants.find((candidate) => candidate.sku === sku) : undefined;
      if (!product || !chosen) throw new NotFound();
      ctx.item = job.use(job.view(product, await job.viewOptions(false, [product])));
      const totalText = formatMoney(chosen.priceCents, job.currency);
      ctx.checkout = {
        kind: 'gift-card',
        lines: [{ title: product.title, variantText: totalText, quantity: 1, totalText, sku: chosen.sku }],
        totalCents: chosen.priceCents,
        totalText,
      };
      resolved.itemId = product.id;
      return resolved;
    }
    const token = firstString(query.cartToken);
    if (!token || token.length > 200) throw new NotFound();
    const cart = await job.deps.store.read.getCart(token);
    const now = job.deps.now();
    const usable =
      cart !== null &&
      !cart.isPurchased &&
      (cart.expiresAt === null || cart.expiresAt > now) &&
      (variant === 'subscription' ? cart.kind === 'subscription' : cart.kind === 'express' || isLiveMainCart(cart, now));
    if (!usable || !cart) throw new NotFound();
    // The API's owner check (callerCart): a cart that belongs to a user is shown to that user
    // alone, whoever else knows its id (it was the CART cookie until the user signed in).
    if (cart.ownerSiteUserId !== null && cart.ownerSiteUserId !== job.session?.siteUserId) throw new NotFound();
    const view = cartView(cart);
    ctx.checkout = {
      kind: variant === 'subscription' ? 'subscription' : 'cart',
      cartToken: cart.id,
      lines: view.entries.map((entry) => ({
        title: entry.title,
        variantText: Object.values(entry.chosenVariant.attributes).join(' / '),
        quantity: entry.quantity,
        sku: entry.chosenVariant.sku,
        totalText: formatMoney(entry.subTotal, job.currency),
      })),
      totalCents: view.grandTotalCents,
      totalText: formatMoney(view.grandTotalCents, job.currency),
    };
    return resolved;
  }

  async function loadContent(
    job: PageJob,
    route: Extract<Route, { kind: 'entry' | 'content-item' | 'product' }>,
    ctx: Json,
    path: string,
    base: (pageType: number, entry: ContentEntry | null, title: string) => Resolved,
  ): Promise<Resolved> {
    const entry = route.entry;
    if (entry.pageType === PAGE_TYPE.commerceEmailPreview) throw new NotFound();
    if (entry.memberArea && !job.session) {
      ctx.page = pageObject(entry, '');
      const denied = base(PAGE_TYPE.memberAreaDenied, entry, entry.title);
      denied.status = 403;
      return denied;
    }
    if (entry.password && !isUnlocked(job.request, job.row.websiteId, entry.id, entry.password)) {
      ctx.page = pageObject(entry, '');
      ctx.lock = { returnTo: path, scope: entry.id, scopeKind: 'page', heading: entry.title, message: 'This page is password protected.' };
      return base(PAGE_TYPE.protectedContent, entry, entry.title);
    }
    if (route.kind === 'entry' && entry.kind === 'collection') {
      const resolved = base(PAGE_TYPE.collection, entry, entry.title);
      resolved.collectionId = entry.id;
      let items: Json[];
      if (entry.collectionType === 'products') {
        const products = (await job.listProducts()).filter((product) => product.collectionId === entry.id);
        const options = await job.viewOptions(false, products);
        items = products.map((product) => job.use(job.view(product, options)));
      } else {
        items = entry.items.map((item) => contentItemObject(entry, item, ''));
      }
      ctx.items = items;
      ctx.collection = collectionObject(entry, items.length);
      // A collection page may carry blocks of its own (an intro, a newsletter …).
      ctx.page = pageObject(entry, await renderContentBlocks(job, ctx, 'c', entry.blocks));
      return resolved;
    }
    if (route.kind === 'entry') {
      const resolved = base(entry.pageType, entry, entry.title);
      ctx.page = pageObject(entry, await renderContentBlocks(job, ctx, 'c', entry.blocks));
      return resolved;
    }
    ctx.collection = collectionObject(entry, route.kind === 'content-item' ? entry.items.length : 0);
    if (route.kind === 'content-item') {
      const resolved = base(PAGE_TYPE.item, entry, route.item.title);
      resolved.collectionId = entry.id;
      resolved.itemId = route.item.id;
      const item = contentItemObject(entry, route.item, await renderContentBlocks(job, ctx, 'i', route.item.blocks));
      resolved.recordType = item.recordType as number;
      ctx.item = item;
      ctx.items = [item];
      ctx.page = pageObject(entry, '');
      return resolved;
    }
    const matches = (candidate: Product | null | undefined): candidate is Product =>
      !!candidate && candidate.collectionId === entry.id && candidate.urlSlug === route.productSlug;
    // Slugs are usually the product ids: one row read instead of the whole catalogue.
    const direct = route.productSlug.length <= 200 && isStorable(route.productSlug) ? await job.reads.getProduct(route.productSlug) : null;
    const product = matches(direct) ? direct : (await job.listProducts()).find(matches);
    if (!product) throw new NotFound();
    const config = job.site.config;
    const reviewsShown = job.flags.reviewsKillSwitch !== true && (config.reviews.nativeEnabled || config.reviews.importedEnabled);
    const item = job.use(job.view(product, await job.viewOptions(reviewsShown, [product])));
    ctx.item = item;
    ctx.items = [item];
    ctx.page = pageObject(entry, '');
    const resolved = base(PAGE_TYPE.item, entry, product.title);
    resolved.collectionId = entry.id;
    resolved.itemId = product.id;
    resolved.recordType = 11;
    return resolved;
  }

  /**
   * C1 type 104: a site with an enabled overlay (`site.json` `overlay: {enabled, id, title,
   * version, delaySeconds, paths, blocks}`) gets it rendered into its content pages (those
   * in `paths` when it is a list), hidden until the client shows it
   * (hydrate/islands/popup-overlay.ts: after the delay, unless closed at this version or
   * submitted).
   */
  async function renderOverlay(job: PageJob, ctx: Json, options: RenderOptions, path: string): Promise<string> {
    const raw = job.site.config.extra.overlay;
    if (typeof raw !== 'object' || raw === null || (raw as Json).enabled !== true) return '';
    const overlay = raw as Json;
    if (Array.isArray(overlay.paths) && !overlay.paths.includes(path)) return '';
    const blocks = Array.isArray(overlay.blocks) ? (overlay.blocks.filter((b) => typeof b === 'object' && b !== null && typeof (b as Json).type === 'string') as Block[]) : [];
    const title = typeof overlay.title === 'string' ? overlay.title : '';
    const version = typeof overlay.version === 'string' || typeof overlay.version === 'number' ? String(overlay.version) : '1';
    const seconds = overlay.delaySeconds;
    // A delay that is not a number of seconds up to an hour falls back to the default.
    const delayMs = typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0 && seconds <= 3600 ? Math.round(seconds * 1000) : OVERLAY_DEFAULT_DELAY_MS;
    ctx.overlay = {
      ...overlay,
      id: typeof overlay.id === 'string' ? overlay.id : 'overlay',
      // The dialog's accessible name: its title, or a generic one when it has none.
      label: title || 'Pop-up',
      version,
      delayMs,
      blocksHtml: await renderContentBlocks(job, ctx, 'c', blocks),
    };
    const template = pickTemplate(job.site, templateNames(PAGE_TYPE.popupOverlay, null));
    const result = template.template.render(ctx, options);
    job.diagnostics.push(...result.errors);
    return result.html;
  }

  function baseContext(job: PageJob, path: string): Json {
    const { site, shared } = job;
    return {
      website: shared.website,
      websiteSettings: shared.websiteSettings,
      storeSettings: shared.storeSettings,
      flags: job.flags,
      featureFlags: shared.featureFlags,
      localizedStrings: site.config.localizedStrings,
      productMerchandisingContext: job.merchandising,
      siteUser: job.session ? { authenticated: true, siteUserId: job.session.siteUserId } : null,
      navigation: navigation(site, path),
      sf: { account: accountHtml(job.session !== null), bnpl: '', cartForms: '' },
    };
  }

  /** sf-context (A0.1) as JSON text; `{}` if any member cannot be serialized (a renderer bug). */
  function sfContextJson(job: PageJob, resolved: Resolved, skip: string | null, path: string): string {
    const constant = job.shared.context;
    const trackingRest = constant.trackingRest;
    // The page's own members, serialized in one call: `"pageType":…,"pageId":…,…`.
    const page = propsText({
      pageType: resolved.pageType,
      pageId: resolved.pageId,
      pageTitle: resolved.pageTitle,
      pagePath: path,
      collectionId: resolved.collectionId,
      itemId: resolved.itemId,
      recordType: resolved.recordType,
    });
    if (page === null) return '{}';
    // Members in A0.1 order; a null text is a member that could not be serialized.
    const members: [string | null, string | null][] = [
      ['websiteId', constant.websiteId!],
      ['templateId', constant.templateId!],
      [null, page.slice(1, -1)],
      ['websiteLocale', constant.websiteLocale!],
      ['store', constant.store!],
      ['captcha', constant.captcha!],
      ['flags', constant.flags!],
      ['tracking', trackingRest && `{"skipPageView":${skip === null ? 'null' : propsText(skip)},${trackingRest.slice(1)}`],
    ];
    // A site that disables tracking loads no platform client at all, performance included.
    if (job.site.config.platform && skip !== 'tracking-disabled') members.push(['platform', constant.platform!]);
    members.push(
      ['siteUser', job.session ? propsText({ authenticated: true, siteUserId: job.session.siteUserId, xsrfToken: job.session.xsrfToken }) : 'null'],
      ['bnpl', constant.bnpl!],
      ['products', job.contextProductsJson()],
      ['order', resolved.order === null ? 'null' : propsText(resolved.order)],
    );
    let json = '{';
    for (const [key, text] of members) {
      if (text === null) return '{}';
      if (json.length > 1) json += ',';
      json += key === null ? text : `"${key}":${text}`;
    }
    json += '}';
    return json.length > DEFAULT_PROPS_LIMITS.maxChars ? '{}' : json;
  }

  function send(reply: FastifyReply, status: number, html: string | Buffer): FastifyReply {
    // A Buffer: a string body would be scanned for its byte length, then encoded again on write.
    return reply.code(status).header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store').send(typeof html === 'string' ? Buffer.from(html) : html);
  }

  /** C1 type 101: no site template, no data; only what cannot fail. */
  function sendErrorPage(request: FastifyRequest, reply: FastifyReply, site: LoadedSite | null, trackingDisabled: boolean): FastifyReply {
    const locale = site?.config.locale ?? 'en-US';
    request.quirePage = { pageType: PAGE_TYPE.error, templateName: 'builtin:error', diagnostics: [], problems: [] };
    const html = renderShell({
      locale,
      title: site ? `Error — ${site.config.title}` : 'Error',
      pageType: PAGE_TYPE.error,
      css: rendererCss('USD'),
      body: ERROR_PAGE_BODY,
      pillCart: '',
      context: {
        pageType: PAGE_TYPE.error,
        pagePath: pathOf(request.url),
        websiteLocale: locale,
        tracking: { skipPageView: trackingDisabled ? 'tracking-disabled' : 'error' },
      },
      captchaLocal: false,
    });
    return send(reply, 500, html);
  }

  async function render(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    let site: LoadedSite | null = null;
    let trackingDisabled = false;
    // Render after every request of this turn has been read, one after another (turn-batching.ts).
    await endOfTurn();
    try {
      site = getSite();
      trackingDisabled = site.config.trackingDisabled;
      screenCookies(request);
      const [row, session] = await Promise.all([reads.getSite(), visitorSession(deps, request, reply)]);
      if (!row) throw new Error('the store has no site row; seed it first');
      trackingDisabled ||= row.settings.trackingDisabled;
      ensureCrumbCookie(request, reply);
      // The header's signed-in member (issue 16), looked up while the member lookup runs.
      const siteUser = session ? signedInUser(deps, session) : null;
      // A failing member lookup must not take the page down: the visitor is treated as no member.
      const member = await Promise.resolve()
        .then(() => resolveMember(request))
        .catch((error: unknown) => {
          request.log.warn({ err: error }, 'resolveMember failed');
          return null;
        });
      const job = new PageJob(deps, reads, site, row, request, reply, session);
      const path = pathOf(request.url);
      const query = (request.query ?? {}) as Json;
      const ctx = baseContext(job, path);
      if (siteUser) ctx.siteUser = await siteUser;

      let resolved: Resolved;
      if (site.config.lock.enabled && !isUnlocked(request, row.websiteId, 'site', site.config.lock.password)) {
        ctx.lock = { returnTo: path, scope: 'site', scopeKind: 'site', heading: site.config.title, message: 'This site is password protected.' };
        resolved = { pageType: PAGE_TYPE.lockScreen, status: 200, entry: null, pageId: 'lock-screen', pageTitle: site.config.title, collectionId: null, itemId: null, recordType: null, videoPaywall: false, order: null };
      } else {
        try {
          resolved = await load(job, resolveRoute(site, path), ctx, path, query);
        } catch (error) {
          if (!(error instanceof NotFound)) throw error;
          resolved = { pageType: PAGE_TYPE.notFound, status: 404, entry: null, pageId: 'not-found', pageTitle: 'Page Not Found', collectionId: null, itemId: null, recordType: null, videoPaywall: false, order: null };
        }
      }
      ctx.pageType = resolved.pageType;
      ctx.pageTitle = resolved.pageTitle;

      const options = job.renderOptions();
      const chosen = pickTemplate(site, templateNames(resolved.pageType, resolved.entry));
      const main = chosen.template.render(ctx, options);
      job.diagnostics.push(...main.errors);
      ctx.mainContent = main.html;
      const layout = site.templates.get('layout') ?? builtinTemplate('layout')!;
      const page = layout.template.render(ctx, options);
      job.diagnostics.push(...page.errors);
      // `partials/head.jsont`: the site's head tags (description, favicon, fonts), with the page context.
      let head = '';
      const headPartial = headTemplate(site);
      if (headPartial) {
        const rendered = headPartial.render(ctx, options);
        job.diagnostics.push(...rendered.errors);
        head = rendered.html.trim();
      }

      const overlay = showsPillCart(resolved.pageType, { expressCheckout: false, customCart: false }) ? await renderOverlay(job, ctx, options, path) : '';
      const skip = skipPageView({ trackingDisabled, member, pageType: resolved.pageType, path, videoPaywall: resolved.videoPaywall });
      const store = { expressCheckout: row.settings.expressCheckout, customCart: row.settings.customCart };
      const frame = shellFrame({
        locale: site.config.locale,
        title: resolved.pageTitle === site.config.title ? site.config.title : `${resolved.pageTitle} — ${site.config.title}`,
        pageType: resolved.pageType,
        pillCart: showsPillCart(resolved.pageType, store) ? PILL_CART_HTML : '',
        context: sfContextJson(job, resolved, skip, path),
        captchaLocal: row.settings.captcha.siteKey !== null && row.settings.captcha.provider === 'local',
        head,
      });
      const html = documentBytes(frame, pageStyle(site, job.currency), page.html + overlay);
      request.quirePage = { pageType: resolved.pageType, templateName: chosen.name, diagnostics: job.diagnostics, problems: job.problems };
      if (job.diagnostics.length || job.problems.length) {
        request.log.warn({ pageType: resolved.pageType, template: chosen.file, diagnostics: job.diagnostics.map((d) => `${d.source}:${d.line}:${d.column} ${d.code} ${d.message}`), problems: job.problems }, 'page rendered with template diagnostics');
      }
      return send(reply, resolved.status, html);
    } catch (error) {
      request.log.error({ err: error }, 'page render failed');
      return sendErrorPage(request, reply, site, trackingDisabled);
    }
  }

  return { render, getSite, reads };
}
