import { CENSUS_BUTTON_ATTR } from '../protocol/markers.ts';
import { CART_ADDED_EVENT, type Cart, type CartEntry } from './cart-store.ts';
import { deleteCookie, readCookie, writeCookie } from './cookies.ts';
import type { PageContext } from './page-context.ts';
import { featureOn } from './features.ts';
import { cartFields, itemFields, visitorFields, type CartFields } from './analytics-fields.ts';
import { FEATURE } from '../shared/feature-toggles.ts';
import { withoutResetToken } from '../shared/reset-link.ts';
import { resolveAnalyticsId } from '../platform/analytics-id.ts';
import { createStorageAccess } from '../platform/storage-access.ts';
import type { Runtime } from './runtime.ts';
import { toMinorUnits } from './money.ts';

/** Page types whose `order` is a purchase just made (A12.5 `commerce_purchase`). */
export const PURCHASE_PAGE_TYPES: readonly number[] = [202, 206, 207];

/** D1 / D4 constants of A12. */
export const ANALYTICS = {
  timeoutMs: 2500,
  visitorCookieSeconds: 63_072_000,
  visitCookieSeconds: 1_800,
  analyticsIdSeconds: 390 * 24 * 60 * 60,
} as const;

export const TRACKING_COOKIES = ['ss_cid', 'ss_cpvisit', 'ss_cvisit', 'ss_cvr', 'ss_cvt'] as const;

