import { TRACKING_MESSAGES, consoleWarn, type Warn } from './platform-messages.ts';

export type StorageKind = 'local' | 'session';

/**
 * Web storage that never throws. Private modes and blocked third-party storage throw on
 * access, not only on write; the clients must keep working for the page, so a failing area
 * is replaced by memory and the seed's warning is logged once per area.
 */
export interface StorageAccess {
  get(kind: StorageKind, key: string): string | null;
  /** false when the value only reached memory. */
  set(kind: StorageKind, key: string, value: string): boolean;
  remove(kind: StorageKind, key: string): void;
}

export function createStorageAccess(win: Window, warn: Warn = consoleWarn): StorageAccess {
  const memory: Record<StorageKind, Map<string, string>> = { local: new Map(), session: new Map() };
  const broken: Record<StorageKind, boolean> = { local: false, session: false };

  function area(kind: StorageKind): Storage | null {
    if (broken[kind]) return null;
    try {
      const storage = kind === 'local' ? win.localStorage : win.sessionStorage;
      if (!storage) throw new Error('no storage');
      return storage;
    } catch {
      fail(kind);
      return null;
    }
  }
  function fail(kind: StorageKind): void {
    if (!broken[kind]) warn(TRACKING_MESSAGES.storageUnavailable);
    broken[kind] = true;
  }

  return {
    get(kind, key) {
      const storage = area(kind);
      if (storage) {
        try {
          return storage.getItem(key);
        } catch {
          fail(kind);
        }
      }
      return memory[kind].get(key) ?? null;
    },
    set(kind, key, value) {
      const storage = area(kind);
      if (storage) {
        try {
          storage.setItem(key, value);
          return true;
        } catch {
          fail(kind);
        }
      }
      memory[kind].set(key, value);
      return false;
    },
    remove(kind, key) {
      memory[kind].delete(key);
      const storage = area(kind);
      try {
        storage?.removeItem(key);
      } catch {
        fail(kind);
      }
    },
  };
}
