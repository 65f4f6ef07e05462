// @vitest-environment happy-dom
import { afterEach, describe, expect, test } from 'vitest';
import { createStorageAccess } from './storage-access.ts';

afterEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

/** A window whose storage getters throw, as in a browser that blocks storage. */
function blockedWindow(): Window {
  const win = Object.create(window) as Window;
  Object.defineProperty(win, 'localStorage', { get: () => { throw new DOMException('denied', 'SecurityError'); } });
  Object.defineProperty(win, 'sessionStorage', { get: () => { throw new DOMException('denied', 'SecurityError'); } });
  return win;
}

describe('createStorageAccess', () => {
  test('reads and writes the real areas', () => {
    const warnings: string[] = [];
    const storage = createStorageAccess(window, (m) => warnings.push(m));
    expect(storage.set('local', 'k', 'v')).toBe(true);
    expect(storage.set('session', 'k', 's')).toBe(true);
    expect(localStorage.getItem('k')).toBe('v');
    expect(sessionStorage.getItem('k')).toBe('s');
    storage.remove('local', 'k');
    expect(storage.get('local', 'k')).toBeNull();
    expect(warnings).toEqual([]);
  });

  test('blocked storage warns once per area with the seed text and falls back to memory', () => {
    const warnings: string[] = [];
    const storage = createStorageAccess(blockedWindow(), (m) => warnings.push(m));
    expect(storage.get('local', 'k')).toBeNull();
    expect(storage.set('local', 'k', 'v')).toBe(false);
    expect(storage.get('local', 'k')).toBe('v');
    expect(storage.set('session', 'k', 'v')).toBe(false);
    expect(warnings).toEqual(['Unable access local/session storage.', 'Unable access local/session storage.']);
  });

  test('a write that throws (quota) also falls back', () => {
    const warnings: string[] = [];
    const win = Object.create(window) as Window;
    const throwing = { getItem: () => null, setItem: () => { throw new DOMException('full', 'QuotaExceededError'); }, removeItem: () => undefined };
    Object.defineProperty(win, 'localStorage', { get: () => throwing });
    const storage = createStorageAccess(win, (m) => warnings.push(m));
    expect(storage.set('local', 'a', '1')).toBe(false);
    expect(storage.get('local', 'a')).toBe('1');
    expect(warnings).toEqual(['Unable access local/session storage.']);
  });
});
