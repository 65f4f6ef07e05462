import { describe, expect, test } from 'vitest';
import type { Session } from '../store/types.ts';
import { displayNameOf, signedInUser } from './signed-in-user.ts';

const session: Session = { id: 's1', siteUserId: 'u1', xsrfToken: 'x', createdAt: 0, expiresAt: 1, persistent: false };
const storeWith = (getUser: (id: string) => Promise<unknown>) => ({ store: { read: { getUser } } }) as never;

describe('the signed-in member in the header', () => {
  test('the name is the email before the @, and Account when there is none', () => {
    expect(displayNameOf('ada.lovelace@example.com')).toBe('ada.lovelace');
    expect(displayNameOf('@example.com')).toBe('Account');
    expect(displayNameOf('')).toBe('Account');
    expect(displayNameOf('no-at-sign')).toBe('Account');
  });

  test('the session user is looked up; a failed lookup is still signed in, as Account', async () => {
    expect(await signedInUser(storeWith(async () => ({ id: 'u1', email: 'demo@example.com' })), session)).toEqual({
      authenticated: true,
      siteUserId: 'u1',
      displayName: 'demo',
    });
    expect(await signedInUser(storeWith(async () => { throw new Error('disk'); }), session)).toMatchObject({ displayName: 'Account' });
  });
});
