import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseStartArgs, resolveTypedPaths, shownSiteDir, StartOptionsError } from './start-options.ts';
import { DEFAULT_RETENTION } from './store/retention.ts';

const root = '/repo';

describe('npm start options', () => {
  it('defaults to the demo site on 127.0.0.1:3000 with one worker', () => {
    expect(parseStartArgs([], {}, root)).toEqual({
      host: '127.0.0.1',
      port: 3000,
      workers: 1,
      siteDir: path.join(root, 'fixtures', 'sites', 'demo'),
      assetsDir: path.join(root, 'dist', 'assets'),
      databaseUrl: undefined,
      trustProxy: false,
      limits: {
        maxConnections: 4096,
        maxConnectionsPerIp: 64,
        headersTimeoutMs: 15_000,
        requestTimeoutMs: 30_000,
        keepAliveTimeoutMs: 5_000,
        connectionTimeoutMs: 30_000,
        maxRequestsPerSocket: 0,
      },
      retention: DEFAULT_RETENTION,
    });
  });

  it.each([
    ['false', false],
    ['', false],
    ['true', 1],
    ['2', 2],
    ['10.0.0.0/8, 127.0.0.1,loopback', ['10.0.0.0/8', '127.0.0.1', 'loopback']],
    ['::1,fd00::/8', ['::1', 'fd00::/8']],
  ])('reads TRUST_PROXY=%j as %j', (text, expected) => {
    expect(parseStartArgs([], { TRUST_PROXY: text }, root).trustProxy).toEqual(expected);
  });

  it('reads HOST, PORT, DATABASE_URL, SITE_DIR, --workers N and --site=DIR', () => {
    const options = parseStartArgs(['--workers', '3', '--site=/sites/x'], { HOST: '0.0.0.0', PORT: '8080', DATABASE_URL: 'postgres://db/x', SITE_DIR: '/ignored' }, root);
    expect(options).toMatchObject({ host: '0.0.0.0', port: 8080, workers: 3, siteDir: '/sites/x', databaseUrl: 'postgres://db/x' });
  });

  it("under npm's start script, a relative SITE_DIR, DATA_DIR or --site is read from where it was typed (INIT_CWD), not the package folder", () => {
    // `cd ~/shops && SITE_DIR=my-shop DATA_DIR=my-shop-data npm --prefix ~/quire start`
    const env: NodeJS.ProcessEnv = { npm_lifecycle_event: 'start', INIT_CWD: '/home/ada/shops', SITE_DIR: 'my-shop', DATA_DIR: 'my-shop-data' };
    resolveTypedPaths(env);
    expect(env).toMatchObject({ SITE_DIR: '/home/ada/shops/my-shop', DATA_DIR: '/home/ada/shops/my-shop-data' });
    expect(parseStartArgs([], env, root).siteDir).toBe('/home/ada/shops/my-shop');
    expect(parseStartArgs(['--site', 'other'], { npm_lifecycle_event: 'start', INIT_CWD: '/home/ada/shops' }, root).siteDir).toBe('/home/ada/shops/other');
    // Absolute paths and unset values stay; outside npm's start script (a test spawning the
    // server, `npm test`'s children) the working folder is the base, as before.
    const absolute: NodeJS.ProcessEnv = { npm_lifecycle_event: 'start', INIT_CWD: '/home/ada', SITE_DIR: '/srv/shop', DATA_DIR: '' };
    resolveTypedPaths(absolute);
    expect(absolute).toMatchObject({ SITE_DIR: '/srv/shop', DATA_DIR: '' });
    const spawned: NodeJS.ProcessEnv = { npm_lifecycle_event: 'test', INIT_CWD: '/home/ada', DATA_DIR: 'data' };
    resolveTypedPaths(spawned);
    expect(spawned.DATA_DIR).toBe('data');
    expect(parseStartArgs(['--site', 'x'], spawned, root).siteDir).toBe(path.resolve('x'));
  });

  it('names the served folder relative to where npm start was typed when below it, else absolute', () => {
    const typed = { npm_lifecycle_event: 'start', INIT_CWD: '/home/ada/shops' };
    expect(shownSiteDir('/home/ada/shops/my-shop', typed, root)).toBe('my-shop');
    expect(shownSiteDir('/tmp/elsewhere', typed, root)).toBe('/tmp/elsewhere');
    expect(shownSiteDir(path.join(root, 'fixtures', 'sites', 'demo'), {}, root)).toBe(path.join('fixtures', 'sites', 'demo'));
    expect(shownSiteDir(root, {}, root)).toBe(root);
  });

  it.each([
    [['--workers', '0'], {}],
    [['--workers', 'two'], {}],
    [['--workers'], {}],
    [['--verbose'], {}],
    [[], { PORT: '70000' }],
    [[], { PORT: 'http' }],
    [[], { TRUST_PROXY: '0' }],
    [[], { TRUST_PROXY: 'yes' }],
    [[], { TRUST_PROXY: '10.0.0.0/33' }],
    [[], { TRUST_PROXY: '10.0.0.1/8/1' }],
    [[], { TRUST_PROXY: '10.0.0.1,,10.0.0.2' }],
    [[], { MAX_CONNECTIONS: '0' }],
    [[], { MAX_CONNECTIONS: '1e3' }],
    [[], { MAX_CONNECTIONS: '-5' }],
    [[], { MAX_CONNECTIONS_PER_IP: 'many' }],
    [[], { HEADERS_TIMEOUT_MS: '0' }],
    [[], { KEEP_ALIVE_TIMEOUT_MS: '2.5' }],
    [[], { REQUEST_TIMEOUT_MS: '3600001' }],
    [[], { HEADERS_TIMEOUT_MS: '40000', REQUEST_TIMEOUT_MS: '20000' }],
  ])('refuses %j %j with a StartOptionsError', (argv, env) => {
    expect(() => parseStartArgs(argv, env, root)).toThrow(StartOptionsError);
  });
});

