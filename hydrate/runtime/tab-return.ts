/**
 * Calls `onReturn` each time the visitor comes back to this tab after leaving it: the tab
 * becomes visible after it was hidden, or its window gets focus after it lost it (a window
 * beside another). Never for the page's own opening (the boot, or the focus a page gets as it
 * opens), so a page that reloads on a return cannot reload again and again. Shared by the
 * pages that follow what other tabs changed (empty-cart-page.ts, signed-in-state.ts).
 * Returns the function that stops listening.
 */
export function onReturnToTab(doc: Document, win: Window, onReturn: () => void): () => void {
  /** The tab was hidden or its window lost focus since the page opened (or since the last return). */
  let away = false;
  const comeBack = () => {
    if (!away) return;
    away = false;
    onReturn();
  };
  const onVisible = () => {
    if (doc.visibilityState === 'visible') comeBack();
    else away = true;
  };
  const onBlur = () => {
    away = true;
  };
  doc.addEventListener('visibilitychange', onVisible);
  // Focus does not bubble: this is the window's own focus, not a control's.
  win.addEventListener('focus', comeBack);
  win.addEventListener('blur', onBlur);
  return () => {
    doc.removeEventListener('visibilitychange', onVisible);
    win.removeEventListener('focus', comeBack);
    win.removeEventListener('blur', onBlur);
  };
}
