// Entities of the storefront state (STOREFRONT B0.5). Money is integer minor units and
// every timestamp is milliseconds since the epoch; the API layer turns them into ISO strings.

import type { FormField as SharedFormField } from '../../hydrate/shared/form-field.ts';
import type { OrderStatus, RefundLine } from '../../hydrate/shared/order-statuses.ts';
import type { ShippingAddress } from '../../hydrate/shared/shipping-address.ts';

export type ProductType = 1 | 2 | 3 | 4;

export const PRODUCT_TYPE = {
  physical: 1,
  digital: 2,
  service: 3,
  giftCard: 4,
} as const;

export interface SiteSettings {
  currency: string;
  expressCheckout: boolean;
  customCart: boolean;
  multipleQuantityAllowedForServices: boolean;
  restockNotificationsSuccessText: string | null;
  captcha: { siteKey: string | null; provider: 'local' | 'recaptcha' };
  cookiePolicy: Record<string, unknown> | null;
  trackingDisabled: boolean;
  isCloneable: boolean;
  flags: Record<string, boolean>;
  timeZone: string;
  /** Shipping, tax, coupons, minimum subtotal and payment providers; absent: none of them (renderer/orders/). */
  commerce?: CommerceSettings;
  /** Renderer-only settings (locale, cartVersion, …) travel here untouched. */
  extra: Record<string, unknown>;
}

export interface Site {
  websiteId: string;
  settings: SiteSettings;
  /** The admin's feature toggles and A/B tests (migration 008-site-features); read by getSite, written by putSiteFeatures. */
  features?: StoredSiteFeatures | null;
}

export interface Variant {
  id: string;
  sku: string;
  attributes: Record<string, string>;
  priceCents: number;
  salePriceCents: number;
  onSale: boolean;
  qtyInStock: number;
  unlimited: boolean;
}

export interface Product {
  id: string;
  title: string;
  urlSlug: string;
  collectionId: string | null;
  productType: ProductType;
  isSubscribable: boolean;
  subscriptionPlan: Record<string, unknown> | null;
  additionalFieldsFormId: string | null;
  restockEnabled: boolean;
  variants: Variant[];
  /** Display data the page renderer needs (body, images, …); the API never reads it. */
  extra: Record<string, unknown>;
}

/**
 * A stored form field: the shared definition (hydrate/shared/form-field.ts), kept as the
 * seed wrote it, so options may be any value and unknown members are kept.
 */
export interface FormField extends Omit<SharedFormField, 'options'> {
  options?: unknown[];
  [key: string]: unknown;
}

export interface Form {
  id: string;
  name: string;
  fields: FormField[];
  captchaEnabled: boolean;
  storageConfigured: boolean;
  isNewsletter: boolean;
  /** The owner's address told of each saved submission (through the outbox); absent: nobody. */
  notifyEmail?: string;
  /** Submission texts and anything else the renderer shows. */
  extra: Record<string, unknown>;
}

export type CartKind = 'main' | 'express' | 'subscription';

export interface CartEntryRecord {
  id: string;
  cartId: string;
  position: number;
  itemId: string;
  sku: string;
  variantId: string;
  quantity: number;
  productType: ProductType;
  attributes: Record<string, string>;
  title: string;
  purchasePriceCents: number;
  additionalFields: string | null;
  /**
   * False when the line's product or variant left the catalogue (removed from the site folder,
   * so hidden) since it was added: it can no longer be bought (`ITEM_UNAVAILABLE`). Absent: available.
   */
  available?: false;
}

export interface CartRecord {
  id: string;
  websiteId: string;
  kind: CartKind;
  ownerSiteUserId: string | null;
  orderId: string | null;
  isPurchased: boolean;
  created: number;
  expiresAt: number | null;
  entries: CartEntryRecord[];
  /**
   * The account's cart this anonymous cart was copied from at sign-out (B18 cloneCart): signing
   * in again takes it back without adding its lines to the ones they were copied from.
   */
  clonedFrom?: string | null;
}

