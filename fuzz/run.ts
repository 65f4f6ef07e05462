// `npm run fuzz -- [--runs N] [--seed S] [--only text] [--path P]`: every property for N runs
// (default 10,000, or fewer where a property says so: a run of the site-folder properties writes
// a folder, and render-page's starts a server) from seed S (default: time-based, printed). A failure prints the property, the
// seed and path that reproduce it, and the shrunk counterexample; the exit code is 1.
import fc from 'fast-check';
import { PROPERTIES } from './properties.ts';

interface FuzzOptions {
  /** Null: each property's default (`defaultRuns`, else 10,000). */
  runs: number | null;
  seed: number;
  only: string | null;
  path: string | null;
}

function parseArgs(argv: readonly string[]): FuzzOptions {
  const o: FuzzOptions = { runs: null, seed: Date.now() % 2 ** 31, only: null, path: null };
  for (let i = 0; i < argv.length; i++) {
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${argv[i - 1]} needs a value`);
      return v;
    };
    switch (argv[i]) {
      case '--runs': o.runs = Math.max(1, Number.parseInt(value(), 10) || 1); break;
      case '--seed': o.seed = Number.parseInt(value(), 10) | 0; break;
      case '--only': o.only = value(); break;
      case '--path': o.path = value(); break;
      default: throw new Error(`unknown option ${argv[i]}`);
    }
  }
  return o;
}

async function main(): Promise<number> {
  let o: FuzzOptions;
  try {
    o = parseArgs(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`fuzz: ${(e as Error).message}\n`);
    return 2;
  }
  const selected = PROPERTIES.filter((p) => o.only === null || p.name.includes(o.only));
  process.stdout.write(`fuzz: ${selected.length} properties, ${o.runs ?? 'default'} runs each, seed ${o.seed}\n`);
  let failed = 0;
  for (const p of selected) {
    const started = Date.now();
    // Awaited: the author tools' properties are async (a site folder per run).
    const runs = o.runs ?? p.defaultRuns ?? 10_000;
    const details = await fc.check(p.property as fc.IAsyncProperty<unknown>, { numRuns: runs, seed: o.seed, path: o.path ?? undefined, endOnFailure: false });
    const took = ((Date.now() - started) / 1000).toFixed(1);
    if (!details.failed) {
      process.stdout.write(`  ok    ${p.name} (${details.numRuns} runs, ${took} s)\n`);
      continue;
    }
    failed++;
    process.stdout.write(`  FAIL  ${p.name} (after ${details.numRuns} runs, ${details.numShrinks} shrinks, ${took} s)\n`);
    process.stdout.write(`        reproduce: npm run fuzz -- --only "${p.name}" --seed ${details.seed} --path "${details.counterexamplePath}" --runs ${runs}\n`);
    process.stdout.write(`        counterexample: ${fc.stringify(details.counterexample)}\n`);
    const err = details.errorInstance;
    process.stdout.write(`        ${(err instanceof Error ? err.message : String(err)).split('\n').join('\n        ')}\n`);
  }
  process.stdout.write(failed ? `fuzz: ${failed} propert${failed === 1 ? 'y' : 'ies'} failed\n` : 'fuzz: all properties hold\n');
  return failed ? 1 : 0;
}

process.exitCode = await main();
