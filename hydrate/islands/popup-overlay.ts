/**
 * The popup overlay (page type 104): the renderer writes it hidden at the end of content
 * pages (`.sf-popup-overlay`, renderer/site/builtin-templates.ts); this module decides whether
 * and when to show it, and runs it as a modal dialog. Not a React island: the overlay holds
 * other islands (its newsletter form is a `site-form`), so it only toggles its own attributes
 * and listens, like the product display does.
 *
 * Rules (templates seed §9, "Popup overlay local storage keys: date-closed, version,
 * submitted"), kept through the session data store (local storage, else a cookie):
 * - never again once its form was submitted;
 * - not again once closed, until the site changes the overlay's version;
 * - otherwise shown `data-overlay-delay-ms` after the boot.
 * Census (A12.7, B23): `render` when shown, `click` on a link in it, `close`, `submit`.
 */
import { createSessionDataStore, type SessionDataStore } from '../platform/session-data-store.ts';
import { visitorCookieValue } from '../runtime/analytics.ts';
import { visitorFields } from '../runtime/analytics-fields.ts';
import { holdPage } from '../runtime/dialog.ts';
import { focusableIn, modalKey } from '../runtime/focus.ts';
import type { Runtime } from '../runtime/runtime.ts';

/** The seed's three keys, under one prefix so that they cannot meet another feature's keys. */
export const OVERLAY_KEYS = {
  dateClosed: 'popup-overlay.date-closed',
  version: 'popup-overlay.version',
  submitted: 'popup-overlay.submitted',
} as const;

export type OverlayAction = 'render' | 'click' | 'close' | 'submit';

/** Whether the overlay of `version` may show to a visitor whose store holds these keys. */
export function overlayDue(store: SessionDataStore, version: string): boolean {
  if (store.get(OVERLAY_KEYS.submitted) === 'true') return false;
  return store.get(OVERLAY_KEYS.dateClosed) === null || store.get(OVERLAY_KEYS.version) !== version;
}

export interface PopupOverlayOptions {
  store?: SessionDataStore;
  now?: () => number;
}

/** Starts the overlay under `root`; returns a function that removes its timer and listeners. */
export function startPopupOverlay(runtime: Runtime, root: HTMLElement, options: PopupOverlayOptions = {}): () => void {
  const { doc } = runtime;
  const now = options.now ?? (() => Date.now());
  const store = options.store ?? createSessionDataStore(doc, now);
  const overlayId = root.getAttribute('data-overlay-id') || 'overlay';
  const version = root.getAttribute('data-overlay-version') || '1';
  const delay = Number(root.getAttribute('data-overlay-delay-ms'));
  const delayMs = Number.isFinite(delay) && delay >= 0 ? delay : 0;
  // `data-overlay-state` tells the theme and tests where the overlay stands: `skipped` (closed
  // before at this version, or submitted), `waiting` (its delay runs), `open`, `closed`.
  const state = (value: 'skipped' | 'waiting' | 'open' | 'closed') => root.setAttribute('data-overlay-state', value);
  if (!overlayDue(store, version)) {
    state('skipped');
    return () => undefined;
  }

  let open = false;
  let submitted = false;
  let releasePage: (() => void) | null = null;
  let returnFocus: HTMLElement | null = null;

  const census = (action: OverlayAction): void => {
    const json = { overlayId, action, visitorCookie: visitorCookieValue(runtime), fields: visitorFields(runtime.context) };
    // Failures are ignored (A12.7): a lost beacon must not disturb the visitor.
    runtime.client.request('POST', '/api/census/overlay', { json, timeoutMs: 2500, keepalive: true }).catch(() => undefined);
  };

  function show(): void {
    if (open || !overlayDue(store, version)) return;
    open = true;
    state('open');
    const active = doc.activeElement as HTMLElement | null;
    returnFocus = active && active !== doc.body && typeof active.focus === 'function' ? active : null;
    root.hidden = false;
    releasePage = holdPage(doc);
    // Focus moves into the dialog: its first field (the newsletter's email), else the close button.
    const first = focusableIn(root).find((el) => !el.classList.contains('sf-popup-overlay-close')) ?? focusableIn(root)[0];
    first?.focus();
    census('render');
  }

  function close(): void {
    if (!open) return;
    open = false;
    root.hidden = true;
    state('closed');
    releasePage?.();
    releasePage = null;
    store.set(OVERLAY_KEYS.dateClosed, String(now()));
    store.set(OVERLAY_KEYS.version, version);
    census('close');
    if (returnFocus?.isConnected) returnFocus.focus();
  }

  function onSubmitted(): void {
    if (submitted) return;
    submitted = true;
    store.set(OVERLAY_KEYS.submitted, 'true');
    store.set(OVERLAY_KEYS.version, version);
    census('submit');
  }

  const onKeyDown = (event: KeyboardEvent): void => {
    if (open) modalKey(root, event, close);
  };

  const onClick = (event: MouseEvent): void => {
    const target = event.target as Element | null;
    if (!open || !target) return;
    // The close button, or the backdrop around the panel.
    if (target === root || target.closest('.sf-popup-overlay-close')) {
      close();
      return;
    }
    if (target.closest('a[href]')) census('click');
  };

  // The newsletter form is its own island; its thank-you message appearing is the submit.
  const View = doc.defaultView as Window & typeof globalThis;
  const observer = new View.MutationObserver(() => {
    if ([...root.querySelectorAll('.sf-form-submission')].some((el) => !el.hasAttribute('hidden'))) onSubmitted();
  });
  observer.observe(root, { subtree: true, attributes: true, attributeFilter: ['hidden'] });

  doc.addEventListener('keydown', onKeyDown);
  root.addEventListener('click', onClick);
  const timer = setTimeout(show, delayMs);
  state('waiting');

  return () => {
    clearTimeout(timer);
    observer.disconnect();
    doc.removeEventListener('keydown', onKeyDown);
    root.removeEventListener('click', onClick);
    releasePage?.();
  };
}
