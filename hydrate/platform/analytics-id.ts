import { readCookie, writeCookie } from '../runtime/cookies.ts';
import { TRACKING_MESSAGES, consoleWarn, type Warn } from './platform-messages.ts';
import type { StorageAccess } from './storage-access.ts';

/** Seed §9 lifetime and path; cookie name from seed §9, storage keys from STOREFRONT A12.8. */
export const ANALYTICS_ID = {
  cookie: 'SS_ANALYTICS_ID',
  storageKey: 'sf.analyticsId',
  expiresKey: 'sf.analyticsIdExpires',
  lifetimeDays: 390,
  lifetimeSeconds: 390 * 24 * 60 * 60,
  path: '/',
} as const;

/**
 * The platform domain the host belongs to (seed §9 "the matching parent domain"), so that
 * `shop.example.com` and `www.example.com` share one id; null for a host outside them,
 * which then gets a host-only cookie.
 */
export function matchingParentDomain(hostname: string, platformDomains: readonly string[]): string | null {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  for (const raw of platformDomains) {
    const domain = raw.toLowerCase().replace(/^\./, '').replace(/\.$/, '');
    if (domain && (host === domain || host.endsWith(`.${domain}`))) return domain;
  }
  return null;
}

export interface AnalyticsIdOptions {
  doc: Document;
  storage: StorageAccess;
  now: number;
  /** Survives between calls in one page: the third source of the seed's order. */
  memory: { id: string | null };
  /** A12.1: a restricted visitor gets no analytics cookie written. */
  restricted: boolean;
  platformDomains?: readonly string[];
  randomUuid?: () => string;
  warn?: Warn;
}

function defaultUuid(doc: Document): string {
  const c = (doc.defaultView as (Window & { crypto?: Crypto }) | null)?.crypto ?? globalThis.crypto;
  return c.randomUUID();
}

/** Seed §4: cookie, then local storage (dropped past its stored expiry), then memory, else a new UUID. */
export function resolveAnalyticsId(options: AnalyticsIdOptions): string {
  const { doc, storage, now, memory } = options;
  const warn = options.warn ?? consoleWarn;
  let id = readCookie(ANALYTICS_ID.cookie, doc);
  if (!id) {
    const stored = storage.get('local', ANALYTICS_ID.storageKey);
    const expires = Number(storage.get('local', ANALYTICS_ID.expiresKey));
    if (stored && Number.isFinite(expires) && expires > now) id = stored;
    else if (stored) {
      storage.remove('local', ANALYTICS_ID.storageKey);
      storage.remove('local', ANALYTICS_ID.expiresKey);
    }
  }
  if (!id) id = memory.id ?? (options.randomUuid ?? (() => defaultUuid(doc)))();
  memory.id = id;
  if (!options.restricted) {
    const hostname = doc.defaultView?.location.hostname ?? '';
    const domain = matchingParentDomain(hostname, options.platformDomains ?? []);
    writeCookie(ANALYTICS_ID.cookie, id, { maxAgeSeconds: ANALYTICS_ID.lifetimeSeconds, path: ANALYTICS_ID.path, ...(domain ? { domain } : {}) }, doc);
    const stored =
      storage.set('local', ANALYTICS_ID.storageKey, id) &&
      storage.set('local', ANALYTICS_ID.expiresKey, String(now + ANALYTICS_ID.lifetimeSeconds * 1000));
    if (!stored) warn(TRACKING_MESSAGES.storeAnalyticsId);
  }
  return id;
}
