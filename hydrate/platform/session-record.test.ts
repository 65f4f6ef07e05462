// @vitest-environment happy-dom
import { beforeEach, describe, expect, test } from 'vitest';
import { clearCookies } from '../test-support/page.ts';
import { readCookie } from '../runtime/cookies.ts';
import { resolveSessionRecord, SESSION_KEYS } from './session-record.ts';
import { createStorageAccess } from './storage-access.ts';

let n = 0;
const uuid = () => `id-${++n}`;
beforeEach(() => {
  clearCookies();
  localStorage.clear();
  sessionStorage.clear();
  n = 0;
});

const resolve = (restricted = false) =>
  resolveSessionRecord({ doc: document, storage: createStorageAccess(window, () => undefined), restricted, randomUuid: uuid });

describe('session record (seed §3, §4)', () => {
  test('a first page ever: first landing, first session, a new id in a session cookie', () => {
    expect(resolve()).toEqual({ isFirstLanding: true, isFirstSession: true, sessionId: 'id-1' });
    expect(readCookie(SESSION_KEYS.sessionCookie)).toBe('id-1');
    expect(localStorage.getItem(SESSION_KEYS.hasLanded)).toBe('true');
    expect(sessionStorage.getItem(SESSION_KEYS.firstSession)).toBe('true');
  });

  test('the next page of that session: not a first landing, still the first session, same id', () => {
    resolve();
    expect(resolve()).toEqual({ isFirstLanding: false, isFirstSession: true, sessionId: 'id-1' });
  });

  test('a later session: neither first, a new id once the session cookie is gone', () => {
    resolve();
    sessionStorage.clear();
    clearCookies();
    expect(resolve()).toEqual({ isFirstLanding: false, isFirstSession: false, sessionId: 'id-2' });
  });

  test('the session cookie has no expiry (a session cookie)', () => {
    const writes: string[] = [];
    const doc = Object.create(document) as Document;
    Object.defineProperty(doc, 'cookie', { get: () => '', set: (v: string) => writes.push(v) });
    resolveSessionRecord({ doc, storage: createStorageAccess(window, () => undefined), restricted: false, randomUuid: uuid, cookieDomain: 'example.com' });
    expect(writes).toEqual(['SS_SESSION_ID=id-1; path=/; domain=example.com; samesite=Lax']);
  });

  test('restricted: no cookie, the id lives in session storage', () => {
    expect(resolve(true).sessionId).toBe('id-1');
    expect(readCookie(SESSION_KEYS.sessionCookie)).toBeNull();
    expect(resolve(true).sessionId).toBe('id-1');
  });
});
