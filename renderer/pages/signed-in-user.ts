import type { ApiDeps } from '../api/context.ts';
import type { Session } from '../store/types.ts';

/**
 * The name the header shows for a signed-in member (issue 16). Site users have no name field,
 * so it is the part of their email before the `@`; an empty one reads `Account`.
 */
export function displayNameOf(email: string): string {
  const local = email.slice(0, Math.max(0, email.indexOf('@'))).trim();
  return local === '' ? 'Account' : local;
}

/**
 * The template context's `siteUser` for a valid session (C2): A0.1's two members plus
 * `displayName`. A failed lookup still gives a signed-in view, named `Account`: the header is
 * no reason to fail a page.
 */
export async function signedInUser(deps: Pick<ApiDeps, 'store'>, session: Session): Promise<Record<string, unknown>> {
  const user = await deps.store.read.getUser(session.siteUserId).catch(() => null);
  return { authenticated: true, siteUserId: session.siteUserId, displayName: displayNameOf(user?.email ?? '') };
}
