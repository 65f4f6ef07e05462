/**
 * The `platform` member of the page's `#sf-context` block: what the renderer tells the
 * browser platform runtime (`hydrate/platform/`). Pure, so the renderer can type the block it
 * writes with the same definition. Every field has a safe default: a page without the
 * member sends nothing.
 */
import { ENVIRONMENTS, type Environment } from './platform-wire.ts';

export interface PlatformContext {
  /** Page view through the legacy tracker (POST /api/events/RecordEvent). */
  legacyTracking: boolean;
  /** Page view through the newer tracker (clanker events). */
  clankerTracking: boolean;
  clankerTransport: 'beacon' | 'xhr';
  clankerValidate: boolean;
  /** Web-vitals collection and POST /api/1/performance/records. */
  performance: boolean;
  environment: Environment;
  /** Events host origins; '' means the site's own origin. */
  eventsHosts: { staging: string; production: string };
  /** Parent domains the analytics id cookie may be shared on (seed §9). */
  platformDomains: string[];
  /** Website status id (seed §3; internal = 6) and whether the user is internal (seed §6). */
  websiteStatus: number | null;
  internalUser: boolean;
  /** Experiment definitions by name; null when the configuration is not loaded. */
  experiments: Record<string, unknown> | null;
  memberAccountId: string | null;
  memberLocale: string | null;
  variantId: string | null;
  clientName: string;
  clientVersion: string;
}

export const PLATFORM_CONTEXT_KEY = 'platform';
/** Designed event / schema names of the page view. */
export const PAGE_VIEW_EVENT = 'page_view';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {});
const str = (v: unknown, fallback: string) => (typeof v === 'string' ? v : fallback);
const strOrNull = (v: unknown) => (typeof v === 'string' ? v : null);
const isHttpOrigin = (v: unknown) => typeof v === 'string' && /^https?:\/\/[^/?#\s]+$/.test(v);

export function normalizePlatformContext(raw: unknown): PlatformContext {
  const c = obj(raw);
  const hosts = obj(c.eventsHosts);
  return {
    legacyTracking: c.legacyTracking === true,
    clankerTracking: c.clankerTracking === true,
    clankerTransport: c.clankerTransport === 'xhr' ? 'xhr' : 'beacon',
    clankerValidate: c.clankerValidate === true,
    performance: c.performance === true,
    environment: (ENVIRONMENTS as readonly unknown[]).includes(c.environment) ? (c.environment as Environment) : 'prod',
    // Anything but a bare origin would let page data redirect the beacons; it falls back to the site.
    eventsHosts: {
      staging: isHttpOrigin(hosts.staging) ? (hosts.staging as string) : '',
      production: isHttpOrigin(hosts.production) ? (hosts.production as string) : '',
    },
    platformDomains: Array.isArray(c.platformDomains) ? c.platformDomains.filter((d): d is string => typeof d === 'string' && d !== '') : [],
    websiteStatus: typeof c.websiteStatus === 'number' && Number.isInteger(c.websiteStatus) ? c.websiteStatus : null,
    internalUser: c.internalUser === true,
    experiments: c.experiments && typeof c.experiments === 'object' && !Array.isArray(c.experiments) ? (c.experiments as Json) : null,
    memberAccountId: strOrNull(c.memberAccountId),
    memberLocale: strOrNull(c.memberLocale),
    variantId: strOrNull(c.variantId),
    clientName: str(c.clientName, 'quire-storefront'),
    clientVersion: str(c.clientVersion, '1'),
  };
}

/** Whether any client has work on this page (the boot loads the runtime chunk only then). */
export function platformWanted(context: PlatformContext): boolean {
  return context.legacyTracking || context.clankerTracking || context.performance;
}