/** A12.1 */
export function isRestricted(context: PageContext, doc: Document): boolean {
  if (context.tracking.isCloneable) return true;
  const policy = context.tracking.cookiePolicy;
  if (!policy.restrictive) return false;
  const consent = readCookie('ss_cookieAllowed', doc);
  return policy.absolute || !policy.bannerEnabled || consent !== '1';
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const POSITIVE = /^[1-9][0-9]*$/;

export interface VisitorRecord {
  uuid: string;
  firstVisit: number;
  previousVisit: number;
  currentVisit: number;
  visitCount: number;
}

/** A12.3: `{uuid}|{n}|{n}|{n}|{n}`; anything else counts as absent. */
export function parseVisitorRecord(value: string | null): VisitorRecord | null {
  if (value === null) return null;
  const parts = decodeURIComponent(value).split('|');
  if (parts.length !== 5) return null;
  const [uuid, ...numbers] = parts as [string, string, string, string, string];
  if (!UUID.test(uuid) && !/^[A-Za-z0-9-]+$/.test(uuid)) return null;
  if (!numbers.every((n) => POSITIVE.test(n))) return null;
  const [firstVisit, previousVisit, currentVisit, visitCount] = numbers.map(Number) as [number, number, number, number];
  return { uuid, firstVisit, previousVisit, currentVisit, visitCount };
}

export function formatVisitorRecord(r: VisitorRecord): string {
  return `${r.uuid}|${r.firstVisit}|${r.previousVisit}|${r.currentVisit}|${r.visitCount}`;
}

function randomUuid(win: Window): string {
  const c = (win as Window & { crypto?: Crypto }).crypto ?? globalThis.crypto;
  return c.randomUUID();
}

/** A12.2 / A12.3: updates the visitor cookies; returns the `ss_cvr` value to send ('' when restricted). */
export function updateVisitorCookies(context: PageContext, doc: Document, now: number): string {
  if (isRestricted(context, doc)) {
    for (const name of TRACKING_COOKIES) deleteCookie(name, doc);
    return '';
  }
  const win = doc.defaultView!;
  const record = parseVisitorRecord(readCookie('ss_cvr', doc));
  const visitRaw = readCookie('ss_cvt', doc);
  const visitValid = visitRaw !== null && POSITIVE.test(visitRaw);
  let next: VisitorRecord;
  if (!record) {
    next = { uuid: randomUuid(win), firstVisit: now, previousVisit: now, currentVisit: now, visitCount: 1 };
  } else if (!visitValid) {
    next = { ...record, previousVisit: record.currentVisit, currentVisit: now, visitCount: record.visitCount + 1 };
  } else {
    next = record;
  }
  const value = formatVisitorRecord(next);
  writeCookie('ss_cvr', value, { maxAgeSeconds: ANALYTICS.visitorCookieSeconds, path: '/', sameSite: 'Lax' }, doc);
  writeCookie('ss_cvt', String(now), { maxAgeSeconds: ANALYTICS.visitCookieSeconds, path: '/' }, doc);
  return value;
}

/** A12.3: skip reasons under which the visitor cookies are not touched at all. */
const NO_TRACKING = new Set(['tracking-disabled', 'logged-in-member', 'not-found', 'error', 'lock-screen']);

/** A12.8 analytics id: the platform client's resolution (seed §4), shared so both agree. */
export function analyticsId(restricted: boolean, doc: Document, now: number, memory: { id: string | null }): string {
  return resolveAnalyticsId({ doc, storage: createStorageAccess(doc.defaultView!), now, memory, restricted });
}

function pageData(runtime: Runtime): Record<string, unknown> {
  const { context, win } = runtime;
  return {
    websiteId: context.websiteId,
    templateId: context.templateId,
    website_locale: context.websiteLocale,
    userAgent: win.navigator.userAgent,
    clientDate: Date.now(),
    viewportInnerWidth: win.innerWidth,
    viewportInnerHeight: win.innerHeight,
    screenWidth: win.screen?.width ?? 0,
    screenHeight: win.screen?.height ?? 0,
    // A reset link's token rides in the fragment: it stays on the page (hydrate/shared/reset-link.ts).
    url: withoutResetToken(win.location.href),
    title: runtime.doc.title,
    itemId: context.itemId,
    recordType: context.recordType,
    collectionId: context.collectionId,
  };
}

/** A12.4: one RecordHit, form-encoded, with the 2500 ms timeout; failures are reported. */
export function recordHit(runtime: Runtime, event: string, extra: Record<string, unknown>, ssCvr: string): Promise<void> {
  const body = new URLSearchParams({ event, data: JSON.stringify({ ...pageData(runtime), ...extra }), ss_cvr: ssCvr });
  return runtime.client
    .request('POST', '/api/census/RecordHit', {
      body: body.toString(),
      contentType: 'application/x-www-form-urlencoded',
      timeoutMs: ANALYTICS.timeoutMs,
    })
    .then((result) => {
      if (!result.ok) runtime.reporter.reportError('record_hit', { event, status: result.status, message: result.message });
    });
}

function census(runtime: Runtime, path: string, json: unknown, keepalive = false): void {
  runtime.client.request('POST', path, { json, timeoutMs: ANALYTICS.timeoutMs, keepalive }).catch(() => undefined);
}

/** A12: runs once per page; returns a function that removes its listeners. */
export function startAnalytics(runtime: Runtime): () => void {
  const { context, doc, win } = runtime;
  const skip = context.tracking.skipPageView;
  const cleanups: Array<() => void> = [];
  const now = Date.now();
  const restricted = isRestricted(context, doc);

  let ssCvr = '';
  if (skip === null || !NO_TRACKING.has(skip)) ssCvr = updateVisitorCookies(context, doc, now);
  else if (restricted) for (const name of TRACKING_COOKIES) deleteCookie(name, doc);
  analyticsId(restricted, doc, now, { id: null });
  const visitorCookie = () => (restricted ? '' : (readCookie('ss_cvr', doc) ?? ''));

  // The seed's analytics fields (analytics-fields.ts): visitor fields on every event, the
  // cart's on commerce events, the item's on events about one product.
  const visitor = visitorFields(context);
  const commerce = () => ({ ...visitor, ...cartFields(context, runtime.cart.cart()) });
  if (skip === null) {
    void recordHit(runtime, 'view', { ...visitor }, ssCvr);
    const product = context.itemId ? context.products[context.itemId] : undefined;
    if (context.pageType === 50 && context.recordType === 11 && context.itemId) {
      const item = itemFields(context, context.itemId);
      void recordHit(runtime, 'commerce_view_product', { itemId: context.itemId, productType: product?.productType ?? null, ...commerce(), ...item }, ssCvr);
      if (context.flags.commerceVisitorMetrics) {
        void recordHit(runtime, 'visitor_metric_product_page_visit', { itemId: context.itemId, ...visitor, ...item }, ssCvr);
      }
    }
    const order = context.order;
    // Every page that confirms a purchase: order confirmed (202), and for orders paid offline or
    // subscriptions, order received (207) and subscription confirmed (206) (issue 15).
    if (PURCHASE_PAGE_TYPES.includes(context.pageType) && order && order.testMode !== true) {
      const pick = ['id', 'purchasedCartId', 'websiteId', 'items', 'grandTotal', 'shippingTotal', 'taxTotal'];
      void recordHit(runtime, 'commerce_purchase', { ...Object.fromEntries(pick.map((k) => [k, order[k] ?? null])), ...visitor, ...orderCartFields(context, order) }, ssCvr);
    }
  }
  if (skip === 'video-paywall' && context.flags.videoPaywall) {
    void recordHit(runtime, 'video_paywall_visit', { itemId: context.itemId, ...visitor }, ssCvr);
  }

  const onAdded = (event: Event) => {
    const detail = (event as CustomEvent<{ cart: Cart; entry: CartEntry | null; itemId: string; sku: string | null; quantity: number }>).detail;
    if (!detail) return;
    const entry = detail.entry;
    const item = itemFields(context, detail.itemId, {
      quantity: detail.quantity,
      title: typeof entry?.title === 'string' ? entry.title : null,
      priceCents: typeof entry?.purchasePriceCents === 'number' ? entry.purchasePriceCents : null,
    });
    void recordHit(
      runtime,
      'commerce_add_to_cart',
      {
        itemId: detail.itemId,
        sku: detail.sku,
        quantity: detail.quantity,
        cartId: detail.cart.id,
        ...visitor,
        ...cartFields(context, detail.cart),
        ...item,
      },
      visitorCookie(),
    );
    if (context.flags.commerceVisitorMetrics) void recordHit(runtime, 'visitor_metric_add_to_cart', { itemId: detail.itemId, ...visitor, ...item }, visitorCookie());
  };
  win.addEventListener(CART_ADDED_EVENT, onAdded);
  cleanups.push(() => win.removeEventListener(CART_ADDED_EVENT, onAdded));

  // A12.6 census buttons and A12.7 quick view.
  const buttonPayload = (buttonId: string) => ({
    visitorCookie: visitorCookie(),
    websiteId: context.websiteId,
    pageId: context.pageId,
    pagePath: context.pagePath,
    buttonId,
    fields: visitor,
  });
  for (const el of doc.querySelectorAll(`[${CENSUS_BUTTON_ATTR}]`)) {
    census(runtime, '/api/census/button-render', buttonPayload(el.getAttribute(CENSUS_BUTTON_ATTR) ?? ''), true);
  }
  const onClick = (event: Event) => {
    const target = event.target instanceof win.Element ? event.target : null;
    const button = target?.closest(`[${CENSUS_BUTTON_ATTR}]`);
    if (button) census(runtime, '/api/census/button-click', buttonPayload(button.getAttribute(CENSUS_BUTTON_ATTR) ?? ''), true);
    const quickView = target?.closest('.sqs-product-quick-view-button[data-id]');
    // A quick view switched off (issue 18 toggle) opens nothing, so it is not counted.
    if (quickView && featureOn(context, FEATURE.quickView)) {
      const id = encodeURIComponent(quickView.getAttribute('data-id') ?? '');
      runtime.client.request('POST', `/api/census/RecordQuickView/${id}`, { timeoutMs: ANALYTICS.timeoutMs }).catch(() => undefined);
    }
  };
  doc.addEventListener('click', onClick);
  cleanups.push(() => doc.removeEventListener('click', onClick));

  return () => cleanups.forEach((fn) => fn());
}

/**
 * The cart fields of a purchase page: the order's own cart (purchasedCartId), its lines and
 * their total, since the live cart is gone once the order is placed.
 */
function orderCartFields(context: PageContext, order: Record<string, unknown>): CartFields {
  const lines = Array.isArray(order.items) ? (order.items as Array<Record<string, unknown>>) : [];
  const quantity = (line: Record<string, unknown>) => (typeof line.quantity === 'number' ? line.quantity : 0);
  const price = (line: Record<string, unknown>) => (typeof line.unitPrice === 'number' ? line.unitPrice : toMinorUnits(line.unitPrice).cents);
  const fields = cartFields(context, null);
  return {
    ...fields,
    cart_id: typeof order.purchasedCartId === 'string' ? order.purchasedCartId : null,
    num_items_in_cart: lines.reduce((sum, line) => sum + quantity(line), 0),
    cart_value: lines.reduce((sum, line) => sum + quantity(line) * price(line), 0),
  };
}

/** A12.7: the visitor cookie value sent by site forms ('' when restricted or absent). */
export function visitorCookieValue(runtime: Runtime): string {
  return isRestricted(runtime.context, runtime.doc) ? '' : (readCookie('ss_cvr', runtime.doc) ?? '');
}
