// The fuzz properties with a bounded number of runs and a fixed seed, so that `npm test`
// stays fast and reproducible. `npm run fuzz -- --runs N --seed S` runs them for longer.
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { KNOWN_BUG_PROPERTIES, PROPERTIES } from './properties.ts';

const SEED = 20261122;

describe('fuzz properties', () => {
  for (const p of PROPERTIES) {
    it(p.name, async () => {
      await fc.assert(p.property as fc.IAsyncProperty<unknown>, { numRuns: p.testRuns, seed: SEED });
    }, 120_000);
  }
  // Each of these still finds its engine bug; when the fix lands this fails, as a reminder to
  // turn the entry of KNOWN_ENGINE_BUGS off.
  for (const p of KNOWN_BUG_PROPERTIES) {
    it.fails(p.name, () => {
      fc.assert(p.property, { numRuns: p.testRuns, seed: SEED });
    }, 120_000);
  }
});
