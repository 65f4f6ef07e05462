import crypto from 'node:crypto';
import type { Store } from '../store/store.ts';
import { hashPassword, verifyPassword } from '../store/password.ts';
import { emailKey } from '../store/repository.ts';

// The first owner account, made at start (README "Admin"): from ADMIN_EMAIL and
// ADMIN_PASSWORD when both are set, else, on a store with no owner yet, the demo owner with
// a random password that the start log prints once (`npm start` only: tests and the
// preview make their owners themselves).

export const DEMO_OWNER_EMAIL = 'owner@example.com';
export const MIN_OWNER_PASSWORD_LENGTH = 10;

export type FirstOwnerResult = (
  | { kind: 'created'; email: string; generatedPassword: string | null }
  /** The password was changed: `sessionsEnded` sessions signed out, `apiKeys` keys left as they are. */
  | { kind: 'updated'; email: string; sessionsEnded: number; apiKeys: number }
  | { kind: 'unchanged' }
) & {
  /** The demo owner, whose password a start log printed, was removed: ADMIN_EMAIL names another. */
  demoRemoved?: true;
};

export class OwnerSettingsError extends Error {}

/**
 * With ADMIN_EMAIL + ADMIN_PASSWORD: that owner exists with that password (created, or its
 * password replaced, so a forgotten or leaked password is reset by a restart, which signs out
 * every session of the owner; a start with the same password changes nothing), and the demo
 * owner is removed. Without them: a demo owner when there is no owner at all. Safe when N
 * servers start together (insert is conditional on the email; the first to change the
 * password makes the others find it set).
 */
export async function ensureFirstOwner(store: Store, env: Record<string, string | undefined>, now = Date.now()): Promise<FirstOwnerResult> {
  const email = env.ADMIN_EMAIL?.trim() || '';
  const password = env.ADMIN_PASSWORD ?? '';
  if ((email === '') !== (password === '')) throw new OwnerSettingsError('ADMIN_EMAIL and ADMIN_PASSWORD must be set together');
  if (email !== '') {
    if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw new OwnerSettingsError('ADMIN_EMAIL is not an email address');
    if (password.length < MIN_OWNER_PASSWORD_LENGTH) throw new OwnerSettingsError(`ADMIN_PASSWORD must have at least ${MIN_OWNER_PASSWORD_LENGTH} characters`);
    const admin = store.read.admin;
    const demo = emailKey(email) !== emailKey(DEMO_OWNER_EMAIL) && (await admin.deleteOwnerByEmail(DEMO_OWNER_EMAIL)) ? { demoRemoved: true as const } : {};
    const existing = await admin.getOwnerByEmail(email);
    if (existing) {
      if (await verifyPassword(password, existing.passwordHash)) return { kind: 'unchanged', ...demo };
      const sessionsEnded = await admin.setOwnerPassword(existing.id, await hashPassword(password));
      return { kind: 'updated', email: existing.email, sessionsEnded, apiKeys: await admin.countApiKeys(), ...demo };
    }
    const created = await admin.insertOwner({ id: ownerId(), email, passwordHash: await hashPassword(password), createdAt: now });
    return created ? { kind: 'created', email, generatedPassword: null, ...demo } : { kind: 'unchanged', ...demo };
  }
  if ((await store.read.admin.countOwners()) > 0) return { kind: 'unchanged' };
  const generated = crypto.randomBytes(12).toString('base64url');
  const created = await store.read.admin.insertOwner({ id: ownerId(), email: DEMO_OWNER_EMAIL, passwordHash: await hashPassword(generated), createdAt: now });
  return created ? { kind: 'created', email: DEMO_OWNER_EMAIL, generatedPassword: generated } : { kind: 'unchanged' };
}

/** The start log's lines for a result (none when there is nothing to say). */
export function firstOwnerLines(result: FirstOwnerResult, origin: string): string[] {
  const lines: string[] = [];
  if (result.demoRemoved) lines.push(`quire: demo owner ${DEMO_OWNER_EMAIL} removed: ADMIN_EMAIL names the owner`);
  if (result.kind === 'updated') {
    let line = `quire: admin owner ${result.email}: password set from ADMIN_PASSWORD; ${result.sessionsEnded} session(s) signed out`;
    if (result.apiKeys > 0) line += `; ${result.apiKeys} API key(s) still work: delete any you did not make in the admin's API keys panel`;
    lines.push(line);
  } else if (result.kind === 'created' && result.generatedPassword === null) lines.push(`quire: admin owner ${result.email} created; sign in at ${origin}/admin`);
  else if (result.kind === 'created') {
    lines.push(
      `quire: admin owner ${result.email} created with password ${result.generatedPassword} ` +
        `(shown once; sign in at ${origin}/admin, or set ADMIN_EMAIL and ADMIN_PASSWORD)`,
    );
  }
  return lines;
}

function ownerId(): string {
  return `own_${crypto.randomBytes(12).toString('base64url')}`;
}
