import { isIP } from 'node:net';
import path from 'node:path';

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
   * limits count by (Fastify's `trustProxy`). Unset or `false`: none, the socket's peer is the
   * client. `true`: every hop (only behind a proxy that overwrites the header). A number:
   * that many hops. Otherwise addresses, CIDR ranges or `loopback` / `linklocal` /
   * `uniquelocal`, comma-separated.
   */
  trustProxy: boolean | number | string[];
}

const PROXY_KEYWORDS = new Set(['loopback', 'linklocal', 'uniquelocal']);

function parseTrustProxy(text: string | undefined): boolean | number | string[] {
  const value = (text ?? '').trim();
  if (value === '' || value === 'false') return false;
  if (value === 'true') return true;
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


export function parseStartArgs(argv: readonly string[], env: NodeJS.ProcessEnv, root: string): StartOptions {
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
      siteDir = path.resolve(value());
    } else {
      fail(`unknown argument "${arg}" (known: --workers N, --site DIR)`);
    }
  }
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`PORT must be a port number, not "${env.PORT}"`);
  return {
    host: env.HOST || '127.0.0.1',
    port,
    workers,
    siteDir,
    assetsDir: path.join(root, 'dist', 'assets'),
    databaseUrl: env.DATABASE_URL,
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
  };
}

