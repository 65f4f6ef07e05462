import { createElement } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { holdPage } from '../runtime/dialog.ts';
import { errorMessage } from '../runtime/error-reporter.ts';
import { modalKey } from '../runtime/focus.ts';
import { MESSAGES } from '../runtime/http-client.ts';
import { HydratedMarker } from '../runtime/hydrated-marker.ts';
import type { Runtime } from '../runtime/runtime.ts';
import { cartEntriesElement, EMPTY_CART_TEXT } from './cart-page.tsx';

/**
 * The cart drawer (seed §8 "Cart drawer texts"): with scripts on, the pill cart (A2) opens the
 * cart in a modal dialog at the window's end edge instead of leaving the page. Without scripts,
 * or with a modified click (new tab or window), the pill stays the plain link to `/cart`.
 *
 * The drawer's lines are the cart page's own: its server markup (`GET /cart`, a page the site
 * serves anyway) is fetched and the cart page's entries island is hydrated inside the dialog, so
 * quantity changes (B26), removals (B27), the edit-form links (A6), subtotal, the C6 minimum
 * notice, Checkout, the empty cart and every failure's alert (`Unable to update quantity`,
 * `Unable to remove item`, `Unable to update form`, `Unable to open form`) behave as on /cart.
 * Like the other pop-ups it holds the page (`runtime/dialog.ts`), keeps Tab inside, closes on
 * Escape, the x button and a click on the dimmed page, and gives focus back to the pill.
 */
export const CART_DRAWER_CLASS = 'sf-cart-drawer';
export const CART_DRAWER_TITLE_ID = 'sf-cart-drawer-title';
/** The dialog's name: the pill's own word for the cart when it has no count (A2). */
export const CART_DRAWER_TITLE = 'Cart';
export const VIEW_CART_TEXT = 'View cart';
export const LOADING_TEXT = 'Loading your cart…';
const CART_PATH = '/cart';

/** What the fetched cart page gives the drawer: its entries section, or nothing (an empty cart). */
export interface CartMarkup {
  /** The `[data-island="cart-page"]` container, with the cart's id and the entries' forms block. */
  entries: HTMLElement | null;
  cartId: string;
  forms: HTMLScriptElement | null;
}

/** Reads the cart page's HTML; null when it is no cart page (then the drawer sends the visitor there). */
export function readCartMarkup(html: string): CartMarkup | null {
  const fetched = new DOMParser().parseFromString(html, 'text/html');
  const page = fetched.querySelector<HTMLElement>('.sf-cart-page, [data-cart-id]');
  const entries = fetched.querySelector<HTMLElement>('[data-island="cart-page"]');
  if (!page && !entries) return null;
  const cartId = (entries?.closest('[data-cart-id]') ?? page)?.getAttribute('data-cart-id') ?? '';
  return { entries, cartId, forms: fetched.querySelector<HTMLScriptElement>('script[data-cart-forms]') };
}

interface Drawer {
  root: HTMLElement;
  panel: HTMLElement;
  body: HTMLElement;
  close: HTMLButtonElement;
}

function buildDrawer(doc: Document): Drawer {
  const root = doc.createElement('div');
  root.className = CART_DRAWER_CLASS;
  root.setAttribute('role', 'dialog');
  root.setAttribute('aria-modal', 'true');
  root.setAttribute('aria-labelledby', CART_DRAWER_TITLE_ID);
  const panel = doc.createElement('div');
  panel.className = 'sf-cart-drawer-panel';
  const header = doc.createElement('div');
  header.className = 'sf-cart-drawer-header';
  const title = doc.createElement('h2');
  title.id = CART_DRAWER_TITLE_ID;
  title.className = 'sf-cart-drawer-title';
  title.textContent = CART_DRAWER_TITLE;
  const close = doc.createElement('button');
  close.type = 'button';
  close.className = 'sf-cart-drawer-close';
  close.setAttribute('aria-label', 'Close');
  close.textContent = '×';
  header.append(title, close);
  const body = doc.createElement('div');
  body.className = 'sf-cart-drawer-body';
  body.setAttribute('aria-busy', 'true');
  const loading = doc.createElement('p');
  loading.className = 'sf-cart-drawer-status';
  loading.textContent = LOADING_TEXT;
  body.append(loading);
  const footer = doc.createElement('div');
  footer.className = 'sf-cart-drawer-footer';
  const view = doc.createElement('a');
  view.className = 'sf-cart-drawer-view';
  view.href = CART_PATH;
  view.textContent = VIEW_CART_TEXT;
  footer.append(view);
  panel.append(header, body, footer);
  root.append(panel);
  return { root, panel, body, close };
}

