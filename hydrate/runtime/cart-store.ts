import { readCookie } from './cookies.ts';
import type { ErrorReporter } from './error-reporter.ts';
import type { HttpClient, HttpResult } from './http-client.ts';

/** The part of the B0.4 cart object the islands read. */
export interface Cart {
  id: string | null;
  entries: CartEntry[];
  subtotalCents: number;
  totalQuantity: number;
  [key: string]: unknown;
}

export interface CartEntry {
  id: string;
  itemId: string;
  quantity: number;
  productType?: number;
  chosenVariant?: { sku?: string; attributes?: Record<string, string> };
  [key: string]: unknown;
}

export type CartStatus = 'idle' | 'loading' | 'loaded';

export const CART_READY_CLASS = 'sf-cart-ready';
export const CART_UPDATED_EVENT = 'sf:cart-updated';
export const CART_ADDED_EVENT = 'sf:cart-added';

export interface CartStore {
  cart(): Cart | null;
  status(): CartStatus;
  subscribe(listener: () => void): () => void;
  /** A0.4 start: loads only when a cookie says there may be a cart. */
  start(): void;
  load(): void;
  /** Takes a cart from an API response and announces it. */
  set(cart: Cart): void;
  /** Resolves when no load is in flight or queued. */
  settled(): Promise<void>;
}

/**
 * Whether the browser holds a signed-in `SiteUserInfo` now (A10): it changes as any tab of the
 * site signs in or out, where the page's `sf-context` says how things stood when it was served.
 */
export function signedInByCookie(doc: Document = document): boolean {
  const info = readCookie('SiteUserInfo', doc);
  if (info === null) return false;
  try {
    const parsed: unknown = JSON.parse(decodeURIComponent(info));
    return typeof parsed === 'object' && parsed !== null && (parsed as { authenticated?: unknown }).authenticated === true;
  } catch {
    // A SiteUserInfo that fails to parse counts as no user.
    return false;
  }
}

/** A0.4: the cart exists server-side only if one of these cookies says so. */
export function cartMayExist(doc: Document = document): boolean {
  if (signedInByCookie(doc)) return true;
  if (readCookie('hasCart', doc) === 'true') return true;
  return readCookie('CART', doc) !== null;
}

export function isCart(value: unknown): value is Cart {
  return typeof value === 'object' && value !== null && Array.isArray((value as Cart).entries);
}

/** The cart a successful cart endpoint answers with (`{shoppingCart}`); null for anything else. */
export function cartOfResult(result: HttpResult): Cart | null {
  if (!result.ok || typeof result.body !== 'object' || result.body === null) return null;
  const cart = (result.body as { shoppingCart?: unknown }).shoppingCart;
  return isCart(cart) ? cart : null;
}

export function createCartStore(client: HttpClient, reporter: ErrorReporter, doc: Document = document): CartStore {
  let cart: Cart | null = null;
  let status: CartStatus = 'idle';
  let inFlight: Promise<void> | null = null;
  let queued = false;
  const listeners = new Set<() => void>();
  const win = doc.defaultView as Window & typeof globalThis;

  function notify(): void {
    for (const listener of [...listeners]) listener();
  }

  function markReady(): void {
    doc.documentElement.classList.add(CART_READY_CLASS);
  }

  function set(next: Cart): void {
    cart = next;
    notify();
    win.dispatchEvent(new win.CustomEvent(CART_UPDATED_EVENT, { detail: next }));
  }

  async function runLoad(): Promise<void> {
    status = 'loading';
    notify();
    const result = await client.request('GET', `/api/commerce/shopping-cart?calculateSubtotal=true&timecode=${Date.now()}`);
    if (result.ok && isCart(result.body)) {
      set(result.body);
    } else if (result.ok) {
      reporter.reportError('cart_load_failed', { status: result.status, message: 'cart response is not a cart' });
    } else {
      reporter.reportError('cart_load_failed', { status: result.status, message: result.message });
    }
  }

  function load(): void {
    if (inFlight) {
      // However many loads arrive meanwhile, exactly one more runs after the current one.
      queued = true;
      return;
    }
    inFlight = (async () => {
      try {
        do {
          queued = false;
          await runLoad();
        } while (queued);
      } finally {
        inFlight = null;
        status = 'loaded';
        markReady();
        notify();
      }
    })();
  }

  return {
    cart: () => cart,
    status: () => status,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    start() {
      if (cartMayExist(doc)) {
        load();
      } else {
        status = 'loaded';
        markReady();
        notify();
      }
    },
    load,
    set,
    settled: () => inFlight ?? Promise.resolve(),
  };
}

/**
 * A page restored from the back/forward cache runs no boot and shows the cart as it stood when
 * the visitor left it (Safari keeps even no-store pages there): after removing a line on /cart,
 * Back showed the product page's header count and pill with the line still in. On such a
 * return the cart is loaded again, whether or not a cookie still says there is one (the last
 * line's removal may have cleared it). Returns the function that stops listening.
 */
export function reloadCartOnRestore(store: CartStore, doc: Document = document): () => void {
  const win = doc.defaultView as Window & typeof globalThis;
  const onPageShow = (event: PageTransitionEvent) => {
    if (event.persisted && (store.cart() !== null || cartMayExist(doc))) store.load();
  };
  win.addEventListener('pageshow', onPageShow);
  return () => win.removeEventListener('pageshow', onPageShow);
}
