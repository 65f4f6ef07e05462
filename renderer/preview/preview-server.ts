import net from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { buildApp } from '../app.ts';
import { loadSite, SiteLoadError, siteSeed } from '../site/load-site.ts';
import type { LoadedSite, SiteProblem } from '../site/site-types.ts';
import { validateSiteFiles, type SiteDiagnostic } from '../site/validate-site-files.ts';
import { syncSiteContent, syncSummary } from '../store/site-sync.ts';
import type { SqlStore } from '../store/store.ts';
import { diagnosticFrame, FrameSources, overlayHtml, problemCount, problemFrames, repeatsKeptErrors, siteProblemFrames, type Frame } from './diagnostic-frames.ts';
import { EVENTS_PATH, injectBeforeBodyEnd, ReloadHub, reloadScript, watchFolder } from './live-reload.ts';
import { renderedScriptFrames, siteScriptProbes } from './script-variables.ts';
import { openSiteStore } from './site-store.ts';
import { siteTemplateFrames } from './check-site.ts';
import { startCommand } from './start-command.ts';
import { ADMIN_PATH } from '../admin/admin-page.ts';
import { escapeHtml } from '../pages/html.ts';

// `quire preview SITE_DIR`: the storefront server over a site folder that an author is
// editing. The folder is reloaded on every change and swapped in through buildApp's site
// getter, so the server, its store and the visitor's cookies survive a reload. Pages get a
// live-reload script and, when something is wrong, an overlay with code frames; neither is
// ever part of `npm start`.

export interface PreviewOptions {
  dir: string;
  port?: number;
  host?: string;
  /** Injected by tests; otherwise DATABASE_URL / DATA_DIR or an in-memory database. */
  store?: SqlStore;
  debounceMs?: number;
  /** Called after every reload attempt (tests wait on it). */
  onReload?: (outcome: ReloadOutcome) => void;
}

export interface ReloadOutcome {
  version: number;
  ok: boolean;
  files: string[];
  problems: SiteProblem[];
  /** What this reload's site content sync changed (`syncSummary`, as `npm start` logs it); null when `catalog.json` was not synced. */
  sync: string | null;
  /**
   * Problems of the site now served that did not stop the reload: template syntax errors kept
   * at load and the data files' findings. A reload that kept a syntax error is `ok`, and the
   * terminal said only "reloaded" while every page broke.
   */
  kept: ShownProblem[];
}

/** A problem as the terminal lists it: where, its code, its words; a finding that does not stop the site is a warning. */
export interface ShownProblem {
  code: string;
  file: string;
  line: number;
  column: number;
  message: string;
  severity?: 'error' | 'warning';
}

export interface Preview {
  url: string;
  app: FastifyInstance;
  store: SqlStore;
  hub: ReloadHub;
  /** What the start's site content sync changed (`syncSummary`); null when nothing was synced into an existing store. */
  startSync: string | null;
  /** Reloads the folder now (the watcher calls it after each burst of changes). */
  reload(files?: string[]): Promise<ReloadOutcome>;
  site(): LoadedSite | null;
  /** True while /admin answers the preview's page (the store has no owner): the start lines say so. */
  adminUnavailable(): Promise<boolean>;
  /** What stops the folder now (the last load's problems) and what the served site carries (`ReloadOutcome.kept`). */
  problems(): { blocking: SiteProblem[]; kept: ShownProblem[] };
  close(): Promise<void>;
}

/** Paths the overlay and the load-error page leave alone: data, scripts and the SSE stream. */
const NOT_A_PAGE = /^\/(api|assets|static|__quire)(\/|$)/;

interface Loaded {
  site: LoadedSite | null;
  /** Problems that stopped the last reload; the previous good site stays in service. */
  error: SiteLoadError | null;
  /** Schema findings of the folder's data files (site/validate-site-files.ts): shown, never blocking. */
  content: SiteDiagnostic[];
  /**
   * A page naming a template `templates/` does not have (`"template": "landng"`): it renders
   * with its page type's default, which only `quire check` (and so the terminal) said; the
   * author watching the page saw it change and no overlay.
   */
  templateNames: Frame[];
}

async function tryLoad(dir: string): Promise<{ site: LoadedSite } | { error: SiteLoadError }> {
  try {
    // Template syntax errors are kept (the page renders what it can) so the overlay can
    // show them on the page they break, instead of refusing the whole site.
    return { site: await loadSite(dir, { allowTemplateErrors: true }) };
  } catch (error) {
    if (error instanceof SiteLoadError) return { error };
    const message = error instanceof Error ? error.message : String(error);
    return { error: new SiteLoadError([{ code: 'SITE_READ_FAILED', file: dir, line: 1, column: 1, message }]) };
  }
}

