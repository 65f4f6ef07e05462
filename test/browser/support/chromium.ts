// Chromium for the browser tier: one browser per test file, one fresh context (cookies,
// storage) per test, every page error and console error collected, screenshots on disk.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/**
 * The machine has no network beyond loopback: without the background-networking flags
 * Chromium keeps opening connections that are refused. `--no-sandbox` because CI runs as
 * root. Playwright adds `--headless` and a fresh `--user-data-dir` itself.
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
/** Git-ignored (test-output/ is in .gitignore); CI can keep it as an artifact. */
export const SCREENSHOT_DIR = path.join(repoRoot, 'test-output', 'screenshots');

/**
 * `backForwardCache`: Playwright turns Chromium's back/forward cache off by default; a scenario
 * about pages restored from it (Back, Forward) turns it on again.
 */
export function launchChromium(executablePath: string, options: { backForwardCache?: boolean } = {}): Promise<Browser> {
  return chromium.launch({
    executablePath,
    headless: true,
    args: CHROMIUM_ARGS,
    timeout: 30_000,
    ignoreDefaultArgs: options.backForwardCache ? ['--disable-back-forward-cache'] : undefined,
  });
}

/** Stands in for the demo catalogue's remote product images: the machine has no network. */
const PLACEHOLDER_IMAGE =
  '<svg xmlns="http://www.w3.org/2000/svg" width="600" height="400"><rect width="100%" height="100%" fill="#d9d4cc"/></svg>';

const isLocal = (url: URL) => url.protocol === 'data:' || url.protocol === 'blob:' || ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);

export interface VisitorPage {
  context: BrowserContext;
  page: Page;
  /** Uncaught page errors, error reports, remote requests and console errors so far, minus the allowed ones. */
  problems(): string[];
  /**
   * Console errors the scenario provokes on purpose: Chromium logs every non-2xx fetch as
   * `Failed to load resource: … status of 429`, so a test that drives the server into a 429
   * allows exactly that line. Uncaught page errors can never be allowed.
   */
  allowConsoleError(pattern: RegExp): void;
  screenshot(name: string): Promise<string>;
}

/** The two windows of issue 16's checks: a laptop and a phone. */
export const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;
export type ViewportName = keyof typeof VIEWPORTS;

/** A laptop and the narrowest phone in use (375 px): where forms and page audits are walked by keyboard. */
export const NARROW_WINDOWS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 375, height: 812 },
} as const;
export type NarrowWindowName = keyof typeof NARROW_WINDOWS;

/** A screenshot of the viewport only (not the full page), for checks made at a set viewport size. */
export async function viewportShot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`) });
}

export async function openVisitor(browser: Browser, baseURL: string): Promise<VisitorPage> {
  const context = await browser.newContext({ baseURL, viewport: { width: 1100, height: 900 } });
  const page = await context.newPage();
  const seen: Array<{ kind: 'pageerror' | 'console' | 'external' | 'reported'; text: string }> = [];
  const allowed: RegExp[] = [];
  // Remote images get a local placeholder; any other remote request is a problem, since a
  // storefront page must not need a third-party script to work.
  await context.route(
    (url) => !isLocal(url),
    (route) => {
      const request = route.request();
      if (request.resourceType() === 'image') return route.fulfill({ status: 200, contentType: 'image/svg+xml', body: PLACEHOLDER_IMAGE });
      seen.push({ kind: 'external', text: `${request.method()} ${request.url()}` });
      return route.abort();
    },
  );
  page.on('pageerror', (error) => seen.push({ kind: 'pageerror', text: `${error.name}: ${error.message}` }));
  // A hydration mismatch reaches neither pageerror nor the console: React hands it to
  // onRecoverableError, which the islands send to the error reporter (A11).
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/events/RecordJavascriptErrors') seen.push({ kind: 'reported', text: request.postData() ?? '' });
  });
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const where = message.location();
    seen.push({ kind: 'console', text: `${message.text()}${where.url ? ` (${where.url})` : ''}` });
  });
  return {
    context,
    page,
    problems: () =>
      seen.filter((p) => p.kind !== 'console' || !allowed.some((re) => re.test(p.text))).map((p) => `${p.kind}: ${p.text}`),
    allowConsoleError: (pattern) => allowed.push(pattern),
    async screenshot(name) {
      mkdirSync(SCREENSHOT_DIR, { recursive: true });
      const file = path.join(SCREENSHOT_DIR, `${name}.png`);
      await page.screenshot({ path: file, fullPage: true });
      return file;
    },
  };
}
