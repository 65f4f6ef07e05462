// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { clearCookies, setCookies } from '../test-support/page.ts';
import { readCookie } from '../runtime/cookies.ts';
import { ANALYTICS_ID, matchingParentDomain, resolveAnalyticsId, type AnalyticsIdOptions } from './analytics-id.ts';
import { createStorageAccess, type StorageAccess } from './storage-access.ts';

const T = 1_790_000_000_000;
let warnings: string[];
let storage: StorageAccess;

beforeEach(() => {
  clearCookies();
  localStorage.clear();
  warnings = [];
  storage = createStorageAccess(window, (m) => warnings.push(m));
});
afterEach(() => {
  vi.restoreAllMocks();
  localStorage.clear();
});

function resolve(extra: Partial<AnalyticsIdOptions> = {}): string {
  return resolveAnalyticsId({ doc: document, storage, now: T, memory: { id: null }, restricted: false, randomUuid: () => 'new-uuid', warn: (m) => warnings.push(m), ...extra });
}

describe('analytics id order (seed §4)', () => {
  test('the seed constants: 390 days, path /', () => {
    expect(ANALYTICS_ID.cookie).toBe('SS_ANALYTICS_ID');
    expect(ANALYTICS_ID.lifetimeDays).toBe(390);
    expect(ANALYTICS_ID.lifetimeSeconds).toBe(33_696_000);
    expect(ANALYTICS_ID.path).toBe('/');
  });

  test('the cookie wins over storage', () => {
    setCookies({ SS_ANALYTICS_ID: 'A1' });
    localStorage.setItem('sf.analyticsId', 'A2');
    localStorage.setItem('sf.analyticsIdExpires', String(T + 1000));
    expect(resolve()).toBe('A1');
  });

  test('then local storage while unexpired; the id is written back to cookie and storage', () => {
    localStorage.setItem('sf.analyticsId', 'A2');
    localStorage.setItem('sf.analyticsIdExpires', String(T + 1));
    expect(resolve()).toBe('A2');
    expect(readCookie('SS_ANALYTICS_ID')).toBe('A2');
    expect(localStorage.getItem('sf.analyticsIdExpires')).toBe(String(T + 33_696_000_000));
  });

  test('an expired stored id is dropped', () => {
    localStorage.setItem('sf.analyticsId', 'A2');
    localStorage.setItem('sf.analyticsIdExpires', String(T));
    expect(resolve({ restricted: true })).toBe('new-uuid');
    expect(localStorage.getItem('sf.analyticsId')).toBeNull();
  });

  test('then memory, else a new UUID (a real one by default)', () => {
    expect(resolve({ memory: { id: 'M1' }, restricted: true })).toBe('M1');
    const memory = { id: null as string | null };
    const id = resolveAnalyticsId({ doc: document, storage, now: T, memory, restricted: true });
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(memory.id).toBe(id);
  });

  test('restricted: nothing is written', () => {
    resolve({ restricted: true });
    expect(readCookie('SS_ANALYTICS_ID')).toBeNull();
    expect(localStorage.getItem('sf.analyticsId')).toBeNull();
  });

  test('the cookie carries max-age 390 days and the matching parent domain', () => {
    const writes: string[] = [];
    vi.spyOn(document, 'cookie', 'set').mockImplementation((v: string) => {
      writes.push(v);
    });
    vi.spyOn(window.location, 'hostname', 'get').mockReturnValue('shop.example.com');
    resolve({ platformDomains: ['other.org', 'example.com'] });
    expect(writes[0]).toContain('SS_ANALYTICS_ID=new-uuid; path=/; max-age=33696000');
    expect(writes[0]).toContain('; domain=example.com');
  });

  test('a store that fails warns "Unable to store analyticsId"', () => {
    const broken: StorageAccess = { get: () => null, set: () => false, remove: () => undefined };
    resolve({ storage: broken });
    expect(warnings).toEqual(['Unable to store analyticsId']);
  });
});

describe('matchingParentDomain', () => {
  test.each([
    ['shop.example.com', ['example.com'], 'example.com'],
    ['example.com', ['.example.com'], 'example.com'],
    ['A.Example.COM.', ['example.com'], 'example.com'],
    ['badexample.com', ['example.com'], null],
    ['localhost', [], null],
  ] as const)('%s in %j → %s', (host, domains, expected) => {
    expect(matchingParentDomain(host, domains)).toBe(expected);
  });
});
