import { describe, expect, test } from 'vitest';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Session } from '../store/types.ts';
import { visitorSession } from './visitor.ts';

const session: Session = { id: 's1', siteUserId: 'u1', xsrfToken: 'x', createdAt: 0, expiresAt: 1, persistent: false };

/** A store that counts every read, a request with `cookies`, and a reply that records the cookies set. */
function visit(cookies: Record<string, string>, live: Session | null = null) {
  const reads: string[] = [];
  const store = new Proxy({}, { get: (_target, name) => async () => { reads.push(String(name)); return live; } });
  const deps = { store: { read: store }, now: () => 0 } as never;
  const set: [string, string][] = [];
  const reply = { setCookie: (name: string, value: string) => set.push([name, value]) } as unknown as FastifyReply;
  const request = { cookies, protocol: 'http' } as unknown as FastifyRequest;
  return { result: visitorSession(deps, request, reply), reads, set };
}

describe('visitorSession', () => {
  test('an anonymous visitor (no session cookie) asks the store nothing and gets no promise to wait for', () => {
    const { result, reads, set } = visit({ crumb: 'c'.repeat(32) });
    expect(result).toBeNull();
    expect(reads).toEqual([]);
    expect(set).toEqual([]);
  });

  test('without a session cookie, a SiteUserInfo claiming a user is still rewritten to anonymous', () => {
    const { result, reads, set } = visit({ SiteUserInfo: '{"authenticated":true}' });
    expect(result).toBeNull();
    expect(reads).toEqual([]);
    expect(set).toEqual([['SiteUserInfo', '{"authenticated":false}']]);
  });

  test('a session cookie is looked up once; one naming no session is cleared', async () => {
    const stale = visit({ SiteUserSecureAuthToken: 'gone' });
    expect(await stale.result).toBeNull();
    expect(stale.reads).toEqual(['getLiveSession']);
    expect(stale.set).toEqual([['SiteUserSecureAuthToken', '']]);

    const live = visit({ SiteUserSecureAuthToken: 's1' }, session);
    expect(await live.result).toBe(session);
    expect(live.reads).toEqual(['getLiveSession']);
    expect(live.set).toEqual([]);
  });
});
