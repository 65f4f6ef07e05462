// Integer conversions as the reference's Java code performs them, so that the size
// formatters fail (or saturate) on the same inputs.

import { JavaError } from '../../engine/plugin-api.ts';
import { parseJavaInt } from './java-text.ts';

const INT_MIN = -2147483648;
const INT_MAX = 2147483647;

/** `Integer.parseInt(s)`, throwing the reference's exception for bad input. */
export function parseJavaIntOrThrow(s: string): number {
  const v = parseJavaInt(s);
  if (v === null) throw new JavaError('NumberFormatException', `For input string: "${s}"`);
  return v;
}

/** Java's `(int)` cast of a float or double: NaN → 0, saturating at the int range. */
export function javaIntCast(x: number): number {
  if (x !== x) return 0;
  if (x >= INT_MAX) return INT_MAX;
  if (x <= INT_MIN) return INT_MIN;
  return Math.trunc(x) || 0;
}