describe('connection limits', () => {
  it('reads every limit from the environment', () => {
    const env = {
      MAX_CONNECTIONS: '200',
      MAX_CONNECTIONS_PER_IP: '8',
      HEADERS_TIMEOUT_MS: '2000',
      REQUEST_TIMEOUT_MS: '9000',
      KEEP_ALIVE_TIMEOUT_MS: '1500',
      CONNECTION_TIMEOUT_MS: '0',
      MAX_REQUESTS_PER_SOCKET: '0',
    };
    expect(parseStartArgs([], env, root).limits).toEqual({
      maxConnections: 200,
      maxConnectionsPerIp: 8,
      headersTimeoutMs: 2000,
      requestTimeoutMs: 9000,
      keepAliveTimeoutMs: 1500,
      connectionTimeoutMs: 0,
      maxRequestsPerSocket: 0,
    });
  });

  it('keeps MAX_CONNECTIONS within three quarters of the open-file limit', () => {
    expect(parseStartArgs([], {}, root, 1024).limits.maxConnections).toBe(768);
    expect(parseStartArgs([], {}, root, 1_048_576).limits.maxConnections).toBe(4096);
    expect(parseStartArgs([], { MAX_CONNECTIONS: '15000' }, root, 20_000).limits.maxConnections).toBe(15_000);
    expect(() => parseStartArgs([], { MAX_CONNECTIONS: '15001' }, root, 20_000)).toThrow(/open-file limit of 20000: at most 15000/);
  });

  it('counts connections per address only when no proxy stands in front (every visitor would share its address)', () => {
    expect(parseStartArgs([], { TRUST_PROXY: 'loopback' }, root).limits.maxConnectionsPerIp).toBe(0);
    expect(parseStartArgs([], { TRUST_PROXY: '1', MAX_CONNECTIONS_PER_IP: '500' }, root).limits.maxConnectionsPerIp).toBe(500);
  });

  it('lets a longer header deadline raise the default request deadline with it', () => {
    expect(parseStartArgs([], { HEADERS_TIMEOUT_MS: '45000' }, root).limits.requestTimeoutMs).toBe(45_000);
  });
});

describe('retention', () => {
  const DAY = 24 * 60 * 60_000;

  it('reads the periods in days from RETAIN_*_DAYS; form keys keep their day', () => {
    const env = { RETAIN_CENSUS_DAYS: '7', RETAIN_TRACKER_DAYS: '14', RETAIN_ERROR_REPORTS_DAYS: '3', RETAIN_PERFORMANCE_DAYS: '365' };
    expect(parseStartArgs([], env, root).retention).toEqual({
      censusEvents: 7 * DAY,
      clankerEvents: 14 * DAY,
      jsErrorReports: 3 * DAY,
      performancePageLoads: 365 * DAY,
      formSubmissionKeys: DEFAULT_RETENTION.formSubmissionKeys,
    });
  });

  it.each(['0', '1.5', '-3', 'forever', '3651'])('refuses RETAIN_CENSUS_DAYS=%j', (text) => {
    expect(() => parseStartArgs([], { RETAIN_CENSUS_DAYS: text }, root)).toThrow(StartOptionsError);
    expect(() => parseStartArgs([], { RETAIN_CENSUS_DAYS: text }, root)).toThrow(/RETAIN_CENSUS_DAYS must be an integer from 1 to 3650/);
  });
});
