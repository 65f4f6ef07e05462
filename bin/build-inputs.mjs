// Whether a build in dist/ is still what its inputs would build, so `npm start` skips esbuild
// when nothing changed. A build records its inputs (esbuild's metafile) in a manifest beside
// its output: the project's own files by a SHA-256 of their content, files under
// node_modules by size and modification time (npm replaces them whole), and a key for the
// tool and its options. Hashing the ~150 sources and statting the rest takes a few ms; the
// build it saves is 0.5–2 s.
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const hashFile = (file) => createHash('sha256').update(readFileSync(file)).digest('hex');
const inPackages = (rel) => rel.split(/[\\/]/).includes('node_modules');

/**
 * True when `manifestFile` exists, was written for `key`, and every input it lists is as it
 * was (same content, or for packages the same size and time). Missing or unreadable: false.
 * @param {string} manifestFile
 * @param {string} root the folder the recorded paths are relative to
 * @param {string} key the tool version and options the build used
 */
export function buildIsFresh(manifestFile, root, key) {
  try {
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
    if (manifest.key !== key) return false;
    for (const [rel, hash] of Object.entries(manifest.sources)) if (hashFile(path.join(root, rel)) !== hash) return false;
    for (const [rel, [size, mtimeMs]] of Object.entries(manifest.packages)) {
      const stat = statSync(path.join(root, rel));
      if (stat.size !== size || stat.mtimeMs !== mtimeMs) return false;
    }
    return true;
  } catch {
    return false;
  }
}

/**
 * Records a finished build's inputs. `startedAt` (Date.now() before the build) guards a race:
 * a source saved while esbuild ran may be newer than what it read, so when any input changed
 * after the build started nothing is recorded and the next start builds again.
 * @param {string} manifestFile
 * @param {string} root
 * @param {string} key
 * @param {Iterable<string>} inputs esbuild's metafile input paths (relative to the cwd it ran in)
 * @param {number} startedAt
 * @param {string} [cwd] the folder esbuild resolved `inputs` against (process.cwd())
 */
export function recordBuild(manifestFile, root, key, inputs, startedAt, cwd = process.cwd()) {
  const sources = {};
  const packages = {};
  for (const input of inputs) {
    if (input.includes(':')) continue; // esbuild's virtual modules (e.g. "<runtime>")
    const file = path.resolve(cwd, input);
    const rel = path.relative(root, file);
    const stat = statSync(file);
    // Two seconds of slack: some file systems keep coarse times.
    if (stat.mtimeMs > startedAt - 2000) return false;
    if (inPackages(rel)) packages[rel] = [stat.size, stat.mtimeMs];
    else sources[rel] = hashFile(file);
  }
  const temp = `${manifestFile}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify({ key, sources, packages }));
  renameSync(temp, manifestFile);
  return true;
}

/** The installed esbuild's version, part of a build's key ('unknown' when it cannot be read). */
export function esbuildVersion(root) {
  try {
    return JSON.parse(readFileSync(path.join(root, 'node_modules', 'esbuild', 'package.json'), 'utf8')).version;
  } catch {
    return 'unknown';
  }
}

/**
 * The manifest of the browser bundles (hydrate/build.ts): beside their folder, not in it, so
 * the static route never serves the list of source paths.
 * @param {string} outdir
 */
export const assetsManifest = (outdir) => `${path.resolve(outdir)}.inputs.json`;

/**
 * The key of the browser bundles' build. Its options live in hydrate/build.ts, which is no
 * metafile input, so the script's content is part of the key, with esbuild's version and
 * tsconfig.json (it steers how esbuild compiles TypeScript).
 * @param {string} root the project folder
 */
export function assetsBuildKey(root) {
  return JSON.stringify({ esbuild: esbuildVersion(root), script: hashFile(path.join(root, 'hydrate', 'build.ts')), tsconfig: hashFile(path.join(root, 'tsconfig.json')) });
}
