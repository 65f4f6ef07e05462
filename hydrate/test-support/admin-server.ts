/**
 * Test-only stand-in for the server behind the admin app's panels: each call is recorded as
 * "METHOD url" (with its JSON body and headers) and answered by `routes`, so a panel test states the
 * contract it codes against. Give `fetch` to createAdminApi.
 */
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
