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
 * The menu is a phone layout (the seed's breakpoint, `shared/breakpoints.ts`): when the window
 * grows past 432 px the desktop header shows the navigation anyway, so an open menu closes, and
 * a phone-sized window later starts with it closed again.
 */
import { MOBILE_MEDIA_QUERY } from '../shared/breakpoints.ts';

export const MENU_TOGGLE_SELECTOR = 'button[data-menu-toggle][aria-controls]';

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
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || button.getAttribute('aria-expanded') !== 'true') return;
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
