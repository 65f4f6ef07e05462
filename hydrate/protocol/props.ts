/**
 * Props serializer and parser for the JSON blocks the server embeds in HTML for islands
 * (`sf-context`, the BNPL context, the cart-page form definitions). Pure and shared by the
 * renderer and the browser.
 *
 * The encoding is plain JSON made safe to place inside `<script type="application/json">`:
 * `<`, `>`, `&`, U+2028 and U+2029 are written as `\uXXXX` escapes, which JSON.parse reads
 * back unchanged, so no string can close the script element or open a comment.
 *
 * Server-only values never reach the page: a value wrapped with `serverOnly()` and any
 * property whose name is in SERVER_ONLY_KEYS is dropped (and listed in `dropped`), so a
 * renderer that hands over a whole store record cannot leak a password hash or token.
 */

export type PropsErrorCode =
  | 'PROPS_NOT_SERIALIZABLE'
  | 'PROPS_CYCLE'
  | 'PROPS_TOO_DEEP'
  | 'PROPS_TOO_LARGE'
  | 'PROPS_PARSE';

export interface PropsError {
  code: PropsErrorCode;
  message: string;
  /** JSON-pointer-like path of the offending value ('' for the root). */
  path: string;
}

export type SerializeResult =
  | { ok: true; text: string; dropped: string[] }
  | { ok: false; error: PropsError };

export type ParseResult = { ok: true; value: unknown } | { ok: false; error: PropsError };

export interface PropsLimits {
  maxDepth: number;
  maxChars: number;
}

export const DEFAULT_PROPS_LIMITS: PropsLimits = { maxDepth: 64, maxChars: 1 << 20 };

/**
 * Property names that are never sent to the browser whatever object they sit in. Tokens a
 * browser legitimately needs (the site-user `xsrfToken`, the captcha `siteKey`) are not here.
 */
export const SERVER_ONLY_KEYS: ReadonlySet<string> = new Set([
  'password',
  'passwordhash',
  'admintoken',
  'secret',
  'clientsecret',
  'privatekey',
  'sessionid',
  'sessiontoken',
  'siteusersecureauthtoken',
]);

const SERVER_ONLY = Symbol.for('quire.island.serverOnly');

export interface ServerOnly<T> {
  readonly [SERVER_ONLY]: true;
  readonly value: T;
}

/** Wraps a value that the server may use while rendering but must never serialize. */
export function serverOnly<T>(value: T): ServerOnly<T> {
  return Object.freeze({ [SERVER_ONLY]: true as const, value });
}

export function isServerOnly(value: unknown): value is ServerOnly<unknown> {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[SERVER_ONLY] === true;
}

function isServerOnlyKey(key: string): boolean {
  return SERVER_ONLY_KEYS.has(key.toLowerCase());
}

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function fail(code: PropsErrorCode, message: string, path: string): { ok: false; error: PropsError } {
  return { ok: false, error: { code, message, path } };
}

