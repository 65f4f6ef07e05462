// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { createPage, type Page } from '../test-support/page.ts';

let page: Page;
beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  page?.cleanup();
  vi.useRealTimers();
});

async function client(cookies: Record<string, string> = {}, context: Record<string, unknown> = {}) {
  page = createPage({ body: '', cookies, context });
  await page.boot();
  return page.handle!.runtime.client;
}

describe('A0.2 HTTP client', () => {
  test('SH-7 non-GET requests carry the crumb; GET requests do not need it', async () => {
    const c = await client({ crumb: 'abc' });
    for (const method of ['POST', 'PUT', 'DELETE']) await c.request(method, '/api/x', { json: {} });
    await c.request('GET', '/api/y');
    const calls = page.fetch.calls.filter((call) => call.path.startsWith('/api/x'));
    expect(calls.map((call) => call.headers['x-csrf-token'])).toEqual(['abc', 'abc', 'abc']);
    expect(page.fetch.callsTo('/api/y')[0]!.headers['x-csrf-token']).toBeUndefined();
  });

  test('SH-8 crumbFail with cookies on and off', async () => {
    const c = await client();
    page.fetch.on('POST', '/api/x', { status: 403, json: { crumbFail: true, error: 'Invalid or missing crumb.' } });
    const on = await c.request('POST', '/api/x', { json: {} });
    expect(on.ok ? '' : on.message).toBe('Your session has expired. Please reload the page and try again.');
    const spy = vi.spyOn(window.navigator, 'cookieEnabled', 'get').mockReturnValue(false);
    const off = await c.request('POST', '/api/x', { json: {} });
    spy.mockRestore();
    expect(off.ok ? '' : off.message).toBe('Please enable cookies in your browser, reload the page, and try again.');
  });

  test('SH-9 429 wins over the server message', async () => {
    const c = await client();
    page.fetch.on('POST', '/api/x', { status: 429, json: { error: 'x' } });
    const r = await c.request('POST', '/api/x', { json: {} });
    expect(r.ok ? '' : r.message).toBe('Please try again in a few seconds.');
  });

  test('SH-10 a rejected fetch is a connection message', async () => {
    const c = await client();
    page.fetch.on('POST', '/api/x', 'reject');
    const r = await c.request('POST', '/api/x', { json: {} });
    expect(r.ok ? '' : r.message).toBe('Please check your internet connection.');
  });

  test('SH-11 requests without a body send no JSON content type', async () => {
    const c = await client({ crumb: 'k' });
    await c.request('DELETE', '/api/site-users/account/session?cloneCart=true');
    await c.request('POST', '/api/x', { json: { a: 1 } });
    expect(page.fetch.callsTo('/api/site-users')[0]!.headers['content-type']).toBeUndefined();
    expect(page.fetch.callsTo('/api/site-users')[0]!.body).toBeUndefined();
    expect(page.fetch.callsTo('/api/x')[0]!.headers['content-type']).toBe('application/json');
  });

  test('server message, then the generic fallback', async () => {
    const c = await client();
    page.fetch.on('POST', '/api/a', { status: 400, json: { error: 'Nope' } });
    page.fetch.on('POST', '/api/b', { status: 418, text: '' });
    const a = await c.request('POST', '/api/a');
    const b = await c.request('POST', '/api/b');
    expect(a.ok ? '' : a.message).toBe('Nope');
    expect(b.ok ? '' : b.message).toBe('Unknown error, please try again later.');
  });

  test('credentials are same-origin and a timeout aborts as a network failure', async () => {
    const c = await client();
    page.fetch.on('POST', '/api/slow', 'hang');
    const pending = c.request('POST', '/api/slow', { timeoutMs: 2500 });
    await page.advance(2500);
    const r = await pending;
    expect(r.ok ? '' : r.message).toBe('Please check your internet connection.');
    const init = (globalThis.fetch as unknown as { mock: { calls: Array<[string, RequestInit]> } }).mock.calls[0]![1];
    expect(init.credentials).toBe('same-origin');
  });
});
