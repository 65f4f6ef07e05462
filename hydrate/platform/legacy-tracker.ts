import { LEGACY_TRACKER, type LegacyPayloadKey } from '../shared/platform-wire.ts';
import { readCookie } from '../runtime/cookies.ts';
import { TRACKING_MESSAGES, consoleWarn, fillMessage, type Warn } from './platform-messages.ts';

/** Seed §3 "Legacy tracking event payload". */
export type LegacyPayload = Record<LegacyPayloadKey, string | null>;

export interface LegacyTrackerOptions {
  doc: Document;
  /** `{origin}` of the seed's URL; by default none, i.e. a path relative to the page's own origin. */
  origin?: string;
  fetchImpl?: () => typeof fetch;
  warn?: Warn;
}

export interface LegacyTracker {
  /** Resolves on any 2xx; rejects with the seed's texts otherwise. */
  recordEvent(event: string, payload: LegacyPayload | null | undefined): Promise<void>;
}

export function createLegacyTracker(options: LegacyTrackerOptions): LegacyTracker {
  const { doc } = options;
  const warn = options.warn ?? consoleWarn;
  const getFetch = options.fetchImpl ?? (() => globalThis.fetch);
  const origin = options.origin ?? '';

  async function recordEvent(event: string, payload: LegacyPayload | null | undefined): Promise<void> {
    if (!payload) throw new Error(TRACKING_MESSAGES.noPayload);
    const { fields } = LEGACY_TRACKER;
    const body = new URLSearchParams({
      // Read at send time: a crumb failure elsewhere on the page replaces the cookie.
      [fields.crumb]: readCookie('crumb', doc) ?? '',
      [fields.event]: event,
      [fields.data]: JSON.stringify(payload),
    });
    let status = 0;
    try {
      const response = await getFetch()(origin + LEGACY_TRACKER.path, {
        method: 'POST',
        headers: { 'content-type': LEGACY_TRACKER.contentType },
        body: body.toString(),
        credentials: 'same-origin',
        keepalive: true,
      });
      if (response.ok) return;
      status = response.status;
    } catch {
      // A network failure has no status; XHR reports it as 0, and so does this client.
    }
    const message = fillMessage(TRACKING_MESSAGES.httpStatus, { code: status });
    warn(message);
    throw new Error(message);
  }

  return { recordEvent };
}
