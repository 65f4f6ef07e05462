import { CONTEXT_SCRIPT_ID, ISLAND_PROTOCOL_VERSION, PROTOCOL_VERSION_ATTR } from '../protocol/markers.ts';
import { parseProps } from '../protocol/props.ts';
import type { SubscriptionPlanInput } from '../shared/subscription-period.ts';

/** A0.1 page context, normalized: every field present with its documented default. */
export interface PageContext {
  websiteId: string;
  templateId: string;
  pageType: number;
  pageId: string;
  pageTitle: string;
  pagePath: string;
  collectionId: string | null;
  itemId: string | null;
  recordType: number | null;
  websiteLocale: string;
  store: {
    selectedCurrency: string;
    expressCheckout: boolean;
    customCart: boolean;
    multipleQuantityAllowedForServices: boolean;
    restockNotificationsSuccessText: string | null;
    minimumOrderSubtotalCents: number;
  };
  captcha: { siteKey: string | null; provider: 'local' | 'recaptcha' };
  flags: {
    videoPaywall: boolean;
    commerceVisitorMetrics: boolean;
    vanillaFormHandler: boolean;
    reviewsKillSwitch: boolean;
    useCLDRMoneyFormat: boolean;
  };
  tracking: {
    skipPageView: string | null;
    isCloneable: boolean;
    cookiePolicy: { restrictive: boolean; absolute: boolean; bannerEnabled: boolean };
  };
  siteUser: { authenticated: boolean; siteUserId: string | null; xsrfToken: string | null } | null;
  bnpl: { stripeAccountCountry: string; shopperLanguage: string } | null;
  products: Record<string, ProductData>;
  /** Order of an order-confirmed page (A12.5), when the renderer provides one. */
  order: Record<string, unknown> | null;
  /**
   * The site's feature toggles and A/B tests as experiment definitions (shared/feature-toggles.ts);
   * null when the page carries none (islands then keep the built-in defaults, runtime/features.ts).
   */
  experiments: Record<string, unknown> | null;
}

export interface ProductData {
  productType: number;
  isSubscribable: boolean;
  variants: VariantData[];
  /** `productMerchandisingContext.<id>.customSoldOutText`, for A3's client-side sold-out mark. */
  customSoldOutText: string;
  /** `structuredContent.subscriptionPlan` of a subscribable product, for the period in its price. */
  subscriptionPlan: SubscriptionPlanInput | null;
}

/** A variant in the template shape (money as `{value, currency}` or `{decimalValue, currencyCode}`). */
export interface VariantData {
  id?: string;
  sku?: string;
  attributes?: Record<string, string>;
  priceMoney?: unknown;
  salePriceMoney?: unknown;
  onSale?: boolean;
  qtyInStock?: number;
  unlimited?: boolean;
  [key: string]: unknown;
}

type Json = Record<string, unknown>;

function obj(value: unknown): Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};
}
function str(value: unknown, fallback: string): string {
  return typeof value === 'string' ? value : fallback;
}
function strOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}
function num(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}
function numOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}
function bool(value: unknown, fallback = false): boolean {
  return typeof value === 'boolean' ? value : fallback;
}

function normalizeProducts(value: unknown): Record<string, ProductData> {
  const out: Record<string, ProductData> = {};
  for (const [id, raw] of Object.entries(obj(value))) {
    const p = obj(raw);
    const type = typeof p.productType === 'string' ? Number(p.productType) : p.productType;
    out[id] = {
      productType: num(type, 0),
      isSubscribable: p.isSubscribable === true || p.isSubscribable === 'true',
      variants: Array.isArray(p.variants) ? (p.variants.filter((v) => typeof v === 'object' && v !== null) as VariantData[]) : [],
      customSoldOutText: str(p.customSoldOutText, ''),
      subscriptionPlan: typeof p.subscriptionPlan === 'object' && p.subscriptionPlan !== null ? (p.subscriptionPlan as SubscriptionPlanInput) : null,
    };
  }
  return out;
}

