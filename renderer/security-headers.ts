import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/** A Content-Security-Policy as directive name → sources (`null` drops a directive). */
export type CspDirectives = Record<string, string[] | null>;

/**
 * The Content-Security-Policy of every response (README "Limits"). Pages load scripts only
 * from this origin: the islands bundle and its chunks, and the local captcha, all under
 * `/assets/`. The page's data blocks (`sf-context`, BNPL, cart forms) are
 * `<script type="application/json">`, which a policy does not govern, so no page needs an
 * inline script and none may run. Styles may be inline: the head's `<style>` holds the
 * site's stylesheet and templates write `style` attributes; a style cannot run code.
 * Images may come from this origin (the site folder's `images/`, served at `/assets/site/images/`
 * with their width variants), any HTTPS host (sites' images live on CDNs) or `data:` URLs.
 */
export const CONTENT_SECURITY_POLICY: CspDirectives = {
  'default-src': ["'self'"],
  'base-uri': ["'self'"],
  'connect-src': ["'self'"],
  'font-src': ["'self'", 'https:', 'data:'],
  'form-action': ["'self'"],
  'frame-ancestors': ["'self'"],
  'img-src': ["'self'", 'data:', 'https:'],
  'object-src': ["'none'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  'style-src': ["'self'", 'https:', "'unsafe-inline'"],
};

function mergedDirectives(overrides: CspDirectives): Record<string, string[]> {
  const directives: Record<string, string[]> = {};
  for (const [name, sources] of Object.entries({ ...CONTENT_SECURITY_POLICY, ...overrides })) {
    if (sources !== null) directives[name] = sources;
  }
  return directives;
}

/**
 * helmet's options: its defaults, with the policy above (plus `overrides`, e.g. the preview's
 * live-reload script) and the browser's own referrer policy, since the trackers report the
 * in-site referrer (helmet's `no-referrer` would blank it).
 */
export function helmetOptions(overrides: CspDirectives = {}): HelmetOptions {
  return {
    // useDefaults off: exactly the directives above. Helmet's default adds
    // upgrade-insecure-requests, which would send a server reached over plain HTTP
    // (127.0.0.1, an internal network) to https:// for every asset.
    contentSecurityPolicy: { useDefaults: false, directives: mergedDirectives(overrides) },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  };
}

/**
 * The headers helmet writes, computed once: with no per-response nonce they are the same for
 * every response. `@fastify/helmet` builds helmet's middleware anew on every request, which
 * bench:http measured at 34 µs of the page's 150 µs of server CPU per response (116 µs
 * without it); running helmet once and copying its headers costs well under 1 µs.
 */
export function securityHeaders(overrides: CspDirectives = {}): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(helmetOptions(overrides))({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

/**
 * Puts the security headers on every response of `app`. Most answers pass its onRequest hook;
 * the few that Fastify's router gives before any hook runs (a malformed URL's 400) take
 * `headers` themselves.
 */
export function installSecurityHeaders(app: FastifyInstance, headers: Record<string, string>): void {
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}
