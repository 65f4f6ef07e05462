import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseStartArgs, StartOptionsError } from './start-options.ts';

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
    });
  });

  it.each([
    ['false', false],
    ['', false],
    ['true', true],
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
  ])('refuses %j %j with a StartOptionsError', (argv, env) => {
    expect(() => parseStartArgs(argv, env, root)).toThrow(StartOptionsError);
  });
});
