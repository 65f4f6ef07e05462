import { API_ERROR, hasApiError } from '../shared/api-error-codes.ts';
import { showDirectionControls } from '../shared/direction-controls.ts';
import { EDITOR_MESSAGES } from '../shared/editor-messages.ts';

// The admin app's one way to the server: JSON in and out, the owner session's CSRF token on
// every call that changes something, and the B0.2 error body read into a message and code.

export const OWNER_CSRF_HEADER = 'x-owner-csrf';

/**
 * A change refused because the owner's session has ended (expired, signed out in another tab):
 * said where the change was made, instead of the guard's "Admin authorization required.", and
 * the app asks for the password again over the page (admin-app.tsx), which keeps what was typed.
 */
export const SESSION_ENDED_MESSAGE = 'Not saved: your session has ended. Sign in again, then save once more.';

export type ApiResult<T> = { ok: true; status: number; body: T } | { ok: false; status: number | null; code: string; message: string; errors: Record<string, string> };

export interface AdminApi {
  get<T>(url: string): Promise<ApiResult<T>>;
  send<T>(method: 'POST' | 'PUT' | 'DELETE', url: string, json?: unknown): Promise<ApiResult<T>>;
  setCsrf(token: string | null): void;
}

function failure(status: number | null, body: unknown): ApiResult<never> {
  const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const code = typeof record.code === 'string' ? record.code : status === null ? 'NETWORK' : 'UNKNOWN';
  // A network failure and an answer without the error body get the seed's editor wording.
  const message =
    status === null ? EDITOR_MESSAGES.networkError : typeof record.error === 'string' && record.error !== '' ? record.error : EDITOR_MESSAGES.somethingWentWrong;
  const errors = typeof record.errors === 'object' && record.errors !== null ? (record.errors as Record<string, string>) : {};
  return { ok: false, status, code, message, errors };
}

/** A `JSON.parse` reviver: visitors' strings with their direction controls shown (shared/direction-controls.ts). */
function shownControls(_key: string, value: unknown): unknown {
  return typeof value === 'string' ? showDirectionControls(value) : value;
}

export function createAdminApi(fetchImpl: () => typeof fetch = () => globalThis.fetch, onSignedOut: () => void = () => {}): AdminApi {
  let csrf: string | null = null;
  /**
   * A write refused for its CSRF token (403 OWNER_CSRF_FAIL) was not carried out: the owner
   * signed in again in another tab, which gave the session a new token. The session is read
   * again; still signed in, the write is sent once more with its token, else the app goes back
   * to the sign-in form. Before, every save of the older tab failed until it was reloaded, and
   * its Sign out left the session signed in.
   */
  async function call<T>(method: string, url: string, json?: unknown): Promise<ApiResult<T>> {
    const result = await callOnce<T>(method, url, json);
    if (result.ok || method === 'GET' || result.status !== 403 || result.code !== API_ERROR.OWNER_CSRF_FAIL) return result;
    const session = await callOnce<{ owner: unknown; csrfToken: unknown }>('GET', '/api/admin/session');
    if (!session.ok) return result;
    if (session.body.owner === null || typeof session.body.csrfToken !== 'string') {
      csrf = null;
      onSignedOut();
      return { ...result, message: SESSION_ENDED_MESSAGE };
    }
    if (session.body.csrfToken === csrf) return result;
    csrf = session.body.csrfToken;
    return callOnce<T>(method, url, json);
  }
  async function callOnce<T>(method: string, url: string, json?: unknown): Promise<ApiResult<T>> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (json !== undefined) headers['content-type'] = 'application/json';
    if (method !== 'GET' && csrf) headers[OWNER_CSRF_HEADER] = csrf;
    let response: Response;
    try {
      response = await fetchImpl()(url, { method, headers, credentials: 'same-origin', body: json === undefined ? undefined : JSON.stringify(json) });
    } catch {
      return failure(null, null);
    }
    let body: unknown = null;
    try {
      body = JSON.parse(await response.text(), shownControls);
    } catch {
      body = null;
    }
    if (response.ok) return { ok: true, status: response.status, body: body as T };
    const result = failure(response.status, body);
    // The session ended (signed out elsewhere, expired): back to the sign-in form.
    if (!result.ok && response.status === 401 && hasApiError(result, API_ERROR.ADMIN_REQUIRED, API_ERROR.OWNER_REQUIRED)) {
      onSignedOut();
      if (method !== 'GET') return { ...result, message: SESSION_ENDED_MESSAGE };
    }
    return result;
  }
  return {
    get: (url) => call('GET', url),
    send: (method, url, json) => call(method, url, json),
    setCsrf(token) {
      csrf = token;
    },
  };
}

/**
 * A date the API gives as ISO text or epoch milliseconds, for a table cell: in the owner's own
 * time zone (the browser's), with the zone's short name after it ("2026-01-15 13:30 GMT+1"),
 * so an owner away from UTC reads the time their clock showed and nobody has to guess which
 * zone it is. The digits stay year-month-day and 24-hour in every locale: one column sorts
 * and reads the same for every owner. `timeZone` is for tests.
 */
export function shortDate(value: unknown, timeZone?: string): string {
  const millis = typeof value === 'number' ? value : typeof value === 'string' ? Date.parse(value) : NaN;
  if (!Number.isFinite(millis)) return '';
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
  }).formatToParts(new Date(millis));
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((entry) => entry.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')} ${part('timeZoneName')}`;
}
