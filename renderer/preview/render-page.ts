import { buildApp } from '../app.ts';
import type { QuirePageInfo } from '../pages/index.ts';
import { loadSite, SiteLoadError, siteSeed } from '../site/load-site.ts';
import type { LoadedSite } from '../site/site-types.ts';
import type { SqlStore } from '../store/store.ts';
import { diagnosticFrame, FrameSources, problemFrames, repeatsKeptErrors, siteProblemFrames, type Frame } from './diagnostic-frames.ts';
import { renderedScriptFrames, siteScriptProbes } from './script-variables.ts';
import { openSiteStore } from './site-store.ts';
import { siteTemplateFrames } from './check-site.ts';
import { seedStore } from '../store/seed.ts';

// `quire render-page SITE_DIR /path`: one page of a site folder, rendered exactly as the
// server would, for scripts and CI. The HTML goes to stdout; problems go to stderr.

export interface RenderPageResult {
  /** 0 for a page without problems, 1 on a 5xx, template errors or a site that does not load. */
  exitCode: 0 | 1;
  status: number | null;
  html: string;
  pageType: number | null;
  templateName: string | null;
  frames: Frame[];
}

export interface RenderPageOptions {
  /** Injected by tests; otherwise DATABASE_URL / DATA_DIR or an in-memory database. */
  store?: SqlStore;
  /** Fixed clock for reproducible output (`timesince`, expiry). */
  now?: () => number;
}

export async function renderPage(dir: string, path: string, options: RenderPageOptions = {}): Promise<RenderPageResult> {
  let site: LoadedSite;
  try {
    // Syntax errors are kept so the page still renders and every problem is listed.
    site = await loadSite(dir, { allowTemplateErrors: true });
  } catch (error) {
    if (!(error instanceof SiteLoadError)) throw error;
    const frames = problemFrames(dir, error.problems);
    return { exitCode: 1, status: null, html: '', pageType: null, templateName: null, frames };
  }
  const store = options.store ?? (await openSiteStore(site));
  if (!(await store.read.getSite())) await seedStore(store, siteSeed(site));
  const app = await buildApp({ store, site, now: options.now, logger: false });
  try {
    let info: QuirePageInfo | undefined;
    app.addHook('onResponse', async (request) => {
      info = request.quirePage;
    });
    const response = await app.inject({ method: 'GET', url: path.startsWith('/') ? path : `/${path}` });
    const frames: Frame[] = siteProblemFrames(site);
    const loadFrames = frames.length;
    // Warnings on which templates the pages render with (page.jsont missing …), after the load's
    // problems as the overlay lists them; they do not fail the page.
    const templateWarnings = await siteTemplateFrames(site);
    const kept = new Set(site.problems.map((problem) => `${problem.file}:${problem.line}:${problem.column}`));
    const sources = new FrameSources(site.dir, site);
    for (const d of info?.diagnostics ?? []) {
      if (d.kind === 'SyntaxError' && kept.has(`${d.source}:${d.line}:${d.column}`)) continue;
      if (repeatsKeptErrors(d, kept)) continue;
      frames.push(diagnosticFrame(site, d, sources, info!.diagnostics));
    }
    for (const message of info?.problems ?? []) frames.push({ code: 'SITE_CONTENT', where: path, text: `SITE_CONTENT: ${message}` });
    const failed = response.statusCode >= 500 || frames.length > 0;
    frames.splice(loadFrames, 0, ...templateWarnings);
    // Warnings (a script variable that rendered empty) are printed but do not fail the page.
    if (info !== undefined) for (const frame of renderedScriptFrames(response.body, siteScriptProbes(site))) frames.push(frame);
    return {
      exitCode: failed ? 1 : 0,
      status: response.statusCode,
      html: response.body,
      pageType: info?.pageType ?? null,
      templateName: info?.templateName ?? null,
      frames,
    };
  } finally {
    await app.close();
    if (!options.store) await store.close();
  }
}
