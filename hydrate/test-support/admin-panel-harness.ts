/**
 * Test-only harness for the admin app's panels in happy-dom: a stand-in for the server
 * behind them (each call recorded as "METHOD url" with its JSON body and headers, and
 * answered by `routes`, so a panel test states the contract it codes against) and a mount
 * that renders one panel over it through the real createAdminApi.
 */
import { act, createElement, type ComponentType } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { createAdminApi } from '../admin/admin-api.ts';
import type { PanelProps } from '../admin/admin-app.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

export interface FakeAnswer {
  status: number;
  body: unknown;
}

export interface FakeAdminServer {
  calls: string[];
  bodies: unknown[];
  headers: Record<string, string>[];
  fetch: () => typeof fetch;
}

export function fakeAdminServer(routes: (method: string, url: string, body: unknown) => FakeAnswer): FakeAdminServer {
  const calls: string[] = [];
  const bodies: unknown[] = [];
  const headers: Record<string, string>[] = [];
  const impl = (async (url: string, init: RequestInit) => {
    calls.push(`${init.method} ${url}`);
    const body = init.body ? JSON.parse(String(init.body)) : undefined;
    bodies.push(body);
    headers.push({ ...(init.headers as Record<string, string>) });
    const answer = routes(init.method ?? 'GET', url, body);
    return new Response(JSON.stringify(answer.body), { status: answer.status, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof fetch;
  return { calls, bodies, headers, fetch: () => impl };
}

const mounted: { root: Root; host: HTMLElement }[] = [];

/** Renders `Panel` over `server` (signed in with `csrf` when given) and waits for its first reads. */
export async function mountPanel(Panel: ComponentType<PanelProps>, server: FakeAdminServer, options: { csrf?: string } = {}): Promise<HTMLElement> {
  const host = document.createElement('div');
  document.body.append(host);
  const root = createRoot(host);
  mounted.push({ root, host });
  const api = createAdminApi(server.fetch);
  if (options.csrf) api.setCsrf(options.csrf);
  await act(async () => root.render(createElement(Panel, { api, track: () => {} })));
  await act(async () => {});
  return host;
}

/** Unmounts every panel mounted so far (a test file's afterEach). */
export function unmountPanels(): void {
  for (const { root, host } of mounted.splice(0)) {
    act(() => root.unmount());
    host.remove();
  }
}
