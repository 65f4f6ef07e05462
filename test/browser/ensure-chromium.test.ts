import { describe, expect, test } from 'vitest';
import { browserTierDecision, ensureChromium, type ChromiumHost, type CommandResult } from './ensure-chromium.ts';

/** A fake machine: which files exist, whether we are root, and what apt-get answers. */
function host(options: { files?: string[]; root?: boolean; apt?: Record<string, CommandResult>; installs?: string } = {}) {
  const files = new Set(options.files ?? []);
  const calls: string[] = [];
  const fake: ChromiumHost = {
    executable: (path) => files.has(path),
    isRoot: () => options.root ?? true,
    run(program, args) {
      const line = `${program} ${args.join(' ')}`;
      calls.push(line);
      const answer = options.apt?.[args[0]!] ?? { status: 0, output: '' };
      if (args[0] === 'install' && answer.status === 0 && options.installs) files.add(options.installs);
      return answer;
    },
  };
  return { fake, calls };
}

describe('ensureChromium', () => {
  test('an installed /usr/bin/chromium is used as is, without apt', () => {
    const { fake, calls } = host({ files: ['/usr/bin/chromium', '/usr/bin/apt-get'] });
    expect(ensureChromium(fake, {})).toEqual({ kind: 'ready', path: '/usr/bin/chromium', installed: false });
    expect(calls).toEqual([]);
  });

  test('a missing browser is installed with apt-get update, then install -y chromium', () => {
    const { fake, calls } = host({ files: ['/usr/bin/apt-get'], installs: '/usr/bin/chromium' });
    expect(ensureChromium(fake, {})).toEqual({ kind: 'ready', path: '/usr/bin/chromium', installed: true });
    expect(calls).toEqual(['apt-get update', 'apt-get install -y chromium']);
  });

  test('an apt failure is reported with its exit code and the end of its output', () => {
    const { fake, calls } = host({
      files: ['/usr/bin/apt-get'],
      apt: { install: { status: 100, output: 'Reading package lists...\nE: Unable to locate package chromium\n' } },
    });
    const outcome = ensureChromium(fake, {});
    expect(outcome.kind).toBe('failed');
    expect(outcome.kind === 'failed' && outcome.reason).toMatch(/apt-get install -y chromium failed \(exit 100\): .*Unable to locate package chromium/s);
    expect(calls).toHaveLength(2);
  });

  test('a failed update stops before the install', () => {
    const { fake, calls } = host({ files: ['/usr/bin/apt-get'], apt: { update: { status: null, output: '' } } });
    expect(ensureChromium(fake, {})).toMatchObject({ kind: 'failed', reason: expect.stringContaining('did not run') });
    expect(calls).toEqual(['apt-get update']);
  });

  test('an install that leaves no binary behind is a failure', () => {
    const { fake } = host({ files: ['/usr/bin/apt-get'] });
    expect(ensureChromium(fake, {})).toMatchObject({ kind: 'failed', reason: expect.stringContaining('still missing') });
  });

  test('no apt-get, or not root: unavailable, and nothing is run', () => {
    const noApt = host({ files: [] });
    expect(ensureChromium(noApt.fake, {})).toMatchObject({ kind: 'unavailable', reason: expect.stringContaining('apt-get is not available') });
    const notRoot = host({ files: ['/usr/bin/apt-get'], root: false });
    expect(ensureChromium(notRoot.fake, {})).toMatchObject({ kind: 'unavailable', reason: expect.stringContaining('needs root') });
    expect([...noApt.calls, ...notRoot.calls]).toEqual([]);
  });

  test('QUIRE_CHROMIUM picks another binary and is never installed', () => {
    const present = host({ files: ['/opt/chrome'] });
    expect(ensureChromium(present.fake, { QUIRE_CHROMIUM: '/opt/chrome' })).toEqual({ kind: 'ready', path: '/opt/chrome', installed: false });
    const missing = host({ files: ['/usr/bin/apt-get'] });
    expect(ensureChromium(missing.fake, { QUIRE_CHROMIUM: '/opt/chrome' })).toMatchObject({ kind: 'failed' });
    expect(missing.calls).toEqual([]);
  });
});

describe('browserTierDecision', () => {
  const unavailable = { kind: 'unavailable', reason: 'no apt' } as const;
  const failed = { kind: 'failed', reason: 'apt broke' } as const;

  test('ready runs with the path', () => {
    expect(browserTierDecision({ kind: 'ready', path: '/usr/bin/chromium', installed: false }, { CI: 'true' })).toEqual({ run: '/usr/bin/chromium' });
  });

  test('outside CI, only an unavailable apt may skip', () => {
    expect(browserTierDecision(unavailable, {})).toEqual({ skip: 'no apt' });
    expect(browserTierDecision(unavailable, { CI: 'false' })).toEqual({ skip: 'no apt' });
    expect(browserTierDecision(failed, {})).toEqual({ fail: 'browser tier cannot run: apt broke' });
  });

  test('in CI nothing skips', () => {
    expect(browserTierDecision(unavailable, { CI: 'true' })).toEqual({ fail: 'browser tier cannot run: no apt' });
    expect(browserTierDecision(failed, { CI: '1' })).toEqual({ fail: 'browser tier cannot run: apt broke' });
  });
});
