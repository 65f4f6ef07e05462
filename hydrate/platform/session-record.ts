import { readCookie, writeCookie } from '../runtime/cookies.ts';
import type { StorageAccess } from './storage-access.ts';

/** Seed §3 "Session record". */
export interface SessionRecord {
  isFirstLanding: boolean;
  isFirstSession: boolean;
  sessionId: string;
}

/**
 * Seed §4 places: first-session flag in session storage, has-landed flag in local storage,
 * session id in a session cookie (mirrored in session storage). Names are designed.
 */
export const SESSION_KEYS = {
  firstSession: 'sf.isFirstSession',
  hasLanded: 'sf.hasLanded',
  sessionId: 'sf.sessionId',
  sessionCookie: 'SS_SESSION_ID',
} as const;

export interface SessionRecordOptions {
  doc: Document;
  storage: StorageAccess;
  /** A restricted visitor gets no session cookie; the id then lives in session storage only. */
  restricted: boolean;
  cookieDomain?: string | null;
  randomUuid: () => string;
}

/**
 * A browser's first page ever is its first landing; every page of the session that began
 * with that landing belongs to the first session. The session id cookie has no expiry, so
 * it ends with the browser session.
 */
export function resolveSessionRecord(options: SessionRecordOptions): SessionRecord {
  const { doc, storage } = options;
  const isFirstLanding = storage.get('local', SESSION_KEYS.hasLanded) !== 'true';
  storage.set('local', SESSION_KEYS.hasLanded, 'true');

  const storedFirst = storage.get('session', SESSION_KEYS.firstSession);
  const isFirstSession = storedFirst === null ? isFirstLanding : storedFirst === 'true';
  if (storedFirst === null) storage.set('session', SESSION_KEYS.firstSession, String(isFirstSession));

  let sessionId = (options.restricted ? null : readCookie(SESSION_KEYS.sessionCookie, doc)) ?? storage.get('session', SESSION_KEYS.sessionId);
  if (!sessionId) sessionId = options.randomUuid();
  storage.set('session', SESSION_KEYS.sessionId, sessionId);
  if (!options.restricted && readCookie(SESSION_KEYS.sessionCookie, doc) !== sessionId) {
    writeCookie(SESSION_KEYS.sessionCookie, sessionId, { path: '/', sameSite: 'Lax', ...(options.cookieDomain ? { domain: options.cookieDomain } : {}) }, doc);
  }
  return { isFirstLanding, isFirstSession, sessionId };
}
