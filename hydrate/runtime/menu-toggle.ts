/**
 * Menu buttons (issue 16: the phone header collapses its navigation). A theme marks a button
 * `data-menu-toggle` with `aria-controls` naming what it opens and `aria-expanded="false"`, and
 * keeps the button `hidden` in its markup, so a page without scripts shows its navigation as
 * before. Here the button is revealed and toggles `aria-expanded`; the theme's CSS hides the
 * controlled element while it is "false" (on narrow screens). Escape closes an open menu and
 * gives focus back to its button. Plain DOM, no island: the header belongs to the theme.
 */
export const MENU_TOGGLE_SELECTOR = 'button[data-menu-toggle][aria-controls]';

export function startMenuToggles(doc: Document): () => void {
  const buttons = [...doc.querySelectorAll<HTMLButtonElement>(MENU_TOGGLE_SELECTOR)];
  const stops: Array<() => void> = [];
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
    button.addEventListener('click', onClick);
    target.addEventListener('keydown', onKeyDown);
    stops.push(() => {
      button.removeEventListener('click', onClick);
      target.removeEventListener('keydown', onKeyDown);
    });
  }
  return () => stops.forEach((stop) => stop());
}
