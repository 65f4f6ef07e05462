/**
 * A page that follows signing in and out in other tabs. Whether the visitor is signed in is
 * written into the page when it is served (the header's account link, the members' content,
 * the account block's Sign Out); after signing out in another tab, this tab went on saying
 * "signed in" (and the reverse) until the visitor reloaded it. Here, when the visitor comes
 * back to the tab (it becomes visible, its window gets focus, or it is shown again from the
 * back/forward cache), the `SiteUserInfo` cookie, which every sign-in and sign-out sets, is read
 * again; when it disagrees with the page, the page is loaded again and the server draws it as
 * things now stand.
 *
 * Never over what the visitor has typed: a page with a field changed from what the server
 * wrote stays as it is (a reload would lose it); the checkout keeps its own draft across a
 * reload (its fields are the island's, which the check sees as unchanged). Only a return to
 * the tab can reload it, never the boot, so a page and a cookie that disagree for good (a
 * theme page cached with the wrong state) cannot reload again and again.
 */
import { signedInByCookie } from './cart-store.ts';
import { env } from './env.ts';
import type { Runtime } from './runtime.ts';
import { onReturnToTab } from './tab-return.ts';

/** A control whose value or state the visitor changed from what the page was served with. */
function hasTypedInput(doc: Document): boolean {
  for (const el of doc.querySelectorAll<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>('input, textarea, select')) {
    if (el instanceof doc.defaultView!.HTMLSelectElement) {
      if ([...el.options].some((o) => o.selected !== o.defaultSelected)) return true;
    } else if (el instanceof doc.defaultView!.HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')) {
      if (el.checked !== el.defaultChecked) return true;
    } else if (el.value !== el.defaultValue) {
      return true;
    }
  }
  return false;
}

export function startSignedInState(runtime: Runtime): () => void {
  const { doc, win } = runtime;
  const pageSignedIn = runtime.context.siteUser?.authenticated === true;
  const check = () => {
    if (signedInByCookie(doc) === pageSignedIn || hasTypedInput(doc)) return;
    stop();
    env.reload();
  };
  const stopReturns = onReturnToTab(doc, win, check);
  // A page restored from the back/forward cache runs no boot: this is its only chance.
  const onPageShow = (event: PageTransitionEvent) => {
    if (event.persisted) check();
  };
  win.addEventListener('pageshow', onPageShow);
  function stop(): void {
    stopReturns();
    win.removeEventListener('pageshow', onPageShow);
  }
  return stop;
}
