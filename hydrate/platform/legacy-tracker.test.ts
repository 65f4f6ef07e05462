// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { clearCookies, setCookies, stubFetch, type FetchStub } from '../test-support/page.ts';
import { createLegacyTracker, type LegacyPayload } from './legacy-tracker.ts';

const payload: LegacyPayload = {
  websiteId: 'w1',
  memberAccountId: null,
  website_locale: 'en-US',
  member_locale: null,
  templateId: 't1',
  variantId: null,
  pageHash: '',
  pagePath: '/shop',
};

let fetch: FetchStub;
let warnings: string[];
beforeEach(() => {
  clearCookies();
  fetch = stubFetch();
  warnings = [];
});
afterEach(() => vi.unstubAllGlobals());

const tracker = () => createLegacyTracker({ doc: document, origin: 'https://site.test', warn: (m) => warnings.push(m) });

describe('legacy tracker (seed §7, STOREFRONT B25)', () => {
  test('POSTs {origin}/api/events/RecordEvent form-encoded with the crumb cookie, event and JSON data', async () => {
    setCookies({ crumb: 'c123' });
    fetch.on('POST', 'https://site.test/api/events/RecordEvent', { status: 204 });
    await tracker().recordEvent('page_view', payload);
    const [call] = fetch.calls;
    expect(call!.method).toBe('POST');
    expect(call!.url).toBe('https://site.test/api/events/RecordEvent');
    expect(call!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    const form = new URLSearchParams(call!.body);
    expect([...form.keys()]).toEqual(['crumb', 'event', 'data']);
    expect(form.get('crumb')).toBe('c123');
    expect(form.get('event')).toBe('page_view');
    expect(JSON.parse(form.get('data')!)).toEqual(payload);
    expect(warnings).toEqual([]);
  });

  test('any 2xx is success', async () => {
    fetch.on('POST', 'https://site.test/', { status: 200 });
    await expect(tracker().recordEvent('e', payload)).resolves.toBeUndefined();
  });

  test('a failed request warns and rejects with "Error tracking event: HTTP Status {code}"', async () => {
    fetch.on('POST', 'https://site.test/', { status: 403, json: { crumbFail: true } });
    await expect(tracker().recordEvent('e', payload)).rejects.toThrow(/^Error tracking event: HTTP Status 403$/);
    expect(warnings).toEqual(['Error tracking event: HTTP Status 403']);
  });

  test('a network failure reports status 0', async () => {
    fetch.on('POST', 'https://site.test/', 'reject');
    await expect(tracker().recordEvent('e', payload)).rejects.toThrow('Error tracking event: HTTP Status 0');
  });

  test('no payload rejects with "no payload" and sends nothing', async () => {
    await expect(tracker().recordEvent('e', null)).rejects.toThrow(/^no payload$/);
    await expect(tracker().recordEvent('e', undefined)).rejects.toThrow('no payload');
    expect(fetch.calls).toEqual([]);
  });
});