/** A message in place of the lines; the empty cart's is focusable, as on the cart page. */
function showMessage(doc: Document, body: HTMLElement, className: string, role: 'status' | 'alert', text: string): HTMLElement {
  const p = doc.createElement('p');
  p.className = className;
  p.setAttribute('role', role);
  p.tabIndex = -1;
  p.textContent = text;
  body.replaceChildren(p);
  return p;
}

let current: { close(restoreFocus: boolean): void } | null = null;

/** Whether a cart drawer is open on the page (the pill ignores a second activation meanwhile). */
export function cartDrawerOpen(): boolean {
  return current !== null;
}

/**
 * Opens the drawer over the page and fills it with the cart; `opener` (the pill's link) gets
 * focus back when it closes, or the header's cart link when the pill went away meanwhile (the
 * last line removed). Resolves once the lines are in (or the failure is said).
 */
export async function openCartDrawer(runtime: Runtime, opener: HTMLElement): Promise<void> {
  if (current) return;
  const { doc } = runtime;
  const drawer = buildDrawer(doc);
  const { root, panel, body } = drawer;
  const release = holdPage(doc);
  const roots: Root[] = [];
  let stopEditing = (): void => undefined;
  let closed = false;

  const onKeyDown = (event: KeyboardEvent) => {
    // An alert or the edit form's lightbox opened over the drawer handles its own keys.
    if (!root.contains(event.target as Node)) return;
    modalKey(panel, event, () => current?.close(true));
  };
  const onClick = (event: MouseEvent) => {
    const target = event.target as Element;
    if (target === root || target.closest('.sf-cart-drawer-close')) current?.close(true);
  };
  root.addEventListener('keydown', onKeyDown);
  root.addEventListener('click', onClick);
  current = {
    close(restoreFocus) {
      if (closed) return;
      closed = true;
      root.removeEventListener('keydown', onKeyDown);
      root.removeEventListener('click', onClick);
      stopEditing();
      for (const r of roots) r.unmount();
      root.remove();
      release();
      current = null;
      if (!restoreFocus) return;
      const target = opener.isConnected && !opener.closest('[hidden]') ? opener : doc.querySelector<HTMLElement>('.sf-cart-link:not([hidden])');
      (target ?? doc.body).focus();
    },
  };
  doc.body.append(root);
  drawer.close.focus();

  const result = await runtime.client.request('GET', CART_PATH, { rawText: true });
  if (closed) return;
  body.removeAttribute('aria-busy');
  const markup = result.ok && typeof result.body === 'string' ? readCartMarkup(result.body) : null;
  if (!markup) {
    // The catalogue's words: a lost connection says to check it, a refusal says the server's
    // message. Only what is no lost connection is worth a report (which could not be sent anyway).
    const message = result.ok ? MESSAGES.unknown : result.message;
    if (result.ok || result.kind !== 'network') runtime.reporter.reportError('cart_drawer', { status: result.status, message });
    showMessage(doc, body, 'sf-cart-drawer-error', 'alert', message);
    return;
  }
  if (!markup.entries) {
    showMessage(doc, body, 'sf-cart-empty', 'status', EMPTY_CART_TEXT);
    return;
  }
  // The cart page's own scope: its id (Checkout's link) and the entries' forms block, which the
  // entries island and the edit links read from the document while the drawer is in it.
  const scope = doc.createElement('div');
  scope.className = 'sf-cart-drawer-cart';
  scope.setAttribute('data-cart-id', markup.cartId);
  const container = doc.importNode(markup.entries, true);
  scope.append(container);
  if (markup.forms) scope.append(doc.importNode(markup.forms, true));
  body.replaceChildren(scope);
  const element = cartEntriesElement(container, runtime, { followCartLinks: false });
  if (element) {
    roots.push(
      hydrateRoot(container, createElement(HydratedMarker, { container, children: element }), {
        onRecoverableError(error) {
          runtime.reporter.reportError('hydration', { kind: 'cart-page', where: 'cart-drawer', message: errorMessage(error) });
        },
      }),
    );
  }
  if (container.querySelector('.sf-entry-edit-form')) {
    try {
      const { startCartEditing } = await import('./additional-fields.tsx');
      if (!closed) stopEditing = startCartEditing(runtime);
    } catch (err) {
      runtime.reporter.reportError('cart_drawer', { message: errorMessage(err) });
    }
  }
}

/** Closes an open drawer (tests, and a page leaving). */
export function closeCartDrawer(restoreFocus = false): void {
  current?.close(restoreFocus);
}
