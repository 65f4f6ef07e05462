import { mailOrigin, type ApiDeps } from '../api/context.ts';
import { ApiError, GENERIC } from '../api/errors.ts';
import { beginAttempt } from '../api/rate-limits.ts';
import { downloadLinksMail } from '../mail/download-links.ts';
import { enqueueMail } from '../mail/outbox-worker.ts';
import type { Repository } from '../store/repository.ts';
import type { PlacedOrder } from '../store/types.ts';
import type { FastifyRequest } from 'fastify';
import { commerceRules } from './checkout.ts';
import { digitalItems, downloadsOpen } from './digital-downloads.ts';
import { ORDER_ERR } from './order-status.ts';

// The owner's side of an order's digital downloads (admin orders panel): how many of each
// file's DOWNLOAD_LIMIT downloads the buyer used, a reset of one file's count (the buyer's
// "Please contact the shop for a new one" when the limit is reached), and the links mailed to
// the buyer again. The links carry the order's token, so only the buyer's mail holds them:
// the owner's JSON shows counts, never the token.

export const DOWNLOAD_ERR = {
  noSuchDownload: () => new ApiError(404, 'DOWNLOAD_NOT_FOUND', 'This order has no download for that product.'),
  noDownloads: () => new ApiError(404, 'DOWNLOAD_NOT_FOUND', 'This order has no downloads.'),
  closed: () => new ApiError(409, 'DOWNLOADS_CLOSED', 'The downloads of this order are closed: it is not paid, or it was cancelled.'),
  /** The links were mailed as often as `downloadLinkResends` allows (the admin panel shows the message). */
  resendsLimited: (retryAfterSeconds: number) => {
    const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
    return GENERIC.rateLimited(retryAfterSeconds, `The download links of this order were emailed too often. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`);
  },
};

type Deps = Pick<ApiDeps, 'store' | 'newId' | 'now' | 'publicSite' | 'origin'>;

/** The order, locked, whose downloads are open; `itemId` (when given) one of its digital products. */
async function openOrder(repo: Repository, orderId: string, itemId?: string): Promise<PlacedOrder> {
  const order = await repo.orders.get(orderId, { lock: true });
  if (!order) throw ORDER_ERR.notFound();
  const items = digitalItems(order);
  if (items.length === 0) throw DOWNLOAD_ERR.noDownloads();
  if (itemId !== undefined && !items.some((item) => item.itemId === itemId)) throw DOWNLOAD_ERR.noSuchDownload();
  if (!downloadsOpen(order)) throw DOWNLOAD_ERR.closed();
  return order;
}

/** Starts one file's count over: its link works DOWNLOAD_LIMIT times again. The order and its counts after. */
export async function resetDownloadCount(deps: Deps, orderId: string, itemId: string): Promise<{ order: PlacedOrder; counts: Record<string, number> }> {
  return deps.store.transaction(async (repo) => {
    const order = await openOrder(repo, orderId, itemId);
    await repo.orders.resetDownloads(order.id, itemId);
    return { order, counts: await repo.orders.downloadCounts(order.id) };
  });
}

/** Queues the buyer's download links again (downloadLinksMail, through the outbox). The order and its counts. */
export async function resendDownloadLinks(deps: Deps, orderId: string): Promise<{ order: PlacedOrder; counts: Record<string, number> }> {
  return deps.store.transaction(async (repo) => {
    const order = await openOrder(repo, orderId);
    const counts = await repo.orders.downloadCounts(order.id);
    const site = await repo.getSite();
    const mail = downloadLinksMail(order, counts, { title: site ? (commerceRules(site).storeName ?? null) : null, url: mailOrigin(deps) });
    await enqueueMail(repo, { id: deps.newId('m'), to: order.email, subject: mail.subject, body: mail.text, html: mail.html, queuedOn: deps.now() });
    return { order, counts };
  });
}

/**
 * `resendDownloadLinks` within `downloadLinkResends` (a few mails an hour per order), for the
 * owner's **Email download links** and the buyer's own request on order status (211): each
 * mails the order's address only, so the count is per order whoever asks, and bounds what
 * lands in the buyer's inbox. Checked first and counted once the mail is queued: a refused
 * request (unknown order, closed downloads) mails nothing and uses up none of the sends.
 * Requests under way count meanwhile (beginAttempt): checked and counted apart, 10 presses
 * sent at once all found the same 0 sends and mailed the buyer 10 times.
 */
export async function resendDownloadLinksLimited(
  deps: Deps & Pick<ApiDeps, 'limiters'>,
  request: FastifyRequest,
  orderId: string,
): Promise<{ order: PlacedOrder; counts: Record<string, number> }> {
  const attempt = await beginAttempt(request, [{ limiter: deps.limiters.downloadLinkResends, subject: orderId }]);
  try {
    if (!attempt.allowed) throw DOWNLOAD_ERR.resendsLimited(attempt.retryAfterSeconds);
    const sent = await resendDownloadLinks(deps, orderId);
    // `failed` counts the attempt against the limit: here, the mail it queued.
    await attempt.failed();
    return sent;
  } finally {
    attempt.end();
  }
}
