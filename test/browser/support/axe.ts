// axe-core in the page: the browser tier's accessibility check (issue 16). The library's own
// source is evaluated in the page through the DevTools protocol, which the page's
// Content-Security-Policy does not govern (an inline <script> tag would be blocked by it).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** The impacts that fail a page: axe's `serious` and `critical`. */
const FAILING = ['serious', 'critical'];

export interface AxeFinding {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/**
 * Runs axe-core on the page as it is now (optionally only inside `include`) and returns the
 * serious and critical violations (`everyImpact`: moderate and minor ones too), one line each,
 * so a failed check reads as a list.
 */
export async function axeViolations(page: Page, include?: string, options: { everyImpact?: boolean } = {}): Promise<string[]> {
  const loaded = await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe === 'object');
  if (!loaded) await page.evaluate(AXE_SOURCE);
  const findings = await page.evaluate(async (include) => {
    const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[] }> }> }> } }).axe;
    const result = await axe.run(include ? { include: [include] } : document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact ?? '', help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
  }, include ?? null);
  return (findings as AxeFinding[])
    .filter((f) => options.everyImpact || FAILING.includes(f.impact))
    .map((f) => `${f.impact} ${f.id}: ${f.help} (${f.targets.slice(0, 5).join(', ')}${f.targets.length > 5 ? ', …' : ''})`);
}