export interface SiteUser {
  id: string;
  email: string;
  passwordHash: string;
  locale: string | null;
}

export interface Session {
  id: string;
  siteUserId: string;
  xsrfToken: string;
  createdAt: number;
  expiresAt: number;
  persistent: boolean;
}

export interface RestockSignUp {
  id: string;
  productId: string;
  variantId: string;
  siteVisitorEmail: string;
  isJoinMailingList: boolean;
  createdOn: number;
  notifiedOn: number | null;
}

export type MailingListSource = 'restock' | 'newsletter';

export interface MailingListEntry {
  email: string;
  source: MailingListSource;
  addedOn: number;
}

export interface OutboxMessage {
  id: string;
  to: string;
  subject: string;
  body: string;
  productId: string | null;
  variantId: string | null;
  queuedOn: number;
  /** The HTML part beside `body`; null: plain text only. */
  html?: string | null;
  /** Extra headers (List-Unsubscribe …); null: none. */
  headers?: Record<string, string> | null;
}

export type OutboxStatus = 'pending' | 'sent' | 'failed';

/** An outbox row with its delivery state (mail/outbox-worker.ts). */
export interface OutboxRow extends OutboxMessage {
  status: OutboxStatus;
  attempts: number;
  nextAttemptAt: number;
  claimedBy: string | null;
  claimedUntil: number | null;
  sentAt: number | null;
  lastError: string | null;
  /** The Message-ID header the message was (last) handed over with. */
  messageId: string | null;
}

/**
 * Work owed past a request's answer (api/after-response.ts), kept until it ran: `attempts`
 * counts the runs claimed by the recovery, `dueAt` is when the recovery may claim it (first
 * after a grace period that leaves it to the request's own run, then after each backoff).
 */
export interface AfterAnswerJob {
  id: string;
  kind: string;
  email: string;
  detail: Record<string, unknown>;
  createdOn: number;
  attempts: number;
  dueAt: number;
}

export interface FormSubmissionKey {
  key: string;
  createdAt: number;
  usedAt: number | null;
}

export interface FormSubmission {
  id: string;
  formId: string;
  values: Record<string, unknown>;
  pageId: string;
  pageTitle: string;
  pagePath: string;
  contentSource: string;
  pagePermissionTypeValue: number;
  siteUserId: string | null;
  createdOn: number;
}

export type CensusKind = 'hit' | 'button-click' | 'button-render' | 'form-render' | 'overlay' | 'quick-view' | 'event';

export interface CensusEvent {
  id: string;
  kind: CensusKind;
  event: string | null;
  data: Record<string, unknown>;
  ssCvr: string | null;
  userAgent: string | null;
  receivedAt: number;
}

export interface JsErrorReport {
  id: string;
  event: string;
  data: Record<string, unknown>;
  timestamp: number;
  userAgent: string | null;
  referer: string | null;
  receivedAt: number;
}

export interface Order {
  id: string;
  purchasedCartId: string | null;
  testMode: boolean;
  websiteId: string;
  items: unknown[];
  grandTotal: unknown;
  shippingTotal: unknown;
  taxTotal: unknown;
  extra: Record<string, unknown>;
}

// ---- orders placed through checkout (renderer/orders/) -----------------------------------

/** One definition with the admin's orders panel (hydrate/shared/order-statuses.ts). */
export type { OrderStatus };

/** One line of a placed order: the seed's analytics fields (sku, productName, quantity, unitPrice) and what restocks it. */
export interface OrderItem {
  sku: string;
  productName: string;
  quantity: number;
  /** Cents. */
  unitPrice: number;
  itemId: string;
  variantId: string;
  productType: ProductType;
  variantLabel: string;
  lineTotal: number;
  /**
   * What the buyer entered in the product's additional-fields form (an engraving), labelled as
   * the form named its fields when the order was placed; absent for a line without one.
   */
  fieldValues?: { label: string; value: string }[];
  /** The same answers as the cart held them (the form's JSON), for a form changed since. */
  additionalFields?: string;
}

