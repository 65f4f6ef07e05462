import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formUrlEncode, formUrlEncodeSpaces } from './uri-encode.ts';

describe('formUrlEncodeSpaces', () => {
  it('is the form encoding with every + replaced by %20', () => {
    const unit = fc.oneof(fc.constantFrom(' ', '+', '%', '\ud800', '\udc00', '\ud83d\ude00', 'é', '\t', '*', '~'), fc.string({ maxLength: 1 }));
    fc.assert(fc.property(fc.string({ unit }), (s) => {
      expect(formUrlEncodeSpaces(s)).toBe(formUrlEncode(s).replaceAll('+', '%20'));
    }), { numRuns: 2000 });
  });
});
