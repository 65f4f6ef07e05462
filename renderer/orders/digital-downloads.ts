import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { SeedData } from '../store/seed.ts';
import type { PlacedOrder } from '../store/types.ts';

// Delivery of digital products (productType 2). A product names its file in the site folder
// (catalog.json `digitalFile`); once its order is paid the order gets one unguessable token
// (24 random bytes), and each digital line a link `/commerce/downloads/<token>/<itemId>`
// (pages/download-route.ts). The request only picks an order and one of its lines: the file is
// the catalogue's, resolved here inside the site folder, so nothing a visitor sends reaches
// the filesystem. Each file of an order is served DOWNLOAD_LIMIT times, so a leaked link is bounded.

/** How many times each file of an order is served (counted in orders.download_counts, migration 014). */
export const DOWNLOAD_LIMIT = 10;

export const DOWNLOADS_PREFIX = '/commerce/downloads/';

/** A new order's download token: 192 random bits, URL-safe (32 characters). */
export function newDownloadToken(): string {
  return crypto.randomBytes(24).toString('base64url');
}

/** The token's form: anything else is never looked up. */
export const DOWNLOAD_TOKEN = /^[A-Za-z0-9_-]{32}$/;

/**
 * Statuses whose downloads are served: paid (or since fulfilled, or partly refunded: the buyer
 * keeps what they paid for). Awaiting payment, cancelled (refunded or not) and refunded in full are refused.
 */
export const DOWNLOADABLE_STATUSES: readonly PlacedOrder['status'][] = ['paid', 'fulfilled', 'partially-refunded'];

export const isDigitalLine = (item: { productType: number }): boolean => item.productType === 2;

/** The order needs a token: it has a digital line. */
export const hasDigitalLines = (order: Pick<PlacedOrder, 'items'>): boolean => order.items.some(isDigitalLine);

export function downloadPath(token: string, itemId: string): string {
  return `${DOWNLOADS_PREFIX}${token}/${encodeURIComponent(itemId)}`;
}

export interface DownloadLink {
  itemId: string;
  title: string;
  /** Site-relative (`/commerce/downloads/…`), or absolute when an origin was given (mail). */
  url: string;
}

/** The order's digital products, each once (two lines of one product share its file and its count). */
export function digitalItems(order: Pick<PlacedOrder, 'items'>): { itemId: string; title: string }[] {
  const seen = new Set<string>();
  const items: { itemId: string; title: string }[] = [];
  for (const item of order.items) {
    if (!isDigitalLine(item) || seen.has(item.itemId)) continue;
    seen.add(item.itemId);
    items.push({ itemId: item.itemId, title: item.productName });
  }
  return items;
}

/** The order's downloads are served now: it has its token and is paid (or since fulfilled). */
export const downloadsOpen = (order: Pick<PlacedOrder, 'downloadToken' | 'status'>): boolean =>
  Boolean(order.downloadToken) && DOWNLOADABLE_STATUSES.includes(order.status);

/** One digital product of an order as the owner sees it (admin orders panel): downloads used of the limit. */
export interface OwnerDownload {
  itemId: string;
  title: string;
  used: number;
  limit: number;
}

/** The order's digital products with their counts (`orders.download_counts`); none before the order has its token. */
export function ownerDownloads(order: PlacedOrder, counts: Readonly<Record<string, number>>): OwnerDownload[] {
  if (!order.downloadToken) return [];
  return digitalItems(order).map(({ itemId, title }) => ({ itemId, title, used: counts[itemId] ?? 0, limit: DOWNLOAD_LIMIT }));
}

/** The buyer's links of an order: one per digital product, once the order is paid; none before, or after a cancel. */
export function downloadLinks(order: PlacedOrder, origin: string | null = null): DownloadLink[] {
  const token = order.downloadToken;
  if (!token || !downloadsOpen(order)) return [];
  const base = origin ? origin.replace(/\/+$/, '') : '';
  return digitalItems(order).map(({ itemId, title }) => ({ itemId, title, url: `${base}${downloadPath(token, itemId)}` }));
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.pdf': 'application/pdf',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
  '.svg': 'image/svg+xml',
  '.zip': 'application/zip',
  '.epub': 'application/epub+zip',
  '.mp3': 'audio/mpeg',
  '.mp4': 'video/mp4',
  '.txt': 'text/plain; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
};

/** The Content-Type of a file by its extension; an unknown one is plain bytes. */
export function downloadContentType(file: string): string {
  return CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/** `attachment` with the file's name: an ASCII fallback and the RFC 5987 UTF-8 name. */
export function attachmentDisposition(file: string): string {
  const name = path.basename(file);
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

export type DigitalFileCheck = { file: string; size: number } | { problem: string };

/**
 * A catalogue `digitalFile` resolved in the site folder `siteDir`: the real file, or why not.
 * Absolute paths and paths leaving the folder (`../`, or a link pointing out of it) are refused.
 */
export function resolveDigitalFile(siteDir: string, relative: string): DigitalFileCheck {
  if (relative === '' || path.isAbsolute(relative) || /^[a-zA-Z]:|\\|\0/.test(relative)) {
    return { problem: `must be a path inside the site folder (such as "downloads/poster.pdf"), found "${relative}"` };
  }
  const root = path.resolve(siteDir);
  const inside = (candidate: string, base: string) => {
    const rel = path.relative(base, candidate);
    return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
  };
  const joined = path.resolve(root, relative);
  if (!inside(joined, root)) return { problem: `"${relative}" leaves the site folder` };
  let real: string;
  let stat: fs.Stats;
  try {
    real = fs.realpathSync(joined);
    stat = fs.statSync(real);
  } catch {
    return { problem: `"${relative}" is not a file in the site folder` };
  }
  if (!inside(real, fs.realpathSync(root))) return { problem: `"${relative}" leaves the site folder (through a link)` };
  if (!stat.isFile()) return { problem: `"${relative}" is not a file` };
  return { file: real, size: stat.size };
}

export interface DigitalFileFinding {
  /** JSON pointer of the `digitalFile` value in catalog.json. */
  pointer: string;
  message: string;
}

/** The catalogue's `digitalFile` values that name no file inside `siteDir` (site load and `quire check`). */
export function digitalFileFindings(siteDir: string, catalog: SeedData): DigitalFileFinding[] {
  const findings: DigitalFileFinding[] = [];
  (catalog.products ?? []).forEach((product, index) => {
    const value = product.digitalFile;
    if (value === undefined) return;
    const pointer = `/products/${index}/digitalFile`;
    if (typeof value !== 'string') return void findings.push({ pointer, message: `products[${index}].digitalFile must be a path in the site folder` });
    const check = resolveDigitalFile(siteDir, value);
    if ('problem' in check) findings.push({ pointer, message: `products[${index}].digitalFile ${check.problem}` });
  });
  return findings;
}

/** The file of product `itemId` in the loaded catalogue, or null (no such product, no file, or it went away). */
export function digitalFileOf(siteDir: string, catalog: SeedData | null, itemId: string): { file: string; size: number } | null {
  const product = catalog?.products?.find((candidate) => candidate.id === itemId);
  if (!product || typeof product.digitalFile !== 'string') return null;
  const check = resolveDigitalFile(siteDir, product.digitalFile);
  return 'problem' in check ? null : check;
}
