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

/** Read by a screen reader, not drawn: by its own style, not a theme class, as a site's CSS may lack one. */
export const VISUALLY_HIDDEN = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  margin: '-1px',
  padding: '0',
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
  border: '0',
} as const;

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
  Object.assign(region.style, VISUALLY_HIDDEN);
  host.append(region);
  return region;
}

/** Says `text` through the host's region; an empty text clears it. */
export function announce(host: HTMLElement, text: string): void {
  announcer(host).textContent = text;
}

/**
 * What a screen-reader visitor hears of a submit that left several fields wrong: focus reads
 * only the first field and its error, so the count says how many more are waiting. Nothing for
 * one field (its own error says it all).
 */
export function attentionText(count: number): string {
  return count > 1 ? `${count} fields need attention.` : '';
}

/**
 * A field's error (when focus does not read it) and the count, as one text: the error made a
 * sentence when it is not one ("Required" is read "Required. 2 fields need attention.").
 */
export function saidWith(error: string, count: number): string {
  const lead = error.trim() === '' ? '' : /[.!?]$/.test(error.trim()) ? error.trim() : `${error.trim()}.`;
  const counted = attentionText(count);
  if (lead === '') return counted;
  // Alone, the error is said as it is shown.
  return counted === '' ? error.trim() : `${lead} ${counted}`;
}

/**
 * Takes focus to a field that has an error. A screen reader reads a field's error with it when
 * focus moves there; a field that already had focus (Enter pressed in it) is not read again,
 * so its `error` is said through the host's region instead. When `count` fields are wrong, the
 * region also says how many (attentionText), once, with the submit that found them.
 */
export function focusWithError(field: HTMLElement, error: string, count = 1): void {
  const stayed = field === field.ownerDocument.activeElement;
  const text = saidWith(stayed ? error : '', count);
  field.focus();
  // Always written: an earlier submit's count, no longer true, does not stay behind to be read.
  announce(announcerHost(field), text);
}

/**
 * A field the visitor has just corrected: the count said for the last submit is no longer
 * true, so it goes quietly (an emptied region says nothing), and no other error is said again.
 */
export function clearAttention(field: HTMLElement): void {
  const region = announcer(announcerHost(field));
  if (region.textContent !== '') region.textContent = '';
}
