import { Fragment, useEffect, useRef, useState, type KeyboardEvent as ReactKeyboardEvent, type MouseEvent as ReactMouseEvent, type ReactNode } from 'react';
import { ALERT_TITLES, showAlert } from '../runtime/alert.ts';
import { cartOfResult, type Cart, type CartEntry } from '../runtime/cart-store.ts';
import { env } from '../runtime/env.ts';
import { errorMessage } from '../runtime/error-reporter.ts';
import { MESSAGES } from '../runtime/http-client.ts';
import { attrOf, hasClass, renderSnapshot, snapshotChildren, type Override, type SnapshotElement, type SnapshotNode } from '../runtime/revive.ts';
import type { Runtime } from '../runtime/runtime.ts';
import { API_ERROR, hasApiError } from '../shared/api-error-codes.ts';
import { formatMoney, lineTotalText } from '../shared/currency.ts';
import { scrollToElement } from '../runtime/scroll.ts';
import { fieldValueLines } from '../shared/field-values.ts';
import type { FormField } from '../shared/form-field.ts';
import { parseProps } from '../protocol/props.ts';
import { ADD_MESSAGES } from '../runtime/add-validation.ts';
import type { IslandDefinition } from './island.ts';

// The cart page's entries (C1 page types 200/205): quantity changes (B26) and removals (B27),
// with line totals, subtotal, the C6 minimum notice and the checkout link kept in step.

/** A quantity is sent this long after the last keystroke, or at once on blur or Enter. */
export const QUANTITY_DEBOUNCE_MS = 600;
/** B2 upper bound of a quantity. */
export const MAX_QUANTITY = 9999;
export const EMPTY_CART_TEXT = 'You have nothing in your shopping cart.';

/**
 * Said next to a line whose typed quantity was above what can be ordered (issue 16: 50 of a
 * tee with 5 in stock becomes 5, and the visitor is told). The first sentence is the seed's
 * (D11 "Variant out of stock").
 */
export function stockMessage(max: number): string {
  return `${ADD_MESSAGES.notEnough} The quantity is now ${max}, the most you can order.`;
}

/** B2's range of a quantity, as its `QUANTITY_RANGE` error says it. */
export const QUANTITY_RANGE_MESSAGE = `Quantity must be between 1 and ${MAX_QUANTITY}.`;

/**
 * What the line says when a typed quantity could not be sent as typed and became another one
 * (below 1, or not a whole number): the rule, in B2's words, and the quantity now in the cart.
 */
export function adjustedMessage(rule: string, now: number): string {
  return `${rule.endsWith('.') ? rule : rule + '.'} The quantity is now ${now}.`;
}

/** C6 / D11: the minimum-subtotal notice. */
export function minimumNotice(minimumCents: number, currency: string): string {
  return `To check out, your order subtotal must be ${formatMoney(minimumCents, currency)} or more.`;
}

export interface CartLine {
  id: string;
  itemId: string;
  sku: string;
  /** Unit price in minor units; null when the markup does not say (then the server's cart does). */
  unitCents: number | null;
  /** The variant's stock cap, shared by the entries of the same item and sku. */
  maxPerVariant: number;
  /** One-per-order services: the cap shared by every entry of the item. */
  maxPerItem: number;
  /** Quantity shown (optimistic while a request runs). */
  quantity: number;
  /** Last quantity the server agreed to. */
  confirmed: number;
  /** The input's text. */
  text: string;
  /** Typed but not sent yet. */
  dirty: boolean;
  /** Requests queued or in flight for this line. */
  pending: number;
  removing: boolean;
  removed: boolean;
  /** The entry's additional-fields JSON (A6), kept in step with the server's cart. */
  fields: string | null;
  /** The stock message shown next to the line, or null. */
  message: string | null;
  /**
   * The server's sentence for a line whose product the owner removed from the catalogue (the
   * cart entry's `unavailable`, ITEM_UNAVAILABLE), or null. Kept apart from `message`, which
   * typing clears: this one stays until the line is removed.
   */
  unavailable: string | null;
}

/** The sentence of a cart entry the catalogue no longer sells (B0.4 addition `unavailable`), or null. */
export function unavailableOf(entry: CartEntry): string | null {
  const mark = entry.unavailable;
  if (typeof mark !== 'object' || mark === null) return null;
  const message = (mark as { message?: unknown }).message;
  return typeof message === 'string' && message !== '' ? message : null;
}

