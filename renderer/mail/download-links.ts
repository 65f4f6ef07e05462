import { escapeHtml } from '../pages/html.ts';
import { downloadLinks, DOWNLOAD_LIMIT } from '../orders/digital-downloads.ts';
import type { PlacedOrder } from '../store/types.ts';
import type { ReceiptMail, ReceiptSite } from './order-receipt.ts';

/**
 * The buyer's download links of a paid order again, when the owner re-sends them from the admin
 * (a lost receipt, a count just reset): one link per digital product with the downloads it has
 * left, and nothing else of the order (no totals, no address, no payment): the mail is about the
 * files. `used` is the order's `download_counts` (item id -> downloads so far).
 */
export function downloadLinksMail(order: PlacedOrder, used: Readonly<Record<string, number>>, site: ReceiptSite): ReceiptMail {
  const shop = site.title?.trim() || 'our shop';
  const links = downloadLinks(order, site.url ?? null).map((link) => {
    const left = Math.max(0, DOWNLOAD_LIMIT - (used[link.itemId] ?? 0));
    return { ...link, left: left === 1 ? '1 download left' : `${left} downloads left` };
  });
  const subject = `Your downloads from ${shop} (order #${order.orderNumber})`;
  const intro = `Here are the download links of your order #${order.orderNumber} from ${shop}.`;
  const text = [intro, '', ...links.map((link) => `${link.title}: ${link.url} (${link.left})`), '', `Each file can be downloaded ${DOWNLOAD_LIMIT} times.`, ''].join('\n');
  const html = [
    `<p>${escapeHtml(intro)}</p>`,
    `<ul>${links.map((link) => `<li><a href="${escapeHtml(link.url)}">Download ${escapeHtml(link.title)}</a> (${escapeHtml(link.left)})</li>`).join('')}</ul>`,
    `<p>${escapeHtml(`Each file can be downloaded ${DOWNLOAD_LIMIT} times.`)}</p>`,
  ].join('\n');
  return { subject, text, html };
}
