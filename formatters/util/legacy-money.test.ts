import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { roundDouble, roundDoubleExact } from './legacy-money.ts';

describe('roundDouble', () => {
  it('rounds as the exact decimal of the double does, half-even, for every currency scale', () => {
    const edge = [0, -0, 0.5, -0.5, 1.005, 2.345, 0.125, -0.125, 1234.5, -0.004, -0.005, 1e-9, 2 ** 40, 2 ** 40 / 100 + 0.005, 1e21, -1e21, 123456789.125];
    for (const x of edge) for (const d of [0, 1, 2, 3]) expect(roundDouble(x, d), `${x} ${d}`).toBe(roundDoubleExact(x, d));
    fc.assert(
      fc.property(
        fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e13, max: 1e13 }), fc.integer({ min: -1e9, max: 1e9 }).map((n) => n / 1000), fc.integer({ min: -1e9, max: 1e9 }).map((n) => n / 100 + 0.005)),
        fc.constantFrom(0, 1, 2, 3),
        (x, d) => {
          expect(roundDouble(x, d)).toBe(roundDoubleExact(x, d));
        },
      ),
      { numRuns: 5000 },
    );
  });
});
