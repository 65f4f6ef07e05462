/**
 * Whether `npm start` builds the browser bundles (dist/assets: islands, admin app, their CSS)
 * before serving. Like the server bundle (bin/start.mjs), they are rebuilt when any input
 * changed: hydrate/build.ts records its esbuild inputs by content hash beside the folder
 * (bin/build-inputs.mjs), and a start compares. Checking only that the files exist served the
 * previous release's scripts and styles after an update.
 */
import fs from 'node:fs';
import path from 'node:path';
import { assetsBuildKey, assetsManifest, buildIsFresh } from '../bin/build-inputs.mjs';

/** The files a page or the admin loads by name; a folder without them is rebuilt whatever its record says. */
const ENTRY_FILES = ['islands.js', 'admin.js'];

/** True when `assetsDir` holds a build of the current inputs. */
export function assetsAreFresh(assetsDir: string, root: string): boolean {
  if (!ENTRY_FILES.every((file) => fs.existsSync(path.join(assetsDir, file)))) return false;
  try {
    return buildIsFresh(assetsManifest(assetsDir), root, assetsBuildKey(root));
  } catch {
    return false; // e.g. hydrate/build.ts unreadable: building reports the real problem
  }
}

/** Runs `build` (which records its inputs) unless the bundles in `assetsDir` are fresh. */
export function ensureAssets(assetsDir: string, root: string, build: () => Promise<void>): Promise<void> {
  return assetsAreFresh(assetsDir, root) ? Promise.resolve() : build();
}