/** Checkout's shipping address, shared with the checkout island (hydrate/shared/shipping-address.ts). */
export type { ShippingAddress };

/** The subscription a subscription cart's order records (seed: billingPeriod, numBillingCycles; 0 = indefinite). */
export interface OrderSubscription {
  id: string;
  itemId: string;
  sku: string;
  billingPeriod: { value: number; unit: 'WEEK' | 'MONTH' | 'YEAR' };
  numBillingCycles: number;
}

/** An order placed through checkout: every money amount in cents, times in ms. */
export interface PlacedOrder extends Order {
  orderNumber: number;
  email: string;
  status: OrderStatus;
  createdOn: number;
  currency: string;
  items: OrderItem[];
  subtotal: number;
  discountTotal: number;
  grandTotal: number;
  shippingTotal: number;
  taxTotal: number;
  shippingAddress: ShippingAddress | null;
  shippingOptionName: string | null;
  couponCodes: string[];
  /** Which payment provider took the order ('test', 'manual', …) and its reference. */
  payment: { provider: string; reference: string; label: string };
  giftCardCodes: string[];
  /**
   * The order's download token once it is paid and has a digital line (orders/digital-downloads.ts):
   * each digital line's link is `/commerce/downloads/<token>/<itemId>`. Absent before, and on
   * orders without digital lines. Also in the `download_token` column (migration 014), found by it.
   */
  downloadToken?: string;
  subscription: OrderSubscription | null;
  /**
   * The site user who placed it signed in (migration 015, also the `site_user_id` column it is
   * listed by on the order status page); null placed signed out, absent on orders stored before.
   */
  siteUserId?: string | null;
  /** Set once when a cancelled order's lines went back into stock. */
  restockedOn: number | null;
  /**
   * A cancelled paid order's money: given back by its provider, or (paid offline) the owner's
   * to give back by hand. Absent on orders never refunded, and on those stored before refunds.
   */
  refund?: OrderRefund | null;
  /**
   * A cancel's refund asked of the provider outside any transaction (orders/order-status.ts):
   * set before the call, cleared when its answer is stored. While it is set, only a cancel moves
   * the order, and only once `until` has passed (the asking request died, or the provider's answer
   * was unknown), with the same idempotency key: never a second refund. Absent otherwise.
   */
  refundClaim?: RefundClaim | null;
  /**
   * The owner's refunds without a cancel (orders/order-refund.ts: a returned item, part of the
   * total), oldest first, each once per request key. Their sum never passes `grandTotal`; it
   * makes the status `refunded` when it reaches it, `partially-refunded` before. Also one row
   * each in `order_refunds` (migration 017). Absent on orders never refunded so.
   */
  refunds?: OwnerRefund[];
}

export interface RefundClaim {
  /** Which request asked (a fresh id per cancel or refund). */
  id: string;
  /** Until then another request leaves it alone (409 REFUND_PENDING); 0 once its answer was unknown. */
  until: number;
  /**
   * A refund's claim (not a cancel's): the request key it asks the provider with, and how much.
   * Only a refund of the same amount finishes an unsettled one (the same provider key answers
   * the first refund); a cancel never takes it over.
   */
  key?: string;
  amountCents?: number;
  /** A refund of returned lines: which, and whether they go back into stock once it is stored. */
  lines?: RefundLine[];
  restock?: boolean;
}

export interface OrderRefund {
  /** `refunded`: the provider gave it back; `by-hand`: paid offline, the owner gives it back. */
  kind: 'refunded' | 'by-hand';
  amountCents: number;
  /** The provider's reference of the refund (null for by-hand). The owner sees it; the buyer not. */
  reference: string | null;
  /** How the money came: the order's payment label ("Visa ending 4242 (test)"). */
  label: string;
  on: number;
}

