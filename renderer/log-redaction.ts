import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import { RESET_FRAGMENT } from '../hydrate/shared/reset-link.ts';

/**
 * What the server's logs may hold about a visitor (README "Limits"): never a password, an
 * email, a form's values, a cookie or a token. Three layers:
 * - `redact`: any of these keys that reaches a log object is censored (headers, bodies, and
 *   the fields a handler might pass by mistake);
 * - `req`: a request is logged by method, path and the *names* of its query parameters (a
 *   query can carry a cart token or a search text), never headers or body;
 * - `err`: an error keeps its type, message, code and stack, and nothing else: a database
 *   error's `detail` or `parameters` holds the row's values (`Key (email)=(…)`); e-mail
 *   addresses left in a message, or in any log message, are masked.
 */
export const REDACT_PATHS = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["x-csrf-token"]',
  'req.headers["x-siteuser-xsrf-token"]',
  'res.headers["set-cookie"]',
  'headers.cookie',
  'headers.authorization',
  'req.body',
  'body',
  'cookies',
  'password',
  'email',
  'values',
  'form',
  // A password reset link's token (api/routes/password-reset-routes.ts): it opens an account.
  'token',
  '*.body',
  '*.cookies',
  '*.password',
  '*.email',
  '*.values',
  '*.form',
  '*.token',
];
export const REDACTED = '[redacted]';

