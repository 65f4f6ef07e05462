// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { createPage, type Page } from '../test-support/page.ts';

let page: Page;
beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  page?.cleanup();
  vi.useRealTimers();
});

const posts = () => page.fetch.callsTo('/api/events/RecordJavascriptErrors', 'POST');

async function reporter(cookies: Record<string, string> = {}) {
  page = createPage({ body: '', cookies });
  await page.boot();
  return page.handle!.runtime.reporter;
}

describe('A11 error reporter', () => {
  test('ERR-1 one report is sent 1000 ms later', async () => {
    const r = await reporter();
    r.reportError('x', { a: 1 });
    await page.advance(999);
    expect(posts()).toHaveLength(0);
    await page.advance(1);
    expect(posts()).toHaveLength(1);
    const body = posts()[0]!.json as Array<Record<string, unknown>>;
    expect(body).toHaveLength(1);
    expect(body[0]).toMatchObject({ event: 'x', data: { a: 1 } });
    expect(typeof body[0]!.timestamp).toBe('number');
  });

  test('ERR-2 the debounce restarts on every report', async () => {
    const r = await reporter();
    r.reportError('a');
    await page.advance(500);
    r.reportError('b');
    await page.advance(400);
    r.reportError('c');
    await page.advance(999);
    expect(posts()).toHaveLength(0);
    await page.advance(1);
    expect(posts()).toHaveLength(1);
    expect((posts()[0]!.json as unknown[]).length).toBe(3);
  });

  test('ERR-3 a burst of 12 sends the first 10', async () => {
    const r = await reporter();
    for (let i = 0; i < 12; i++) r.reportError(`e${i}`);
    await page.advance(1000);
    expect((posts()[0]!.json as Array<{ event: string }>).map((x) => x.event)).toEqual(
      Array.from({ length: 10 }, (_, i) => `e${i}`),
    );
  });

  test('ERR-4 at most 20 reports per page', async () => {
    const r = await reporter();
    for (let burst = 0; burst < 3; burst++) {
      for (let i = 0; i < 10; i++) r.reportError(`b${burst}-${i}`);
      await page.advance(1000);
    }
    expect(posts()).toHaveLength(2);
    expect(posts().reduce((n, p) => n + (p.json as unknown[]).length, 0)).toBe(20);
  });

  test('ERR-5 stacks are cut to 5000 characters', async () => {
    const r = await reporter();
    const stack = 'abcdefghij'.repeat(600);
    r.reportError('x', { stack });
    await page.advance(1000);
    const sent = (posts()[0]!.json as Array<{ data: { stack: string } }>)[0]!.data.stack;
    expect(sent).toHaveLength(5000);
    expect(sent).toBe(stack.slice(0, 5000));
  });

  test('ERR-6 crumb header and JSON content type', async () => {
    const r = await reporter({ crumb: 'k' });
    r.reportError('x');
    await page.advance(1000);
    expect(posts()[0]!.headers['x-csrf-token']).toBe('k');
    expect(posts()[0]!.headers['content-type']).toBe('application/json');
  });

  test.each(['500', 'reject'] as const)('ERR-7 / ERR-12 a failed send (%s) is not retried nor reported', async (mode) => {
    const r = await reporter();
    page.fetch.on('POST', '/api/events/RecordJavascriptErrors', mode === 'reject' ? 'reject' : { status: 500, json: {} });
    r.reportError('x');
    await page.advance(1000);
    await page.advance(5000);
    expect(posts()).toHaveLength(1);
    expect(r.queued()).toHaveLength(0);
    expect(r.accepted()).toBe(1);
  });

  test('ERR-8 an error escaping an event handler is queued as uncaught_error', async () => {
    const r = await reporter();
    window.dispatchEvent(new ErrorEvent('error', { message: 'boom', error: new Error('boom'), filename: 'a.js', lineno: 3, colno: 4 }));
    expect(r.queued()).toHaveLength(1);
    expect(r.queued()[0]).toMatchObject({ event: 'uncaught_error', data: { message: 'boom', filename: 'a.js', lineno: 3, colno: 4 } });
    expect(typeof r.queued()[0]!.data.url).toBe('string');
  });

  test('ERR-9 an unhandled rejection is queued', async () => {
    const r = await reporter();
    const event = new Event('unhandledrejection') as Event & { reason: unknown };
    Object.defineProperty(event, 'reason', { value: new Error('nope') });
    window.dispatchEvent(event);
    expect(r.queued()).toHaveLength(1);
    expect(r.queued()[0]).toMatchObject({ event: 'unhandled_rejection', data: { message: 'nope' } });
  });

  test("ERR-12 a report's url leaves out a password reset link's token (it rides in the fragment)", async () => {
    history.replaceState(null, '', '/members#reset-password=Secret_Token-123');
    try {
      const r = await reporter();
      window.dispatchEvent(new ErrorEvent('error', { message: 'boom', error: new Error('boom') }));
      const event = new Event('unhandledrejection') as Event & { reason: unknown };
      Object.defineProperty(event, 'reason', { value: new Error('nope') });
      window.dispatchEvent(event);
      expect(r.queued().map((report) => report.data.url)).toEqual([`${location.origin}/members#reset-password`, `${location.origin}/members#reset-password`]);
    } finally {
      history.replaceState(null, '', '/');
    }
  });
});
