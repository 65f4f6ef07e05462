import { beforeEach, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { json, START, withCrumb } from '../../test-support/api-harness.ts';
import { DEMO_PASSWORD, demoSite, setCookies, useDemoHarness } from '../../test-support/page-harness.ts';

// POST /api/commerce/reviews on the demo site: a product of a collection the visitor cannot
// open is refused exactly as an unknown product (the reviews request page's rule, 62413f5),
// so the answer neither stores a review nor tells a guesser the locked collection holds it.

const h = useDemoHarness({ resetEach: true });
// Each test sends from its own hour: the sends count against the per-client form limit (5 a
// minute), whose counters outlive the harness's reset of the clock.
let hour = 0;
beforeEach(() => {
  h.clock.now = START + ++hour * 60 * 60_000;
});

const review = (productId: string, cookies: Record<string, string> = {}) =>
  h.inject(withCrumb({ method: 'POST', url: '/api/commerce/reviews', cookies, payload: { productId, rating: 5, name: 'Ada', text: 'Lovely.' } }));

async function pendingTeeReviews(): Promise<number> {
  const site = await h.store.read.getSite();
  return h.store.read.reviews.count(site!.websiteId, 'tee', 'pending');
}

function refusal(response: LightMyRequestResponse) {
  return { status: response.statusCode, body: json(response) };
}

describe('POST /api/commerce/reviews of a guarded collection', () => {
  const guard = async (change: { password?: string; memberArea?: boolean }) => {
    const site = await demoSite();
    const entries = site.entries.map((entry) => (entry.slug === 'shop' ? { ...entry, ...change } : entry));
    h.setSite({ ...site, entries, bySlug: new Map(entries.map((entry) => [entry.slug, entry])) });
  };

  it('password-protected and locked: the unknown product’s 404 PRODUCT_NOT_FOUND, nothing stored; unlocked: stored', async () => {
    const unknown = refusal(await review('no-such-product'));
    expect(unknown).toEqual({ status: 404, body: { error: 'No such product.', code: 'PRODUCT_NOT_FOUND' } });
    await guard({ password: 'pw' });
    expect(refusal(await review('tee'))).toEqual(unknown);
    expect(await pendingTeeReviews()).toBe(0);

    const unlock = await h.inject({ method: 'POST', url: '/unlock', payload: 'scope=shop&password=pw&returnTo=%2Fshop', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    const cookie = setCookies(unlock).map((c) => c.split(';')[0]!).find((c) => c.startsWith('sf_unlock'))!;
    expect(cookie).toBeDefined();
    const at = cookie.indexOf('=');
    const answer = await review('tee', { [cookie.slice(0, at)]: cookie.slice(at + 1) });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(await pendingTeeReviews()).toBe(1);
  });

  it('member-only and signed out: the unknown product’s 404, nothing stored; signed in: stored', async () => {
    await guard({ memberArea: true });
    expect(refusal(await review('tee'))).toEqual(refusal(await review('no-such-product')));
    expect(await pendingTeeReviews()).toBe(0);

    const signIn = await h.inject(withCrumb({ method: 'POST', url: '/api/site-users/account/session', payload: { email: 'demo@example.com', password: DEMO_PASSWORD } }));
    const token = signIn.cookies.find((c) => c.name === 'SiteUserSecureAuthToken')!.value;
    const answer = await review('tee', { SiteUserSecureAuthToken: token });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(await pendingTeeReviews()).toBe(1);
  });

  it('an open collection is as before: stored', async () => {
    expect((await review('tee')).statusCode).toBe(200);
    expect(await pendingTeeReviews()).toBe(1);
  });
});
