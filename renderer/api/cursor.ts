import { hasUnstorableText } from './http.ts';

// Keyset cursors (B11, B12): base64url of a small JSON object naming the last row returned.
// Decoding is strict, so a cursor this server did not issue is rejected rather than guessed at.

export interface SignUpCursor {
  createdOn: number;
  id: string;
}

export interface GroupCursor {
  latestSignUpOn: number;
  productId: string;
  variantId: string;
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

function encode(value: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}

function decodeObject(cursor: string): Record<string, unknown> | null {
  if (cursor.length === 0 || cursor.length > 1024 || !BASE64URL.test(cursor)) return null;
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
    // An id holding NUL or a lone surrogate names no row, and the database would refuse it.
    return hasUnstorableText(value) ? null : (value as Record<string, unknown>);
  } catch {
    return null;
  }
}

function hasExactKeys(value: Record<string, unknown>, keys: string[]): boolean {
  const own = Object.keys(value);
  return own.length === keys.length && keys.every((key) => own.includes(key));
}

function parseIsoMillis(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const millis = Date.parse(value);
  return Number.isFinite(millis) && new Date(millis).toISOString() === value ? millis : null;
}

export function encodeSignUpCursor(cursor: SignUpCursor): string {
  return encode({ c: new Date(cursor.createdOn).toISOString(), i: cursor.id });
}

export function decodeSignUpCursor(cursor: string): SignUpCursor | null {
  const value = decodeObject(cursor);
  if (!value || !hasExactKeys(value, ['c', 'i'])) return null;
  const createdOn = parseIsoMillis(value.c);
  if (createdOn === null || typeof value.i !== 'string' || value.i.length === 0) return null;
  return { createdOn, id: value.i };
}

export function encodeGroupCursor(cursor: GroupCursor): string {
  return encode({ l: new Date(cursor.latestSignUpOn).toISOString(), p: cursor.productId, v: cursor.variantId });
}

export function decodeGroupCursor(cursor: string): GroupCursor | null {
  const value = decodeObject(cursor);
  if (!value || !hasExactKeys(value, ['l', 'p', 'v'])) return null;
  const latestSignUpOn = parseIsoMillis(value.l);
  if (latestSignUpOn === null || typeof value.p !== 'string' || typeof value.v !== 'string') return null;
  return { latestSignUpOn, productId: value.p, variantId: value.v };
}
