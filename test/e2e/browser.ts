// A minimal HTTP client with a cookie jar, standing in for one visitor's browser in the
// end-to-end suites. Each request may go to a different server (a load balancer without
// stickiness); the jar is what carries the visitor's state between them.
import http from 'node:http';

/**
 * One request on a connection of its own (no keep-alive), the way separate visitors or a
 * load balancer without stickiness reach a server: under `node:cluster` each new
 * connection goes to the next worker.
 */
function send(
  method: string,
  url: string,
  headers: Record<string, string>,
  body: string | undefined,
): Promise<{ status: number; headers: Headers; setCookies: string[]; text: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const flat = new Headers();
        for (const [name, value] of Object.entries(response.headers)) {
          if (value !== undefined && name !== 'set-cookie') flat.set(name, Array.isArray(value) ? value.join(', ') : value);
        }
        resolve({ status: response.statusCode ?? 0, headers: flat, setCookies: response.headers['set-cookie'] ?? [], text: Buffer.concat(chunks).toString('utf8') });
      });
    });
    request.setTimeout(30_000, () => request.destroy(new Error(`${method} ${url}: no answer in 30 s`)));
    request.on('error', reject);
    request.end(body);
  });
}

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  json<T = Record<string, unknown>>(): T;
}

export class Browser {
  readonly cookies = new Map<string, string>();

  /** `base` picks the server for each request: a fixed origin or a rotation. */
  constructor(private readonly base: () => string) {}

  static at(origin: string): Browser {
    return new Browser(() => origin);
  }

  static roundRobin(origins: readonly string[]): Browser {
    let next = 0;
    return new Browser(() => origins[next++ % origins.length]!);
  }

  get crumb(): string | undefined {
    return this.cookies.get('crumb');
  }

  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> {
    const all: Record<string, string> = { ...headers };
    if (this.cookies.size) all.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    if (this.crumb && method !== 'GET') all['x-csrf-token'] = this.crumb;
    if (body !== undefined) all['content-type'] = 'application/json';
    const response = await send(method, this.base() + path, all, body === undefined ? undefined : JSON.stringify(body));
    this.remember(response.setCookies);
    const text = response.text;
    return {
      status: response.status,
      headers: response.headers,
      text,
      json: <T,>() => JSON.parse(text) as T,
    };
  }

  get(path: string, headers?: Record<string, string>): Promise<Reply> {
    return this.request('GET', path, undefined, headers);
  }

  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Reply> {
    return this.request('POST', path, body, headers);
  }

  private remember(setCookies: string[]): void {
    for (const line of setCookies) {
      const [pair = '', ...attributes] = line.split(';');
      const at = pair.indexOf('=');
      if (at < 0) continue;
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === '';
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
}
