/**
 * What a visitor has entered on the checkout page, kept for the tab so that a reload, or a
 * trip back to the cart and forward again, does not empty the form: the email, the shipping
 * address as typed, the shipping option, the payment choice and the coupon codes. The
 * server keeps none of these before the order is placed (a quote prices an address, it does
 * not store it). Never the card: its number, expiry and security code are not read here.
 *
 * Session storage, one entry per checkout: it lives only as long as the tab, so a shared
 * computer does not keep a buyer's address once the tab is closed, and it is removed when the
 * order is placed. Read and written through the platform's `StorageAccess`, which never
 * throws: storage that is refused (private modes, blocked storage) keeps the entries for the
 * page only, and the form works as before.
 */
import type { StorageAccess } from '../platform/storage-access.ts';
import { ADDRESS_FIELDS, type ShippingAddress } from './checkout-form.ts';

export const CHECKOUT_DRAFT_PREFIX = 'sf.checkout-draft.';

/** A value longer than any field takes is not a visitor's entry; such a draft is dropped. */
const MAX_VALUE = 500;
const MAX_COUPONS = 20;

export interface CheckoutDraft {
  email: string;
  address: Partial<Record<keyof ShippingAddress, string>>;
  shippingOptionId: string | null;
  providerId: string | null;
  couponCodes: string[];
}

/** One entry per checkout: a cart's token, or the gift card being bought (its one-line cart is made anew on every visit). */
export function checkoutDraftKey(kind: string, cartToken: string, itemId: string, sku: string): string {
  return CHECKOUT_DRAFT_PREFIX + (kind === 'gift-card' ? `gift-card:${itemId}:${sku}` : `${kind}:${cartToken}`);
}

const isShortText = (v: unknown): v is string => typeof v === 'string' && v.length <= MAX_VALUE;

/** The draft kept under `key`, or null when there is none or it is not one this code wrote. */
export function readCheckoutDraft(storage: StorageAccess, key: string): CheckoutDraft | null {
  const text = storage.get('session', key);
  if (text === null) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof raw !== 'object' || raw === null) return null;
  const r = raw as Record<string, unknown>;
  const address: CheckoutDraft['address'] = {};
  const rawAddress = typeof r.address === 'object' && r.address !== null ? (r.address as Record<string, unknown>) : {};
  // The address parts as typed (not trimmed: the field shows what was there).
  for (const { part } of ADDRESS_FIELDS) {
    const v = rawAddress[part];
    if (v === undefined) continue;
    if (!isShortText(v)) return null;
    address[part] = v;
  }
  const email = r.email ?? '';
  const option = r.shippingOptionId ?? null;
  const provider = r.providerId ?? null;
  const coupons = r.couponCodes ?? [];
  if (!isShortText(email) || (option !== null && !isShortText(option)) || (provider !== null && !isShortText(provider))) return null;
  if (!Array.isArray(coupons) || coupons.length > MAX_COUPONS || !coupons.every(isShortText)) return null;
  return { email, address, shippingOptionId: option, providerId: provider, couponCodes: coupons };
}

/** Keeps the draft; an entry longer than a field takes is cut. */
export function writeCheckoutDraft(storage: StorageAccess, key: string, draft: CheckoutDraft): void {
  const cut = (s: string) => s.slice(0, MAX_VALUE);
  const address: CheckoutDraft['address'] = {};
  for (const { part } of ADDRESS_FIELDS) {
    const v = draft.address[part];
    if (typeof v === 'string' && v !== '') address[part] = cut(v);
  }
  const kept: CheckoutDraft = {
    email: cut(draft.email),
    address,
    shippingOptionId: draft.shippingOptionId === null ? null : cut(draft.shippingOptionId),
    providerId: draft.providerId === null ? null : cut(draft.providerId),
    couponCodes: draft.couponCodes.slice(0, MAX_COUPONS).map(cut),
  };
  storage.set('session', key, JSON.stringify(kept));
}

export function clearCheckoutDraft(storage: StorageAccess, key: string): void {
  storage.remove('session', key);
}
