import { cookiesEnabled, readCookie } from './cookies.ts';

/** A0.2 failure messages, quoted from the seeds. */
export const MESSAGES = {
  sessionExpired: 'Your session has expired. Please reload the page and try again.',
  enableCookies: 'Please enable cookies in your browser, reload the page, and try again.',
  rateLimited: 'Please try again in a few seconds.',
  network: 'Please check your internet connection.',
  unknown: 'Unknown error, please try again later.',
} as const;

export type FailureKind = 'crumb' | 'rate-limit' | 'server-message' | 'network' | 'unknown';

export type HttpResult =
  | { ok: true; status: number; body: unknown }
  | {
      ok: false;
      /** null when fetch itself rejected or timed out. */
      status: number | null;
      body: unknown;
      /** true when a response arrived but its body was not JSON (empty bodies count as JSON null). */
      bodyNotJson: boolean;
      kind: FailureKind;
      message: string;
    };

export interface RequestOptions {
  /** Sent as JSON with `content-type: application/json`. */
  json?: unknown;
  /** Sent as is (for form-encoded analytics). */
  body?: string;
  contentType?: string;
  timeoutMs?: number;
  keepalive?: boolean;
  /** Return the body as text instead of parsing JSON (static HTML fragments). */
  rawText?: boolean;
}

export interface HttpClient {
  request(method: string, url: string, options?: RequestOptions): Promise<HttpResult>;
  setSiteUserXsrf(token: string | null): void;
  siteUserXsrf(): string | null;
}

export const XSRF_STORAGE_KEY = 'sf.siteUserXsrf';

function bodyField(body: unknown, name: string): unknown {
  return typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[name] : undefined;
}

/** A0.2 message order: crumbFail, 429, server `error` text, network, fallback. */
export function failureOf(status: number | null, body: unknown, doc: Document = document): { kind: FailureKind; message: string } {
  if (bodyField(body, 'crumbFail') === true) {
    return { kind: 'crumb', message: cookiesEnabled(doc) ? MESSAGES.sessionExpired : MESSAGES.enableCookies };
  }
  if (status === 429) return { kind: 'rate-limit', message: MESSAGES.rateLimited };
  const error = bodyField(body, 'error');
  if (typeof error === 'string' && error !== '') return { kind: 'server-message', message: error };
  if (status === null) return { kind: 'network', message: MESSAGES.network };
  return { kind: 'unknown', message: MESSAGES.unknown };
}

export interface HttpClientOptions {
  doc?: Document;
  /** Initial site-user token (sf-context.siteUser.xsrfToken). */
  siteUserXsrf?: string | null;
  fetchImpl?: () => typeof fetch;
}

export function createHttpClient(options: HttpClientOptions = {}): HttpClient {
  const doc = options.doc ?? document;
  const getFetch = options.fetchImpl ?? (() => globalThis.fetch);
  let xsrf: string | null = options.siteUserXsrf ?? null;
  if (!xsrf) {
    try {
      xsrf = doc.defaultView?.sessionStorage.getItem(XSRF_STORAGE_KEY) ?? null;
    } catch {
      xsrf = null;
    }
  }

  async function request(method: string, url: string, opts: RequestOptions = {}): Promise<HttpResult> {
    const headers: Record<string, string> = {};
    let body: string | undefined;
    if (opts.json !== undefined) {
      body = JSON.stringify(opts.json);
      headers['content-type'] = 'application/json';
    } else if (opts.body !== undefined) {
      body = opts.body;
      if (opts.contentType) headers['content-type'] = opts.contentType;
    }
    if (method.toUpperCase() !== 'GET') {
      // Read at send time: a crumb failure response replaces the cookie, and a retry must use the new one.
      const crumb = readCookie('crumb', doc);
      if (crumb) headers['X-CSRF-Token'] = crumb;
    }
    if (xsrf) headers['X-SiteUser-XSRF-Token'] = xsrf;

    const controller = opts.timeoutMs !== undefined ? new AbortController() : null;
    const timer = controller ? setTimeout(() => controller.abort(), opts.timeoutMs) : null;
    let response: Response;
    try {
      const init: RequestInit = { method, headers, credentials: 'same-origin' };
      if (body !== undefined) init.body = body;
      if (controller) init.signal = controller.signal;
      if (opts.keepalive) init.keepalive = true;
      response = await getFetch()(url, init);
    } catch {
      if (timer) clearTimeout(timer);
      return { ok: false, status: null, body: null, bodyNotJson: false, ...failureOf(null, null, doc) };
    }
    let parsed: unknown = null;
    let bodyNotJson = false;
    try {
      const text = await response.text();
      if (opts.rawText) {
        parsed = text;
      } else if (text.trim() !== '') {
        try {
          parsed = JSON.parse(text);
        } catch {
          bodyNotJson = true;
        }
      }
    } catch {
      if (timer) clearTimeout(timer);
      return { ok: false, status: null, body: null, bodyNotJson: false, ...failureOf(null, null, doc) };
    }
    if (timer) clearTimeout(timer);
    if (response.ok) return { ok: true, status: response.status, body: parsed };
    return { ok: false, status: response.status, body: parsed, bodyNotJson, ...failureOf(response.status, parsed, doc) };
  }

  return {
    request,
    setSiteUserXsrf(token) {
      xsrf = token;
      try {
        const storage = doc.defaultView?.sessionStorage;
        if (token) storage?.setItem(XSRF_STORAGE_KEY, token);
        else storage?.removeItem(XSRF_STORAGE_KEY);
      } catch {
        // Storage can be disabled (private mode); the in-memory token still works for this page.
      }
    },
    siteUserXsrf: () => xsrf,
  };
}