/**
 * The data files' findings a page shows beside what stopped the load: those of files the loader
 * did not report, as `quire check` lists them (check-site.ts). A `"kind": "pgae"` was shown
 * twice, the loader's SITE_SCHEMA_INVALID and the schema's SITE_VALUE_INVALID at the same
 * place, where the terminal and `quire check` said it once.
 */
function shownFindings(error: SiteLoadError | null, content: SiteDiagnostic[]): SiteDiagnostic[] {
  if (error === null) return content;
  const reported = new Set(error.problems.map((problem) => problem.file));
  return content.filter((finding) => !reported.has(finding.file));
}

function isHtml(contentType: unknown): boolean {
  return typeof contentType === 'string' && contentType.startsWith('text/html');
}

/**
 * Frames of what a load found (its problems, the data files' findings, the site's kept
 * syntax errors), drawn once per load and shown on every page until the next: drawn per page,
 * 15,000 findings of a 2.3 MB catalog.json held each page for seconds.
 */
const loadFrames = new WeakMap<object, Frame[]>();

function framesOfLoad<T extends object>(key: T, draw: (key: T) => Frame[]): Frame[] {
  let frames = loadFrames.get(key);
  if (frames === undefined) loadFrames.set(key, (frames = draw(key)));
  return frames;
}

/**
 * Every problem a page should show: the failed reload, kept syntax errors, and this render's
 * (its engine diagnostics, content problems, and script or style variables that rendered
 * empty or broke their script, found in the page's `html`).
 */
function framesFor(state: Loaded, request: FastifyRequest, dir: string, html: string): Frame[] {
  const frames: Frame[] = [];
  // Pushed one by one: a spread of 150,000 frames overflows the call stack.
  if (state.error) for (const frame of framesOfLoad(state.error.problems, (problems) => problemFrames(dir, problems))) frames.push(frame);
  for (const frame of framesOfLoad(state.content, (content) => problemFrames(dir, shownFindings(state.error, content)))) frames.push(frame);
  // After a failed reload the page is the last good site's: its kept syntax errors and this
  // render's diagnostics are of template texts the folder may no longer hold (frames of lines
  // the author had already changed, counted against what `quire check` finds). They show again
  // once the folder loads.
  if (state.error) return frames;
  const shown = new Set<string>();
  if (state.site) for (const frame of framesOfLoad(state.site, siteProblemFrames)) frames.push(frame);
  for (const frame of state.templateNames) frames.push(frame);
  for (const problem of state.site?.problems ?? []) shown.add(`${problem.file}:${problem.line}:${problem.column}`);
  const sources = new FrameSources(state.site?.dir ?? dir, state.site);
  for (const d of request.quirePage?.diagnostics ?? []) {
    // A kept syntax error is reported again by each render of its template; show it once.
    if (d.kind === 'SyntaxError' && shown.has(`${d.source}:${d.line}:${d.column}`)) continue;
    if (repeatsKeptErrors(d, shown)) continue;
    frames.push(diagnosticFrame(state.site, d, sources, request.quirePage!.diagnostics));
  }
  for (const message of request.quirePage?.problems ?? []) {
    frames.push({ code: 'SITE_CONTENT', where: request.url, text: `SITE_CONTENT: ${message}` });
  }
  if (state.site) for (const frame of renderedScriptFrames(html, siteScriptProbes(state.site))) frames.push(frame);
  return frames;
}

function loadErrorPage(frames: Frame[], version: number): string {
  return (
    '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Site error — Quire preview</title></head><body>' +
    '<p>The site folder could not be loaded. Fix the problems below; the page reloads by itself.</p>' +
    overlayHtml(`The site folder could not be loaded${frames.length ? `: ${problemCount(frames)}` : ''}`, frames) +
    reloadScript(version) +
    '</body></html>'
  );
}

/**
 * Why /admin is not tried in the preview, and the command that serves it: the preview's
 * store is a throw-away one with no owner (no ADMIN_EMAIL sign-in, no printed password), so
 * the admin loaded and then refused every sign-in with nothing said.
 */
export function adminNote(dir: string, cwd?: string): string {
  return `the admin (/admin) needs \`npm start\`: the preview's store has no owner to sign in. Serve the shop with: ${startCommand(dir, cwd)}`;
}

