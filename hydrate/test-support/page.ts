/**
 * Test-only harness for island tests in happy-dom: builds a page (markup, sf-context,
 * cookies), stubs `fetch` with canned answers that arrive on fake-timer time, and boots the
 * islands while collecting every recoverable hydration error.
 */
import { act } from 'react';
import { vi } from 'vitest';
import { boot, type BootHandle } from '../boot.ts';
import { CONTEXT_SCRIPT_ID, ISLAND_PROTOCOL_VERSION, PROTOCOL_VERSION_ATTR } from '../protocol/markers.ts';
import { serializeProps } from '../protocol/props.ts';
import { overrideEnv, type Size } from '../runtime/env.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

export interface RecordedCall {
  method: string;
  url: string;
  path: string;
  headers: Record<string, string>;
  body: string | undefined;
  json: unknown;
  keepalive: boolean;
  at: number;
}

export type Answer =
  | { status?: number; json?: unknown; text?: string; delayMs?: number; setCookie?: string }
  | 'reject'
  | 'hang';

export type Route = (call: RecordedCall) => Answer | undefined;

export interface FetchStub {
  calls: RecordedCall[];
  callsTo(pathPrefix: string, method?: string): RecordedCall[];
  /** Routes tried in order; the first that answers wins. Unmatched calls get 200 `{}`. */
  routes: Route[];
  on(method: string, pathPrefix: string, answer: Answer | ((call: RecordedCall) => Answer)): void;
}

export function stubFetch(): FetchStub {
  const stub: FetchStub = {
    calls: [],
    routes: [],
    callsTo(prefix, method) {
      return stub.calls.filter((c) => c.path.startsWith(prefix) && (!method || c.method === method));
    },
    on(method, prefix, answer) {
      stub.routes.push((call) =>
        call.method === method && call.path.startsWith(prefix) ? (typeof answer === 'function' ? answer(call) : answer) : undefined,
      );
    },
  };
  const fetchImpl = (input: string | URL, init: RequestInit = {}): Promise<Response> => {
    const url = String(input);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries((init.headers ?? {}) as Record<string, string>)) headers[k.toLowerCase()] = v;
    const body = typeof init.body === 'string' ? init.body : undefined;
    let json: unknown;
    try {
      json = body !== undefined ? JSON.parse(body) : undefined;
    } catch {
      json = undefined;
    }
    const call: RecordedCall = {
      method: (init.method ?? 'GET').toUpperCase(),
      url,
      path: url,
      headers,
      body,
      json,
      keepalive: init.keepalive === true,
      at: Date.now(),
    };
    stub.calls.push(call);
    let answer: Answer | undefined;
    for (const route of stub.routes) {
      answer = route(call);
      if (answer !== undefined) break;
    }
    answer ??= { status: 200, json: {} };
    if (answer === 'reject') return Promise.reject(new TypeError('Failed to fetch'));
    const signal = init.signal;
    if (answer === 'hang') {
      return new Promise((_, reject) => {
        signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      });
    }
    const a = answer;
    return new Promise((resolve, reject) => {
      const respond = () => {
        if (a.setCookie) document.cookie = a.setCookie;
        const text = a.text ?? (a.json === undefined ? '' : JSON.stringify(a.json));
        resolve(new Response(text, { status: a.status ?? 200, headers: { 'content-type': 'application/json' } }));
      };
      signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      if (a.delayMs) setTimeout(respond, a.delayMs);
      else respond();
    });
  };
  vi.stubGlobal('fetch', vi.fn(fetchImpl));
  return stub;
}

export function clearCookies(): void {
  for (const part of document.cookie.split(';')) {
    const name = part.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; path=/; max-age=0; expires=Thu, 01 Jan 1970 00:00:00 GMT`;
  }
}

export function setCookies(cookies: Record<string, string>): void {
  for (const [name, value] of Object.entries(cookies)) document.cookie = `${name}=${value}; path=/`;
}

export interface PageSetup {
  body: string;
  context?: Record<string, unknown>;
  cookies?: Record<string, string>;
  /** Stubbed layout: width/height for any element (default 600 × 400). */
  measure?: (el: Element) => Size;
}

export interface Page {
  fetch: FetchStub;
  navigate: ReturnType<typeof vi.fn>;
  reload: ReturnType<typeof vi.fn>;
  recoverableErrors: unknown[];
  consoleErrors: unknown[][];
  handle: BootHandle | null;
  boot(): Promise<BootHandle>;
  /** Advances fake time inside act, letting responses and React updates settle. */
  advance(ms: number): Promise<void>;
  /** Runs a DOM interaction inside act. */
  act(fn: () => void): Promise<void>;
  cleanup(): void;
}

export function contextBlock(context: Record<string, unknown>): string {
  const out = serializeProps(context);
  if (!out.ok) throw new Error(out.error.code);
  return `<script type="application/json" id="${CONTEXT_SCRIPT_ID}" ${PROTOCOL_VERSION_ATTR}="${ISLAND_PROTOCOL_VERSION}">${out.text}</script>`;
}

export function createPage(setup: PageSetup): Page {
  clearCookies();
  document.documentElement.className = '';
  document.body.innerHTML = setup.body + contextBlock(setup.context ?? {});
  if (setup.cookies) setCookies(setup.cookies);
  const fetch = stubFetch();
  const navigate = vi.fn();
  const reload = vi.fn();
  const restoreEnv = overrideEnv({ navigate, reload, measure: setup.measure ?? (() => ({ width: 600, height: 400 })) });
  const consoleErrors: unknown[][] = [];
  const consoleSpy = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    consoleErrors.push(args);
  });
  const page: Page = {
    fetch,
    navigate,
    reload,
    recoverableErrors: [],
    consoleErrors,
    handle: null,
    async boot() {
      await act(async () => {
        page.handle = await boot({ onRecoverableError: (error) => page.recoverableErrors.push(error) });
      });
      return page.handle!;
    },
    async advance(ms) {
      await act(async () => {
        await vi.advanceTimersByTimeAsync(ms);
      });
    },
    async act(fn) {
      await act(async () => {
        fn();
      });
    },
    cleanup() {
      page.handle?.unmount();
      restoreEnv();
      consoleSpy.mockRestore();
      vi.unstubAllGlobals();
      document.querySelectorAll('.sf-alert, .sf-lightbox, .sf-bnpl-modal').forEach((el) => el.remove());
    },
  };
  return page;
}

/** Key events as a browser sends them to the focused element. */
export function press(target: Element, key: string, init: KeyboardEventInit = {}): void {
  target.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init }));
}

export function click(target: Element): void {
  (target as HTMLElement).click();
}

export function alertText(): { title: string; message: string } | null {
  const el = document.querySelector('.sf-alert');
  if (!el) return null;
  return {
    title: el.querySelector('.sf-alert-title')?.textContent ?? '',
    message: el.querySelector('.sf-alert-message')?.textContent ?? '',
  };
}

/** Sets a form control's value and fires the events React listens to. */
export function typeInto(input: HTMLInputElement | HTMLTextAreaElement, value: string): void {
  const proto = input instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  Object.getOwnPropertyDescriptor(proto, 'value')!.set!.call(input, value);
  input.dispatchEvent(new Event('input', { bubbles: true }));
  input.dispatchEvent(new Event('change', { bubbles: true }));
}

export function choose(select: HTMLSelectElement, value: string): void {
  select.value = value;
  select.dispatchEvent(new Event('change', { bubbles: true }));
}
