import { describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { demoSite, useDemoHarness } from '../test-support/page-harness.ts';
import type { ProductReview } from '../store/review-repository.ts';
import { ensureFirstOwner } from './first-owner.ts';
import { OWNER_COOKIE } from './owner-auth.ts';

// Review moderation (admin-routes.ts /api/admin/reviews, store/review-repository.ts) on the
// demo site: the [admin] guard and the owner CSRF header, the site-wide list by status with
// keyset pages, approve and delete, and an approval reaching the product page and the reviews
// request page (209), read through the page harness.

const h = useDemoHarness({ resetEach: true });

const EMAIL = 'owner@shop.test';
const PASSWORD = 'a long owner password';

interface Owner {
  cookies: Record<string, string>;
  headers: Record<string, string>;
}

async function signIn(): Promise<Owner> {
  await ensureFirstOwner(h.store, { ADMIN_EMAIL: EMAIL, ADMIN_PASSWORD: PASSWORD });
  const response = await h.inject({ method: 'POST', url: '/api/admin/session', payload: { email: EMAIL, password: PASSWORD } });
  expect(response.statusCode).toBe(200);
  const cookie = response.cookies.find((c) => c.name === OWNER_COOKIE)!.value;
  return { cookies: { [OWNER_COOKIE]: cookie }, headers: { 'x-owner-csrf': response.json().csrfToken } };
}

async function websiteId(): Promise<string> {
  return (await h.store.read.getSite())!.websiteId;
}

async function addReview(change: Partial<ProductReview> & { id: string }): Promise<void> {
  await h.store.read.reviews.add({ websiteId: await websiteId(), productId: 'tee', rating: 4, name: 'Ada', text: 'Soft and well cut.', status: 'pending', createdOn: 1_000, ...change });
}

const list = async (owner: Owner, query = '') => h.inject({ method: 'GET', url: `/api/admin/reviews${query}`, cookies: owner.cookies });
const ids = (body: { reviews: { id: string }[] }) => body.reviews.map((review) => review.id);

describe('review moderation API', () => {
  it('needs the owner: no credentials is 401, and the writes need the X-Owner-CSRF header', async () => {
    await addReview({ id: 'rv1' });
    for (const [method, url] of [['GET', '/api/admin/reviews'], ['POST', '/api/admin/reviews/rv1/approve'], ['DELETE', '/api/admin/reviews/rv1']] as const) {
      const bare = await h.inject({ method, url });
      expect(bare.statusCode, url).toBe(401);
      expect(bare.json()).toEqual({ error: 'Admin authorization required.', code: 'ADMIN_REQUIRED' });
    }
    const owner = await signIn();
    expect((await list(owner)).statusCode).toBe(200);
    for (const [method, url] of [['POST', '/api/admin/reviews/rv1/approve'], ['DELETE', '/api/admin/reviews/rv1']] as const) {
      const noCsrf = await h.inject({ method, url, cookies: owner.cookies });
      expect(noCsrf.statusCode, url).toBe(403);
      expect(noCsrf.json().code).toBe('OWNER_CSRF_FAIL');
      const wrong = await h.inject({ method, url, cookies: owner.cookies, headers: { 'x-owner-csrf': 'x'.repeat(32) } });
      expect(wrong.statusCode, url).toBe(403);
    }
    expect((await h.store.read.reviews.list(await websiteId(), 'tee', 'pending', 10)).map((r) => r.id)).toEqual(['rv1']);

    // An API key passes the guard as a bearer, without the header (it is not a cookie).
    const key = await h.inject({ method: 'POST', url: '/api/admin/api-keys', ...owner, payload: { name: 'Moderation bot' } });
    const bearer = { authorization: `Bearer ${key.json().secret}` };
    const approved = await h.inject({ method: 'POST', url: '/api/admin/reviews/rv1/approve', headers: bearer });
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toEqual({ approved: true });
  });

  it('lists one status across products, newest first, with the product title; pending by default', async () => {
    await addReview({ id: 'rv-old', createdOn: 1_000, rating: 2, name: 'Bo', text: 'Shrank.' });
    await addReview({ id: 'rv-new', productId: 'hoodie', createdOn: 3_000 });
    await addReview({ id: 'rv-ok', createdOn: 2_000, status: 'approved' });
    // Another site's review in the same database is never listed, approved or deleted here.
    await h.store.read.reviews.add({ id: 'rv-other', websiteId: 'another-site', productId: 'tee', rating: 5, name: 'X', text: 'Y', status: 'pending', createdOn: 5_000 });
    const owner = await signIn();
    const pending = (await list(owner)).json();
    expect(ids(pending)).toEqual(['rv-new', 'rv-old']);
    expect(pending.nextCursor).toBeNull();
    expect(pending.reviews[1]).toEqual({
      id: 'rv-old',
      productId: 'tee',
      productTitle: 'Classic Tee',
      rating: 2,
      name: 'Bo',
      text: 'Shrank.',
      status: 'pending',
      createdOn: new Date(1_000).toISOString(),
    });
    expect(pending.reviews[0].productTitle).toBe('Harbor Hoodie');
    expect(ids((await list(owner, '?status=approved')).json())).toEqual(['rv-ok']);
    for (const method of ['POST', 'DELETE'] as const) {
      const url = method === 'POST' ? '/api/admin/reviews/rv-other/approve' : '/api/admin/reviews/rv-other';
      expect((await h.inject({ method, url, ...owner })).json().code).toBe('REVIEW_NOT_FOUND');
    }
    expect(await h.store.read.reviews.count('another-site', 'tee', 'pending')).toBe(1);

    const badStatus = await list(owner, '?status=rejected');
    expect(badStatus.statusCode).toBe(400);
    expect(badStatus.json()).toEqual({ error: "status must be 'pending' or 'approved'.", code: 'BAD_QUERY' });
    expect((await list(owner, '?cursor=%25%25')).json().code).toBe('INVALID_CURSOR');
    expect((await list(owner, '?limit=0')).json().code).toBe('BAD_QUERY');
  });

  it('pages with limit and nextCursor, keyset on (time, id): equal times neither repeat nor skip', async () => {
    for (let i = 0; i < 5; i++) await addReview({ id: `rv${i}`, createdOn: i < 3 ? 7_000 : 1_000 + i });
    const owner = await signIn();
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const response = await list(owner, `?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body.reviews.length).toBeLessThanOrEqual(2);
      seen.push(...ids(body));
      cursor = body.nextCursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual(['rv2', 'rv1', 'rv0', 'rv4', 'rv3']);
  });

  it('an unknown review is 404 REVIEW_NOT_FOUND for approve and delete', async () => {
    const owner = await signIn();
    for (const [method, url] of [['POST', '/api/admin/reviews/nope/approve'], ['DELETE', '/api/admin/reviews/nope']] as const) {
      const response = await h.inject({ method, url, ...owner });
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toEqual({ error: 'Review not found.', code: 'REVIEW_NOT_FOUND' });
    }
  });

  it('approving makes a review public on its product page and the reviews request page; deleting takes it off', async () => {
    await addReview({ id: 'rv-mod', name: 'Moderated <Ada>', text: 'Washes well & keeps its shape.', rating: 3 });
    const item = '<li class="sf-review"><span class="sf-review-rating" role="img" aria-label="3 out of 5">★★★☆☆</span> <span class="sf-review-author">Moderated &lt;Ada&gt;</span><p class="sf-review-text">Washes well &amp; keeps its shape.</p></li>';
    const productPage = async () => (await h.inject('/shop/tee')).body;
    const reviewPage = async () => (await h.inject('/review?productId=tee')).body;
    expect(await productPage()).not.toContain('Moderated');
    expect(await reviewPage()).not.toContain('Moderated');
    // The demo tee's catalogue reviews, which the rating so far counts before any approval.
    const tee = (await h.store.read.getProduct('tee'))!;
    const catalogue = (tee.extra.reviews as Array<{ rating: number }>).map((review) => review.rating);
    const before = { count: catalogue.length, sum: catalogue.reduce((a, b) => a + b, 0) };
    expect(before.count).toBeGreaterThan(0);

    const owner = await signIn();
    const approve = await h.inject({ method: 'POST', url: '/api/admin/reviews/rv-mod/approve', ...owner });
    expect(approve.statusCode).toBe(200);
    // Approved reviews come first, then the catalogue's own (Sam's and Ari's on the demo tee).
    const shown = await productPage();
    expect(shown).toContain(`<ul class="sf-review-list">${item}<li class="sf-review"><span class="sf-review-rating" role="img" aria-label="5 out of 5">`);
    expect(shown).toContain('Fits perfectly.');
    expect(await reviewPage()).toContain('<li class="sf-review"><p class="sf-review-stars">3 out of 5</p><p>Washes well &amp; keeps its shape.</p><footer>Moderated &lt;Ada&gt;</footer></li>');
    // The rating so far counts it with the catalogue's reviews.
    const summary = (body: string) => /<p class="sf-review-summary">([^<]*)<\/p>/.exec(body)?.[1];
    expect(summary(await reviewPage())).toBe(`Reviews so far: ${before.count + 1}, rated ${((before.sum + 3) / (before.count + 1)).toFixed(1)} out of 5 on average.`);
    expect(ids((await list(owner)).json())).toEqual([]);
    expect(ids((await list(owner, '?status=approved')).json())).toEqual(['rv-mod']);
    // Another product's page does not list it.
    expect((await h.inject('/shop/hoodie')).body).not.toContain('Moderated');

    const deleted = await h.inject({ method: 'DELETE', url: '/api/admin/reviews/rv-mod', ...owner });
    expect(deleted.json()).toEqual({ deleted: true });
    expect(await productPage()).not.toContain('Moderated');
    expect(await reviewPage()).not.toContain('Moderated');
    expect(ids((await list(owner, '?status=approved')).json())).toEqual([]);
    expect((await h.inject({ method: 'DELETE', url: '/api/admin/reviews/rv-mod', ...owner })).statusCode).toBe(404);
  });

  it('a pending review can be deleted without being approved', async () => {
    await addReview({ id: 'rv-spam', text: 'Buy cheap watches' });
    const owner = await signIn();
    expect((await h.inject({ method: 'DELETE', url: '/api/admin/reviews/rv-spam', ...owner })).statusCode).toBe(200);
    expect(await h.store.read.reviews.count(await websiteId(), 'tee', 'pending')).toBe(0);
    expect(await h.store.read.reviews.count(await websiteId(), 'tee', 'approved')).toBe(0);
  });

  it('with the read cache (npm start), the product page reads its reviews from memory, and an approval drops them at once', async () => {
    await addReview({ id: 'rv-cached', text: 'Cached until approved.' });
    const app = await buildApp({ store: h.store, site: await demoSite(), now: () => h.clock.now, readCacheMs: 60_000 });
    try {
      const owner = await signIn();
      const queries: string[] = [];
      const query = h.store.client.query.bind(h.store.client);
      h.store.client.query = (async (sql: string, params?: readonly unknown[]) => {
        queries.push(sql);
        return query(sql, params);
      }) as typeof h.store.client.query;
      try {
        expect((await app.inject('/shop/tee')).body).not.toContain('Cached until approved.');
        queries.length = 0;
        expect((await app.inject('/shop/tee')).body).not.toContain('Cached until approved.');
        expect(queries.filter((sql) => sql.includes('product_reviews'))).toEqual([]);
        expect((await app.inject({ method: 'POST', url: '/api/admin/reviews/rv-cached/approve', ...owner })).statusCode).toBe(200);
        expect((await app.inject('/shop/tee')).body).toContain('Cached until approved.');
        expect((await app.inject({ method: 'DELETE', url: '/api/admin/reviews/rv-cached', ...owner })).statusCode).toBe(200);
        expect((await app.inject('/shop/tee')).body).not.toContain('Cached until approved.');
      } finally {
        h.store.client.query = query;
      }
    } finally {
      await app.close();
    }
  });
});