/** B2 rules as a cap: the stock and service limits minus what the other entries hold. */
export function maxQuantityOf(lines: readonly CartLine[], line: CartLine): number {
  const others = (match: (other: CartLine) => boolean) =>
    lines.reduce((sum, other) => (other.id !== line.id && !other.removed && match(other) ? sum + other.quantity : sum), 0);
  return Math.max(
    1,
    Math.min(
      MAX_QUANTITY,
      line.maxPerVariant - others((o) => o.itemId === line.itemId && o.sku === line.sku),
      line.maxPerItem - others((o) => o.itemId === line.itemId),
    ),
  );
}

/** The typed text as a quantity within [1, max]; null when it is no number at all. */
export function clampQuantity(text: string, max: number): number | null {
  const trimmed = text.trim();
  const value = Number(trimmed);
  if (trimmed === '' || !Number.isFinite(value)) return null;
  return Math.min(max, Math.max(1, Math.trunc(value)));
}

function intAttr(el: Element | null, name: string): number | null {
  const raw = el?.getAttribute(name);
  if (raw === null || raw === undefined || raw.trim() === '') return null;
  const value = Number(raw);
  return Number.isInteger(value) ? value : null;
}

/** Reads the entries from the server markup, before React touches it. */
export function readLines(container: HTMLElement): CartLine[] {
  const lines: CartLine[] = [];
  for (const row of container.querySelectorAll<HTMLElement>('[data-entry-id]')) {
    const input = row.querySelector('.sf-entry-quantity-input');
    const quantity = Math.max(1, intAttr(input, 'value') ?? 1);
    lines.push({
      id: row.getAttribute('data-entry-id') ?? '',
      itemId: row.getAttribute('data-item-id') ?? '',
      sku: row.getAttribute('data-sku') ?? '',
      unitCents: intAttr(input, 'data-unit-price-cents'),
      maxPerVariant: intAttr(input, 'data-max-per-variant') ?? MAX_QUANTITY,
      maxPerItem: intAttr(input, 'data-max-per-item') ?? MAX_QUANTITY,
      quantity,
      confirmed: quantity,
      text: String(quantity),
      dirty: false,
      pending: 0,
      removing: false,
      removed: false,
      fields: row.getAttribute('data-additional-fields'),
      message: null,
      // The server renders the sentence at the line (the templates' `unavailableText`), so a
      // visitor without scripts reads it too; the island adopts it instead of adding a second.
      unavailable: row.querySelector('.sf-entry-unavailable')?.textContent?.trim() || null,
    });
  }
  return lines;
}

/** Takes the server's cart into the lines, leaving alone those with an edit of their own under way. */
export function syncLines(lines: readonly CartLine[], cart: Cart): CartLine[] {
  return lines.map((line) => {
    if (line.removed || line.dirty || line.pending > 0) return line;
    const entry = cart.entries.find((e) => e.id === line.id);
    if (!entry) return { ...line, removed: true };
    const unit = typeof entry.purchasePriceCents === 'number' ? entry.purchasePriceCents : line.unitCents;
    const fields = typeof entry.additionalFields === 'string' ? entry.additionalFields : line.fields;
    const unavailable = unavailableOf(entry);
    if (entry.quantity === line.confirmed && entry.quantity === line.quantity && unit === line.unitCents && fields === line.fields && unavailable === line.unavailable) return line;
    return { ...line, quantity: entry.quantity, confirmed: entry.quantity, text: String(entry.quantity), unitCents: unit, fields, unavailable };
  });
}

/**
 * Lines as the server renders them now (`fresh`, from the cart page fetched again), keeping
 * what this page knows better: a line with an edit under way or already removed here stays as
 * it is. A line the server no longer renders was removed elsewhere (another tab).
 */
export function mergeLines(current: readonly CartLine[], fresh: readonly CartLine[]): CartLine[] {
  const mine = new Map(current.map((l) => [l.id, l]));
  const freshIds = new Set(fresh.map((l) => l.id));
  const busy = (l: CartLine) => l.removed || l.removing || l.dirty || l.pending > 0;
  const merged = fresh.map((l) => {
    const local = mine.get(l.id);
    return local && busy(local) ? local : l;
  });
  // Kept (as removed) so that their requests still find them, never shown again.
  for (const l of current) if (!freshIds.has(l.id)) merged.push(l.removed ? l : { ...l, removed: true });
  return merged;
}

