/**
 * Menu buttons (issue 16: the phone header collapses its navigation). A theme marks a button
 * `data-menu-toggle` with `aria-controls` naming what it opens and `aria-expanded="false"`, and
 * keeps the button `hidden` in its markup, so a page without scripts shows its navigation as
 * before. Here the button is revealed and toggles `aria-expanded`; the theme's CSS hides the
 * controlled element while it is "false" (on narrow screens). Escape, in the menu or on the
 * button that opened it (where focus stays after a click), closes an open menu and gives focus
 * back to its button. Focus leaving both the button and the menu (Tab past its last link), or a
 * click anywhere else, closes it without moving focus: an open menu never stays over the page
 * the visitor went on to (QA, second pass). Plain DOM, no island: the header belongs to the theme.
 *
 * A theme may put the button after the menu in its markup, where the phone layout shows it
 * (the demo's Menu sits right of Sign In and Cart, so Tab goes brand, Sign In, Cart, Menu as
 * the row reads; WCAG 2.4.3). While such a menu is open, Tab keeps the order the visitor sees:
 * from the button into the menu's first control, Shift+Tab from that control back to the
 * button, and Tab from its last control on to what follows the button.
 *
 * The menu is a phone layout (the seed's breakpoint, `shared/breakpoints.ts`): when the window
 * grows past 432 px the desktop header shows the navigation anyway, so an open menu closes, and
 * a phone-sized window later starts with it closed again.
 */
import { MOBILE_MEDIA_QUERY } from '../shared/breakpoints.ts';

export const MENU_TOGGLE_SELECTOR = 'button[data-menu-toggle][aria-controls]';

const TABBABLE = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** What Tab can reach, in document order: shown (a closed menu's links are display: none) and not hidden. */
function tabbables(root: ParentNode): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(TABBABLE)].filter((el) => el.tabIndex >= 0 && !el.closest('[hidden], [inert]') && el.getClientRects().length > 0);
}

export function startMenuToggles(doc: Document): () => void {
  const buttons = [...doc.querySelectorAll<HTMLButtonElement>(MENU_TOGGLE_SELECTOR)];
  const stops: Array<() => void> = [];
  const phone = doc.defaultView?.matchMedia?.(MOBILE_MEDIA_QUERY) ?? null;
  for (const button of buttons) {
    // `aria-controls` is a list of ids: a header's navigation and its search field are one menu.
    // With only the first counted as inside, a tap on the search field closed the menu, and the
    // field with it (the theme hides both while the menu is closed): phones could not search.
    const targets = (button.getAttribute('aria-controls') ?? '')
      .split(/\s+/)
      .map((id) => (id === '' ? null : doc.getElementById(id)))
      .filter((el): el is HTMLElement => el !== null);
    if (targets.length === 0) continue;
    button.setAttribute('aria-expanded', 'false');
    button.hidden = false;
    const onClick = () => button.setAttribute('aria-expanded', button.getAttribute('aria-expanded') === 'true' ? 'false' : 'true');
    // Targets before the button in the markup: Tab is steered as the layout reads (above).
    const menuFirst = targets.every((target) => (button.compareDocumentPosition(target) & Node.DOCUMENT_POSITION_PRECEDING) !== 0);
    const steerTab = (event: KeyboardEvent) => {
      if (!menuFirst || event.key !== 'Tab' || event.altKey || event.ctrlKey || event.metaKey) return;
      const inMenu = targets.flatMap((target) => tabbables(target));
      if (inMenu.length === 0) return;
      let next: HTMLElement | undefined;
      if (event.target === button && !event.shiftKey) next = inMenu[0];
      else if (event.target === inMenu[0] && event.shiftKey) next = button;
      else if (event.target === inMenu[inMenu.length - 1] && !event.shiftKey) {
        next = tabbables(doc).find((el) => (button.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0 && !button.contains(el));
      }
      if (!next) return;
      event.preventDefault();
      next.focus();
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (button.getAttribute('aria-expanded') !== 'true') return;
      if (event.key !== 'Escape') return steerTab(event);
      button.setAttribute('aria-expanded', 'false');
      button.focus();
    };
    const onLayout = () => {
      if (!phone?.matches) button.setAttribute('aria-expanded', 'false');
    };
    const inside = (node: EventTarget | null) => node instanceof Node && (button.contains(node) || targets.some((target) => target.contains(node)));
    const isOpen = () => button.getAttribute('aria-expanded') === 'true';
    // Focus moving to something outside (a null relatedTarget, focus going nowhere, is left to
    // the click handler: a tap on the page's background).
    const onFocusOut = (event: FocusEvent) => {
      if (isOpen() && event.relatedTarget !== null && !inside(event.relatedTarget)) button.setAttribute('aria-expanded', 'false');
    };
    const onDocumentClick = (event: MouseEvent) => {
      if (isOpen() && !inside(event.target)) button.setAttribute('aria-expanded', 'false');
    };
    button.addEventListener('click', onClick);
    button.addEventListener('keydown', onKeyDown);
    button.addEventListener('focusout', onFocusOut);
    for (const target of targets) {
      target.addEventListener('keydown', onKeyDown);
      target.addEventListener('focusout', onFocusOut);
    }
    doc.addEventListener('click', onDocumentClick);
    phone?.addEventListener?.('change', onLayout);
    stops.push(() => {
      button.removeEventListener('click', onClick);
      button.removeEventListener('keydown', onKeyDown);
      button.removeEventListener('focusout', onFocusOut);
      for (const target of targets) {
        target.removeEventListener('keydown', onKeyDown);
        target.removeEventListener('focusout', onFocusOut);
      }
      doc.removeEventListener('click', onDocumentClick);
      phone?.removeEventListener?.('change', onLayout);
    });
  }
  return () => stops.forEach((stop) => stop());
}
