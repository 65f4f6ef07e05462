/**
 * A polite status message for assistive technology, for outcomes the page shows only by a
 * change of a control's label (the add-to-cart button's `Added!`): a screen reader does not
 * read such a change out, so the same news goes to a visually hidden `role="status"` region.
 * One region per page, outside every island's markup (the formatters' bytes stay as they
 * are), made before it is needed: a live region must already be in the page when its text
 * changes, or the first message is not read. A control inside a modal dialog (Quick View)
 * gets the dialog's own region: screen readers leave the page behind an aria-modal dialog
 * unread, live regions included.
 */
export const ANNOUNCER_CLASS = 'sf-announcer';

/** Where a control's news is said: its modal dialog, else the page's body. */
export function announcerHost(control: Element): HTMLElement {
  return control.closest<HTMLElement>('[aria-modal="true"]') ?? control.ownerDocument.body;
}

/** The host's region (a child of it), made on first call. */
export function announcer(host: HTMLElement): HTMLElement {
  const existing = [...host.children].find((child): child is HTMLElement => child.classList.contains(ANNOUNCER_CLASS));
  if (existing) return existing;
  const doc = host.ownerDocument;
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
  host.append(region);
  return region;
}

/** Says `text` through the host's region; an empty text clears it. */
export function announce(host: HTMLElement, text: string): void {
  announcer(host).textContent = text;
}

/**
 * Takes focus to a field that has an error. A screen reader reads a field's error with it when
 * focus moves there; a field that already had focus (Enter pressed in it) is not read again,
 * so its `error` is said through the host's region instead.
 */
export function focusWithError(field: HTMLElement, error: string): void {
  if (field === field.ownerDocument.activeElement && error !== '') announce(announcerHost(field), error);
  field.focus();
}
