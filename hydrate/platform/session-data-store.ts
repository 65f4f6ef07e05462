import { deleteCookie, readCookie, writeCookie } from '../runtime/cookies.ts';

/**
 * Seed §9: "Session data store uses local storage, else a cookie, with optional expiry."
 * Values are stored as JSON `{value, expires}` (expires: ms since epoch or null) so that an
 * expired entry is dropped on read whichever place holds it. Key prefix designed.
 */
export const SESSION_DATA_PREFIX = 'sf.data.';

interface Entry {
  value: string;
  expires: number | null;
}

export interface SessionDataStore {
  get(key: string): string | null;
  set(key: string, value: string, options?: { expiresAt?: number }): void;
  remove(key: string): void;
  /** Where values go: 'local' unless local storage is unavailable. */
  readonly backend: 'local' | 'cookie';
}

function parse(raw: string | null): Entry | null {
  if (raw === null) return null;
  try {
    const entry = JSON.parse(raw) as unknown;
    if (typeof entry !== 'object' || entry === null) return null;
    const { value, expires } = entry as Record<string, unknown>;
    if (typeof value !== 'string' || (expires !== null && typeof expires !== 'number')) return null;
    return { value, expires };
  } catch {
    return null;
  }
}

function usableLocalStorage(win: Window): Storage | null {
  try {
    const storage = win.localStorage;
    const probe = `${SESSION_DATA_PREFIX}probe`;
    storage.setItem(probe, '1');
    storage.removeItem(probe);
    return storage;
  } catch {
    return null;
  }
}

export function createSessionDataStore(doc: Document, now: () => number = () => Date.now()): SessionDataStore {
  const storage = usableLocalStorage(doc.defaultView as Window);
  const name = (key: string) => SESSION_DATA_PREFIX + key;
  // Cookie names allow fewer characters than storage keys; the value is URI-encoded JSON.
  const cookieName = (key: string) => name(key).replace(/[^A-Za-z0-9._-]/g, '_');

  function readRaw(key: string): string | null {
    if (storage) return storage.getItem(name(key));
    const raw = readCookie(cookieName(key), doc);
    if (raw === null) return null;
    try {
      return decodeURIComponent(raw);
    } catch {
      return null;
    }
  }

  const store: SessionDataStore = {
    backend: storage ? 'local' : 'cookie',
    get(key) {
      const entry = parse(readRaw(key));
      if (!entry) return null;
      if (entry.expires !== null && entry.expires <= now()) {
        store.remove(key);
        return null;
      }
      return entry.value;
    },
    set(key, value, options = {}) {
      const expires = options.expiresAt ?? null;
      const text = JSON.stringify({ value, expires });
      if (storage) {
        storage.setItem(name(key), text);
        return;
      }
      const maxAgeSeconds = expires === null ? undefined : Math.max(0, Math.ceil((expires - now()) / 1000));
      writeCookie(cookieName(key), encodeURIComponent(text), maxAgeSeconds === undefined ? { path: '/' } : { path: '/', maxAgeSeconds }, doc);
    },
    remove(key) {
      if (storage) storage.removeItem(name(key));
      else deleteCookie(cookieName(key), doc);
    },
  };
  return store;
}