function previewAdminPage(dir: string): string {
  const command = escapeHtml(startCommand(dir));
  return (
    '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
    '<meta name="robots" content="noindex, nofollow"><title>Store admin — not in the preview</title></head><body><main>' +
    '<h1>The store admin is not available in the preview</h1>' +
    "<p><code>quire preview</code> keeps the shop's data in memory, with no owner account, so there is no one to sign in to the admin as.</p>" +
    `<p>To use the admin, serve the shop with <code>npm start</code>; its first start prints the admin sign-in:</p><pre><code>${command}</code></pre>` +
    '<p><a href="/">Back to the shop preview</a></p>' +
    '</main></body></html>'
  );
}

/**
 * Whether a request's Host names this machine: `localhost` (or a `*.localhost` name), an IP
 * address, or the host the preview was told to listen on. Anything else is a DNS rebinding: a
 * web page at some name that its DNS points to 127.0.0.1 reads the preview as its own origin
 * (the author's unpublished pages, the overlay's code frames and folder paths, the reload
 * stream), which the browser's same-origin rule never stops. Dev servers refuse such hosts
 * for that reason (Vite's `server.allowedHosts`, CVE-2025-24010).
 */
export function isPreviewHost(hostHeader: string | undefined, listenHost: string | undefined): boolean {
  if (hostHeader === undefined || hostHeader === '') return true;
  const host = hostHeader.trim().toLowerCase();
  const name = host.startsWith('[') ? host.slice(1, host.indexOf(']') < 0 ? host.length : host.indexOf(']')) : host.replace(/:\d*$/, '');
  if (net.isIP(name) !== 0) return true;
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  return listenHost !== undefined && name === listenHost.trim().toLowerCase();
}

/** The answer to a request whose Host is not this machine's (isPreviewHost). */
export const FOREIGN_HOST_TEXT = 'quire preview answers requests for localhost and IP addresses only: open the address it printed at start (or start it with --host NAME to use NAME).';

/** /admin or /admin/ (any query): the admin's page, the one path the preview may answer itself. */
const isAdminPage = (url: string): boolean => {
  const pathname = url.split('?', 1)[0];
  return pathname === ADMIN_PATH || pathname === `${ADMIN_PATH}/`;
};

