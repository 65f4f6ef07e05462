// Types of build-inputs.mjs for the TypeScript that imports it (hydrate/build.ts, renderer/asset-bundle.ts).
export function buildIsFresh(manifestFile: string, root: string, key: string): boolean;
export function recordBuild(manifestFile: string, root: string, key: string, inputs: Iterable<string>, startedAt: number, cwd?: string): boolean;
export function esbuildVersion(root: string): string;
export function assetsManifest(outdir: string): string;
export function assetsBuildKey(root: string): string;
