import { describe, expect, it } from 'vitest';
import { createAdminApi, OWNER_CSRF_HEADER, SESSION_ENDED_MESSAGE, shortDate } from './admin-api.ts';

function fakeFetch(answer: () => Promise<Response>) {
  const calls: { url: string; init: RequestInit }[] = [];
  const impl = (async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return answer();
  }) as unknown as typeof fetch;
  return { calls, impl: () => impl };
}

const json = (status: number, body: unknown) => async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('admin API client', () => {
  it('sends the CSRF token on writes only', async () => {
    const fake = fakeFetch(json(200, { ok: 1 }));
    const api = createAdminApi(fake.impl);
    api.setCsrf('token-1');
    await api.get('/api/admin/inventory');
    await api.send('PUT', '/api/x', { a: 1 });
    const headers = fake.calls.map((c) => c.init.headers as Record<string, string>);
    expect(headers[0]![OWNER_CSRF_HEADER]).toBeUndefined();
    expect(headers[1]![OWNER_CSRF_HEADER]).toBe('token-1');
    expect(fake.calls[1]!.init.body).toBe('{"a":1}');
  });

  it('shows the characters that reorder text in every string a visitor could have sent', async () => {
    const body = { submissions: [{ values: { name: '\u202egnp.exe', note: 'a\u2066b\u2069', plain: 'مرحبا world', n: 3 } }] };
    const api = createAdminApi(fakeFetch(json(200, body)).impl);
    expect(await api.get('/api/admin/submissions')).toEqual({
      ok: true,
      status: 200,
      body: { submissions: [{ values: { name: '[U+202E]gnp.exe', note: 'a[U+2066]b[U+2069]', plain: 'مرحبا world', n: 3 } }] },
    });
  });

  it('reads the error body; a 401 from the guard signs the app out', async () => {
    let signedOut = 0;
    const api = createAdminApi(fakeFetch(json(401, { error: 'Admin authorization required.', code: 'ADMIN_REQUIRED' })).impl, () => signedOut++);
    expect(await api.get('/api/admin/inventory')).toEqual({ ok: false, status: 401, code: 'ADMIN_REQUIRED', message: 'Admin authorization required.', errors: {} });
    expect(signedOut).toBe(1);
    // A change refused for the ended session says so where it was made.
    expect(await api.send('PUT', '/api/x', { a: 1 })).toMatchObject({ ok: false, status: 401, message: SESSION_ENDED_MESSAGE });
    expect(signedOut).toBe(2);
  });

  it('a network failure and a body without an error use the seed editor wording', async () => {
    const offline = createAdminApi(fakeFetch(() => Promise.reject(new TypeError('offline'))).impl);
    expect(await offline.get('/x')).toMatchObject({ ok: false, status: null, code: 'NETWORK', message: 'Network error.' });
    const broken = createAdminApi(fakeFetch(async () => new Response('<html>', { status: 502 })).impl);
    expect(await broken.get('/x')).toMatchObject({ ok: false, status: 502, code: 'UNKNOWN', message: 'Something went wrong.' });
  });

  it('a write refused for a stale CSRF token (signed in again in another tab) takes the session\'s new token and is sent once more', async () => {
    const answers = [json(403, { error: 'Invalid or missing CSRF token.', code: 'OWNER_CSRF_FAIL' }), json(200, { owner: { email: 'o@example.com' }, csrfToken: 'token-2' }), json(200, { ok: 1 })];
    const fake = fakeFetch(() => answers.shift()!());
    const api = createAdminApi(fake.impl);
    api.setCsrf('token-1');
    expect(await api.send('PUT', '/api/x', { a: 1 })).toEqual({ ok: true, status: 200, body: { ok: 1 } });
    expect(fake.calls.map((c) => `${c.init.method} ${c.url} ${(c.init.headers as Record<string, string>)[OWNER_CSRF_HEADER] ?? '-'}`)).toEqual([
      'PUT /api/x token-1',
      'GET /api/admin/session -',
      'PUT /api/x token-2',
    ]);
  });

  it('a stale token whose session has ended signs the app out; the same token again is not retried', async () => {
    let signedOut = 0;
    const refused = json(403, { error: 'Invalid or missing CSRF token.', code: 'OWNER_CSRF_FAIL' });
    const ended = [refused, json(200, { owner: null, csrfToken: null })];
    const api = createAdminApi(fakeFetch(() => ended.shift()!()).impl, () => signedOut++);
    api.setCsrf('token-1');
    expect(await api.send('DELETE', '/api/admin/session')).toMatchObject({ ok: false, status: 403, code: 'OWNER_CSRF_FAIL', message: SESSION_ENDED_MESSAGE });
    expect(signedOut).toBe(1);
    const same = [refused, json(200, { owner: { email: 'o@example.com' }, csrfToken: 'token-1' })];
    const fake = fakeFetch(() => same.shift()!());
    const again = createAdminApi(fake.impl);
    again.setCsrf('token-1');
    expect(await again.send('PUT', '/api/x')).toMatchObject({ ok: false, code: 'OWNER_CSRF_FAIL' });
    expect(fake.calls).toHaveLength(2);
  });

  it('shortDate takes ISO text or epoch milliseconds and shows it in the given (by default the owner\'s) time zone, named', () => {
    expect(shortDate('2026-01-15T12:30:00.000Z', 'UTC')).toBe('2026-01-15 12:30 UTC');
    expect(shortDate(Date.UTC(2026, 0, 15, 12, 30), 'UTC')).toBe('2026-01-15 12:30 UTC');
    expect(shortDate(Date.UTC(2026, 0, 15, 12, 30), 'Europe/Berlin')).toBe('2026-01-15 13:30 GMT+1');
    expect(shortDate(Date.UTC(2026, 6, 15, 12, 30), 'America/New_York')).toBe('2026-07-15 08:30 EDT');
    // Past midnight in the owner's zone is the next day there.
    expect(shortDate(Date.UTC(2026, 0, 15, 23, 30), 'Asia/Tokyo')).toBe('2026-01-16 08:30 GMT+9');
    expect(shortDate(Date.UTC(2026, 0, 15, 0, 5), 'UTC')).toBe('2026-01-15 00:05 UTC');
    // Without a zone: the browser's own.
    expect(shortDate(Date.UTC(2026, 0, 15, 12, 30))).toBe(shortDate(Date.UTC(2026, 0, 15, 12, 30), Intl.DateTimeFormat().resolvedOptions().timeZone));
    expect(shortDate('nonsense')).toBe('');
  });
});