/** Characters that end an address in a message (besides `@`, which splits one). */
const MESSAGE_STOP = /[\s"'<>()[\]{},;:]/;
/** Characters that end an address in a URL path: its own separators. */
const PATH_STOP = /[\s/;=?&,]/;

/** How much scanning a mask did (tests count it: the work must grow with the text's length, no faster). */
export interface ScanWork {
  steps: number;
}

/**
 * `text` with every e-mail-like part (`local@domain.tld`: a part without `@` or a stop
 * character, `@`, and a part with a `.` neither first nor last) replaced by `[email]`. The
 * masks were regular expressions, `/[^stop@]+@[^stop@]+\.[^stop@]+/g`, which try every start
 * position and scan to the end of the run from each: a request path of 15,000 letters cost
 * 1.1 s of CPU to log (the request line is logged at LOG_LEVEL=info), a 16 KB log message
 * as much. This scan reads each character a bounded number of times and masks the same parts.
 */
function maskAddresses(text: string, stop: RegExp, work?: ScanWork): string {
  let out = '';
  let index = 0;
  while (index < text.length) {
    // One run: the characters up to the next stop character (`@` included in the run).
    let end = index;
    while (end < text.length && !stop.test(text[end]!)) end++;
    if (work) work.steps += end - index + 1;
    out += maskRun(text.slice(index, end), work);
    if (end < text.length) out += text[end]!;
    index = end + 1;
  }
  return out;
}

/** One run without stop characters: each `local@domain.tld` pair of its `@`-separated parts masked, leftmost first. */
function maskRun(run: string, work?: ScanWork): string {
  if (!run.includes('@')) return run;
  const parts = run.split('@');
  if (work) work.steps += run.length;
  const out: string[] = [];
  let i = 0;
  while (i < parts.length) {
    const local = parts[i]!;
    const domain = parts[i + 1];
    const dot = domain === undefined ? -1 : domain.indexOf('.', 1);
    if (local !== '' && domain !== undefined && dot > 0 && dot < domain.length - 1) {
      out.push('[email]');
      i += 2;
    } else {
      out.push(local);
      i += 1;
    }
  }
  // The parts joined as they were: a masked pair stands for `local@domain`.
  return out.join('@');
}

/** A message with any e-mail address in it masked. */
export function maskEmails(text: string, work?: ScanWork): string {
  return maskAddresses(text, MESSAGE_STOP, work);
}

/** What a query parameter's name looks like; anything else in its place may be a value. */
const QUERY_NAME = /^[A-Za-z0-9_.\-[\]]{1,64}$/;
/**
 * Paths that carry a secret: a paid order's download link (orders/digital-downloads.ts), whose
 * token serves the buyer's files, and an order's own pages (`/commerce/orders/<id>/confirmed`,
 * `received`, `subscription-confirmed`), whose id shows the buyer's email, address and those
 * download links to whoever holds it. Neither is logged, no more than a reset link's token.
 */
const SECRET_IN_PATH = /^((?:\/api)?\/commerce\/(?:downloads|orders))\/(?!status(?:\/|$))[^/]+(?=\/|$)/;
/** The same two secrets anywhere in a text (a full address, a referrer, an error's message). */
const SECRET_IN_TEXT = /(\/commerce\/(?:downloads|orders))\/(?!status(?:[/?#;\s]|$))[^/?#;\s"'<>]+/g;
/**
 * Query (or `;`-matrix) parameters whose value opens something: a cart (`cartToken`, the
 * checkout's), a newsletter unsubscribe link (`email` and `token`,
 * mail/newsletter-unsubscribe.ts), an order or a download by its key.
 */
const SECRET_PARAMS = ['cartToken', 'token', 'email', 'orderId', 'downloadToken'];
const SECRET_PARAM_VALUE = new RegExp(`([?&;#](?:${SECRET_PARAMS.join('|')})=)[^&#;\\s"'<>]*`, 'gi');
/** A password reset link's token (hydrate/shared/reset-link.ts drops it client-side; older pages and other clients may not). */
const RESET_TOKEN = new RegExp(`#${RESET_FRAGMENT}=[^\\s"'<>&]*`, 'g');
/** What ends an address in a stored text: a message's stops and a URL's own separators. */
const TEXT_STOP = /[\s"'<>()[\]{},;:/?&=#]/;

/**
 * `text` (a page path, a full address, a referrer, or any text a beacon sent) with what opens
 * an order, a cart, a download, an unsubscribe or an account left out: an order's or a
 * download's key in a path, the values of `SECRET_PARAMS`, a reset link's token, and e-mail
 * addresses (plain or percent-encoded). Everything else is kept as it was, so page paths
 * still count: `/shop?category=tees` is unchanged. The census and platform analytics tables
 * store texts through it (census-routes.ts, platform-routes.ts), as the logs do paths.
 */
export function redactSecrets(text: string, work?: ScanWork): string {
  const out = text
    .replace(SECRET_IN_TEXT, `$1/${REDACTED}`)
    .replace(SECRET_PARAM_VALUE, `$1${REDACTED}`)
    .replace(RESET_TOKEN, `#${RESET_FRAGMENT}`);
  if (!out.includes('@') && !/%40/i.test(out)) return out;
  const decoded = out.replace(/%40/gi, '@');
  const masked = maskAddresses(decoded, TEXT_STOP, work);
  // Only a masked address changes the text: a %40 elsewhere stays as it was sent.
  return masked === decoded ? out : masked;
}

/**
 * Keys whose value is itself a key to a cart or an order (the A12 commerce beacons send
 * `cartId` and `purchasedCartId`): with the cart's id anyone opens its checkout, and a
 * purchased cart's checkout names its order.
 */
const SECRET_KEYS = new Set(['cartId', 'purchasedCartId', 'cartToken', 'orderId', 'downloadToken', 'token', 'email', 'password']);

/** `value` (a beacon's JSON data) with `redactSecrets` applied to every string in it and the values of `SECRET_KEYS` redacted. */
export function redactSecretsDeep<T>(value: T, depth = 0): T {
  if (typeof value === 'string') return redactSecrets(value) as T;
  if (value === null || typeof value !== 'object' || depth > 64) return value;
  if (Array.isArray(value)) return value.map((item) => redactSecretsDeep(item, depth + 1)) as T;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] = SECRET_KEYS.has(key) && item !== null && typeof item !== 'object' ? REDACTED : redactSecretsDeep(item, depth + 1);
  }
  return out as T;
}

/**
 * The path and the query's parameter names: `/checkout?cartToken=…` stays `/checkout?cartToken`.
 * A part without `=` is its own name, so one that does not look like a name is redacted
 * (`?secret.person@example.com&pw:hunter2` was logged as sent), and e-mail addresses in the
 * path, plain or percent-encoded, are masked (`/unsubscribe;email=…`).
 */
export function loggableUrl(url: string, work?: ScanWork): string {
  const at = url.indexOf('?');
  const path = maskAddresses((at < 0 ? url : url.slice(0, at)).replace(/%40/gi, '@'), PATH_STOP, work).replace(SECRET_IN_PATH, `$1/${REDACTED}`);
  if (at < 0) return path;
  const names = url
    .slice(at + 1)
    .split('&')
    .filter((pair) => pair !== '')
    .map((pair) => {
      const name = pair.split('=')[0]!;
      return QUERY_NAME.test(name) ? name : REDACTED;
    });
  return `${path}?${names.join('&')}`;
}

/** SQLSTATE class 22, data exceptions: PostgreSQL quotes the offending value in their message. */
const SQL_DATA_EXCEPTION = /^22[0-9A-Z]{3}$/;

interface LoggedError {
  type: string;
  message: string;
  code?: string;
  statusCode?: number;
  stack?: string;
  cause?: LoggedError;
}

export function serializeError(error: unknown, depth = 0): LoggedError | unknown {
  if (!(error instanceof Error)) return typeof error === 'string' ? maskEmails(error) : error === null || typeof error !== 'object' ? error : { type: 'non-error' };
  const { code, statusCode } = error as { code?: unknown; statusCode?: unknown };
  const logged: LoggedError = { type: error.constructor?.name ?? 'Error', message: maskEmails(error.message) };
  if (typeof code === 'string') logged.code = code;
  if (typeof statusCode === 'number') logged.statusCode = statusCode;
  // The stack's first line repeats the message.
  if (error.stack) logged.stack = maskEmails(error.stack);
  if (typeof code === 'string' && SQL_DATA_EXCEPTION.test(code)) {
    // `invalid input syntax for type integer: "…"`: the code says what went wrong.
    logged.message = `database data exception ${code} (the message quotes the value)`;
    const frames = logged.stack?.indexOf('\n    at ') ?? -1;
    if (frames < 0) delete logged.stack;
    else logged.stack = logged.stack!.slice(frames + 1);
  }
  if (error.cause !== undefined && depth < 3) logged.cause = serializeError(error.cause, depth + 1) as LoggedError;
  return logged;
}

interface LoggedRequest {
  method: string;
  url: string;
  host?: string;
  remoteAddress?: string;
  remotePort?: number;
}

function serializeRequest(request: { method: string; url: string; host?: string; ip?: string; socket?: { remotePort?: number } }): LoggedRequest {
  return { method: request.method, url: loggableUrl(request.url), host: request.host, remoteAddress: request.ip, remotePort: request.socket?.remotePort };
}

type LoggerOption = FastifyServerOptions['logger'];

/**
 * The app's logger options with redaction and the serializers above added (a logger that is
 * off stays off). Applied in `buildApp`, so every server built from it logs the same way.
 */
export function redactingLogger(logger: LoggerOption): LoggerOption {
  if (!logger) return false;
  const options = logger === true ? {} : (logger as Exclude<LoggerOption, boolean | undefined | FastifyBaseLogger> & { serializers?: Record<string, unknown> });
  return {
    ...options,
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    // Messages are plain text (Fastify's own error logs use the error's message as theirs).
    hooks: {
      logMethod(this: unknown, args: unknown[], method: (...args: unknown[]) => void) {
        method.apply(this, args.map((arg) => (typeof arg === 'string' ? maskEmails(arg) : arg)));
      },
    },
    serializers: { ...options.serializers, req: serializeRequest, err: serializeError },
  } as unknown as LoggerOption;
}
