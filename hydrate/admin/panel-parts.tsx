import { useCallback, useEffect, useRef, useState, type Ref } from 'react';
import { EDITOR_MESSAGES } from '../shared/editor-messages.ts';
import type { AdminApi } from './admin-api.ts';

// Pieces every admin panel has: the list that failed to load (with the seed's retry label),
// the polite status line that announces what an action did, and a list read a page at a time.

export function LoadError({ message, onRetry }: { message: string | null; onRetry: () => void }) {
  if (!message) return null;
  return (
    <div role="alert" className="admin-form-error">
      <p>{message}</p>
      <button type="button" onClick={onRetry}>
        {EDITOR_MESSAGES.retryLabel}
      </button>
    </div>
  );
}

/** `ref`: for a panel that moves the focus to what its action did (focusable from script only). */
export function StatusLine({ text, ref }: { text: string; ref?: Ref<HTMLParagraphElement> }) {
  return (
    <p className="admin-status" role="status" ref={ref} tabIndex={ref ? -1 : undefined}>
      {text}
    </p>
  );
}

export interface CursorList<T> {
  items: T[] | null;
  error: string | null;
  hasMore: boolean;
  reload: () => Promise<void>;
  more: () => Promise<void>;
}

/**
 * A list read through `url(cursor)` (null: the first page), whose answer `pick` splits into
 * rows and the next cursor. A failed read shows the seed's "Unable to load results.", or
 * `describe`'s text for a status it knows.
 */
export function useCursorList<T, B>(
  api: AdminApi,
  url: (cursor: string | null) => string,
  pick: (body: B) => { items: T[]; cursor: string | null },
  describe: (status: number | null) => string = () => EDITOR_MESSAGES.loadResultsFailed,
): CursorList<T> {
  const [items, setItems] = useState<T[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  // The list's first page as now asked for: an answer to an older filter (two Finds in a row,
  // the first answering last) is dropped rather than shown under the newer one.
  const current = useRef(url(null));
  current.current = url(null);
  const read = async (from: string | null, previous: T[]) => {
    const askedFor = url(null);
    const result = await api.get<B>(url(from));
    if (askedFor !== current.current) return;
    if (!result.ok) return setError(describe(result.status));
    const page = pick(result.body);
    setError(null);
    setItems([...previous, ...page.items]);
    setCursor(page.cursor);
  };
  // The first page is read again whenever its url changes (a panel's filter is in it).
  const first = url(null);
  const reload = useCallback(() => read(null, []), [api, first]);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { items, error, hasMore: cursor !== null, reload, more: () => (cursor ? read(cursor, items ?? []) : Promise.resolve()) };
}

/** Moves the keyboard focus to `element`, made focusable from script first when it is not a control. */
export function focusOn(element: HTMLElement | null | undefined): boolean {
  if (!element) return false;
  if (!element.matches('a[href], button, input, select, textarea, [tabindex]')) element.setAttribute('tabindex', '-1');
  element.focus();
  return element.ownerDocument.activeElement === element;
}

/** Renders a focus request waits for its element before it is dropped. */
const FOCUS_TRIES = 5;

/**
 * Focus to move once the page shows the result of an action. An action that removes or
 * disables the control it was started from (the last page read, a status with no moves left, a
 * deleted row) otherwise leaves the focus on the page itself, and a keyboard or screen-reader
 * user starts again from the top. `request(find)`: after the next render, and the few after it
 * while `find` has nothing yet (the rows of a page just read), focus goes to what it returns.
 */
export function useFocusRequest(): (find: () => HTMLElement | null | undefined) => void {
  const pending = useRef<{ find: () => HTMLElement | null | undefined; tries: number } | null>(null);
  const [, rerender] = useState(0);
  useEffect(() => {
    const request = pending.current;
    if (!request) return;
    const element = request.find();
    request.tries += 1;
    if (element || request.tries >= FOCUS_TRIES) pending.current = null;
    if (element) focusOn(element);
  });
  return useCallback((find) => {
    pending.current = { find, tries: 0 };
    rerender((n) => n + 1);
  }, []);
}
