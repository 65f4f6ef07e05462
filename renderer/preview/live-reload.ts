import fs from 'node:fs';
import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';

// Live reload for the author preview: a Server-Sent Events stream that announces each new
// version of the site, and a folder watcher that debounces bursts of editor writes.

export const EVENTS_PATH = '/__quire/events';

/** Keeps proxies and the browser from dropping an idle stream. */
const HEARTBEAT_MS = 15_000;

export class ReloadHub {
  private readonly clients = new Set<ServerResponse>();
  private heartbeat: NodeJS.Timeout | null = null;
  version = 1;

  get clientCount(): number {
    return this.clients.size;
  }

  /** `GET /__quire/events`: a `hello` with the current version, then one `reload` per change. */
  register(app: FastifyInstance): void {
    app.get(EVENTS_PATH, (request, reply) => {
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive',
      });
      res.write(`retry: 500\nevent: hello\ndata: ${JSON.stringify({ version: this.version })}\n\n`);
      this.clients.add(res);
      request.raw.once('close', () => this.clients.delete(res));
      this.heartbeat ??= setInterval(() => this.send(': ping\n\n'), HEARTBEAT_MS).unref();
    });
    // Open streams would keep the server from closing.
    app.addHook('preClose', (done) => {
      this.closeAll();
      done();
    });
  }

  /** Tells every open page that version `version` is ready. */
  announce(detail: Record<string, unknown> = {}): void {
    this.version++;
    this.send(`event: reload\ndata: ${JSON.stringify({ version: this.version, ...detail })}\n\n`);
  }

  closeAll(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    for (const res of this.clients) res.end();
    this.clients.clear();
  }

  private send(text: string): void {
    for (const res of this.clients) res.write(text);
  }
}

/**
 * The script the preview adds to every HTML page. It reloads on a `reload` event, and also
 * when a reconnect's `hello` shows a version the page was not rendered from (an event
 * missed while the connection was down, or a restarted preview).
 */
export function reloadScript(version: number): string {
  return (
    `<script data-quire-preview>(()=>{const v=${version};const s=new EventSource(${JSON.stringify(EVENTS_PATH)});` +
    `s.addEventListener('reload',()=>location.reload());` +
    `s.addEventListener('hello',(e)=>{if(JSON.parse(e.data).version!==v)location.reload()});})()</script>`
  );
}

/** Adds `fragment` before the last `</body>`, or at the end when the page has none. */
export function injectBeforeBodyEnd(html: string, fragment: string): string {
  const at = html.toLowerCase().lastIndexOf('</body>');
  return at < 0 ? html + fragment : html.slice(0, at) + fragment + html.slice(at);
}

/** Files whose change matters to the preview (editors also write swap and backup files). */
export function isSiteFile(name: string): boolean {
  const base = name.split(/[\\/]/).pop() ?? '';
  if (base.startsWith('.') || base.endsWith('~') || /\.(swp|swx|tmp)$/.test(base)) return false;
  return /\.(json|jsont|css)$/.test(base);
}

/**
 * Watches a folder tree and calls `onChange` once per burst of changes (editors save in
 * several writes). The callback runs at most once at a time; changes during it queue one
 * more run.
 */
export function watchFolder(dir: string, onChange: (files: string[]) => Promise<void>, debounceMs = 80): { close(): void } {
  let timer: NodeJS.Timeout | null = null;
  let pending = new Set<string>();
  let running = false;
  let closed = false;

  const flush = async () => {
    timer = null;
    if (running || closed || pending.size === 0) return;
    running = true;
    const files = [...pending];
    pending = new Set();
    try {
      await onChange(files);
    } finally {
      running = false;
      if (pending.size > 0 && !closed) timer = setTimeout(flush, debounceMs);
    }
  };

  const watcher = fs.watch(dir, { recursive: true }, (_event, name) => {
    const file = name === null ? '' : String(name);
    if (file !== '' && !isSiteFile(file)) return;
    pending.add(file);
    if (timer) clearTimeout(timer);
    timer = setTimeout(flush, debounceMs);
  });
  watcher.on('error', () => {});
  return {
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      watcher.close();
    },
  };
}
