import { useEffect, useRef, useState, type KeyboardEvent as ReactKeyboardEvent, type ReactNode } from 'react';
import { showAlert, ALERT_TITLES } from '../runtime/alert.ts';
import { validateAdd, unsellableKind, ADD_MESSAGES, type UnsellableKind } from '../runtime/add-validation.ts';
import { announce, announcer, announcerHost } from '../runtime/announce.ts';
import { CART_ADDED_EVENT, isCart, type CartEntry } from '../runtime/cart-store.ts';
import { env } from '../runtime/env.ts';
import { errorMessage } from '../runtime/error-reporter.ts';
import { isActivationKey } from '../runtime/focus.ts';
import { isInStock, scopeOf, type SelectionState, type SelectionStore } from '../runtime/product-scope.ts';
import { hasClass, renderSnapshot, snapshotChildren, type SnapshotNode } from '../runtime/revive.ts';
import type { Runtime } from '../runtime/runtime.ts';
import type { IslandDefinition } from './island.ts';
import { pillLabel } from './pill-cart.tsx';

/** D1 timings. */
export const ADD_TIMINGS = { minAddingMs: 1000, addedMs: 2000, errorResetMs: 1000 } as const;
export const ADDING_LABEL = 'Adding…';
export const ADDED_LABEL = 'Added!';
/** The label of a sold-out button when the product has no `customSoldOutText` (issue 16). */
export const SOLD_OUT_LABEL = 'Sold Out';

/**
 * Whether the button should read as sold out for this selection: the chosen variant is out
 * of stock, or (nothing chosen yet) no variant of the product is in stock. Digital products
 * and gift cards never sell out (STOREFRONT C1 "Sold out").
 */
export function soldOutFor(state: SelectionState, variants: readonly unknown[], productType: number): boolean {
  if (productType === 2 || productType === 4) return false;
  if (state.selectedVariant) return !state.inStock;
  return variants.length > 0 && !variants.some((v) => isInStock(v as SelectionState['selectedVariant']));
}

type ButtonState = 'idle' | 'adding' | 'added' | 'error';

/**
 * What assistive technology hears when the button turns to `Added!` (designed here: the seed
 * has no words for it): what was added, and the cart's count in the pill's words (D11).
 */
export function addedAnnouncement(title: string | null, totalQuantity: number): string {
  return `${title ? `${title} added to cart.` : 'Added to cart.'} ${pillLabel(totalQuantity)}.`;
}

export interface AddButtonInfo {
  itemId: string;
  productType: number;
  /** A paywall or unknown product type (add-validation.ts): never added to the cart. */
  unsellable: UnsellableKind | null;
  isSubscription: boolean;
  usesForm: boolean;
  formJson: string | null;
  originalLabel: string;
}

export function readButtonInfo(button: Element): AddButtonInfo {
  return {
    itemId: button.getAttribute('data-item-id') ?? '',
    productType: Number(button.getAttribute('data-product-type') ?? '0'),
    unsellable: unsellableKind(button.getAttribute('data-product-type')),
    isSubscription: button.hasAttribute('data-is-subscription'),
    usesForm: button.classList.contains('use-form') && button.hasAttribute('data-form'),
    formJson: button.getAttribute('data-form'),
    originalLabel: button.getAttribute('data-original-label') ?? '',
  };
}

/**
 * The additional-fields flow (A6) is loaded only when a button uses a form; it resolves to
 * the JSON string of the collected values, or null when the visitor gave up.
 */
export type FormFlow = (args: {
  runtime: Runtime;
  info: AddButtonInfo;
  sku: string | null;
  opener: HTMLElement;
  alertTitle: string;
}) => Promise<string | null>;

let formFlowPromise: Promise<FormFlow> | null = null;
function formFlowLoader(): Promise<FormFlow> {
  formFlowPromise ??= import('./additional-fields.tsx').then((m) => m.runFormFlow);
  return formFlowPromise;
}

interface Props {
  runtime: Runtime;
  snapshot: SnapshotNode[];
  info: AddButtonInfo;
  selection: SelectionStore;
  soldOutLabel: string;
}

