import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../app.ts';
import type { QuirePageInfo, ResolveMember } from '../pages/index.ts';
import { loadSite } from '../site/load-site.ts';
import type { Block, ContentEntry, LoadedSite, SiteConfig } from '../site/site-types.ts';
import { hashPassword } from '../store/password.ts';
import type { SeedData } from '../store/seed.ts';
import type { SqlStore } from '../store/store.ts';
import { START } from './api-harness.ts';
import { openTestStore, reseed } from './test-store.ts';

export { reseed };

// Page tests run against the demo site folder and its catalogue, on one database per file.

export const DEMO_SITE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures', 'sites', 'demo');
export const DEMO_PASSWORD = 'demo-password';

let demo: Promise<LoadedSite> | null = null;
export function demoSite(): Promise<LoadedSite> {
  demo ??= loadSite(DEMO_SITE_DIR);
  return demo;
}

/** The demo site with some settings changed (the loaded site itself is shared, never mutated). */
export function withConfig(site: LoadedSite, change: Partial<SiteConfig>): LoadedSite {
  return { ...site, config: { ...site.config, ...change } };
}

/** The demo site plus one page made of the given blocks, at `/{slug}`. */
export function withPage(site: LoadedSite, slug: string, blocks: Block[], data: Record<string, unknown> = {}, change: Partial<ContentEntry> = {}): LoadedSite {
  const entry: ContentEntry = {
    file: `content/${slug}.json`, id: slug, kind: 'page', slug, title: slug, pageType: 2, template: null, home: false, password: null,
    memberArea: false, videoPaywall: false, collectionType: null, blocks, items: [], data: { slug, blocks, ...data }, ...change,
  };
  return { ...site, entries: [...site.entries, entry], bySlug: new Map([...site.bySlug, [slug, entry]]) };
}

let hashed: Promise<string> | null = null;

/** A deep copy of the demo catalogue with passwords hashed once per process (scrypt is slow). */
export async function demoSeed(change?: (seed: SeedData) => void): Promise<SeedData> {
  const site = await demoSite();
  const seed = structuredClone(site.catalog!) as SeedData;
  hashed ??= hashPassword(DEMO_PASSWORD);
  const passwordHash = await hashed;
  seed.users = (seed.users ?? []).map((user) => ({ ...user, password: undefined, passwordHash }));
  change?.(seed);
  return seed;
}

export interface PageHarness {
  app: FastifyInstance;
  clock: { now: number };
  /** Swap the site served (the app reads it through a getter). */
  setSite(site: LoadedSite): void;
  inject(options: InjectOptions | string): Promise<LightMyRequestResponse>;
  /** `request.quirePage` of the latest page response. */
  lastPage(): QuirePageInfo | undefined;
}

export async function pageHarness(
  store: SqlStore,
  options: { site?: LoadedSite; resolveMember?: ResolveMember } = {},
): Promise<PageHarness> {
  let current = options.site ?? (await demoSite());
  let last: QuirePageInfo | undefined;
  const clock = { now: START };
  const app = await buildApp({ store, site: () => current, now: () => clock.now, resolveMember: options.resolveMember });
  app.addHook('onResponse', async (request) => {
    last = request.quirePage;
  });
  return {
    app,
    clock,
    setSite: (site) => {
      current = site;
    },
    inject: (injectOptions) => {
      last = undefined;
      return app.inject(injectOptions);
    },
    lastPage: () => last,
  };
}

export interface DemoHarness extends PageHarness {
  /** The test file's database. */
  readonly store: SqlStore;
}

/**
 * Registers the hooks of a page test file: before it, one database seeded with the demo
 * catalogue and an app serving the demo site; after it, both closed. With `resetEach`, every
 * test starts from a fresh catalogue, the demo site and the start time. The harness returned
 * forwards to the one opened, so it is usable from the file's first hook on.
 */
export function useDemoHarness(options: { resolveMember?: ResolveMember; resetEach?: boolean } = {}): DemoHarness {
  let opened: { store: SqlStore; h: PageHarness } | null = null;
  const current = () => {
    if (!opened) throw new Error('the demo harness opens in beforeAll');
    return opened;
  };
  beforeAll(async () => {
    const store = await openTestStore();
    if (!options.resetEach) await reseed(store, await demoSeed());
    opened = { store, h: await pageHarness(store, { resolveMember: options.resolveMember }) };
  }, 60_000);
  afterAll(async () => {
    await opened?.h.app.close();
    await opened?.store.close();
  });
  if (options.resetEach) {
    beforeEach(async () => {
      const { store, h } = current();
      // The last test's handed-off work (api/after-response.ts) ends before the reseed.
      await h.app.storefrontApiSettled();
      await reseed(store, await demoSeed());
      h.setSite(await demoSite());
      h.clock.now = START;
    });
  }
  return {
    get store() {
      return current().store;
    },
    get app() {
      return current().h.app;
    },
    get clock() {
      return current().h.clock;
    },
    setSite: (site) => current().h.setSite(site),
    inject: (injectOptions) => current().h.inject(injectOptions),
    lastPage: () => current().h.lastPage(),
  };
}

/** The parsed `sf-context` block of a page. */
export function sfContext(html: string): Record<string, any> {
  const match = /<script type="application\/json" id="sf-context"[^>]*>([\s\S]*?)<\/script>/.exec(html);
  if (!match) throw new Error('no sf-context block in the page');
  return JSON.parse(match[1]!);
}

/** Set-Cookie headers of a response as an array. */
export function setCookies(response: LightMyRequestResponse): string[] {
  const raw = response.headers['set-cookie'];
  return raw === undefined ? [] : Array.isArray(raw) ? raw : [String(raw)];
}
