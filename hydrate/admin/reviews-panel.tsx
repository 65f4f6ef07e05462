import { useEffect, useId, useRef, useState } from 'react';
import { shortDate } from './admin-api.ts';
import { AdminDialog } from './admin-dialog.tsx';
import type { PanelProps } from './admin-app.tsx';
import { LoadError, StatusLine, useCursorList } from './panel-parts.tsx';
import { AdminTable } from './table-wrap.tsx';

// Product reviews (renderer/admin/admin-routes.ts): GET /api/admin/reviews?status= a page at a
// time, POST /api/admin/reviews/:id/approve (the review then shows on its product page and the
// reviews request page) and DELETE /api/admin/reviews/:id, confirmed first. A row the owner
// acted on leaves the list in place, so the pages already read stay as they are (keyset
// cursors do not shift), and focus moves to the next row's first button.

export interface AdminReview {
  id: string;
  productId: string;
  productTitle: string;
  rating: number;
  name: string;
  text: string;
  status: 'pending' | 'approved';
  createdOn: string;
}

interface ReviewsPage {
  reviews: AdminReview[];
  nextCursor: string | null;
}

export type ReviewFilter = 'pending' | 'approved';

const FILTER_LABELS: Record<ReviewFilter, string> = { pending: 'Awaiting approval', approved: 'Approved' };
const EMPTY_TEXT: Record<ReviewFilter, string> = { pending: 'No reviews are waiting for approval.', approved: 'No approved reviews yet.' };

/** The review as one phrase for buttons, the dialog and the status line. */
const reviewName = (review: AdminReview) => `by ${review.name} of ${review.productTitle}`;

export function ReviewsPanel({ api }: PanelProps) {
  const [filter, setFilter] = useState<ReviewFilter>('pending');
  const list = useCursorList<AdminReview, ReviewsPage>(
    api,
    (cursor) => `/api/admin/reviews?status=${filter}&limit=20${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    (body) => ({ items: body.reviews, cursor: body.nextCursor }),
  );
  const [gone, setGone] = useState<ReadonlySet<string>>(new Set());
  const reviews = list.items?.filter((review) => !gone.has(review.id)) ?? null;
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);
  const [deleting, setDeleting] = useState<AdminReview | null>(null);
  // The row index to focus once an acted-on row has left the table.
  const [focusRow, setFocusRow] = useState<number | null>(null);
  const headingId = useId();
  const filterId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const body = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (focusRow === null) return;
    setFocusRow(null);
    const rows = body.current?.querySelectorAll<HTMLTableRowElement>('tbody tr') ?? [];
    const row = rows[Math.min(focusRow, rows.length - 1)];
    (row?.querySelector('button') ?? heading.current)?.focus();
  }, [focusRow]);

  const leave = (review: AdminReview) => {
    setFocusRow(reviews?.findIndex((candidate) => candidate.id === review.id) ?? 0);
    setGone(new Set([...gone, review.id]));
  };

  const approve = async (review: AdminReview) => {
    setBusy(true);
    const result = await api.send('POST', `/api/admin/reviews/${encodeURIComponent(review.id)}/approve`);
    setBusy(false);
    if (!result.ok) return setStatus(result.message);
    setStatus(`Review ${reviewName(review)} approved: it now shows on the product page.`);
    leave(review);
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    const review = deleting;
    setBusy(true);
    const result = await api.send('DELETE', `/api/admin/reviews/${encodeURIComponent(review.id)}`);
    setBusy(false);
    setDeleting(null);
    if (!result.ok) return setStatus(result.message);
    setStatus(`Review ${reviewName(review)} deleted.`);
    leave(review);
  };

  const changeFilter = (next: ReviewFilter) => {
    setFilter(next);
    setGone(new Set());
    setStatus('');
  };

  return (
    <section className="admin-panel" aria-labelledby={headingId} data-admin-panel="reviews">
      <h2 id={headingId} ref={heading} tabIndex={-1}>
        Reviews
      </h2>
      <p>Reviews visitors send from the review page wait here until you approve them; only approved reviews show on the shop.</p>
      <div className="admin-toolbar">
        <label htmlFor={filterId}>Show</label>
        <select id={filterId} value={filter} onChange={(e) => changeFilter(e.target.value as ReviewFilter)} data-action="review-filter">
          {(Object.keys(FILTER_LABELS) as ReviewFilter[]).map((value) => (
            <option key={value} value={value}>
              {FILTER_LABELS[value]}
            </option>
          ))}
        </select>
      </div>
      <StatusLine text={status} />
      <LoadError message={list.error} onRetry={() => void list.reload()} />
      <div ref={body}>
        {reviews && reviews.length === 0 && !list.hasMore ? <p data-empty="reviews">{EMPTY_TEXT[filter]}</p> : null}
        {reviews && reviews.length > 0 ? (
          <AdminTable label={`Reviews: ${FILTER_LABELS[filter].toLowerCase()}`} columns={['Product', 'Rating', 'Reviewer', 'Review', 'Sent', { hidden: 'Actions' }]}>
            {reviews.map((review) => (
              <tr key={review.id} data-review-id={review.id}>
                <th scope="row">{review.productTitle}</th>
                <td>
                  <Stars rating={review.rating} />
                </td>
                <td>{review.name}</td>
                <td className="admin-review-text">{review.text}</td>
                <td>{shortDate(review.createdOn)}</td>
                <td>
                  <span className="admin-row-actions">
                    {review.status === 'pending' ? (
                      <button type="button" disabled={busy} data-action="approve" onClick={() => void approve(review)}>
                        Approve<span className="admin-visually-hidden"> review {reviewName(review)}</span>
                      </button>
                    ) : null}
                    <button type="button" className="admin-danger" disabled={busy} data-action="delete" onClick={() => setDeleting(review)}>
                      Delete<span className="admin-visually-hidden"> review {reviewName(review)}</span>
                    </button>
                  </span>
                </td>
              </tr>
            ))}
          </AdminTable>
        ) : null}
      </div>
      {list.hasMore ? (
        <button type="button" className="admin-secondary" onClick={() => void list.more()}>
          More reviews
        </button>
      ) : null}
      {deleting ? (
        <AdminDialog
          title="Delete review?"
          role="alertdialog"
          description={`The review ${reviewName(deleting)} is removed${deleting.status === 'approved' ? ' from the shop' : ''} for good. This cannot be undone.`}
          onClose={() => setDeleting(null)}
        >
          <div className="admin-dialog-actions">
            <button type="button" className="admin-secondary" onClick={() => setDeleting(null)}>
              Keep review
            </button>
            <button type="button" className="admin-danger" data-action="confirm-delete" disabled={busy} onClick={() => void confirmDelete()}>
              Delete review
            </button>
          </div>
        </AdminDialog>
      ) : null}
    </section>
  );
}

/** Stars for the eye, "4 of 5 stars" for a screen reader. */
function Stars({ rating }: { rating: number }) {
  const filled = Math.max(0, Math.min(5, Math.round(rating)));
  return (
    <span className="admin-stars">
      <span aria-hidden="true">
        {'★'.repeat(filled)}
        {'☆'.repeat(5 - filled)}
      </span>
      <span className="admin-visually-hidden">
        {filled} of 5 stars
      </span>
    </span>
  );
}
