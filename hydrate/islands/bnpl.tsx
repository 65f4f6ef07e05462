import { useEffect, useLayoutEffect, useRef, useState, type MouseEvent, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { parseProps } from '../protocol/props.ts';
import { bnplText, countryEntry, localeKey, parseBnplContext, providerLabel, type BnplContext } from '../runtime/bnpl-rules.ts';
import { CART_UPDATED_EVENT, type Cart } from '../runtime/cart-store.ts';
import { holdPage } from '../runtime/dialog.ts';
import { errorMessage } from '../runtime/error-reporter.ts';
import { featureOn } from '../runtime/features.ts';
import { FEATURE } from '../shared/feature-toggles.ts';
import { modalKey } from '../runtime/focus.ts';
import { toMinorUnits } from '../runtime/money.ts';
import { scopeOf, VARIANT_CHANGE_EVENT, type SelectionState } from '../runtime/product-scope.ts';
import { renderSnapshot, snapshotChildren, type SnapshotNode } from '../runtime/revive.ts';
import type { Runtime } from '../runtime/runtime.ts';
import { soldOutFor } from './add-to-cart.tsx';
import type { IslandDefinition } from './island.ts';

/** Id given to the fetched page's heading, which names the modal. */
export const BNPL_TITLE_ID = 'sf-bnpl-modal-title';

/** Modal pages are static: fetched once per page life (one runtime) and kept (A5). */
const modalCaches = new WeakMap<Runtime, Map<string, string>>();

function modalCacheOf(runtime: Runtime): Map<string, string> {
  let cache = modalCaches.get(runtime);
  if (!cache) {
    cache = new Map();
    modalCaches.set(runtime, cache);
  }
  return cache;
}

interface Props {
  runtime: Runtime;
  container: HTMLElement;
  snapshot: SnapshotNode[];
  ctx: BnplContext;
}

/**
 * The info button's circled "i", drawn as SVG: the "ⓘ" character (U+24D8) is in no font a plain
 * Debian Chromium has and showed as an empty box. Decorative: the button's aria-label names it.
 */
function InfoIcon(): ReactNode {
  return (
    <svg className="sf-bnpl-info-icon" viewBox="0 0 16 16" width="1em" height="1em" aria-hidden="true" focusable="false">
      <circle cx="8" cy="8" r="7" fill="none" stroke="currentColor" strokeWidth="1.5" />
      <circle cx="8" cy="4.75" r="1" fill="currentColor" />
      <path d="M8 7v5" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" />
    </svg>
  );
}

function cartEligible(cart: Cart | null): boolean {
  return !!cart && cart.entries.length > 0 && cart.entries.every((e) => e.productType === 1);
}

function Bnpl({ runtime, container, snapshot, ctx }: Props): ReactNode {
  const isCart = container.getAttribute('data-context') === 'cart';
  const itemId = container.getAttribute('data-item-id') ?? '';
  const currency = container.getAttribute('data-currency') || runtime.context.store.selectedCurrency;
  const country = countryEntry(ctx.stripeAccountCountry);
  const [mounted, setMounted] = useState(false);
  const [price, setPrice] = useState(() => Number(container.getAttribute('data-price-cents') ?? '0') || 0);
  const [cart, setCart] = useState<Cart | null>(() => runtime.cart.cart());
  // A product that cannot be bought (the chosen variant sold out, or every variant with none
  // chosen) offers no payment terms: the same rule that makes Add To Cart read Sold Out.
  const [soldOut, setSoldOut] = useState(false);
  const [modalHtml, setModalHtml] = useState<string | null>(null);
  const infoRef = useRef<HTMLButtonElement | null>(null);
  const closeRef = useRef<HTMLButtonElement | null>(null);
  const modalRef = useRef<HTMLDivElement | null>(null);

  useEffect(() => {
    setMounted(true);
    if (isCart) {
      const onCart = (e: Event) => setCart((e as CustomEvent<Cart>).detail);
      runtime.win.addEventListener(CART_UPDATED_EVENT, onCart);
      return () => runtime.win.removeEventListener(CART_UPDATED_EVENT, onCart);
    }
    const productType = Number(container.getAttribute('data-product-type') ?? '0');
    const variants = runtime.context.products[itemId]?.variants ?? [];
    const initial = runtime.selection(scopeOf(container), itemId).get();
    setSoldOut(soldOutFor(initial, variants, productType));
    // A variant already chosen when the page starts (restored by the browser on Back) prices the pill.
    if (initial.selectedVariant) setPrice(toMinorUnits(initial.selectedVariant.onSale ? initial.selectedVariant.salePriceMoney : initial.selectedVariant.priceMoney).cents);
    const onVariant = (e: Event) => {
      if ((e.target as Element | null)?.getAttribute?.('data-item-id') !== itemId) return;
      const state = (e as CustomEvent<SelectionState>).detail;
      if (!state) return;
      setSoldOut(soldOutFor(state, variants, productType));
      const variant = state.selectedVariant;
      if (!variant) return;
      setPrice(toMinorUnits(variant.onSale ? variant.salePriceMoney : variant.priceMoney).cents);
    };
    runtime.doc.addEventListener(VARIANT_CHANGE_EVENT, onVariant);
    return () => runtime.doc.removeEventListener(VARIANT_CHANGE_EVENT, onVariant);
  }, [runtime, isCart, itemId, container]);

  const productType = Number(container.getAttribute('data-product-type') ?? '0');
  const eligible = !!country && ctx.afterPayAvailable && (isCart ? cartEligible(cart) : productType === 1 && !soldOut);
  const amount = isCart ? (cart?.subtotalCents ?? 0) : price;
  const shown = mounted && eligible;

  useEffect(() => {
    container.setAttribute('data-state', shown ? 'visible' : 'hidden');
  }, [container, shown]);

  const closeModal = () => {
    setModalHtml(null);
    // Focus goes back to the control that opened the modal.
    queueMicrotask(() => infoRef.current?.focus());
  };

  // The modal's name is the fetched page's own heading (B9 fragments open with one); a
  // fragment without a heading is named after the provider.
  useLayoutEffect(() => {
    const modal = modalRef.current;
    if (modalHtml === null || !modal) return;
    const heading = modal.querySelector<HTMLElement>('.sf-bnpl-modal-body h1, .sf-bnpl-modal-body h2, .sf-bnpl-modal-body h3');
    if (heading) {
      if (!heading.id) heading.id = BNPL_TITLE_ID;
      modal.setAttribute('aria-labelledby', heading.id);
    } else if (country) {
      modal.setAttribute('aria-label', providerLabel(country.provider));
    }
  }, [modalHtml, country]);

  useEffect(() => {
    if (modalHtml === null) return;
    const release = holdPage(runtime.doc);
    closeRef.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      modalKey(modalRef.current, event, closeModal);
    };
    runtime.doc.addEventListener('keydown', onKey);
    return () => {
      runtime.doc.removeEventListener('keydown', onKey);
      release();
    };
  }, [modalHtml, runtime]);

  const openModal = async () => {
    if (!country) return;
    const url = `/static/bnpl/${country.provider}/${localeKey(ctx.stripeAccountCountry, ctx.shopperLanguage)}.html`;
    const modalCache = modalCacheOf(runtime);
    let html = modalCache.get(url);
    if (html === undefined) {
      const result = await runtime.client.request('GET', url, { rawText: true });
      if (!result.ok || typeof result.body !== 'string') {
        console.warn(`BNPL modal content could not be loaded from ${url}`);
        return;
      }
      html = result.body;
      modalCache.set(url, html);
    }
    setModalHtml(html);
  };

  let text = '';
  if (shown) {
    try {
      text = bnplText(amount, ctx, currency).text;
    } catch (err) {
      runtime.reporter.reportError('bnpl_amount', { message: errorMessage(err) });
    }
  }
  const onBackdrop = () => closeModal();
  // The fetched page may bring its own close button (B9's fragments do): it closes the modal too.
  const onBodyClick = (event: MouseEvent) => {
    if ((event.target as Element | null)?.closest?.('.sf-bnpl-modal-close')) closeModal();
  };

  return (
    <>
      {renderSnapshot(snapshot)}
      {shown ? (
        <div className="sf-bnpl-pill">
          <span className="sf-bnpl-text">{text}</span> <span className="sf-bnpl-provider">{providerLabel(country!.provider)}</span>{' '}
          <button type="button" className="sf-bnpl-info" aria-label="More information" ref={infoRef} onClick={() => void openModal()}>
            <InfoIcon />
          </button>
        </div>
      ) : null}
      {modalHtml !== null
        ? createPortal(
            <div className="sf-bnpl-modal" role="dialog" aria-modal="true" ref={modalRef}>
              <div className="sf-bnpl-modal-backdrop" onClick={onBackdrop} />
              <div className="sf-bnpl-modal-content">
                <button type="button" className="sf-bnpl-modal-close" aria-label="Close" ref={closeRef} onClick={closeModal}>
                  ×
                </button>
                <div className="sf-bnpl-modal-body" onClick={onBodyClick} dangerouslySetInnerHTML={{ __html: modalHtml }} />
              </div>
            </div>,
            runtime.doc.body,
          )
        : null}
    </>
  );
}

export const bnplIsland: IslandDefinition = {
  prepare(container, runtime) {
    // The `bnpl` toggle off: the renderer writes no pill; one in a cached page stays hidden and inert.
    if (!featureOn(runtime.context, FEATURE.bnpl)) {
      container.setAttribute('data-state', 'hidden');
      return null;
    }
    const script = container.querySelector('script[data-bnpl-context]');
    const parsed = parseProps(script?.textContent ?? '');
    const ctx = parsed.ok ? parseBnplContext(parsed.value) : null;
    if (!ctx) {
      runtime.reporter.reportError('bnpl_context', { message: parsed.ok ? 'BNPL context has the wrong shape' : parsed.error.message });
      container.setAttribute('data-state', 'hidden');
      return null;
    }
    return <Bnpl runtime={runtime} container={container} snapshot={snapshotChildren(container)} ctx={ctx} />;
  },
};
