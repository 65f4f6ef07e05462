// Vitest global setup: the PostgreSQL suites need the local service, which a fresh machine
// may have installed but stopped. Start it when that is possible; otherwise say nothing,
// because those suites already report themselves skipped with the reason.
import { spawnSync } from 'node:child_process';

export interface CommandResult {
  status: number | null;
  stdout: string;
}

/** Runs one command; `status` is null when the program is missing or timed out. */
export type RunCommand = (program: string, args: readonly string[]) => CommandResult;

export interface Cluster {
  version: string;
  name: string;
  status: string;
}

export type PostgresOutcome = 'already-running' | 'started' | 'not-installed' | 'start-failed';

const defaultRun: RunCommand = (program, args) => {
  const result = spawnSync(program, args, { encoding: 'utf8', timeout: 20_000, stdio: ['ignore', 'pipe', 'ignore'] });
  return { status: result.error ? null : result.status, stdout: result.stdout ?? '' };
};

/** Reads `pg_lsclusters --no-header` lines: version, cluster name, port, status, … */
export function parseClusters(text: string): Cluster[] {
  const clusters: Cluster[] = [];
  for (const line of text.split('\n')) {
    const [version, name, , status] = line.trim().split(/\s+/);
    if (version && name && status && /^\d+(\.\d+)?$/.test(version)) clusters.push({ version, name, status });
  }
  return clusters;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const ready = (run: RunCommand) => run('pg_isready', ['-q', '-h', '127.0.0.1', '-p', '5432']).status === 0;

/**
 * Starts every stopped Debian-style cluster and waits (up to `waitMs`) until 127.0.0.1:5432
 * accepts connections. `--skip-systemctl-redirect` because containers run without systemd.
 */
export async function ensurePostgres(options: { run?: RunCommand; waitMs?: number; pollMs?: number } = {}): Promise<PostgresOutcome> {
  const run = options.run ?? defaultRun;
  const waitMs = options.waitMs ?? 60_000; // generous: a cluster starts slowly on a busy machine
  const pollMs = options.pollMs ?? 250;
  if (ready(run)) return 'already-running';
  const listed = run('pg_lsclusters', ['--no-header']);
  if (listed.status === null) return 'not-installed';
  const stopped = parseClusters(listed.stdout).filter((cluster) => cluster.status === 'down');
  if (stopped.length === 0) return 'start-failed';
  for (const cluster of stopped) run('pg_ctlcluster', ['--skip-systemctl-redirect', cluster.version, cluster.name, 'start']);
  for (let waited = 0; waited <= waitMs; waited += pollMs) {
    if (ready(run)) return 'started';
    await sleep(pollMs);
  }
  return 'start-failed';
}

export default async function setup(): Promise<void> {
  if (process.env.QUIRE_NO_PG_START === '1') return;
  await ensurePostgres().catch(() => 'start-failed');
}
