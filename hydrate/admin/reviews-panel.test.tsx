// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeAdminServer, mountPanel, unmountPanels, type FakeAnswer } from '../test-support/admin-panel-harness.ts';
import { shortDate } from './admin-api.ts';
import { ReviewsPanel, type AdminReview } from './reviews-panel.tsx';

// The reviews panel against renderer/admin/admin-routes.ts: GET /api/admin/reviews?status=
// &limit=20[&cursor=] -> {reviews, nextCursor}; POST /api/admin/reviews/:id/approve ->
// {approved: true}; DELETE /api/admin/reviews/:id -> {deleted: true}; an unknown id is 404
// REVIEW_NOT_FOUND. A fake server answers as those routes do.

const review = (n: number, change: Partial<AdminReview> = {}): AdminReview => ({
  id: `rv${n}`,
  productId: 'tee',
  productTitle: 'Classic Tee',
  rating: n,
  name: `Reviewer ${n}`,
  text: `Review text ${n}`,
  status: 'pending',
  createdOn: new Date(Date.UTC(2026, 0, n, 10, 0)).toISOString(),
  ...change,
});

const NOT_FOUND: FakeAnswer = { status: 404, body: { error: 'Review not found.', code: 'REVIEW_NOT_FOUND' } };

afterEach(unmountPanels);

const rowIds = (el: HTMLElement) => [...el.querySelectorAll('tbody tr')].map((tr) => tr.getAttribute('data-review-id'));
const status = (el: HTMLElement) => el.querySelector('[role="status"]')!.textContent;
const click = (button: Element | null) => act(async () => (button as HTMLButtonElement).click());