/** Builds a context from raw JSON, filling every gap with the A0.1 default. */
export function normalizePageContext(raw: unknown): PageContext {
  const c = obj(raw);
  const store = obj(c.store);
  const captcha = obj(c.captcha);
  const flags = obj(c.flags);
  const tracking = obj(c.tracking);
  const policy = obj(tracking.cookiePolicy);
  const user = c.siteUser === null || c.siteUser === undefined ? null : obj(c.siteUser);
  const bnpl = c.bnpl === null || c.bnpl === undefined ? null : obj(c.bnpl);
  const siteKey = strOrNull(captcha.siteKey);
  return {
    websiteId: str(c.websiteId, ''),
    templateId: str(c.templateId, ''),
    pageType: num(c.pageType, 0),
    pageId: str(c.pageId, ''),
    pageTitle: str(c.pageTitle, ''),
    pagePath: str(c.pagePath, ''),
    collectionId: strOrNull(c.collectionId),
    itemId: strOrNull(c.itemId),
    recordType: numOrNull(c.recordType),
    websiteLocale: str(c.websiteLocale, 'en-US'),
    store: {
      selectedCurrency: str(store.selectedCurrency, 'USD') || 'USD',
      expressCheckout: bool(store.expressCheckout),
      customCart: bool(store.customCart),
      multipleQuantityAllowedForServices: bool(store.multipleQuantityAllowedForServices, true),
      restockNotificationsSuccessText: strOrNull(store.restockNotificationsSuccessText),
      minimumOrderSubtotalCents: num(store.minimumOrderSubtotalCents, 0),
    },
    captcha: {
      siteKey: siteKey === '' ? null : siteKey,
      provider: captcha.provider === 'recaptcha' ? 'recaptcha' : 'local',
    },
    flags: {
      videoPaywall: bool(flags.videoPaywall),
      commerceVisitorMetrics: bool(flags.commerceVisitorMetrics),
      vanillaFormHandler: bool(flags.vanillaFormHandler),
      reviewsKillSwitch: bool(flags.reviewsKillSwitch),
      useCLDRMoneyFormat: bool(flags.useCLDRMoneyFormat),
    },
    tracking: {
      skipPageView: strOrNull(tracking.skipPageView),
      isCloneable: bool(tracking.isCloneable),
      cookiePolicy: {
        restrictive: bool(policy.restrictive),
        absolute: bool(policy.absolute),
        bannerEnabled: bool(policy.bannerEnabled),
      },
    },
    siteUser: user && {
      authenticated: bool(user.authenticated),
      siteUserId: strOrNull(user.siteUserId),
      xsrfToken: strOrNull(user.xsrfToken),
    },
    bnpl: bnpl && {
      stripeAccountCountry: str(bnpl.stripeAccountCountry, ''),
      shopperLanguage: str(bnpl.shopperLanguage, ''),
    },
    products: normalizeProducts(c.products),
    order: c.order && typeof c.order === 'object' ? (c.order as Record<string, unknown>) : null,
    experiments: c.experiments && typeof c.experiments === 'object' && !Array.isArray(c.experiments) ? (c.experiments as Json) : null,
  };
}

export type ContextProblem = { code: 'CONTEXT_MISSING' | 'CONTEXT_PARSE' | 'CONTEXT_VERSION'; message: string };

/** Reads `#sf-context`. A missing or broken block yields the defaults plus a problem to report. */
export function readPageContext(doc: Document = document): { context: PageContext; problem: ContextProblem | null } {
  const script = doc.getElementById(CONTEXT_SCRIPT_ID);
  if (!script) {
    return { context: normalizePageContext({}), problem: { code: 'CONTEXT_MISSING', message: 'no #sf-context block' } };
  }
  const version = script.getAttribute(PROTOCOL_VERSION_ATTR);
  const parsed = parseProps(script.textContent ?? '');
  if (!parsed.ok) {
    return { context: normalizePageContext({}), problem: { code: 'CONTEXT_PARSE', message: parsed.error.message } };
  }
  const problem: ContextProblem | null =
    version !== null && version !== String(ISLAND_PROTOCOL_VERSION)
      ? { code: 'CONTEXT_VERSION', message: `page protocol ${version}, bundle ${ISLAND_PROTOCOL_VERSION}` }
      : null;
  return { context: normalizePageContext(parsed.value), problem };
}
