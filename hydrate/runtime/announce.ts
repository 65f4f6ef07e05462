/**
 * A polite status message for assistive technology, for outcomes the page shows only by a
 * change of a control's label (the add-to-cart button's `Added!`): a screen reader does not
 * read such a change out, so the same news goes to a visually hidden `role="status"` region.
 * One region per page, outside every island's markup (the formatters' bytes stay as they
 * are), made before it is needed: a live region must already be in the page when its text
 * changes, or the first message is not read.
 */
export const ANNOUNCER_CLASS = 'sf-announcer';

/** The page's region, made on first call. */
export function announcer(doc: Document): HTMLElement {
  const existing = doc.querySelector<HTMLElement>(`.${ANNOUNCER_CLASS}`);
  if (existing) return existing;
  const region = doc.createElement('div');
  region.className = ANNOUNCER_CLASS;
  region.setAttribute('role', 'status');
  region.setAttribute('aria-live', 'polite');
  region.setAttribute('aria-atomic', 'true');
  // Hidden by its own style, not a theme class: a site's CSS may lack one.
  Object.assign(region.style, {
    position: 'absolute',
    width: '1px',
    height: '1px',
    margin: '-1px',
    padding: '0',
    overflow: 'hidden',
    clip: 'rect(0 0 0 0)',
    whiteSpace: 'nowrap',
    border: '0',
  });
  doc.body.append(region);
  return region;
}

/** Says `text` through the page's region; an empty text clears it. */
export function announce(doc: Document, text: string): void {
  announcer(doc).textContent = text;
}