/**
 * Entries of the stored cart that the page has no line for (added in another tab). A line
 * removed here does not count: a cart read before its removal may still list it.
 */
export function entriesNotShown(lines: readonly CartLine[], cart: Cart | null): CartEntry[] {
  if (!cart) return [];
  return cart.entries.filter((e) => !lines.some((l) => l.id === e.id));
}

/** The server's code for an entry that is gone (B26/B27: removed in another tab). */
function entryGone(result: { ok: boolean; body: unknown }): boolean {
  return !result.ok && hasApiError(result.body, API_ERROR.ENTRY_NOT_FOUND);
}

/** The cart page's own address (STOREFRONT C1: page types 200 and 205 both live here). */
const CART_PATH = '/cart';

/** Replaces the text of the first element inside a node (`Subtotal <span>$1.00</span>`). */
function firstElementText(text: string): Override {
  let done = false;
  return (_node, renderDefault) => {
    if (done) return undefined;
    done = true;
    return renderDefault(undefined, text);
  };
}

function containsClass(nodes: SnapshotNode[], name: string): boolean {
  return nodes.some((n) => typeof n !== 'string' && (hasClass(n, name) || containsClass(n.children, name)));
}

interface Props {
  runtime: Runtime;
  container: HTMLElement;
  snapshot: SnapshotNode[];
  initial: CartLine[];
  checkoutUrl: string;
  /** The fields of each form the entries use (`script[data-cart-forms]`), by form id. */
  forms: Record<string, readonly FormField[]>;
}

