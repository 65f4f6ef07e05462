// The set-up every browser scenario file shares: one storefront and one Chromium per file,
// one fresh visitor (browser context) per test, and the clean-page checks at the end of each
// test and of the file. Call it inside the file's describe block, which registers the hooks.
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, inject } from 'vitest';
import { launchChromium, openVisitor, type VisitorPage } from './chromium.ts';
import { startStorefront, type Storefront, type StorefrontOptions } from './storefront.ts';

export interface BrowserTier {
  /** The running storefront; read its store to check what the server accepted. */
  readonly server: Storefront;
  /** A new visitor (fresh cookies and storage); the test's end checks that its page ran clean. */
  newVisitor(): Promise<VisitorPage>;
}

/**
 * `seed` changes the demo catalogue before the storefront starts (for example express checkout on);
 * `siteDir` serves another site folder (the starter of `quire new`) instead of the demo.
 */
export function useBrowserTier(chromiumPath: string, options: Pick<StorefrontOptions, 'seed' | 'siteDir'> = {}): BrowserTier {
  let server: Storefront | undefined;
  let browser: Browser | undefined;
  let visitor: VisitorPage | undefined;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startStorefront({ assetsDir: inject('islandsDir'), seed: options.seed, siteDir: options.siteDir }), launchChromium(chromiumPath)]);
  });

  afterAll(async () => {
    await browser?.close();
    // Reports sent after a test's own check (the reporter waits 1 s) still reach the store;
    // a failed tracking send goes there too.
    const reports = server ? await server.store.read.listJsErrorReports() : [];
    await server?.close();
    expect(reports).toEqual([]);
  });

  afterEach(async () => {
    // Checked here so that every scenario, whatever it asserts, also proves the page ran clean.
    if (!visitor) return;
    const problems = visitor.problems();
    await visitor.context.close();
    visitor = undefined;
    expect(problems).toEqual([]);
  });

  const running = (): Storefront => {
    if (!server) throw new Error('the storefront starts in beforeAll');
    return server;
  };
  return {
    get server() {
      return running();
    },
    async newVisitor() {
      if (!browser) throw new Error('Chromium starts in beforeAll');
      visitor = await openVisitor(browser, running().url);
      return visitor;
    },
  };
}
