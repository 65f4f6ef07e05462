/**
 * The class `<html>` carries while a modal dialog (alert, BNPL modal, lightbox) is open. The
 * theme uses it to keep the page behind still: a dialog is fixed over the window, so the
 * page must neither scroll under it nor jump to where the dialog's element sits in the DOM.
 */
export const DIALOG_OPEN_CLASS = 'sf-dialog-open';

const openDialogs = new WeakMap<Document, number>();

/**
 * Marks one more dialog as open on `doc`; the returned function marks it closed (once, however
 * often it is called). The class goes away when the last open dialog closes, so an alert
 * shown over the lightbox does not unlock the page when it closes.
 */
export function holdPage(doc: Document): () => void {
  openDialogs.set(doc, (openDialogs.get(doc) ?? 0) + 1);
  doc.documentElement.classList.add(DIALOG_OPEN_CLASS);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = Math.max(0, (openDialogs.get(doc) ?? 1) - 1);
    openDialogs.set(doc, left);
    if (left === 0) doc.documentElement.classList.remove(DIALOG_OPEN_CLASS);
  };
}