function CartPage({ runtime, container, snapshot: initialSnapshot, initial, checkoutUrl, forms: initialForms }: Props): ReactNode {
  const [lines, setLines] = useState(initial);
  // The markup the rows come from: the server's, fetched again when the stored cart holds
  // entries this page never rendered (added in another tab), so new rows look like the rest.
  const [snapshot, setSnapshot] = useState(initialSnapshot);
  const [forms, setForms] = useState(initialForms);
  const [stored, setStored] = useState<Cart | null>(null);
  /** Entry ids the page was fetched again for: one fetch per new entry, never a loop. */
  const fetchedFor = useRef(new Set<string>());
  const [mounted, setMounted] = useState(false);
  const linesRef = useRef(initial);
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  const queue = useRef<Promise<void>>(Promise.resolve());
  /** Updates the server refused (each put its line back and said so): checkout waits on none of them. */
  const refused = useRef(0);
  const focusEmpty = useRef(false);
  const emptyRef = useRef<HTMLParagraphElement | null>(null);
  const { selectedCurrency: currency, minimumOrderSubtotalCents: minimum } = runtime.context.store;

  const apply = (next: (current: readonly CartLine[]) => CartLine[]) => {
    linesRef.current = next(linesRef.current);
    setLines(linesRef.current);
  };
  const patch = (id: string, change: (line: CartLine) => Partial<CartLine>) =>
    apply((current) => current.map((l) => (l.id === id ? { ...l, ...change(l) } : l)));
  const clearTimer = (id: string) => {
    const timer = timers.current.get(id);
    if (timer !== undefined) clearTimeout(timer);
    timers.current.delete(id);
  };
  const enqueue = (task: () => Promise<void>) => {
    queue.current = queue.current.then(task).catch((err: unknown) => {
      runtime.reporter.reportError('cart_page', { message: errorMessage(err) });
    });
  };
  const entryUrl = (id: string) => `/api/commerce/shopping-cart/entries/${encodeURIComponent(id)}`;

  // A link to the cart (the header's cart link, the pill) on the cart page itself scrolls to
  // the cart by the seed's tween (runtime/scroll.ts) instead of loading the same page again.
  useEffect(() => {
    const doc = runtime.doc;
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const link = event.target instanceof runtime.win.Element ? event.target.closest('a[href]') : null;
      if (!link || link.getAttribute('href') !== '/cart' || container.contains(link)) return;
      event.preventDefault();
      // The visitor may come from another tab that changed the cart: the page follows it.
      runtime.cart.load();
      const target = container.closest<HTMLElement>('.sf-cart-page') ?? container;
      void scrollToElement(runtime.win, target);
      const heading = target.querySelector<HTMLElement>('h1');
      if (heading) {
        if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
        heading.focus({ preventScroll: true });
      }
    };
    doc.addEventListener('click', onClick);
    return () => doc.removeEventListener('click', onClick);
  }, [runtime, container]);

  useEffect(() => {
    setMounted(true);
    let live = true;
    const refetch = async () => {
      const result = await runtime.client.request('GET', CART_PATH, { rawText: true });
      if (!live) return;
      if (!result.ok || typeof result.body !== 'string') {
        runtime.reporter.reportError('cart_page_refresh', { status: result.status, message: result.ok ? 'not text' : result.message });
        return;
      }
      const fetched = new runtime.win.DOMParser().parseFromString(result.body, 'text/html');
      const fresh = fetched.querySelector<HTMLElement>('[data-island="cart-page"]');
      // No entries section: the server's cart is empty by now, which the store says as well.
      if (!fresh) return;
      dropTableWhitespace(fresh);
      apply((current) => mergeLines(current, readLines(fresh)));
      setSnapshot(snapshotChildren(fresh));
      setForms((known) => ({ ...known, ...readFormFields(fetched) }));
      // The store may be newer than the fetched page.
      sync();
    };
    const sync = () => {
      const cart = runtime.cart.cart();
      if (!cart) return;
      apply((current) => syncLines(current, cart));
      setStored(cart);
      const missing = entriesNotShown(linesRef.current, cart).filter((e) => !fetchedFor.current.has(e.id));
      if (missing.length === 0) return;
      for (const e of missing) fetchedFor.current.add(e.id);
      refetch().catch((err: unknown) => runtime.reporter.reportError('cart_page_refresh', { message: errorMessage(err) }));
    };
    sync();
    const unsubscribe = runtime.cart.subscribe(sync);
    // Back on this tab (or window) after changing the cart in another: the stored cart is read again.
    const win = runtime.win;
    const onVisible = () => {
      if (runtime.doc.visibilityState === 'visible') runtime.cart.load();
    };
    // Focus does not bubble: this runs when the window itself gets focus, not its controls.
    const onFocus = () => runtime.cart.load();
    runtime.doc.addEventListener('visibilitychange', onVisible);
    win.addEventListener('focus', onFocus);
    const pending = timers.current;
    return () => {
      live = false;
      unsubscribe();
      runtime.doc.removeEventListener('visibilitychange', onVisible);
      win.removeEventListener('focus', onFocus);
      for (const timer of pending.values()) clearTimeout(timer);
      pending.clear();
    };
    // `apply` only touches refs and a state setter, so it needs no dependency.
  }, [runtime]);

  /**
   * Sends the line's typed quantity. `settled`: the visitor is done with the field (Enter, leaving
   * it, checkout); the debounce is not, so a blank field or a 0 waits for that (a visitor who
   * empties the field to type another number is not interrupted). Then no number at all brings
   * the last quantity back and says why, and 0 removes the line, as B26's 0 does.
   */
  function commit(id: string, settled = true): void {
    clearTimer(id);
    const current = linesRef.current;
    const line = current.find((l) => l.id === id);
    if (!line || line.removed || line.removing) return;
    const max = maxQuantityOf(current, line);
    const quantity = clampQuantity(line.text, max);
    // `quantity` is null for a blank field (whose Number is 0 too) and for no number at all.
    const typed = Number(line.text.trim());
    const zero = quantity !== null && typed === 0;
    if (!settled && (quantity === null || zero)) return;
    if (zero) {
      remove(id);
      return;
    }
    // A quantity that became another one says so next to the line: above the stock, cut to what
    // can be ordered; below 1 or not whole, B2's rule. (Before, -3 became 1 and 2.5 became 2
    // without a word.)
    let message: string | null = null;
    if (quantity === null) message = ADD_MESSAGES.quantityNaN;
    else if (quantity === max && Number.isFinite(typed) && Math.trunc(typed) > max) message = stockMessage(max);
    else if (typed < 1) message = adjustedMessage(QUANTITY_RANGE_MESSAGE, quantity);
    else if (!Number.isInteger(typed)) message = adjustedMessage(ADD_MESSAGES.quantityNotInteger, quantity);
    if (quantity === null || quantity === line.quantity) {
      patch(id, (l) => ({ text: String(l.quantity), dirty: false, message }));
      return;
    }
    patch(id, (l) => ({ quantity, text: String(quantity), dirty: false, pending: l.pending + 1, message }));
    enqueue(async () => {
      const result = await runtime.client.request('PUT', entryUrl(id), { json: { quantity } });
      const cart = cartOfResult(result);
      if (cart) {
        patch(id, (l) => ({ pending: l.pending - 1, confirmed: quantity }));
        runtime.cart.set(cart);
        return;
      }
      refused.current++;
      const alert = { title: ALERT_TITLES.updateQuantity, message: result.ok ? MESSAGES.unknown : result.message };
      if (entryGone(result)) {
        drop(id, alert);
        return;
      }
      patch(id, (l) => ({ pending: l.pending - 1, quantity: l.confirmed, text: String(l.confirmed), dirty: false }));
      showAlert(alert, runtime.doc);
    });
  }

  function remove(id: string): void {
    const line = linesRef.current.find((l) => l.id === id);
    if (!line || line.removed || line.removing) return;
    clearTimer(id);
    patch(id, (l) => ({ removing: true, dirty: false, pending: l.pending + 1 }));
    enqueue(async () => {
      const result = await runtime.client.request('DELETE', entryUrl(id));
      const cart = cartOfResult(result);
      if (cart) {
        takeOut(id, () => runtime.cart.set(cart))?.();
        return;
      }
      refused.current++;
      const alert = { title: ALERT_TITLES.removeItem, message: result.ok ? MESSAGES.unknown : result.message };
      if (entryGone(result)) {
        drop(id, alert);
        return;
      }
      patch(id, (l) => ({ pending: l.pending - 1, removing: false }));
      showAlert(alert, runtime.doc);
    });
  }

  const rowOf = (id: string) => [...container.querySelectorAll('[data-entry-id]')].find((r) => r.getAttribute('data-entry-id') === id);

  /**
   * Takes a line off the page; `then` runs once it is marked removed. Returns where focus
   * belongs when it was inside the line: the next line's remove button, or the empty cart.
   */
  function takeOut(id: string, then: () => void): (() => void) | null {
    const order = linesRef.current.filter((l) => !l.removed);
    const at = order.findIndex((l) => l.id === id);
    const next = order[at + 1] ?? order[at - 1];
    const row = rowOf(id);
    const hadFocus = !!row && (row.contains(runtime.doc.activeElement) || runtime.doc.activeElement === runtime.doc.body);
    patch(id, (l) => ({ pending: l.pending - 1, removing: false, dirty: false, removed: true }));
    then();
    if (!hadFocus) return null;
    return () => {
      if (next && next.id !== id) rowOf(next.id)?.querySelector<HTMLElement>('.sf-entry-remove')?.focus();
      else if (emptyRef.current) emptyRef.current.focus();
      else focusEmpty.current = true;
    };
  }

  /**
   * An entry removed elsewhere (404 ENTRY_NOT_FOUND, another tab): its line goes, the page
   * reads the stored cart again, and the alert says why; focus moves on when it is closed.
   */
  function drop(id: string, alert: { title: string; message: string }): void {
    clearTimer(id);
    const refocus = takeOut(id, () => runtime.cart.load());
    showAlert({ ...alert, onClose: () => refocus?.() }, runtime.doc);
  }

  /**
   * Checkout waits for the cart to be what the page shows: a quantity typed and not yet sent
   * (the debounce) is sent now, and the updates under way are awaited. Followed at once, the
   * link left while an update was in flight (aborted), and checkout showed the old quantity
   * without a word. An update the server refuses keeps the visitor here, with its alert.
   */
  function checkoutClick(event: ReactMouseEvent<HTMLAnchorElement>): void {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const busy = timers.current.size > 0 || linesRef.current.some((l) => l.dirty || l.pending > 0);
    if (!busy) return;
    event.preventDefault();
    const href = event.currentTarget.getAttribute('href') ?? checkoutUrl;
    const before = refused.current;
    for (const line of linesRef.current) if (line.dirty || timers.current.has(line.id)) commit(line.id);
    void queue.current.then(() => {
      if (refused.current === before) env.navigate(href);
    });
  }

  const visible = lines.filter((l) => !l.removed);
  // Entries of the stored cart not on the page yet (added in another tab, their rows being
  // fetched): they count in the subtotal, and the cart is not empty while there are any.
  const elsewhere = entriesNotShown(lines, stored);
  const empty = mounted && visible.length === 0 && elsewhere.length === 0;

  useEffect(() => {
    container.setAttribute('data-state', empty ? 'empty' : 'filled');
    if (empty && focusEmpty.current) {
      focusEmpty.current = false;
      emptyRef.current?.focus();
    }
  }, [container, empty]);

  if (empty) {
    return (
      <p className="sf-cart-empty" role="status" tabIndex={-1} ref={emptyRef}>
        {EMPTY_CART_TEXT}
      </p>
    );
  }

  const known = visible.every((l) => l.unitCents !== null) && elsewhere.every((e) => typeof e.purchasePriceCents === 'number');
  const subtotal =
    visible.reduce((sum, l) => sum + (l.unitCents ?? 0) * l.quantity, 0) +
    elsewhere.reduce((sum, e) => sum + (e.purchasePriceCents as number) * e.quantity, 0);
  const below = known && minimum > subtotal;
  const canCheckout = known && !below;
  const hadMinimum = containsClass(snapshot, 'sf-cart-minimum');
  const hadCheckout = containsClass(snapshot, 'sf-checkout-button');
  const byId = new Map(lines.map((l) => [l.id, l]));

  const messageId = (line: CartLine) => `sf-entry-message-${line.id}`;
  const unavailableId = (line: CartLine) => `sf-entry-unavailable-${line.id}`;
  const describedBy = (line: CartLine) => [line.unavailable ? unavailableId(line) : null, line.message ? messageId(line) : null].filter(Boolean).join(' ');
  const rowOverride = (line: CartLine, formId: string | null): Override => (node, renderDefault, path) => {
    // The server's sentence (same markup and key as hydrated, so it is never drawn twice nor
    // replaced): kept while the line is unavailable, in the stored cart's words.
    if (hasClass(node, 'sf-entry-unavailable')) return line.unavailable ? renderDefault(undefined, line.unavailable) : null;
    if (hasClass(node, 'sf-entry-quantity') && mounted && (line.message || line.unavailable)) {
      return renderDefault(undefined, [
        ...renderSnapshot(node.children, rowOverride(line, formId), path),
        // The owner removed the product: said at the line, in the error catalogue's words, until
        // it is removed. Added here only when the server's markup has no sentence of its own (the
        // line became unavailable after the page was rendered, or a site template without it).
        line.unavailable && !containsClass(node.children, 'sf-entry-unavailable') ? (
          <p key={`${path}.unavailable`} className="sf-entry-message sf-entry-unavailable" id={unavailableId(line)} role="status">
            {line.unavailable}
          </p>
        ) : null,
        line.message ? (
          <p key={`${path}.message`} className="sf-entry-message" id={messageId(line)} role="status">
            {line.message}
          </p>
        ) : null,
      ]);
    }
    if (hasClass(node, 'sf-entry-fields') && mounted && formId && forms[formId]) {
      // After an edit (A6 flow b) the server's cart brings the new values: the line shows them.
      return renderDefault(
        undefined,
        fieldValueLines(forms[formId], line.fields).map((f, i) => (
          <div key={i} className="sf-entry-field">
            <dt>{f.label}</dt> <dd>{f.value}</dd>
          </div>
        )),
      );
    }
    if (hasClass(node, 'sf-entry-quantity-input')) {
      return renderDefault({
        defaultValue: undefined,
        value: line.text,
        // Once mounted the island says what describes the field (none: the server's reference goes
        // with a sentence no longer shown).
        ...(mounted ? { 'aria-describedby': describedBy(line) || undefined } : {}),
        ...(mounted ? { max: String(maxQuantityOf(lines, line)) } : {}),
        onChange: (event: { target: HTMLInputElement }) => {
          const text = event.target.value;
          patch(line.id, () => ({ text, dirty: true, message: null }));
          clearTimer(line.id);
          timers.current.set(line.id, setTimeout(() => commit(line.id, false), QUANTITY_DEBOUNCE_MS));
        },
        onBlur: () => {
          if (linesRef.current.find((l) => l.id === line.id)?.dirty) commit(line.id);
        },
        onKeyDown: (event: ReactKeyboardEvent<HTMLInputElement>) => {
          if (event.key !== 'Enter') return;
          event.preventDefault();
          commit(line.id);
        },
      });
    }
    if (hasClass(node, 'sf-entry-total') && mounted && line.unitCents !== null) {
      return renderDefault(undefined, lineTotalText(line.unitCents * line.quantity, currency));
    }
    if (hasClass(node, 'sf-entry-remove')) {
      return renderDefault({ onClick: () => remove(line.id), ...(line.removing ? { 'aria-disabled': 'true' } : {}) });
    }
    return undefined;
  };

  const override: Override = (node: SnapshotElement, renderDefault, path) => {
    const entryId = attrOf(node, 'data-entry-id');
    if (entryId !== null) {
      const line = byId.get(entryId);
      if (!line) return undefined;
      if (line.removed) return null;
      // Keyed by entry: when the rows are fetched again, each keeps its own DOM (and focus).
      return (
        <Fragment key={`entry-${entryId}`}>
          {renderDefault(line.pending > 0 ? { 'aria-busy': 'true' } : undefined, renderSnapshot(node.children, rowOverride(line, attrOf(node, 'data-form-id')), path))}
        </Fragment>
      );
    }
    if (!mounted || !known) return undefined;
    if (hasClass(node, 'sf-cart-subtotal')) {
      const element = renderDefault(undefined, renderSnapshot(node.children, firstElementText(formatMoney(subtotal, currency)), path));
      if (hadMinimum || !below) return element;
      return [
        element,
        <p key={`${path}.minimum`} className="sf-cart-minimum" role="status">
          {minimumNotice(minimum, currency)}
        </p>,
      ];
    }
    if (hasClass(node, 'sf-cart-minimum')) return below ? renderDefault(undefined, minimumNotice(minimum, currency)) : null;
    if (hasClass(node, 'sf-checkout-button')) return canCheckout ? renderDefault({ onClick: checkoutClick }) : null;
    return undefined;
  };

  const children = renderSnapshot(snapshot, override);
  if (mounted && canCheckout && !hadCheckout) {
    children.push(
      <a key="checkout" className="sf-checkout-button" href={checkoutUrl} onClick={checkoutClick}>
        Checkout
      </a>,
    );
  }
  return children;
}

