import { isIP } from 'node:net';
import path from 'node:path';
import type { ConnectionLimits } from './connection-limits.ts';
import { DEFAULT_RETENTION, type RetentionPeriods } from './store/retention.ts';

/** A bad command line or environment for `npm start`; main prints it and exits with 2. */
export class StartOptionsError extends Error {}

const fail = (message: string): never => {
  throw new StartOptionsError(message);
};

/** `npm start` options from the command line (`--workers N`, `--site DIR`) and the environment. */
export interface StartOptions {
  host: string;
  port: number;
  workers: number;
  siteDir: string;
  assetsDir: string;
  databaseUrl: string | undefined;
  /**
   * TRUST_PROXY: which proxies' `X-Forwarded-*` headers give the client address that rate
   * limits count by (Fastify's `trustProxy`, through `fastifyTrustProxy`). Unset or `false`:
   * none, the socket's peer is the client. A number: that many hops. `true`: one hop (see
   * `parseTrustProxy`). Otherwise addresses, CIDR ranges or `loopback` / `linklocal` /
   * `uniquelocal`, comma-separated.
   */
  trustProxy: false | number | string[];
  /** Connection caps and timeouts (README "Limits"). */
  limits: ConnectionLimits;
  /** How long anonymous writes are kept (README "Limits"): RETAIN_*_DAYS. */
  retention: RetentionPeriods;
}

const PROXY_KEYWORDS = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * `true` is one hop. Fastify's own `true` trusts every hop, so the client address is the
 * leftmost X-Forwarded-For entry, which the client writes itself: behind a proxy that appends
 * (nginx's `$proxy_add_x_forwarded_for`, most load balancers) every request could name a new
 * address and pass each per-IP limit as a new client. One hop takes the entry the nearest
 * proxy appended, which the client cannot forge; a longer chain sets its hop count or its
 * proxies' addresses. `npm start` says so once (`TRUST_PROXY_TRUE_NOTE`).
 */
function parseTrustProxy(text: string | undefined): false | number | string[] {
  const value = (text ?? '').trim();
  if (value === '' || value === 'false') return false;
  if (value === 'true') return 1;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops < 1 || hops > 32) fail(`TRUST_PROXY hops must be from 1 to 32, not "${value}"`);
    return hops;
  }
  return value.split(',').map((entry) => {
    const item = entry.trim();
    if (PROXY_KEYWORDS.has(item)) return item;
    const [address, prefix, extra] = item.split('/');
    const family = isIP(address ?? '');
    const bits = family === 4 ? 32 : 128;
    const prefixOk = prefix === undefined || (/^\d+$/.test(prefix) && Number(prefix) <= bits);
    if (family === 0 || !prefixOk || extra !== undefined) {
      fail(`TRUST_PROXY: "${item}" is not an address, a CIDR range, loopback, linklocal or uniquelocal (or use true, false or a hop count)`);
    }
    return item;
  });
}

/** What `npm start` prints when TRUST_PROXY is `true` (read as one hop). */
export const TRUST_PROXY_TRUE_NOTE =
  'quire: TRUST_PROXY=true counts one proxy hop: the client is the address your nearest proxy appended to X-Forwarded-For, not the leftmost (which a client can write itself); behind more proxies set their number (TRUST_PROXY=2) or their addresses';

/**
 * The option as Fastify takes it. A hop count becomes a function of the hop's index: Fastify
 * (proxy-addr) walks from the socket's peer (index 0) leftwards through X-Forwarded-For and
 * stops at the first address not trusted, so trusting indexes below `hops` makes the client
 * the entry the `hops`-th proxy appended, whatever the client put before it.
 */
export function fastifyTrustProxy(option: StartOptions['trustProxy']): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof option !== 'number') return option;
  return (_address, hop) => hop < option;
}

/** MAX_CONNECTIONS when unset, unless the file limit leaves less room. */
export const DEFAULT_MAX_CONNECTIONS = 4096;
/**
 * The share of the process's open-file limit that sockets may take: the rest stays for the
 * database, the site's files and the cluster's channels, so a full server still works.
 */
export const FILE_LIMIT_SHARE = 0.75;

const DEFAULT_LIMITS = {
  // A browser opens at most 6 connections to a host; 64 leaves room for a few behind one NAT.
  maxConnectionsPerIp: 64,
  headersTimeoutMs: 15_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  connectionTimeoutMs: 30_000,
  // Off by default: Node answers 503 to a request that reaches a socket past its limit before
  // the client has seen the `Connection: close` of the last one (bench:http met 12,579 such
  // 503s in 3 s at 10 connections); the idle deadlines above already bound a socket's life.
  maxRequestsPerSocket: 0,
};

function integerSetting(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const text = env[name]?.trim();
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max) fail(`${name} must be an integer from ${min} to ${max}, not "${env[name]}"`);
  return value;
}

/**
 * The connection limits from the environment. `fileLimit` is the process's open-file limit
 * (null when unknown): MAX_CONNECTIONS may use at most FILE_LIMIT_SHARE of it.
 */