/** One of the owner's refunds of an order (orders/order-refund.ts). */
export interface OwnerRefund extends OrderRefund {
  /** The request's idempotency key: the same key again answers this refund, never a second. */
  key: string;
  /** Who gave it: the signed-in owner's email, or "API key" / "admin token". The owner sees it; the buyer not. */
  by: string;
  /** The owner's note (a returned item, damaged in transit); the owner sees it, the buyer not. */
  reason: string | null;
  /** The returned lines it paid back, if the owner named them; absent for an amount alone. */
  lines?: RefundLine[];
  /** True once those lines' physical goods went back into stock (with the refund, exactly once). */
  restocked?: boolean;
}

/**
 * The store's commerce rules (catalog.json `site.settings.commerce`): shipping, tax, coupons,
 * the minimum order subtotal and the payment providers offered at checkout. renderer/orders/pricing.ts reads it.
 */
export interface CommerceSettings {
  /** The shop's name in receipts ("Thank you for your order from …"). */
  storeName?: string;
  minimumOrderSubtotalCents?: number;
  /** Provider ids offered at checkout, first is the default (renderer/orders/payment-providers.ts). */
  paymentProviders?: string[];
  /**
   * The most units of stock one order paid offline (`manual`) may hold; default 10
   * (MAX_OFFLINE_ORDER_UNITS, renderer/orders/place-order.ts).
   */
  offlineOrderMaxUnits?: number;
  shippingOptions?: ShippingRule[];
  taxRules?: TaxRule[];
  coupons?: CouponRule[];
}

export interface ShippingRule {
  id: string;
  name: string;
  description?: string;
  costCents: number;
  /** Free when the subtotal (after discounts) is at least this. */
  freeOverCents?: number;
  /** ISO country codes served; absent: everywhere. */
  countries?: string[];
}

export interface TaxRule {
  name: string;
  /** Percent with up to 3 decimals (8.875). */
  ratePercent: number;
  country: string;
  /** Region codes within the country; absent: the whole country. */
  regions?: string[];
  /** Whether shipping is taxed too (default false). */
  appliesToShipping?: boolean;
}

export interface CouponRule {
  code: string;
  description: string;
  /** Either a percentage off the subtotal … */
  percentOff?: number;
  /** … or a fixed amount off, in cents (never more than the subtotal). */
  amountOffCents?: number;
  minimumSubtotalCents?: number;
  /** ms since the epoch; absent: no end. */
  expiresOn?: number;
}

export interface RestockGroupRow {
  productId: string;
  variantId: string;
  totalCount: number;
  pendingCount: number;
  latestSignUpOn: number;
}

// ---- platform runtime (templates seed §7) ------------------------------------------------

/** How a newer-tracker event arrived: JSON XHR or a form-encoded beacon. */
export type ClankerTransport = 'json' | 'beacon';

export interface ClankerEventRecord {
  id: string;
  schemaName: string;
  content: Record<string, unknown>;
  transport: ClankerTransport;
  userAgent: string | null;
  receivedAt: number;
}

export interface PerformancePageLoad {
  id: string;
  issuedAt: number;
  recordCount: number;
}

export interface StoredPerformanceRecord {
  id: string;
  pageLoadId: string;
  pagePath: string;
  metric: string;
  value: number;
  rating: string;
  at: number;
  receivedAt: number;
}

export interface StoreCollection {
  id: string;
  websiteId: string;
  navigationTitle: string;
  title: string;
  urlId: string;
  description: string;
  enabled: boolean;
  createdAt: number;
}

export interface StoreCategory {
  id: string;
  collectionId: string;
  displayName: string;
  parentCategoryId: string;
  type: string;
  pageRendering: string;
  displayIndex: number;
  createdAt: number;
}

/** A site's stored feature configuration (issue 18): merged over the site folder's, name by name. */
export interface StoredSiteFeatures {
  features: Record<string, boolean>;
  experiments: Record<string, { variant: string; segmentName: string }>;
  updatedAt: number;
}
