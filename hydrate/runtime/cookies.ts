/** Cookie access through `document.cookie` (the only API a browser page has). */

export function readCookies(doc: Document = document): Map<string, string> {
  const out = new Map<string, string>();
  const raw = doc.cookie;
  if (!raw) return out;
  for (const part of raw.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    if (!name || out.has(name)) continue;
    out.set(name, part.slice(eq + 1).trim());
  }
  return out;
}

export function readCookie(name: string, doc: Document = document): string | null {
  return readCookies(doc).get(name) ?? null;
}

export interface CookieOptions {
  maxAgeSeconds?: number;
  path?: string;
  sameSite?: 'Lax' | 'Strict' | 'None';
  /** A parent domain shares the cookie with sibling hosts (the analytics id, seed §9). */
  domain?: string;
}

export function writeCookie(name: string, value: string, options: CookieOptions = {}, doc: Document = document): void {
  let text = `${name}=${value}; path=${options.path ?? '/'}`;
  if (options.maxAgeSeconds !== undefined) {
    text += `; max-age=${options.maxAgeSeconds}`;
    // Some agents ignore max-age; an explicit expiry keeps the lifetime the same everywhere.
    text += `; expires=${new Date(Date.now() + options.maxAgeSeconds * 1000).toUTCString()}`;
  }
  if (options.domain) text += `; domain=${options.domain}`;
  if (options.sameSite) text += `; samesite=${options.sameSite}`;
  doc.cookie = text;
}

export function deleteCookie(name: string, doc: Document = document): void {
  doc.cookie = `${name}=; path=/; max-age=0; expires=Thu, 01 Jan 1970 00:00:00 GMT`;
}

/** A0.2: cookies count as enabled only when the agent says so and a test cookie survives. */
export function cookiesEnabled(doc: Document = document): boolean {
  const nav = doc.defaultView?.navigator;
  if (!nav || nav.cookieEnabled === false) return false;
  const probe = `sf_cookie_probe_${Math.random().toString(36).slice(2)}`;
  try {
    doc.cookie = `${probe}=1; path=/`;
    const ok = readCookie(probe, doc) === '1';
    deleteCookie(probe, doc);
    return ok;
  } catch {
    return false;
  }
}
