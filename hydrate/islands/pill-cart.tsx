import { useEffect, useState, type ReactNode } from 'react';
import { CART_UPDATED_EVENT, type Cart } from '../runtime/cart-store.ts';
import { errorMessage } from '../runtime/error-reporter.ts';
import { formatMoney } from '../runtime/money.ts';
import { hasClass, renderSnapshot, snapshotChildren, type SnapshotNode } from '../runtime/revive.ts';
import type { Runtime } from '../runtime/runtime.ts';
import type { IslandDefinition } from './island.ts';

/** D3 pill limits and labels. */
export const PILL_CAP = 100;

export function pillCount(total: number): string {
  return total > PILL_CAP ? `${PILL_CAP}+` : String(total);
}

export function pillLabel(total: number): string {
  if (total <= 0) return 'Cart';
  if (total === 1) return 'One item in cart';
  if (total <= PILL_CAP) return `${total} items in cart`;
  return `More than ${PILL_CAP} items in cart`;
}

/** A2: page types and settings where the pill does not exist. */
export function pillDisabled(runtime: Runtime): boolean {
  const { pageType, store } = runtime.context;
  return pageType === 200 || pageType === 205 || pageType === 201 || store.expressCheckout || store.customCart;
}

function PillCart({ runtime, container, snapshot }: { runtime: Runtime; container: HTMLElement; snapshot: SnapshotNode[] }): ReactNode {
  const [cart, setCart] = useState<Cart | null>(null);

  useEffect(() => {
    const onUpdate = (event: Event) => setCart((event as CustomEvent<Cart>).detail);
    runtime.win.addEventListener(CART_UPDATED_EVENT, onUpdate);
    const known = runtime.cart.cart();
    if (known) setCart(known);
    return () => runtime.win.removeEventListener(CART_UPDATED_EVENT, onUpdate);
  }, [runtime]);

  const total = cart && typeof cart.totalQuantity === 'number' ? cart.totalQuantity : 0;
  const visible = total > 0;

  // The wrapper is the hydration container, which React does not own: its state attributes are set here.
  useEffect(() => {
    container.setAttribute('data-state', visible ? 'visible' : 'hidden');
    container.toggleAttribute('hidden', !visible);
    container.classList.toggle('sf-fade-in', visible);
  }, [container, visible]);

  let subtotal = '';
  if (visible && cart) {
    try {
      subtotal = formatMoney(cart.subtotalCents, runtime.context.store.selectedCurrency);
    } catch (err) {
      runtime.reporter.reportError('pill_subtotal', { message: errorMessage(err) });
    }
  }

  const count = visible ? pillCount(total) : '';
  return renderSnapshot(snapshot, (node, renderDefault) => {
    if (hasClass(node, 'sf-pill-cart')) return renderDefault({ 'aria-label': pillLabel(total) });
    if (hasClass(node, 'sf-pill-count')) return renderDefault(undefined, count);
    if (hasClass(node, 'sf-pill-subtotal')) return renderDefault(undefined, subtotal);
    return undefined;
  });
}

export const pillCartIsland: IslandDefinition = {
  prepare(container, runtime) {
    if (pillDisabled(runtime)) return null;
    return <PillCart runtime={runtime} container={container} snapshot={snapshotChildren(container)} />;
  },
};
