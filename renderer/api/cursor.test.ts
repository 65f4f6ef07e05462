import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeGroupCursor, decodeSignUpCursor, encodeGroupCursor, encodeSignUpCursor } from './cursor.ts';

const millis = fc.integer({ min: 0, max: 4_102_444_800_000 });

describe('keyset cursors', () => {
  it('round-trips sign-up and group cursors', () => {
    fc.assert(
      fc.property(millis, fc.string({ minLength: 1 }), fc.string(), fc.string(), (time, id, productId, variantId) => {
        expect(decodeSignUpCursor(encodeSignUpCursor({ createdOn: time, id }))).toEqual({ createdOn: time, id });
        const group = { latestSignUpOn: time, productId, variantId };
        expect(decodeGroupCursor(encodeGroupCursor(group))).toEqual(group);
      }),
    );
  });

  it('encodes {"c", "i"} as base64url JSON (B11)', () => {
    const cursor = encodeSignUpCursor({ createdOn: 0, id: 'r1' });
    expect(JSON.parse(Buffer.from(cursor, 'base64url').toString())).toEqual({ c: '1970-01-01T00:00:00.000Z', i: 'r1' });
  });

  it('rejects cursors it did not issue', () => {
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const foreign = ['%%%', '', '!!', encode({ x: 1 }), encode([1]), encode({ c: 'yesterday', i: 'r' }), encode({ c: '1970-01-01T00:00:00.000Z', i: '' }), encode({ c: '1970-01-01T00:00:00.000Z', i: 'r', extra: 1 })];
    for (const cursor of foreign) expect(decodeSignUpCursor(cursor)).toBeNull();
    expect(decodeGroupCursor(encodeSignUpCursor({ createdOn: 1, id: 'r' }))).toBeNull();
    fc.assert(fc.property(fc.string(), (junk) => {
      expect(() => decodeSignUpCursor(junk)).not.toThrow();
      expect(() => decodeGroupCursor(junk)).not.toThrow();
    }));
  });
});
