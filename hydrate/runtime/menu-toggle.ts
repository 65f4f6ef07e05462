/**
 * Menu buttons (issue 16: the phone header collapses its navigation). A theme marks a button
 * `data-menu-toggle` with `aria-controls` naming what it opens and `aria-expanded="false"`, and
 * keeps the button `hidden` in its markup, so a page without scripts shows its navigation as
 * before. Here the button is revealed and toggles `aria-expanded`; the theme's CSS hides the
 * controlled element while it is "false" (on narrow screens). Escape, in the menu or on the
 * button that opened it (where focus stays after a click), closes an open menu and gives focus
 * back to its button. Plain DOM, no island: the header belongs to the theme.
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
    const target = doc.getElementById(button.getAttribute('aria-controls') ?? '');
    if (!target) continue;
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
    button.addEventListener('click', onClick);
    target.addEventListener('keydown', onKeyDown);
    button.addEventListener('keydown', onKeyDown);
    phone?.addEventListener?.('change', onLayout);
    stops.push(() => {
      button.removeEventListener('click', onClick);
      target.removeEventListener('keydown', onKeyDown);
      button.removeEventListener('keydown', onKeyDown);
      phone?.removeEventListener?.('change', onLayout);
    });
  }
  return () => stops.forEach((stop) => stop());
}