describe('reviews panel', () => {
  it('lists pending reviews with product, rating read as "n of 5 stars", name, text and date; more on demand', async () => {
    const server = fakeAdminServer((method, url) => {
      if (url === '/api/admin/reviews?status=pending&limit=20') return { status: 200, body: { reviews: [review(4, { productTitle: 'Harbor Hoodie' }), review(3)], nextCursor: 'c2' } };
      if (url === '/api/admin/reviews?status=pending&limit=20&cursor=c2') return { status: 200, body: { reviews: [review(1)], nextCursor: null } };
      return NOT_FOUND;
    });
    const el = await mountPanel(ReviewsPanel, server, { csrf: 'owner-csrf' });
    expect(el.querySelector('h2')!.textContent).toBe('Reviews');
    expect(rowIds(el)).toEqual(['rv4', 'rv3']);
    expect([...el.querySelectorAll('thead th')].map((th) => th.textContent)).toEqual(['Product', 'Rating', 'Reviewer', 'Review', 'Sent', 'Actions']);
    const cells = [...el.querySelectorAll('tr[data-review-id="rv4"] th, tr[data-review-id="rv4"] td')].map((cell) => cell.textContent);
    expect(cells.slice(0, 5)).toEqual(['Harbor Hoodie', '★★★★☆4 of 5 stars', 'Reviewer 4', 'Review text 4', shortDate(Date.UTC(2026, 0, 4, 10, 0))]);
    // The stars are hidden from screen readers, which read the words instead.
    expect(el.querySelector('tr[data-review-id="rv4"] .admin-stars [aria-hidden="true"]')!.textContent).toBe('★★★★☆');
    expect(el.querySelector('tr[data-review-id="rv4"] [data-action="approve"]')!.textContent).toBe('Approve review by Reviewer 4 of Harbor Hoodie');

    await click([...el.querySelectorAll('button')].find((b) => b.textContent === 'More reviews')!);
    expect(rowIds(el)).toEqual(['rv4', 'rv3', 'rv1']);
    expect([...el.querySelectorAll('button')].some((b) => b.textContent === 'More reviews')).toBe(false);
  });

  it('approves a review: the call carries the owner CSRF header, the row leaves, the status says so and focus moves on', async () => {
    const server = fakeAdminServer((method, url) => {
      if (method === 'GET' && url.startsWith('/api/admin/reviews?status=pending')) return { status: 200, body: { reviews: [review(2), review(1)], nextCursor: null } };
      if (method === 'POST' && url === '/api/admin/reviews/rv2/approve') return { status: 200, body: { approved: true } };
      return NOT_FOUND;
    });
    const el = await mountPanel(ReviewsPanel, server, { csrf: 'owner-csrf' });
    await click(el.querySelector('tr[data-review-id="rv2"] [data-action="approve"]'));
    expect(server.calls).toContain('POST /api/admin/reviews/rv2/approve');
    expect(server.headers[server.calls.indexOf('POST /api/admin/reviews/rv2/approve')]!['x-owner-csrf']).toBe('owner-csrf');
    expect(status(el)).toBe('Review by Reviewer 2 of Classic Tee approved: it now shows on the product page.');
    expect(rowIds(el)).toEqual(['rv1']);
    expect(document.activeElement).toBe(el.querySelector('tr[data-review-id="rv1"] [data-action="approve"]'));

    // A review someone else already removed: the server's message, and the row stays.
    await click(el.querySelector('tr[data-review-id="rv1"] [data-action="approve"]'));
    expect(status(el)).toBe('Review not found.');
    expect(rowIds(el)).toEqual(['rv1']);
  });

  it('deletes only after confirmation in an alert dialog; keeping it changes nothing; the last row leaves the empty state', async () => {
    const server = fakeAdminServer((method, url) => {
      if (method === 'GET') return { status: 200, body: { reviews: [review(5)], nextCursor: null } };
      if (method === 'DELETE' && url === '/api/admin/reviews/rv5') return { status: 200, body: { deleted: true } };
      return NOT_FOUND;
    });
    const el = await mountPanel(ReviewsPanel, server, { csrf: 'owner-csrf' });
    const remove = el.querySelector('tr[data-review-id="rv5"] [data-action="delete"]');
    expect(remove!.textContent).toBe('Delete review by Reviewer 5 of Classic Tee');
    await click(remove);
    const dialog = el.querySelector('[role="alertdialog"]')!;
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(dialog.querySelector('h2')!.textContent).toBe('Delete review?');
    expect(dialog.textContent).toContain('The review by Reviewer 5 of Classic Tee is removed for good. This cannot be undone.');
    await click([...dialog.querySelectorAll('button')].find((b) => b.textContent === 'Keep review')!);
    expect(el.querySelector('[role="alertdialog"]')).toBeNull();
    expect(server.calls.filter((call) => call.startsWith('DELETE'))).toEqual([]);

    await click(el.querySelector('tr[data-review-id="rv5"] [data-action="delete"]'));
    await click(el.querySelector('[data-action="confirm-delete"]'));
    expect(server.calls).toContain('DELETE /api/admin/reviews/rv5');
    expect(status(el)).toBe('Review by Reviewer 5 of Classic Tee deleted.');
    expect(el.querySelector('[role="alertdialog"]')).toBeNull();
    expect(rowIds(el)).toEqual([]);
    expect(el.querySelector('[data-empty="reviews"]')!.textContent).toBe('No reviews are waiting for approval.');
    expect(document.activeElement).toBe(el.querySelector('h2'));
  });

  it('shows approved reviews on demand (delete only), with their own empty state; a failed read offers Try again', async () => {
    let approvedReviews = [review(3, { status: 'approved' })];
    let fail = false;
    const server = fakeAdminServer((method, url) => {
      if (fail) return { status: 500, body: { error: 'Something went wrong.', code: 'INTERNAL' } };
      if (url === '/api/admin/reviews?status=pending&limit=20') return { status: 200, body: { reviews: [], nextCursor: null } };
      if (url === '/api/admin/reviews?status=approved&limit=20') return { status: 200, body: { reviews: approvedReviews, nextCursor: null } };
      return NOT_FOUND;
    });
    const el = await mountPanel(ReviewsPanel, server);
    expect(el.querySelector('[data-empty="reviews"]')!.textContent).toBe('No reviews are waiting for approval.');
    const select = el.querySelector('select')!;
    expect(el.querySelector(`label[for="${select.id}"]`)!.textContent).toBe('Show');
    await act(async () => {
      select.value = 'approved';
      select.dispatchEvent(new Event('change', { bubbles: true }));
    });
    expect(server.calls).toContain('GET /api/admin/reviews?status=approved&limit=20');
    expect(rowIds(el)).toEqual(['rv3']);
    expect(el.querySelector('tr[data-review-id="rv3"] [data-action="approve"]')).toBeNull();
    expect(el.querySelector('tr[data-review-id="rv3"] [data-action="delete"]')).not.toBeNull();

    approvedReviews = [];
    fail = true;
    await act(async () => {
      select.value = 'pending';
      select.dispatchEvent(new Event('change', { bubbles: true }));
    });
    expect(el.querySelector('[role="alert"] p')!.textContent).toBe('Unable to load results.');
    fail = false;
    await click(el.querySelector('[role="alert"] button'));
    expect(el.querySelector('[role="alert"]')).toBeNull();
    await act(async () => {
      select.value = 'approved';
      select.dispatchEvent(new Event('change', { bubbles: true }));
    });
    expect(el.querySelector('[data-empty="reviews"]')!.textContent).toBe('No approved reviews yet.');
  });
});
