import fs from 'node:fs';
import path from 'node:path';
import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';

// Live reload for the author preview: a Server-Sent Events stream that announces each new
// version of the site, and a folder watcher that debounces bursts of editor writes.

export const EVENTS_PATH = '/__quire/events';

/** Keeps proxies and the browser from dropping an idle stream. */
const HEARTBEAT_MS = 15_000;

/** Hubs made by this process so far: two hubs of one millisecond still start apart. */
let hubsMade = 0;

export class ReloadHub {
  private readonly clients = new Set<ServerResponse>();
  private heartbeat: NodeJS.Timeout | null = null;
  /**
   * Starts where no earlier preview's count could be: every preview started at 1, so a page
   * rendered by a preview that was then stopped, its folder edited and the preview started
   * again saw the same version in the new `hello` and stayed on the old page.
   */
  version = Date.now() * 1000 + (hubsMade++ % 1000);

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

/** Folders the watcher never enters: version control, dependencies, editor and OS state. */
function isWatchedFolder(name: string): boolean {
  return !name.startsWith('.') && name !== 'node_modules';
}

/**
 * Watches a folder tree and calls `onChange` once per burst of changes (editors save in
 * several writes). The callback runs at most once at a time; changes during it queue one
 * more run.
 *
 * Each folder gets its own non-recursive watcher instead of one `{ recursive: true }` watch:
 * Node 20's recursive watch on Linux watches each file's inode, so after an editor's atomic
 * save (write a temporary file, rename it over the template) the new file was never watched
 * again and every later save went unseen: the preview stayed on the old page. A folder's
 * watcher reports changes to any name in it, whatever inode the name points at.
 */
export function watchFolder(dir: string, onChange: (files: string[]) => Promise<void>, debounceMs = 80): { close(): void } {
  let timer: NodeJS.Timeout | null = null;
  let pending = new Set<string>();
  let running = false;
  let closed = false;
  /** Open watchers by folder, relative to `dir` ('' for `dir` itself). */
  const watchers = new Map<string, fs.FSWatcher>();

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

  const changed = (file: string, folder = false) => {
    if (file !== '' && !folder && !isSiteFile(file)) return;
    pending.add(file);
    if (timer) clearTimeout(timer);
    timer = setTimeout(flush, debounceMs);
  };

  /** Stops watching `rel` and the folders below it (removed or renamed away); true when it was watched. */
  const forget = (rel: string): boolean => {
    let watched = false;
    for (const [folder, watcher] of watchers) {
      if (folder === rel || folder.startsWith(rel + path.sep)) {
        watcher.close();
        watchers.delete(folder);
        watched = true;
      }
    }
    return watched;
  };

  /**
   * Watches `rel` and every folder below it. `announce`: a folder that appeared while
   * watching (made, moved or copied in) reports the site files it already holds, whose
   * writes came before its watcher.
   */
  const watch = (rel: string, announce: boolean) => {
    if (closed || watchers.has(rel)) return;
    const abs = path.join(dir, rel);
    let entries: fs.Dirent[];
    let watcher: fs.FSWatcher;
    try {
      watcher = fs.watch(abs, (event, name) => {
        if (name === null) return changed('');
        const file = rel === '' ? String(name) : path.join(rel, String(name));
        if (event === 'rename') {
          // A name came or went: a new folder is watched, a vanished one forgotten.
          let isFolder = false;
          try {
            isFolder = fs.statSync(path.join(dir, file)).isDirectory();
          } catch {
            // A folder moved out of the site (`mv templates /tmp`) reports only its own name,
            // which is no site file: the reload is due all the same.
            if (forget(file)) return changed(file, true);
          }
          if (isFolder && isWatchedFolder(String(name))) watch(file, true);
        }
        changed(file);
      });
      entries = fs.readdirSync(abs, { withFileTypes: true });
    } catch {
      // Gone (or unreadable) before it could be watched: its parent reported the change.
      return;
    }
    // A watched folder that is deleted ends its watcher with an error on some systems.
    watcher.on('error', () => forget(rel));
    watchers.set(rel, watcher);
    for (const entry of entries) {
      const child = rel === '' ? entry.name : path.join(rel, entry.name);
      if (entry.isDirectory()) {
        if (isWatchedFolder(entry.name)) watch(child, announce);
      } else if (announce) changed(child);
    }
  };

  watch('', false);
  return {
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
}
