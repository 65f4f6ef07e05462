// Finds Debian's Chromium for the browser tier and installs it with apt when it is missing.
// A fresh CI machine has apt and root but no browser; a developer laptop may have neither.
// The caller turns the outcome into a loud failure (CI, or apt failed) or a skip with the
// reason (apt unavailable outside CI): a silent skip would hide a whole tier.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';

export const DEFAULT_CHROMIUM = '/usr/bin/chromium';

export interface CommandResult {
  /** null when the program could not be started or timed out. */
  status: number | null;
  output: string;
}

export interface ChromiumHost {
  executable(path: string): boolean;
  isRoot(): boolean;
  run(program: string, args: readonly string[]): CommandResult;
}

export type ChromiumOutcome =
  | { kind: 'ready'; path: string; installed: boolean }
  | { kind: 'unavailable'; reason: string }
  | { kind: 'failed'; reason: string };

const APT_ENV = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };

export const realHost: ChromiumHost = {
  executable(path) {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  },
  isRoot: () => typeof process.getuid === 'function' && process.getuid() === 0,
  run(program, args) {
    // apt on a cold mirror can take minutes; ten is generous and still bounded.
    const result = spawnSync(program, args, { encoding: 'utf8', env: APT_ENV, timeout: 600_000, stdio: ['ignore', 'pipe', 'pipe'] });
    return { status: result.error ? null : result.status, output: `${result.stdout ?? ''}${result.stderr ?? ''}` };
  },
};

const tail = (text: string) => text.trim().split('\n').slice(-5).join('\n');

/**
 * `QUIRE_CHROMIUM` names another binary (it is then never installed). Otherwise
 * /usr/bin/chromium is used, installed first with `apt-get` when it is missing.
 */
export function ensureChromium(host: ChromiumHost = realHost, env: NodeJS.ProcessEnv = process.env): ChromiumOutcome {
  const wanted = env.QUIRE_CHROMIUM || DEFAULT_CHROMIUM;
  if (host.executable(wanted)) return { kind: 'ready', path: wanted, installed: false };
  if (env.QUIRE_CHROMIUM) return { kind: 'failed', reason: `QUIRE_CHROMIUM=${wanted} is not an executable file` };
  if (!host.executable('/usr/bin/apt-get')) return { kind: 'unavailable', reason: `${wanted} is missing and apt-get is not available to install it` };
  if (!host.isRoot()) return { kind: 'unavailable', reason: `${wanted} is missing and installing it with apt-get needs root` };
  for (const args of [['update'], ['install', '-y', 'chromium']]) {
    const result = host.run('apt-get', args);
    if (result.status !== 0) {
      return { kind: 'failed', reason: `apt-get ${args.join(' ')} failed (${result.status === null ? 'did not run' : `exit ${result.status}`}): ${tail(result.output)}` };
    }
  }
  if (!host.executable(wanted)) return { kind: 'failed', reason: `apt-get installed chromium but ${wanted} is still missing` };
  return { kind: 'ready', path: wanted, installed: true };
}

/** What the tier does with an outcome: run, skip with the reason, or stop the run. */
export function browserTierDecision(outcome: ChromiumOutcome, env: NodeJS.ProcessEnv = process.env): { run: string } | { skip: string } | { fail: string } {
  if (outcome.kind === 'ready') return { run: outcome.path };
  const ci = env.CI !== undefined && env.CI !== '' && env.CI !== 'false' && env.CI !== '0';
  if (outcome.kind === 'unavailable' && !ci) return { skip: outcome.reason };
  return { fail: `browser tier cannot run: ${outcome.reason}` };
}
