// The Content-Security-Policy (renderer/security-headers.ts) in Chromium: every page of the
// demo sitemap, and the commerce pages it leaves out, is served under the policy, breaks none
// of its rules (no `securitypolicyviolation` event, no console report), and its islands still
// hydrate; the local captcha widget renders under it too.
import { describe, expect, inject, test } from 'vitest';
import { useBrowserTier } from './support/tier.ts';
import { visit } from './support/visit.ts';

const chromiumPath = inject('chromiumPath');
const VIOLATIONS = '__cspViolations';

describe.skipIf(!chromiumPath)(`content security policy in Chromium${chromiumPath ? '' : ` (skipped: ${inject('browserSkipReason')})`}`, () => {
  const tier = useBrowserTier(chromiumPath!);

  test('CSP-1 every demo page is served under the policy, breaks none of its rules and hydrates', async () => {
    const v = await tier.newVisitor();
    const { page } = v;
    // Chromium logs the not-found page's status; that is the only console error allowed.
    v.allowConsoleError(/status of 404 \(Not Found\) \(http:\/\/127\.0\.0\.1:\d+\/no-such-page\)$/);
    // Recorded in the page from its first script on, before any island runs.
    await page.addInitScript((key) => {
      const seen: string[] = [];
      (window as unknown as Record<string, string[]>)[key] = seen;
      document.addEventListener('securitypolicyviolation', (event) => {
        seen.push(`${event.violatedDirective} blocked ${event.blockedURI || 'inline'} at ${event.sourceFile}:${event.lineNumber}`);
      });
    }, VIOLATIONS);

    const sitemap = await (await fetch(`${tier.server.url}/sitemap.xml`)).text();
    const paths = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!.replaceAll('&amp;', '&')).pathname);
    expect(paths.length).toBeGreaterThanOrEqual(15);
    const failures: string[] = [];
    for (const path of [...paths, '/cart', '/no-such-page']) {
      const response = page.waitForResponse((r) => new URL(r.url()).pathname === path && r.request().resourceType() === 'document');
      await visit(page, path);
      const policy = (await response).headers()['content-security-policy'] ?? '';
      if (!policy.includes("script-src 'self'")) failures.push(`${path}: served without the policy (${policy || 'none'})`);
      const violations = await page.evaluate((key) => (window as unknown as Record<string, string[]>)[key] ?? [], VIOLATIONS);
      for (const violation of violations) failures.push(`${path}: ${violation}`);
    }
    expect(failures).toEqual([]);
  });

  test('CSP-2 the local captcha renders under the policy', async () => {
    const v = await tier.newVisitor();
    const { page } = v;
    await visit(page, '/contact');
    const widget = page.locator('form[data-form-id="contact"] .captcha-container input.sf-captcha-local');
    await expect.poll(() => widget.count()).toBe(1);
    await widget.check();
    expect(await widget.isChecked()).toBe(true);
  });
});
