// Global setup of the browser tier (the `browser` project of vitest.config.ts): make sure
// Chromium is there (installing it with apt when it is missing) and build the islands bundle
// once into a temporary folder that every test server serves as /assets.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildIslands } from '../../hydrate/build.ts';
import { browserTierDecision, ensureChromium } from './ensure-chromium.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Path of the Chromium binary, or null when the tier is skipped. */
    chromiumPath: string | null;
    /** Why the tier is skipped (outside CI, apt unavailable); empty when it runs. */
    browserSkipReason: string;
    /** Folder holding islands.js, captcha-local.js and chunks/, built for this run. */
    islandsDir: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const decision = browserTierDecision(ensureChromium());
  if ('fail' in decision) throw new Error(decision.fail);
  const islandsDir = mkdtempSync(path.join(os.tmpdir(), 'quire-islands-'));
  if ('skip' in decision) {
    console.warn(`[browser tier] skipped: ${decision.skip}`);
    project.provide('chromiumPath', null);
    project.provide('browserSkipReason', decision.skip);
  } else {
    await buildIslands(islandsDir);
    project.provide('chromiumPath', decision.run);
    project.provide('browserSkipReason', '');
  }
  project.provide('islandsDir', islandsDir);
  return () => rmSync(islandsDir, { recursive: true, force: true });
}