export async function startPreview(options: PreviewOptions): Promise<Preview> {
  const first = await tryLoad(options.dir);
  const state: Loaded = 'site' in first ? { site: first.site, error: null, content: [], templateNames: [] } : { site: null, error: first.error, content: [], templateNames: [] };
  state.content = await validateSiteFiles(options.dir);
  if (state.site) state.templateNames = await siteTemplateFrames(state.site);
  const ownsStore = options.store === undefined;
  // A DATA_DIR / DATABASE_URL store is synced as it opens (as `npm start` does): its summary is the start's.
  let startSync: string | null = null;
  const store = options.store ?? (await openSiteStore(state.site, process.env, (result) => (startSync = syncSummary(result))));
  // The catalogue the store was last seeded from; null until a site has loaded.
  let seededCatalog: string | null = null;

  /**
   * Seeds an empty store (an injected one included) and re-seeds it when `catalog.json`
   * changed, an upsert so prices, stock and forms follow the file while carts and sign-ups
   * stay. Returns what the sync changed (null: nothing synced), or a problem instead when
   * the seed cannot apply.
   */
  async function syncCatalog(site: LoadedSite): Promise<{ problem: SiteProblem } | { summary: string | null }> {
    const seed = siteSeed(site);
    const text = JSON.stringify(seed);
    if (text === seededCatalog) return { summary: null };
    const row = await store.read.getSite();
    if (row && row.websiteId !== seed.site.websiteId) {
      const message = `websiteId changed from "${row.websiteId}" to "${seed.site.websiteId}"; restart the preview to use a new store`;
      return { problem: { code: 'SITE_SCHEMA_INVALID', file: 'catalog.json', line: 1, column: 1, message } };
    }
    try {
      // The same sync as `npm start` (store/site-sync.ts): an upsert by id that hides what
      // the folder removed and keeps carts, sign-ups and stock movements.
      const result = !row || seededCatalog !== null ? await syncSiteContent(store.client, seed) : null;
      seededCatalog = text;
      return { summary: result ? syncSummary(result) : null };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { problem: { code: 'SITE_SCHEMA_INVALID', file: 'catalog.json', line: 1, column: 1, message } };
    }
  }
  if (state.site) {
    const synced = await syncCatalog(state.site);
    if ('problem' in synced) state.error = new SiteLoadError([synced.problem]);
    else startSync = synced.summary ?? startSync;
  }
  const hub = new ReloadHub();

  // Until a first good load there is no site to give the page renderer; the onRequest hook
  // below answers every page with the error page in that case, so the getter is not reached.
  const app = await buildApp({ store, site: () => state.site!, logger: false, contentSecurityPolicy: PREVIEW_CSP });
  hub.register(app);

  // Before anything else answers: a request for a foreign name is a DNS rebinding (isPreviewHost).
  app.addHook('onRequest', async (request, reply) => {
    if (isPreviewHost(request.headers.host, options.host)) return;
    return reply.code(403).header('cache-control', 'no-store').type('text/plain; charset=utf-8').send(FOREIGN_HOST_TEXT);
  });

  // A store with no owner (the in-memory one; a DATA_DIR store `npm start` has served has
  // one, and its admin works here too): /admin says where the admin is, not a sign-in that refuses all.
  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'GET' || !isAdminPage(request.url) || (await store.read.admin.countOwners()) > 0) return;
    return reply.header('cache-control', 'no-store').header('x-robots-tag', 'noindex').type('text/html; charset=utf-8').send(previewAdminPage(options.dir));
  });

  app.addHook('onRequest', async (request, reply) => {
    if (state.site !== null || NOT_A_PAGE.test(request.url)) return;
    const frames = state.error ? framesOfLoad(state.error.problems, (problems) => problemFrames(options.dir, problems)) : [];
    return reply.code(500).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(loadErrorPage(frames, hub.version));
  });

  app.addHook('onSend', async (request, reply, payload) => {
    // Pages are sent as UTF-8 bytes (the renderer encodes them once), other HTML as strings.
    if (!isHtml(reply.getHeader('content-type')) || NOT_A_PAGE.test(request.url)) return payload;
    if (!request.quirePage) return payload; // the load-error page carries its own script
    const text = Buffer.isBuffer(payload) ? payload.toString('utf8') : payload;
    if (typeof text !== 'string') return payload;
    const frames = framesFor(state, request, options.dir, text);
    const stale = state.error ? 'The page below is the last version of the site that loaded; your changes show once these are fixed.' : undefined;
    // Errors and warnings counted apart (`1 error, 2 warnings in the site`): a warning (a script
    // variable that rendered empty) leaves a page that works otherwise.
    const overlay = frames.length ? overlayHtml(`${problemCount(frames)} in the site`, frames, stale) : '';
    reply.header('x-quire-preview-problems', String(frames.length));
    return injectBeforeBodyEnd(text, overlay + reloadScript(hub.version));
  });

  /** The served site's kept template problems, then the data files' findings. */
  const kept = (): ShownProblem[] => [...(state.site?.problems ?? []), ...state.content];

  async function reload(files: string[] = []): Promise<ReloadOutcome> {
    const next = await tryLoad(options.dir);
    state.content = await validateSiteFiles(options.dir);
    let sync: string | null = null;
    if ('site' in next) {
      const synced = await syncCatalog(next.site);
      if ('problem' in synced) {
        // Pages of a site whose store data is stale would mislead; keep the last good pair.
        state.error = new SiteLoadError([synced.problem]);
        hub.announce({ ok: false });
        return { version: hub.version, ok: false, files, problems: state.error.problems, sync: null, kept: kept() };
      }
      sync = synced.summary;
      state.site = next.site;
      state.error = null;
      state.templateNames = await siteTemplateFrames(next.site);
    } else {
      state.error = next.error;
    }
    hub.announce({ ok: state.error === null });
    return { version: hub.version, ok: state.error === null, files, problems: state.error?.problems ?? [], sync, kept: kept() };
  }

  const watcher = watchFolder(
    options.dir,
    async (files) => {
      const outcome = await reload(files);
      options.onReload?.(outcome);
    },
    options.debounceMs,
  );

  let url: string;
  try {
    url = await app.listen({ host: options.host ?? '127.0.0.1', port: options.port ?? 3000 });
  } catch (error) {
    watcher.close();
    await app.close();
    if (ownsStore) await store.close();
    throw error;
  }

  return {
    url,
    app,
    store,
    hub,
    startSync,
    reload,
    site: () => state.site,
    adminUnavailable: async () => (await store.read.admin.countOwners()) === 0,
    problems: () => ({ blocking: state.error?.problems ?? [], kept: kept() }),
    async close() {
      watcher.close();
      await app.close();
      if (ownsStore) await store.close();
    },
  };
}

export { EVENTS_PATH };

/** The live-reload script and the overlay's close button are inline; the rest of the policy is production's. */
const PREVIEW_CSP = { 'script-src': ["'self'", "'unsafe-inline'"], 'script-src-attr': ["'unsafe-inline'"] };
