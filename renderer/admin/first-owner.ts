import crypto from 'node:crypto';
import type { Store } from '../store/store.ts';
import { hashPassword } from '../store/password.ts';

// The first owner account, made at start (README "Admin"): from ADMIN_EMAIL and
// ADMIN_PASSWORD when both are set, else, on a store with no owner yet, the demo owner with
// a random password that the start log prints once (`npm start` only: tests and the
// preview make their owners themselves).

export const DEMO_OWNER_EMAIL = 'owner@example.com';
export const MIN_OWNER_PASSWORD_LENGTH = 10;

export type FirstOwnerResult =
  | { kind: 'created'; email: string; generatedPassword: string | null }
  | { kind: 'updated'; email: string }
  | { kind: 'unchanged' };

export class OwnerSettingsError extends Error {}

/**
 * With ADMIN_EMAIL + ADMIN_PASSWORD: that owner exists with that password (created, or its
 * password replaced, so a forgotten password is reset by a restart). Without them: a demo
 * owner when there is no owner at all. Safe when N servers start together (insert is
 * conditional on the email).
 */
export async function ensureFirstOwner(store: Store, env: Record<string, string | undefined>, now = Date.now()): Promise<FirstOwnerResult> {
  const email = env.ADMIN_EMAIL?.trim() || '';
  const password = env.ADMIN_PASSWORD ?? '';
  if ((email === '') !== (password === '')) throw new OwnerSettingsError('ADMIN_EMAIL and ADMIN_PASSWORD must be set together');
  if (email !== '') {
    if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw new OwnerSettingsError('ADMIN_EMAIL is not an email address');
    if (password.length < MIN_OWNER_PASSWORD_LENGTH) throw new OwnerSettingsError(`ADMIN_PASSWORD must have at least ${MIN_OWNER_PASSWORD_LENGTH} characters`);
    const existing = await store.read.admin.getOwnerByEmail(email);
    const passwordHash = await hashPassword(password);
    if (existing) {
      await store.read.admin.setOwnerPassword(existing.id, passwordHash);
      return { kind: 'updated', email: existing.email };
    }
    const created = await store.read.admin.insertOwner({ id: ownerId(), email, passwordHash, createdAt: now });
    return created ? { kind: 'created', email, generatedPassword: null } : { kind: 'unchanged' };
  }
  if ((await store.read.admin.countOwners()) > 0) return { kind: 'unchanged' };
  const generated = crypto.randomBytes(12).toString('base64url');
  const created = await store.read.admin.insertOwner({ id: ownerId(), email: DEMO_OWNER_EMAIL, passwordHash: await hashPassword(generated), createdAt: now });
  return created ? { kind: 'created', email: DEMO_OWNER_EMAIL, generatedPassword: generated } : { kind: 'unchanged' };
}

/** The start log's line for a result, or null when there is nothing to say. */
export function firstOwnerLine(result: FirstOwnerResult, origin: string): string | null {
  if (result.kind === 'unchanged') return null;
  if (result.kind === 'updated') return `quire: admin owner ${result.email}: password set from ADMIN_PASSWORD`;
  if (result.generatedPassword === null) return `quire: admin owner ${result.email} created; sign in at ${origin}/admin`;
  return (
    `quire: admin owner ${result.email} created with password ${result.generatedPassword} ` +
    `(shown once; sign in at ${origin}/admin, or set ADMIN_EMAIL and ADMIN_PASSWORD)`
  );
}

function ownerId(): string {
  return `own_${crypto.randomBytes(12).toString('base64url')}`;
}
