import { useCallback, useEffect, useState } from 'react';
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

export function StatusLine({ text }: { text: string }) {
  return (
    <p className="admin-status" role="status">
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

  const read = async (from: string | null, previous: T[]) => {
    const result = await api.get<B>(url(from));
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
