// "The same page" for the benches that replay Quire's pages with the port (cold-start.ts,
// http-peers.ts) is found, not re-written: Quire's real app is built in memory (the site,
// an in-memory store seeded from its catalog), each page is requested once, and every
// top-level template render it makes is recorded (source, data, partials, now). One copy,
// so that both benches replay the same renders.
import type { RenderOptions } from '../engine/engine.ts';

export interface PageRenders<T> {
  url: string;
  status: number;
  renders: T[];
}

/** Requests `urls` in order; `keep` turns each render (its template's source, data, options) into what is recorded. */
export async function recordRenders<T>(siteDir: string, urls: readonly string[], keep: (source: string, data: unknown, options: RenderOptions) => T): Promise<PageRenders<T>[]> {
  const { Template } = await import('../engine/engine.ts');
  const { loadSite } = await import('../renderer/site/load-site.ts');
  const { openStore } = await import('../renderer/store/store.ts');
  const { buildApp } = await import('../renderer/app.ts');
  const site = await loadSite(siteDir);
  const store = await openStore({ dataDir: null, seed: site.catalog ?? undefined });
  const app = await buildApp({ store, site, logger: false });
  const pages: PageRenders<T>[] = [];
  let recorded: T[] = [];
  const original = Template.prototype.render;
  Template.prototype.render = function (this: InstanceType<typeof Template>, data, options = {}) {
    recorded.push(keep(this.source.text, data, options));
    return original.call(this, data, options);
  };
  try {
    for (const url of urls) {
      recorded = [];
      const res = await app.inject({ method: 'GET', url });
      pages.push({ url, status: res.statusCode, renders: recorded });
    }
  } finally {
    Template.prototype.render = original;
    await app.close();
    await store.close();
  }
  return pages;
}
