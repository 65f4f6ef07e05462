const FOCUSABLE =
  'a[href], area[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export function focusableIn(root: Element): HTMLElement[] {
  // A control under a hidden or inert ancestor (the restock box before a sold-out choice) cannot
  // take focus, so it cannot be an end of the Tab loop either.
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => !el.closest('[hidden], [inert]'));
}

/**
 * Keeps Tab and Shift+Tab inside `root` (modals, A5 and A6). Returns true when it moved
 * focus itself, so the caller can prevent the default.
 */
export function trapTab(root: Element, event: KeyboardEvent): boolean {
  if (event.key !== 'Tab') return false;
  const items = focusableIn(root);
  if (items.length === 0) return false;
  const first = items[0]!;
  const last = items[items.length - 1]!;
  const active = root.ownerDocument.activeElement;
  if (event.shiftKey && (active === first || !root.contains(active))) {
    last.focus();
    return true;
  }
  if (!event.shiftKey && (active === last || !root.contains(active))) {
    first.focus();
    return true;
  }
  return false;
}

/**
 * A modal's keys, the same for every dialog (alert, lightboxes, BNPL, quick view, pop-up):
 * Escape ('Esc' in old Edge) calls `close`, Tab and Shift+Tab stay inside `root`. Returns true
 * when it handled the key, whose default it has then prevented.
 */
export function modalKey(root: Element | null, event: KeyboardEvent, close: () => void): boolean {
  if (event.key === 'Escape' || event.key === 'Esc') {
    event.preventDefault();
    close();
    return true;
  }
  if (root && trapTab(root, event)) {
    event.preventDefault();
    return true;
  }
  return false;
}

/** Enter or Space on a role="button" element activates it, as a native button would. */
export function isActivationKey(event: { key: string }): boolean {
  return event.key === 'Enter' || event.key === ' ' || event.key === 'Spacebar';
}
