import { CART_UPDATED_EVENT, type Cart } from './cart-store.ts';
import type { Runtime } from './runtime.ts';

/**
 * The header's cart link (`.sf-cart-link`) shows how many items the cart holds (issue 16), and
 * follows every change the cart store announces (an add to cart, a quantity change, a removal).
 * A plain DOM update, like the product display: the link belongs to no island. The count is a
 * `<span class="sf-cart-link-count">` added after the link's text, and the link's accessible
 * name says it in words; with an empty cart both go away.
 */
export const CART_LINK_COUNT_CLASS = 'sf-cart-link-count';

export function cartLinkLabel(text: string, count: number): string {
  return `${text}, ${count} ${count === 1 ? 'item' : 'items'}`;
}

export function updateCartLinks(doc: Document, count: number): void {
  for (const link of doc.querySelectorAll<HTMLElement>('.sf-cart-link')) {
    let badge = link.querySelector<HTMLElement>(`.${CART_LINK_COUNT_CLASS}`);
    if (count <= 0) {
      badge?.remove();
      link.removeAttribute('aria-label');
      continue;
    }
    if (!badge) {
      badge = doc.createElement('span');
      badge.className = CART_LINK_COUNT_CLASS;
      // The link's aria-label carries the count in words; the badge is the visual form of it.
      badge.setAttribute('aria-hidden', 'true');
      link.append(badge);
    }
    badge.textContent = String(count);
    const text = [...link.childNodes].filter((n) => n !== badge).map((n) => n.textContent ?? '').join('').trim() || 'Cart';
    link.setAttribute('aria-label', cartLinkLabel(text, count));
  }
}

/** Starts following the cart store; returns the function that stops it. */
export function startCartLink(runtime: Runtime): () => void {
  const apply = (cart: Cart | null) => updateCartLinks(runtime.doc, cart && typeof cart.totalQuantity === 'number' ? cart.totalQuantity : 0);
  const onUpdate = (event: Event) => apply((event as CustomEvent<Cart>).detail);
  runtime.win.addEventListener(CART_UPDATED_EVENT, onUpdate);
  const known = runtime.cart.cart();
  if (known) apply(known);
  return () => runtime.win.removeEventListener(CART_UPDATED_EVENT, onUpdate);
}