/**
 * Whitespace between table rows and cells is not rendered and React may not hold it (a text
 * node cannot be a child of <tbody> or <tr>): it is dropped before the snapshot, so the tree
 * React hydrates equals the DOM exactly.
 */
function dropTableWhitespace(container: HTMLElement): void {
  for (const el of container.querySelectorAll('table, thead, tbody, tfoot, tr, colgroup')) {
    for (const child of [...el.childNodes]) {
      if (child.nodeType === 3 && /^\s*$/.test((child as Text).data)) child.remove();
    }
  }
}

/** The fields of the forms the cart's entries use, from the renderer's `script[data-cart-forms]` block. */
function readFormFields(doc: Document): Record<string, readonly FormField[]> {
  const block = doc.querySelector('script[data-cart-forms]');
  const parsed = block ? parseProps(block.textContent ?? '') : null;
  if (!parsed || !parsed.ok || typeof parsed.value !== 'object' || parsed.value === null) return {};
  const out: Record<string, readonly FormField[]> = {};
  for (const [id, form] of Object.entries(parsed.value as Record<string, { fields?: unknown }>)) {
    if (form && Array.isArray(form.fields)) out[id] = form.fields as FormField[];
  }
  return out;
}

export const cartPageIsland: IslandDefinition = {
  prepare(container, runtime) {
    const initial = readLines(container);
    if (initial.length === 0) return null;
    dropTableWhitespace(container);
    const cartId = container.closest('[data-cart-id]')?.getAttribute('data-cart-id') ?? '';
    const checkoutUrl = cartId ? `/checkout?cartToken=${encodeURIComponent(cartId)}` : '/checkout';
    return (
      <CartPage
        runtime={runtime}
        container={container}
        snapshot={snapshotChildren(container)}
        initial={initial}
        checkoutUrl={checkoutUrl}
        forms={readFormFields(container.ownerDocument)}
      />
    );
  },
};