/** Returns a JSON-ready copy without server-only values, or the first problem found. */
function sanitize(
  value: unknown,
  path: string,
  depth: number,
  seen: Set<object>,
  dropped: string[],
  limits: PropsLimits,
): { ok: true; value: unknown } | { ok: false; error: PropsError } {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return { ok: true, value };
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return fail('PROPS_NOT_SERIALIZABLE', `non-finite number ${value}`, path);
    // -0 would come back as 0; normalizing here keeps serialize/parse an exact round trip.
    return { ok: true, value: Object.is(value, -0) ? 0 : value };
  }
  if (typeof value !== 'object') return fail('PROPS_NOT_SERIALIZABLE', `value of type ${typeof value}`, path);
  if (depth >= limits.maxDepth) return fail('PROPS_TOO_DEEP', `nesting deeper than ${limits.maxDepth}`, path);
  if (seen.has(value)) return fail('PROPS_CYCLE', 'cyclic reference', path);
  seen.add(value);
  try {
    if (Array.isArray(value)) {
      const out: unknown[] = [];
      for (let i = 0; i < value.length; i++) {
        const item = value[i];
        if (isServerOnly(item)) {
          // An array slot cannot be omitted without shifting the others; null keeps positions.
          dropped.push(`${path}/${i}`);
          out.push(null);
          continue;
        }
        if (item === undefined) return fail('PROPS_NOT_SERIALIZABLE', 'undefined array item', `${path}/${i}`);
        const r = sanitize(item, `${path}/${i}`, depth + 1, seen, dropped, limits);
        if (!r.ok) return r;
        out.push(r.value);
      }
      return { ok: true, value: out };
    }
    if (!isPlainObject(value)) {
      const name = (value as { constructor?: { name?: string } }).constructor?.name ?? 'object';
      return fail('PROPS_NOT_SERIALIZABLE', `instance of ${name}`, path);
    }
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const item = (value as Record<string, unknown>)[key];
      const itemPath = `${path}/${key}`;
      if (item === undefined) continue;
      if (isServerOnly(item) || isServerOnlyKey(key) || key === '__proto__') {
        dropped.push(itemPath);
        continue;
      }
      const r = sanitize(item, itemPath, depth + 1, seen, dropped, limits);
      if (!r.ok) return r;
      out[key] = r.value;
    }
    return { ok: true, value: out };
  } finally {
    seen.delete(value);
  }
}

const UNSAFE_IN_SCRIPT = /[<>&\u2028\u2029]/g;

function escapeForScript(json: string): string {
  return json.replace(UNSAFE_IN_SCRIPT, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Whether JSON.stringify writes `value` exactly as `sanitize`'s copy of it: a scalar that is a
 * string, a boolean, null or a finite number (JSON writes -0 as 0, as the copy has it), or a
 * plain object of such scalars (undefined members left out by both) with no server-only or
 * `__proto__` name, within the depth limit. The server
 * serializes such small objects on every page (sf-context's page members, `siteUser`), and
 * the copy, its paths and the cycle set were most of their cost.
 */
function isFlat(value: unknown, limits: PropsLimits): boolean {
  if (value === null || typeof value !== 'object') return isPlainScalar(value);
  if (limits.maxDepth <= 0 || Array.isArray(value) || !isPlainObject(value) || isServerOnly(value)) return false;
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key];
    if (item !== undefined && (!isPlainScalar(item) || key === '__proto__' || isServerOnlyKey(key))) return false;
  }
  return true;
}

function isPlainScalar(value: unknown): boolean {
  return value === null || typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
}

/** Serializes props for an inline JSON script block. Never throws. */
export function serializeProps(value: unknown, limits: PropsLimits = DEFAULT_PROPS_LIMITS): SerializeResult {
  const dropped: string[] = [];
  if (value === undefined || isServerOnly(value)) {
    return fail('PROPS_NOT_SERIALIZABLE', 'the root value cannot be omitted', '');
  }
  let clean: unknown = value;
  if (!isFlat(value, limits)) {
    const copy = sanitize(value, '', 0, new Set(), dropped, limits);
    if (!copy.ok) return copy;
    clean = copy.value;
  }
  const text = escapeForScript(JSON.stringify(clean));
  if (text.length > limits.maxChars) {
    return fail('PROPS_TOO_LARGE', `serialized props exceed ${limits.maxChars} characters`, '');
  }
  return { ok: true, text, dropped };
}

/** Parses the text of a props block. Never throws; `__proto__` keys are discarded. */
export function parseProps(text: string, limits: PropsLimits = DEFAULT_PROPS_LIMITS): ParseResult {
  if (typeof text !== 'string') return fail('PROPS_PARSE', 'props text is not a string', '');
  if (text.length > limits.maxChars) {
    return fail('PROPS_TOO_LARGE', `props text exceeds ${limits.maxChars} characters`, '');
  }
  try {
    const value: unknown = JSON.parse(text, (key, v) => (key === '__proto__' ? undefined : v));
    return { ok: true, value };
  } catch (err) {
    return fail('PROPS_PARSE', err instanceof Error ? err.message : 'invalid JSON', '');
  }
}