function parseLimits(env: NodeJS.ProcessEnv, fileLimit: number | null, trustProxy: StartOptions['trustProxy']): ConnectionLimits {
  const room = fileLimit === null ? 1_000_000 : Math.floor(fileLimit * FILE_LIMIT_SHARE);
  if (room < 1) fail(`the open-file limit (${fileLimit}) leaves no room for connections; raise it (ulimit -n)`);
  const maxConnections = integerSetting(env, 'MAX_CONNECTIONS', Math.min(DEFAULT_MAX_CONNECTIONS, room), 1, 1_000_000);
  if (maxConnections > room) {
    fail(`MAX_CONNECTIONS=${maxConnections} does not fit the open-file limit of ${fileLimit}: at most ${room} (raise ulimit -n or lower MAX_CONNECTIONS)`);
  }
  const hour = 3_600_000;
  const headersTimeoutMs = integerSetting(env, 'HEADERS_TIMEOUT_MS', DEFAULT_LIMITS.headersTimeoutMs, 1, hour);
  const requestTimeoutMs = integerSetting(env, 'REQUEST_TIMEOUT_MS', Math.max(DEFAULT_LIMITS.requestTimeoutMs, headersTimeoutMs), 1, hour);
  // Node's own rule: the headers are part of the request, so their deadline cannot be later.
  if (headersTimeoutMs > requestTimeoutMs) fail(`HEADERS_TIMEOUT_MS (${headersTimeoutMs}) must not exceed REQUEST_TIMEOUT_MS (${requestTimeoutMs})`);
  return {
    maxConnections,
    // Behind a proxy every visitor arrives from the proxy's address: count per client there.
    maxConnectionsPerIp: integerSetting(env, 'MAX_CONNECTIONS_PER_IP', trustProxy === false ? DEFAULT_LIMITS.maxConnectionsPerIp : 0, 0, 1_000_000),
    headersTimeoutMs,
    requestTimeoutMs,
    keepAliveTimeoutMs: integerSetting(env, 'KEEP_ALIVE_TIMEOUT_MS', DEFAULT_LIMITS.keepAliveTimeoutMs, 1, hour),
    connectionTimeoutMs: integerSetting(env, 'CONNECTION_TIMEOUT_MS', DEFAULT_LIMITS.connectionTimeoutMs, 0, hour),
    maxRequestsPerSocket: integerSetting(env, 'MAX_REQUESTS_PER_SOCKET', DEFAULT_LIMITS.maxRequestsPerSocket, 0, 1_000_000),
  };
}

const DAY_MS = 24 * 60 * 60_000;
/** The retention periods an operator sets, in whole days (form keys keep their fixed day). */
const RETENTION_SETTINGS = {
  RETAIN_CENSUS_DAYS: 'censusEvents',
  RETAIN_TRACKER_DAYS: 'clankerEvents',
  RETAIN_ERROR_REPORTS_DAYS: 'jsErrorReports',
  RETAIN_PERFORMANCE_DAYS: 'performancePageLoads',
} as const;

function parseRetention(env: NodeJS.ProcessEnv): RetentionPeriods {
  const periods = { ...DEFAULT_RETENTION };
  for (const [name, table] of Object.entries(RETENTION_SETTINGS)) {
    periods[table] = integerSetting(env, name, DEFAULT_RETENTION[table] / DAY_MS, 1, 3650) * DAY_MS;
  }
  return periods;
}

/**
 * npm runs a script in the package's folder, not in the one it was typed in (npm's `INIT_CWD`),
 * so `SITE_DIR=my-shop npm --prefix ../quire start` looked for `../quire/my-shop` and stopped
 * with SITE_NOT_FOUND. Under npm's `start` script a relative path the owner typed is read
 * from where it was typed. Any other caller (a test or tool that spawns the server with its
 * own working folder, `npm test`'s children) keeps the working folder.
 */
export function typedFrom(env: NodeJS.ProcessEnv): string | null {
  return env.npm_lifecycle_event === 'start' && env.INIT_CWD ? env.INIT_CWD : null;
}

/**
 * Makes a relative SITE_DIR and DATA_DIR absolute from where `npm start` was typed (`typedFrom`),
 * in `env` itself: DATA_DIR is read by the store and the outbox worker, and cluster workers
 * inherit the environment.
 */
export function resolveTypedPaths(env: NodeJS.ProcessEnv): void {
  const base = typedFrom(env);
  if (base === null) return;
  for (const name of ['SITE_DIR', 'DATA_DIR'] as const) {
    const value = env[name];
    if (value && value.trim() !== '' && !path.isAbsolute(value)) env[name] = path.resolve(base, value);
  }
}

/**
 * The site folder as the start log names it: relative to where `npm start` was typed (else the
 * package folder) when it lies below it, else absolute (it read `../../tmp/shops/my-shop`).
 */
export function shownSiteDir(siteDir: string, env: NodeJS.ProcessEnv, root: string): string {
  const relative = path.relative(typedFrom(env) ?? root, siteDir);
  return relative === '' || relative.startsWith('..') || path.isAbsolute(relative) ? path.resolve(siteDir) : relative;
}

export function parseStartArgs(argv: readonly string[], env: NodeJS.ProcessEnv, root: string, fileLimit: number | null = null): StartOptions {
  let workers = 1;
  let siteDir = env.SITE_DIR ?? path.join(root, 'fixtures', 'sites', 'demo');
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = (): string => inline ?? argv[++i] ?? fail(`${flag} needs a value`);
    if (flag === '--workers') {
      const text = value();
      workers = Number(text);
      if (!Number.isInteger(workers) || workers < 1 || workers > 64) fail(`--workers must be an integer from 1 to 64, not "${text}"`);
    } else if (flag === '--site') {
      siteDir = path.resolve(typedFrom(env) ?? '', value());
    } else {
      fail(`unknown argument "${arg}" (known: --workers N, --site DIR)`);
    }
  }
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`PORT must be a port number, not "${env.PORT}"`);
  const trustProxy = parseTrustProxy(env.TRUST_PROXY);
  return {
    host: env.HOST || '127.0.0.1',
    port,
    workers,
    siteDir,
    assetsDir: path.join(root, 'dist', 'assets'),
    databaseUrl: env.DATABASE_URL,
    trustProxy,
    limits: parseLimits(env, fileLimit, trustProxy),
    retention: parseRetention(env),
  };
}

