import {
  CLANKER,
  CLANKER_AUTO_FIELD_NAMES,
  clankerValidatePath,
  eventsHostKind,
  type ClankerAutoField,
  type Environment,
} from '../shared/platform-wire.ts';
import { readCookie } from '../runtime/cookies.ts';
import { TRACKING_MESSAGES, consoleWarn, fillMessage, type Warn } from './platform-messages.ts';

export type ClankerTransport = 'beacon' | 'xhr';

export interface ClankerConfig {
  environment: Environment;
  /** Origins of the two events hosts; empty means the site's own origin (the default). */
  hosts: { staging: string; production: string };
  clientName: string;
  clientVersion: string;
  transport: ClankerTransport;
  /** Validate mode posts each event to the validation endpoint instead of recording it. */
  validate: boolean;
}

/** Page facts the auto-populated fields read (seed §3). */
export interface ClankerPageFacts {
  websiteId: string | null;
  websiteLocale: string | null;
  memberAccountId: string | null;
  memberAccountLocale: string | null;
  /** Takes precedence over the document language for `resolved_locale`. */
  resolvedLocale: string | null;
}

export interface ClankerDeps {
  doc: Document;
  page: ClankerPageFacts;
  analyticsId(): string;
  sessionId(): string;
  now?: () => number;
  fetchImpl?: () => typeof fetch;
  warn?: Warn;
}

export interface ClankerTracker {
  eventsUrl(): string;
  autoFields(schemaName: string): Record<ClankerAutoField, string | number | null>;
  /** Resolves once sent (beacon queued, or 200/202); rejects with the seed's texts. */
  track(schemaName: string, payload: Record<string, unknown> | null | undefined): Promise<void>;
}

/** Seed §3: `resolved_locale` falls back to the document language, then `en-US`. */
export function resolvedLocale(explicit: string | null, doc: Document): string {
  return explicit || doc.documentElement.lang || 'en-US';
}

export function createClankerTracker(config: ClankerConfig, deps: ClankerDeps): ClankerTracker {
  const { doc, page } = deps;
  const win = doc.defaultView as Window;
  const warn = deps.warn ?? consoleWarn;
  const now = deps.now ?? (() => Date.now());
  const getFetch = deps.fetchImpl ?? (() => globalThis.fetch);

  const host = () => {
    const configured = config.hosts[eventsHostKind(config.environment)];
    return (configured || win.location.origin).replace(/\/$/, '');
  };

  function autoFields(schemaName: string): Record<ClankerAutoField, string | number | null> {
    const nav = win.navigator;
    const query = win.location.search.replace(/^\?/, '');
    return {
      analytics_id: deps.analyticsId(),
      browser_language: nav.language || null,
      browser_window_height: win.innerHeight,
      browser_window_width: win.innerWidth,
      client_name: config.clientName,
      client_version: config.clientVersion,
      marketing_id: readCookie('SS_MID', doc),
      page_host: win.location.host,
      page_path: win.location.pathname,
      page_query_params: query,
      page_referrer_url: doc.referrer || null,
      session_id: deps.sessionId(),
      enduser_user_agent: nav.userAgent,
      event_occurrence_timestamp: now(),
      browser_locale: new Intl.DateTimeFormat().resolvedOptions().locale,
      custom_schema_name: schemaName,
      source_environment: config.environment,
      context_website_id: page.websiteId,
      destination_url: null,
      member_account_id: page.memberAccountId,
      object_identifier: null,
      resolved_locale: resolvedLocale(page.resolvedLocale, doc),
      website_locale: page.websiteLocale,
      member_account_locale: page.memberAccountLocale,
    };
  }

  async function xhr(url: string, body: string): Promise<void> {
    let status = 0;
    try {
      const response = await getFetch()(url, {
        method: 'POST',
        headers: { 'content-type': CLANKER.jsonContentType },
        body,
        keepalive: true,
        credentials: 'omit',
      });
      if (CLANKER.acceptedStatuses.includes(response.status)) return;
      status = response.status;
    } catch {
      // No response: status 0, as XHR reports it.
    }
    const message = fillMessage(TRACKING_MESSAGES.httpStatus, { code: status });
    warn(message);
    throw new Error(message);
  }

  async function track(schemaName: string, payload: Record<string, unknown> | null | undefined): Promise<void> {
    if (!payload) throw new Error(TRACKING_MESSAGES.noPayload);
    const auto = autoFields(schemaName);
    for (const field of CLANKER_AUTO_FIELD_NAMES) {
      // Fields the client leaves null (destination_url, object_identifier, …) are the caller's to fill.
      if (Object.prototype.hasOwnProperty.call(payload, field) && auto[field] !== null) {
        warn(fillMessage(TRACKING_MESSAGES.overwrite, { field }));
      }
    }
    const eventContent = JSON.stringify({ ...auto, ...payload });
    const fields = { [CLANKER.fields.eventContent]: eventContent, [CLANKER.fields.eventSchemaName]: schemaName };
    if (config.validate) return xhr(host() + clankerValidatePath(schemaName), JSON.stringify(fields));
    const url = host() + CLANKER.eventsPath;
    if (config.transport === 'beacon') {
      const nav = win.navigator as Navigator & { sendBeacon?: Navigator['sendBeacon'] };
      // A URLSearchParams body makes the beacon form-encoded, a CORS-safe type: no preflight.
      if (typeof nav.sendBeacon === 'function' && nav.sendBeacon(url, new URLSearchParams(fields))) return;
    }
    // A refused beacon (queue full, body too large) falls back to the JSON request.
    return xhr(url, JSON.stringify(fields));
  }

  return { eventsUrl: () => host() + CLANKER.eventsPath, autoFields, track };
}