function AddToCartButton({ runtime, snapshot, info, selection, soldOutLabel }: Props): ReactNode {
  const [state, setState] = useState<ButtonState>('idle');
  // Starts false so the first render equals the server markup; the effect then applies the
  // product's state, and the selection store keeps it in step with the chosen variant.
  const [soldOut, setSoldOut] = useState(false);
  const soldOutRef = useRef(false);
  // A paywall or unknown type reads as unavailable once mounted (the first render is the server's).
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  const unavailable = mounted && info.unsellable !== null;
  useEffect(() => {
    const apply = (current: SelectionState) => {
      soldOutRef.current = soldOutFor(current, selection.info().variants, info.productType);
      setSoldOut(soldOutRef.current);
    };
    apply(selection.get());
    return selection.subscribe(apply);
  }, [selection, info.productType]);
  const stateRef = useRef<ButtonState>('idle');
  const buttonRef = useRef<HTMLElement | null>(null);
  const timers = useRef<Array<ReturnType<typeof setTimeout>>>([]);

  useEffect(() => () => timers.current.forEach(clearTimeout), []);
  // The status region exists before the first add, so that its first message is read.
  useEffect(() => void (buttonRef.current && announcer(announcerHost(buttonRef.current))), []);

  const go = (next: ButtonState) => {
    stateRef.current = next;
    setState(next);
  };
  const later = (ms: number, fn: () => void) => {
    timers.current.push(setTimeout(fn, ms));
  };
  // A page restored from the back/forward cache comes back as the visitor left it, timers
  // frozen: Back after an add showed `Added!` again for the rest of its 2 s, about an add made
  // on an earlier visit. A restored page starts at rest (the idle row of A1's table, designed
  // here: the seed says nothing of the cache); an add still in flight updates the cart, not
  // the button. The cart itself is loaded again by the cart store (reloadCartOnRestore).
  const visit = useRef(0);
  useEffect(() => {
    const win = runtime.win;
    const onPageShow = (event: PageTransitionEvent) => {
      if (!event.persisted || stateRef.current === 'idle') return;
      visit.current += 1;
      timers.current.forEach(clearTimeout);
      timers.current = [];
      go('idle');
    };
    win.addEventListener('pageshow', onPageShow);
    return () => win.removeEventListener('pageshow', onPageShow);
  }, [runtime]);

  const express = runtime.context.store.expressCheckout && !info.isSubscription;
  const alertTitle = info.isSubscription || express ? ALERT_TITLES.purchaseItem : ALERT_TITLES.addItem;

  async function start(): Promise<void> {
    if (stateRef.current !== 'idle') return;
    const opener = buttonRef.current!;
    const current = selection.get();
    if (info.unsellable) {
      // A paywall or unknown product type: the button says why and nothing is sent.
      showAlert({ title: alertTitle, message: info.unsellable === 'paywall' ? ADD_MESSAGES.paywall : ADD_MESSAGES.unknownType }, runtime.doc);
      return;
    }
    if (soldOutRef.current) {
      // The button reads as disabled; activating it still says why (ATC-6's message).
      showAlert({ title: alertTitle, message: ADD_MESSAGES.notEnough }, runtime.doc);
      return;
    }

    if (info.productType === 4) {
      // A8: gift cards go to their own checkout page; nothing is added to the cart.
      const variant = current.selectedVariant;
      if (current.unselectedOptions.length > 0 || !variant) {
        showAlert({ title: ALERT_TITLES.giftCard, message: ADD_MESSAGES.giftCardDenomination }, runtime.doc);
        return;
      }
      env.navigate(`/checkout/gift-card?itemId=${encodeURIComponent(info.itemId)}&sku=${encodeURIComponent(String(variant.sku ?? ''))}`);
      return;
    }

    // Subscriptions have no quantity input: A9 always buys one.
    const checked = validateAdd(info.isSubscription ? { ...current, quantityText: '1' } : current);
    if (!checked.ok) {
      showAlert({ title: info.isSubscription ? ALERT_TITLES.addItem : alertTitle, message: checked.message }, runtime.doc);
      return;
    }

    let additionalFields: string | null = null;
    if (info.usesForm) {
      // Blocks re-entry while the stock check and lightbox are pending.
      stateRef.current = 'adding';
      try {
        const flow = await formFlowLoader();
        additionalFields = await flow({ runtime, info, sku: checked.sku, opener, alertTitle });
      } catch (err) {
        runtime.reporter.reportError('additional_fields', { message: errorMessage(err) });
        additionalFields = null;
      }
      stateRef.current = 'idle';
      if (additionalFields === null) return;
    }

    const startedAt = Date.now();
    const thisVisit = visit.current;
    // The region's last news (the chosen variant's price and stock) is stale once the add starts.
    announce(announcerHost(opener), '');
    go('adding');
    const fail = (message: string) => {
      if (visit.current !== thisVisit) return;
      showAlert({ title: alertTitle, message }, runtime.doc);
      go('error');
      later(ADD_TIMINGS.errorResetMs, () => go('idle'));
    };

    if (info.isSubscription) {
      const result = await runtime.client.request('POST', '/api/3/commerce/cart/subscription', {
        json: { itemId: info.itemId, sku: checked.sku, qty: 1, additionalFields },
      });
      const token = result.ok ? (result.body as { cartToken?: unknown } | null)?.cartToken : undefined;
      if (result.ok && typeof token === 'string') {
        env.navigate(`/checkout/subscription?cartToken=${encodeURIComponent(token)}`);
        return;
      }
      fail(result.ok ? 'Unknown error, please try again later.' : result.message);
      return;
    }

    const url = express ? '/api/commerce/shopping-cart/entries?express=true' : '/api/commerce/shopping-cart/entries';
    const result = await runtime.client.request('POST', url, {
      json: { itemId: info.itemId, sku: checked.sku, quantity: checked.quantity, additionalFields },
    });
    const body = result.ok ? (result.body as { shoppingCart?: unknown; newlyAdded?: unknown } | null) : null;
    if (!result.ok || !body || !isCart(body.shoppingCart)) {
      fail(result.ok ? 'Unknown error, please try again later.' : result.message);
      return;
    }
    const cart = body.shoppingCart;
    if (express) {
      env.navigate(`/checkout?cartToken=${encodeURIComponent(String(cart.id ?? ''))}`);
      return;
    }
    runtime.cart.set(cart);
    const win = runtime.win;
    win.dispatchEvent(
      new win.CustomEvent(CART_ADDED_EVENT, {
        detail: { cart, entry: (body.newlyAdded ?? null) as CartEntry | null, itemId: info.itemId, sku: checked.sku, quantity: checked.quantity },
      }),
    );
    const added = body.newlyAdded as { title?: unknown } | null | undefined;
    const title = typeof added?.title === 'string' && added.title !== '' ? added.title : null;
    const showAdded = () => {
      if (visit.current !== thisVisit) return;
      go('added');
      announce(announcerHost(opener), addedAnnouncement(title, typeof cart.totalQuantity === 'number' ? cart.totalQuantity : 0));
      later(ADD_TIMINGS.addedMs, () => go('idle'));
    };
    const wait = startedAt + ADD_TIMINGS.minAddingMs - Date.now();
    if (wait > 0) later(wait, showAdded);
    else showAdded();
  }

  const onActivate = () => {
    start().catch((err: unknown) => {
      runtime.reporter.reportError('add_to_cart', { message: errorMessage(err) });
    });
  };
  const onKeyDown = (event: ReactKeyboardEvent) => {
    if (!isActivationKey(event)) return;
    event.preventDefault(); // Space would scroll the page
    onActivate();
  };

    // The error state keeps the in-flight label; the original one comes back when it ends (A1 table).
  const showSoldOut = soldOut && state === 'idle';
  const label = state === 'adding' || state === 'error' ? ADDING_LABEL : state === 'added' ? ADDED_LABEL : showSoldOut ? soldOutLabel : info.originalLabel;
  return renderSnapshot(snapshot, (node, renderDefault) => {
    if (hasClass(node, 'sqs-add-to-cart-button')) {
      return renderDefault({
        ref: buttonRef,
        'data-state': showSoldOut ? 'sold-out' : unavailable && state === 'idle' ? 'unavailable' : state === 'idle' ? undefined : state,
        'aria-disabled': showSoldOut || unavailable ? 'true' : undefined,
        onClick: onActivate,
        onKeyDown,
      });
    }
    if (hasClass(node, 'sqs-add-to-cart-button-inner')) return renderDefault(undefined, label);
    return undefined;
  });
}

export const addToCartIsland: IslandDefinition = {
  preload(container) {
    const button = container.querySelector('.sqs-add-to-cart-button');
    return button && readButtonInfo(button).usesForm ? formFlowLoader() : null;
  },
  prepare(container, runtime) {
    const button = container.querySelector('.sqs-add-to-cart-button');
    if (!button) return null;
    const info = readButtonInfo(button);
    const snapshot = snapshotChildren(container);
    // The label shown before hydration must equal the idle label, or the first render would mismatch.
    const inner = container.querySelector('.sqs-add-to-cart-button-inner');
    if (inner && inner.textContent !== info.originalLabel) info.originalLabel = inner.textContent ?? info.originalLabel;
    const selection = runtime.selection(scopeOf(container), info.itemId);
    const soldOutLabel = runtime.context.products[info.itemId]?.customSoldOutText || SOLD_OUT_LABEL;
    return <AddToCartButton runtime={runtime} snapshot={snapshot} info={info} selection={selection} soldOutLabel={soldOutLabel} />;
  },
};

