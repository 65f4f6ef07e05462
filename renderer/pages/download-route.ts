import fs from 'node:fs';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import {
  attachmentDisposition,
  digitalFileOf,
  DOWNLOAD_LIMIT,
  DOWNLOAD_TOKEN,
  DOWNLOADABLE_STATUSES,
  downloadContentType,
  DOWNLOADS_PREFIX,
  isDigitalLine,
} from '../orders/digital-downloads.ts';
import type { Store } from '../store/store.ts';
import type { LoadedSite } from '../site/site-types.ts';

/**
 * `GET /commerce/downloads/<token>/<itemId>`: a paid order's digital product, as a file
 * (orders/digital-downloads.ts). The token picks the order and the item id one of its digital
 * lines; the file is the one the loaded catalogue names, so nothing of the request reaches the
 * filesystem. Refused with a 404 and a plain line, like the other file routes of the pages: an
 * unknown token or line, an order not paid (awaiting payment, cancelled, refunded), a file gone,
 * or a file already served DOWNLOAD_LIMIT times for the order. Never cached: the link is the buyer's.
 */
export const DOWNLOAD_TEXT = {
  unknown: 'This download link is not valid. Check the link in your receipt.',
  closed: 'The downloads of this order are closed: it is not paid, or it was cancelled.',
  limit: `This download link has been used ${DOWNLOAD_LIMIT} times, its limit. Please contact the shop for a new one.`,
} as const;

const PARAMS = Type.Object({
  token: Type.String({ description: "The order's download token (receipt, order pages)." }),
  itemId: Type.String({ description: 'The digital product of the order.' }),
});

function refuse(reply: FastifyReply, text: string): FastifyReply {
  return reply.code(404).type('text/plain; charset=utf-8').header('cache-control', 'private, no-store').send(text);
}

export function registerDownloadRoute(app: FastifyInstance, getSite: () => LoadedSite, store: Store): void {
  app.get<{ Params: { token: string; itemId: string } }>(
    `${DOWNLOADS_PREFIX}:token/:itemId`,
    // A HEAD would count as a download: only GET is served.
    { exposeHeadRoute: false, schema: { summary: "A paid order's digital product, as a file (a limited number of times).", params: PARAMS } },
    async (request, reply) => {
      const { token, itemId } = request.params;
      if (!DOWNLOAD_TOKEN.test(token) || itemId.length > 200) return refuse(reply, DOWNLOAD_TEXT.unknown);
      const order = await store.read.orders.findByDownloadToken(token);
      if (!order || !order.items.some((item) => item.itemId === itemId && isDigitalLine(item))) return refuse(reply, DOWNLOAD_TEXT.unknown);
      if (!DOWNLOADABLE_STATUSES.includes(order.status)) return refuse(reply, DOWNLOAD_TEXT.closed);
      const site = getSite();
      const found = digitalFileOf(site.dir, site.catalog, itemId);
      if (!found) {
        // The catalogue names no file for it (any more): the owner's to fix, so it is logged.
        request.log.warn({ itemId }, 'digital product without a file in the site folder');
        return refuse(reply, DOWNLOAD_TEXT.unknown);
      }
      // Counted before the bytes go out, in one statement with the status and limit checks (a
      // cancel in between closes it too).
      const count = await store.read.orders.takeDownload(token, itemId, DOWNLOAD_LIMIT, DOWNLOADABLE_STATUSES);
      if (count === null) {
        const again = await store.read.orders.findByDownloadToken(token);
        return refuse(reply, again && DOWNLOADABLE_STATUSES.includes(again.status) ? DOWNLOAD_TEXT.limit : DOWNLOAD_TEXT.closed);
      }
      return reply
        .type(downloadContentType(found.file))
        .header('content-disposition', attachmentDisposition(found.file))
        .header('content-length', String(found.size))
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .send(fs.createReadStream(found.file));
    },
  );
}
