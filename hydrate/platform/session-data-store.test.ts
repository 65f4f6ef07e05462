// @vitest-environment happy-dom
import { beforeEach, describe, expect, test } from 'vitest';
import { readCookie } from '../runtime/cookies.ts';
import { clearCookies } from '../test-support/page.ts';
import { createSessionDataStore, SESSION_DATA_PREFIX } from './session-data-store.ts';

let t = 1000;
const now = () => t;
beforeEach(() => {
  t = 1000;
  localStorage.clear();
  clearCookies();
});

/** A document whose window refuses local storage, so the store must use cookies. */
function noStorageDocument(): Document {
  const win = Object.create(window) as Window;
  Object.defineProperty(win, 'localStorage', { get: () => { throw new DOMException('denied', 'SecurityError'); } });
  const doc = Object.create(document) as Document;
  Object.defineProperty(doc, 'defaultView', { get: () => win });
  Object.defineProperty(doc, 'cookie', { get: () => document.cookie, set: (v: string) => { document.cookie = v; } });
  return doc;
}

describe('session data store (seed §9)', () => {
  test('local storage first', () => {
    const store = createSessionDataStore(document, now);
    expect(store.backend).toBe('local');
    store.set('k', 'v');
    expect(store.get('k')).toBe('v');
    expect(JSON.parse(localStorage.getItem(`${SESSION_DATA_PREFIX}k`)!)).toEqual({ value: 'v', expires: null });
    expect(readCookie(`${SESSION_DATA_PREFIX}k`)).toBeNull();
  });

  test('an expired value is dropped on read', () => {
    const store = createSessionDataStore(document, now);
    store.set('k', 'v', { expiresAt: 2000 });
    t = 1999;
    expect(store.get('k')).toBe('v');
    t = 2000;
    expect(store.get('k')).toBeNull();
    expect(localStorage.getItem(`${SESSION_DATA_PREFIX}k`)).toBeNull();
  });

  test('else a cookie, with the same expiry rule', () => {
    const store = createSessionDataStore(noStorageDocument(), now);
    expect(store.backend).toBe('cookie');
    store.set('a b', 'x;y', { expiresAt: 5000 });
    expect(readCookie('sf.data.a_b')).not.toBeNull();
    expect(store.get('a b')).toBe('x;y');
    t = 5000;
    expect(store.get('a b')).toBeNull();
    expect(readCookie('sf.data.a_b')).toBeNull();
  });

  test('malformed stored values read as absent', () => {
    localStorage.setItem(`${SESSION_DATA_PREFIX}k`, '{oops');
    localStorage.setItem(`${SESSION_DATA_PREFIX}n`, '{"value":3,"expires":null}');
    const store = createSessionDataStore(document, now);
    expect(store.get('k')).toBeNull();
    expect(store.get('n')).toBeNull();
  });
});
