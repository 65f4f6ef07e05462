import { holdPage } from './dialog.ts';
import { modalKey } from './focus.ts';

/** A0.3 alert titles, quoted from the seeds. */
export const ALERT_TITLES = {
  addItem: 'Unable to Add Item',
  purchaseItem: 'Unable to Purchase Item',
  giftCard: 'Unable to purchase Gift Card',
  updateQuantity: 'Unable to update quantity',
  removeItem: 'Unable to remove item',
  updateForm: 'Unable to update form',
  openForm: 'Unable to open form',
} as const;

export interface AlertOptions {
  title: string;
  message: string;
  onClose?: () => void;
}

let current: { element: HTMLElement; close: () => void } | null = null;

/**
 * Shows the one shared alert (A0.3), replacing any open one. Built with plain DOM: it lives
 * outside every island's markup and must work even when no island has hydrated.
 */
export function showAlert(options: AlertOptions, doc: Document = document): HTMLElement {
  current?.close();
  const returnFocus = doc.activeElement as HTMLElement | null;
  const root = doc.createElement('div');
  root.className = 'sf-alert';
  root.setAttribute('role', 'alertdialog');
  root.setAttribute('aria-modal', 'true');
  root.setAttribute('aria-labelledby', 'sf-alert-title');
  const title = doc.createElement('h2');
  title.id = 'sf-alert-title';
  title.className = 'sf-alert-title';
  title.textContent = options.title;
  const message = doc.createElement('p');
  message.className = 'sf-alert-message';
  message.textContent = options.message;
  const ok = doc.createElement('button');
  ok.type = 'button';
  ok.className = 'sf-alert-ok';
  ok.textContent = 'OK';
  root.append(title, message, ok);
  // The dimmed page behind the alert: a sibling, so the alert's own markup stays A0.3's. It
  // takes the clicks meant for the page, which a modal alert must not let through.
  const backdrop = doc.createElement('div');
  backdrop.className = 'sf-alert-backdrop';

  const onKey = (event: KeyboardEvent) => {
    modalKey(root, event, close);
  };
  function close(): void {
    if (current?.element !== root) return;
    current = null;
    doc.removeEventListener('keydown', onKey, true);
    root.remove();
    backdrop.remove();
    release();
    if (returnFocus && returnFocus.isConnected) returnFocus.focus();
    options.onClose?.();
  }
  ok.addEventListener('click', close);
  doc.addEventListener('keydown', onKey, true);
  doc.body.append(backdrop, root);
  const release = holdPage(doc);
  current = { element: root, close };
  ok.focus();
  return root;
}

export function closeAlert(): void {
  current?.close();
}
